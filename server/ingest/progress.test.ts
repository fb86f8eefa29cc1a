// Ingest progress: bytes read per phase, monotonic, capped at each file's size (gzip yields more
// than its size on disk), complete at the end of a phase, and the same through every pass-2 path.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { loadFormats } from '../../parsers/engine/registry.ts';
import { progressLine, progressPrinter } from '../cli/progress.ts';
import { formatDuration, timeLeft } from '../contract/progress.ts';
import { Store } from '../store/store.ts';
import { tempWorkspace, TEST_KEY } from '../testing/helpers.ts';
import { entriesFromPaths, type InputEntry } from './inputs.ts';
import { ingestIntoStore, type Progress } from './pipeline.ts';
import { ProgressMeter, REPORT_MS } from './progress.ts';

const ws = tempWorkspace();
afterAll(() => ws.cleanup());
const formats = loadFormats();

const entry = (name: string, size: number, chunks: number[]): InputEntry => ({
  name,
  size,
  async *open() {
    for (const n of chunks) yield Buffer.alloc(n, 0x61);
  },
});

async function drain(e: InputEntry): Promise<void> {
  for await (const _ of e.open());
}

describe('ProgressMeter', () => {
  it('counts bytes read, caps a file at its size, reports at most every REPORT_MS and ends at 100%', async () => {
    let t = 0;
    const seen: Progress[] = [];
    const files = [entry('a.log', 100, [40, 40, 20]), entry('b.log.gz', 50, [60, 60, 60])]; // b inflates past its size
    const m = new ProgressMeter(
      'parse',
      files,
      (p) => seen.push(p),
      () => t,
    );
    for (const [i, f] of files.entries()) {
      m.start(i);
      for await (const _ of m.counted(f).open()) t += REPORT_MS; // every chunk is worth a report
    }
    m.finish();
    // A chunk is counted when read, the clock moves after: the first chunk of a file is within
    // REPORT_MS of the file's start report, every later one is not.
    expect(seen.map((p) => [p.fileIndex, p.done])).toEqual([
      [0, 0],
      [0, 80],
      [0, 100],
      [1, 100],
      [1, 150],
      [1, 150],
      [1, 150],
    ]);
    expect(seen.every((p) => p.total === 150 && p.phase === 'parse' && p.files === 2)).toBe(true);
  });

  it('throttles reports within a file but always reports a file start', async () => {
    const seen: Progress[] = [];
    const files = [entry('a', 10, Array(50).fill(1)), entry('b', 10, [10])];
    const m = new ProgressMeter(
      'scan',
      files,
      (p) => seen.push(p),
      () => 0,
    ); // the clock never moves
    m.start(0);
    await drain(m.counted(files[0]!));
    m.start(1);
    await drain(m.counted(files[1]!));
    m.finish();
    expect(seen.map((p) => [p.fileIndex, p.done])).toEqual([
      [0, 0],
      [1, 10],
      [1, 20],
    ]);
  });
});

