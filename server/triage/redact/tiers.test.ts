// The ingest tier's gates are proven, not trusted (redaction.md "Tiers"; tiers.ts): a string the
// gates turn away must be one no ingest rule could change. Held four ways:
//   1. every rule has a tier, and every ingest rule is admitted by a named gate alternative;
//   2. every rule's own examples (tps and fps, both tiers) and the gate admits each ingest tp;
//   3. the planted corpora (corpus/, corpus2/) and the samples: line by line, gated == ungated,
//      and the gate admits every line on which an ingest rule fired;
//   4. fuzzed lines (rule examples, near-misses, keywords split by separators, escapes, random
//      text, mutations of real lines): gated == ungated, text and remarks.
import fc from 'fast-check';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_KEY } from '../../testing/helpers.ts';
import { Editor } from './editor.ts';
import { ALL_PATTERN_RULES, defaultState, INGEST_RULES, runPatternRules } from './engine.ts';
import { collectSessionIds, createLineRedactor, SecretLedger, SessionIdBook, type RedactResult } from './index.ts';
import { sampleSeedLines } from './fuzz-support.ts';
import { credentialGate, entropyGate, ingestGate, KEY_WORD_RULES, KEY_WORDS, RAW_ALTERNATIVES } from './tiers.ts';
import { FORMAT_RULES } from './rules/formats.ts';
import { CONTEXT_RULES } from './rules/context.ts';
import { PII_RULES } from './rules/pii.ts';

const REPO = join(import.meta.dirname, '..', '..', '..');

/** What the engine changes for reasons other than the ingest rules (in every tier, ungated). */
const SWEEPS = new Set(['@mcp-session', '@mcp-session-masked', '@line-truncated', '@line-failed']);

/** Run lines through the ingest tier, gated and ungated, each with its own book (pass 1) and ledger. */
function both(lines: string[]): { gated: RedactResult[]; ungated: RedactResult[] } {
  const run = (ungated: boolean) => {
    const ids = new SessionIdBook();
    for (const l of lines) collectSessionIds(l, ids);
    const r = createLineRedactor({ key: TEST_KEY, ids, ledger: new SecretLedger(), tier: 'ingest', ungated });
    return lines.map((l) => r.line(l));
  };
  return { gated: run(false), ungated: run(true) };
}

/** Line numbers where gated and ungated differ (text or remarks), with both outputs. */
function differences(lines: string[]): string[] {
  const { gated, ungated } = both(lines);
  const out: string[] = [];
  lines.forEach((l, i) => {
    const g = gated[i]!;
    const u = ungated[i]!;
    if (g.text !== u.text || JSON.stringify(g.remarks) !== JSON.stringify(u.remarks))
      out.push(`${i + 1}: ${JSON.stringify(l.slice(0, 160))}\n  gated   ${JSON.stringify(g.text.slice(0, 160))}\n  ungated ${JSON.stringify(u.text.slice(0, 160))}`);
  });
  return out;
}

/**
 * Lines on which an ingest rule fired (ungated) while the gate turns the raw line away. Each line
 * is read alone (a fresh redactor and ledger, the file's session ids): the ledger sweep and the
 * line state (PEM blocks, wrapped JWTs, pretty-printed HAR pairs) run before any gate, in every tier.
 */
function unadmitted(lines: string[]): { missed: string[]; fired: number } {
  const ids = new SessionIdBook();
  for (const l of lines) collectSessionIds(l, ids);
  const missed: string[] = [];
  let fired = 0;
  lines.forEach((l, i) => {
    const r = createLineRedactor({ key: TEST_KEY, ids, ledger: new SecretLedger(), tier: 'ingest', ungated: true }).line(l);
    const rules = r.remarks.filter((x) => !SWEEPS.has(x.rule)).map((x) => x.rule);
    if (!rules.length) return;
    fired++;
    if (!ingestGate(l)) missed.push(`${i + 1} (${rules.join(', ')}): ${JSON.stringify(l.slice(0, 160))}`);
  });
  return { missed, fired };
}

