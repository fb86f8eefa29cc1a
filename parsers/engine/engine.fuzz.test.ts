// Property tests of the format engine over random and mutated real lines (seeds: samples/*/
// logs). Fixed seeds, modest run counts. Properties: no exception escapes applyFormat,
// readLines or parseFile; readLines is independent of how the bytes are chunked; every
// non-blank physical line ends up in an event (or is counted as skipped by a layout); every
// input finishes in bounded time.
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyFormat } from './apply.ts';
import { readLines, type RawLine } from './lines.ts';
import { newStats, parseFile } from './parse-file.ts';
import { loadFormats } from './registry.ts';

const REPO = join(import.meta.dirname, '..', '..');
const formats = loadFormats({});

function seedLines(): string[] {
  const out: string[] = [];
  const root = join(REPO, 'samples');
  for (const dir of readdirSync(root, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const f of readdirSync(join(root, dir.name))) {
      if (!/\.(log|jsonl?)$/.test(f)) continue;
      const lines = readFileSync(join(root, dir.name, f), 'utf8')
        .split('\n')
        .filter((l) => l.trim());
      out.push(...lines.slice(0, 40));
    }
  }
  return out;
}
const SEEDS = seedLines();

/** A seed line, a seed with a random edit, or random text with controls and odd characters. */
const lineArb: fc.Arbitrary<string> = fc
  .oneof(
    { weight: 3, arbitrary: fc.constantFrom(...SEEDS) },
    {
      weight: 5,
      arbitrary: fc
        .tuple(fc.constantFrom(...SEEDS), fc.nat(), fc.nat(), fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('insert', 'replace', 'cut', 'repeat'))
        .map(([s, a, b, ins, op]) => {
          const i = a % (s.length + 1);
          const j = Math.min(s.length, i + (b % 30));
          if (op === 'insert') return s.slice(0, i) + ins + s.slice(i);
          if (op === 'replace') return s.slice(0, i) + ins + s.slice(j);
          if (op === 'cut') return s.slice(0, i);
          return s.slice(0, i) + s.slice(i, j).repeat(1 + (b % 200)) + s.slice(j);
        }),
    },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('{', '{"a":', '[[[[', '"'.repeat(300), '\\'.repeat(300), '{"level":"error","msg":' + '['.repeat(500), ' '.repeat(5000) + 'x', 'a='.repeat(2000)),
    },
  )
  .map((s) => s.replace(/[\r\n]/g, ' '));

const PER_INPUT_MS = 5_000;
async function* from(chunks: Buffer[]): AsyncGenerator<Buffer> {
  for (const c of chunks) yield c;
}

describe('format engine fuzz', () => {
  it('applyFormat never throws, for every format, in bounded time', () => {
    fc.assert(
      fc.property(lineArb, (line) => {
        const t = performance.now();
        for (const f of formats) applyFormat(f, line);
        expect(performance.now() - t).toBeLessThan(PER_INPUT_MS);
      }),
      { numRuns: 300, seed: 1101 },
    );
  });

  it('readLines gives the same lines however the bytes are chunked', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(lineArb, { maxLength: 30 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.array(fc.nat({ max: 64 }), { minLength: 1, maxLength: 20 }),
        async (lines, eol, cuts) => {
          const bytes = Buffer.from(lines.join(eol) + (lines.length ? eol : ''));
          const whole: RawLine[] = [];
          for await (const l of readLines(from([bytes]))) whole.push(l);
          const chunks: Buffer[] = [];
          let at = 0;
          for (let k = 0; at < bytes.length; k++) {
            const n = 1 + cuts[k % cuts.length]!;
            chunks.push(bytes.subarray(at, at + n));
            at += n;
          }
          const chunked: RawLine[] = [];
          for await (const l of readLines(from(chunks))) chunked.push(l);
          expect(chunked).toEqual(whole);
          expect(whole.length).toBe(lines.length);
        },
      ),
      { numRuns: 200, seed: 1102 },
    );
  });

  it('readLines reads ASCII pieces as Latin-1 and the rest with a decoder, with the same lines as one decode', async () => {
    // ASCII first (the fast path), then a byte-order mark in the middle (text there, not a mark), a
    // character cut between two pieces and invalid bytes; at every cut, with and without a leading mark
    const body = Buffer.concat([Buffer.from('ascii line one\nascii two\n'), Buffer.from('\uFEFFmid-bom é café – ✓\n'), Buffer.from([0x61, 0xff, 0xc3, 0x0a]), Buffer.from('tail')]);
    for (const bytes of [body, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body])])
      for (const continued of [false, true]) {
        const whole: RawLine[] = [];
        for await (const l of readLines(from([bytes]), undefined, continued)) whole.push(l);
        expect(whole.map((l) => l.text).join('|')).toContain('mid-bom');
        for (let a = 1; a < bytes.length; a++)
          for (const b of [a + 1, a + 3, bytes.length]) {
            const chunked: RawLine[] = [];
            for await (const l of readLines(from([bytes.subarray(0, a), bytes.subarray(a, b), bytes.subarray(b)]), undefined, continued)) chunked.push(l);
            expect(chunked, `cut at ${a}, ${b}`).toEqual(whole);
          }
      }
  });

  it('parseFile never throws and every non-blank physical line is in an event (or counted as skipped)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(lineArb, { minLength: 1, maxLength: 60 }), async (lines) => {
        const t = performance.now();
        const stats = newStats('fuzz.log');
        const covered = new Set<number>();
        let events = 0;
        for await (const e of parseFile(readLines(from([Buffer.from(lines.join('\n') + '\n')])), { file: 'fuzz.log', formats, redact: (s) => s }, stats)) {
          events++;
          expect(e.line).toBeGreaterThanOrEqual(1);
          expect(e.endLine).toBeGreaterThanOrEqual(e.line);
          for (let n = e.line; n <= e.endLine; n++) covered.add(n);
        }
        expect(stats.lines).toBe(lines.length);
        expect(stats.events).toBe(events);
        const lost = lines.map((l, i) => (l.trim() && !covered.has(i + 1) ? i + 1 : 0)).filter(Boolean);
        expect(lost.length, `uncovered non-blank lines ${lost.slice(0, 5).join(',')}`).toBeLessThanOrEqual(stats.skippedLines);
        expect(performance.now() - t).toBeLessThan(PER_INPUT_MS);
      }),
      { numRuns: 150, seed: 1103 },
    );
  });
});
