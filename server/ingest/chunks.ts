// Pass 2's split: a line-mode file is cut into byte ranges at line boundaries (Splitter), each
// range is prepared (decoded, cleaned, redacted) by a ChunkRunner (chunk-runner.ts) on one of N
// worker threads, or on this thread when N is 0 (ChunkPool), and the main thread parses the
// prepared lines in order and writes them (pipeline.ts). A file that is one piece (a JSON
// document, UTF-16 text) is one job, parsed whole by a runner.
//
// Where a file is cut depends only on its bytes (CHUNK_BYTES, the cleaning plan from pass 1),
// never on the number of workers or how the bytes were read, and every chunk is redacted from
// the same start state: so the output is a function of the input alone.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Event } from '../../parsers/contract/event.ts';
import type { CompiledFormat } from '../../parsers/engine/apply.ts';
import { NUMBER_LINE, stripAnsi, stripPrefix } from '../../parsers/engine/clean.ts';
import { sniffEncoding } from '../../parsers/engine/lines.ts';
import type { FileStats, LinePlan, PreparedLines } from '../../parsers/engine/parse-file.ts';
import { freshRedactorFits, type EngineTier } from '../triage/redact/index.ts';
import { ChunkRunner, type ChunkState, type FromRunner, type ToRunner } from './chunk-runner.ts';

/** A chunk ends at the first good line boundary from this many bytes on. */
export const CHUNK_BYTES = 2 * 1024 * 1024;
/** …and at any line boundary from this many times CHUNK_BYTES on (a file with no good boundary). */
const FORCE_FACTOR = 8;
/** Inputs smaller than this get no worker threads by default (starting one costs more than it saves). */
export const WORKERS_MIN_BYTES = 4 * 1024 * 1024;

/** How many worker threads an ingest of `bytes` uses: `requested`, else MCP_TRIAGE_WORKERS, else one per core (none for small inputs). */
export function workerCount(bytes: number, requested?: number): number {
  if (requested !== undefined) return Math.max(0, Math.floor(requested));
  const env = process.env.MCP_TRIAGE_WORKERS;
  if (env !== undefined && env !== '' && Number.isInteger(Number(env)) && Number(env) >= 0) return Number(env);
  return bytes < WORKERS_MIN_BYTES ? 0 : Math.min(availableParallelism(), 8);
}

/** A rejected promise that is not reported unhandled (its reader may have stopped before it). */
function failed<T>(e: unknown): Promise<T> {
  const p = Promise.reject(e) as Promise<T>;
  p.catch(() => undefined);
  return p;
}

/** A worker thread died or failed a job: the ingest rolls back and runs again on this thread. */
export class WorkerFailed extends Error {}

const PRIVATE_KEY = Buffer.from('PRIVATE KEY');
const PEM_END = Buffer.from('-----END');
const COOKIES = Buffer.from('"cookies"');
/** Lines that continue the one above (frames, closing brackets, chained exceptions): no chunk starts with one. */
const CONTINUES = /^(?:\s|[}\])]|Caused by|During handling|The above exception|\[cause\]|Traceback)/;

/**
 * The end of the first chunk of `buf` (which starts at a chunk's start): the first line start at
 * or after `target` that is a good boundary, or any line start from `force` on. -1: not decided
 * yet (more bytes needed; with `final`, the whole of buf is the chunk).
 *
 * A good boundary at byte p (the start of the line [p, end)): the line before is one a fresh
 * redactor can follow (freshRedactorFits) and is not indented, the line does not continue the one
 * above (a traceback, a pretty-printed document stays in one chunk), and no PEM block or cookie list opened in the
 * chunk is still open (tracked forward, so a long chunk is scanned once per call).
 */
