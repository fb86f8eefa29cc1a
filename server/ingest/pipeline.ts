// Ingest: entries → (pass 1) raw session ids + content hashes → (pass 2) redact, parse, store.
// Pass 1 exists so an id seen in one file is pseudonymised (and its masked forms resolved)
// in every other file of the same ingest.
import { createHash } from 'node:crypto';
import type { Event } from '../../parsers/contract/event.ts';
import type { CompiledFormat } from '../../parsers/engine/apply.ts';
import { stripAnsi } from '../../parsers/engine/clean.ts';
import { readLines } from '../../parsers/engine/lines.ts';
import { newStats, parseFile, type FileStats } from '../../parsers/engine/parse-file.ts';
import { collectSessionIds, createLineRedactor, SecretLedger, SessionIdBook } from '../triage/redact/index.ts';
import type { EventWriter, FileRow, Store } from '../store/store.ts';
import type { InputEntry } from './inputs.ts';
import { mergeOutcome, outcomeHolds, ParsePool, workerCount, workerOrder, type FileOutcome } from './parallel.ts';

export interface Progress {
  phase: 'scan' | 'parse' | 'analyze';
  file: string;
  fileIndex: number;
  files: number;
  bytes?: number;
}

export interface IngestOptions {
  key: Uint8Array;
  formats: readonly CompiledFormat[];
  onProgress?: (p: Progress) => void;
  /** Content hashes to skip (files already in the incident). */
  skipHashes?: Set<string>;
  /** Parse in worker threads from this many input bytes on (default PARALLEL_MIN_BYTES; tests lower it). */
  parallelMinBytes?: number;
  /** Tests: this many parse workers whatever the input size and core count. */
  workers?: number;
  /** Tests: the workers' memory budget (parallel.ts WORKER_BUDGET_BYTES). */
  workerBudgetBytes?: number;
  /** Tests: told per file whether a worker's result was used (true) or it was parsed in process. */
  onParallel?: (fileIndex: number, fromWorker: boolean) => void;
}

export interface ScannedEntry {
  entry: InputEntry;
  sha256: string;
  bytes: number;
}

/** Pass 1: hash every entry and collect the raw session ids it mentions (memory only). */
export async function scanEntries(entries: readonly InputEntry[], book: SessionIdBook, onProgress?: IngestOptions['onProgress']): Promise<ScannedEntry[]> {
  const out: ScannedEntry[] = [];
  for (const [i, entry] of entries.entries()) {
    onProgress?.({ phase: 'scan', file: entry.name, fileIndex: i, files: entries.length });
    const hash = createHash('sha256');
    let bytes = 0;
    const tee = async function* () {
      for await (const chunk of entry.open()) {
        hash.update(chunk);
        bytes += chunk.length;
        yield chunk;
      }
    };
    for await (const l of readLines(tee())) collectSessionIds(stripAnsi(l.text).text, book);
    out.push({ entry, sha256: hash.digest('hex'), bytes });
  }
  return out;
}

/** Pass 2 for one entry: yields redacted, parsed events; fills stats and redaction counts. */
export async function* parseEntry(
  scanned: ScannedEntry,
  ctx: { key: Uint8Array; book: SessionIdBook; ledger?: SecretLedger; formats: readonly CompiledFormat[]; redactions: Record<string, number> },
  stats: FileStats,
): AsyncGenerator<Event> {
  const redactor = createLineRedactor({ key: ctx.key, ids: ctx.book, ledger: ctx.ledger });
  const redact = (text: string) => {
    const r = redactor.line(text);
    for (const m of r.remarks) ctx.redactions[m.rule] = (ctx.redactions[m.rule] ?? 0) + 1;
    return r.text;
  };
  yield* parseFile(readLines(scanned.entry.open()), { file: scanned.entry.name, formats: ctx.formats, redact }, stats);
}

/**
 * File k from a parse worker: written as it streams when the worker had the complete serial
 * state, else buffered until the verdict. Null: parse it in process instead (nothing was written).
 */
