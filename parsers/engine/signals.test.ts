// The signal table proves itself: every signal's samples fire it and pass its gate, its
// near-misses do not fire it, ids are unique, patterns stay portable (RE2) and fast on hostile
// input. A broken table is refused with the file, the signal and the line.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SignalCause } from '../contract/signal.ts';
import { checkSignal, compileGroup, loadSignalTable, scanText, SignalError, SignalTable, signalTable } from './signals.ts';

const table = signalTable();
const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

describe('signal table', () => {
  it('loads: every signal proves itself with its samples and near-misses', () => {
    expect(table.signals.length).toBeGreaterThanOrEqual(50);
    for (const s of table.signals) expect(checkSignal(s), s.spec.id).toEqual([]);
  });

  it('covers the kinds the triage needs (every cause has at least one signal)', () => {
    const causes = new Set(table.signals.map((s) => s.spec.meaning.cause));
    for (const c of SignalCause.options) expect(causes.has(c), `no signal has cause ${c}`).toBe(true);
  });

  it('each sample fires its own signal through the table (gate included)', () => {
    for (const s of table.signals) for (const line of s.spec.samples) expect(table.match(line), `${s.spec.id}: ${line}`).toContain(s.spec.id);
  });

  // the definition the one-pass gate must equal: a signal runs its patterns when the lower-cased text
  // holds any of its literals
  const reference = (text: string): string[] => {
    const t = scanText(text);
    const lower = t.toLowerCase();
    return table.signals.filter((s) => s.literals.some((l) => lower.includes(l)) && s.patterns.some((p) => p.test(t))).map((s) => s.spec.id);
  };

  it('the one-pass gate fires exactly what every signal checked one by one fires (samples, near-misses, every fixture line)', () => {
    const lines = table.signals.flatMap((s) => [...s.spec.samples, ...s.spec.nearMisses]);
    for (const dir of readdirSync(FIXTURES)) {
      const d = join(FIXTURES, dir);
      if (!statSync(d).isDirectory()) continue;
      for (const c of readdirSync(d)) {
        const input = join(d, c, 'input.log');
        if (existsSync(input)) lines.push(...readFileSync(input, 'utf8').split('\n'));
      }
    }
    // and the recorded incidents' logs (real SDK, nginx, HAProxy and Caddy lines)
    const recorded = join(import.meta.dirname, '..', '..', 'samples', 'recorded');
    for (const dir of existsSync(recorded) ? readdirSync(recorded) : []) {
      const d = join(recorded, dir);
      if (!statSync(d).isDirectory()) continue;
      for (const f of readdirSync(d)) if (f.endsWith('.log')) lines.push(...readFileSync(join(d, f), 'utf8').split('\n'));
    }
    expect(lines.length).toBeGreaterThan(5000);
    for (const line of lines) expect(table.match(line), line.slice(0, 200)).toEqual(reference(line));
    // overlapping and nested literals in any case (the ASCII automaton folds A-Z itself), and
    // letters whose case folding is not ASCII (those lines take the regex gate)
    const mixed = (l: string) => l.replace(/[a-z]/g, (c, i: number) => (i % 2 ? c.toUpperCase() : c));
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom(
            ...table.signals.flatMap((s) => [...s.literals, ...s.literals.map((l) => l.toUpperCase()), ...s.literals.map(mixed), ...s.spec.samples.map((x) => x.slice(0, 40))]),
            ' ',
            'İ',
            'ſ',
            'K',
            'x',
            '[',
            '{',
          ),
          { maxLength: 12 },
        ),
        (parts) => {
          const line = parts.join('');
          expect(table.match(line)).toEqual(reference(line));
        },
      ),
      { numRuns: 2000, seed: 19 },
    );
  });

  it('reads JSON-escaped bodies the same as plain ones', () => {
    const plain = 'Error POSTing to endpoint: {"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}';
    const escaped = JSON.stringify({ msg: plain });
    expect(table.match(escaped)).toEqual(table.match(plain));
    expect(scanText('a\\"b\\nc\\u003ctitle\\u003e')).toBe('a"b c<title>');
  });

  it('adds http-NNN for a non-2xx status and nothing for 2xx', () => {
    expect(table.forEvent({ text: 'POST /mcp', message: 'POST /mcp', httpStatus: 404 })).toEqual(['http-404']);
    expect(table.forEvent({ text: 'POST /mcp', message: 'POST /mcp', httpStatus: 200 })).toEqual([]);
    expect(table.meaning('http-502')).toMatchObject({ cause: 'http-status', outcome: 'failure' });
    expect(table.meaning('no-such-signal')).toBeNull();
  });

  it('refuses a signal whose sample does not fire, whose near-miss fires, or whose gate would skip a sample', () => {
    const base = {
      id: 'x-sig',
      title: 'test',
      meaning: { cause: 'conn-refused', outcome: 'failure' },
      patterns: ['refused'],
      literals: ['refused'],
      source: 'a test case',
      samples: ['connection refused'],
      nearMisses: ['accepted'],
    };
    const one = (over: object) => compileGroup({ group: 'test', title: 't', signals: [{ ...base, ...over }] }, 'test.json')[0]!;
    expect(checkSignal(one({}))).toEqual([]);
    expect(checkSignal(one({ samples: ['connection accepted'] })).join()).toMatch(/holds none of the literals/);
    expect(checkSignal(one({ samples: ['REFUSAL refused'], literals: ['refusal'], patterns: ['nope'] })).join()).toMatch(/matches no pattern/);
    expect(checkSignal(one({ nearMisses: ['was refused'] })).join()).toMatch(/near-miss/);
    expect(() => one({ patterns: ['(?<=a)b'] })).toThrow(SignalError);
    expect(() => one({ patterns: ['(a'] })).toThrow(/not a valid regex/);
    expect(() => compileGroup({ group: 'test', title: 't', signals: [{ ...base, meaning: { cause: 'nope', outcome: 'failure' } }] }, 'bad.json')).toThrow(/meaning\.cause/);
  });

  it('refuses a duplicate id across files', () => {
    expect(() => loadSignalTable()).not.toThrow();
    const t = new SignalTable(table.signals);
    expect(t.signals.length).toBe(table.signals.length);
  });

  it('stays fast on hostile input (no catastrophic backtracking)', () => {
    const hostile = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 400 }),
      fc.constantFrom(...table.signals.flatMap((s) => s.spec.samples)).chain((s) => fc.nat(40).map((n) => (s + ' ').repeat(1 + n))),
      fc.constantFrom(
        'a'.repeat(20_000),
        ' '.repeat(20_000) + 'x',
        'session '.repeat(3000),
        'Session '.repeat(2000) + 'x',
        '"code": -'.repeat(3000),
        'upstream '.repeat(3000),
        '<html'.repeat(4000),
      ),
    );
    fc.assert(
      fc.property(hostile, (line) => {
        const t = performance.now();
        table.match(line);
        // a ReDoS guard, not a speed test: catastrophic backtracking takes seconds or hours, so the bound
        // is loose enough that a busy machine never trips it
        expect(performance.now() - t).toBeLessThan(2000);
      }),
      { numRuns: 300, seed: 17 },
    );
  });
});
