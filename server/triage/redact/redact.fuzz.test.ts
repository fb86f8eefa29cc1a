// Property tests of the line redactor: synthetic secrets of several kinds planted into random
// and real (samples/) contexts never come out, no exception escapes (a failure is the
// fail-closed placeholder, never the raw line), and each line finishes in bounded time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TEST_KEY } from '../../testing/helpers.ts';
import { createLineRedactor, SecretLedger, SessionIdBook } from './index.ts';
import { alnum, b64url, sampleSeedLines, upperNum } from './fuzz-support.ts';

const SEEDS = sampleSeedLines(25);

/** A secret and a way to write it into a line: the value must not survive redaction. */
const planted: fc.Arbitrary<{ kind: string; value: string; text: string }> = fc.oneof(
  alnum(24, 40).map((v) => ({ kind: 'bearer header', value: v, text: `Authorization: Bearer ${v}` })),
  alnum(24, 40).map((v) => ({ kind: 'bearer json', value: v, text: `{"headers": {"authorization": "Bearer ${v}"}}` })),
  alnum(36, 36).map((v) => ({ kind: 'github', value: `ghp_${v}`, text: `token ghp_${v}` })),
  alnum(40, 48).map((v) => ({ kind: 'openai', value: `sk-proj-${v}`, text: `OPENAI_API_KEY=sk-proj-${v}` })),
  upperNum(16).map((v) => ({ kind: 'aws', value: `AKIA${v}`, text: `aws_access_key_id = AKIA${v}` })),
  fc.tuple(b64url(20, 40), b64url(20, 60), b64url(30, 43)).map(([a, b, c]) => {
    const v = `eyJhbGciOiJIUzI1NiJ9.eyJ${a}.${c}${b}`.slice(0, 200);
    return { kind: 'jwt', value: v, text: `jwt=${v}` };
  }),
  alnum(16, 32).map((v) => ({ kind: 'query', value: v, text: `GET /mcp?access_token=${v}&x=1 HTTP/1.1` })),
  alnum(16, 32).map((v) => ({ kind: 'password kv', value: v, text: `password=${v}` })),
  alnum(16, 32).map((v) => ({ kind: 'api key header', value: v, text: `X-API-Key: ${v}` })),
  alnum(16, 32).map((v) => ({ kind: 'url userinfo', value: v, text: `https://admin:${v}@db.internal.example/x` })),
);

/** Surrounding text: a real log line, random text, or nothing; kept apart from the secret by a space. */
const context = fc.oneof(
  fc.constantFrom(...SEEDS),
  fc.string({ maxLength: 60 }).map((s) => s.replace(/[\r\n]/g, ' ')),
  fc.constant(''),
);

describe('redactor fuzz', () => {
  it('a planted secret never comes out, whatever surrounds it', () => {
    fc.assert(
      fc.property(context, planted, context, (before, secret, after) => {
        const r = createLineRedactor({ key: TEST_KEY, ids: new SessionIdBook(), ledger: new SecretLedger() });
        const t = performance.now();
        const out = r.line(`${before} ${secret.text} ${after}`).text;
        expect(out.includes(secret.value), `${secret.kind} leaked in: ${out}`).toBe(false);
        expect(performance.now() - t).toBeLessThan(5_000);
      }),
      { numRuns: 300, seed: 1121 },
    );
  });

  it('a secret seen once is removed where it reappears bare, later in the file', () => {
    fc.assert(
      fc.property(planted, context, (secret, ctx) => {
        // URL userinfo is recorded as `user:password` whole, so a bare password that reappears is
        // not swept: a known gap, kept as a failing test in server/hardening/redactor-gaps.test.ts.
        fc.pre(secret.kind !== 'url userinfo');
        const r = createLineRedactor({ key: TEST_KEY, ids: new SessionIdBook(), ledger: new SecretLedger() });
        r.line(secret.text);
        const out = r.line(`${ctx} retrying with ${secret.value} now`).text;
        expect(out.includes(secret.value), `${secret.kind} reappeared in: ${out}`).toBe(false);
      }),
      { numRuns: 150, seed: 1122 },
    );
  });

  it('random and mutated lines never throw and never grow without bound', () => {
    const mutated = fc
      .tuple(fc.constantFrom(...SEEDS), fc.nat(), fc.string({ unit: 'binary', maxLength: 50 }))
      .map(([s, i, ins]) => s.slice(0, i % (s.length + 1)) + ins + s.slice(i % (s.length + 1)));
    const bait = fc.constantFrom(
      'Bearer '.repeat(3000),
      '%25'.repeat(20000),
      'a'.repeat(200_000),
      '{"a":'.repeat(5000),
      'eyJ'.repeat(10000) + '.',
      '='.repeat(100_000) + 'x',
      'ghp_'.repeat(10000),
      'QUJD'.repeat(30000),
    );
    fc.assert(
      fc.property(fc.oneof(mutated, fc.string({ unit: 'binary', maxLength: 400 }), bait), (line) => {
        const r = createLineRedactor({ key: TEST_KEY, ids: new SessionIdBook(), ledger: new SecretLedger() });
        const t = performance.now();
        const out = r.line(line.replace(/[\r\n]/g, ' '));
        expect(typeof out.text).toBe('string');
        expect(out.text.length).toBeLessThanOrEqual(Math.max(200, line.length * 4));
        expect(performance.now() - t).toBeLessThan(5_000);
      }),
      { numRuns: 200, seed: 1123 },
    );
  });
});
