// Pass 2 as a two-stage pipeline: a worker thread redacts (redact-worker.ts), the main thread
// parses and writes. Redaction is ~70% of pass 2's CPU and parsing + DuckDB appends the rest, so
// on two cores the stages overlap instead of queueing behind each other.
//
// Exact by construction, not by verdict: the worker is the only redactor and goes through the
// files in order with the ingest's own book and ledger, as the serial pass 2 does; the main
// thread's parseFile gets each line's redacted text from it. Both sides read the same bytes and
// split them with the same readLines, and the worker decides what parseFile will ask to redact
// from the same head (planLines / redactInput). Each answer carries a hash of the text it
// redacted; if parseFile ever asks for a different text, the ingest fails with PipelineMismatch
// (its transaction rolls back) and pipeline.ts runs it again serially.
import { Worker } from 'node:worker_threads';
import type { Event } from '../../parsers/contract/event.ts';
import type { CompiledFormat } from '../../parsers/engine/apply.ts';
import { readLines, type RawLine } from '../../parsers/engine/lines.ts';
import { newStats, parseFile, type FileStats } from '../../parsers/engine/parse-file.ts';
import type { EngineTier, LedgerRecord, SecretLedger, SessionIdBook } from '../triage/redact/index.ts';
import type { EventWriter } from '../store/store.ts';
import { Fair } from './fair.ts';
import type { ScannedEntry } from './pipeline.ts';

export type ToWorker =
  | { type: 'init'; key: Uint8Array; tier: EngineTier; formats: Array<[unknown, string]>; bookIds: string[]; lastHeaderName: string | null }
  | { type: 'start'; k: number; name: string }
  | { type: 'chunk'; k: number; buf: Uint8Array }
  | { type: 'end'; k: number }
  | { type: 'finish' };

export type FromWorker =
  | { type: 'mode'; k: number; mode: 'lines' | 'events' }
  | { type: 'lines'; k: number; texts: (string | null)[]; hashes: Int32Array; journal: LedgerRecord[] }
  | { type: 'events'; k: number; events: Event[] }
  | { type: 'done'; k: number; redactions: Record<string, number>; stats?: FileStats; journal: LedgerRecord[] }
  | { type: 'state'; journal: LedgerRecord[]; overflow: number; added: string[]; lastHeaderName: string | null }
  | { type: 'error'; message: string };

/** The pipeline broke (worker error, or an answer for a text parseFile did not ask about): run serially. */
export class PipelineFailed extends Error {}

/** Inputs from this size on use the pipeline (a worker costs ~0.5 s to start under tsx). */
export const PIPELINE_MIN_BYTES = 8 * 1024 * 1024;
/** Bytes read ahead of the parser (held for both stages): bounds memory whatever the file size. */
export const READ_AHEAD_BYTES = 4 * 1024 * 1024;

/** Tests: make the next answer's check fail, as a divergence between the two sides would. */
export const faults = { outOfStep: false };

/** FNV-1a over UTF-16 code units: the check that the worker redacted what parseFile asks for. */
export function inputHash(s: string): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h | 0;
}

/** What the worker sent for one file, consumed in order by the main thread. */
class FileFeed {
  mode: 'lines' | 'events' | null = null;
  texts: (string | null)[] = [];
  hashes: number[] = [];
  /** Lines answered so far (texts[0] is line `base`). */
  base = 0;
  events: Event[][] = [];
  done: Extract<FromWorker, { type: 'done' }> | null = null;
  /** Local copy of the file's chunks for the main thread's own readLines. */
  chunks: Buffer[] = [];
  ended = false;
}

export class RedactPipeline {
  private readonly worker: Worker;
  private readonly feeds = new Map<number, FileFeed>();
  private failure: Error | null = null;
  private wakers: Array<() => void> = [];
  private state: Extract<FromWorker, { type: 'state' }> | null = null;
  /** Bytes read and not yet split into lines by the main thread. */
  private buffered = 0;
  private reading: Promise<void> | null = null;
  /** The ingest's ledger: what the worker's ledger keeps is replayed into it as it arrives. */
  private ledger: SecretLedger | null = null;
  private readonly fair = new Fair();

  constructor() {
    // Sources: server/ingest/redact-worker.mjs (registers tsx); bundle: dist/redact-worker.mjs,
    // beside the chunk holding this code (server/build/build.mjs checks that it resolves).
    this.worker = new Worker(new URL('./redact-worker.mjs', import.meta.url));
    this.worker.on('message', (m: FromWorker) => this.receive(m));
    this.worker.on('error', (e) => this.fail(new PipelineFailed(`redaction worker: ${e.message}`)));
    this.worker.on('exit', (code) => {
      if (!this.state) this.fail(new PipelineFailed(`redaction worker exited (${code})`));
    });
  }

  private fail(e: Error): void {
    this.failure ??= e;
    this.wakeAll();
  }

  private wakeAll(): void {
    const w = this.wakers;
    this.wakers = [];
    for (const f of w) f();
  }

  /** Wait until `ready()` holds (or the pipeline failed). */
  private async until(ready: () => boolean): Promise<void> {
    while (!ready()) {
      if (this.failure) throw this.failure;
      await new Promise<void>((r) => this.wakers.push(r));
    }
    if (this.failure) throw this.failure;
  }

  private feed(k: number): FileFeed {
    let f = this.feeds.get(k);
    if (!f) this.feeds.set(k, (f = new FileFeed()));
    return f;
  }

