// The signals the ingest's runners compute per line (signalsOfLines, PreparedLines.signals) must
// leave every event as the parse alone makes it: the same files parsed from the same prepared
// lines, once with the runners' signals and once without, in batches cut at random lines (an
// event is enriched when the next line comes, maybe in the next batch), give equal events.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Event } from '../contract/event.ts';
import type { RawLine } from './lines.ts';
import { newStats, parsePrepared, planLines, redactInput, type LineOrigin, type PreparedLines } from './parse-file.ts';
import { loadFormats } from './registry.ts';
import { signalsOfLines, signalTable } from './signals.ts';

const formats = loadFormats();
const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const RECORDED = join(import.meta.dirname, '..', '..', 'samples', 'recorded');

function prepare(lines: string[]): { plan: ReturnType<typeof planLines>; text: (string | null)[]; stamp: number[]; origin: (LineOrigin | null)[] } {
  const raw: RawLine[] = lines.map((text, i) => ({ n: i + 1, text, cut: 0 }) as RawLine);
  const plan = planLines(raw.slice(0, 200));
  const text: (string | null)[] = [];
  const stamp: number[] = [];
  const origin: (LineOrigin | null)[] = [];
  for (const r of raw) {
    const input = redactInput(r, plan);
    text.push(input.text);
    stamp.push(input.stamp ?? Number.NaN);
    origin.push(input.origin);
  }
  return { plan, text, stamp, origin };
}

async function parse(lines: string[], cuts: number[], withSignals: boolean): Promise<Event[]> {
  const { plan, text, stamp, origin } = prepare(lines);
  const bounds = [...new Set([0, ...cuts.map((c) => c % (text.length + 1)), text.length])].sort((a, b) => a - b);
  const batches = async function* (): AsyncGenerator<PreparedLines> {
    for (let k = 0; k + 1 < bounds.length; k++) {
      const [a, b] = [bounds[k]!, bounds[k + 1]!];
      const t = text.slice(a, b);
      yield {
        text: t,
        cut: new Int32Array(t.length),
        ansi: new Uint8Array(t.length),
        stamp: Float64Array.from(stamp.slice(a, b)),
        origin: origin.slice(a, b),
        ...(withSignals ? { signals: signalsOfLines(t) } : {}),
      };
    }
  };
  const out: Event[] = [];
  for await (const e of parsePrepared(plan, batches(), { file: 'x.log', formats }, newStats('x.log'))) out.push(e);
  return out;
}

function logFiles(): string[][] {
  const files: string[][] = [];
  for (const dir of readdirSync(FIXTURES)) {
    const d = join(FIXTURES, dir);
    if (!statSync(d).isDirectory()) continue;
    for (const c of readdirSync(d)) {
      const input = join(d, c, 'input.log');
      if (existsSync(input)) files.push(readFileSync(input, 'utf8').split('\n'));
    }
  }
  for (const dir of existsSync(RECORDED) ? readdirSync(RECORDED) : []) {
    const d = join(RECORDED, dir);
    if (!statSync(d).isDirectory()) continue;
    for (const f of readdirSync(d)) if (f.endsWith('.log')) files.push(readFileSync(join(d, f), 'utf8').split('\n'));
  }
  return files;
}

describe("runners' line signals", () => {
  it('leave every fixture and recorded log parsed as without them, whatever the batches', async () => {
    const files = logFiles();
    expect(files.length).toBeGreaterThan(20);
    let signalled = 0;
    for (const [i, lines] of files.entries()) {
      const cuts = [1, 7, 64, 65, 200 + i].map((c) => c + i);
      const want = await parse(lines, [], false);
      expect(await parse(lines, cuts, true)).toEqual(want);
      signalled += want.filter((e) => e.signals.length).length;
    }
    expect(signalled).toBeGreaterThan(100);
  });

  it('leave random mixes of those lines parsed as without them', async () => {
    const pool = logFiles()
      .flat()
      .filter((l) => l.trim() !== '');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...pool), { minLength: 1, maxLength: 60 }), fc.array(fc.nat(80), { maxLength: 6 }), async (lines, cuts) => {
        expect(await parse(lines, cuts, true)).toEqual(await parse(lines, [], false));
      }),
      { numRuns: 300, seed: 19 },
    );
  });

  it('index each line to its own match, and mark skipped lines unknown', () => {
    const t = signalTable();
    const lines = ['Error: Session not found', null, 'all good', 'HTTP 404 Session not found', 'all good'];
    const s = signalsOfLines(lines);
    expect(s.at[1]).toBe(0xffff);
    for (const i of [0, 2, 3, 4]) expect(s.sets[s.at[i]!]).toEqual(t.match(lines[i]!));
    expect(s.at[2]).toBe(s.at[4]);
  });
});
