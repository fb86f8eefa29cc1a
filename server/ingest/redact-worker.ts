// The redaction stage of the ingest pipeline (redact-pipeline.ts), on its own thread. It owns the
// ingest's redactor state (session-id book, secret ledger), so it redacts every file in order,
// exactly as the in-process pass 2 would; the main thread parses and writes meanwhile.
// Per file it reads the same bytes the main thread reads, decides from the head what parseFile
// will hand to `redact` (planLines / redactInput), and sends back, per physical line, the
// redacted text (null for a line the layout skips) with a hash of its input, which the main
// thread checks against what parseFile actually asks for. A whole-document file (HAR, OTLP),
// whose redaction depends on its parse, is parsed here instead and its events sent back.
import { parentPort } from 'node:worker_threads';
import type { Event } from '../../parsers/contract/event.ts';
import type { FormatSpec } from '../../parsers/contract/format.ts';
import { compileFormat, type CompiledFormat } from '../../parsers/engine/apply.ts';
import { readLines, type RawLine } from '../../parsers/engine/lines.ts';
import { newStats, parseFile, planLines, readHead, redactInput } from '../../parsers/engine/parse-file.ts';
import { createLineRedactor, SecretLedger, SessionIdBook, type EngineTier, type LedgerRecord } from '../triage/redact/index.ts';
import { inputHash, type FromWorker, type ToWorker } from './redact-pipeline.ts';

const LINE_BATCH = 2000;
const EVENT_BATCH = 2000;
const port = parentPort!;

let key: Uint8Array;
let tier: EngineTier = 'all';
let formats: CompiledFormat[] = [];
const book = new SessionIdBook();
const ledger = new SecretLedger();
const journal: LedgerRecord[] = [];
let bookSize = 0;

/** Chunks of one file as they arrive, as an async iterable. */
class ChunkQueue implements AsyncIterable<Buffer> {
  private items: Buffer[] = [];
  private ended = false;
  private wake: (() => void) | null = null;
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
        yield b;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((r) => (this.wake = r));
      this.wake = null;
    }
  }
}

const files = new Map<number, ChunkQueue>();
/** Files are redacted strictly in order: the book and ledger carry from one to the next. */
let chain: Promise<void> = Promise.resolve();

async function redactFile(k: number, name: string, chunks: ChunkQueue): Promise<void> {
  const redactor = createLineRedactor({ key, tier, ids: book, ledger });
  const redactions: Record<string, number> = {};
  const redact = (text: string) => {
    const r = redactor.line(text);
    for (const m of r.remarks) redactions[m.rule] = (redactions[m.rule] ?? 0) + 1;
    return r.text;
  };
  const it = readLines(chunks)[Symbol.asyncIterator]();
  const head = await readHead(it);
  const plan = planLines(head);
  if (plan.doc) {
    port.postMessage({ type: 'mode', k, mode: 'events' } satisfies FromWorker);
    const stats = newStats(name);
    const replay = async function* (): AsyncGenerator<RawLine> {
      yield* head;
      for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
    };
    let batch: Event[] = [];
    for await (const e of parseFile(replay(), { file: name, formats, redact }, stats)) {
      batch.push(e);
      if (batch.length >= EVENT_BATCH) {
        port.postMessage({ type: 'events', k, events: batch } satisfies FromWorker);
        batch = [];
      }
    }
    if (batch.length) port.postMessage({ type: 'events', k, events: batch } satisfies FromWorker);
    port.postMessage({ type: 'done', k, redactions, stats: { ...stats, detection: null }, journal: newRecords() } satisfies FromWorker);
    return;
  }
  port.postMessage({ type: 'mode', k, mode: 'lines' } satisfies FromWorker);
  let texts: (string | null)[] = [];
  let hashes: number[] = [];
  const send = () => {
    port.postMessage({ type: 'lines', k, texts, hashes: Int32Array.from(hashes), journal: newRecords() } satisfies FromWorker);
    texts = [];
    hashes = [];
  };
  const line = (raw: RawLine) => {
    const input = redactInput(raw, plan).text;
    texts.push(input === null ? null : redact(input));
    hashes.push(input === null ? 0 : inputHash(input));
    if (texts.length >= LINE_BATCH) send();
  };
  for (const raw of head) line(raw);
  for (let r = await it.next(); !r.done; r = await it.next()) line(r.value);
  if (texts.length) send();
  port.postMessage({ type: 'done', k, redactions, journal: newRecords() } satisfies FromWorker);
}

/** What the ledger kept since the last message: sent as it comes, so no copy of it piles up here. */
function newRecords(): LedgerRecord[] {
  return journal.splice(0);
}

function fail(e: unknown): void {
  port.postMessage({ type: 'error', message: e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e) } satisfies FromWorker);
}

port.on('message', (m: ToWorker) => {
  switch (m.type) {
    case 'init':
      key = m.key;
      tier = m.tier;
      formats = m.formats.map(([spec, origin]) => compileFormat(spec as FormatSpec, origin));
      for (const id of m.bookIds) book.add(id);
      book.lastHeaderName = m.lastHeaderName;
      bookSize = book.raw.size;
      ledger.journal = journal;
      break;
    case 'start': {
      const q = new ChunkQueue();
      files.set(m.k, q);
      chain = chain.then(() => redactFile(m.k, m.name, q)).catch(fail);
      break;
    }
    case 'chunk':
      files.get(m.k)!.push(Buffer.from(m.buf.buffer, m.buf.byteOffset, m.buf.byteLength));
      break;
    case 'end':
      files.get(m.k)!.end();
      files.delete(m.k);
      break;
    case 'finish':
      chain = chain
        .then(() => port.postMessage({ type: 'state', journal: newRecords(), overflow: ledger.overflow, added: [...book.raw].slice(bookSize), lastHeaderName: book.lastHeaderName } satisfies FromWorker))
        .catch(fail);
      break;
  }
});
