// Pass 2 on the second core: parse + redact files in worker threads, write in file order.
//
// Serial processing is the definition of the right output: file k is redacted with the book and
// ledger as files 0..k-1 left them. A worker gets a snapshot (the merged state when it starts),
// so its result is accepted only if it provably equals the serial one:
// - the book had no ids added since the snapshot, and its HAR "name" state is the one assumed;
// - no secret swept by the ledger since the snapshot can have occurred in any text the worker's
//   ledger sweep looked at (SweepTrace, no false negatives);
// - the ledger cannot have reached its cap.
// Otherwise the file is parsed again on the main thread with the full state (the fallback).
// Accepted results are replayed into the book and ledger in file order, so the final state (and
// the verifier's raw values) is the serial one too.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Event } from '../../parsers/contract/event.ts';
import type { CompiledFormat } from '../../parsers/engine/apply.ts';
import type { FileStats } from '../../parsers/engine/parse-file.ts';
import { SweepTrace, type EngineTier, type LedgerRecord, type SecretLedger, type SessionIdBook } from '../triage/redact/index.ts';
import type { ScannedEntry } from './pipeline.ts';

export interface FileJob {
  id: number;
  name: string;
  bytes: ArrayBuffer;
  key: Uint8Array;
  /** Which rules run before storage (privacy mode: standard → 'ingest', strict → 'all'). */
  tier: EngineTier;
  formatsKey: string;
  formats: Array<[unknown, string]>;
  bookIds: string[];
  lastHeaderName: string | null;
  ledger: LedgerRecord[];
  /** Trace the ledger sweep (not needed when the snapshot is complete). */
  trace: boolean;
}

export type WorkerReply =
  | { type: 'events'; id: number; events: Event[] }
  | { type: 'done'; id: number; stats: FileStats; redactions: Record<string, number>; journal: LedgerRecord[]; overflow: number; added: string[]; lastHeaderName: string | null; trace: Uint32Array }
  | { type: 'error'; id: number; message: string };

/** What a worker produced for one file (besides its events), before the verdict. */
export interface FileOutcome {
  stats: FileStats;
  redactions: Record<string, number>;
  journal: LedgerRecord[];
  /** Values the worker's ledger refused at its cap (serial would have counted them too). */
  overflow: number;
  added: string[];
  lastHeaderName: string | null;
  trace: SweepTrace;
  /** State of the snapshot it was given. */
  bookSize: number;
  assumedHeaderName: string | null;
  sweptSize: number;
  /** Dispatched when every earlier file was merged: equal to serial by construction. */
  complete: boolean;
}

/**
 * Inputs smaller than this stay in process. Measured on 2 cores (where DuckDB's and V8's own
 * threads already use part of the second core): 64 MiB gained nothing, 256 MiB went from 72 s
 * to 57 s. With 4+ cores a worker has a core of its own, so it pays much earlier.
 */
export const PARALLEL_MIN_BYTES = availableParallelism() >= 4 ? 16 * 1024 * 1024 : 128 * 1024 * 1024;

/**
 * Memory bound: a worker reads its whole file and its events wait until the main thread reaches
 * that file, so the input bytes handed to workers and not yet written may not pass this. A file
 * larger than it is always parsed in process (streaming). Without it, a 1 GiB input made of
 * 200 MiB files would hold most of a file and its events per worker.
 */
export const WORKER_BUDGET_BYTES = 64 * 1024 * 1024;

/** Workers beside the main thread (which parses too): one per spare core, never more than files - 1. */
export function workerCount(files: number, bytes: number, minBytes = PARALLEL_MIN_BYTES): number {
  if (process.env.MCP_TRIAGE_WORKERS === '0' || bytes < minBytes || files < 2) return 0;
  const env = Number(process.env.MCP_TRIAGE_WORKERS);
  const n = Number.isInteger(env) && env > 0 ? env : availableParallelism() - 1;
  return Math.max(0, Math.min(n, files - 1, 8));
}

/**
 * The workers' order: from the last file backwards. The main thread writes in file order and
 * parses from the front; workers parsing from the back deliver what is needed last, so the two
 * meet in the middle and the main thread waits (at most) for the file where they meet.
 */
export function workerOrder(files: readonly ScannedEntry[]): number[] {
  return [...files.keys()].slice(1).reverse();
}

