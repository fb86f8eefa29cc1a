// The view routes (unit of work, histogram, HTML export) and the verify route, through inject()
// on a real store; verify against a real SDK server and a dead port.
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Analysis } from '../contract/analysis.ts';
import { openContext, type Context } from '../incidents.ts';
import { startServer, type TestMcpServer } from '../probe/testing/servers.ts';
import { multipart, sampleFiles as sampleBundle, tempWorkspace } from '../testing/helpers.ts';
import { buildApp } from './app.ts';

const sampleFiles = () => sampleBundle('restart-stale-session');

const ws = tempWorkspace();
let ctx: Context;
let app: FastifyInstance;
let id = '';
let analysis: Analysis;

beforeAll(async () => {
  ctx = await openContext({ env: ws.env, db: join(ws.dir, 'views.duckdb'), keyFile: ws.keyFile });
  app = await buildApp({ ctx, logger: !!process.env.DEBUG_VIEWS });
  const r = await app.inject({ method: 'POST', url: '/api/incidents', ...multipart(sampleFiles()) });
  id = r.json().id;
  analysis = Analysis.parse((await app.inject({ method: 'GET', url: `/api/incidents/${id}/analysis` })).json());
});
afterAll(async () => {
  await app.close();
  await ctx.store.close();
  ws.cleanup();
});

describe('GET /unit', () => {
  it('gathers every line of the failing request across files, with why each belongs', async () => {
    const fi = analysis.failures.findIndex((x) => x.decision === 'reinitialize');
    const f = analysis.failures[fi]!;
    const ev = f.evidence.find((e) => e.file === 'server.log')!;
    const r = await app.inject({ method: 'GET', url: `/api/incidents/${id}/unit?file=${encodeURIComponent(ev.file)}&line=${ev.line}` });
    expect(r.statusCode, r.body).toBe(200);
    const u = r.json();
    expect(u.seed).toMatchObject({ file: 'server.log' });
    expect(u.failures).toContain(fi);
    const files = new Set(u.events.map((e: { file: string }) => e.file));
    expect(files.size).toBeGreaterThanOrEqual(3);
    expect(files).toContain('client.log');
    // Every evidence line of the failure is in the unit.
    for (const e of f.evidence)
      expect(
        u.events.some((x: { file: string; line: number; endLine: number }) => x.file === e.file && x.line <= e.line && e.line <= x.endLine),
        `${e.file}:${e.line}`,
      ).toBe(true);
    expect(u.events.find((x: { file: string; line: number }) => x.file === ev.file && x.line === ev.line).reasons).toContain('seed');
    expect(u.keys.requestIds.length + u.keys.sessionRpc.length).toBeGreaterThan(0);
    // Sorted by time.
    const ts = u.events.map((e: { ts: number | null }) => e.ts).filter((t: number | null) => t !== null);
    expect([...ts].sort((a, b) => a - b)).toEqual(ts);
  });

  it('treats the file name as data (bound parameter) and validates the line', async () => {
    const evil = await app.inject({ method: 'GET', url: `/api/incidents/${id}/unit?file=${encodeURIComponent("x' OR 1=1 --")}&line=1` });
    expect(evil.statusCode).toBe(200);
    expect(evil.json()).toMatchObject({ seed: null, events: [] });
    expect((await app.inject({ method: 'GET', url: `/api/incidents/${id}/unit?file=a&line=0` })).statusCode).toBe(400);
    expect((await app.inject({ method: 'GET', url: `/api/incidents/${id}/unit?line=3` })).statusCode).toBe(400);
    expect((await app.inject({ method: 'GET', url: `/api/incidents/inc_nosuchthing/unit?file=a&line=3` })).statusCode).toBe(404);
  });
});