async function fromWorker(pool: ParsePool, k: number, writer: EventWriter, book: SessionIdBook, ledger: SecretLedger, redactions: Record<string, number>): Promise<FileStats | null> {
  const it = pool.stream(k);
  const held: Event[][] = [];
  let written = false;
  let r: IteratorResult<Event[], FileOutcome>;
  try {
    r = await it.next();
    const direct = pool.dispatchedComplete(k);
    for (; !r.done; r = await it.next()) {
      if (direct) {
        for (const e of r.value) writer.write(e);
        written = true;
      } else held.push(r.value);
    }
  } catch (e) {
    // Events already written cannot be taken back: fail the ingest (one transaction) like a parse error.
    if (written) throw new Error(`parse worker failed on ${k + 1}: ${e instanceof Error ? e.message : String(e)}`);
    return null;
  }
  const o = r.value;
  if (!outcomeHolds(o, book, book.lastHeaderName, ledger)) return null;
  for (const batch of held) for (const e of batch) writer.write(e);
  mergeOutcome(o, book, ledger, redactions);
  return o.stats;
}

export function fileRow(no: number, s: ScannedEntry, stats: FileStats): FileRow {
  return {
    fileNo: no,
    path: s.entry.name,
    sha256: s.sha256,
    bytes: s.bytes,
    source: stats.source,
    format: stats.format,
    lines: stats.lines,
    events: stats.events,
    unparsed: stats.unparsed,
    truncatedLines: stats.truncatedLines,
    prefix: stats.prefix,
  };
}

/** Ingest entries into one incident of the store, as one transaction. Returns added and skipped counts. */
export interface IngestResult {
  added: number;
  skipped: number;
  files: FileRow[];
  /** Raw session ids and removed secrets of this ingest: memory only, for the report's leak check. */
  book: SessionIdBook;
  ledger: SecretLedger;
}

export async function ingestIntoStore(store: Store, incidentId: string, name: string, entries: readonly InputEntry[], opts: IngestOptions): Promise<IngestResult> {
  const book = new SessionIdBook();
  const ledger = new SecretLedger();
  // Workers start while pass 1 reads the inputs (their start-up is ~0.5 s under tsx).
  const nWorkers = opts.workers ?? workerCount(entries.length, entries.reduce((n, e) => n + e.size, 0), opts.parallelMinBytes);
  let pool: ParsePool | null = null;
  if (nWorkers > 0) {
    try {
      pool = new ParsePool(nWorkers, opts.workerBudgetBytes);
    } catch {
      pool = null;
    }
  }
  try {
    return await ingestWith(pool, book, ledger, store, incidentId, name, entries, opts);
  } finally {
    await pool?.close();
  }
}

async function ingestWith(pool: ParsePool | null, book: SessionIdBook, ledger: SecretLedger, store: Store, incidentId: string, name: string, entries: readonly InputEntry[], opts: IngestOptions): Promise<IngestResult> {
  const scanned = await scanEntries(entries, book, opts.onProgress);
  const seen = new Set(opts.skipHashes ?? []);
  const fresh: ScannedEntry[] = [];
  for (const s of scanned) {
    if (seen.has(s.sha256)) continue;
    seen.add(s.sha256);
    fresh.push(s);
  }
  const skipped = scanned.length - fresh.length;
  const files = await store.ingest(incidentId, name, async (writer, _seq, file0) => {
    const rows: FileRow[] = [];
    const redactions: Record<string, number> = {};
    let merged = 0; // files 0..merged-1 are written and their book/ledger changes applied
    const parallel = pool !== null && fresh.length >= 2;
    if (parallel) pool!.start(fresh, workerOrder(fresh), { key: opts.key, book, ledger, formats: opts.formats, isMergedUpTo: (k) => k === merged });
    for (const [i, s] of fresh.entries()) {
      opts.onProgress?.({ phase: 'parse', file: s.entry.name, fileIndex: i, files: fresh.length, bytes: s.bytes });
      let stats: FileStats | null = null;
      // The main thread parses the next file itself unless a worker already has it.
      if (parallel && !pool!.claim(i)) {
        stats = await fromWorker(pool!, i, writer, book, ledger, redactions);
        opts.onParallel?.(i, stats !== null);
      }
      if (stats === null) {
        // In process: small inputs, no workers, a file no worker took yet, or a worker's result
        // that serial processing would not have produced (a secret found in an earlier file occurs in it).
        stats = newStats(s.entry.name);
        for await (const e of parseEntry(s, { key: opts.key, book, ledger, formats: opts.formats, redactions }, stats)) writer.write(e);
      }
      rows.push(fileRow(file0 + i, s, stats));
      merged = i + 1;
      if (parallel) pool!.merged();
    }
    return { files: rows, redactions };
  });
  return { added: fresh.length, skipped, files, book, ledger };
}
