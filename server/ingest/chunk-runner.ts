// The per-chunk work of an ingest (chunks.ts), on a worker thread (ingest-worker.ts) or, with no
// workers, on the main thread: the same code either way, so the output cannot depend on where it ran.
//
// A chunk is redacted from the same start state whichever chunk ran before it on this runner:
// a fresh line redactor, the session-id book as pass 1 left it, an empty ledger. What the chunk
// learns (ledger values, ids first met in pass 2) goes back to the main thread, which merges it
// in chunk order and sweeps it from every row before the commit (createLateSweep).
//
// - `lines`: a byte range of a line-mode file, starting at a line: each line decoded, cleaned
//   (ANSI, the file's prefix: redactInput) and redacted, and its signals found (signalsOfLines);
//   sent back as columns (PreparedLines) for the main thread's parse (parsePrepared), which needs
//   the lines in order.
// - `whole`: a file that is one piece (a JSON document such as HAR or OTLP, whose redaction
//   depends on its parse, or UTF-16 text): its bytes stream in, it is parsed here, events go back.
import type { Event } from '../../parsers/contract/event.ts';
import type { FormatSpec } from '../../parsers/contract/format.ts';
import { compileFormat, type CompiledFormat } from '../../parsers/engine/apply.ts';
import { prefixRule, stripAnsi, type Layout } from '../../parsers/engine/clean.ts';
import { MAX_LINE_BYTES, readLineBatches, readLines, type RawLine } from '../../parsers/engine/lines.ts';
import { newStats, parseFile, redactInput, type FileStats, type LineOrigin, type PreparedLines } from '../../parsers/engine/parse-file.ts';
import { signalsOfLines } from '../../parsers/engine/signals.ts';
import { collectSessionIds, createLineRedactor, SecretLedger, SessionIdBook, type EngineTier, type LedgerRecord } from '../triage/redact/index.ts';
import { Fair } from './fair.ts';

export type ToRunner =
  | { type: 'init'; key: Uint8Array; tier: EngineTier; formats: Array<[unknown, string]>; bookIds: string[] }
  | { type: 'lines'; id: number; bytes: Uint8Array; continued: boolean; prefix: string | null; prefixArg?: string | null; layout: Layout }
  /** Pass 1: the raw session ids a byte range names (`bytes`), or a whole file's (streamed like `whole`). */
  | { type: 'ids'; id: number; bytes?: Uint8Array; continued: boolean }
  | { type: 'whole'; id: number; name: string }
  | { type: 'data'; id: number; bytes: Uint8Array }
  | { type: 'end'; id: number };

/** What one chunk learnt and counted, merged by the main thread in chunk order. */
export interface ChunkState {
  redactions: Record<string, number>;
  /** Every value the chunk's ledger kept, in order (LedgerRecord: rule, value, kind, replacement). */
  journal: LedgerRecord[];
  /** Session ids first met in this chunk (not in pass 1's book). */
  added: string[];
  overflow: number;
}

export type FromRunner =
  | { type: 'lines'; id: number; lines: PreparedLines; state: ChunkState }
  | { type: 'ids'; id: number; ids: string[] }
  | { type: 'events'; id: number; events: Event[] }
  | { type: 'whole'; id: number; stats: FileStats; state: ChunkState }
  /** Bytes of a whole job taken off its queue (the main thread's read-ahead moves on). */
  | { type: 'ack'; id: number; bytes: number }
  | { type: 'error'; id: number; message: string };

const EVENT_BATCH = 2000;
/** Lines between two looks at the clock (fair.ts: on the main thread, other requests get turns). */
const FAIR_LINES = 256;

/** Chunks of a whole job as they arrive, as an async iterable; `taken` is told each one's size. */
class ChunkQueue implements AsyncIterable<Buffer> {
  private items: Buffer[] = [];
  private ended = false;
  private wake: (() => void) | null = null;
  constructor(private readonly taken: (bytes: number) => void) {}
  push(b: Buffer): void {
    this.items.push(b);
    this.wake?.();
  }
  end(): void {
    this.ended = true;
    this.wake?.();
  }
  async *[Symbol.asyncIterator](): AsyncGenerator<Buffer> {
    for (;;) {
      const b = this.items.shift();
      if (b) {
        this.taken(b.length);
        yield b;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((r) => (this.wake = r));
      this.wake = null;
    }
  }
}

function asBuffer(u: Uint8Array): Buffer {
  return Buffer.isBuffer(u) ? u : Buffer.from(u.buffer, u.byteOffset, u.byteLength);
}

async function* once(b: Buffer): AsyncGenerator<Buffer> {
  if (b.length) yield b;
}

export class ChunkRunner {
  private key: Uint8Array = new Uint8Array();
  private tier: EngineTier = 'all';
  private formats: CompiledFormat[] = [];
  /** Pass 1's book: every chunk starts from it (its own additions are taken off after it). */
  private book = new SessionIdBook();
  private baseSize = 0;
  private chain: Promise<void> = Promise.resolve();
  private readonly queues = new Map<number, ChunkQueue>();
  private readonly fair = new Fair();

  constructor(private readonly send: (m: FromRunner, transfer?: ArrayBuffer[]) => void) {}