describe('tiers: every rule has one, and every ingest rule has a gate', () => {
  it('each rule is ingest or exit; the ingest tables hold exactly the ingest rows', () => {
    for (const r of ALL_PATTERN_RULES) expect(['ingest', 'exit'], r.id).toContain(r.tier);
    const ingest = new Set([...INGEST_RULES.format, ...INGEST_RULES.context, ...INGEST_RULES.pii].map((r) => r.id));
    expect([...ingest].sort()).toEqual(
      ALL_PATTERN_RULES.filter((r) => r.tier === 'ingest')
        .map((r) => r.id)
        .sort(),
    );
  });

  it('credentials and the entropy net are ingest; personal and business data are exit', () => {
    expect(FORMAT_RULES.every((r) => r.tier === 'ingest')).toBe(true);
    expect(PII_RULES.filter((r) => r.tier === 'ingest').map((r) => r.id)).toEqual(['@opaque']);
    const exitContext = CONTEXT_RULES.filter((r) => r.tier === 'exit').map((r) => r.id);
    expect(exitContext.sort()).toEqual(
      ['@business-kv', '@cloud-account-id', '@ssn', '@tool-result-repr', '@username', '@username:domain', '@username:flag', '@username:prose', '@username:ssh'].sort(),
    );
  });

  it('each ingest rule is named by a gate alternative (a new rule must say how the gate admits it)', () => {
    const named = new Set<string>([...RAW_ALTERNATIVES.flatMap((a) => a.rules), ...KEY_WORD_RULES, '@opaque']);
    const missing = ALL_PATTERN_RULES.filter((r) => r.tier === 'ingest' && !named.has(r.id)).map((r) => r.id);
    expect(missing).toEqual([]);
    // …and names no rule that does not exist or is not an ingest rule
    const ingest = new Set(ALL_PATTERN_RULES.filter((r) => r.tier === 'ingest').map((r) => r.id));
    expect([...named].filter((id) => !ingest.has(id))).toEqual([]);
  });
});

