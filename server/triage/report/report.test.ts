// The report's Markdown safety: fences that cannot be closed from inside, no pings or issue links,
// no hidden characters; and the fail-closed leak check.
import { describe, expect, it } from 'vitest';
import { emptyEvent } from '../../../parsers/contract/event.ts';
import type { Analysis } from '../../contract/analysis.ts';
import { buildReport } from './report.ts';
import { code, fence, inline } from './markdown.ts';

const analysis: Analysis = {
  schemaVersion: 1,
  inputs: [{ file: 'client.log', source: 'client', format: 'iso-level-logger', lines: 2, events: 2, unparsed: 0 }],
  protocolVersions: ['2025-11-25'],
  failures: [
    {
      rpcId: 3, method: 'tools/call', tool: 'create_order', session: 'sess_abcdefghij', httpStatus: 404, stage: 'http_status', rootException: null, exceptionChain: [],
      decision: 'reinitialize', rule: 'session-expired-404', rationale: 'ping @octocat about #123', evidence: [{ file: 'client.log', line: 1 }], ts: 0,
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
  it('refuses to emit a report that contains a raw value seen at ingest', () => {
    const raw = 'f790ede9-8a4a-4913-849e-bc32ee245fe4';
    expect(() => buildReport({ title: 'x', analysis, evidence: [ev(`session ${raw}`)], context: [], redactions: {}, rawValues: [raw] })).toThrow(/refused/);
  });
  it('refuses a report in which a detector still fires (a bearer token slipped through)', () => {
    expect(() => buildReport({ title: 'x', analysis, evidence: [ev('Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123456789')], context: [], redactions: {} })).toThrow(/refused/);
  });
});
