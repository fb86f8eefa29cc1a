// Plain lines analysis must read although they carry no level, status or id: a client saying it fell
// back to the legacy SSE transport and connected (mcp-remote's http-first probe of an SSE-only
// server). The log below is written by hand in mcp-remote's message shapes. Full and focused
// analysis must both see those lines (TRIAGE_WHERE in SQL) and reach the same decision.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestIncident, refreshAnalysis, type Context } from '../incidents.ts';
import { entriesFromPaths } from '../ingest/inputs.ts';
import { tempWorkspace } from '../testing/helpers.ts';
import { withMemoryContext } from '../testing/context.ts';
import { DEFAULT_FOCUS, TRIAGE_WHERE, triageFrom } from './focus.ts';

const ws = tempWorkspace();
let ctx: Context;
withMemoryContext(ws, (c) => (ctx = c));

const PROBE = [
  '[5150] Connecting to remote server: https://mcp.example.test/sse',
  '[5150] Using transport strategy: http-first',
  '[5150] Received error: Error POSTing to endpoint (HTTP 404): Not Found',
];
const FELL_BACK = [
  '[5150] Recursively reconnecting for reason: falling-back-to-alternate-transport',
  '[5150] Connecting to remote server: https://mcp.example.test/sse',
  '[5150] Using transport strategy: sse-only',
  '[5150] Connected to remote server using SSEClientTransport',
  '[5150] Local STDIO server running',
  '[5150] Proxy established successfully between local STDIO and remote SSEClientTransport',
];

async function decide(name: string, lines: string[]) {
  const dir = join(ws.dir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'mcp-remote.log'), lines.join('\n') + '\n');
  const { id, analysis: full } = await ingestIncident(ctx, entriesFromPaths([dir]), { name });
  const focused = await refreshAnalysis(ctx.store, id, { fullLimit: 0, focus: { ...DEFAULT_FOCUS, head: 0 } });
  return { full, focused };
}

describe('lines without level or id that rules read', () => {
  it('an http-first 404 followed by a working SSE fallback is nothing to act on', async () => {
    const { full, focused } = await decide('fell-back', [...PROBE, ...FELL_BACK]);
    for (const a of [full, focused]) {
      expect(a.decision).toBe('no_action');
      expect(a.failures.map((f) => f.rule)).toEqual(['recovered-on-its-own']);
    }
  });

  it('the same 404 with no fallback is a route to fix', async () => {
    const { full, focused } = await decide('no-fallback', PROBE);
    for (const a of [full, focused]) {
      expect(a.decision).toBe('fix_route_or_config');
      // (`Connecting to remote server` names the initialize: its POST to an /sse URL refused 404 is the
      // Streamable HTTP transport meeting a legacy SSE endpoint, failure-signatures row 61)
      expect(a.failures.map((f) => f.rule)).toEqual(['transport-mismatch']);
    }
  });

  it('reads the same rows in two scans as the predicate does in one', async () => {
    const ids = await ctx.store.query<{ id: string }>('SELECT id FROM incidents');
    expect(ids.length).toBeGreaterThan(0);
    for (const { id } of ids) {
      const [one] = await ctx.store.query<{ s: string }>(`SELECT string_agg(seq::VARCHAR, ',' ORDER BY seq) AS s FROM events WHERE incident_id = $id AND ${TRIAGE_WHERE}`, { id });
      const [two] = await ctx.store.query<{ s: string }>(`SELECT string_agg(seq::VARCHAR, ',' ORDER BY seq) AS s FROM ${triageFrom('seq')}`, { id });
      const [keyed] = await ctx.store.query<{ n: bigint }>(`SELECT count(*) AS n FROM events WHERE incident_id = $id AND http_status IS NOT NULL`, { id });
      expect(two!.s).toBe(one!.s);
      expect(two!.s.split(',').length).toBeGreaterThanOrEqual(Number(keyed!.n));
    }
  });

  it('a fallback said but never connected is not a recovery', async () => {
    const { full } = await decide('fell-back-failed', [...PROBE, FELL_BACK[0]!, FELL_BACK[1]!, FELL_BACK[2]!, '[5150] Fatal error: Error: SSE error: Non-200 status code (404)']);
    expect(full.failures.some((f) => f.rule === 'recovered-on-its-own')).toBe(false);
  });

  it('a count summary logged at info that counts failures reaches full and focused analysis', async () => {
    // (parsers/engine/tally.ts: a probe's `7/10 OK` has no request key and no error level; TALLY_FAILED keeps it)
    const { full, focused } = await decide('tally-at-info', ['2026-10-21T06:30:00.004Z [INFO] probe: start', '2026-10-21T06:30:09.871Z [INFO] probe: 7/10 OK']);
    for (const a of [full, focused]) expect(a.failures.map((f) => f.rule)).toEqual(['intermittent-retry']);
    const { full: healthy } = await decide('tally-at-info-healthy', ['2026-10-21T06:30:00.004Z [INFO] probe: start', '2026-10-21T06:30:09.871Z [INFO] probe: 10/10 OK']);
    expect(healthy.failures).toEqual([]);
  });
});
