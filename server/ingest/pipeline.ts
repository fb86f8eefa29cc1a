// Ingest: entries → (pass 1) raw session ids + content hashes → (pass 2) redact, parse, store.
// Pass 1 exists so an id seen in one file is pseudonymised (and its masked forms resolved)
// in every other file of the same ingest.
import { createHash } from 'node:crypto';
import type { CompiledFormat } from '../../parsers/engine/apply.ts';
import { SAMPLE_LINES } from '../../parsers/engine/detect.ts';
import { detach, readLines, sniffEncoding, type RawLine } from '../../parsers/engine/lines.ts';
import { firstDatedTime, newStats, parsePreparedBatches, planLines, type FileStats, type LinePlan, type PreparedLines } from '../../parsers/engine/parse-file.ts';
import { createLateSweep, SecretLedger, SessionIdBook, type EngineTier } from '../triage/redact/index.ts';
import type { PrivacyMode } from '../contract/privacy.ts';
import { IngestCancelled, type FileRow, type Store } from '../store/store.ts';
import type { InputEntry } from './inputs.ts';
import type { ChunkState } from './chunk-runner.ts';
import { Channel, ChunkPool, Splitter, workerCount, WorkerFailed, type LinesResult, type WholeJob } from './chunks.ts';
import { Fair, fairly } from './fair.ts';
import { ProgressMeter, type Progress } from './progress.ts';
import { binaryKind, describeSkip, SCREEN_BYTES, screenHead, SNIFF_BYTES, type SkippedFile } from './screen.ts';
import { TriageError } from '../errors.ts';

/** The day given to times of day when no file of the incident shows a date (README: its date means nothing). */
const PLACEHOLDER_DAY = Date.UTC(2000, 0, 1);

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
  /**
   * Worker threads for pass 2 (chunks.ts): default MCP_TRIAGE_WORKERS, else one per core from
   * WORKERS_MIN_BYTES of input on. 0 does the same work on this thread; the output is the same.
   */
  workers?: number;
  /** Tests: chunk size of pass 2 (chunks.ts CHUNK_BYTES). */
  chunkBytes?: number;
  /** Tests: run pass 2 on this pool (left open, its workers already started) instead of one of its own. */
  pool?: ChunkPool;
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
  /** How its lines are cleaned and detected, decided on its first lines (planLines). */
  plan: LinePlan;
  /** Parsed in one piece by one runner (a JSON document, UTF-16 text), not cut into chunks. */
  whole: boolean;
}

/** A reader's damage message without the entry name it starts with (the skip names the file). */
function damageDetail(name: string, message: string): string {
  return message.startsWith(`${name}: `) ? message.slice(name.length + 2) : message;
}

/**
 * Pass 1: hash every entry, collect the raw session ids it mentions (memory only), and screen its
 * first bytes (screen.ts): empty, binary, damaged and not-a-log entries are marked, not parsed.
 */
