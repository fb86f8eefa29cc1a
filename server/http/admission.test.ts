// Admission (admission.ts): a bounded number of requests run at once, a bounded line waits for
// them, and past either bound the answer is 429 / 503 with Retry-After, in the contract's error
// shape — never an unbounded wait. Not timed: the waits are set tiny and the slots held by hand.
import { EventEmitter } from 'node:events';
import type { FastifyInstance } from 'fastify';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TriageError } from '../errors.ts';
import { ingestIncident, openContext, type Context } from '../incidents.ts';
import { entriesFromPaths } from '../ingest/inputs.ts';
import { REPO, tempWorkspace } from '../testing/helpers.ts';
import { ClientGone, Lane } from './admission.ts';
import { buildApp } from './app.ts';

/** A reply as a lane sees it, outside a request. */
function fakeReply() {
  const headers: Record<string, string> = {};
  return { headers, header: (k: string, v: string) => (headers[k] = v), raw: new EventEmitter() };
}

function gate() {
  let open!: () => void;
  const p = new Promise<void>((r) => (open = r));
  return { p, open };
}

describe('a lane', () => {
  it('runs up to `active` at once, lines up `queue` more, refuses the next with 429 and Retry-After', async () => {
    const lane = new Lane('test', { active: 1, queue: 1, waitMs: 10_000 });
    const g = gate();
    const r1 = fakeReply();
    const first = lane.run(r1, () => g.p.then(() => 'first'));
    const r2 = fakeReply();
    const second = lane.run(r2, async () => 'second');
    expect(lane.stats).toEqual({ running: 1, waiting: 1 });
    const r3 = fakeReply();
    const third = lane.run(r3, async () => 'third');
    await expect(third).rejects.toMatchObject({ code: 'TRIAGE_ERR_TOO_MANY_REQUESTS', status: 429 });
    expect(Number(r3.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    g.open();
    expect(await first).toBe('first');
    expect(await second).toBe('second');
    expect(r1.headers['Server-Timing']).toMatch(/^queue;dur=[\d.]+$/);
    expect(r2.headers['Server-Timing']).toMatch(/^queue;dur=[\d.]+$/);
    expect(lane.stats).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses with 503 and Retry-After a request that waited its longest', async () => {
    const lane = new Lane('test', { active: 1, queue: 8, waitMs: 30 });
    const g = gate();
    const first = lane.run(fakeReply(), () => g.p);
    const r = fakeReply();
    const e = await lane.run(r, async () => 'never').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TriageError);
    expect(e).toMatchObject({ code: 'TRIAGE_ERR_OVERLOADED', status: 503, details: { lane: 'test', waitedMs: 30 } });
    expect(Number(r.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect(lane.stats.waiting).toBe(0);
    g.open();
    await first;
  });

  it('never starts a request that waited past its bound, even when its timer has not run yet', async () => {
    const lane = new Lane('test', { active: 1, queue: 8, waitMs: 20 });
    const g = gate();
    const first = lane.run(fakeReply(), () => g.p);
    const r = fakeReply();
    let ran = false;
    const late = lane
      .run(r, async () => {
        ran = true;
      })
      .catch((e: unknown) => e);
    // Block the event loop past the bound, then free the slot before the timer gets to run.
    const until = performance.now() + 40;
    while (performance.now() < until);
    g.open();
    await first;
    expect(await late).toMatchObject({ code: 'TRIAGE_ERR_OVERLOADED' });
    expect(ran).toBe(false);
    expect(lane.stats).toEqual({ running: 0, waiting: 0 });
  });

  it('drops a waiting request whose client left, without running it', async () => {
    const lane = new Lane('test', { active: 1, queue: 8, waitMs: 10_000 });
    const g = gate();
    const first = lane.run(fakeReply(), () => g.p);
    const r = fakeReply();
    let ran = false;
    const waiting = lane.run(r, async () => {
      ran = true;
    });
    r.raw.emit('close');
    await expect(waiting).rejects.toBeInstanceOf(ClientGone);
    expect(lane.stats).toEqual({ running: 1, waiting: 0 });
    g.open();
    await first;
    expect(ran).toBe(false);
    expect(lane.stats.running).toBe(0);
  });

  it('gives the slot back when the work fails', async () => {
    const lane = new Lane('test', { active: 1, queue: 0, waitMs: 0 });
    await expect(lane.run(fakeReply(), async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await lane.run(fakeReply(), async () => 'next')).toBe('next');
  });
});

describe('HTTP: reads past the bounds', () => {
  const ws = tempWorkspace();
  let ctx: Context;
  let app: FastifyInstance;
  let id: string;
  beforeAll(async () => {
    ctx = await openContext({ env: ws.env, db: join(ws.dir, 'admission.duckdb'), keyFile: ws.keyFile });
    ({ id } = await ingestIncident(ctx, entriesFromPaths([join(REPO, 'samples', 'restart-stale-session')]), { name: 'admission' }));
    app = await buildApp({ ctx, limits: { read: { active: 1, queue: 1, waitMs: 50 }, sql: { active: 1, queue: 0, waitMs: 50 } } });
  });
  afterAll(async () => {
    await app.close();
    await ctx.store.close();
    ws.cleanup();
  });

  it('answers 429, then 503, with Retry-After and the error shape, while every slot is taken', async () => {
    // Hold the only read slot: an events page whose store work waits on a gate.
    const g = gate();
    const original = ctx.store.reader.bind(ctx.store);
    let held = false;
    ctx.store.reader = async () => {
      if (!held) {
        held = true;
        await g.p;
      }
      return original();
    };
    try {
      const slow = app.inject({ method: 'GET', url: `/api/incidents/${id}/events?limit=5` });
      await new Promise((r) => setTimeout(r, 20));
      // One waits (the line holds 1) and runs out of time: 503. The next finds the line full: 429.
      const waiting = app.inject({ method: 'GET', url: `/api/incidents/${id}/events?limit=5&offset=1` });
      await new Promise((r) => setTimeout(r, 5));
      const full = await app.inject({ method: 'GET', url: `/api/incidents/${id}/events/count` });
      expect(full.statusCode).toBe(429);
      expect(full.json().error).toMatchObject({ code: 'TRIAGE_ERR_TOO_MANY_REQUESTS', message: expect.stringMatching(/too many requests waiting/) });
      expect(Number(full.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      const late = await waiting;
      expect(late.statusCode).toBe(503);
      expect(late.json().error).toMatchObject({ code: 'TRIAGE_ERR_OVERLOADED', details: { waitedMs: 50 } });
      expect(Number(late.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      g.open();
      const done = await slow;
      expect(done.statusCode).toBe(200);
      expect(String(done.headers['server-timing'])).toMatch(/^queue;dur=/);
    } finally {
      g.open();
      ctx.store.reader = original;
    }
    // Cheap routes never queue.
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    // The slot is free again.
    expect((await app.inject({ method: 'GET', url: `/api/incidents/${id}/events?limit=5` })).statusCode).toBe(200);
  });
});
