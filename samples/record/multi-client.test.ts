/**
 * samples/multi-client-one-failing: three SDK clients of one host app, three sessions, the same rpc ids 0,1,2…
 * in each, interleaved in ONE client.log. One session is evicted server-side (idle timeout); its next call fails.
 * Checks that correlation keeps the three apart: the failing request is linked client ⇄ proxy ⇄ server by its
 * own keys, and the healthy clients' requests with the same rpc id are separate spans with no failures.
 * (Analyses the committed bundle; does not run the recorder.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Analysis } from '../../server/contract/analysis.ts';
import { ingestIncident, openContext, type Context } from '../../server/incidents.ts';
import { entriesFromPaths } from '../../server/ingest/inputs.ts';
import { tempWorkspace } from '../../server/testing/helpers.ts';
import { RECORD_DIR } from './lib/proc.ts';

const DIR = join(RECORD_DIR, '..', 'multi-client-one-failing');
const file = (f: string) => readFileSync(join(DIR, f), 'utf8').split('\n');

// Ground truth from the raw logs, independent of the analyser.
const client = file('client.log');
const failingLine = client.find((l) => / rpc=3 method=tools\/call tool=create_order .* -> 404 /.test(l))!;
const failingSession = /mcp-session-id=(\S+)/.exec(failingLine)![1]!;
const failingReqId = /x-request-id=([0-9a-f]{32})/.exec(failingLine)![1]!;
// the first three sessions are the three conversations; the two besides the failing one are healthy
const firstSessions = client.flatMap((l) => /Received session ID: (\S+)/.exec(l)?.[1] ?? []).slice(0, 3);
const healthySessions = firstSessions.filter((s) => s !== failingSession);
const healthyRpc3 = client.filter((l) => / rpc=3 method=tools\/call /.test(l) && !l.includes(failingSession));
const healthyReqIds = healthyRpc3.map((l) => /x-request-id=([0-9a-f]{32})/.exec(l)![1]!);

const ws = tempWorkspace();
let ctx: Context;
let analysis: Analysis;
beforeAll(async () => {
  ctx = await openContext({ env: ws.env, db: ':memory:', keyFile: ws.keyFile });
  ({ analysis } = await ingestIncident(ctx, entriesFromPaths([DIR]), { name: 'multi-client-one-failing' }));
});
afterAll(async () => {
  await ctx.store.close();
  ws.cleanup();
});

describe('multi-client-one-failing: three interleaved sessions, one failing', () => {
  it('the raw bundle has the intended shape (three sessions; rpc 3 in each; one 404)', () => {
    expect(firstSessions).toHaveLength(3);
    expect(healthySessions).toHaveLength(2);
    expect(healthyRpc3).toHaveLength(2);
    for (const s of healthySessions) expect(healthyRpc3.some((l) => l.includes(s))).toBe(true);
    expect(file('server.log').some((l) => l.includes(`Session ${failingSession} idle timeout`))).toBe(true);
  });

  it('headline: reinitialize, for the failing tools/call rpc 3 only', () => {
    expect(analysis.decision).toBe('reinitialize');
    const decided = analysis.failures.filter((f) => f.decision !== 'no_action');
    expect(decided).toHaveLength(1);
    expect(decided[0]).toMatchObject({ rpcId: 3, method: 'tools/call', tool: 'create_order', httpStatus: 404, rule: 'session-expired-404' });
  });

  it('the failing request is linked to its proxy and server lines by its own keys', () => {
    const f = analysis.failures.find((x) => x.decision === 'reinitialize')!;
    const span = analysis.spans.find((s) => s.rpcId === 3 && s.method === 'tools/call' && s.session === f.session)!;
    expect(span).toBeDefined();
    expect(span.sources).toEqual(expect.arrayContaining(['client', 'proxy', 'server']));
    // the nginx request id joins client ⇄ JSON access log ⇄ server; session + rpc id joins the server's lines
    expect(span.joinedBy).toEqual(expect.arrayContaining(['x-request-id', 'session+rpcId']));
    const files = new Set(f.evidence.map((e) => e.file));
    for (const want of ['client.log', 'nginx-access.log', 'nginx-access.json.log', 'server.log']) expect(files).toContain(want);
    // every evidence line is this request's: no healthy session id or healthy request id in any of them
    const lines = f.evidence.map((e) => file(e.file)[e.line - 1]!);
    expect(lines.some((l) => l.includes(failingReqId))).toBe(true);
    for (const l of lines) {
      for (const s of healthySessions) expect(l).not.toContain(s);
      for (const r of healthyReqIds) expect(l).not.toContain(r);
    }
    // the host's "conv-c: Error calling tool create_order" joined this request, not conv-a's concurrent create_order
    expect(lines.some((l) => /conv-c: Error calling tool create_order/.test(l))).toBe(true);
  });

  it("the healthy clients' rpc 3 are separate spans in their own sessions, and none of their sessions failed", () => {
    const failing = analysis.failures.find((x) => x.decision === 'reinitialize')!.session;
    const rpc3 = analysis.spans.filter((s) => s.rpcId === 3 && s.method === 'tools/call');
    expect(rpc3).toHaveLength(3);
    expect(new Set(rpc3.map((s) => s.session)).size).toBe(3);
    for (const s of rpc3.filter((x) => x.session !== failing)) {
      expect(s.sources).toEqual(expect.arrayContaining(['client', 'proxy', 'server']));
      expect(s.joinedBy).toContain('x-request-id');
    }
    // every failure (the decided one and the benign GET-stream 404 of the evicted session) is the failing session's
    for (const f of analysis.failures) expect(f.session).toBe(failing);
    // the two healthy sessions end deleted (their DELETE at the end), the failing one expired
    const states = Object.fromEntries(analysis.sessions.map((s) => [s.session, s.state]));
    expect(states[failing!]).toBe('expired');
    expect(Object.values(states).filter((s) => s === 'deleted')).toHaveLength(2); // conv-a and conv-b (conv-c's host stops without DELETE)
  });
});
