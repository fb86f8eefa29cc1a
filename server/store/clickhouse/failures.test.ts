// Failures across incidents (issue #20 item 4): the shared store's query, run in ClickHouse, gives
// the embedded store's answer for every filter, on one node and on two shards; only each incident's
// current analysis counts (files added later replace it), deleted incidents drop out; and the CLI
// (`mcp-triage failures`) and `GET /api/failures` give the same document on both stores.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FailureFilters, type FailuresAnswer } from '../../contract/failures.ts';
import { buildApp } from '../../http/app.ts';
import { ingestIncident, openContext, type Context } from '../../incidents.ts';
import { entriesFromPaths } from '../../ingest/inputs.ts';
import { REPO, tempWorkspace } from '../../testing/helpers.ts';
import { failuresAcross } from '../failures.ts';
import { chFailuresAcross } from './failures.ts';
import { ClickHouseStore } from './store.ts';
import { parseStoreUrl } from './target.ts';
import { cli } from './testing/cli.ts';
import { TestClickHouse } from './testing/server.ts';
import { strict } from './testing/strict.ts';

const SAMPLES = [
  'restart-stale-session',
  'wrong-path',
  'proxy-read-timeout-sse',
  'multi-client-one-failing',
  'killed-mid-response-write-committed',
  'session-deleted-then-reused',
  'upstream-down',
  'healthy-control',
];
const dir = (name: string) => join(REPO, 'samples', name);

const ws = tempWorkspace();
let ctx: Context;
const stores: { label: string; server: TestClickHouse; store: ClickHouseStore; url: string; since: number }[] = [];
let localSince = 0;

beforeAll(async () => {
  ctx = strict(await openContext({ env: ws.env, db: join(ws.dir, 'failures.duckdb'), keyFile: ws.keyFile }));
  for (const shards of [1, 2]) {
    const server = await TestClickHouse.start(shards);
    const url = server.url('failures');
    stores.push({ label: shards === 1 ? 'one node' : 'two shards', server, url, store: await ClickHouseStore.open(parseStoreUrl(url, 'env')), since: 0 });
  }
  // The same incidents in each store, in the same order; `since` falls after the first four.
  for (const [i, name] of SAMPLES.entries()) {
    if (i === 4) {
      await new Promise((r) => setTimeout(r, 5));
      localSince = Date.now();
      for (const s of stores) s.since = localSince;
      await new Promise((r) => setTimeout(r, 5));
    }
    await ingestIncident(ctx, entriesFromPaths([dir(name)]), { name });
    for (const s of stores) await s.store.ingest(ctx, entriesFromPaths([dir(name)]), { name });
  }
  // An incident whose files came in two ingests: only its current analysis counts.
  const two = ['client.log', 'server.log'].map((f) => join(dir('restart-stale-session'), f));
  const rest = ['nginx-access.log', 'nginx-access.json.log', 'nginx-error.log'].map((f) => join(dir('restart-stale-session'), f));
  const a = await ingestIncident(ctx, entriesFromPaths(two), { name: 'in two parts' });
  await ingestIncident(ctx, entriesFromPaths(rest), { id: a.id, name: 'in two parts' });
  for (const s of stores) {
    const b = await s.store.ingest(ctx, entriesFromPaths(two), { name: 'in two parts' });
    await s.store.ingest(ctx, entriesFromPaths(rest), { id: b.id, name: 'in two parts' });
  }
  // A deleted incident: gone from the answer.
  const gone = await ingestIncident(ctx, entriesFromPaths([dir('wrong-path')]), { name: 'deleted' });
  await ctx.store.deleteIncident(gone.id);
  for (const s of stores) {
    const g = await s.store.ingest(ctx, entriesFromPaths([dir('wrong-path')]), { name: 'deleted' });
    await s.store.deleteIncident(g.id);
  }
}, 300_000);

afterAll(async () => {
  for (const s of stores) {
    await s.store.close();
    await s.server.stop();
  }
  await ctx?.store.close();
  ws.cleanup();
});

