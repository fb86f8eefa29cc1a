// The HTTP API through fastify inject(): every contract route, the error shape, and the
// cross-site guards.
import { tableFromIPC } from 'apache-arrow';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { Analysis } from '../contract/analysis.ts';
import { withHttpApp } from '../testing/context.ts';
import { multipart, sampleFiles as sampleBundle, tempWorkspace } from '../testing/helpers.ts';

const sampleFiles = () => sampleBundle('restart-stale-session');

let app: FastifyInstance;
let id = '';
withHttpApp(tempWorkspace(), 'api.duckdb', { maxUploadMb: 1 }, (h) => (app = h.app));

describe('HTTP API', () => {
  it('GET /api/health', async () => {
    const r = await app.inject({ method: 'GET', url: '/api/health' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ ok: true });
    expect(r.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(r.headers['x-content-type-options']).toBe('nosniff');
  });

  it('POST /api/incidents creates an incident from an upload', async () => {
    const r = await app.inject({ method: 'POST', url: '/api/incidents', ...multipart(sampleFiles()) });
    expect(r.statusCode, r.body).toBe(201);
    id = r.json().id;
    expect(id).toMatch(/^inc_/);
  });

  it('GET /api/incidents lists it newest first with its headline', async () => {
    const r = await app.inject({ method: 'GET', url: '/api/incidents' });
    const [row] = r.json();
    expect(row).toMatchObject({ id, state: 'ready', files: 5, decision: 'reinitialize' });
    expect(Date.parse(row.createdAt)).not.toBeNaN();
  });

  it('GET /analysis is a contract-valid document', async () => {
    const r = await app.inject({ method: 'GET', url: `/api/incidents/${id}/analysis` });
    const a = Analysis.parse(r.json());
    expect(a.decision).toBe('reinitialize');
    expect(a.inputs.map((i) => i.source).sort()).toEqual(['client', 'proxy', 'proxy', 'proxy', 'server']);
  });

  it('GET /events is an Arrow stream with the contract columns and working filters', async () => {
    const all = await app.inject({ method: 'GET', url: `/api/incidents/${id}/events?limit=100000` });
    expect(all.headers['content-type']).toContain('application/vnd.apache.arrow.stream');
    const t = tableFromIPC(all.rawPayload);
    for (const c of ['ts', 'source', 'file', 'line', 'level', 'message', 'session', 'rpcId', 'method', 'httpStatus', 'requestId']) expect(t.schema.names).toContain(c);
    expect(t.numRows).toBe(Number(all.headers['x-total-count']));
    const proxy404 = tableFromIPC((await app.inject({ method: 'GET', url: `/api/incidents/${id}/events?source=proxy&status=404` })).rawPayload);
    expect(proxy404.numRows).toBeGreaterThan(0);
    for (const row of proxy404.toArray()) expect([row.source, row.httpStatus]).toEqual(['proxy', 404]);
    const q = tableFromIPC((await app.inject({ method: 'GET', url: `/api/incidents/${id}/events?q=session%20not%20found&limit=5` })).rawPayload);
    expect(q.numRows).toBeGreaterThan(0);
    expect(q.numRows).toBeLessThanOrEqual(5);
    const rpc = tableFromIPC((await app.inject({ method: 'GET', url: `/api/incidents/${id}/events?rpcId=3&method=tools/call` })).rawPayload);
    expect(rpc.toArray().every((r) => r.rpcId === '3')).toBe(true);
    // Keyset paging: X-Next-After walks the same rows as offsets, page by page.
    const total = Number(all.headers['x-total-count']);
    const walked: string[] = [];
    let after: string | undefined;
    for (let page = 0; page < 1000; page++) {
      const r = await app.inject({ method: 'GET', url: `/api/incidents/${id}/events?limit=7${after ? `&after=${encodeURIComponent(after)}` : ''}` });
      expect(r.statusCode, r.body).toBe(200);
      expect(Number(r.headers['x-total-count'])).toBe(total);
      for (const row of tableFromIPC(r.rawPayload).toArray()) walked.push(`${row.file}:${row.line}`);
      after = r.headers['x-next-after'] as string | undefined;
      if (!after) break;
    }
    expect(walked).toEqual(t.toArray().map((row) => `${row.file}:${row.line}`));
    const bad = await app.inject({ method: 'GET', url: `/api/incidents/${id}/events?status=abc` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('TRIAGE_ERR_USAGE');
  });

  it('a text search answers its page first and its count from /events/count', async () => {
    const search = 'q=Session&source=client';
    const all = tableFromIPC((await app.inject({ method: 'GET', url: `/api/incidents/${id}/events?limit=100000&source=client` })).rawPayload);
    const expected = all.toArray().filter((r) => String(r.text).toLowerCase().includes('session')).length;
    expect(expected).toBeGreaterThan(0);
    const first = await app.inject({ method: 'GET', url: `/api/incidents/${id}/events?${search}&limit=3` });
    expect(first.statusCode).toBe(200);
    expect(tableFromIPC(first.rawPayload).numRows).toBe(Math.min(3, expected));
    // Not counted yet: no total, a pending marker instead (the count runs in the background).
    expect(first.headers['x-total-count']).toBeUndefined();
    expect(first.headers['x-total-pending']).toBe('1');
    const count = await app.inject({ method: 'GET', url: `/api/incidents/${id}/events/count?${search}&limit=3&offset=9` });
    expect(count.statusCode, count.body).toBe(200);
    expect(count.json()).toEqual({ total: expected });
    // Counted once, known from then on.
    const again = await app.inject({ method: 'GET', url: `/api/incidents/${id}/events?${search}&limit=3&offset=3` });
    expect(Number(again.headers['x-total-count'])).toBe(expected);
    expect(again.headers['x-total-pending']).toBeUndefined();
    const bad = await app.inject({ method: 'GET', url: `/api/incidents/${id}/events/count?level=loud` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('TRIAGE_ERR_USAGE');
  });

  it('POST /files skips identical files and adds new ones', async () => {
    const extra = '2026-11-29 10:00:00,000 INFO mcp.client: extra\n';
    const r = await app.inject({ method: 'POST', url: `/api/incidents/${id}/files`, ...multipart([sampleFiles()[0]!, { name: 'extra.log', data: extra }]) });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ id, added: 1, skipped: 1, skippedFiles: [] });
  });

  it('GET /report is the redacted Markdown report, or JSON with counts and sections', async () => {
    const md = await app.inject({ method: 'GET', url: `/api/incidents/${id}/report` });
    expect(md.statusCode, md.body).toBe(200);
    expect(md.headers['content-type']).toContain('text/markdown');
    expect(md.body).toMatch(/Decision: `reinitialize`/);
    expect(md.body).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
    const js = await app.inject({ method: 'GET', url: `/api/incidents/${id}/report?format=json` });
    const body = js.json();
    expect(body.markdown).toBe(md.body);
    expect(body.redactions['@mcp-session']).toBeGreaterThan(0);
    expect(Object.keys(body.sections)).toEqual(expect.arrayContaining(['summary', 'environment', 'whatHappened', 'timeline']));
  });

  it('refuses state changes without X-Requested-With, or from another origin, or another Host', async () => {
    const { payload, headers } = multipart([{ name: 'a.log', data: 'x\n' }]);
    const noHeader = await app.inject({ method: 'POST', url: '/api/incidents', payload, headers: { 'content-type': headers['content-type']! } });
    expect(noHeader.statusCode).toBe(403);
    expect(noHeader.json().error.code).toBe('TRIAGE_ERR_FORBIDDEN');
    const foreign = await app.inject({ method: 'POST', url: '/api/incidents', payload, headers: { ...headers, origin: 'https://evil.example' } });
    expect(foreign.statusCode).toBe(403);
    const crossSite = await app.inject({ method: 'DELETE', url: `/api/incidents/${id}`, headers: { 'x-requested-with': 'mcp-triage', 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.statusCode).toBe(403);
    const rebind = await app.inject({ method: 'GET', url: '/api/incidents', headers: { host: 'attacker.example:8765' } });
    expect(rebind.statusCode).toBe(403);
  });

  it('answers bad uploads with a 4xx and a message', async () => {
    const notMultipart = await app.inject({
      method: 'POST',
      url: '/api/incidents',
      payload: '{}',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'mcp-triage' },
    });
    expect(notMultipart.statusCode).toBe(415);
    const tooBig = await app.inject({ method: 'POST', url: '/api/incidents', ...multipart([{ name: 'big.log', data: Buffer.alloc(2 * 1024 * 1024, 97) }]) });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().error.message).toMatch(/limit/);
    const empty = await app.inject({ method: 'POST', url: '/api/incidents', ...multipart([]) });
    expect(empty.statusCode).toBe(400);
  });

  it('404s in the error shape for unknown incidents and routes', async () => {
    for (const url of ['/api/incidents/inc_nothere1/analysis', '/api/incidents/../etc/analysis', '/api/nope']) {
      const r = await app.inject({ method: 'GET', url });
      expect(r.statusCode).toBe(404);
      expect(r.json().error.code).toBe('TRIAGE_ERR_NOT_FOUND');
    }
  });

  it('DELETE forgets the incident', async () => {
    const r = await app.inject({ method: 'DELETE', url: `/api/incidents/${id}`, headers: { 'x-requested-with': 'mcp-triage' } });
    expect(r.statusCode).toBe(204);
    expect((await app.inject({ method: 'GET', url: `/api/incidents/${id}/analysis` })).statusCode).toBe(404);
  });
});