  private receive(m: FromWorker): void {
    if ('journal' in m) for (const [rule, v, kind, replacement] of m.journal) this.ledger!.record(rule, v, kind, replacement);
    switch (m.type) {
      case 'mode':
        this.feed(m.k).mode = m.mode;
        break;
      case 'lines': {
        const f = this.feed(m.k);
        for (let i = 0; i < m.texts.length; i++) {
          f.texts.push(m.texts[i]!);
          f.hashes.push(m.hashes[i]!);
        }
        break;
      }
      case 'events':
        this.feed(m.k).events.push(m.events);
        break;
      case 'done':
        this.feed(m.k).done = m;
        break;
      case 'state':
        this.state = m;
        break;
      case 'error':
        this.fail(new PipelineFailed(`redaction worker: ${m.message}`));
        return;
    }
    this.wakeAll();
  }

  /** Start: the worker gets the state after pass 1, then every file's bytes, read ahead in order. */
  start(files: readonly ScannedEntry[], ctx: { key: Uint8Array; tier: EngineTier; book: SessionIdBook; ledger: SecretLedger; formats: readonly CompiledFormat[] }): void {
    this.ledger = ctx.ledger;
    this.post({ type: 'init', key: ctx.key, tier: ctx.tier, formats: ctx.formats.map((f) => [f.spec, f.origin]), bookIds: [...ctx.book.raw], lastHeaderName: ctx.book.lastHeaderName });
    this.reading = this.readAll(files).catch((e: unknown) => this.fail(e instanceof Error ? e : new Error(String(e))));
  }

  private post(m: ToWorker, transfer: ArrayBuffer[] = []): void {
    this.worker.postMessage(m, transfer);
  }

  private async readAll(files: readonly ScannedEntry[]): Promise<void> {
    for (const [k, s] of files.entries()) {
      const f = this.feed(k);
      this.post({ type: 'start', k, name: s.entry.name });
      for await (const chunk of s.entry.open()) {
        if (this.failure) return;
        const copy = new Uint8Array(chunk); // the worker's own copy (transferred); the local one stays
        this.post({ type: 'chunk', k, buf: copy }, [copy.buffer as ArrayBuffer]);
        f.chunks.push(chunk);
        this.buffered += chunk.length;
        this.wakeAll();
        await this.until(() => this.buffered < READ_AHEAD_BYTES);
      }
      f.ended = true;
      this.post({ type: 'end', k });
      this.wakeAll();
    }
    this.post({ type: 'finish' });
  }

  /** The main thread's copy of file k's bytes, as they are read (taking turns with the process: fair.ts). */
  private async *localChunks(k: number): AsyncGenerator<Buffer> {
    const f = this.feed(k);
    for (;;) {
      const t = this.fair.turn();
      if (t) await t;
      await this.until(() => f.chunks.length > 0 || f.ended);
      const c = f.chunks.shift();
      if (!c) return;
      this.buffered -= c.length;
      this.wakeAll();
      yield c;
    }
  }

  /**
   * Pass 2 for file k: parse with the worker's redaction (or take its events, for a document),
   * writing as it goes. Returns the file's stats and adds its redaction counts.
   */
  async parse(k: number, name: string, formats: readonly CompiledFormat[], writer: EventWriter, redactions: Record<string, number>): Promise<FileStats> {
    const f = this.feed(k);
    await this.until(() => f.mode !== null);
    let stats: FileStats;
    if (f.mode === 'events') {
      // Drain the local copy too, so the read-ahead budget moves on.
      const drain = (async () => {
        for await (const _ of this.localChunks(k));
      })();
      for (;;) {
        await this.until(() => f.events.length > 0 || f.done !== null);
        const batch = f.events.shift();
        if (!batch) break; // done, and every batch written
        for (const e of batch) writer.write(e);
      }
      await drain;
      stats = f.done!.stats!;
    } else {
      stats = newStats(name);
      let line = 0; // raw lines handed to parseFile
      let next = 0; // the next answer `redact` takes
      const self = this;
      const lines = async function* (): AsyncGenerator<RawLine> {
        for await (const raw of readLines(self.localChunks(k))) {
          line++;
          // parseFile may redact this line now: its answer must be here first.
          await self.until(() => f.base + f.texts.length >= line || f.done !== null);
          yield raw;
        }
      };
      const redact = (text: string): string => {
        // Skipped lines (null) are the ones parseFile does not ask about.
        while (next - f.base < f.texts.length && f.texts[next - f.base] === null) next++;
        const i = next - f.base;
        if (i >= f.texts.length || f.hashes[i] !== inputHash(text) || faults.outOfStep) throw new PipelineFailed(`redaction pipeline out of step in ${name} (answer ${next})`);
        next++;
        const out = f.texts[i]!;
        if (i >= 4096) {
          // Drop what is consumed now and then (not every line: splice is O(n)).
          f.texts.splice(0, i);
          f.hashes.splice(0, i);
          f.base += i;
        }
        return out;
      };
      for await (const e of parseFile(lines(), { file: name, formats, redact }, stats)) writer.write(e);
      await this.until(() => f.done !== null);
    }
    for (const [rule, n] of Object.entries(f.done!.redactions)) redactions[rule] = (redactions[rule] ?? 0) + n;
    this.feeds.delete(k);
    return stats;
  }

  /** After the last file: the worker's additions to the book and ledger, replayed into the ingest's. */
  async finish(book: SessionIdBook, ledger: SecretLedger): Promise<void> {
    await this.reading;
    await this.until(() => this.state !== null);
    const s = this.state!;
    for (const id of s.added) book.add(id);
    book.lastHeaderName = s.lastHeaderName;
    // (Its ledger's records came with every message; what the worker's ledger refused at its cap is counted here.)
    ledger.overflow += s.overflow;
  }

  async close(): Promise<void> {
    this.failure ??= new PipelineFailed('closed');
    this.wakeAll();
    await this.worker.terminate();
  }
}
