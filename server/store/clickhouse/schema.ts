// The shared store's tables, created if missing when a command opens the store.
//
// Every table is a plain MergeTree ordered by incident first (events and signals by (incident, ts,
// seq)). With `cluster=NAME` each node gets its own `<table>_local` tables (created here on every
// node: ON CLUSTER would need ZooKeeper) and a Distributed table `<table>` over them, sharded by
// sipHash64(incident), so one incident lives on one shard and every query names its tables
// the same way on one node or on a cluster.
//
// Written for ClickHouse 18.16 and what came after: times are epoch ms in Int64 (no DateTime64;
// NO_TS for an event without one, sql.ts), no LowCardinality, no Nullable in a sorting key, JSON
// documents kept as String. A duration is kept as its decimal text: 18.16 parses floats from
// text inexactly (7.657842 → 7.6578420000000005), and the store must give back what it was given
// (toFloat64OrNull(duration_ms) in SQL).
//
// Visibility: every row carries the `ingest` that wrote it. An incident's latest `incidents` row
// lists the ingests that completed (every batch landed and was counted); readers see those
// alone. A half-written ingest is never seen, and writing it again cannot duplicate what is seen.
import { TriageError } from '../../errors.ts';
import type { ClickHouseClient } from './client.ts';
import { str } from './sql.ts';

export const TABLES = {
  incidents: {
    columns: `incident String, version Int64, ts Int64, state String, name String, created_at Int64,
      ingests Array(String), analysis_ingest String, decision String, privacy_mode String, tool_policy String,
      files Int32, events Int64`,
    order: '(incident, version)',
  },
  files: {
    columns: `incident String, ingest String, ts Int64, file_no Int32, path String, sha256 String, bytes Int64,
      source String, format String, lines Int32, events Int32, unparsed Int32, truncated_lines Int32, prefix Nullable(String)`,
    order: '(incident, file_no)',
  },
  events: {
    columns: `incident String, ts Int64, seq Int64, ingest String, file String, line Int32, end_line Int32,
      source String, format String, kind String, level Nullable(String), message String, text String,
      http_method Nullable(String), http_path Nullable(String), http_status Nullable(Int32), request_id Nullable(String),
      rpc_id Nullable(String), rpc_method Nullable(String), tool Nullable(String), session Nullable(String),
      protocol_version Nullable(String), duration_ms Nullable(String), attrs Nullable(String), signals Nullable(String)`,
    order: '(incident, ts, seq)',
  },
  signals: {
    columns: `incident String, ts Int64, seq Int64, ingest String, signal String, file String, line Int32, source String`,
    order: '(incident, ts, seq)',
  },
  redactions: {
    columns: `incident String, ingest String, rule String, count Int64`,
    order: '(incident, rule)',
  },
  skipped_files: {
    columns: `incident String, ingest String, idx Int32, file String, reason String, detail String`,
    order: '(incident, idx)',
  },
  decisions: {
    columns: `incident String, ingest String, ts Int64, decision String, failures Int32, primary_failures Int32, analysis String`,
    order: '(incident, ts)',
  },
  failures: {
    columns: `incident String, ingest String, ts Int64, idx Int32, rpc_id Nullable(String), method Nullable(String),
      tool Nullable(String), session Nullable(String), http_status Nullable(Int32), stage String,
      root_type Nullable(String), root_message Nullable(String), exception_chain Array(String), decision String,
      rule String, rationale String, role String, episode Int32, signals Array(String), evidence String,
      created_at Int64, doc String`,
    order: '(incident, ts, idx)',
  },
  spans: {
    columns: `incident String, ingest String, idx Int32, rpc_id Nullable(String), method Nullable(String),
      session Nullable(String), sources Array(String), joined_by Array(String)`,
    order: '(incident, idx)',
  },
  // Uploads that named themselves (X-Upload-Id) and what their first answer said: a retry to any
  // server of the team replays it (http/backend.ts). Written once the ingest is complete.
  uploads: {
    columns: `incident String, upload_id String, ts Int64, target String, result String`,
    order: '(incident, upload_id)',
  },
  // The last "verify" probe of an incident (http/verify.ts): probeJson() output, redacted by the probe.
  verifications: {
    columns: `incident String, ts Int64, ok UInt8, result String`,
    order: '(incident, ts)',
  },
} as const;

export type TableName = keyof typeof TABLES;