describe('GET /histogram', () => {
  it('counts every timestamped event once, per source and status class', async () => {
    const r = await app.inject({ method: 'GET', url: `/api/incidents/${id}/histogram?buckets=40` });
    expect(r.statusCode, r.body).toBe(200);
    const h = r.json();
    expect(h.buckets).toBe(40);
    expect(h.from).toBeLessThanOrEqual(h.to);
    expect(h.series.map((s: { source: string }) => s.source)).toEqual(['client', 'proxy', 'server']);
    const sum = h.series.reduce(
      (n: number, s: { counts: Record<string, number[]> }) =>
        n +
        Object.values(s.counts)
          .flat()
          .reduce((a, b) => a + b, 0),
      0,
    );
    const events = analysis.inputs.reduce((n, i) => n + i.events, 0);
    expect(sum + h.untimed).toBe(events);
    const proxy = h.series.find((s: { source: string }) => s.source === 'proxy');
    expect(proxy.counts['4xx'].reduce((a: number, b: number) => a + b, 0)).toBeGreaterThan(0);
    expect((await app.inject({ method: 'GET', url: `/api/incidents/${id}/histogram?buckets=0` })).statusCode).toBe(400);
  });
});

describe('GET /export.html', () => {
  it('is one attachment with no script and no external resource, the decision and escaped evidence', async () => {
    const r = await app.inject({ method: 'GET', url: `/api/incidents/${id}/export.html` });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers['content-type']).toContain('text/html');
    expect(r.headers['content-disposition']).toMatch(/^attachment; filename="inc_[a-z0-9]+-export\.html"$/);
    const html = r.body;
    expect(html).toContain(`data-decision="${analysis.decision}"`);
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/<script|<link|<img|<iframe|src=|href=/i);
    expect(html).toContain('session-expired-404');
    expect(html).toContain('server.log:');
  });
});

describe('verify', () => {
  let mcp: TestMcpServer;
  beforeAll(async () => {
    mcp = await startServer({ mode: 'stateful' });
  });
  afterAll(async () => {
    await mcp?.stop();
  });
  const post = (body: unknown, headers: Record<string, string> = { 'x-requested-with': 'mcp-triage' }) =>
    app.inject({ method: 'POST', url: `/api/incidents/${id}/verify`, payload: body as object, headers: { 'content-type': 'application/json', ...headers } });

  it('probes a healthy SDK server and keeps the result', async () => {
    expect((await app.inject({ method: 'GET', url: `/api/incidents/${id}/verify` })).json()).toBeNull();
    const r = await post({ url: mcp.url, tool: 'get_order', args: { order_id: 'ORD-1001' } });
    expect(r.statusCode, r.body).toBe(200);
    const j = r.json();
    expect(j).toMatchObject({ ok: true, transport: 'streamable-http', sessionAssigned: true });
    expect(j.steps.map((s: { name: string }) => s.name)).toContain('tools/call');
    const last = await app.inject({ method: 'GET', url: `/api/incidents/${id}/verify` });
    expect(last.json()).toMatchObject({ ok: true, result: { url: mcp.url } });
  });

  it('reports the failed step for a dead port', async () => {
    const dead = await new Promise<number>((res) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => res(p));
      });
    });
    const r = await post({ url: `http://127.0.0.1:${dead}/mcp` });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ ok: false, failedStep: 'reach' });
  });

  it('refuses bad input, writes and cross-site calls', async () => {
    expect((await post({ url: 'file:///etc/passwd' })).statusCode).toBe(400);
    expect((await post({ url: 'not a url' })).statusCode).toBe(400);
    expect((await post({ url: mcp.url, allowWrites: true })).statusCode).toBe(400);
    expect((await post({ url: mcp.url, args: { a: 1 } })).statusCode).toBe(400); // args without tool
    expect((await post({ url: mcp.url }, {})).statusCode).toBe(403);
    expect((await post({ url: mcp.url }, { 'x-requested-with': 'mcp-triage', origin: 'https://evil.example' })).statusCode).toBe(403);
  });
});
