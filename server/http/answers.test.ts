// Answers cached per incident version (answers.ts): computed once per version, shared while being
// computed, computed afresh after any write to the incident (files added, analysis, delete), and
// never kept when they failed.
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { withHttpApp } from '../testing/context.ts';
import { multipart, sampleFiles, tempWorkspace } from '../testing/helpers.ts';
import type { Context } from '../incidents.ts';
import type { Store } from '../store/store.ts';
import { AnswerCache } from './answers.ts';

let app: FastifyInstance;
let ctx: Context;
withHttpApp(tempWorkspace(), 'answers.duckdb', {}, (h) => ((app = h.app), (ctx = h.ctx)));

const hit = (r: { headers: Record<string, unknown> }) => String(r.headers['server-timing'] ?? '').includes('cache;desc=hit');

describe('answers cached per incident version', () => {
  it('serves the analysis, report and histogram again from the cache, and afresh after the incident changes', async () => {
    const up = multipart(sampleFiles('restart-stale-session').slice(0, 2));
    const created = await app.inject({ method: 'POST', url: '/api/incidents', payload: up.payload, headers: up.headers });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const v0 = ctx.store.version(id);
    const urls = [
      `/api/incidents/${id}/analysis`,
      `/api/incidents/${id}/report`,
      `/api/incidents/${id}/report?format=json`,
      `/api/incidents/${id}/histogram?buckets=30`,
      `/api/incidents/${id}`,
      '/api/incidents',
    ];
    const first = await Promise.all(urls.map((url) => app.inject({ method: 'GET', url })));
    for (const r of first) expect(r.statusCode, r.body).toBe(200);
    const again = await Promise.all(urls.map((url) => app.inject({ method: 'GET', url })));
    for (const [i, r] of again.entries()) {
      expect(hit(r), urls[i]).toBe(true);
      expect(r.body).toBe(first[i]!.body);
      expect(r.headers['content-type']).toBe(first[i]!.headers['content-type']);
    }

    // More files: a new version; every answer is computed again and says so.
    const more = multipart(sampleFiles('restart-stale-session').slice(2));
    const added = await app.inject({ method: 'POST', url: `/api/incidents/${id}/files`, payload: more.payload, headers: more.headers });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().added).toBeGreaterThan(0);
    expect(ctx.store.version(id)).toBeGreaterThan(v0);
    const after = await Promise.all(urls.map((url) => app.inject({ method: 'GET', url })));
    for (const [i, r] of after.entries()) {
      expect(r.statusCode).toBe(200);
      expect(hit(r), urls[i]).toBe(false);
    }
    expect(after[0]!.json().inputs.length).toBeGreaterThan(first[0]!.json().inputs.length);
    expect(after[4]!.json().files).toBeGreaterThan(first[4]!.json().files);

    // Deleted: gone from the list and 404 everywhere, not served from the cache.
    expect((await app.inject({ method: 'DELETE', url: `/api/incidents/${id}`, headers: { 'x-requested-with': 'mcp-triage' } })).statusCode).toBe(204);
    for (const url of urls.slice(0, 5)) expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/api/incidents' })).json().some((r: { id: string }) => r.id === id)).toBe(false);
  });

  it('versions move on every committed write to the incident, and only its own', async () => {
    const a = (await app.inject({ method: 'POST', url: '/api/incidents', ...mp('restart-stale-session') })).json().id as string;
    const b = (await app.inject({ method: 'POST', url: '/api/incidents', ...mp('restart-stale-session') })).json().id as string;
    const va = ctx.store.version(a);
    const vb = ctx.store.version(b);
    const all = ctx.store.version();
    const analysis = (await ctx.store.analysis(a))!;
    await ctx.store.setAnalysis(a, analysis);
    expect(ctx.store.version(a)).toBe(va + 1);
    await ctx.store.setToolPolicy(a, { tools: {} });
    expect(ctx.store.version(a)).toBe(va + 2);
    expect(ctx.store.version(b)).toBe(vb);
    expect(ctx.store.version()).toBe(all + 2);
  });
});

function mp(sample: string) {
  const m = multipart(sampleFiles(sample));
  return { payload: m.payload, headers: m.headers };
}

describe('AnswerCache', () => {
  const fakeStore = (v: { n: number }) => ({ version: () => v.n }) as unknown as Store;

  it('computes a missing answer once for everyone asking at the same time', async () => {
    const cache = new AnswerCache(fakeStore({ n: 1 }));
    let calls = 0;
    const key = await cache.key('k', 'inc_x');
    const answers = await Promise.all(Array.from({ length: 5 }, () => cache.get(key, async () => (calls++, await new Promise((r) => setTimeout(r, 10)), 'v'))));
    expect(answers).toEqual(['v', 'v', 'v', 'v', 'v']);
    expect(calls).toBe(1);
  });

  it('keys on the version: a new version misses', async () => {
    const v = { n: 1 };
    const cache = new AnswerCache(fakeStore(v));
    await cache.get(await cache.key('k', 'inc_x'), async () => 'old');
    expect(cache.peek(await cache.key('k', 'inc_x'))).toBeDefined();
    v.n = 2;
    expect(cache.peek(await cache.key('k', 'inc_x'))).toBeUndefined();
    expect(await cache.get(await cache.key('k', 'inc_x'), async () => 'new')).toBe('new');
  });

  it('does not keep a failure', async () => {
    const cache = new AnswerCache(fakeStore({ n: 1 }));
    const key = await cache.key('k', 'inc_x');
    await expect(cache.get(key, async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await Promise.resolve();
    expect(await cache.get(key, async () => 'yes')).toBe('yes');
  });

  it('stays within its entry and byte bounds, least recently used out first', async () => {
    const cache = new AnswerCache(fakeStore({ n: 1 }), 3, 1000);
    for (const k of ['a', 'b', 'c']) await cache.get(await cache.key(k, null), async () => k);
    cache.peek(await cache.key('a', null)); // a is now the most recent
    await cache.get(await cache.key('d', null), async () => 'd');
    await Promise.resolve();
    expect(cache.size.entries).toBe(3);
    expect(cache.peek(await cache.key('b', null))).toBeUndefined();
    expect(cache.peek(await cache.key('a', null))).toBeDefined();
    // Too large to keep (over a quarter of the bytes): served, not kept.
    expect(await cache.get(await cache.key('big', null), async () => 'x'.repeat(200))).toHaveLength(200);
    await Promise.resolve();
    expect(cache.peek(await cache.key('big', null))).toBeUndefined();
    expect(cache.size.bytes).toBeLessThanOrEqual(1000);
  });
});
