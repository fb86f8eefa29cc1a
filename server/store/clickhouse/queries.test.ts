// Each read query the shared store runs in ClickHouse gives the embedded DuckDB store's answer, on
// one node and on a two-shard cluster: timeline pages with every filter (offset and keyset
// paging, deep offsets), the text search, counts, the status histogram, sessions and protocol
// versions. Over a synthetic incident (testing/synthetic.ts) and three recorded samples.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestIncident, openContext, type Context } from '../../incidents.ts';
import { entriesFromPaths } from '../../ingest/inputs.ts';
import { REPO, tempWorkspace } from '../../testing/helpers.ts';
import { EventFilters } from '../event-filters.ts';
import { countEvents, queryEvents } from '../events-query.ts';
import { histogram } from '../units.ts';
import { chCountEvents, chHistogram, chQueryEvents } from './events.ts';
import { ClickHouseStore } from './store.ts';
import { parseStoreUrl } from './target.ts';
import { TestClickHouse } from './testing/server.ts';
import { strict } from './testing/strict.ts';
import { STUB_ANALYSIS, writeSynthetic } from './testing/synthetic.ts';

const SYNTHETIC_EVENTS = 26_000;
const SAMPLES = ['restart-stale-session', 'multi-client-one-failing', 'proxy-read-timeout-sse'];

const ws = tempWorkspace();
let ctx: Context;
const topologies: { label: string; server: TestClickHouse; store: ClickHouseStore }[] = [];
/** Incident ids, the same in both stores: the synthetic one, then the samples (embedded id → stored id per topology). */
const incidents: { name: string; local: string; stored: string[] }[] = [];

beforeAll(async () => {
  ctx = await openContext({ env: ws.env, db: ':memory:', keyFile: ws.keyFile });
  for (const shards of [1, 2]) {
    const server = await TestClickHouse.start(shards);
    topologies.push({ label: shards === 1 ? 'one node' : 'two shards', server, store: await ClickHouseStore.open(parseStoreUrl(server.url('queries'), 'env')) });
  }
  const syn = ctx.store.newIncidentId();
  await writeSynthetic(ctx.store, syn, SYNTHETIC_EVENTS);
  for (const t of topologies) await t.store.publish(ctx.store, syn, STUB_ANALYSIS, null);
  incidents.push({ name: 'synthetic', local: syn, stored: topologies.map(() => syn) });
  for (const name of SAMPLES) {
    const entries = () => entriesFromPaths([join(REPO, 'samples', name)]);
    const local = await ingestIncident(strict(ctx), entries(), { name });
    const stored: string[] = [];
    for (const t of topologies) stored.push((await t.store.ingest(ctx, entries(), { name })).id);
    incidents.push({ name, local: local.id, stored });
  }
}, 300_000);

afterAll(async () => {
  for (const t of topologies) {
    await t.store.close();
    await t.server.stop();
  }
  await ctx?.store.close();
  ws.cleanup();
});

/** Values present in the incident, to filter on. */
async function present(id: string) {
  const one = async (sql: string) => (await ctx.store.query<{ v: unknown }>(`${sql} LIMIT 1`, { id }))[0]?.v ?? null;
  const col = (c: string) => one(`SELECT ${c} AS v FROM events WHERE incident_id = $id AND ${c} IS NOT NULL GROUP BY ${c} ORDER BY count(*) DESC, ${c}`);
  return {
    session: (await col('session')) as string | null,
    method: (await col('rpc_method')) as string | null,
    status: (await col('http_status')) as number | null,
    file: (await col('file')) as string | null,
    requestId: (await col('request_id')) as string | null,
    rpcNumber: (await one(`SELECT rpc_id AS v FROM events WHERE incident_id = $id AND rpc_id NOT LIKE '"%' ORDER BY rpc_id`)) as string | null,
    rpcString: (await one(`SELECT json_extract_string(rpc_id, '$') AS v FROM events WHERE incident_id = $id AND rpc_id LIKE '"%' ORDER BY rpc_id`)) as string | null,
    signal: (await one(
      `SELECT s AS v FROM (SELECT unnest(string_split(signals, ' ')) AS s FROM events WHERE incident_id = $id AND signals IS NOT NULL) GROUP BY s ORDER BY count(*) DESC, s`,
    )) as string | null,
    range: (await ctx.store.query<{ lo: bigint; hi: bigint }>('SELECT min(ts) AS lo, max(ts) AS hi FROM events WHERE incident_id = $id', { id }))[0]!,
  };
}