/** Incident ids differ between stores: compare by name (unique here), and times by order alone. */
const comparable = (a: FailuresAnswer) => ({ truncated: a.truncated, failures: a.failures.map((r) => ({ name: r.name, index: r.index, failure: r.failure })) });

const CASES: Record<string, unknown>[] = [
  {},
  { decision: 'reinitialize' },
  { decision: 'fix_route_or_config', limit: 2 },
  { rule: 'session-expired-404' },
  { signal: 'http-404' },
  { signal: 'session-not-found', role: 'primary' },
  { role: 'consequence' },
  { decision: 'no_action' },
  { rule: 'no-such-rule' },
  { limit: 3 },
];

describe.each([0, 1])('failures across incidents: ClickHouse = DuckDB (%#: one node, two shards)', (t) => {
  it('every filter', async () => {
    const { store, label } = stores[t]!;
    const all = await failuresAcross(ctx.store, FailureFilters.parse({}));
    expect(all.failures.length).toBeGreaterThan(10);
    expect(all.failures.some((r) => r.name === 'deleted')).toBe(false);
    for (const c of CASES) {
      const q = FailureFilters.parse(c);
      expect(comparable(await chFailuresAcross(store, q)), `${label} ${JSON.stringify(c)}`).toEqual(comparable(await failuresAcross(ctx.store, q)));
    }
    // Since: the incidents stored after the fourth.
    const want = await failuresAcross(ctx.store, FailureFilters.parse({ since: String(localSince) }));
    const got = await chFailuresAcross(store, FailureFilters.parse({ since: String(stores[t]!.since) }));
    expect(comparable(got)).toEqual(comparable(want));
    expect(new Set(got.failures.map((r) => r.name))).not.toContain(SAMPLES[0]);
    // Files added later: the incident's failures are those of its current analysis, once.
    const parts = got.failures.filter((r) => r.name === 'in two parts');
    expect(parts.map((r) => r.index)).toEqual([...parts.keys()]);
  });
});

describe('mcp-triage failures and GET /api/failures', () => {
  it('give the same document on both stores', async () => {
    const args = ['failures', '--decision', 'reinitialize', '--since', '1h', '--json'];
    // The embedded CLI over a database of its own (this file's is open in this process).
    const db = join(ws.dir, 'cli.duckdb');
    expect((await cli(['analyze', dir('restart-stale-session'), '--db', db, '--strict', '--key-file', ws.keyFile], ws.env)).code).toBe(0);
    const own = await cli([...args, '--db', db], ws.env);
    expect(own.code, own.stderr).toBe(0);
    expect((JSON.parse(own.stdout) as FailuresAnswer).failures.map((r) => [r.name, r.failure.rule])).toEqual([['restart-stale-session', 'session-expired-404']]);
    const app = await buildApp({ ctx, uploadDir: join(ws.dir, 'up') });
    const shared = await buildApp({ ctx, shared: stores[1]!.store, uploadDir: join(ws.dir, 'up2') });
    try {
      const [x, y] = await Promise.all([
        app.inject({ url: '/api/failures?decision=reinitialize&since=1h' }),
        shared.inject({ url: '/api/failures?decision=reinitialize&since=1h' }),
      ]);
      expect(x.statusCode).toBe(200);
      expect(y.statusCode).toBe(200);
      expect(comparable(y.json())).toEqual(comparable(x.json()));
      const viaCli = await cli([...args, '--store', stores[1]!.url], ws.env);
      expect(viaCli.code, viaCli.stderr).toBe(0);
      expect(JSON.parse(viaCli.stdout)).toEqual(y.json());
      const bad = await app.inject({ url: '/api/failures?decision=panic' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ error: { code: 'TRIAGE_ERR_USAGE' } });
      expect((await cli(['failures', '--since', 'last week'], ws.env)).stderr).toMatch(/--since: expected 7d/);
    } finally {
      await shared.close();
      await app.close();
    }
  });
});