export function chunkEnd(buf: Buffer, target: number, plan: Pick<LinePlan, 'prefix' | 'layout'>, final: boolean, resume: { from: number } = { from: 0 }): number {
  const force = target * FORCE_FACTOR;
  const clean = (a: number, b: number) => stripPrefix(stripAnsi(buf.toString('utf8', a, b).replace(/\r$/, '')).text, plan.prefix);
  // PEM blocks and cookie lists opened before `scanned` and not closed since.
  let scanned = 0;
  let pemOpen = false;
  let cookiesAt = -1;
  const scanTo = (p: number) => {
    for (let k = buf.indexOf(PRIVATE_KEY, scanned); k >= 0 && k + PRIVATE_KEY.length <= p; k = buf.indexOf(PRIVATE_KEY, k + 1)) {
      const line = buf.subarray(buf.lastIndexOf(10, k) + 1, Math.max(k, buf.indexOf(10, k)));
      pemOpen = !line.includes(PEM_END);
    }
    for (let k = buf.indexOf(COOKIES, scanned); k >= 0 && k + COOKIES.length <= p; k = buf.indexOf(COOKIES, k + 1)) cookiesAt = k;
    if (cookiesAt >= 0 && /\n[ \t]*\]/.test(buf.toString('latin1', Math.max(cookiesAt, scanned - 1, 0), p))) cookiesAt = -1;
    scanned = p;
  };
  // `resume.from`: where the last call on this chunk stopped for want of bytes (the lines before
  // it were all rejected, and stay so), so a long chunk's lines are looked at once.
  let i = buf.indexOf(10, Math.max(0, target - 1, resume.from));
  while (i >= 0) {
    const p = i + 1;
    if (p >= buf.length) {
      resume.from = i;
      return -1;
    }
    if (p >= force) return p;
    let end = buf.indexOf(10, p);
    if (end < 0) {
      if (!final) {
        resume.from = i;
        return -1;
      }
      end = buf.length;
    }
    const next = clean(p, end);
    if (next !== '' && !CONTINUES.test(next)) {
      const prev = clean(buf.lastIndexOf(10, p - 2) + 1, p - 1);
      // …nor the line after an indented one (a traceback's closing `ValueError: …`)
      if (!/^\s/.test(prev) && !(plan.layout.numberLines && NUMBER_LINE.test(prev)) && freshRedactorFits(prev, next)) {
        scanTo(p);
        if (!pemOpen && cookiesAt < 0) return p;
      }
    }
    i = end < buf.length ? end : -1;
  }
  resume.from = Math.max(resume.from, buf.length - 1);
  return -1;
}

/** A line-mode file's bytes → chunks (see chunkEnd), as they are read. */
export class Splitter {
  private parts: Buffer[] = [];
  private len = 0;
  /** Try to cut again once this many bytes are held (a failed try waits for more). */
  private nextTry: number;
  private emitted = false;
  private readonly resume = { from: 0 };

  constructor(
    private readonly plan: Pick<LinePlan, 'prefix' | 'layout'>,
    private readonly target = CHUNK_BYTES,
  ) {
    this.nextTry = target;
  }

  *push(b: Buffer): Generator<Buffer> {
    if (!b.length) return;
    this.parts.push(b);
    this.len += b.length;
    while (this.len >= this.nextTry) {
      const all = this.take();
      const p = chunkEnd(all, this.target, this.plan, false, this.resume);
      if (p < 0) {
        this.parts = [all];
        this.nextTry = this.len + Math.max(64 * 1024, this.target >> 2);
        return;
      }
      yield this.cut(all, p);
    }
  }

  *end(): Generator<Buffer> {
    let all = this.take();
    for (;;) {
      const p = all.length > this.target ? chunkEnd(all, this.target, this.plan, true, this.resume) : -1;
      if (p < 0) break;
      yield this.cut(all, p);
      all = this.take();
    }
    if (all.length || !this.emitted) yield all;
    this.parts = [];
    this.len = 0;
  }

  private take(): Buffer {
    return this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.len);
  }

  private cut(all: Buffer, p: number): Buffer {
    const rest = all.subarray(p);
    this.parts = rest.length ? [rest] : [];
    this.len = rest.length;
    this.nextTry = this.target;
    this.resume.from = 0;
    this.emitted = true;
    return all.subarray(0, p);
  }
}

