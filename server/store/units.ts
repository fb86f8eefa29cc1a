// Read-only aggregate queries for the UI's views (unit-of-work drawer, status histogram),
// in SQL over the events table. Every value is a bound parameter; no identifier comes from
// the request (redaction.md §5.4).
import type { Analysis } from '../contract/analysis.ts';
import type { Store } from './store.ts';

/** Why an event belongs to the unit of work of the line the user clicked. */
export type UnitReason = 'seed' | 'session+rpcId' | 'requestId' | 'evidence';

export interface UnitEvent {
  ts: number | null;
  source: string;
  file: string;
  line: number;
  endLine: number;
  kind: string;
  level: string | null;
  message: string;
  text: string;
  session: string | null;
  rpcId: string | null;
  method: string | null;
  tool: string | null;
  httpMethod: string | null;
  httpPath: string | null;
  httpStatus: number | null;
  requestId: string | null;
  reasons: UnitReason[];
}

export interface Unit {
  /** The event whose lines span the clicked file:line, null when none does. */
  seed: { file: string; line: number; endLine: number } | null;
  /** The keys the unit was joined by (seed's keys plus those found one hop away). */
  keys: { sessionRpc: { session: string; rpcId: string }[]; requestIds: string[] };
  /** Indices into analysis.failures whose evidence includes a line of the seed event. */
  failures: number[];
  events: UnitEvent[];
  /** More events matched than UNIT_LIMIT. */
  truncated: boolean;
}

export const UNIT_LIMIT = 500;

/** The failures citing any line of the seed event, and their evidence (which joins the unit). */
export function citing(seed: Unit['seed'], analysis: Analysis | null): { failures: number[]; refs: { file: string; line: number }[] } {
  const failures: number[] = [];
  const refs: { file: string; line: number }[] = [];
  if (seed && analysis) {
    analysis.failures.forEach((f, i) => {
      if (f.evidence.some((e) => e.file === seed.file && e.line >= seed.line && e.line <= seed.endLine)) {
        failures.push(i);
        refs.push(...f.evidence);
      }
    });
  }
  return { failures, refs };
}

const COLS = `seq, ts, source, file, line, end_line, kind, level, message, text, session, rpc_id, rpc_method, tool, http_method, http_path, http_status, request_id`;

/** A key matches when both sides have it: session+rpc_id pairs, or a request id. */
const JOIN = (e: string, k: string) =>
  `((${k}.session IS NOT NULL AND ${k}.rpc_id IS NOT NULL AND ${e}.session = ${k}.session AND ${e}.rpc_id = ${k}.rpc_id)
    OR (${k}.request_id IS NOT NULL AND ${e}.request_id = ${k}.request_id))`;

/**
 * Every event of the request that `file:line` belongs to, across all files: the seed event, the
 * events sharing its session+rpcId or request id, one hop further (the keys of those events), and
 * the evidence lines of the failures that cite the seed.
 */
export async function unitOf(store: Store, incidentId: string, file: string, line: number, analysis: Analysis | null): Promise<Unit> {
  const p = { id: incidentId, file, line };
  const seeds = await store.query<{ line: number; end_line: number }>(
    `SELECT line, end_line FROM events WHERE incident_id = $id AND file = $file AND line <= $line AND end_line >= $line ORDER BY line DESC, seq LIMIT 1`,
    p,
  );
  const seed = seeds[0] ? { file, line: Number(seeds[0].line), endLine: Number(seeds[0].end_line) } : null;

  const { failures, refs } = citing(seed, analysis);
  const evParams: Record<string, string | number> = {};
  const evOr = refs.slice(0, 200).map((r, i) => {
    evParams[`ef${i}`] = r.file;
    evParams[`el${i}`] = r.line;
    return `(e.file = $ef${i} AND e.line <= $el${i} AND e.end_line >= $el${i})`;
  });
  const evidenceSql = evOr.length ? evOr.join(' OR ') : 'FALSE';

  const rows = await store.query<Record<string, unknown>>(
    `WITH seed AS (
       SELECT * FROM events WHERE incident_id = $id AND file = $file AND line <= $line AND end_line >= $line
       ORDER BY line DESC, seq LIMIT 1
     ),
     hop1 AS (
       SELECT e.* FROM events e, seed k WHERE e.incident_id = $id AND ${JOIN('e', 'k')}
     ),
     keys AS (SELECT DISTINCT session, rpc_id, request_id FROM (SELECT session, rpc_id, request_id FROM hop1 UNION ALL SELECT session, rpc_id, request_id FROM seed)),
     hop2 AS (
       SELECT DISTINCT e.seq FROM events e, keys k WHERE e.incident_id = $id AND ${JOIN('e', 'k')}
     ),
     ev AS (SELECT e.seq FROM events e WHERE e.incident_id = $id AND (${evidenceSql})),
     picked AS (
       SELECT seq, 'seed' AS why FROM seed
       UNION ALL SELECT e.seq, 'session+rpcId' FROM events e, keys k WHERE e.incident_id = $id AND e.seq IN (SELECT seq FROM hop2)
         AND k.session IS NOT NULL AND k.rpc_id IS NOT NULL AND e.session = k.session AND e.rpc_id = k.rpc_id
       UNION ALL SELECT e.seq, 'requestId' FROM events e, keys k WHERE e.incident_id = $id AND e.seq IN (SELECT seq FROM hop2)
         AND k.request_id IS NOT NULL AND e.request_id = k.request_id
       UNION ALL SELECT seq, 'evidence' FROM ev
     ),
     grouped AS (SELECT seq, list(DISTINCT why ORDER BY why) AS reasons FROM picked GROUP BY seq)
     SELECT ${COLS.split(', ')
       .map((c) => `e.${c}`)
       .join(', ')}, g.reasons, (SELECT count(*) FROM grouped) AS total
     FROM events e JOIN grouped g ON e.seq = g.seq
     WHERE e.incident_id = $id
     ORDER BY e.ts NULLS LAST, e.seq
     LIMIT ${UNIT_LIMIT}`,
    { ...p, ...evParams },
  );

  const total = rows.length ? Number(rows[0]!.total) : 0;
  return unitFromRows(seed, failures, rows, total);
}

