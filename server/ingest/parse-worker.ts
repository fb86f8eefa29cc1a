// A parse worker (worker_threads): parse + redact one file at a time with a snapshot of the
// incident's session-id book and secret ledger, send the events back in batches, and report
// what the file added to the book and ledger plus a trace of what the ledger sweep looked at,
// so the main thread can prove the result equals serial processing (see parallel.ts).
import { parentPort } from 'node:worker_threads';
import type { Event } from '../../parsers/contract/event.ts';
import type { FormatSpec } from '../../parsers/contract/format.ts';
import { compileFormat, type CompiledFormat } from '../../parsers/engine/apply.ts';
import { readLines } from '../../parsers/engine/lines.ts';
import { newStats, parseFile } from '../../parsers/engine/parse-file.ts';
import { createLineRedactor, SecretLedger, SessionIdBook, SweepTrace, type LedgerRecord } from '../triage/redact/index.ts';
import type { FileJob, WorkerReply } from './parallel.ts';

const BATCH = 2000;
const CHUNK = 64 * 1024;
let formats: CompiledFormat[] | null = null;
let formatsKey: string | null = null;

async function* chunks(buf: Buffer): AsyncGenerator<Buffer> {
  for (let i = 0; i < buf.length; i += CHUNK) yield buf.subarray(i, Math.min(buf.length, i + CHUNK));
}

async function run(job: FileJob): Promise<void> {
  const port = parentPort!;
  if (formatsKey !== job.formatsKey || formats === null) {
    formats = job.formats.map(([spec, origin]) => compileFormat(spec as FormatSpec, origin));
    formatsKey = job.formatsKey;
  }
  const book = new SessionIdBook();
  for (const id of job.bookIds) book.add(id);
  book.lastHeaderName = job.lastHeaderName;
  const bookSize = book.raw.size;
  const ledger = new SecretLedger();
  for (const [rule, v, kind, replacement] of job.ledger) ledger.record(rule, v, kind, replacement);
  const overflow0 = ledger.overflow;
  const journal: LedgerRecord[] = [];
  ledger.journal = journal;
  const trace = new SweepTrace();
  const redactor = createLineRedactor({ key: job.key, tier: job.tier, ids: book, ledger, ...(job.trace ? { trace } : {}) });
  const redactions: Record<string, number> = {};
  const redact = (text: string) => {
    const r = redactor.line(text);
    for (const m of r.remarks) redactions[m.rule] = (redactions[m.rule] ?? 0) + 1;
    return r.text;
  };
  const stats = newStats(job.name);
  let batch: Event[] = [];
  for await (const e of parseFile(readLines(chunks(Buffer.from(job.bytes))), { file: job.name, formats, redact }, stats)) {
    batch.push(e);
    if (batch.length >= BATCH) {
      port.postMessage({ type: 'events', id: job.id, events: batch } satisfies WorkerReply);
      batch = [];
    }
  }
  if (batch.length) port.postMessage({ type: 'events', id: job.id, events: batch } satisfies WorkerReply);
  const added = [...book.raw].slice(bookSize);
  port.postMessage(
    { type: 'done', id: job.id, stats: { ...stats, detection: null }, redactions, journal, overflow: ledger.overflow - overflow0, added, lastHeaderName: book.lastHeaderName, trace: trace.bits } satisfies WorkerReply,
    [trace.bits.buffer as ArrayBuffer],
  );
}

parentPort!.on('message', (job: FileJob) => {
  run(job).catch((e: unknown) => parentPort!.postMessage({ type: 'error', id: job.id, message: e instanceof Error ? e.message : String(e) } satisfies WorkerReply));
});
