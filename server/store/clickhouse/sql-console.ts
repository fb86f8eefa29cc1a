// The read-only SQL console on a shared store (POST /api/sql on serve --store): the query runs in
// ClickHouse, with the embedded console's answer shape and bounds (sql-console.ts): a row cap, an
// 8 MiB answer, a 5 s deadline for the whole request.
//
// What makes it read-only and bounded is ClickHouse's own settings on the query, which the query
// cannot lift: `readonly=1` (no writes, no DDL, and no SETTINGS clause: changing any setting is
// refused), `max_execution_time` (what is left of the deadline), `max_memory_usage`, and
// `max_result_rows`. The user's text goes inside `SELECT * FROM (…) LIMIT cap+1`, so it must be
// one SELECT (or WITH … SELECT): SHOW, a second statement or a FORMAT clause is a syntax error.
// `wait_end_of_query=1` has ClickHouse finish the query before it answers, so a failure is an
// error status rather than half an answer; the answer is then read as it arrives and dropped past
// the size cap. Everything it returns goes through the exit pass like the embedded console's
// (http/sql.ts).
//
// Limits of the shared console (documented in clickhouse/README.md): it reads what the store's
// ClickHouse user may read; it shows the tables as they are, so rows of a deleted incident or a
// failed ingest are there until ClickHouse has applied their deletes (store.ts purge).
import { TriageError } from '../../errors.ts';
import { consoleBudget, type SqlOptions, type SqlResult } from '../sql-console.ts';
import type { ClickHouseStore } from './store.ts';

const MAX_SQL = 20_000;
/** ClickHouse's own memory bound for one console query (the embedded store's DuckDB limit). */
export const CONSOLE_MAX_MEMORY = 512 * 1024 * 1024;
const mib = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;

/** ClickHouse error codes the console maps to the embedded console's answers. */
const TIMEOUT = new Set([159, 160]); // TIMEOUT_EXCEEDED, TOO_SLOW
const MEMORY = 241; // MEMORY_LIMIT_EXCEEDED

interface Compact {
  meta: { name: string; type: string }[];
  data: unknown[][];
}

function cell(v: unknown, type: string): unknown {
  // 64-bit integers arrive quoted: a number when it is exact, else the string (as the embedded console).
  if (typeof v === 'string' && /^(Nullable\()?U?Int64\)?$/.test(type)) return Number.isSafeInteger(Number(v)) ? Number(v) : v;
  if (Array.isArray(v)) return v.map((x) => cell(x, type.replace(/^Array\((.*)\)$/, '$1')));
  return v;
}

export async function chRunReadOnlySql(store: ClickHouseStore, sql: string, opts: SqlOptions = {}): Promise<SqlResult> {
  const { cap, limitMs, maxBytes, t0, deadline, late } = consoleBudget(opts, 'incident');
  if (!sql.trim()) throw new TriageError('TRIAGE_ERR_USAGE', 'empty query; try: SELECT source, count() FROM events GROUP BY source');
  if (sql.length > MAX_SQL) throw new TriageError('TRIAGE_ERR_TOO_LARGE', `query longer than ${MAX_SQL} characters`);
  const body = sql.trim().replace(/;\s*$/, '');
  if (!/^(\(|select\b|with\b)/i.test(body.replace(/^(\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)*/, ''))) throw new TriageError('TRIAGE_ERR_USAGE', 'only a single SELECT is allowed');
  const left = deadline - performance.now();
  if (left <= 0) throw late();
  const signal = AbortSignal.timeout(Math.ceil(left));
  // The user's settings first and readonly last: once readonly=1 holds, no setting can change.
  const settings = {
    max_execution_time: Math.max(1, Math.ceil(left / 1000)),
    max_memory_usage: CONSOLE_MAX_MEMORY,
    max_result_rows: cap + 1,
    result_overflow_mode: 'throw',
    wait_end_of_query: 1,
    readonly: 1,
  };
  let text = '';
  try {
    const res = await store.client.stream(`SELECT * FROM (\n${body}\n) LIMIT ${cap + 1}\nFORMAT JSONCompact`, { settings, signal });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let bytes = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      text += decoder.decode(value, { stream: true });
      // The answer's JSON, as ClickHouse writes it (rows one per line), measured as it arrives.
      if (bytes > maxBytes + 64 * 1024) {
        await reader.cancel().catch(() => undefined);
        const rows = Math.max(0, (text.match(/\n\t\t\[/g)?.length ?? 1) - 1);
        throw new TriageError(
          'TRIAGE_ERR_TOO_LARGE',
          `answer too large: over the console's ${mib(maxBytes)} limit after ${rows} row(s) (a row is measured as JSON); select fewer or shorter columns (substring(text, 1, 200), count() … GROUP BY) or add a LIMIT`,
          { limitBytes: maxBytes, rowsBeforeLimit: rows },
        );
      }
    }
    text += decoder.decode();
  } catch (e) {
    if (signal.aborted || (e as Error).name === 'TimeoutError' || (e as Error).name === 'AbortError') throw late();
    if (e instanceof TriageError && e.code === 'TRIAGE_ERR_STORE' && e.details?.kind === 'refused') {
      const code = e.details.clickhouseCode as number | undefined;
      if (code !== undefined && TIMEOUT.has(code)) throw late();
      // ClickHouse's own reason (scrubbed by the client: no SQL, no echoed data), not the store's address.
      const why = /\(HTTP \d+(?:, code \d+)?: (.*)\)(?:; give them.*)?$/.exec(e.message)?.[1] ?? 'refused by ClickHouse';
      if (code === MEMORY)
        throw new TriageError(
          'TRIAGE_ERR_TOO_LARGE',
          `query needs more than the console's ${mib(CONSOLE_MAX_MEMORY)} of ClickHouse memory; narrow it (WHERE incident = …, fewer columns, LIMIT)`,
        );
      if (code === 192 || code === 193 || code === 194 || code === 516) throw e; // credentials: the store's problem, not the query's
      throw new TriageError('TRIAGE_ERR_USAGE', `query failed: ${why}`);
    }
    throw e;
  }
  if (performance.now() >= deadline) throw late();
  const doc = JSON.parse(text) as Compact;
  const types = doc.meta.map((m) => m.type);
  const truncated = doc.data.length > cap;
  const rows = doc.data.slice(0, cap).map((r) => r.map((v, i) => cell(v, types[i]!)));
  return { columns: doc.meta.map((m) => m.name), rows, truncated, ms: Math.round(performance.now() - t0) };
}