/** A queue read by one consumer, in order, as an async iterable; `fail` makes the reader throw. */
export class Channel<T> implements AsyncIterable<T> {
  private items: T[] = [];
  private closed = false;
  private error: unknown = null;
  private wake: (() => void) | null = null;
  push(x: T): void {
    this.items.push(x);
    this.poke();
  }
  close(): void {
    this.closed = true;
    this.poke();
  }
  fail(e: unknown): void {
    this.error ??= e;
    this.poke();
  }
  private poke(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }
  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for (;;) {
      if (this.error) throw this.error;
      const x = this.items.shift();
      if (x !== undefined) {
        yield x;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((r) => (this.wake = r));
    }
  }
}

export interface LinesResult {
  lines: PreparedLines;
  state: ChunkState;
  /** Bytes of the chunk: give them back (ChunkPool.release) once its lines are parsed. */
  bytes: number;
}

/** A whole-file job: feed it the file's bytes; its events arrive in order, then its stats. */
export interface WholeJob {
  push(b: Buffer): void;
  end(): void;
  events: Channel<Event[]>;
  done: Promise<{ stats: FileStats; state: ChunkState }>;
}

interface Runner {
  post(m: ToRunner, transfer?: ArrayBuffer[]): void;
  /** Bytes given to this runner and not yet done: jobs go to the runner with the fewest. */
  load: number;
  terminate(): Promise<void>;
}

/** Pass 1 of one file: feed it the file's bytes; `ids()` gives the session ids they name, in order. */
export interface IdsJob {
  push(b: Buffer): Promise<void>;
  ids(): Promise<string[]>;
}

type Pending =
  | { kind: 'lines'; runner: Runner; bytes: number; resolve: (r: LinesResult) => void; reject: (e: unknown) => void }
  | { kind: 'ids'; runner: Runner; bytes: number; resolve: (ids: string[]) => void; reject: (e: unknown) => void }
  | { kind: 'whole'; runner: Runner; job: WholeJob; resolve: (r: { stats: FileStats; state: ChunkState }) => void; reject: (e: unknown) => void };

/**
 * N ChunkRunners on worker threads, or one on this thread when N is 0. Jobs go to the least loaded
 * runner; results come back in any order and are matched by id. Read-ahead is bounded: `room()`
 * waits while the bytes handed out and not yet given back pass the budget.
 */