describe('progress of a real ingest', () => {
  const dir = join(ws.dir, 'logs');
  mkdirSync(dir, { recursive: true });
  const line = (i: number) =>
    `2026-11-29T08:00:${String(i % 60).padStart(2, '0')}.000Z INFO [mcp-client] POST http://127.0.0.1:8080/mcp rpc=${i} method=tools/list -> 200 (5 ms)\n`;
  writeFileSync(join(dir, 'big.log'), Array.from({ length: 30_000 }, (_, i) => line(i)).join(''));
  writeFileSync(join(dir, 'small.log'), line(1) + line(2));
  writeFileSync(join(dir, 'mid.log'), Array.from({ length: 3000 }, (_, i) => line(i)).join(''));
  const entries = entriesFromPaths([dir]);
  const total = entries.reduce((n, e) => n + e.size, 0);

  it.each([
    ['no workers', 0],
    ['two workers', 2],
  ] as const)('%s: each phase climbs to its total, file by file', async (_mode, workers) => {
    const store = await Store.open(':memory:');
    try {
      const seen: Progress[] = [];
      await ingestIntoStore(store, 'inc_progress1', 'p', entries, { key: TEST_KEY, formats, workers, chunkBytes: 64 * 1024, onProgress: (p) => seen.push(p) });
      const phases = [...new Set(seen.map((p) => p.phase))];
      expect(phases).toEqual(['scan', 'parse']);
      for (const phase of phases) {
        const ps = seen.filter((p) => p.phase === phase);
        for (let i = 1; i < ps.length; i++) {
          expect(ps[i]!.done!).toBeGreaterThanOrEqual(ps[i - 1]!.done!);
          expect(ps[i]!.fileIndex).toBeGreaterThanOrEqual(ps[i - 1]!.fileIndex);
        }
        expect(ps.every((p) => p.total === total && p.done! <= total)).toBe(true);
        expect(ps.at(-1)!.done).toBe(total);
        expect(new Set(ps.map((p) => p.fileIndex))).toEqual(new Set([0, 1, 2]));
      }
    } finally {
      await store.close();
    }
  });
});

class Sink extends Writable {
  text = '';
  constructor(readonly isTTY: boolean) {
    super();
  }
  _write(chunk: Buffer, _enc: string, cb: () => void): void {
    this.text += chunk.toString();
    cb();
  }
}

describe('the CLI progress line', () => {
  const p = (phase: Progress['phase'], fileIndex: number, done: number, file = `f${fileIndex}.log`): Progress => ({ phase, file, fileIndex, files: 3, done, total: 300 * 1048576 });

  it('a pipe gets one line per file parsed and one for the analysis', () => {
    const out = new Sink(false);
    const print = progressPrinter(out);
    for (const x of [p('scan', 0, 0), p('scan', 1, 5), p('parse', 0, 0), p('parse', 0, 10), p('parse', 1, 20), p('parse', 2, 30), p('parse', 2, 40), p('analyze', 0, 0)]) print(x);
    expect(out.text).toBe('parsing 1/3 f0.log\nparsing 2/3 f1.log\nparsing 3/3 f2.log\nanalyzing…\n');
  });

  it('a terminal gets percent, speed and time left, rewritten in place', () => {
    const out = new Sink(true);
    let t = 0;
    const print = progressPrinter(out, () => t);
    print(p('parse', 0, 0));
    t = 10_000;
    print(p('parse', 1, 100 * 1048576)); // 100 MiB in 10 s: 200 MiB left at 10 MiB/s
    expect(out.text.split('\r\x1b[2K').at(-1)).toBe('parsing 2/3 f1.log  33% · 10.0 MiB/s · 20s left');
    print(p('analyze', 0, 0));
    expect(out.text.endsWith('\r\x1b[2Kanalyzing…\n')).toBe(true);
  });

  it('never writes control characters from a file name', () => {
    expect(progressLine(p('scan', 0, 0, 'evil\x1b]0;pwned\x07.log'), null)).toBe('reading 1/3 evil?]0;pwned?.log  0%');
  });

  it('estimates time left from the rate since the phase started, after 2 s', () => {
    const p = { phase: 'parse' as const, file: 'a', fileIndex: 0, files: 1, done: 60, total: 100 };
    expect(timeLeft(p, { t: 0, done: 20 }, 1000)).toBeNull(); // too early
    expect(timeLeft(p, { t: 0, done: 20 }, 4000)).toBe(4); // 40 bytes in 4 s: 40 left take 4 s
    expect(timeLeft(p, { t: 0, done: 60 }, 4000)).toBeNull(); // nothing moved
    expect(timeLeft({ ...p, total: undefined }, { t: 0, done: 0 }, 4000)).toBeNull();
  });

  it('formats durations', () => {
    expect([5, 59.2, 61, 3600 + 120, -1].map(formatDuration)).toEqual(['5s', '1m00s', '1m01s', '1h02m', '?']);
  });
});
