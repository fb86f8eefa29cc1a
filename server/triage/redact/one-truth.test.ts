// One redactor, one verifier, one truth (issue #18 part 1): for any input x — fuzzed lines with
// planted secrets of every kind, and the planted-secrets corpus — verify(redact(x)) passes, and
// verify(report(x)) passes whether the report's evidence was redacted at ingest or not (the exit
// pass cleans it either way); the report is never refused for text our own redactor wrote.
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyEvent, type Event } from '../../../parsers/contract/event.ts';
import type { Analysis } from '../../contract/analysis.ts';
import { TEST_KEY } from '../../testing/helpers.ts';
import { buildReport } from '../report/report.ts';
import { redactText, SecretLedger, SessionIdBook, verifyRedacted } from './index.ts';
import { FORMAT_RULES } from './rules/formats.ts';
import { alnum, sampleSeedLines } from './fuzz-support.ts';

const REPO = join(import.meta.dirname, '..', '..', '..');
const CORPUS = join(import.meta.dirname, 'corpus', 'logs');

const SEEDS = sampleSeedLines(20);
/** One true positive of every pattern rule: the shapes the redactor knows. */
const TPS = FORMAT_RULES.flatMap((r) => r.tps);

const hex = (n: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: n, maxLength: n });

/** Lines with something to redact, in the shapes of issue #18. */
const planted = fc.oneof(
  fc.constantFrom(...TPS),
  alnum(24, 40).map((v) => `Authorization: Bearer ${v}`),
  alnum(8, 20).map((v) => `password=${v} user=alice`),
  alnum(8, 20).map((v) => `requests.get(u, auth=('bob', '${v}'))`),
  fc.tuple(alnum(3, 12), alnum(3, 12)).map(([a, b]) => `tools/call create_order start sku=${a} customer=${b} amount=12.5`),
  fc.tuple(alnum(3, 12), alnum(3, 12)).map(([a, b]) => `calling tool args={customer: '${a} ${b}', street: '1 ${b} Street'}`),
  fc.tuple(alnum(3, 12), alnum(3, 12)).map(([a, b]) => `tool call arguments: {'name': '${a}', 'city': '${b}'}`),
  alnum(3, 12).map((v) => `connecting to ${v.toLowerCase()}.corp.internal and ${v.toLowerCase()}.svc.cluster.local`),
  fc.integer({ min: 2000000, max: 9999999 }).map((n) => `call +1 415 ${String(n).slice(0, 3)} ${String(n).slice(3)} or phone: 020 7946 ${String(n).slice(0, 4)}`),
  fc
    .tuple(hex(8), hex(24))
    .map(
      ([a, b]) =>
        `Received session ID: ${a}-${b.slice(0, 4)}-4${b.slice(4, 7)}-8${b.slice(7, 10)}-${b.slice(10, 22)}\nsession ${a}… expired\nsession ${a}****${b.slice(18, 22)} gone`,
    ),
  hex(32).map((v) => `x-request-id=${v} card 4111 1111 1111 1111 trace 00-${v}-00f067aa0ba902b7-01`),
  fc.constant('-----BEGIN PRIVATE KEY-----\n2026-03-14 DEBUG MIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----'),
  alnum(20, 40).map((v) => `Authorization: Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJmYWtlIn0\n${v}\n2026-03-14T09:26:10Z INFO after`),
);
const context = fc.oneof(
  fc.constantFrom(...SEEDS),
  fc.string({ maxLength: 60 }).map((s) => s.replace(/[\r\n]/g, ' ')),
  fc.constant(''),
);
const input = fc
  .array(
    fc.tuple(context, planted, context).map(([a, p, b]) => `${a} ${p} ${b}`),
    { minLength: 1, maxLength: 4 },
  )
  .map((ls) => ls.join('\n'));

const ANALYSIS = (refs: Array<{ file: string; line: number }>, rationale: string, message: string): Analysis => ({
  schemaVersion: 1,
  inputs: [{ file: 'x.log', source: 'client', format: 'x', lines: refs.length, events: refs.length, unparsed: 0 }],
  protocolVersions: [],
  failures: [
    {
      rpcId: 1,
      method: 'tools/call',
      tool: 'create_order',
      session: null,
      httpStatus: 500,
      stage: 'unknown',
      rootException: { type: 'Error', message },
      exceptionChain: ['Error'],
      decision: 'escalate',
      rule: 'unexplained',
      rationale,
      evidence: refs.slice(0, 12),
      ts: 0,
      role: 'primary',
    },
  ],
  sessions: [],
  spans: [],
  decision: 'escalate',
});

/** The report of some log lines, each an evidence line (in windows of the timeline's size). */
function reportOf(lines: string[], opts: { ids?: SessionIdBook; ledger?: SecretLedger; rawValues?: string[] } = {}): string[] {
  const out: string[] = [];
  for (let at = 0; at < lines.length; at += 12) {
    const part = lines.slice(at, at + 12);
    const events: Event[] = part.map((text, i) => {
      const e = emptyEvent({ file: 'x.log', line: at + i + 1, source: 'client', format: 'x', kind: 'line', text });
      e.ts = i;
      e.message = text;
      return e;
    });
    const refs = events.map((e) => ({ file: e.file, line: e.line }));
    const r = buildReport({
      title: 'x',
      analysis: ANALYSIS(refs, part[0] ?? '', part[part.length - 1] ?? ''),
      evidence: events,
      context: events,
      redactions: {},
      key: TEST_KEY,
      ...opts,
    });
    out.push(r.markdown);
  }
  return out;
}

describe('one redactor, one verifier', () => {
  it('verify(redact(x)) passes, and so does verify(report(x)) built from raw or redacted lines', () => {
    fc.assert(
      fc.property(input, (x) => {
        const ids = new SessionIdBook();
        const ledger = new SecretLedger();
        const red = redactText(x, { key: TEST_KEY, ids, ledger }).text;
        const v = verifyRedacted(red, { rawValues: [] });
        expect(v.hits, `redact output flagged:\n${red}`).toEqual([]);
        // From what ingest stored (redacted), and from raw lines that slipped past it: never refused.
        expect(() => reportOf(red.split('\n'))).not.toThrow();
        expect(() => reportOf(x.split('\n'))).not.toThrow();
      }),
      { numRuns: 250, seed: 1811 },
    );
  });

  it('the planted-secrets corpus: verify(redact(file)) and verify(report(file)) pass', () => {
    const names = readdirSync(CORPUS).sort();
    const ids = new SessionIdBook();
    for (const n of names) redactText(readFileSync(join(CORPUS, n), 'utf8'), { key: TEST_KEY, ids }); // pass 1 over every file
    for (const n of names) {
      const raw = readFileSync(join(CORPUS, n), 'utf8').replace(/\r/g, '');
      const ledger = new SecretLedger();
      const red = redactText(raw, { key: TEST_KEY, ids, ledger }).text;
      expect(verifyRedacted(red, { rawValues: [] }).hits, n).toEqual([]);
      expect(() => reportOf(red.split('\n'), { ids, ledger, rawValues: [...ledger.rawValues()] }), n).not.toThrow();
      expect(() => reportOf(raw.split('\n')), n).not.toThrow();
    }
  });
});
