import { describe, expect, it } from 'vitest';
import { KEYS, PAIR_EXAMPLES, PAIR_NEAR_MISSES, pairFields } from './pairs.ts';
import { parseLogfmt } from './apply.ts';

describe('pairs: key=value and indented key: value context in free text', () => {
  for (const ex of PAIR_EXAMPLES) it(`reads ${ex.text.slice(0, 70)}`, () => expect(pairFields(ex.text, ex.block ?? false)).toEqual(ex.expect));
  for (const nm of PAIR_NEAR_MISSES) it(`reads nothing from ${nm.text.slice(0, 70)}`, () => expect(pairFields(nm.text, nm.block ?? false)).toEqual({}));
  it('every key in the table is already normalised', () => {
    for (const k of Object.keys(KEYS)) expect(k).toBe(k.toLowerCase().replace(/[_.-]/g, ''));
  });
  // bounded repeats only: hostile input finishes (inside the test timeout) and reads nothing
  it('reads nothing from hostile input', () => {
    expect(pairFields(`${'a='.repeat(50_000)}"${'\\'.repeat(10_000)}`, true)).toEqual({});
    expect(pairFields(`  k: "${'\\"'.repeat(20_000)}`, true)).toEqual({});
  });
});

describe('logfmt lines', () => {
  it('reads bare, quoted and escaped values', () =>
    expect(parseLogfmt('time=2026-11-29T09:04:05Z level=warn msg="say \\"hi\\"" n=3')).toEqual({ time: '2026-11-29T09:04:05Z', level: 'warn', msg: 'say "hi"', n: '3' }));
  it.each(['Connecting to http://x/mcp?a=1&b=2 now', 'level=error something happened here', 'a=1 b=2', 'msg="unterminated level=info ts=1', 'key=va"lue x=1 y=2'])(
    'is not logfmt: %s',
    (line) => expect(parseLogfmt(line)).toBeNull(),
  );
});
