// readColumns against DuckDB's own value reads, on chunks of odd sizes (UNION ALL streams one
// chunk per branch), so validity bitmaps are appended at offsets that are not multiples of 8.
import { DuckDBInstance, type DuckDBConnection, type DuckDBInstance as Instance } from '@duckdb/node-api';
import { makeVector, type Data } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixedColumn, readColumns, type Utf8Column, validRows } from './arrow.ts';

let instance: Instance;
let c: DuckDBConnection;
beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  c = await instance.connect();
});
afterAll(() => {
  c.closeSync();
  instance.closeSync();
});

const branch = (n: number, k: number) => `SELECT
  (i * 0.5 + ${k})::DOUBLE AS d,
  CASE WHEN (i + ${k}) % 3 = 0 THEN NULL ELSE (i - ${k})::INTEGER END AS n,
  CASE WHEN (i + ${k}) % 5 = 0 THEN NULL ELSE (i * 1000000007 + ${k})::BIGINT END AS b,
  CASE WHEN (i + ${k}) % 4 = 0 THEN NULL WHEN i % 4 = 1 THEN 'é' || i ELSE repeat('ü', (i % 9)) || '-' || i || '-' || repeat('x', (i * 7) % 40) END AS s,
  (i % 7)::UTINYINT AS u
FROM range(${n}) t(i)`;
const SQL = [3, 5, 11, 2048, 2, 13, 1, 4000].map((n, k) => branch(n, k)).join(' UNION ALL ');

describe('readColumns', () => {
  it('reads numbers, NULLs and strings exactly as DuckDB row reads do, across odd chunk sizes', async () => {
    const expected = (await c.runAndReadAll(SQL)).getRowObjectsJS();
    const r = await readColumns(await c.stream(SQL), ['float64', 'int32', 'int64', 'utf8', 'uint8'], 16);
    expect(r.rows).toBe(expected.length);
    const [d, n, b, s, u] = r.columns as [FixedColumn, FixedColumn, FixedColumn, Utf8Column, FixedColumn];
    const strings = makeVector(s.data(r.rows) as Data);
    const ints = makeVector(n.data(r.rows) as Data);
    for (let i = 0; i < r.rows; i++) {
      const e = expected[i]!;
      expect(d.values[i]).toBe(e.d);
      expect(n.valid(i) ? n.values[i] : null).toBe(e.n);
      expect(ints.get(i)).toBe(e.n);
      expect(b.valid(i) ? b.values[i] : null).toBe(e.b);
      expect(strings.get(i)).toBe(e.s);
      expect(u.values[i]).toBe(e.u);
    }
    expect(ints.nullCount).toBe(expected.filter((e) => e.n === null).length);
    expect(strings.nullCount).toBe(expected.filter((e) => e.s === null).length);
  });

  it('replaces the values an override gives, NULL included', async () => {
    const sql = `SELECT CASE WHEN i % 3 = 0 THEN NULL ELSE 'v' || i END AS s, CASE WHEN i % 10 = 1 THEN 'raw' || i END AS raw FROM range(5000) t(i)`;
    const r = await readColumns(await c.stream(sql), ['utf8', 'skip'], 10, (column, chunk) => {
      if (column !== 0) return undefined;
      const rows = new Set(validRows(chunk, 1));
      return (i) => (rows.has(i) ? (i % 20 === 1 ? null : `über-${i}`) : undefined);
    });
    expect(r.columns[1]).toBeNull();
    const v = makeVector((r.columns[0] as Utf8Column).data(r.rows) as Data);
    for (let i = 0; i < 5000; i++) {
      const inChunk = i % 2048;
      const want = i % 10 === 1 ? (inChunk % 20 === 1 ? null : `über-${inChunk}`) : i % 3 === 0 ? null : `v${i}`;
      expect(v.get(i)).toBe(want);
    }
  });

  it('refuses a column whose type is not the kind asked for', async () => {
    await expect(readColumns(await c.stream('SELECT 1::BIGINT AS x'), ['int32'])).rejects.toThrow(/BIGINT, not INTEGER/);
  });
});
