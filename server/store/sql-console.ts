// The read-only SQL console for power users (issue: correlated timelines, item 5): one SELECT,
// on its own connection, inside a transaction that is always rolled back, with a row cap and a
// time limit. File and network access are already off for the whole instance (Store.open), so
// read_csv('/etc/passwd') and friends fail; the store holds only redacted data.
import { VARCHAR } from '@duckdb/node-api';
import { TriageError } from '../errors.ts';
import type { Store } from './store.ts';

export interface SqlResult {
  columns: string[];
  rows: unknown[][];
  truncated: boolean;
  ms: number;
}

export const SQL_ROW_CAP = 1000;
export const SQL_TIME_LIMIT_MS = 5000;
const MAX_SQL = 20_000;

function jsonSafe(v: unknown): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(jsonSafe);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonSafe(x)]));
  return v;
}

export async function runReadOnlySql(store: Store, sql: string, opts: { rowCap?: number; timeLimitMs?: number } = {}): Promise<SqlResult> {
  const cap = opts.rowCap ?? SQL_ROW_CAP;
  if (!sql.trim()) throw new TriageError('TRIAGE_ERR_USAGE', 'empty query; try: SELECT source, count(*) FROM events GROUP BY source');
  if (sql.length > MAX_SQL) throw new TriageError('TRIAGE_ERR_TOO_LARGE', `query longer than ${MAX_SQL} characters`);
  const c = await store.reader();
  const timer = setTimeout(() => c.interrupt(), opts.timeLimitMs ?? SQL_TIME_LIMIT_MS);
  const t0 = performance.now();
  try {
    // DuckDB's own parser decides what a statement is: json_serialize_sql accepts SELECT only.
    const check = await c.runAndReadAll('SELECT json_serialize_sql($q::VARCHAR)::VARCHAR AS j', { q: sql }, { q: VARCHAR });
    const parsed = JSON.parse(String(check.getRowObjectsJS()[0]!.j)) as { error?: boolean; error_message?: string; statements?: unknown[] };
    if (parsed.error) throw new TriageError('TRIAGE_ERR_USAGE', `only a single SELECT is allowed: ${parsed.error_message}`);
    if ((parsed.statements?.length ?? 0) !== 1) throw new TriageError('TRIAGE_ERR_USAGE', 'send exactly one SELECT statement');
    await c.run('BEGIN TRANSACTION');
    try {
      const body = sql.trim().replace(/;\s*$/, '');
      const r = await c.runAndReadAll(`SELECT * FROM (${body}) AS console_query LIMIT ${cap + 1}`);
      const columns = r.columnNames();
      const rows = (r.getRowsJS() as unknown[][]).map((row) => row.map(jsonSafe));
      return { columns, rows: rows.slice(0, cap), truncated: rows.length > cap, ms: Math.round(performance.now() - t0) };
    } finally {
      await c.run('ROLLBACK').catch(() => undefined);
    }
  } catch (e) {
    if (e instanceof TriageError) throw e;
    const msg = (e as Error).message;
    if (/interrupt/i.test(msg)) throw new TriageError('TRIAGE_ERR_USAGE', `query stopped after ${opts.timeLimitMs ?? SQL_TIME_LIMIT_MS} ms; narrow it (WHERE incident_id = …, LIMIT)`);
    throw new TriageError('TRIAGE_ERR_USAGE', `query failed: ${msg.split('\n')[0]}`);
  } finally {
    clearTimeout(timer);
    c.closeSync();
  }
}