/** Where the rows of a table go on this node: the Distributed table on a cluster, the table itself on one node. */
export function localName(table: TableName, cluster: string | null): string {
  return cluster ? `${table}_local` : table;
}

function ddl(db: string, table: TableName, cluster: string | null): string[] {
  const t = TABLES[table];
  const merge = `CREATE TABLE IF NOT EXISTS ${db}.${localName(table, cluster)} (${t.columns}) ENGINE = MergeTree() ORDER BY ${t.order}`;
  if (!cluster) return [merge];
  return [merge, `CREATE TABLE IF NOT EXISTS ${db}.${table} AS ${db}.${table}_local ENGINE = Distributed(${cluster}, ${db}, ${table}_local, sipHash64(incident))`];
}

interface ClusterRow {
  shard_num: number;
  replica_num: number;
  host_address: string;
  is_local: number;
}

/**
 * The nodes of `cluster` as this node knows them, and which of them it is. Each node of a
 * cluster must hold the local tables, so every (shard, replica) must be one of the nodes given.
 */
async function clusterNodes(client: ClickHouseClient): Promise<string[]> {
  const { cluster, nodes, nodesGiven, display } = client.target;
  const name = cluster!;
  const known = async (c: ClickHouseClient) =>
    c.rows<ClusterRow>(`SELECT shard_num, replica_num, host_address, is_local FROM system.clusters WHERE cluster = ${str(name)}`, { database: null });
  const rows = await known(client);
  if (!rows.length) throw new TriageError('TRIAGE_ERR_USAGE', `${display}: the server knows no cluster "${name}" (system.clusters; remote_servers in its config)`);
  let list = nodes;
  if (!nodesGiven) {
    const port = new URL(client.base).port;
    const scheme = client.target.secure ? 'https' : 'http';
    list = [...new Set([client.base, ...rows.map((r) => `${scheme}://${r.host_address.includes(':') ? `[${r.host_address}]` : r.host_address}:${port}`)])];
  }
  // Which (shard, replica) each node is: the row it sees as local.
  const covered = new Set<string>();
  for (const base of list) {
    const mine = (await known(client.forNode(base))).filter((r) => Number(r.is_local) === 1);
    for (const r of mine) covered.add(`${r.shard_num}/${r.replica_num}`);
  }
  const missing = rows.filter((r) => !covered.has(`${r.shard_num}/${r.replica_num}`));
  if (missing.length) {
    const which = missing.map((r) => `shard ${r.shard_num} replica ${r.replica_num} (${r.host_address})`).join(', ');
    throw new TriageError('TRIAGE_ERR_USAGE', `${display}: no HTTP address for ${which} of cluster ${name}; list every node's HTTP address in nodes=host:8123,host:8123`);
  }
  return list;
}

/** Create the database and any missing table, on every node of a cluster. Returns the nodes written to. */
export async function ensureSchema(client: ClickHouseClient): Promise<string[]> {
  const { database: db, cluster } = client.target;
  const list = cluster ? await clusterNodes(client) : [client.base];
  for (const base of list) {
    const c = client.forNode(base);
    await c.run(`CREATE DATABASE IF NOT EXISTS ${db}`, { settings: {}, database: null });
    const have = new Set((await c.rows<{ name: string }>(`SELECT name FROM system.tables WHERE database = ${str(db)}`, { database: null })).map((r) => r.name));
    for (const table of Object.keys(TABLES) as TableName[]) {
      const names = cluster ? [`${table}_local`, table] : [table];
      if (names.every((n) => have.has(n))) continue;
      for (const sql of ddl(db, table, cluster)) await c.run(sql);
    }
  }
  return list;
}

/** Tests and tooling: drop every table of ours (on every node). */
export async function dropSchema(client: ClickHouseClient, nodes: readonly string[]): Promise<void> {
  const { database: db, cluster } = client.target;
  for (const base of nodes) {
    const c = client.forNode(base);
    for (const table of Object.keys(TABLES) as TableName[]) {
      if (cluster) await c.run(`DROP TABLE IF EXISTS ${db}.${table}`);
      await c.run(`DROP TABLE IF EXISTS ${db}.${localName(table, cluster)}`);
    }
  }
}

/** A version for `incidents` rows: later writes compare greater (ms × 1000 + a counter). */
let lastVersion = 0;
export function nextVersion(): number {
  lastVersion = Math.max(lastVersion + 1, Date.now() * 1000);
  return lastVersion;
}
