// LiteralSweeper skips positions (Wu–Manber): it must find exactly what testing every position finds.
import { describe, expect, it } from 'vitest';
import { boundaryOk, LiteralSweeper } from './sweeper.ts';

/** The sweep as a plain scan: at each position the longest value that starts there (boundaries kept), then on after it. */
function reference(values: Map<string, { replacement: string; rule: string }>, text: string) {
  const lengths = [...new Set([...values.keys()].map((v) => v.length))].sort((a, b) => b - a);
  const out: { start: number; end: number; text: string; rule: string }[] = [];
  for (let i = 0; i + 6 <= text.length; ) {
    const len = lengths.find((l) => i + l <= text.length && values.has(text.slice(i, i + l)) && boundaryOk(text, i, i + l, l));
    if (len === undefined) {
      i++;
      continue;
    }
    const v = values.get(text.slice(i, i + len))!;
    out.push({ start: i, end: i + len, text: v.replacement, rule: v.rule });
    i += len;
  }
  return out;
}

function rng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

describe('LiteralSweeper', () => {
  it('finds what a scan of every position finds, whatever the lengths and however values arrive between sweeps', () => {
    const r = rng(19);
    const alphabet = 'ab01-_xY. ';
    const word = (n: number) => Array.from({ length: n }, () => alphabet[Math.floor(r() * alphabet.length)]).join('');
    for (let round = 0; round < 300; round++) {
      const sw = new LiteralSweeper();
      const values = new Map<string, { replacement: string; rule: string }>();
      for (let step = 0; step < 6; step++) {
        // values of 6 to 40 characters, some sharing prefixes or nested in one another
        for (let k = Math.floor(r() * 4); k > 0; k--) {
          const base = [...values.keys()][Math.floor(r() * values.size)];
          const v = base && r() < 0.4 ? (r() < 0.5 ? base.slice(0, Math.max(6, base.length - 3)) : base + word(3)) : word(6 + Math.floor(r() * 35));
          if (v.length < 6 || values.has(v)) continue;
          const e = { replacement: `<${values.size}>`, rule: `r${values.size}` };
          values.set(v, e);
          sw.add(v, e.replacement, e.rule);
        }
        const vs = [...values.keys()];
        let text = '';
        while (text.length < 300) text += r() < 0.3 && vs.length ? vs[Math.floor(r() * vs.length)]! : word(1 + Math.floor(r() * 8));
        expect(sw.edits(text)).toEqual(reference(values, text));
      }
    }
  });
});