  receive(m: ToRunner): void {
    switch (m.type) {
      case 'init':
        this.key = m.key;
        this.tier = m.tier;
        this.formats = m.formats.map(([spec, origin]) => compileFormat(spec as FormatSpec, origin));
        this.book = new SessionIdBook();
        for (const id of m.bookIds) this.book.add(id);
        this.baseSize = this.book.raw.size;
        break;
      case 'lines':
        this.run(m.id, () => this.lines(m));
        break;
      case 'ids': {
        if (m.bytes) {
          const bytes = asBuffer(m.bytes);
          this.run(m.id, () => this.ids(m.id, readLineBatches(once(bytes), MAX_LINE_BYTES, m.continued)));
          break;
        }
        const q = new ChunkQueue((bytes) => this.send({ type: 'ack', id: m.id, bytes }));
        this.queues.set(m.id, q);
        this.run(m.id, () => this.ids(m.id, readLineBatches(q)));
        break;
      }
      case 'whole': {
        const q = new ChunkQueue((bytes) => this.send({ type: 'ack', id: m.id, bytes }));
        this.queues.set(m.id, q);
        this.run(m.id, () => this.whole(m.id, m.name, q));
        break;
      }
      case 'data':
        this.queues.get(m.id)?.push(asBuffer(m.bytes));
        break;
      case 'end':
        this.queues.get(m.id)?.end();
        this.queues.delete(m.id);
        break;
    }
  }

  /** Jobs run one at a time, in the order they came. */
  private run(id: number, job: () => Promise<void>): void {
    this.chain = this.chain.then(job).catch((e: unknown) => this.send({ type: 'error', id, message: e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e) }));
  }

  /**
   * A redactor in the start state every chunk gets, and what it learnt once the chunk is done.
   * `collected`: pass 1 read exactly these lines (createLineRedactor `collected`).
   */
  private redactor(collected = false): { redact: (text: string) => string; done: () => ChunkState } {
    const ledger = new SecretLedger();
    const journal: LedgerRecord[] = [];
    ledger.journal = journal;
    this.book.lastHeaderName = null;
    const r = createLineRedactor({ key: this.key, tier: this.tier, ids: this.book, ledger, collected });
    const redactions: Record<string, number> = {};
    return {
      redact: (text) => {
        const out = r.line(text);
        for (const m of out.remarks) redactions[m.rule] = (redactions[m.rule] ?? 0) + 1;
        return out.text;
      },
      done: () => ({ redactions, journal, added: this.book.truncate(this.baseSize), overflow: ledger.overflow }),
    };
  }

  private async lines(m: Extract<ToRunner, { type: 'lines' }>): Promise<void> {
    // Pass 1 (ids) cut this file at the same places and collected the session ids of these very lines
    // (ANSI stripped, from a fresh HAR-header state) when cleaning changes nothing else: no prefix to
    // strip, no numbered lines to skip (chunkEnd then cuts alike; a skipped blank line names no id).
    // The redactor's own collection would find nothing new: ~4% of a 64 MiB analyze's CPU.
    const { redact, done } = this.redactor(m.prefix === null && !m.layout.numberLines);
    const plan = { prefix: prefixRule(m.prefix, m.prefixArg), layout: m.layout };
    const text: (string | null)[] = [];
    const cut: number[] = [];
    const ansi: number[] = [];
    const stamp: number[] = [];
    const origin: (LineOrigin | null)[] = [];
    let origins = false;
    for await (const batch of readLineBatches(once(asBuffer(m.bytes)), MAX_LINE_BYTES, m.continued))
      for (const raw of batch) {
        if (text.length % FAIR_LINES === 0) {
          const t = this.fair.turn();
          if (t) await t;
        }
        const input = redactInput(raw, plan);
        text.push(input.text === null ? null : redact(input.text));
        cut.push(raw.cut);
        ansi.push(input.ansi ? 1 : 0);
        stamp.push(input.stamp ?? Number.NaN);
        origin.push(input.origin);
        if (input.origin !== null) origins = true;
      }
    // the lines' signals too: the main thread's parse is the ingest's bottleneck, this thread's core is not
    const signals = signalsOfLines(text);
    const lines = { text, cut: Int32Array.from(cut), ansi: Uint8Array.from(ansi), stamp: Float64Array.from(stamp), ...(origins ? { origin } : {}), signals };
    this.send({ type: 'lines', id: m.id, lines, state: done() }, [lines.cut.buffer, lines.ansi.buffer, lines.stamp.buffer, signals.at.buffer as ArrayBuffer]);
  }

  /** Pass 1 over some lines: the session ids they name, in the order met (collectSessionIds on each line, ANSI stripped). */
  private async ids(id: number, batches: AsyncIterable<RawLine[]>): Promise<void> {
    const book = new SessionIdBook();
    let n = 0;
    for await (const lines of batches)
      for (const l of lines) {
        if (++n % FAIR_LINES === 0) {
          const t = this.fair.turn();
          if (t) await t;
        }
        collectSessionIds(stripAnsi(l.text).text, book);
      }
    this.send({ type: 'ids', id, ids: [...book.raw] });
  }

  private async whole(id: number, name: string, q: ChunkQueue): Promise<void> {
    const { redact, done } = this.redactor();
    const stats = newStats(name);
    let batch: Event[] = [];
    for await (const e of parseFile(readLines(q), { file: name, formats: this.formats, redact }, stats)) {
      if (batch.length % FAIR_LINES === 0) {
        const t = this.fair.turn();
        if (t) await t;
      }
      batch.push(e);
      if (batch.length >= EVENT_BATCH) {
        this.send({ type: 'events', id, events: batch });
        batch = [];
      }
    }
    if (batch.length) this.send({ type: 'events', id, events: batch });
    this.send({ type: 'whole', id, stats: { ...stats, detection: null }, state: done() });
  }
}
