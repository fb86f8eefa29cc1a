// Tests: an in-memory incident context over a temp workspace, opened before and closed after the file's tests.
import { afterAll, beforeAll } from 'vitest';
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
