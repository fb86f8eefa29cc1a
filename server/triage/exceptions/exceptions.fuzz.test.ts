// Property tests of the traceback parser: random and mutated real tracebacks (seeds: this
// folder's fixtures and the samples' logs). No exception escapes parseExceptionText or
// chooseRoot, the tree respects its own caps, and each input finishes in bounded time.
import fc from 'fast-check';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseRoot, inferStage, MAX_NODES, parseExceptionText } from './index.ts';

const HERE = import.meta.dirname;
const FIXTURES = join(HERE, 'fixtures');

function seeds(): string[] {
  const out: string[] = [];
  for (const d of readdirSync(FIXTURES, { withFileTypes: true })) {
    if (!d.isDirectory() || d.name.startsWith('_')) continue;
    const f = join(FIXTURES, d.name, 'input.txt');
    if (existsSync(f)) out.push(readFileSync(f, 'utf8'));
  }
  return out;
}
const SEEDS = seeds();

/** Line-level mutations keep the traceback shape mostly intact, so the parsers go deep. */
const textArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...SEEDS) },
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...SEEDS),
        fc.array(fc.tuple(fc.constantFrom('drop', 'dup', 'swap', 'edit', 'indent', 'insert'), fc.nat(), fc.string({ unit: 'binary', maxLength: 30 })), { maxLength: 8 }),
      )
      .map(([s, ops]) => {
        const lines = s.split('\n');
        for (const [op, n, str] of ops) {
          const i = lines.length ? n % lines.length : 0;
          if (op === 'drop') lines.splice(i, 1);
          else if (op === 'dup') lines.splice(i, 0, ...lines.slice(i, i + 1 + (n % 5)));
          else if (op === 'swap' && lines.length > 1) [lines[i], lines[(i + 1) % lines.length]] = [lines[(i + 1) % lines.length]!, lines[i]!];
          else if (op === 'edit' && lines[i] !== undefined) lines[i] = lines[i]!.slice(0, n % (lines[i]!.length + 1)) + str;
          else if (op === 'indent' && lines[i] !== undefined) lines[i] = ' '.repeat(n % 40) + lines[i];
          else lines.splice(i, 0, str);
        }
        return lines.join('\n');
      }),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 500 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'Traceback (most recent call last):\n' + '  File "x.py", line 1, in f\n    g()\n'.repeat(3000) + 'ValueError: deep',
      '  + Exception Group Traceback (most recent call last):\n'.repeat(500) + '  | ExceptionGroup: x (1 sub-exception)\n'.repeat(500),
      'During handling of the above exception, another exception occurred:\n\n'.repeat(1000),
      'Error: x\n' + '    at f (file.js:1:1)\n'.repeat(5000) + '  [cause]: '.repeat(300),
      'Caused by: java.lang.RuntimeException: x\n'.repeat(2000),
      'panic: ' + 'x'.repeat(100_000),
      '\\n'.repeat(20_000) + 'Traceback',
    ),
  },
);

describe('traceback parser fuzz', () => {
  it('parseExceptionText and chooseRoot never throw, stay within their caps, in bounded time', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const t = performance.now();
        const tree = parseExceptionText(text);
        if (tree) {
          const root = chooseRoot(tree);
          inferStage(tree, root.root ?? null);
          expect(tree.nodes.length).toBeLessThanOrEqual(MAX_NODES);
        }
        expect(performance.now() - t).toBeLessThan(5_000);
      }),
      { numRuns: 300, seed: 1111 },
    );
  });
});
