// Values as ClickHouse SQL literals. ClickHouse 18.16 has no bound parameters over HTTP, so every
// value a request or a log gives reaches SQL through these, and nothing else: a string is quoted
// with backslash escapes (quote, backslash, and every control byte as \xHH); a number must be a
// finite number of the kind asked for. Identifiers (tables, columns) come from our code alone.

/** A string literal: '…' with ', \ and control characters escaped. */
export function str(s: string): string {
  return `'${s.replace(/[\\']/g, (c) => `\\${c}`).replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}'`;
}

/** An integer literal (safe range); anything else is a bug in our code, not a request's problem. */
export function int(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error(`not a safe integer: ${n}`);
  return String(n);
}

/** A list for IN (…); an empty list becomes ('') (our ids are never empty, so it matches none of them). */
export function strList(values: readonly string[]): string {
  return values.length ? `(${values.map(str).join(', ')})` : `('')`;
}

/**
 * Times are epoch milliseconds in Int64 (18.16 has no DateTime64). The sorting key cannot be
 * Nullable there, so an event without a time is stored with this value: it sorts after every real
 * time, as DuckDB's `ts NULLS LAST` does, and reads back as null.
 */
export const NO_TS = Number.MAX_SAFE_INTEGER;
