// Ingest: entries → (pass 1) raw session ids + content hashes → (pass 2) redact, parse, store.
// Pass 1 exists so an id seen in one file is pseudonymised (and its masked forms resolved)
// in every other file of the same ingest.
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { Event } from '../../parsers/contract/event.ts';
import type { CompiledFormat } from '../../parsers/engine/apply.ts';
import { stripAnsi } from '../../parsers/engine/clean.ts';
import { readLines } from '../../parsers/engine/lines.ts';
import { newStats, parseFile, type FileStats } from '../../parsers/engine/parse-file.ts';
import { collectSessionIds, createLateSweep, createLineRedactor, SecretLedger, SessionIdBook, type EngineTier } from '../triage/redact/index.ts';
import type { PrivacyMode } from '../contract/privacy.ts';
import { IngestCancelled, type EventWriter, type FileRow, type Store } from '../store/store.ts';
import type { InputEntry } from './inputs.ts';
import { mergeOutcome, outcomeHolds, ParsePool, WORKER_BUDGET_BYTES, workerCount, workerOrder, type FileOutcome } from './parallel.ts';
import { fairly } from './fair.ts';
import { ProgressMeter, type Progress } from './progress.ts';
import { PIPELINE_MIN_BYTES, PipelineFailed, RedactPipeline } from './redact-pipeline.ts';
import { binaryKind, describeSkip, SCREEN_BYTES, screenHead, SNIFF_BYTES, type SkippedFile } from './screen.ts';
import { TriageError } from '../errors.ts';

export type { Progress } from './progress.ts';

export interface IngestOptions {
  key: Uint8Array;
  formats: readonly CompiledFormat[];
  /**
   * What is redacted before storage (redaction.md "Tiers"; default standard): standard runs the
   * ingest tier (session ids, credentials, the entropy net), strict runs every rule. Recorded
   * with the incident (store.ts), so exits know what the stored text already had.
   */
  mode?: PrivacyMode;
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
  /**
   * Redact on a worker thread while this one parses and writes (redact-pipeline.ts). Default: for
   * inputs from PIPELINE_MIN_BYTES on, unless MCP_TRIAGE_WORKERS=0 or file-level workers run.
   */
  pipeline?: boolean;
  /**
   * Aborted (the client went away): reading stops at the next chunk and the ingest rolls back
   * (IngestCancelled), unless it has already committed.
   */
  signal?: AbortSignal;
  /** An upload that named itself: recorded in the ingest's transaction with what it added (Store.ingest). */
  upload?: { uploadId: string; target: string };
}

export interface ScannedEntry {
  entry: InputEntry;
  sha256: string;
  bytes: number;
  /** Set when the entry is not a log (screen.ts): it is named in the analysis and never parsed. */
  skip?: SkippedFile;
}

/** A reader's damage message without the entry name it starts with (the skip names the file). */
function damageDetail(name: string, message: string): string {
  return message.startsWith(`${name}: `) ? message.slice(name.length + 2) : message;
}

/**
 * Pass 1: hash every entry, collect the raw session ids it mentions (memory only), and screen its
 * first bytes (screen.ts): empty, binary, damaged and not-a-log entries are marked, not parsed.
 */
export async function scanEntries(entries: readonly InputEntry[], book: SessionIdBook, formats: readonly CompiledFormat[], onProgress?: IngestOptions['onProgress']): Promise<ScannedEntry[]> {
  const out: ScannedEntry[] = [];
  const meter = new ProgressMeter('scan', entries, onProgress);
  for (const [i, entry] of entries.entries()) {
    meter.start(i);
    const hash = createHash('sha256');
    let bytes = 0;
    const head: Buffer[] = [];
    let headLen = 0;
    let binary: string | null = null;
    let sniffed = false;
    const tee = async function* () {
      for await (const chunk of meter.counted(entry).open()) {
        hash.update(chunk);
        bytes += chunk.length;
        if (headLen < SCREEN_BYTES) {
          const part = chunk.subarray(0, SCREEN_BYTES - headLen);
          head.push(part);
          headLen += part.length;
        }
        if (!sniffed && headLen >= SNIFF_BYTES) {
          sniffed = true;
          binary = binaryKind(Buffer.concat(head), false);
        }
        // Binary: read on (a decompression bomb is still refused by its reader, 413) but split no lines.
        if (!binary) yield chunk;
      }
    };
    let damaged: string | null = null;
    try {
      for await (const l of readLines(tee())) collectSessionIds(stripAnsi(l.text).text, book);
    } catch (e) {
      // A compressed stream that breaks is this entry's problem, not the ingest's (bombs stay errors: 413).
      if (!(e instanceof TriageError) || e.code !== 'TRIAGE_ERR_UNSUPPORTED_MEDIA') throw e;
      damaged = damageDetail(entry.name, e.message);
    }
    const scanned: ScannedEntry = { entry, sha256: hash.digest('hex'), bytes };
    if (damaged) scanned.skip = { file: entry.name, reason: 'damaged', detail: damaged };
    else if (binary) scanned.skip = { file: entry.name, reason: 'binary', detail: binary };
    else {
      const v = await screenHead(Buffer.concat(head), { name: entry.name, total: bytes, complete: bytes <= SCREEN_BYTES, formats });
      if (!v.log) scanned.skip = { file: entry.name, reason: v.reason, detail: v.detail };
    }
    out.push(scanned);
  }
  meter.finish();
  return out;
}

