// The analysis of a large incident is seconds of one core in one piece: reading its triage events
// from the JSON DuckDB built (~4 s for 131k events on a busy 2-core box) and triage/analyze itself
// (~5-10 s), none of it yielding. On the server's main thread that stopped every other request and
// every other upload for as long (a small upload waited 5 s behind a 64 MiB one in its analysis).
// The server runs it here instead: one worker thread per analysis, handed the store's JSON batches
// (strings: a copy, not a parse, on this thread), answering the Analysis. Same code, same result
// as in process (analyze-off-thread.test.ts); the CLI keeps analysing in process.
import { Worker } from 'node:worker_threads';
import type { Analysis } from '../contract/analysis.ts';
import type { analyze } from '../triage/analyze.ts';

export interface AnalyzeInput {
  whole: Parameters<typeof analyze>[0]['whole'];
  toolPolicy: Parameters<typeof analyze>[0]['toolPolicy'];
  inputs: Parameters<typeof analyze>[0]['inputs'];
  fileEnds: Parameters<typeof analyze>[0]['fileEnds'];
  /** Store.triageEventsJson: pages of rows, one JSON array string per row */
  batches: string[][];
}

export function analyzeOffThread(input: AnalyzeInput): Promise<Analysis> {
  return new Promise((resolve, reject) => {
    // Sources: analyze-worker.mjs (registers tsx); bundle: dist/analyze-worker.mjs beside this chunk.
    const worker = new Worker(new URL('./analyze-worker.mjs', import.meta.url), { workerData: input });
    let answered = false;
    worker.once('message', (a: Analysis) => {
      answered = true;
      resolve(a);
      void worker.terminate();
    });
    worker.once('error', (e) => reject(e));
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the analysis worker exited (${code}) without an answer`));
    });
  });
}