export class ChunkPool {
  /** Tests: a worker pool fails as a dead worker would when its next answer arrives. */
  static faults: { workerDies?: boolean } = {};
  private readonly runners: Runner[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private inFlight = 0;
  private readonly budget: number;
  private failure: Error | null = null;
  private wakers: Array<() => void> = [];
  private closing = false;

  constructor(
    readonly workers: number,
    /** Where both passes cut a file (pass 1's ranges are then pass 2's: chunk-runner.ts `collected`). */
    readonly chunkBytes = CHUNK_BYTES,
  ) {
    this.budget = Math.max(4 * 1024 * 1024, (workers + 2) * chunkBytes);
    if (workers === 0) {
      const runner: Runner = { post: (m) => inProcess.receive(m), load: 0, terminate: async () => undefined };
      // Answers are delivered on a later turn, as a worker's would be.
      const inProcess = new ChunkRunner((m) => queueMicrotask(() => this.receive(runner, m)));
      this.runners.push(runner);
      return;
    }
    for (let i = 0; i < workers; i++) {
      // Sources: server/ingest/ingest-worker.mjs (registers tsx); bundle: dist/ingest-worker.mjs,
      // beside the chunk holding this code (server/build/build.mjs checks that it resolves).
      const w = new Worker(new URL('./ingest-worker.mjs', import.meta.url));
      const runner: Runner = { post: (m, t) => w.postMessage(m, t ?? []), load: 0, terminate: async () => void (await w.terminate()) };
      w.on('message', (m: FromRunner) => this.receive(runner, m));
      w.on('error', (e) => this.fail(new WorkerFailed(`ingest worker: ${e.message}`)));
      w.on('exit', (code) => {
        if (!this.closing) this.fail(new WorkerFailed(`ingest worker exited (${code})`));
      });
      this.runners.push(runner);
    }
  }

  /** After pass 1: what every chunk starts from. */
  init(ctx: { key: Uint8Array; tier: EngineTier; formats: readonly CompiledFormat[]; bookIds: string[] }): void {
    const m: ToRunner = { type: 'init', key: ctx.key, tier: ctx.tier, formats: ctx.formats.map((f) => [f.spec, f.origin]), bookIds: ctx.bookIds };
    for (const r of this.runners) r.post(m);
  }

  private pick(): Runner {
    let best = this.runners[0]!;
    for (const r of this.runners) if (r.load < best.load) best = r;
    return best;
  }

  /** Prepare one chunk of a line-mode file (`continued`: not the file's first). */
  lines(bytes: Buffer, continued: boolean, plan: Pick<LinePlan, 'prefix' | 'layout'>): Promise<LinesResult> {
    if (this.failure) return failed(this.failure);
    const id = this.nextId++;
    const runner = this.pick();
    const n = bytes.length;
    runner.load += n;
    this.inFlight += n;
    const p = new Promise<LinesResult>((resolve, reject) => this.pending.set(id, { kind: 'lines', runner, bytes: n, resolve, reject }));
    p.catch(() => undefined); // awaited in order by the consumer, which may have stopped first
    // A worker gets its own copy (transferred); a Buffer may share Node's pool, never transfer it.
    const own = this.workers ? new Uint8Array(bytes) : bytes;
    runner.post(
      { type: 'lines', id, bytes: own, continued, prefix: plan.prefix?.id ?? null, prefixArg: plan.prefix?.arg ?? null, layout: plan.layout },
      this.workers ? [own.buffer as ArrayBuffer] : [],
    );
    return p;
  }

  /** Pass 1 of one byte range (or, with `stream`, of the bytes sent after it through `data`): its session ids. */
  private idsOf(bytes: Buffer | null, continued: boolean, bytesCount: number): { id: number; runner: Runner; done: Promise<string[]> } {
    const id = this.nextId++;
    const runner = this.pick();
    runner.load += bytesCount;
    this.inFlight += bytesCount;
    const done = new Promise<string[]>((resolve, reject) => this.pending.set(id, { kind: 'ids', runner, bytes: bytesCount, resolve, reject }));
    done.catch(() => undefined);
    if (this.failure) return { id, runner, done: failed(this.failure) };
    const own = bytes && this.workers ? new Uint8Array(bytes) : bytes;
    runner.post({ type: 'ids', id, ...(own ? { bytes: own } : {}), continued }, own && this.workers ? [own.buffer as ArrayBuffer] : []);
    return { id, runner, done };
  }

  /**
   * Pass 1 of one file: cut like pass 2 (Splitter, with no prefix: collectSessionIds reads raw
   * lines) into ranges whose ids runners collect, or streamed whole to one runner when its first
   * bytes are not UTF-8 (UTF-16 is not cut at 0x0A). The ids come back in file order.
   */
  ids(): IdsJob {
    let splitter: Splitter | null = null;
    let stream: { id: number; runner: Runner; done: Promise<string[]> } | null = null;
    const parts: Promise<string[]>[] = [];
    let first = true;
    const range = async (piece: Buffer) => {
      parts.push(this.idsOf(piece, !first, piece.length).done);
      first = false;
      await this.room();
    };
    return {
      push: async (b) => {
        if (!b.length) return;
        if (!splitter && !stream) {
          if (sniffEncoding(b) === 'utf-8') splitter = new Splitter({ prefix: null, layout: { numberLines: false, doubledBlank: false } }, this.chunkBytes);
          else {
            stream = this.idsOf(null, false, 0);
            parts.push(stream.done);
          }
        }
        if (stream) {
          this.inFlight += b.length;
          stream.runner.load += b.length;
          const own = this.workers ? new Uint8Array(b) : b;
          stream.runner.post({ type: 'data', id: stream.id, bytes: own }, this.workers ? [own.buffer as ArrayBuffer] : []);
          await this.room();
          return;
        }
        for (const piece of splitter!.push(b)) await range(piece);
      },
      ids: () => {
        const all = (async () => {
          if (stream) stream.runner.post({ type: 'end', id: stream.id });
          else if (splitter) for (const piece of splitter.end()) await range(piece);
          const out: string[] = [];
          for (const p of parts) for (const id of await p) out.push(id);
          return out;
        })();
        all.catch(() => undefined); // read once every file is scanned, unless pass 1 stopped first
        return all;
      },
    };
  }

  /** Parse one file whole on a runner (a JSON document, UTF-16 text). */
  whole(name: string): WholeJob {
    const id = this.nextId++;
    const runner = this.pick();
    runner.load += 1; // a whole file may be large: keep other jobs off this runner when there is a choice
    const events = new Channel<Event[]>();
    let resolve!: (r: { stats: FileStats; state: ChunkState }) => void;
    let reject!: (e: unknown) => void;
    const done = new Promise<{ stats: FileStats; state: ChunkState }>((a, b) => {
      resolve = a;
      reject = b;
    });
    done.catch(() => undefined); // read by the consumer; a failure also reaches it through `events`
    const job: WholeJob = {
      push: (b) => {
        if (!b.length) return;
        this.inFlight += b.length;
        runner.load += b.length;
        const own = this.workers ? new Uint8Array(b) : b;
        runner.post({ type: 'data', id, bytes: own }, this.workers ? [own.buffer as ArrayBuffer] : []);
      },
      end: () => runner.post({ type: 'end', id }),
      events,
      done,
    };
    this.pending.set(id, { kind: 'whole', runner, job, resolve, reject });
    if (this.failure) events.fail(this.failure);
    else runner.post({ type: 'whole', id, name });
    return job;
  }

  /** A chunk's lines are parsed: its bytes leave the read-ahead. */
  release(bytes: number): void {
    this.inFlight -= bytes;
    this.wakeAll();
  }

  /** Resolves once more may be read, or once `stop()` holds (throws if a runner failed). */
  async room(stop: () => boolean = () => false): Promise<void> {
    while (this.inFlight >= this.budget && !this.failure && !stop()) await new Promise<void>((r) => this.wakers.push(r));
    if (this.failure) throw this.failure;
  }

  /** Wake whoever waits in room() (its `stop` may hold now). */
  wakeAll(): void {
    const w = this.wakers;
    this.wakers = [];
    for (const f of w) f();
  }

  private receive(runner: Runner, m: FromRunner): void {
    if (this.workers && ChunkPool.faults.workerDies) {
      this.fail(new WorkerFailed('ingest worker exited (injected)'));
      return;
    }
    const p = this.pending.get(m.id);
    if (!p) return;
    switch (m.type) {
      case 'ids':
        if (p.kind !== 'ids') return;
        this.pending.delete(m.id);
        runner.load -= p.bytes;
        this.release(p.bytes);
        p.resolve(m.ids);
        break;
      case 'lines':
        if (p.kind !== 'lines') return;
        this.pending.delete(m.id);
        runner.load -= p.bytes;
        p.resolve({ lines: m.lines, state: m.state, bytes: p.bytes });
        break;
      case 'ack':
        this.inFlight -= m.bytes;
        runner.load -= m.bytes;
        this.wakeAll();
        break;
      case 'events':
        if (p.kind === 'whole') p.job.events.push(m.events);
        break;
      case 'whole':
        if (p.kind !== 'whole') return;
        this.pending.delete(m.id);
        runner.load -= 1;
        p.job.events.close();
        p.resolve({ stats: m.stats, state: m.state });
        break;
      case 'error':
        this.fail(new WorkerFailed(`ingest ${this.workers ? 'worker' : 'runner'}: ${m.message}`));
        break;
    }
  }

  private fail(e: Error): void {
    if (this.failure) return;
    this.failure = e;
    for (const p of this.pending.values()) {
      if (p.kind === 'whole') p.job.events.fail(e);
      p.reject(e);
    }
    this.pending.clear();
    this.wakeAll();
  }

  async close(): Promise<void> {
    this.closing = true;
    this.failure ??= new Error('closed');
    await Promise.all(this.runners.map((r) => r.terminate()));
  }
}
