// Timeline pages, text search, counts and the status histogram of a stored incident, in ClickHouse:
// the same filters (event-filters.ts), the same order (ts, NULLs last, then seq), the same rows
// and cursors as the embedded store's events-query.ts and units.ts (held equal by the parity tests).
//
// A page is found in two steps, as in DuckDB: the narrow step sorts only (ts, seq) of the matching
// rows to find the page's first and last keys; the wide step reads every column of the rows
// between them. Sorting whole rows would make ClickHouse read every column of every match.
import { KEY, type EventFilters } from '../event-filters.ts';
import { STATUS_CLASSES, type Histogram, type StatusClass } from '../units.ts';
import type { ClickHouseStore } from './store.ts';
import { decodeTs } from './store.ts';
import { int, NO_TS, str } from './sql.ts';

const PAGE_COLS =
  'seq, ts, source, file, line, end_line, kind, format, level, message, text, session, rpc_id, rpc_method, tool, http_method, http_path, http_status, request_id, protocol_version, duration_ms, signals';
const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];
const TIMED = `ts != ${int(NO_TS)}`;

/** The filters as a WHERE clause over the incident's visible events; `q` and the cursor aside when asked. */
export function compileChFilters(scope: string, f: EventFilters): string {
  const where: string[] = [scope];
  const eq = (col: string, v: string | number | undefined) => {
    if (v === undefined || v === '') return;
    where.push(`${col} = ${typeof v === 'number' ? int(v) : str(v)}`);
  };
  eq('source', f.source);
  eq('session', f.session);
  eq('rpc_method', f.method);
  eq('http_status', f.status);
  eq('file', f.file);
  eq('request_id', f.requestId);
  // "This level or worse", as in every log viewer.
  if (f.level) where.push(`level IN (${LEVELS.slice(LEVELS.indexOf(f.level)).map(str).join(', ')})`);
  // rpc_id is stored JSON-encoded: 7 or "7" both match a request for 7.
  if (f.rpcId !== undefined && f.rpcId !== '') where.push(`(rpc_id = ${str(f.rpcId)} OR rpc_id = ${str(JSON.stringify(f.rpcId))})`);
  // Space-separated ids: a whole id, never a prefix of a longer one.
  if (f.signal !== undefined) where.push(`position(concat(' ', ifNull(signals, ''), ' '), ${str(` ${f.signal} `)}) > 0`);
  // An event without a time is outside every time range (NULL in DuckDB).
  if (f.from !== undefined) where.push(`${TIMED} AND ts >= ${num(f.from)}`);
  if (f.to !== undefined) where.push(`${TIMED} AND ts <= ${num(f.to)}`);
  // Case-insensitive substring, lowercased as the embedded store does (JS lower() of the query).
  if (f.q) where.push(`position(lowerUTF8(text), ${str(f.q.toLowerCase())}) > 0`);
  return where.join(' AND ');
}

/** A number from a query string: integers as such, anything else as a float literal. */
function num(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`not a finite number: ${n}`);
  return Number.isSafeInteger(n) ? int(n) : String(n);
}

interface Key {
  ts: number | null;
  seq: number;
}

const tsOf = (k: Key) => int(k.ts ?? NO_TS);

/** Rows after `k` in timeline order (NO_TS sorts last, as NULL does). */
function after(k: Key): string {
  return `(ts > ${tsOf(k)} OR (ts = ${tsOf(k)} AND seq > ${int(k.seq)}))`;
}

function between(first: Key, last: Key): string {
  return `ts BETWEEN ${tsOf(first)} AND ${tsOf(last)} AND (ts > ${tsOf(first)} OR seq >= ${int(first.seq)}) AND (ts < ${tsOf(last)} OR seq <= ${int(last.seq)})`;
}

function cursorKey(s: string): Key {
  const m = KEY.exec(s);
  if (!m) throw new Error(`bad cursor ${s}`);
  return { ts: m[1] === 'null' ? null : Number(m[1]), seq: Number(m[2]) };
}

const cursorOf = (k: Key) => `${k.ts ?? 'null'},${k.seq}`;

/** A row as the embedded store's EventPage gives it: seq and ts as bigint, rpc_id as stored (JSON-encoded). */
function pageRow(r: Record<string, unknown>): Record<string, unknown> {
  const ts = decodeTs(r.ts);
  return { ...r, seq: BigInt(String(r.seq)), ts: ts === null ? null : BigInt(ts), duration_ms: r.duration_ms === null ? null : Number(r.duration_ms) };
}

export interface ChEventsResult {
  rows: Record<string, unknown>[];
  total: number;
  next: string | null;
}

