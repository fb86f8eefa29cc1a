// `npm run bench -- --cluster [--events 10000000] [--size MiB] [--runs N]` (issue #20): the shared
// store at team scale, beside the embedded one. Never part of `npm test`.
//
//  1. A generated corpus (corpus.ts, --size MiB, default 64) is ingested through the real pipeline
//     into a 2-shard ClickHouse cluster (Debian's clickhouse-server, started on free ports by
//     store/clickhouse/testing/server.ts and stopped at the end) and into an embedded DuckDB file.
//  2. The stored incident is copied, as new incidents (every table, ids renamed: INSERT … SELECT in
//     each store), until each store holds --events events (default 10 M) spread over the shards.
//  3. Timed, median of --runs (default 5): failures across every incident (GET /api/failures:
//     --since 7d, and one decision), and filtered timeline pages of one incident (source+status,
//     level, a text search's page, a deep page).
// Prints a Markdown table. Timings are printed, never asserted.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadFormats } from '../../parsers/engine/registry.ts';
import { FailureFilters } from '../contract/failures.ts';
import { ingestIncident, openContext } from '../incidents.ts';
import { entriesFromPaths } from '../ingest/inputs.ts';
import { chQueryEvents, chQueryEventsPage } from '../store/clickhouse/events.ts';
import { chFailuresAcross } from '../store/clickhouse/failures.ts';
import { TABLES, type TableName } from '../store/clickhouse/schema.ts';
import { str } from '../store/clickhouse/sql.ts';
import { ClickHouseStore } from '../store/clickhouse/store.ts';
import { parseStoreUrl } from '../store/clickhouse/target.ts';
import { TestClickHouse } from '../store/clickhouse/testing/server.ts';
import { EventFilters, queryEvents, queryEventsPage } from '../store/events-query.ts';
import { failuresAcross } from '../store/failures.ts';
import type { Store } from '../store/store.ts';
import { loadOrCreateKey } from '../workspace.ts';
import { generateCorpus } from './corpus.ts';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : dflt;
};
const target = Number(arg('events', '10000000'));
const sizeMiB = Number(arg('size', '64'));
const runs = Number(arg('runs', '5'));
const log = (s: string) => process.stderr.write(`${s}\n`);

async function clock<T>(fn: () => Promise<T>): Promise<{ ms: number; r: T }> {
  const t0 = performance.now();
  const r = await fn();
  return { ms: performance.now() - t0, r };
}

async function median<T>(fn: () => Promise<T>): Promise<{ ms: number; r: T }> {
  const times: number[] = [];
  let r!: T;
  await fn(); // warm-up, not counted
  for (let i = 0; i < runs; i++) {
    const c = await clock(fn);
    times.push(c.ms);
    r = c.r;
  }
  times.sort((a, b) => a - b);
  return { ms: times[times.length >> 1]!, r };
}

/** Column names of a shared-store table (from schema.ts). */
function columns(t: TableName): string[] {
  return TABLES[t].columns.split(/,(?![^()]*\))/).map((c) => c.trim().split(/\s+/)[0]!);
}

/** Copy incident `id` of the shared store as `copies` new incidents (every table), in ClickHouse. */
async function copyShared(store: ClickHouseStore, id: string, copies: number): Promise<string[]> {
  const ids: string[] = [];
  const settings = { insert_distributed_sync: 1, max_execution_time: 3600 };
  for (let k = 1; k <= copies; k++) {
    const nid = `${id}c${k}`;
    for (const t of Object.keys(TABLES) as TableName[]) {
      const cols = columns(t);
      // By position, without an alias: ClickHouse would read an alias named `incident` in the WHERE too.
      const sel = cols.map((c) => (c === 'incident' ? str(nid) : c)).join(', ');
      const only = t === 'incidents' ? ' ORDER BY version DESC LIMIT 1' : '';
      await store.client.run(`INSERT INTO ${t} (${cols.join(', ')}) SELECT ${sel} FROM ${t} WHERE incident = ${str(id)}${only}`, { settings, timeoutMs: 3_600_000 });
    }
    ids.push(nid);
    log(`shared: copy ${k}/${copies}`);
  }
  return ids;
}

/** Copy incident `id` of the embedded store as `copies` new incidents (every table keyed by incident_id). */
async function copyEmbedded(store: Store, id: string, copies: number): Promise<string[]> {
  const tables = (
    await store.query<{ t: string }>(`SELECT DISTINCT table_name AS t FROM information_schema.columns WHERE column_name = 'incident_id' AND table_name NOT IN ('uploads')`)
  ).map((r) => r.t);
  const ids: string[] = [];
  for (let k = 1; k <= copies; k++) {
    const nid = `${id}c${k}`;
    await store.query(`INSERT INTO incidents BY NAME SELECT * REPLACE ($n AS id) FROM incidents WHERE id = $id`, { n: nid, id });
    for (const t of tables) await store.query(`INSERT INTO ${t} BY NAME SELECT * REPLACE ($n AS incident_id) FROM ${t} WHERE incident_id = $id`, { n: nid, id });
    ids.push(nid);
    log(`embedded: copy ${k}/${copies}`);
  }
  return ids;
}

