// The SQL console: one SELECT, read-only, capped, time-limited, no file access.
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestIncident, openContext, type Context } from '../incidents.ts';
import { entriesFromPaths } from '../ingest/inputs.ts';
import { runReadOnlySql } from '../store/sql-console.ts';
import { REPO, tempWorkspace } from '../testing/helpers.ts';
import { buildApp } from './app.ts';

const ws = tempWorkspace();
let ctx: Context;
let app: FastifyInstance;
beforeAll(async () => {
  ctx = await openContext({ env: ws.env, db: join(ws.dir, 'sql.duckdb'), keyFile: ws.keyFile });
  await ingestIncident(ctx, entriesFromPaths([join(REPO, 'samples', 'restart-stale-session')]), { name: 'sql' });
  app = await buildApp({ ctx });
});
afterAll(async () => {
  await app.close();
  await ctx.store.close();
  ws.cleanup();
});

const post = (sql: string, headers: Record<string, string> = { 'x-requested-with': 'mcp-triage' }) => app.inject({ method: 'POST', url: '/api/sql', payload: { sql }, headers });

describe('SQL console', () => {
  it('answers a SELECT with columns and rows', async () => {
    const r = await post('SELECT source, count(*) AS n FROM events GROUP BY source ORDER BY source');
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body.columns).toEqual(['source', 'n']);
    expect(body.rows.map((x: unknown[]) => x[0])).toEqual(['client', 'proxy', 'server']);
  });
  it('caps rows and says so', async () => {
    const r = await runReadOnlySql(ctx.store, 'SELECT * FROM range(5000)', { rowCap: 100 });
    expect(r.rows).toHaveLength(100);
    expect(r.truncated).toBe(true);
  });
  it('refuses anything but one SELECT', async () => {
    for (const sql of [
      'DELETE FROM events',
      'DROP TABLE events',
      "ATTACH '/tmp/x.db'",
      "COPY events TO '/tmp/x.csv'",
      'SELECT 1; SELECT 2',
      'PRAGMA version',
      'SET enable_external_access = true',
      '',
    ]) {
      const r = await post(sql);
      expect(r.statusCode, sql).toBe(400);
      expect(r.json().error.code).toBe('TRIAGE_ERR_USAGE');
    }
    const [{ n }] = await ctx.store.query<{ n: bigint }>('SELECT count(*) AS n FROM events');
    expect(Number(n)).toBeGreaterThan(0);
  });
  it('cannot read files or the network', async () => {
    for (const sql of ["SELECT * FROM read_csv('/etc/passwd')", "SELECT * FROM read_text('/etc/hostname')", "SELECT * FROM glob('/etc/*')"]) {
      const r = await post(sql);
      expect(r.statusCode, sql).toBe(400);
      expect(r.json().error.message).toMatch(/disabled|Permission|not.*(allowed|exist)/i);
    }
  });
  it('stops a runaway query at the time limit', async () => {
    await expect(runReadOnlySql(ctx.store, 'SELECT count(*) FROM range(10000000000) a', { timeLimitMs: 300 })).rejects.toThrow(/stopped after 300 ms/);
  });
  it('counts the deadline from the arrival of the request: time already spent (a wait for a slot) is part of it', async () => {
    const e = await runReadOnlySql(ctx.store, 'SELECT count(*) FROM range(10000000000) a', { timeLimitMs: 60_000, startedAt: performance.now() - 59_950 }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'TRIAGE_ERR_QUERY_TIMEOUT', status: 400, details: { limitMs: 60_000 } });
    await expect(runReadOnlySql(ctx.store, 'SELECT 1', { timeLimitMs: 100, startedAt: performance.now() - 200 })).rejects.toMatchObject({ code: 'TRIAGE_ERR_QUERY_TIMEOUT' });
  });
  it('refuses an answer past its size cap with 413 in the error shape, before its rows become JS values', async () => {
    // Many rows that add up: the rows that fit are counted in the details.
    const many = await runReadOnlySql(ctx.store, "SELECT repeat('x', 1000) AS s FROM range(100)", { maxBytes: 10_000 }).catch((x: unknown) => x);
    expect(many).toMatchObject({ code: 'TRIAGE_ERR_TOO_LARGE', status: 413, details: { limitBytes: 10_000, rowsBeforeLimit: 9 } });
    // One giant value (the 300 MB answer of issue #20 in small): never read into JS.
    const big = await post("SELECT repeat('x', 9 * 1024 * 1024) AS s");
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toMatchObject({
      code: 'TRIAGE_ERR_TOO_LARGE',
      message: expect.stringMatching(/answer too large: over the console's 8\.0 MiB limit after 0 row/),
      details: { rowsBeforeLimit: 0 },
    });
    expect(big.body.length).toBeLessThan(2000);
    // Under the cap: answered, the row cap still applies and is said.
    const ok = await runReadOnlySql(ctx.store, "SELECT repeat('x', 1000) AS s FROM range(100)", { maxBytes: 200_000, rowCap: 50 });
    expect(ok.rows).toHaveLength(50);
    expect(ok.truncated).toBe(true);
    expect(ok.columns).toEqual(['s']);
  });
  it('keeps column names and values as before (the size column is not shown)', async () => {
    const r = await runReadOnlySql(ctx.store, "SELECT 1 AS a, 'x' AS a, [1, 2] AS l, {'k': 2} AS s, 12345678901234567890::HUGEINT AS h, NULL AS n");
    expect(r.columns).toEqual(['a', 'a_1', 'l', 's', 'h', 'n']);
    expect(r.rows).toEqual([[1, 'x', [1, 2], { k: 2 }, '12345678901234567890', null]]);
    expect(r.truncated).toBe(false);
  });
  it('answers a query past the deadline over HTTP with 400 TRIAGE_ERR_QUERY_TIMEOUT', async () => {
    const quick = await buildApp({ ctx, sqlConsole: { timeLimitMs: 200 } });
    try {
      const r = await quick.inject({
        method: 'POST',
        url: '/api/sql',
        payload: { sql: 'SELECT count(*) FROM range(10000000000) a' },
        headers: { 'x-requested-with': 'mcp-triage' },
      });
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toMatchObject({ code: 'TRIAGE_ERR_QUERY_TIMEOUT', message: expect.stringMatching(/stopped after 200 ms/), details: { limitMs: 200 } });
    } finally {
      await quick.close();
    }
  });
  it('needs the CSRF header like every POST', async () => {
    expect((await post('SELECT 1', {})).statusCode).toBe(403);
  });
});