/**
 * The unit from its rows (store columns, each with its `reasons`), in timeline order; `total` is
 * how many events were picked before the limit. Shared with the shared store (clickhouse/units.ts).
 */
export function unitFromRows(seed: Unit['seed'], failures: number[], rows: Record<string, unknown>[], total: number): Unit {
  const sessionRpc = new Map<string, { session: string; rpcId: string }>();
  const requestIds = new Set<string>();
  const events: UnitEvent[] = rows.map((r) => {
    const s = (v: unknown) => (v === null || v === undefined ? null : String(v));
    const rpcId = r.rpc_id === null || r.rpc_id === undefined ? null : String(JSON.parse(String(r.rpc_id)));
    const reasons = (r.reasons as string[]).map(String) as UnitReason[];
    if (reasons.some((x) => x !== 'evidence')) {
      if (r.session && rpcId !== null) sessionRpc.set(`${r.session} ${rpcId}`, { session: String(r.session), rpcId });
      if (r.request_id) requestIds.add(String(r.request_id));
    }
    return {
      ts: r.ts === null || r.ts === undefined ? null : Number(r.ts),
      source: String(r.source),
      file: String(r.file),
      line: Number(r.line),
      endLine: Number(r.end_line),
      kind: String(r.kind),
      level: s(r.level),
      message: String(r.message),
      text: String(r.text),
      session: s(r.session),
      rpcId,
      method: s(r.rpc_method),
      tool: s(r.tool),
      httpMethod: s(r.http_method),
      httpPath: s(r.http_path),
      httpStatus: r.http_status === null || r.http_status === undefined ? null : Number(r.http_status),
      requestId: s(r.request_id),
      reasons,
    };
  });
  return { seed, keys: { sessionRpc: [...sessionRpc.values()], requestIds: [...requestIds] }, failures, events, truncated: total > events.length };
}

export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx', 'error', 'other'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

export interface Histogram {
  /** Epoch ms of the first and last timestamped event; null when no event has a timestamp. */
  from: number | null;
  to: number | null;
  bucketMs: number;
  buckets: number;
  /** One series per source present; counts[class][bucket]. */
  series: { source: string; total: number; counts: Record<StatusClass, number[]> }[];
  /** Events without a timestamp (not placed on the axis). */
  untimed: number;
}

/**
 * Events per source per time bucket, split by HTTP status class; events without a status count as
 * `error` when logged at error/fatal, `other` otherwise.
 */
export async function histogram(store: Store, incidentId: string, buckets: number): Promise<Histogram> {
  const n = Math.max(1, Math.min(1000, Math.trunc(buckets)));
  const [range] = await store.query<{ lo: bigint | null; hi: bigint | null; untimed: bigint }>(
    `SELECT min(ts) AS lo, max(ts) AS hi, count(*) FILTER (WHERE ts IS NULL) AS untimed FROM events WHERE incident_id = $id`,
    { id: incidentId },
  );
  const untimed = Number(range?.untimed ?? 0);
  if (!range || range.lo === null || range.hi === null) return { from: null, to: null, bucketMs: 0, buckets: n, series: [], untimed };
  const lo = Number(range.lo);
  const hi = Number(range.hi);
  const span = Math.max(1, hi - lo + 1);
  const rows = await store.query<{ source: string; b: number; cls: StatusClass; n: bigint }>(
    `SELECT source,
            least($n - 1, floor((ts - $lo) * $n / $span))::INTEGER AS b,
            CASE WHEN http_status >= 500 THEN '5xx' WHEN http_status >= 400 THEN '4xx'
                 WHEN http_status >= 300 THEN '3xx' WHEN http_status >= 200 THEN '2xx'
                 WHEN level IN ('error', 'fatal') THEN 'error' ELSE 'other' END AS cls,
            count(*) AS n
     FROM events WHERE incident_id = $id AND ts IS NOT NULL
     GROUP BY ALL ORDER BY source, b`,
    { id: incidentId, n, lo, span },
  );
  const bySource = new Map<string, Histogram['series'][number]>();
  for (const r of rows) {
    let s = bySource.get(r.source);
    if (!s) {
      s = { source: r.source, total: 0, counts: Object.fromEntries(STATUS_CLASSES.map((c) => [c, new Array<number>(n).fill(0)])) as Record<StatusClass, number[]> };
      bySource.set(r.source, s);
    }
    s.counts[r.cls][Number(r.b)]! += Number(r.n);
    s.total += Number(r.n);
  }
  const order = ['client', 'proxy', 'server', 'unknown'];
  const series = [...bySource.values()].sort((a, b) => order.indexOf(a.source) - order.indexOf(b.source));
  return { from: lo, to: hi, bucketMs: span / n, buckets: n, series, untimed };
}
