// `serve --store`: the same app (app.ts over the store seam, backend.ts) over a shared ClickHouse
// store answers as it does over the embedded store for the same uploads (analysis, timeline pages
// as Arrow, counts, histogram, report, unit of work, HTML export, SQL console, verification, list,
// delete), with the same admission limits, and reports a store that went away in the contract's
// error shape. Plus the real `serve --store` process.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
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
  shared = await buildApp({ ctx, shared: store, uploadDir: join(ws.dir, 'up-shared') });
});
afterAll(async () => {
  await shared?.close();
  await local?.close();
  await ctx?.store.close();
  await server?.stop();
  ws.cleanup();
});

const rowsOf = (payload: Buffer) =>
  tableFromIPC(payload)
    .toArray()
    .map((r) => JSON.parse(JSON.stringify(r.toJSON(), (_k, v) => (typeof v === 'bigint' ? Number(v) : v))));

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
    // Its rows go too (ClickHouse applies the deletes in the background): the console finds none.
    const left = async () =>
      (
        await shared.inject({
          method: 'POST',
          url: '/api/sql',
          headers: { 'x-requested-with': 'mcp-triage' },
          payload: {
            sql: `SELECT (SELECT count() FROM events WHERE incident = '${b.json().id}') + (SELECT count() FROM files WHERE incident = '${b.json().id}') + (SELECT count() FROM decisions WHERE incident = '${b.json().id}') + (SELECT count() FROM incidents WHERE incident = '${b.json().id}' AND state != 'deleted') AS n`,
          },
        })
      ).json().rows[0][0];
    for (let i = 0; (await left()) !== 0; i++) {
      expect(i, 'rows of a deleted incident still there after 20 s').toBeLessThan(100);
      await new Promise((r) => setTimeout(r, 200));
    }
  });

  it('the unit of work, the HTML export, the SQL console and verification read ClickHouse, as the embedded store answers them', async () => {
    const files = sampleFiles('restart-stale-session');
    const a = (await local.inject({ method: 'POST', url: '/api/incidents', ...multipart(files) })).json().id as string;
    const b = (await shared.inject({ method: 'POST', url: '/api/incidents', ...multipart(files) })).json().id as string;
    // The unit of every evidence line, and of a few plain lines, is the same document.
    const analysis = (await local.inject({ url: `/api/incidents/${a}/analysis` })).json() as { failures: { evidence: { file: string; line: number }[] }[] };
    const places = analysis.failures.flatMap((f) => f.evidence);
    expect(places.length).toBeGreaterThan(0);
    for (const p of [...places, { file: places[0]!.file, line: 1 }, { file: places[0]!.file, line: 3 }, { file: 'nope.log', line: 1 }]) {
      const q = `/unit?file=${encodeURIComponent(p.file)}&line=${p.line}`;
      const [x, y] = await Promise.all([local.inject({ url: `/api/incidents/${a}${q}` }), shared.inject({ url: `/api/incidents/${b}${q}` })]);
      expect(y.statusCode, y.body).toBe(200);
      expect(y.json(), q).toEqual(x.json());
    }
    // The export: the same file but for the incident's id and the times it names.
    const norm = (html: string, id: string) =>
      html
        .split(id)
        .join('ID')
        .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, 'T');
    const [ex, ey] = await Promise.all([local.inject({ url: `/api/incidents/${a}/export.html` }), shared.inject({ url: `/api/incidents/${b}/export.html` })]);
    expect(ey.statusCode, ey.body).toBe(200);
    expect(ey.headers['content-disposition']).toBe(`attachment; filename="${b}-export.html"`);
    expect(norm(ey.body, b)).toBe(norm(ex.body, a));

    // The console: the same answer for the same question (ClickHouse names the incident column `incident`).
    const sql = (app: FastifyInstance, q: string) => app.inject({ method: 'POST', url: '/api/sql', headers: { 'x-requested-with': 'mcp-triage' }, payload: { sql: q } });
    const lx = (await sql(local, `SELECT source, count(*) AS n, max(line) AS last FROM events WHERE incident_id = '${a}' GROUP BY source ORDER BY source`)).json();
    const ly = await sql(shared, `SELECT source, count() AS n, max(line) AS last FROM events WHERE incident = '${b}' GROUP BY source ORDER BY source`);
    expect(ly.statusCode, ly.body).toBe(200);
    expect(ly.json()).toMatchObject({ columns: lx.columns, rows: lx.rows, truncated: false });
    const capped = (await sql(shared, 'SELECT number FROM system.numbers LIMIT 5000')).json();
    expect(capped).toMatchObject({ columns: ['number'], truncated: true });
    expect(capped.rows).toHaveLength(1000);
    expect(capped.rows[999]).toEqual([999]);
    // Read-only, whatever the text tries: ClickHouse's readonly=1 holds for the query, which cannot lift it.
    for (const q of [
      'INSERT INTO verifications VALUES (1)',
      'DROP TABLE events',
      'SELECT 1 SETTINGS readonly = 0',
      'SELECT 1; DROP TABLE events',
      'SHOW TABLES',
      'SELECT 1 FORMAT TSV',
      'CREATE TABLE x (a Int8) ENGINE = Memory',
    ]) {
      const r = await sql(shared, q);
      expect(r.statusCode, `${q}: ${r.body}`).toBe(400);
      expect(r.json().error.code).toBe('TRIAGE_ERR_USAGE');
      expect(r.json().error.message).not.toMatch(/127\.0\.0\.1|clickhouse:/);
    }
    expect((await sql(shared, `SELECT count() AS n FROM events WHERE incident = '${b}'`)).json().rows[0][0]).toBeGreaterThan(0);
    // ClickHouse itself refuses: the query runs with readonly=1, which no SETTINGS clause can lift.
    expect((await sql(shared, 'SELECT 1 SETTINGS readonly = 0')).json().error.message).toMatch(/readonly mode/);
    const set = (await sql(shared, "SELECT name, value FROM system.settings WHERE name IN ('readonly', 'max_execution_time', 'max_memory_usage') ORDER BY name")).json();
    expect(set.rows).toEqual([
      ['max_execution_time', '5'],
      ['max_memory_usage', String(512 * 1024 * 1024)],
      ['readonly', '1'],
    ]);
    // Bounds: an answer past 8 MiB is 413; a query past the deadline is 400 TRIAGE_ERR_QUERY_TIMEOUT.
    const big = await sql(shared, "SELECT arrayStringConcat(arrayMap(x -> 'xxxxxxxxxx', range(100000))) AS s FROM system.numbers LIMIT 20");
    expect(big.statusCode, big.body.slice(0, 300)).toBe(413);
    expect(big.json()).toMatchObject({ error: { code: 'TRIAGE_ERR_TOO_LARGE', details: { limitBytes: 8 * 1024 * 1024 } } });
    const t0 = Date.now();
    const slow = await sql(shared, 'SELECT count() FROM system.numbers WHERE sipHash64(number) = 1');
    expect(slow.statusCode, slow.body).toBe(400);
    expect(slow.json().error.code).toBe('TRIAGE_ERR_QUERY_TIMEOUT');
    expect(Date.now() - t0).toBeLessThan(8000);

    // Verification: none yet (null), then a probe of a dead port kept with the incident and read back.
    expect((await shared.inject({ url: `/api/incidents/${b}/verify` })).json()).toBeNull();
    const dead = await new Promise<number>((res) => {
      const srv = createServer();
      srv.listen(0, '127.0.0.1', () => {
        const port = (srv.address() as { port: number }).port;
        srv.close(() => res(port));
      });
    });
    const v = await shared.inject({
      method: 'POST',
      url: `/api/incidents/${b}/verify`,
      headers: { 'x-requested-with': 'mcp-triage', 'content-type': 'application/json' },
      payload: { url: `http://127.0.0.1:${dead}/mcp` },
    });
    expect(v.statusCode, v.body).toBe(200);
    expect(v.json()).toMatchObject({ ok: false, failedStep: 'reach' });
    expect((await shared.inject({ url: `/api/incidents/${b}/verify` })).json()).toMatchObject({ ok: false, result: { url: `http://127.0.0.1:${dead}/mcp` } });
    expect((await shared.inject({ url: `/api/incidents/${b}/export.html` })).body).toContain('Verification probe');
  });

  it("shares the embedded app's admission limits: past the read lane's bounds a request is refused with Retry-After", async () => {
    const store = await ClickHouseStore.open(parseStoreUrl(server.url('api'), 'env'));
    const tight = await buildApp({ ctx, shared: store, uploadDir: join(ws.dir, 'up-tight'), limits: { read: { active: 1, queue: 0 } } });
    try {
      const id = (await tight.inject({ method: 'POST', url: '/api/incidents', ...multipart(sampleFiles('restart-stale-session')) })).json().id as string;
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => tight.inject({ url: `/api/incidents/${id}/events?limit=${10 + i}` })));
      const codes = answers.map((r) => r.statusCode);
      expect(codes).toContain(200);
      expect(codes).toContain(429);
      expect(answers.find((r) => r.statusCode === 429)!.headers['retry-after']).toBeDefined();
      // A kept answer: the second analysis at the same version is a cache hit.
      await tight.inject({ url: `/api/incidents/${id}/analysis` });
      expect((await tight.inject({ url: `/api/incidents/${id}/analysis` })).headers['server-timing']).toBe('cache;desc=hit');
      expect((await tight.inject({ url: '/api/health' })).json()).toMatchObject({ ok: true, store: store.target.display });
    } finally {
      await tight.close();
    }
  });

  it('an upload retried with its X-Upload-Id is replayed by any server of the team, once stored', async () => {
    const other = await buildApp({ ctx, shared: await ClickHouseStore.open(parseStoreUrl(server.url('api'), 'env')), uploadDir: join(ws.dir, 'up-other') });
    try {
      const files = sampleFiles('restart-stale-session');
      const send = (app: FastifyInstance, url: string, uploadId: string) => {
        const m = multipart(files);
        return app.inject({ method: 'POST', url, payload: m.payload, headers: { ...m.headers, 'x-upload-id': uploadId } });
      };
      const first = await send(shared, '/api/incidents', 'team-upload-0001');
      expect(first.statusCode, first.body).toBe(201);
      expect(first.headers['x-upload-replayed']).toBeUndefined();
      const before = ((await other.inject({ url: '/api/incidents' })).json() as unknown[]).length;
      const retry = await send(other, '/api/incidents', 'team-upload-0001');
      expect(retry.statusCode, retry.body).toBe(201);
      expect(retry.headers['x-upload-replayed']).toBe('1');
      expect(retry.json()).toEqual(first.json());
      expect(((await other.inject({ url: '/api/incidents' })).json() as unknown[]).length).toBe(before);
      // The same id for another target: 409, naming what it was used for.
      const misuse = await send(other, `/api/incidents/${first.json().id}/files`, 'team-upload-0001');
      expect(misuse.statusCode).toBe(409);
      expect(misuse.json()).toMatchObject({ error: { code: 'TRIAGE_ERR_CONFLICT', details: { incidentId: first.json().id } } });
    } finally {
      await other.close();
    }
  });

  it('a store that went away is a 502 TRIAGE_ERR_STORE naming it, without credentials', async () => {
    const gone = await TestClickHouse.start(1);
    const url = gone.url('gone');
    const store = await ClickHouseStore.open({ ...parseStoreUrl(url, 'env'), user: TEST_USER.user, password: TEST_USER.password });
    const app = await buildApp({ ctx, shared: store, uploadDir: join(ws.dir, 'up-gone') });
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
    const child = spawn(process.execPath, [join(REPO, 'server/cli/bin.mjs'), 'serve', '--port', '0', '--key-file', ws.keyFile], {
      cwd: REPO,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
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
