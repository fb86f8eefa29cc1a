// The tally table proves itself: each shape reads its examples' counts, the lines that hold numbers
// but count no outcome read none, and hostile input stays fast.
import { describe, expect, it } from 'vitest';
import { NOT_TALLIES, readTally, readTallyRows, SHAPES } from './tally.ts';

describe('outcome tallies', () => {
  for (const s of SHAPES)
    for (const [line, want] of s.examples)
      it(`${JSON.stringify(line)} (${s.why})`, () => {
        expect(s.re.test(line), 'its own shape matches').toBe(true);
        expect(readTally(line)).toEqual(want);
      });
  for (const line of NOT_TALLIES) it(`no tally: ${JSON.stringify(line)}`, () => expect(readTally(line)).toBeNull());
  it('a count larger than its total is no tally', () => expect(readTally('7/5 ok')).toBeNull());
  it('stays fast on hostile input', () => {
    const lines = ['1/'.repeat(900), '1 ok / '.repeat(250), '200: 1 '.repeat(250), `${'9 of '.repeat(300)}x`];
    const t0 = performance.now();
    for (const l of lines) for (let k = 0; k < 10; k++) readTally(l);
    expect(performance.now() - t0).toBeLessThan(500);
  });
});

describe('tallies of a folded record', () => {
  it('the row that counts passes and failures', () =>
    expect(readTallyRows('endpoint check\n  docs  6/6 OK\n  atlas  4/6 OK  reset twice\n  wiki  0/6 OK')).toEqual({ ok: 4, failed: 2 }));
  it('else the row that counts failures', () => expect(readTallyRows('endpoint check\n  docs  6/6 OK\n  wiki  0/6 OK')).toEqual({ ok: 0, failed: 6 }));
  it('else the first tally', () => expect(readTallyRows('endpoint check\n  docs  6/6 OK\n  wiki  5/5 OK')).toEqual({ ok: 6, failed: 0 }));
});