/** One timeline page, the number of rows matching the filters, and the cursor of the next page. */
export async function chQueryEvents(store: ClickHouseStore, id: string, f: EventFilters): Promise<ChEventsResult> {
  const r = await chPage(store, id, f, false);
  return { ...r, total: r.total! };
}

/**
 * The page as the HTTP API serves it: a text search's page goes out without its count (total
 * null), as the embedded store's does; GET …/events/count answers it (chCountEvents).
 */
export function chQueryEventsPage(store: ClickHouseStore, id: string, f: EventFilters): Promise<Omit<ChEventsResult, 'total'> & { total: number | null }> {
  return chPage(store, id, f, true);
}

async function chPage(store: ClickHouseStore, id: string, f: EventFilters, deferTextCount: boolean): Promise<Omit<ChEventsResult, 'total'> & { total: number | null }> {
  const where = compileChFilters(await store.scope(id), f);
  const whereAfter = f.after ? `${where} AND ${after(cursorKey(f.after))}` : where;
  const keys = await store.client.rows<{ ts: string; seq: string }>(`SELECT ts, seq FROM events WHERE ${whereAfter} ORDER BY ts, seq LIMIT ${int(f.offset)}, ${int(f.limit)}`);
  const total = deferTextCount && f.q ? null : await chCountWhere(store, where);
  if (!keys.length) return { rows: [], total, next: null };
  const key = (r: { ts: string; seq: string }): Key => ({ ts: decodeTs(r.ts), seq: Number(r.seq) });
  const first = key(keys[0]!);
  const last = key(keys[keys.length - 1]!);
  const rows = await store.client.rows<Record<string, unknown>>(`SELECT ${PAGE_COLS} FROM events WHERE ${where} AND ${between(first, last)} ORDER BY ts, seq`);
  return { rows: rows.map(pageRow), total, next: keys.length === f.limit ? cursorOf(last) : null };
}

async function chCountWhere(store: ClickHouseStore, where: string): Promise<number> {
  const [r] = await store.client.rows<{ n: string }>(`SELECT count() AS n FROM events WHERE ${where}`);
  return Number(r?.n ?? 0);
}

/** How many events match the filters (`after`, `offset` and `limit` aside). */
export async function chCountEvents(store: ClickHouseStore, id: string, f: EventFilters): Promise<number> {
  return chCountWhere(store, compileChFilters(await store.scope(id), f));
}

/**
 * Events per source per time bucket, split by HTTP status class (units.ts histogram): events
 * without a status count as `error` when logged at error/fatal, `other` otherwise.
 */
export async function chHistogram(store: ClickHouseStore, id: string, buckets: number): Promise<Histogram> {
  const n = Math.max(1, Math.min(1000, Math.trunc(buckets)));
  const scope = await store.scope(id);
  const [range] = await store.client.rows<{ lo: string; hi: string; untimed: string; timed: string }>(
    `SELECT minIf(ts, ${TIMED}) AS lo, maxIf(ts, ${TIMED}) AS hi, countIf(NOT (${TIMED})) AS untimed, countIf(${TIMED}) AS timed FROM events WHERE ${scope}`,
  );
  const untimed = Number(range?.untimed ?? 0);
  if (!range || Number(range.timed) === 0) return { from: null, to: null, bucketMs: 0, buckets: n, series: [], untimed };
  const lo = Number(range.lo);
  const hi = Number(range.hi);
  const span = Math.max(1, hi - lo + 1);
  const rows = await store.client.rows<{ source: string; b: string; cls: StatusClass; c: string }>(
    `SELECT source, least(${int(n - 1)}, intDiv((ts - ${int(lo)}) * ${int(n)}, ${int(span)})) AS b,
            multiIf(http_status >= 500, '5xx', http_status >= 400, '4xx', http_status >= 300, '3xx', http_status >= 200, '2xx',
                    level IN ('error', 'fatal'), 'error', 'other') AS cls,
            count() AS c
     FROM events WHERE ${scope} AND ${TIMED}
     GROUP BY source, b, cls ORDER BY source, b`,
  );
  const bySource = new Map<string, Histogram['series'][number]>();
  for (const r of rows) {
    let s = bySource.get(r.source);
    if (!s) {
      s = { source: r.source, total: 0, counts: Object.fromEntries(STATUS_CLASSES.map((c) => [c, new Array<number>(n).fill(0)])) as Record<StatusClass, number[]> };
      bySource.set(r.source, s);
    }
    s.counts[r.cls][Number(r.b)]! += Number(r.c);
    s.total += Number(r.c);
  }
  const order = ['client', 'proxy', 'server', 'unknown'];
  const series = [...bySource.values()].sort((a, b) => order.indexOf(a.source) - order.indexOf(b.source));
  return { from: lo, to: hi, bucketMs: span / n, buckets: n, series, untimed };
}
