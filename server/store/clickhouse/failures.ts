// Failures across the incidents of the shared store (issue #20 item 4), in ClickHouse: the
// failures rows of each incident's current analysis (its latest state's analysis_ingest; deleted
// and never-completed incidents left out), filtered and ordered in SQL. Equal to the embedded
// store's answer (store/failures.ts), which the parity test holds.
import { Failure } from '../../contract/analysis.ts';
import { parseSince, type FailureFilters, type FailuresAnswer } from '../../contract/failures.ts';
import type { ClickHouseStore } from './store.ts';
import { int, str } from './sql.ts';

export async function chFailuresAcross(store: ClickHouseStore, q: FailureFilters, now = Date.now()): Promise<FailuresAnswer> {
  const where: string[] = [
    // The current analysis of each incident that can be read. GLOBAL: on a cluster the list is
    // made once and sent to every shard (both tables are Distributed).
    `(incident, ingest) GLOBAL IN (
       SELECT incident, analysis_ingest FROM (SELECT incident, analysis_ingest, state, ingests FROM incidents ORDER BY incident, version DESC LIMIT 1 BY incident)
       WHERE state != 'deleted' AND notEmpty(ingests))`,
  ];
  if (q.decision) where.push(`decision = ${str(q.decision)}`);
  if (q.rule) where.push(`rule = ${str(q.rule)}`);
  if (q.role) where.push(`role = ${str(q.role)}`);
  if (q.signal) where.push(`has(signals, ${str(q.signal)})`);
  if (q.since) where.push(`created_at >= ${int(parseSince(q.since, now)!)}`);
  const rows = await store.client.rows<{ incident: string; idx: number; created_at: string; doc: string }>(
    `SELECT incident, idx, created_at, doc FROM failures WHERE ${where.join(' AND ')}
     ORDER BY created_at DESC, incident DESC, idx LIMIT ${int(q.limit + 1)}`,
  );
  const names = new Map((await store.listIncidents()).map((i) => [i.id, i.name]));
  const failures = rows.slice(0, q.limit).map((r) => ({
    incident: r.incident,
    name: names.get(r.incident) ?? r.incident,
    createdAt: new Date(Number(r.created_at)).toISOString(),
    index: Number(r.idx),
    failure: Failure.parse(JSON.parse(r.doc)),
  }));
  return { failures, truncated: rows.length > q.limit };
}