export async function scanEntries(
  entries: readonly InputEntry[],
  book: SessionIdBook,
  formats: readonly CompiledFormat[],
  onProgress?: IngestOptions['onProgress'],
  pool?: ChunkPool,
): Promise<ScannedEntry[]> {
  if (!pool) {
    const own = new ChunkPool(0);
    try {
      return await scanEntries(entries, book, formats, onProgress, own);
    } finally {
      await own.close();
    }
  }
  const out: ScannedEntry[] = [];
  // Each file's ids, merged into the book in file order once every file is read.
  const ids: Promise<string[]>[] = [];
  const meter = new ProgressMeter('scan', entries, onProgress);
  for (const [i, entry] of entries.entries()) {
    meter.start(i);
    const hash = createHash('sha256');
    let bytes = 0;
    const head: Buffer[] = [];
    let headLen = 0;
    let binary: string | null = null;
    let sniffed = false;
    let encoding: string | null = null;
    const tee = async function* () {
      for await (const chunk of meter.counted(entry).open()) {
        if (chunk.length) encoding ??= sniffEncoding(chunk);
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
    // The file's lines go to the pool (runners collect their session ids), in byte ranges.
    const job = pool.ids();
    try {
      for await (const chunk of tee()) await job.push(chunk);
    } catch (e) {
      // A compressed stream that breaks is this entry's problem, not the ingest's (bombs stay errors: 413).
      if (!(e instanceof TriageError) || e.code !== 'TRIAGE_ERR_UNSUPPORTED_MEDIA') throw e;
      damaged = damageDetail(entry.name, e.message);
    }
    ids.push(job.ids());
    const plan = planLines(await headLines(head, bytes > headLen));
    const scanned: ScannedEntry = { entry, sha256: hash.digest('hex'), bytes, plan, whole: plan.doc !== null || (encoding !== null && encoding !== 'utf-8') };
    if (damaged) scanned.skip = { file: entry.name, reason: 'damaged', detail: damaged };
    else if (binary) scanned.skip = { file: entry.name, reason: 'binary', detail: binary };
    else {
      const v = await screenHead(Buffer.concat(head), { name: entry.name, total: bytes, complete: bytes <= SCREEN_BYTES, formats });
      if (!v.log) scanned.skip = { file: entry.name, reason: v.reason, detail: v.detail };
    }
    out.push(scanned);
  }
  for (const p of ids) for (const id of await p) book.add(id);
  meter.finish();
  return out;
}

/** The first SAMPLE_LINES lines of a file from its first bytes (`more`: the file goes on, so the last line read may be cut short: dropped). */
async function headLines(head: readonly Buffer[], more: boolean): Promise<RawLine[]> {
  const lines: RawLine[] = [];
  for await (const l of readLines(
    (async function* () {
      yield* head;
    })(),
  )) {
    lines.push({ ...l, text: detach(l.text) });
    if (lines.length > SAMPLE_LINES) break;
  }
  if (more || lines.length > SAMPLE_LINES) lines.pop();
  return lines.slice(0, SAMPLE_LINES);
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
  const message = skipped.length === 1 ? `nothing to analyse: ${describeSkip(skipped[0]!)}` : `nothing to analyse: none of the ${skipped.length} files is a log — ${shown}${more}`;
  return new TriageError(text ? 'TRIAGE_ERR_NOT_A_LOG' : 'TRIAGE_ERR_UNSUPPORTED_MEDIA', message);
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
  if (opts.pool) return ingestWith(opts.pool, store, incidentId, name, entries, opts);
  const n = workerCount(
    entries.reduce((b, e) => b + e.size, 0),
    opts.workers,
  );
  if (n > 0) {
    try {
      return await ingestWith(new ChunkPool(n, opts.chunkBytes), store, incidentId, name, entries, opts, true);
    } catch (e) {
      // The ingest rolled back; a broken worker is not the input's fault: do it on this thread.
      if (!(e instanceof WorkerFailed)) throw e;
    }
  }
  return ingestWith(new ChunkPool(0, opts.chunkBytes), store, incidentId, name, entries, opts, true);
}

/** What a chunk learnt, into the ingest's book and ledger (in chunk order: the ledger keeps first sightings). */
function merge(s: ChunkState, book: SessionIdBook, ledger: SecretLedger, redactions: Record<string, number>): void {
  for (const [rule, n] of Object.entries(s.redactions)) redactions[rule] = (redactions[rule] ?? 0) + n;
  for (const [rule, v, kind, replacement] of s.journal) ledger.record(rule, v, kind, replacement);
  for (const id of s.added) book.add(id);
  ledger.overflow += s.overflow;
}

/** One file of pass 2 as the producer hands it to the consumer. */
type FileWork = { kind: 'lines'; jobs: Channel<Promise<LinesResult>> } | { kind: 'whole'; job: WholeJob };

/** Lines handed to the parser at a time (the event loop gets a turn between them: fair.ts). */
const PARSE_SLICE = 1024;

/** The ingest on `pool` (started before pass 1: a worker's start-up, ~0.5 s under tsx, overlaps it); `own`: close it after. */
async function ingestWith(
  pool: ChunkPool,
  store: Store,
  incidentId: string,
  name: IncidentName,
  entries: readonly InputEntry[],
  opts: IngestOptions,
  own = false,
): Promise<IngestResult> {
  const book = new SessionIdBook();
  const ledger = new SecretLedger();
  try {
    const all = await scanEntries(entries, book, opts.formats, opts.onProgress, pool);
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
    // what dates a file that logs only times of day: the earliest date-and-time any file's head shows
    // (a pure function of the heads, so neither the file order nor the worker count changes it); with
    // none, a placeholder day, so such a file's times still order its lines and time its requests
    // (a date with its year first: a yearless syslog or Tyk time dated by today would make the answer depend on
    // the day the analysis runs; only an incident whose every date lacks its year takes today's)
    const earliest = (years: 'none' | null) =>
      scanned.reduce<number | null>((min, s) => {
        const t = firstDatedTime(s.plan, opts.formats, years);
        return t === null || (min !== null && min <= t) ? min : t;
      }, null);
    const dateHint = earliest('none') ?? earliest(null) ?? PLACEHOLDER_DAY;
    const upload = opts.upload ? { ...opts.upload, result: { added: fresh.length, skipped, skippedFiles } } : undefined;
    const mode = opts.mode ?? 'standard';
    const tier: EngineTier = mode === 'strict' ? 'all' : 'ingest';
    // Session ids known before any line is redacted: only ids met later can have been written raw.
    const knownIds = new Set(book.raw);
    pool.init({ key: opts.key, tier, formats: opts.formats, bookIds: [...book.raw] });
    const files = await store.ingest(
      incidentId,
      typeof name === 'function' ? name(scanned.map((s) => s.entry.name)) : name,
      async (writer, _seq, file0) => {
        const rows: FileRow[] = [];
        const redactions: Record<string, number> = {};
        const meter = new ProgressMeter(
          'parse',
          fresh.map((s) => s.entry),
          opts.onProgress,
        );
        const work = new Channel<FileWork>();
        let stopped = false;
        const stop = () => stopped;
        // The file being read: a failure to read it (cancelled, a damaged stream) reaches its reader too.
        let reading: { fail(e: unknown): void } | null = null;
        // Producer: reads the files in order, cuts them into chunks and hands those to the pool
        // (as far ahead as its read-ahead allows)…
        const produce = async () => {
          for (const [i, s] of fresh.entries()) {
            if (stopped) return;
            meter.start(i);
            const chunks = fairEntry(meter.counted(s.entry)).open();
            if (s.whole) {
              const job = pool.whole(s.entry.name);
              reading = job.events;
              work.push({ kind: 'whole', job });
              for await (const b of chunks) {
                if (stopped) return;
                job.push(b);
                await pool.room(stop);
              }
              job.end();
              continue;
            }
            const jobs = new Channel<Promise<LinesResult>>();
            reading = jobs;
            work.push({ kind: 'lines', jobs });
            const splitter = new Splitter(s.plan, pool.chunkBytes);
            let first = true;
            const post = async (piece: Buffer) => {
              jobs.push(pool.lines(piece, !first, s.plan));
              first = false;
              await pool.room(stop);
            };
            for await (const b of chunks) {
              if (stopped) return;
              for (const piece of splitter.push(b)) await post(piece);
            }
            for (const piece of splitter.end()) await post(piece);
            jobs.close();
          }
        };
        const producing = produce().then(
          () => work.close(),
          (e: unknown) => {
            reading?.fail(e);
            work.fail(e);
          },
        );
        // …consumer: parses the prepared lines of each file in order and writes them.
        const fair = new Fair();
        try {
          let i = 0;
          for await (const w of work) {
            const s = fresh[i]!;
            let stats: FileStats;
            if (w.kind === 'whole') {
              for await (const batch of w.job.events) {
                for (const e of batch) writer.write(e);
                const t = fair.turn();
                if (t) await t;
              }
              const r = await w.job.done;
              merge(r.state, book, ledger, redactions);
              stats = r.stats;
            } else {
              stats = newStats(s.entry.name);
              const batches = async function* (): AsyncGenerator<PreparedLines> {
                for await (const job of w.jobs) {
                  const r = await job;
                  merge(r.state, book, ledger, redactions);
                  const { text, cut, ansi, stamp, origin, signals } = r.lines;
                  for (let a = 0; a < text.length; a += PARSE_SLICE) {
                    const t = fair.turn();
                    if (t) await t;
                    const b = Math.min(text.length, a + PARSE_SLICE);
                    yield a === 0 && b === text.length
                      ? r.lines
                      : {
                          text: text.slice(a, b),
                          cut: cut.subarray(a, b),
                          ansi: ansi.subarray(a, b),
                          stamp: stamp.subarray(a, b),
                          origin: origin?.slice(a, b),
                          signals: signals && { at: signals.at.subarray(a, b), sets: signals.sets },
                        };
                  }
                  pool.release(r.bytes);
                }
              };
              for await (const events of parsePreparedBatches(s.plan, batches(), { file: s.entry.name, formats: opts.formats, dateHint }, stats))
                for (const e of events) writer.write(e);
            }
            rows.push(fileRow(file0 + i, s, stats));
            i++;
          }
        } finally {
          stopped = true;
          pool.wakeAll();
          await producing;
        }
        meter.finish();
        // The store runs the final sweep of what was learnt late before it commits (store.ts).
        return { files: rows, redactions, skipped: skippedFiles, late: createLateSweep(opts.key, book, ledger, knownIds) };
      },
      { mode, signal: opts.signal, upload },
    );
    return { added: fresh.length, skipped, skippedFiles, files, book, ledger };
  } finally {
    if (own) await pool.close();
  }
}