/**
 * Nothing in the input is a log: 415 when nothing was text at all (binary, images, damaged
 * archives), 422 when some text was read and none of it is a log (or a file was empty).
 * One line, naming each file (the first few) and why.
 */
export function nothingToAnalyse(skipped: readonly SkippedFile[]): TriageError {
  const text = skipped.some((s) => s.reason === 'not-a-log' || s.reason === 'empty');
  const shown = skipped.slice(0, 5).map(describeSkip).join('; ');
  const more = skipped.length > 5 ? `; and ${skipped.length - 5} more` : '';
  const message =
    skipped.length === 1
      ? `nothing to analyse: ${describeSkip(skipped[0]!)}`
      : `nothing to analyse: none of the ${skipped.length} files is a log — ${shown}${more}`;
  return new TriageError(text ? 'TRIAGE_ERR_NOT_A_LOG' : 'TRIAGE_ERR_UNSUPPORTED_MEDIA', message);
}

/** Pass 2 for one entry: yields redacted, parsed events; fills stats and redaction counts. */
export async function* parseEntry(
  scanned: ScannedEntry,
  ctx: { key: Uint8Array; tier?: EngineTier; book: SessionIdBook; ledger?: SecretLedger; formats: readonly CompiledFormat[]; redactions: Record<string, number> },
  stats: FileStats,
): AsyncGenerator<Event> {
  const redactor = createLineRedactor({ key: ctx.key, tier: ctx.tier ?? 'all', ids: ctx.book, ledger: ctx.ledger });
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

/** An incident's name, or how to make it from the names of the inputs that are logs (so a skipped README does not name it). */
export type IncidentName = string | ((logs: readonly string[]) => string);

/** Ingest entries into one incident of the store, as one transaction. Returns added and skipped counts. */
export interface IngestResult {
  added: number;
  /** Files identical to ones already held (by content hash). */
  skipped: number;
  /** Files that are not logs, with why (screen.ts); they are stored with the incident for its analysis. */
  skippedFiles: SkippedFile[];
  files: FileRow[];
  /** Raw session ids and removed secrets of this ingest: memory only, for the report's leak check. */
  book: SessionIdBook;
  ledger: SecretLedger;
}

/**
 * Which threads pass 2 uses. The redaction pipeline (one worker redacts, this thread parses and
 * writes) is exact by construction and takes files of any size; file-level parse workers scale
 * with cores but only take files under their memory budget, and their results are accepted by
 * verdict. So: the pipeline, unless there are 4+ cores and at least two files the pool can take
 * (or a test or MCP_TRIAGE_WORKERS=N asks for the pool); neither for small inputs.
 */
export function threadPlan(entries: readonly InputEntry[], bytes: number, opts: Pick<IngestOptions, 'pipeline' | 'workers' | 'parallelMinBytes' | 'workerBudgetBytes'>): 'pipeline' | 'pool' | 'serial' {
  if (opts.pipeline !== undefined) return opts.pipeline ? 'pipeline' : opts.workers ? 'pool' : 'serial';
  if (opts.workers !== undefined) return opts.workers > 0 ? 'pool' : 'serial';
  const env = process.env.MCP_TRIAGE_WORKERS;
  if (env === '0') return 'serial';
  if (env !== undefined && Number(env) > 0) return 'pool';
  const budget = opts.workerBudgetBytes ?? WORKER_BUDGET_BYTES;
  if (availableParallelism() >= 4 && workerCount(entries.length, bytes, opts.parallelMinBytes) > 0 && entries.filter((e) => e.size <= budget).length >= 2) return 'pool';
  return bytes >= PIPELINE_MIN_BYTES ? 'pipeline' : 'serial';
}

/** The entry with an open() that gives the event loop a turn between chunks now and then (fair.ts). */
function fairEntry(entry: InputEntry): InputEntry {
  return { ...entry, open: () => fairly(entry.open()) };
}

/** The entry with an open() that stops at the next chunk once `signal` is aborted. */
function abortable(entry: InputEntry, signal: AbortSignal): InputEntry {
  return {
    ...entry,
    async *open() {
      if (signal.aborted) throw new IngestCancelled();
      for await (const chunk of entry.open()) {
        if (signal.aborted) throw new IngestCancelled();
        yield chunk;
      }
    },
  };
}

export async function ingestIntoStore(store: Store, incidentId: string, name: IncidentName, input: readonly InputEntry[], opts: IngestOptions): Promise<IngestResult> {
  const { signal } = opts;
  const entries = signal ? input.map((e) => abortable(e, signal)) : input;
  const bytes = entries.reduce((n, e) => n + e.size, 0);
  const plan = threadPlan(entries, bytes, opts);
  // Workers start while pass 1 reads the inputs (their start-up is ~0.5 s under tsx).
  const nWorkers = plan === 'pool' ? (opts.workers ?? workerCount(entries.length, bytes, opts.parallelMinBytes)) : 0;
  const usePipeline = plan === 'pipeline';
  if (usePipeline) {
    let pipe: RedactPipeline | null = null;
    try {
      pipe = new RedactPipeline();
    } catch {
      pipe = null;
    }
    if (pipe) {
      try {
        return await ingestWith(null, pipe, new SessionIdBook(), new SecretLedger(), store, incidentId, name, entries, opts);
      } catch (e) {
        // The ingest rolled back; a broken pipeline is not the input's fault: do it serially.
        if (!(e instanceof PipelineFailed)) throw e;
      } finally {
        await pipe.close();
      }
    }
    return ingestWith(null, null, new SessionIdBook(), new SecretLedger(), store, incidentId, name, entries, opts);
  }
  let pool: ParsePool | null = null;
  if (nWorkers > 0) {
    try {
      pool = new ParsePool(nWorkers, opts.workerBudgetBytes);
    } catch {
      pool = null;
    }
  }
  try {
    return await ingestWith(pool, null, new SessionIdBook(), new SecretLedger(), store, incidentId, name, entries, opts);
  } finally {
    await pool?.close();
  }
}

async function ingestWith(
  pool: ParsePool | null,
  pipe: RedactPipeline | null,
  book: SessionIdBook,
  ledger: SecretLedger,
  store: Store,
  incidentId: string,
  name: IncidentName,
  entries: readonly InputEntry[],
  opts: IngestOptions,
): Promise<IngestResult> {
  const all = await scanEntries(entries, book, opts.formats, opts.onProgress);
  const skippedFiles = all.flatMap((s) => (s.skip ? [s.skip] : []));
  const scanned = all.filter((s) => !s.skip);
  // Nothing left to read: refuse before anything is written, so no empty incident appears.
  if (all.length > 0 && scanned.length === 0) throw nothingToAnalyse(skippedFiles);
  const seen = new Set(opts.skipHashes ?? []);
  const fresh: ScannedEntry[] = [];
  for (const s of scanned) {
    if (seen.has(s.sha256)) continue;
    seen.add(s.sha256);
    fresh.push(s);
  }
  const skipped = scanned.length - fresh.length;
  const upload = opts.upload ? { ...opts.upload, result: { added: fresh.length, skipped, skippedFiles } } : undefined;
  const mode = opts.mode ?? 'standard';
  const tier: EngineTier = mode === 'strict' ? 'all' : 'ingest';
  // Session ids known before any line is redacted: only ids met later can have been written raw.
  const knownIds = new Set(book.raw);
  const files = await store.ingest(incidentId, typeof name === 'function' ? name(scanned.map((s) => s.entry.name)) : name, async (writer, _seq, file0) => {
    const rows: FileRow[] = [];
    const redactions: Record<string, number> = {};
    let merged = 0; // files 0..merged-1 are written and their book/ledger changes applied
    const parallel = pool !== null && fresh.length >= 2;
    if (parallel) pool!.start(fresh, workerOrder(fresh), { key: opts.key, tier, book, ledger, formats: opts.formats, isMergedUpTo: (k) => k === merged });
    // Bytes read on this thread move the meter (a pool worker's files move it a file at a time).
    const meter = new ProgressMeter('parse', fresh.map((s) => s.entry), opts.onProgress);
    // …and take turns with the rest of the process while parsing here (fair.ts).
    const reading = fresh.map((s) => ({ ...s, entry: fairEntry(meter.counted(s.entry)) }));
    pipe?.start(reading, { key: opts.key, tier, book, ledger, formats: opts.formats });
    for (const [i, s] of fresh.entries()) {
      meter.start(i);
      let stats: FileStats | null = pipe ? await pipe.parse(i, s.entry.name, opts.formats, writer, redactions) : null;
      // The main thread parses the next file itself unless a worker already has it.
      if (parallel && !pool!.claim(i)) {
        stats = await fromWorker(pool!, i, writer, book, ledger, redactions);
        opts.onParallel?.(i, stats !== null);
      }
      if (stats === null) {
        // In process: small inputs, no workers, a file no worker took yet, or a worker's result
        // that serial processing would not have produced (a secret found in an earlier file occurs in it).
        stats = newStats(s.entry.name);
        for await (const e of parseEntry(reading[i]!, { key: opts.key, tier, book, ledger, formats: opts.formats, redactions }, stats)) writer.write(e);
      }
      rows.push(fileRow(file0 + i, s, stats));
      merged = i + 1;
      if (parallel) pool!.merged();
    }
    await pipe?.finish(book, ledger);
    meter.finish();
    // The store runs the final sweep of what was learnt late before it commits (store.ts).
    return { files: rows, redactions, skipped: skippedFiles, late: createLateSweep(opts.key, book, ledger, knownIds) };
  }, { mode, signal: opts.signal, upload });
  return { added: fresh.length, skipped, skippedFiles, files, book, ledger };
}
