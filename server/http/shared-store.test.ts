// `serve --store`: the HTTP API over a shared ClickHouse store answers as the embedded app does for
// the same uploads (analysis, timeline pages as Arrow, counts, histogram, report, list, delete),
// says 501 for the views not on a shared store yet, and reports a store that went away in the
// contract's error shape. Plus the real `serve --store` process.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openContext, type Context } from '../incidents.ts';
import { ClickHouseStore } from '../store/clickhouse/store.ts';
import { parseStoreUrl } from '../store/clickhouse/target.ts';
import { TEST_USER, TestClickHouse } from '../store/clickhouse/testing/server.ts';
import { strict } from '../store/clickhouse/testing/strict.ts';
import { multipart, REPO, sampleFiles, tempWorkspace } from '../testing/helpers.ts';
import { buildApp } from './app.ts';
import { buildSharedApp } from './shared-app.ts';

const ws = tempWorkspace();
let server: TestClickHouse;
let ctx: Context;
let local: FastifyInstance;
let shared: FastifyInstance;

beforeAll(async () => {
  server = await TestClickHouse.start(2);
  ctx = await openContext({ env: ws.env, db: ':memory:', keyFile: ws.keyFile });
  // Compared with a strict embedded app: a shared store is always strict.
  local = await buildApp({ ctx: strict(ctx), uploadDir: join(ws.dir, 'up-local') });
  const store = await ClickHouseStore.open(parseStoreUrl(server.url('api'), 'env'));
  shared = await buildSharedApp({ ctx, shared: store, uploadDir: join(ws.dir, 'up-shared') });
});
afterAll(async () => {
  await shared?.close();
  await local?.close();
  await ctx?.store.close();
  await server?.stop();
  ws.cleanup();
});

const rowsOf = (payload: Buffer) => tableFromIPC(payload).toArray().map((r) => JSON.parse(JSON.stringify(r.toJSON(), (_k, v) => (typeof v === 'bigint' ? Number(v) : v))));

