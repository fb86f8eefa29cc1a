// Parse workers must give exactly what serial processing gives: same events in the same order,
// same file rows and redaction counts, same book and ledger. A file whose worker started with a
// ledger that lacked a secret found in an earlier file is parsed again in process (the fallback).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Event } from '../../parsers/contract/event.ts';
import { loadFormats } from '../../parsers/engine/registry.ts';
import type { FileRow, Store } from '../store/store.ts';
import { tempWorkspace, TEST_KEY } from '../testing/helpers.ts';
import { entriesFromPaths } from './inputs.ts';
import { ingestIntoStore } from './pipeline.ts';
import { workerCount } from './parallel.ts';
import { SweepTrace } from '../triage/redact/index.ts';

const ws = tempWorkspace();
const formats = loadFormats();
afterAll(() => ws.cleanup());

/** A store that keeps the written events in memory (ingestIntoStore only calls `ingest`). */
function memoryStore(): { store: Store; events: Event[]; redactions: Record<string, number> } {
  const events: Event[] = [];
  const redactions: Record<string, number> = {};
  const store = {
    async ingest(_id: string, _name: string, fn: (w: { write(e: Event): void }, seq: number, file0: number) => Promise<{ files: FileRow[]; redactions: Record<string, number> }>) {
      const r = await fn({ write: (e) => events.push(e) }, 0, 0);
      Object.assign(redactions, r.redactions);
      return r.files;
    },
  } as unknown as Store;
  return { store, events, redactions };
}

async function ingest(dir: string, workers: boolean, workerBudgetBytes?: number) {
  const m = memoryStore();
  const used: Array<[number, boolean]> = [];
  const r = await ingestIntoStore(m.store, 'inc', 'test', entriesFromPaths([dir]), {
    key: TEST_KEY,
    formats,
    workers: workers ? 1 : 0,
    workerBudgetBytes,
    onParallel: (i, w) => used.push([i, w]),
  });
  return { events: m.events, redactions: m.redactions, files: r.files, used, ledger: r.ledger.snapshot(), book: [...r.book.raw] };
}

function incident(name: string, files: Record<string, string[]>): string {
  const dir = join(ws.dir, name);
  mkdirSync(dir);
  for (const [f, lines] of Object.entries(files)) writeFileSync(join(dir, f), lines.join('\n') + '\n');
  return dir;
}

const filler = (n: number, what: string) => Array.from({ length: n }, (_, i) => `2026-11-29T10:00:${String(i % 60).padStart(2, '0')}.000Z INFO [${what}] request ${i} completed mcp-session-id=5d1c9b7e-3f2a-4c8d-9e10-aa55bb66cc77`);

describe('parse workers', () => {
  it('never hand a worker more input than the memory budget: such files stream in process', async () => {
    const dir = incident('budget', { 'a.log': filler(2000, 'a'), 'b.log': filler(2000, 'b'), 'c.log': filler(2000, 'c') });
    const serial = await ingest(dir, false);
    const roomy = await ingest(dir, true);
    expect(roomy.used.some(([, w]) => w)).toBe(true); // the budget normally lets workers help…
    const tight = await ingest(dir, true, 1024); // …but every file here is bigger than 1 KiB
    expect(tight.used).toEqual([]);
    expect(tight.events).toEqual(serial.events);
    expect(tight.files).toEqual(serial.files);
  });

  it('re-runs a file in process when a secret found in an earlier file occurs in it', async () => {
    const dir = incident('fallback', {
      // a.log is file 1, b.log file 2: serial processing sweeps a.log's password out of b.log.
      'a.log': [...filler(3000, 'a'), '2026-11-29T10:01:00.000Z INFO [a] login password=S3cretValue99x accepted'],
      'b.log': [...filler(50, 'b'), '2026-11-29T10:02:00.000Z WARN [b] retrying with S3cretValue99x for user'],
    });
    const serial = await ingest(dir, false);
    const parallel = await ingest(dir, true);
    expect(serial.used).toEqual([]);
    // The main thread parses a.log itself; the worker had b.log before a.log's password was known.
    expect(parallel.used).toEqual([[1, false]]);
    expect(JSON.stringify(serial.events)).not.toContain('S3cretValue99x');
    expect(parallel.events).toEqual(serial.events);
    expect(parallel.files).toEqual(serial.files);
    expect(parallel.redactions).toEqual(serial.redactions);
    expect(parallel.ledger).toEqual(serial.ledger);
    expect(parallel.book).toEqual(serial.book);
  }, 60_000);

  it("keeps a worker's result when the later file's secret appears (bare) in the earlier file", async () => {
    const dir = incident('no-fallback', {
      'a.log': [...filler(3000, 'a'), '2026-11-29T10:01:00.000Z WARN [a] retrying with Z9otherSecret77 for user'],
      'b.log': [...filler(50, 'b'), '2026-11-29T10:02:00.000Z INFO [b] login password=Z9otherSecret77 accepted'],
    });
    const serial = await ingest(dir, false);
    const parallel = await ingest(dir, true);
    expect(parallel.used).toEqual([[1, true]]);
    expect(parallel.events).toEqual(serial.events);
    expect(parallel.files).toEqual(serial.files);
    expect(parallel.redactions).toEqual(serial.redactions);
    expect(parallel.ledger).toEqual(serial.ledger);
  }, 60_000);

  it('leaves small inputs in process', async () => {
    const dir = incident('small', { 'a.log': filler(10, 'a'), 'b.log': filler(10, 'b') });
    const m = memoryStore();
    const used: Array<[number, boolean]> = [];
    await ingestIntoStore(m.store, 'inc', 'test', entriesFromPaths([dir]), { key: TEST_KEY, formats, onParallel: (i, w) => used.push([i, w]) });
    expect(workerCount(2, 1024)).toBe(0);
    expect(used).toEqual([]);
    expect(m.events.length).toBe(20);
  });
});

describe('SweepTrace', () => {
  it('has no false negatives', () => {
    const t = new SweepTrace();
    t.add('GET /x?token=abcdef123456 HTTP/1.1');
    t.add('abcdef123456'); // a substring of the last text: nothing new
    t.add('héllo wörld ünïcode');
    for (const v of ['abcdef123456', 'token=abc', 'HTTP/1.1', 'llo wörld', 'ünïcode']) expect(t.mayContain(v)).toBe(true);
    expect(t.mayContain('zzzzzzzzzz')).toBe(false);
  });
});