async function readAll(s: ScannedEntry): Promise<ArrayBuffer> {
  const parts: Buffer[] = [];
  for await (const c of s.entry.open()) parts.push(c);
  const b = Buffer.concat(parts);
  // A fresh ArrayBuffer of exactly the file (transferable, not a slice of Node's pool).
  return b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? (b.buffer as ArrayBuffer) : (new Uint8Array(b).buffer as ArrayBuffer);
}

interface Pending {
  batches: Event[][];
  wake: (() => void) | null;
  outcome: FileOutcome | null;
  error: Error | null;
  snap: Pick<FileOutcome, 'bookSize' | 'assumedHeaderName' | 'sweptSize' | 'complete'>;
}

/**
 * A pool of parse workers. Files are dispatched in file order as workers free up (the book and
 * ledger are snapshotted at dispatch); `stream(k)` yields file k's event batches as they arrive
 * and returns its outcome. A failure means "do it on the main thread".
 */
export class ParsePool {
  private readonly workers: Worker[] = [];
  private readonly idle: Worker[] = [];
  private readonly queue: number[] = [];
  private readonly pending = new Map<number, Pending>();
  private readonly busy = new Map<Worker, number>();
  private formatSpecs: Array<[unknown, string]> = [];
  private readonly formatsKey = String(Math.random());
  private broken = false;
  /** Input bytes dispatched to workers whose events are not yet consumed (see WORKER_BUDGET_BYTES). */
  private inFlight = 0;
  private readonly charged = new Map<number, number>();

  private files: readonly ScannedEntry[] = [];
  private ctx!: {
    key: Uint8Array;
    tier: EngineTier;
    book: SessionIdBook;
    ledger: SecretLedger;
    /** Files before k are all written and merged: the book and ledger are exactly serial's. */
    isMergedUpTo: (k: number) => boolean;
  };

  /** Spawn the workers now (their start-up overlaps pass 1); `start` gives them the files. */
  constructor(
    n: number,
    private readonly budget = WORKER_BUDGET_BYTES,
  ) {
    for (let i = 0; i < n; i++) {
      // From the sources: server/ingest/parse-worker.mjs (it registers tsx). From the bundle: this
      // code sits in a dist/ chunk and dist/parse-worker.mjs is the built worker; server/build/build.mjs
      // builds it under that name and fails if a worker URL in the bundle names no file in dist/.
      const w = new Worker(new URL('./parse-worker.mjs', import.meta.url));
      w.on('message', (m: WorkerReply) => this.onMessage(w, m));
      w.on('error', (e) => this.fail(w, e));
      w.on('exit', (code) => {
        if (code !== 0) this.fail(w, new Error(`parse worker exited with ${code}`));
      });
      this.workers.push(w);
      this.idle.push(w);
    }
  }

  /**
   * Queue the files for the workers in `order`. The main thread parses a file itself when it
   * reaches it before a worker took it (`claim`), so the workers should start from the other end.
   */
  start(files: readonly ScannedEntry[], order: number[], ctx: ParsePool['ctx'] & { formats: readonly CompiledFormat[] }): void {
    this.files = files;
    this.ctx = ctx;
    this.formatSpecs = ctx.formats.map((f) => [f.spec, f.origin]);
    for (const k of order) {
      this.pending.set(k, { batches: [], wake: null, outcome: null, error: null, snap: { bookSize: 0, assumedHeaderName: null, sweptSize: 0, complete: false } });
      this.queue.push(k);
    }
    void this.pump();
  }

  /** The main thread takes file k itself if no worker has it yet. */
  claim(k: number): boolean {
    const i = this.queue.indexOf(k);
    if (i === -1) return !this.pending.has(k);
    this.queue.splice(i, 1);
    this.pending.delete(k);
    return true;
  }

  /** Call after a file was written and merged: a snapshot taken now is complete for the next one. */
  merged(): void {
    void this.pump();
  }

  /** File k's event batches as they arrive; returns the outcome. Throws if the worker failed. */
  async *stream(k: number): AsyncGenerator<Event[], FileOutcome> {
    const p = this.pending.get(k);
    if (!p) throw new Error('parse worker unavailable');
    try {
      for (;;) {
        if (p.batches.length) {
          yield p.batches.shift()!;
          continue;
        }
        if (p.error) throw p.error;
        if (p.outcome) return p.outcome;
        await new Promise<void>((wake) => (p.wake = wake));
      }
    } finally {
      this.pending.delete(k);
      this.release(k);
    }
  }

  private release(k: number): void {
    const b = this.charged.get(k);
    if (b === undefined) return;
    this.charged.delete(k);
    this.inFlight -= b;
    void this.pump();
  }