const rows: string[] = [];
const row = (what: string, embedded: string, shared: string) => rows.push(`| ${what} | ${embedded} | ${shared} |`);
const ms = (x: { ms: number }) => `${x.ms.toFixed(0)} ms`;

const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-bench-cluster-'));
let ch: TestClickHouse | undefined;
try {
  log(`generating ${sizeMiB} MiB in ${dir}…`);
  const corpus = await generateCorpus(join(dir, 'logs'), sizeMiB);
  ch = await TestClickHouse.start(2);
  const shared = await ClickHouseStore.open(parseStoreUrl(ch.url('bench'), 'env'));
  const ctx = await openContext({ env: { ...process.env, MCP_TRIAGE_HOME: join(dir, 'home') }, db: join(dir, 'bench.duckdb'), keyFile: join(dir, 'key') });
  try {
    const keys = { key: loadOrCreateKey(join(dir, 'key')), formats: loadFormats({}) };
    log('ingesting into the cluster…');
    const s = await clock(() => shared.ingest(keys, entriesFromPaths([corpus.dir]), { name: 'bench' }));
    log('ingesting into the embedded store…');
    const e = await clock(() => ingestIncident({ ...ctx, strict: true }, entriesFromPaths([corpus.dir]), { name: 'bench', mode: 'strict' }));
    const [{ n }] = await ctx.store.query<{ n: bigint }>('SELECT count(*) AS n FROM events WHERE incident_id = $id', { id: e.r.id });
    const perIncident = Number(n);
    const mib = corpus.bytes / 1048576;
    row(
      `ingest ${mib.toFixed(0)} MiB (${perIncident.toLocaleString('en')} events, strict), whole pipeline`,
      `${(e.ms / 1000).toFixed(1)} s`,
      `${(s.ms / 1000).toFixed(1)} s (private DuckDB, then ClickHouse)`,
    );

    const copies = Math.max(0, Math.ceil(target / perIncident) - 1);
    const total = perIncident * (copies + 1);
    const cs = await clock(() => copyShared(shared, s.r.id, copies));
    const ce = await clock(() => copyEmbedded(ctx.store, e.r.id, copies));
    row(`copy to ${total.toLocaleString('en')} events in ${copies + 1} incidents (INSERT … SELECT)`, `${(ce.ms / 1000).toFixed(1)} s`, `${(cs.ms / 1000).toFixed(1)} s`);
    const [chN] = await shared.client.rows<{ n: string }>('SELECT count() AS n FROM events');
    log(
      `events in the cluster: ${Number(chN!.n).toLocaleString('en')}; per shard: ${(await Promise.all(shared.nodes.map(async (b) => (await shared.client.forNode(b).rows<{ n: string }>('SELECT count() AS n FROM events_local'))[0]!.n))).join(', ')}`,
    );

    const all = FailureFilters.parse({ since: '7d', limit: 10_000 });
    const fe = await median(() => failuresAcross(ctx.store, all));
    const fs = await median(() => chFailuresAcross(shared, all));
    row(`failures across all incidents (--since 7d): ${fs.r.failures.length} rows${fs.r.truncated ? ', truncated' : ''}`, `${ms(fe)} (${fe.r.failures.length})`, ms(fs));
    const decision = fe.r.failures[0]?.failure.decision ?? 'retry';
    const one = FailureFilters.parse({ since: '7d', decision, limit: 1000 });
    const fe1 = await median(() => failuresAcross(ctx.store, one));
    const fs1 = await median(() => chFailuresAcross(shared, one));
    row(`failures, --decision ${decision}`, `${ms(fe1)} (${fe1.r.failures.length})`, `${ms(fs1)} (${fs1.r.failures.length})`);

    // One incident's timeline (the last copy: it sits wherever its hash put it).
    const sid = cs.r.at(-1) ?? s.r.id;
    const eid = ce.r.at(-1) ?? e.r.id;
    const pages: [string, Partial<EventFilters>][] = [
      ['timeline page: source=proxy status=502', { source: 'proxy', status: 502 }],
      ['timeline page: level=error', { level: 'error' }],
      ['timeline page: deep offset 80%', { offset: Math.floor(perIncident * 0.8) }],
    ];
    for (const [what, f] of pages) {
      const ff = EventFilters.parse({ limit: 200, ...f });
      const pe = await median(() => queryEvents(ctx.store, eid, ff));
      const ps = await median(() => chQueryEvents(shared, sid, ff));
      row(`${what} (200 of ${ps.r.total.toLocaleString('en')})`, ms(pe), ms(ps));
    }
    const q = EventFilters.parse({ limit: 200, q: 'session not found' });
    const te = await median(() => queryEventsPage(ctx.store, eid, q));
    const ts = await median(() => chQueryEventsPage(shared, sid, q));
    row('text search "session not found": first page (count deferred)', ms(te), ms(ts));
    await shared.close();
    console.log(
      `\nshared store at team scale: ${total.toLocaleString('en')} events per store, ${copies + 1} incidents; ClickHouse 18.16, 2 shards on this machine; median of ${runs} runs after a warm-up\n`,
    );
    console.log('| | embedded DuckDB | ClickHouse, 2 shards |\n|---|---|---|');
    for (const r of rows) console.log(r);
  } finally {
    await ctx.store.close();
  }
} finally {
  await ch?.stop();
  rmSync(dir, { recursive: true, force: true });
}
