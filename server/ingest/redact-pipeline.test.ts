// The redaction pipeline (a worker redacts, this thread parses) must give exactly what the serial
// pass 2 gives: the same events in the same order, file rows, redaction counts, book and ledger,
// on every recorded sample and every parser fixture (ANSI, CRLF, gzip, zip, HAR documents, line
// prefixes, numbered lines...), and on files larger than its read-ahead. When it breaks, the
// ingest is run again serially and still comes out the same.
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Event } from '../../parsers/contract/event.ts';
import { loadFormats } from '../../parsers/engine/registry.ts';
import type { FileRow, Store } from '../store/store.ts';
import { REPO, tempWorkspace, TEST_KEY } from '../testing/helpers.ts';
import { entriesFromPaths } from './inputs.ts';
import { ingestIntoStore, threadPlan } from './pipeline.ts';
import type { InputEntry } from './inputs.ts';
import { availableParallelism } from 'node:os';
import { faults, READ_AHEAD_BYTES } from './redact-pipeline.ts';

const ws = tempWorkspace();
const formats = loadFormats();
afterAll(() => ws.cleanup());

function memoryStore(): { store: Store; events: Event[]; redactions: Record<string, number>; runs: number } {
  const m = { events: [] as Event[], redactions: {} as Record<string, number>, runs: 0, store: null as unknown as Store };
  m.store = {
    async ingest(_id: string, _name: string, fn: (w: { write(e: Event): void }, seq: number, file0: number) => Promise<{ files: FileRow[]; redactions: Record<string, number> }>) {
      // Like Store.ingest: a failed attempt leaves nothing behind.
      m.runs++;
      const events: Event[] = [];
      const r = await fn({ write: (e) => events.push(e) }, 0, 0);
      m.events = events;
      m.redactions = r.redactions;
      return r.files;
    },
  } as unknown as Store;
  return m;
}

async function ingest(paths: string[], pipeline: boolean) {
  const m = memoryStore();
  const r = await ingestIntoStore(m.store, 'inc', 'test', entriesFromPaths(paths), { key: TEST_KEY, formats, workers: 0, pipeline });
  return { events: m.events, redactions: m.redactions, files: r.files, ledger: r.ledger.snapshot(), overflow: r.ledger.overflow, book: [...r.book.raw].sort(), lastHeaderName: r.book.lastHeaderName, runs: m.runs };
}

async function expectSame(paths: string[]): Promise<number> {
  const serial = await ingest(paths, false);
  const piped = await ingest(paths, true);
  expect(piped.runs).toBe(1); // the pipeline itself, not the serial fallback
  expect(piped.files).toEqual(serial.files);
  expect(piped.events.length).toBe(serial.events.length);
  expect(piped.events).toEqual(serial.events);
  expect(piped.redactions).toEqual(serial.redactions);
  expect(piped.book).toEqual(serial.book);
  expect(piped.lastHeaderName).toBe(serial.lastHeaderName);
  expect(piped.ledger).toEqual(serial.ledger);
  expect(piped.overflow).toBe(serial.overflow);
  return serial.events.length;
}

const fixtureFiles = (): string[] => {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (!n.endsWith('.json') || n.endsWith('.har.json')) out.push(p);
    }
  };
  walk(join(REPO, 'parsers', 'fixtures'));
  return out.filter((p) => !p.includes('_error_'));
};

describe('redaction pipeline', () => {
  const samples = readdirSync(join(REPO, 'samples')).filter((d) => statSync(join(REPO, 'samples', d)).isDirectory() && d !== 'record');

  it('gives the serial result on every recorded sample, all in one ingest', async () => {
    expect(await expectSame(samples.map((d) => join(REPO, 'samples', d)))).toBeGreaterThan(1000);
  });

  it('gives the serial result on every parser fixture (documents, archives, prefixes, ANSI, CRLF)', async () => {
    const files = fixtureFiles();
    expect(files.some((f) => f.endsWith('.gz'))).toBe(true);
    expect(files.some((f) => f.endsWith('.har'))).toBe(true);
    expect(await expectSame(files)).toBeGreaterThan(100);
  });

  it('gives the serial result on a file larger than its read-ahead, with a secret that recurs in a later file', async () => {
    const big = join(ws.dir, 'big.log');
    const line = (i: number) =>
      `2026-11-29T10:00:${String(i % 60).padStart(2, '0')}.000Z INFO [svc] request ${i} completed mcp-session-id=5d1c9b7e-3f2a-4c8d-9e10-aa55bb66cc77 path=/mcp?x=${i}\n`;
    const parts: string[] = ['2026-11-29T09:59:59.000Z INFO [svc] login password=Tr0ub4dor-and-3-horses\n'];
    let bytes = 0;
    for (let i = 0; bytes < READ_AHEAD_BYTES * 1.5; i++) {
      const l = line(i);
      parts.push(l);
      bytes += l.length;
    }
    writeFileSync(big, parts.join(''));
    const later = join(ws.dir, 'later.log');
    writeFileSync(later, 'the password Tr0ub4dor-and-3-horses leaked again\r\nTraceback (most recent call last):\r\n  File "x.py", line 1, in <module>\r\nValueError: boom\r\n');
    expect(await expectSame([big, later])).toBeGreaterThan((READ_AHEAD_BYTES * 1.5) / 200);
  });

  it('falls back to the serial ingest when the pipeline gets out of step', async () => {
    const serial = await ingest([join(REPO, 'samples', samples[0]!)], false);
    faults.outOfStep = true;
    try {
      const piped = await ingest([join(REPO, 'samples', samples[0]!)], true);
      expect(piped.runs).toBe(2);
      expect(piped.events).toEqual(serial.events);
      expect(piped.redactions).toEqual(serial.redactions);
      expect(piped.ledger).toEqual(serial.ledger);
    } finally {
      faults.outOfStep = false;
    }
  });
});

describe('which threads an ingest uses', () => {
  const entry = (size: number): InputEntry => ({ name: `f${size}`, size, open: async function* () {} }) as unknown as InputEntry;
  const MiB = 1024 * 1024;
  const plan = (sizes: number[], opts = {}) => threadPlan(sizes.map(entry), sizes.reduce((a, b) => a + b, 0), opts);

  it('keeps small inputs on one thread and pipelines big ones (any file size)', () => {
    const env = process.env.MCP_TRIAGE_WORKERS;
    delete process.env.MCP_TRIAGE_WORKERS;
    try {
      expect(plan([MiB, MiB])).toBe('serial');
      expect(plan([600 * MiB, 500 * MiB])).toBe('pipeline'); // no file fits the pool's budget
      expect(plan([40 * MiB, 40 * MiB, 40 * MiB, 40 * MiB])).toBe(availableParallelism() >= 4 ? 'pool' : 'pipeline');
      process.env.MCP_TRIAGE_WORKERS = '0';
      expect(plan([600 * MiB])).toBe('serial');
      process.env.MCP_TRIAGE_WORKERS = '2';
      expect(plan([600 * MiB])).toBe('pool');
    } finally {
      if (env === undefined) delete process.env.MCP_TRIAGE_WORKERS;
      else process.env.MCP_TRIAGE_WORKERS = env;
    }
  });

  it('does what a caller asks for', () => {
    expect(plan([MiB], { pipeline: true })).toBe('pipeline');
    expect(plan([600 * MiB], { pipeline: false })).toBe('serial');
    expect(plan([600 * MiB], { workers: 1 })).toBe('pool');
    expect(plan([600 * MiB], { workers: 0 })).toBe('serial');
  });
});