  /** Was file k dispatched with the complete serial state (so its result needs no check)? */
  dispatchedComplete(k: number): boolean {
    return this.pending.get(k)?.snap.complete ?? false;
  }

  private wake(p: Pending): void {
    const w = p.wake;
    p.wake = null;
    w?.();
  }

  private async pump(): Promise<void> {
    while (this.idle.length && this.queue.length && !this.broken) {
      const head = this.queue[0]!;
      const size = this.files[head]!.bytes;
      if (size > this.budget) {
        // Too big to hold: the main thread streams it (claim() finds it unclaimed).
        this.queue.shift();
        this.pending.delete(head);
        continue;
      }
      if (this.inFlight > 0 && this.inFlight + size > this.budget) return; // release() pumps again
      const w = this.idle.pop()!;
      const k = this.queue.shift()!;
      const p = this.pending.get(k);
      if (!p) {
        this.idle.push(w);
        continue;
      }
      this.inFlight += size;
      this.charged.set(k, size);
      this.busy.set(w, k);
      try {
        const bytes = await readAll(this.files[k]!);
        // Snapshot as late as possible: the more files are merged, the likelier the verdict holds.
        const { book, ledger } = this.ctx;
        const complete = this.ctx.isMergedUpTo(k);
        p.snap = { bookSize: book.raw.size, assumedHeaderName: complete ? book.lastHeaderName : null, sweptSize: ledger.swept.length, complete };
        const job: FileJob = {
          id: k,
          name: this.files[k]!.entry.name,
          bytes,
          key: this.ctx.key,
          tier: this.ctx.tier,
          formatsKey: this.formatsKey,
          formats: this.formatSpecs,
          bookIds: [...book.raw],
          lastHeaderName: p.snap.assumedHeaderName,
          ledger: ledger.snapshot(),
          trace: !complete,
        };
        w.postMessage(job, [bytes]);
      } catch (e) {
        this.busy.delete(w);
        this.idle.push(w);
        p.error = e instanceof Error ? e : new Error(String(e));
        this.wake(p);
      }
    }
  }

  private onMessage(w: Worker, m: WorkerReply): void {
    const p = this.pending.get(m.id);
    if (m.type !== 'events') {
      this.busy.delete(w);
      this.idle.push(w);
      void this.pump();
    }
    if (!p) return;
    if (m.type === 'events') p.batches.push(m.events);
    else if (m.type === 'error') p.error = new Error(m.message);
    else
      p.outcome = {
        stats: m.stats,
        redactions: m.redactions,
        journal: m.journal,
        overflow: m.overflow,
        added: m.added,
        lastHeaderName: m.lastHeaderName,
        trace: new SweepTrace(m.trace),
        ...p.snap,
      };
    this.wake(p);
  }

  private fail(w: Worker, e: Error): void {
    this.broken = true;
    const ks = [...this.queue.splice(0)];
    const k = this.busy.get(w);
    if (k !== undefined) ks.push(k);
    for (const q of ks) {
      const p = this.pending.get(q);
      if (!p) continue;
      p.error = e;
      this.wake(p);
    }
  }

  async close(): Promise<void> {
    this.broken = true;
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

/** Would serial processing of this file have given exactly what the worker gave? */
export function outcomeHolds(o: FileOutcome, book: SessionIdBook, headerName: string | null, ledger: SecretLedger): boolean {
  if (o.complete) return true;
  if (book.raw.size !== o.bookSize || headerName !== o.assumedHeaderName) return false;
  if (ledger.size + o.journal.length >= LEDGER_SAFE_MAX) return false;
  for (let i = o.sweptSize; i < ledger.swept.length; i++) if (o.trace.mayContain(ledger.swept[i]![1])) return false;
  return true;
}

/** Well below SecretLedger's default cap (1,000,000): no overflow can differ between the runs. */
const LEDGER_SAFE_MAX = 900_000;

/** Replay an accepted outcome into the incident's book and ledger (as serial processing would have left them). */
export function mergeOutcome(o: FileOutcome, book: SessionIdBook, ledger: SecretLedger, redactions: Record<string, number>): void {
  for (const id of o.added) book.add(id);
  book.lastHeaderName = o.lastHeaderName;
  for (const [rule, v, kind, replacement] of o.journal) ledger.record(rule, v, kind, replacement);
  ledger.overflow += o.overflow;
  for (const [rule, n] of Object.entries(o.redactions)) redactions[rule] = (redactions[rule] ?? 0) + n;
}
