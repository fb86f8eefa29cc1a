// The read-only SQL console for power users (issue: correlated timelines, item 5): one SELECT,
// on its own connection, inside a transaction that is always rolled back, with a row cap, a cap
// on the answer's size and a deadline on the whole request. File and network access are already
// off for the whole instance (Store.open), so read_csv('/etc/passwd') and friends fail; the store
// holds only redacted data.
//
// Bounds (issue #20 item 8): one query once answered 300 MB of JSON after its 5 s limit and left
// the server 2 GiB larger — the limit interrupted DuckDB only, and every row was turned into JS
// values and JSON whatever its size. Now:
//   - the deadline covers the whole request (the wait for a slot, DuckDB, reading the rows): DuckDB
//     is interrupted at it, and reading stops at it → 400 TRIAGE_ERR_QUERY_TIMEOUT;
//   - DuckDB measures each row's JSON size itself (strlen(to_json(row)), a column of the same
//     query), and rows are read a chunk at a time, the sizes first: an answer past
//     SQL_MAX_ANSWER_BYTES stops before its rows become JS values → 413 TRIAGE_ERR_TOO_LARGE,
//     with how far it got. Such a value lives only in DuckDB (its 512 MB limit, spilled or refused).
import { JSDuckDBValueConverter, VARCHAR } from '@duckdb/node-api';
import { TriageError } from '../errors.ts';
import type { Store } from './store.ts';

export interface SqlResult {
  columns: string[];
  rows: unknown[][];
  truncated: boolean;
  ms: number;
}

export const SQL_ROW_CAP = 1000;
/** The whole request, from its arrival (the HTTP route passes it) to its rows read. */
export const SQL_TIME_LIMIT_MS = 5000;
/** The answer's rows as JSON, as DuckDB measures them (to_json). */
export const SQL_MAX_ANSWER_BYTES = 8 * 1024 * 1024;
const MAX_SQL = 20_000;
/** The size column added to the user's query; a name no one types. */
const SIZE_COLUMN = '__mcp_triage_answer_bytes';

function jsonSafe(v: unknown): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(jsonSafe);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonSafe(x)]));
  return v;
}

const mib = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;

export interface SqlOptions {
  rowCap?: number;
  /** Deadline of the whole request, in ms from `startedAt`. */
  timeLimitMs?: number;
  /** When the request arrived (performance.now()); default: now. */
  startedAt?: number;
  /** Largest answer (its rows as JSON, measured by DuckDB). */
  maxBytes?: number;
}

/** The console's limits for one request (either store): rows, time, answer size, and the error a late answer gets. */
export function consoleBudget(opts: SqlOptions, incidentColumn: string) {
  const limitMs = opts.timeLimitMs ?? SQL_TIME_LIMIT_MS;
  const t0 = opts.startedAt ?? performance.now();
  return {
    cap: opts.rowCap ?? SQL_ROW_CAP,
    limitMs,
    maxBytes: opts.maxBytes ?? SQL_MAX_ANSWER_BYTES,
    t0,
    deadline: t0 + limitMs,
    late: () =>
      new TriageError(
        'TRIAGE_ERR_QUERY_TIMEOUT',
        `query stopped after ${limitMs} ms (the console's limit for a whole request); narrow it (WHERE ${incidentColumn} = …, LIMIT, fewer columns)`,
        { limitMs },
      ),
  };
}

export async function runReadOnlySql(store: Store, sql: string, opts: SqlOptions = {}): Promise<SqlResult> {
  const { cap, limitMs, maxBytes, t0, deadline, late } = consoleBudget(opts, 'incident_id');
  if (!sql.trim()) throw new TriageError('TRIAGE_ERR_USAGE', 'empty query; try: SELECT source, count(*) FROM events GROUP BY source');
  if (sql.length > MAX_SQL) throw new TriageError('TRIAGE_ERR_TOO_LARGE', `query longer than ${MAX_SQL} characters`);
  if (performance.now() >= deadline) throw late();
  const c = await store.reader();
  let timedOut = false;
  const timer = setTimeout(
    () => {
      timedOut = true;
      c.interrupt();
    },
    Math.max(0, deadline - performance.now()),
  );
  try {
    // DuckDB's own parser decides what a statement is: json_serialize_sql accepts SELECT only.
    const check = await c.runAndReadAll('SELECT json_serialize_sql($q::VARCHAR)::VARCHAR AS j', { q: sql }, { q: VARCHAR });
    const parsed = JSON.parse(String(check.getRowObjectsJS()[0]!.j)) as { error?: boolean; error_message?: string; statements?: unknown[] };
    if (parsed.error) throw new TriageError('TRIAGE_ERR_USAGE', `only a single SELECT is allowed: ${parsed.error_message}`);
    if ((parsed.statements?.length ?? 0) !== 1) throw new TriageError('TRIAGE_ERR_USAGE', 'send exactly one SELECT statement');
    await c.run('BEGIN TRANSACTION');
    try {
      const body = sql.trim().replace(/;\s*$/, '');
      const result = await c.stream(`SELECT console_query.*, strlen(to_json(console_query)::VARCHAR) AS ${SIZE_COLUMN} FROM (${body}) AS console_query LIMIT ${cap + 1}`);
      const names = result.columnNames();
      const width = names.length - 1; // the size column is the last
      const rows: unknown[][] = [];
      let bytes = 0;
      let truncated = false;
      while (!truncated) {
        if (timedOut || performance.now() >= deadline) throw late();
        const chunk = await result.fetchChunk();
        if (!chunk || chunk.rowCount === 0) break;
        // The sizes first: rows past the cap are never turned into JS values.
        const sizes = chunk.getColumnValues(width) as (bigint | number | null)[];
        for (let i = 0; i < chunk.rowCount; i++) {
          if (rows.length === cap) {
            truncated = true; // the LIMIT's extra row: there are more
            break;
          }
          bytes += Number(sizes[i] ?? 0) + 1;
          if (bytes > maxBytes) {
            throw new TriageError(
              'TRIAGE_ERR_TOO_LARGE',
              `answer too large: over the console's ${mib(maxBytes)} limit after ${rows.length} row(s) (a row is measured as JSON); select fewer or shorter columns (left(text, 200), count(*) … GROUP BY) or add a LIMIT`,
              { limitBytes: maxBytes, rowsBeforeLimit: rows.length },
            );
          }
          const row = chunk.convertRowValues(i, JSDuckDBValueConverter) as unknown[];
          row.length = width;
          rows.push(row.map(jsonSafe));
          if (performance.now() >= deadline) throw late();
        }
      }
      return { columns: names.slice(0, width), rows, truncated, ms: Math.round(performance.now() - t0) };
    } finally {
      await c.run('ROLLBACK').catch(() => undefined);
    }
  } catch (e) {
    if (e instanceof TriageError) throw e;
    const msg = (e as Error).message;
    if (timedOut || /interrupt/i.test(msg)) throw late();
    throw new TriageError('TRIAGE_ERR_USAGE', `query failed: ${msg.split('\n')[0]}`);
  } finally {
    clearTimeout(timer);
    c.closeSync();
  }
}
