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
    for (const sql of ['DELETE FROM events', 'DROP TABLE events', "ATTACH '/tmp/x.db'", "COPY events TO '/tmp/x.csv'", 'SELECT 1; SELECT 2', 'PRAGMA version', "SET enable_external_access = true", '']) {
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
  it('needs the CSRF header like every POST', async () => {
    expect((await post('SELECT 1', {})).statusCode).toBe(403);
  });
});
