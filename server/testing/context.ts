// Tests: an in-memory incident context over a temp workspace, opened before and closed after the file's tests.
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp, type AppOptions } from '../http/app.ts';
import { openContext, type Context } from '../incidents.ts';
import type { tempWorkspace } from './helpers.ts';

export function withMemoryContext(ws: ReturnType<typeof tempWorkspace>, set: (ctx: Context) => void): void {
  let ctx: Context | null = null;
  beforeAll(async () => {
    ctx = await openContext({ env: ws.env, db: ':memory:', keyFile: ws.keyFile });
    set(ctx);
  });
  afterAll(async () => {
    await ctx?.store.close();
    ws.cleanup();
  });
}

/** Tests: a context over the DuckDB file `db` in the workspace and the HTTP app over it, built before the file's tests and closed after. */
export function withHttpApp(ws: ReturnType<typeof tempWorkspace>, db: string, opts: Omit<AppOptions, 'ctx'>, set: (h: { ctx: Context; app: FastifyInstance }) => void): void {
  let h: { ctx: Context; app: FastifyInstance } | null = null;
  beforeAll(async () => {
    const ctx = await openContext({ env: ws.env, db: join(ws.dir, db), keyFile: ws.keyFile });
    h = { ctx, app: await buildApp({ ctx, ...opts }) };
    set(h);
  });
  afterAll(async () => {
    await h?.app.close();
    await h?.ctx.store.close();
    ws.cleanup();
  });
}
