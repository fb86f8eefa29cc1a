// Failures across the incidents of the embedded store (issue #20 item 4): read from each ready
// incident's stored analysis and filtered here. The shared store answers the same question in SQL
// (clickhouse/failures.ts); the parity test holds the two equal.
import { Analysis } from '../contract/analysis.ts';
import { failureMatches, parseSince, type FailureAcross, type FailureFilters, type FailuresAnswer } from '../contract/failures.ts';
import type { Store } from './store.ts';

export async function failuresAcross(store: Store, q: FailureFilters, now = Date.now()): Promise<FailuresAnswer> {
  const since = q.since ? parseSince(q.since, now)! : null;
  const rows = await store.query<{ id: string; name: string; created_at: bigint; analysis: string }>(
    `SELECT id, name, created_at, analysis::VARCHAR AS analysis FROM incidents
     WHERE state = 'ready' AND analysis IS NOT NULL ${since === null ? '' : 'AND created_at >= $since'}
     ORDER BY created_at DESC, id DESC`,
    since === null ? {} : { since },
  );
  const out: FailureAcross[] = [];
  for (const r of rows) {
    const a = Analysis.parse(JSON.parse(r.analysis));
    a.failures.forEach((failure, index) => {
      if (failureMatches(failure, q)) out.push({ incident: r.id, name: r.name, createdAt: new Date(Number(r.created_at)).toISOString(), index, failure });
    });
    if (out.length > q.limit) break;
  }
  return { failures: out.slice(0, q.limit), truncated: out.length > q.limit };
}