/** Every case on the synthetic incident; on the (small) samples, one of each kind. */
async function filterCases(id: string, all: boolean): Promise<Record<string, unknown>[]> {
  if (!all) {
    const v = await present(id);
    return [
      {},
      { limit: 7, offset: 5 },
      { level: 'warn' },
      { q: 'post' },
      { source: 'proxy' },
      ...(v.session ? [{ session: v.session }] : []),
      ...(v.status !== null ? [{ status: v.status }] : []),
      ...(v.signal ? [{ signal: v.signal }] : []),
    ];
  }
  const v = await present(id);
  const lo = Number(v.range.lo);
  const hi = Number(v.range.hi);
  const mid = Math.floor((lo + hi) / 2);
  const cases: Record<string, unknown>[] = [
    {},
    { limit: 50 },
    { limit: 50, offset: 120 },
    { limit: 500, offset: 20_500 }, // deep: DuckDB finds the first key from a histogram
    { limit: 10, offset: 1_000_000 },
    { source: 'proxy' },
    { source: 'client', level: 'warn' },
    { level: 'error', limit: 100 },
    { from: mid },
    { to: mid, limit: 200 },
    { from: lo + 1000, to: mid, source: 'server' },
    { q: 'session not found' },
    { q: 'POST', limit: 100, offset: 30 },
    { q: 'ÜBER' },
    { q: 'straße' },
    { q: "it's" },
    { q: 'back\\slash' },
    { q: '100%' },
    { q: 'snake_c' },
    { q: 'σίσυφος' },
    { q: '😀' },
    { q: 'zzz-never-there' },
    { q: 'status=404', source: 'proxy', limit: 20 },
  ];
  if (v.session) cases.push({ session: v.session }, { session: v.session, q: 'post', limit: 40 });
  if (v.method) cases.push({ method: v.method, limit: 300 });
  if (v.status !== null) cases.push({ status: v.status }, { status: v.status, offset: 3, limit: 5 });
  if (v.file) cases.push({ file: v.file, limit: 100, offset: 10 });
  if (v.requestId) cases.push({ requestId: v.requestId });
  if (v.rpcNumber) cases.push({ rpcId: v.rpcNumber });
  if (v.rpcString) cases.push({ rpcId: v.rpcString });
  if (v.signal) cases.push({ signal: v.signal }, { signal: v.signal, level: 'info', limit: 30 });
  cases.push({ signal: 'session-not' }); // a prefix of an id is not the id
  cases.push({ session: "sess_'; DROP TABLE events; --" }, { file: 'a\\b\u0000c' });
  return cases;
}

describe.each([0, 1])('ClickHouse reads = DuckDB reads (%#: one node, two shards)', (t) => {
  it.each([0, 1, 2, 3])('timeline pages with filters and text search (incident %#)', async (k) => {
    const inc = incidents[k]!;
    const { store, label } = topologies[t]!;
    for (const c of await filterCases(inc.local, k === 0)) {
      const f = EventFilters.parse(c);
      const want = await queryEvents(ctx.store, inc.local, f);
      const got = await chQueryEvents(store, inc.stored[t]!, f);
      const what = `${label} ${inc.name} ${JSON.stringify(c)}`;
      expect(got.total, what).toBe(want.total);
      expect(got.next, what).toBe(want.next);
      expect(got.rows, what).toEqual(want.rows.toArray());
      expect(await chCountEvents(store, inc.stored[t]!, f), what).toBe(await countEvents(ctx.store, inc.local, f));
    }
  });

  it('keyset paging: every page by its cursor, NULL times last', async () => {
    const inc = incidents[0]!;
    const { store, label } = topologies[t]!;
    for (const base of [{}, { q: 'post' }, { source: 'client' }]) {
      let after: string | undefined;
      let pages = 0;
      for (;;) {
        const f = EventFilters.parse({ ...base, limit: 1500, ...(after ? { after } : {}) });
        const want = await queryEvents(ctx.store, inc.local, f);
        const got = await chQueryEvents(store, inc.stored[t]!, f);
        expect(got.rows, `${label} ${JSON.stringify(base)} page ${pages}`).toEqual(want.rows.toArray());
        expect(got.next).toBe(want.next);
        pages++;
        if (!want.next) break;
        after = want.next;
      }
      expect(pages).toBeGreaterThan(1);
    }
    // A cursor inside the events without a time.
    const [untimed] = await ctx.store.query<{ seq: bigint }>('SELECT seq FROM events WHERE incident_id = $id AND ts IS NULL ORDER BY seq LIMIT 1 OFFSET 3', { id: inc.local });
    const f = EventFilters.parse({ after: `null,${untimed!.seq}`, limit: 100 });
    expect((await chQueryEvents(store, inc.stored[t]!, f)).rows).toEqual((await queryEvents(ctx.store, inc.local, f)).rows.toArray());
  });

  it('histogram, sessions and protocol versions', async () => {
    const { store, label } = topologies[t]!;
    for (const [k, inc] of incidents.entries()) {
      for (const buckets of [1, 13, 200]) {
        expect(await chHistogram(store, inc.stored[t]!, buckets), `${label} ${inc.name} ${buckets}`).toEqual(await histogram(ctx.store, inc.local, buckets));
      }
      expect(await store.sessionStats(inc.stored[t]!), `${label} ${inc.name}`).toEqual(await ctx.store.sessionStats(inc.local));
      expect(await store.protocolVersions(inc.stored[t]!), `${label} ${inc.name}`).toEqual(await ctx.store.protocolVersions(inc.local));
      if (k === 0) expect((await store.sessionStats(inc.stored[t]!)).length).toBeGreaterThan(3);
    }
  });

  it('what the report reads: evidence lines, the head of each file, redaction counts, files', async () => {
    const { store, label } = topologies[t]!;
    for (const inc of incidents) {
      const refs = (
        await ctx.store.query<{ file: string; line: number }>('SELECT file, line FROM events WHERE incident_id = $id ORDER BY seq DESC LIMIT 40', { id: inc.local })
      ).map((r) => ({ file: r.file, line: Number(r.line) }));
      expect(await store.eventsAt(inc.stored[t]!, refs), `${label} ${inc.name}`).toEqual(await ctx.store.eventsAt(inc.local, refs));
      expect(await store.headEvents(inc.stored[t]!), `${label} ${inc.name}`).toEqual(await ctx.store.headEvents(inc.local));
      expect(await store.redactionCounts(inc.stored[t]!)).toEqual(await ctx.store.redactionCounts(inc.local));
      expect(await store.files(inc.stored[t]!)).toEqual(await ctx.store.files(inc.local));
    }
  });
});