describe('serve --store: the HTTP API over ClickHouse', () => {
  it('answers as the embedded app does for the same upload', async () => {
    const files = sampleFiles('restart-stale-session');
    const a = await local.inject({ method: 'POST', url: '/api/incidents', ...multipart(files) });
    const b = await shared.inject({ method: 'POST', url: '/api/incidents', ...multipart(files) });
    expect(a.statusCode).toBe(201);
    expect(b.statusCode, b.body).toBe(201);
    const la = `/api/incidents/${a.json().id}`;
    const sb = `/api/incidents/${b.json().id}`;
    for (const path of ['/analysis', '/report', '/report?format=json', '/histogram?buckets=40', '/events/count?q=session', '/events/count?source=proxy&status=404']) {
      const [x, y] = await Promise.all([local.inject({ url: la + path }), shared.inject({ url: sb + path })]);
      expect(y.statusCode, `${path}: ${y.body}`).toBe(200);
      expect(y.body, path).toBe(x.body);
    }
    for (const q of ['', '?limit=20&offset=5', '?source=client&level=warn', '?signal=http-404', '?limit=10&after=1795942947000,3']) {
      const [x, y] = await Promise.all([local.inject({ url: `${la}/events${q}` }), shared.inject({ url: `${sb}/events${q}` })]);
      expect(y.statusCode, y.body).toBe(200);
      expect(y.headers['content-type']).toBe('application/vnd.apache.arrow.stream');
      expect(y.headers['x-total-count'], q).toBe(x.headers['x-total-count']);
      expect(y.headers['x-next-after'], q).toBe(x.headers['x-next-after']);
      expect(rowsOf(y.rawPayload), q).toEqual(rowsOf(x.rawPayload));
    }
    const list = (await shared.inject({ url: '/api/incidents' })).json() as { id: string; state: string; decision: string; files: number }[];
    expect(list.find((i) => i.id === b.json().id)).toMatchObject({ state: 'ready', decision: 'reinitialize', files: files.length });
    const one = (await shared.inject({ url: sb })).json() as { inputs: { path: string }[] };
    expect(one.inputs.map((f) => f.path)).toEqual((await local.inject({ url: la })).json().inputs.map((f: { path: string }) => f.path));

    // The same files again: nothing added; then the incident is forgotten.
    const again = await shared.inject({ method: 'POST', url: `${sb}/files`, ...multipart(files) });
    expect(again.json()).toMatchObject({ added: 0, skipped: files.length });
    const csrf = await shared.inject({ method: 'DELETE', url: sb });
    expect(csrf.statusCode).toBe(403);
    const del = await shared.inject({ method: 'DELETE', url: sb, headers: { 'x-requested-with': 'mcp-triage' } });
    expect(del.statusCode).toBe(204);
    expect((await shared.inject({ url: `${sb}/analysis` })).json()).toMatchObject({ error: { code: 'TRIAGE_ERR_NOT_FOUND' } });
  });

  it('says 501, in the error shape, for the views that do not read a shared store yet', async () => {
    for (const [method, url] of [['GET', '/api/incidents/inc_abcdef123/unit?file=a&line=1'], ['POST', '/api/sql'], ['GET', '/api/incidents/inc_abcdef123/export.html']] as const) {
      const r = await shared.inject({ method, url, headers: { 'x-requested-with': 'mcp-triage' }, ...(method === 'POST' ? { payload: { sql: 'SELECT 1' } } : {}) });
      expect(r.statusCode).toBe(501);
      expect(r.json()).toMatchObject({ error: { code: 'TRIAGE_ERR_NOT_IMPLEMENTED' } });
    }
  });

  it('a store that went away is a 502 TRIAGE_ERR_STORE naming it, without credentials', async () => {
    const gone = await TestClickHouse.start(1);
    const url = gone.url('gone');
    const store = await ClickHouseStore.open({ ...parseStoreUrl(url, 'env'), user: TEST_USER.user, password: TEST_USER.password });
    const app = await buildSharedApp({ ctx, shared: store, uploadDir: join(ws.dir, 'up-gone') });
    await gone.stop();
    const r = await app.inject({ url: '/api/incidents' });
    await app.close();
    expect(r.statusCode).toBe(502);
    const body = r.json() as { error: { code: string; message: string } };
    expect(body.error.code).toBe('TRIAGE_ERR_STORE');
    expect(body.error.message).toMatch(/^ClickHouse at clickhouse:\/\/127\.0\.0\.1:\d+\/gone is unreachable \(ECONNREFUSED\)/);
    expect(r.body).not.toContain(TEST_USER.password);
  });

  it('the real process: serve --store names the store it serves (not its credentials) and stops on SIGTERM', async () => {
    const env: NodeJS.ProcessEnv = { ...ws.env, MCP_TRIAGE_STORE: server.url('served').replace('clickhouse://', 'clickhouse://default:@') };
    delete env.MCP_TRIAGE_FROM_SOURCE;
    const child = spawn(process.execPath, [join(REPO, 'server/cli/bin.mjs'), 'serve', '--port', '0', '--key-file', ws.keyFile], { cwd: REPO, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    const port = await new Promise<number>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 30_000);
      child.stderr!.on('data', () => {
        const m = /serving http:\/\/127\.0\.0\.1:(\d+)\/ \(store (clickhouse:\/\/[^)]+)\)/.exec(err);
        if (m) {
          clearTimeout(t);
          resolve(Number(m[1]));
        }
      });
      child.once('exit', (c) => reject(new Error(`serve exited ${c}: ${err}`)));
    });
    try {
      expect(err).toMatch(/\(store clickhouse:\/\/127\.0\.0\.1:\d+\/served\?cluster=triage; privacy mode strict/);
      const health = await (await fetch(`http://127.0.0.1:${port}/api/health`)).json();
      expect(health).toMatchObject({ ok: true });
      expect(await (await fetch(`http://127.0.0.1:${port}/api/incidents`)).json()).toEqual([]);
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(child.pid!, 'SIGTERM');
      await exited;
    }
    expect(err).not.toContain('default:@');
  });
});
