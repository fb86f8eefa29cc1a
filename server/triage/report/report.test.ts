// The report's Markdown safety: fences that cannot be closed from inside, no pings or issue links,
// no hidden characters; and the fail-closed leak check.
import { describe, expect, it } from 'vitest';
import { emptyEvent } from '../../../parsers/contract/event.ts';
import type { Analysis } from '../../contract/analysis.ts';
import { buildReport } from './report.ts';
import type { TriageError } from '../../errors.ts';
import { ALL_PATTERN_RULES } from '../redact/index.ts';
import { code, fence, inline } from './markdown.ts';

const analysis: Analysis = {
  schemaVersion: 1,
  inputs: [{ file: 'client.log', source: 'client', format: 'iso-level-logger', lines: 2, events: 2, unparsed: 0 }],
  protocolVersions: ['2025-11-25'],
  failures: [
    {
      rpcId: 3,
      method: 'tools/call',
      tool: 'create_order',
      session: 'sess_abcdefghij',
      httpStatus: 404,
      stage: 'http_status',
      rootException: null,
      exceptionChain: [],
      decision: 'reinitialize',
      rule: 'session-expired-404',
      rationale: 'ping @octocat about #123',
      evidence: [{ file: 'client.log', line: 1 }],
      ts: 0,
    },
  ],
  sessions: [],
  spans: [],
  decision: 'reinitialize',
};

function ev(text: string) {
  const e = emptyEvent({ file: 'client.log', line: 1, source: 'client', format: 'x', kind: 'line', text });
  e.ts = 0;
  return e;
}

describe('markdown helpers', () => {
  it('fences are longer than any backtick run inside', () => {
    const f = fence('a ``` b ```` c');
    expect(f.startsWith('`````text\n')).toBe(true);
    expect(f.endsWith('\n`````')).toBe(true);
  });
  it('strips ANSI, bidi overrides and zero-width characters', () => {
    expect(fence('\x1b[31mred\x1b[0m \u202egnp.exe\u200b')).toBe('```text\nred gnp.exe\n```');
  });
  it('neutralises mentions, issue links and HTML in prose', () => {
    const s = inline('@octocat see #123 and GH-7 <script>');
    expect(s).not.toMatch(/@octocat|(^|\s)#123|GH-7|<script>/);
  });
  it('code spans survive backticks', () => expect(code('a`b')).toBe('``a`b``'));
});

describe('buildReport', () => {
  it('renders every section and neutralises log-derived prose', () => {
    const r = buildReport({ title: 'x', analysis, evidence: [ev('POST /mcp -> 404 ```` @team #9')], context: [], redactions: { '@mcp-session': 2 } });
    for (const h of ['### Environment', '### What happened', '### Timeline', '### What was checked']) expect(r.markdown).toContain(h);
    expect(r.markdown).not.toMatch(/@octocat|\s#123/);
    expect(r.markdown).toMatch(/`{5}text/);
    expect(r.markdown).toContain('`@mcp-session` ×2');
  });
  it('refuses to emit a report that contains a raw value seen at ingest, naming the line, the rule and the evidence', () => {
    const raw = 'f790ede9-8a4a-4913-849e-bc32ee245fe4';
    let err: TriageError | null = null;
    try {
      buildReport({ title: 'x', analysis, evidence: [ev(`session ${raw}`)], context: [], redactions: {}, rawValues: [raw] });
    } catch (e) {
      err = e as TriageError;
    }
    expect(err?.code).toBe('TRIAGE_ERR_REPORT_LEAK');
    expect(err!.message).toMatch(/report line \d+ \(evidence client\.log:1\), rule @literal/);
    expect(err!.message).toContain('--exclude client.log:1');
    expect(err!.message).not.toContain(raw);
    expect(err!.details).toEqual({ refused: [{ reportLine: expect.any(Number), rule: '@literal', evidence: { file: 'client.log', line: 1 } }] });
    // The answer to a refusal: leave that evidence line out, and the report builds.
    const r = buildReport({ title: 'x', analysis, evidence: [ev(`session ${raw}`)], context: [], redactions: {}, rawValues: [raw], exclude: ['client.log:1'] });
    expect(r.markdown).not.toContain(raw);
    expect(r.markdown).toContain('1 evidence line(s) left out by the reporter.');
  });
  it('runs log text through the exit pass: a token that slipped past ingest is redacted, not refused', () => {
    const r = buildReport({ title: 'x', analysis, evidence: [ev('Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123456789')], context: [], redactions: {} });
    expect(r.markdown).not.toContain('abcdefghijklmnopqrstuvwxyz0123456789');
    expect(r.markdown).toContain('Bearer [REDACTED:bearer]');
    expect(r.markdown).toContain('At export: `@bearer` ×1.');
  });
  it('names every vendor rule in its footer without tripping its own verifier', () => {
    const redactions = Object.fromEntries(ALL_PATTERN_RULES.map((rule, i) => [rule.id, i + 1]));
    const r = buildReport({ title: 'x', analysis, evidence: [ev('POST /mcp -> 404')], context: [], redactions });
    for (const id of Object.keys(redactions)) expect(r.markdown).toContain(`\`${id}\``);
  });
  it('pseudonymises request ids, joining a shortened spelling to its one full id', () => {
    const full = '8f86c8798b3f9311983aa74370c97ddc';
    const e1 = ev(`POST /mcp -> 404 x-request-id=${full.slice(0, 8)}`);
    const e2 = emptyEvent({ file: 'nginx.log', line: 1, source: 'proxy', format: 'x', kind: 'line', text: `127.0.0.1 - - "POST /mcp HTTP/1.1" 404 0 "-" "node" ${full}` });
    e2.requestId = full;
    e2.ts = 1;
    const a2 = {
      ...analysis,
      failures: [
        {
          ...analysis.failures[0]!,
          evidence: [
            { file: 'client.log', line: 1 },
            { file: 'nginx.log', line: 1 },
          ],
        },
      ],
    };
    const r = buildReport({ title: 'x', analysis: a2, evidence: [e1, e2], context: [], redactions: {}, key: new Uint8Array(32).fill(5) });
    expect(r.markdown).not.toContain(full.slice(0, 8));
    const ps = [...r.markdown.matchAll(/req-[a-z2-7]{10}/g)].map((m) => m[0]);
    expect(ps.length).toBe(2);
    expect(new Set(ps).size).toBe(1);
    expect(r.markdown).toContain('At export: `@request-id` ×2.');
  });
  it('never cuts a placeholder in half', () => {
    const long = `${'x'.repeat(390)} password=hunter2hunter2 and more text after it`;
    const r = buildReport({ title: 'x', analysis, evidence: [ev(long)], context: [], redactions: {} });
    expect(r.markdown).not.toMatch(/\[REDACTED:[a-z-]*(?!\])\s\[cut\]/);
    expect(r.markdown).toContain('[cut]');
  });
});