describe("the gate admits every ingest rule's true positives", () => {
  for (const rule of ALL_PATTERN_RULES.filter((r) => r.tier === 'ingest')) {
    for (const tp of rule.tps) {
      it(`${rule.id}: ${JSON.stringify(tp).slice(0, 70)}`, () => {
        // the rule fires on it alone (as in rules.test.ts), with the ingest tier's state…
        const ed = new Editor(tp);
        runPatternRules(ed, [rule], defaultState(TEST_KEY, new SessionIdBook(), new SecretLedger(), 'ingest'));
        expect(ed.remarks.map((r) => r.rule)).toContain(rule.id);
        // …and the gate lets it through
        expect(ingestGate(tp)).toBe(true);
      });
    }
  }

  it('key names of every secret class, in every spelling, open the credential gate', () => {
    const names = [
      'password',
      'passwd',
      'pwd',
      'pw',
      'pass',
      'passphrase',
      'client_secret',
      'access_token',
      'refresh-token',
      'idToken',
      'credentials',
      'private_key',
      'signature',
      'sig',
      'dsn',
      'database_url',
      'DB_URL',
      'api_key',
      'apiKey',
      'X-Api-Key',
      'x-goog-api-key',
      'Ocp-Apim-Subscription-Key',
      'aws_access_key',
      'signing.key',
      'encryption_key',
      'master key',
      'client-key',
      'session_key',
      'connection_string',
      'Cookie',
      'Set-Cookie',
      'ticket',
      'Authorization',
      'Proxy-Authorization',
      'auth',
      'authz',
      'x-upstream-auth',
      'DPoP',
      'code_verifier',
      'client_assertion',
      'Last-Event-ID',
      'MY_SERVICE_KEY',
      'GITHUB_PAT',
      'Private-Token',
      'X-Auth-Token',
      'X-Amz-Security-Token',
    ];
    const bad: string[] = [];
    for (const n of names)
      for (const line of [`"${n}": "v4lue-x"`, `${n}=v4lue-x`, `${n}: v4lue-x`, `<${n}>v4lue-x</${n}>`, `--${n} v4lue-x`]) if (!credentialGate(line)) bad.push(line);
    expect(bad).toEqual([]);
  });

  it('OAuth code and state only count on OAuth lines, and those lines open the gate', () => {
    for (const l of [
      'GET /oauth/callback?code=abc123&state=xyz HTTP/1.1',
      'grant_type=authorization_code&code=abc123',
      'POST /token code=abc',
      'redirect_uri=http://127.0.0.1/cb&code=x',
      'GET /authorize?state=x',
    ])
      expect(credentialGate(l), l).toBe(true);
  });

  it('the gate turns away ordinary lines', () => {
    for (const l of [
      '2026-11-29T08:00:00.020Z DEBUG [mcp-client] POST http://127.0.0.1:8080/mcp rpc=1 method=tools/list mcp-session-id=97da2849-d73e-4438-a907-d090402c802d -> 200 (15 ms) x-request-id=5700893a34bd83441aabe1f6f210579e',
      '127.0.0.1 - - [29/Nov/2026:08:00:00 +0000] "POST /mcp HTTP/1.1" 200 735 "-" "node"',
      '{"level":30,"time":1795939200042,"pid":7,"hostname":"orders-0","reqId":"5700893a34bd83441aabe1f6f210579e","url":"/mcp","statusCode":200,"msg":"request completed"}',
      'traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    ])
      expect(ingestGate(l), l).toBe(false);
  });

  it('the entropy gate needs a long mixed run, and opens on any escape', () => {
    expect(entropyGate('upstream said Zk3QmL9xR2vT8bN5cW1yH7pJ4sD6fG0a ok')).toBe(true);
    expect(entropyGate('id 7f3a9c1e2b4d4e8f9a0b1c2d3e4f5a6b')).toBe(false);
    expect(entropyGate('short Zk3QmL9xR2vT8bN5')).toBe(false);
    expect(entropyGate('{"a":"\\u0041"}')).toBe(true);
  });

  it('key words are all lower case without separators (the normal form they are matched in)', () => {
    for (const w of KEY_WORDS) expect(w).toMatch(/^[a-z]+$/);
  });
});

const files = (dir: string) =>
  readdirSync(dir)
    .map((n) => join(dir, n))
    .filter((p) => statSync(p).isFile());
const CORPORA: Array<[string, string[]]> = [
  ['corpus', files(join(import.meta.dirname, 'corpus', 'logs'))],
  ['corpus2', files(join(import.meta.dirname, 'corpus2', 'logs'))],
  [
    'samples',
    readdirSync(join(REPO, 'samples'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) => files(join(REPO, 'samples', d.name)).filter((p) => /\.(log|jsonl?|txt)$/.test(p))),
  ],
];

describe('the planted corpora and the samples: gated == ungated, and the gate admits every line an ingest rule changes', () => {
  for (const [name, paths] of CORPORA) {
    it(`${name} (${paths.length} files)`, () => {
      expect(paths.length).toBeGreaterThan(3);
      const diff: string[] = [];
      const missed: string[] = [];
      let fired = 0;
      for (const p of paths) {
        const lines = readFileSync(p, 'utf8').split('\n');
        diff.push(...differences(lines).map((d) => `${p.slice(REPO.length + 1)}:${d}`));
        const u = unadmitted(lines);
        missed.push(...u.missed.map((d) => `${p.slice(REPO.length + 1)}:${d}`));
        fired += u.fired;
      }
      expect(diff).toEqual([]);
      expect(missed).toEqual([]);
      if (name !== 'samples') expect(fired).toBeGreaterThan(50); // the corpora do plant credentials
    });
  }
});

describe('fuzzed lines: gated == ungated', () => {
  const SEEDS = sampleSeedLines(15);
  const EXAMPLES = ALL_PATTERN_RULES.flatMap((r) => [...r.tps, ...r.fps]);
  // Words the gate or the rules look for, split and spelled every way the normal form forgives.
  const WORDS = [
    ...KEY_WORDS,
    ...RAW_ALTERNATIVES.flatMap((a) => a.triggers),
    'Bearer',
    'Basic',
    'token',
    'TOKEN',
    'Authorization',
    'eyJhbGciOiJIUzI1NiJ9',
    'password',
    'api_key',
    'x-api-key',
    '://u:p@h',
    'AKIAQ3EGFAKEKEY7EXMP',
    'ghp_Xq7Lr2Vb9Zk4Tn8Wc3Ym6Pd5Hs1Gf0Ja2Ue4',
    'sess',
    'mcp-session-id',
  ];
  const split = fc
    .tuple(fc.constantFrom(...WORDS), fc.nat(), fc.constantFrom('-', '_', '.', ' ', '\t', '\u00a0', '\\', '%20', '"', ''))
    .map(([w, i, sep]) => w.slice(0, i % (w.length + 1)) + sep + w.slice(i % (w.length + 1)));
  const cased = fc.tuple(fc.constantFrom(...WORDS), fc.boolean()).map(([w, up]) => (up ? w.toUpperCase() : w.replace(/./g, (c, i: number) => (i % 2 ? c.toUpperCase() : c))));
  const op = fc.constantFrom('=', ': ', '=>', ' ', '":"', "='", ':=', '&', '?', '%3D', '\\":\\"');
  const value = fc.oneof(
    fc.string({ unit: fc.constantFrom(...'ABCDEFGHabcdefgh0123456789+/_-='), minLength: 4, maxLength: 48 }),
    fc.constantFrom('Summer2026!', 'hunter2x', 'Zk3QmL9xR2vT8bN5cW1yH7pJ4sD6fG0a', 'null', '[REDACTED:bearer]', 'sess_abcdefghij'),
  );
  const kv = fc.tuple(fc.oneof(split, cased, fc.constantFrom(...WORDS)), op, value).map(([k, o, v]) => `${k}${o}${v}`);
  const piece = fc.oneof(fc.constantFrom(...SEEDS), fc.constantFrom(...EXAMPLES), kv, split, cased, fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 30 }));
  const line = fc.array(piece, { minLength: 1, maxLength: 4 }).map((ps) => ps.join(' ').replace(/[\r\n]/g, ' '));
  const mutated = fc.tuple(line, fc.nat(), fc.string({ maxLength: 8 }), fc.nat({ max: 6 })).map(([s, i, ins, del]) => {
    const at = i % (s.length + 1);
    return (s.slice(0, at) + ins + s.slice(at + del)).replace(/[\r\n]/g, ' ');
  });
  const json = fc.tuple(kv, kv, fc.constantFrom(...SEEDS)).map(([a, b, s]) => JSON.stringify({ msg: s, detail: a, nested: { x: b, arguments: { q: b } } }));

  it('single lines', () => {
    fc.assert(
      fc.property(fc.oneof(line, mutated, json), (l) => {
        expect(differences([l])).toEqual([]);
      }),
      { numRuns: 1500, seed: 1912 },
    );
  });

  it('sequences (session ids collected, secrets swept where they reappear, PEM and JWT line state)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            line,
            mutated,
            json,
            fc.constantFrom(
              '-----BEGIN PRIVATE KEY-----',
              'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC',
              '-----END PRIVATE KEY-----',
              '  "name": "Authorization",',
              '  "value": "Bearer abcdef123456"',
            ),
          ),
          { minLength: 2, maxLength: 8 },
        ),
        (ls) => {
          expect(differences(ls)).toEqual([]);
        },
      ),
      { numRuns: 300, seed: 1913 },
    );
  });
});
