// The columnar timeline page (events-query.ts + arrow.ts) against the row-by-row path it
// replaced: same Arrow schema, same decoded values, same rows, on real samples and on rows
// built to be awkward; keyset and histogram-located pages against plain OFFSET paging.
import { tableFromIPC, type Table } from 'apache-arrow';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Event, emptyEvent } from '../../parsers/contract/event.ts';
import { ingestIncident, openContext } from '../incidents.ts';
import { entriesFromPaths } from '../ingest/inputs.ts';
import { REPO, tempWorkspace } from '../testing/helpers.ts';
import { compileFilters, EventFilters, eventsToArrow, queryEvents } from './events-query.ts';
import { Store } from './store.ts';

// ── the reference: the query and row reading as they were before the columnar page ──────────

const COLUMNS = `seq, ts, source, file, line, end_line, kind, format, level, message, text, session, rpc_id, rpc_method, tool, http_method, http_path, http_status, request_id, protocol_version, duration_ms, signals`;

async function legacyQueryEvents(store: Store, incidentId: string, f: EventFilters): Promise<{ rows: Record<string, unknown>[]; total: number }> {
  // Same WHERE (compileFilters), the old paging: ORDER BY … LIMIT … OFFSET and row objects.
  const { where: w, params: p } = compileFilters(incidentId, f);
  const [{ n }] = await store.query<{ n: bigint }>(`SELECT count(*) AS n FROM events WHERE ${w}`, p);
  const rows = await store.query(`SELECT ${COLUMNS} FROM events WHERE ${w} ORDER BY ts NULLS LAST, seq LIMIT ${f.limit} OFFSET ${f.offset}`, p);
  return { rows, total: Number(n) };
}

/** A decoded Arrow table: field descriptions and every value (null, number, bigint or string). */
function decode(ipc: Uint8Array): { fields: string[]; rows: unknown[][] } {
  const t: Table = tableFromIPC(ipc);
  const fields = t.schema.fields.map((f) => `${f.name}:${String(f.type)}:${f.nullable}`);
  const cols = t.schema.fields.map((f) => t.getChild(f.name)!);
  const rows: unknown[][] = [];
  for (let i = 0; i < t.numRows; i++) rows.push(cols.map((c) => c.get(i)));
  return { fields, rows };
}

/** The new page and the legacy one agree: total, rows (as row objects) and the decoded Arrow table. */
async function expectSamePage(store: Store, id: string, filters: Partial<EventFilters>): Promise<number> {
  const f = { ...EventFilters.parse({}), ...filters } as EventFilters;
  const [now, before] = await Promise.all([queryEvents(store, id, f), legacyQueryEvents(store, id, f)]);
  expect(now.total).toBe(before.total);
  expect(now.rows.length).toBe(before.rows.length);
  expect(now.rows.toArray()).toEqual(before.rows);
  expect(decode(eventsToArrow(now.rows))).toEqual(decode(eventsToArrow(before.rows)));
  return now.rows.length;
}

const base = (over: Partial<Event>): Event => ({ ...emptyEvent({ file: 'x.log', line: 1, source: 'server', format: 'fmt', kind: 'line', text: '' }), message: '', ...over });

const ws = tempWorkspace();
afterAll(() => ws.cleanup());

describe('the columnar page on recorded samples', () => {
  let ctx: Awaited<ReturnType<typeof openContext>>;
  let id: string;
  beforeAll(async () => {
    ctx = await openContext({ env: ws.env, db: ':memory:', keyFile: ws.keyFile });
    const dirs = ['restart-stale-session', 'killed-mid-response-read', 'hand-2026-cut-stream-destructive'].map((s) => join(REPO, 'samples', s));
    ({ id } = await ingestIncident(ctx, entriesFromPaths(dirs), { name: 'three samples' }));
  });
  afterAll(async () => ctx.store.close());

  it.each([
    {},
    { limit: 100_000 },
    { source: 'proxy' as const },
    { source: 'client' as const, limit: 7, offset: 3 },
    { level: 'warn' as const },
    { status: 404 },
    { q: 'session' },
    { q: 'É' },
    { rpcId: '3' },
    { method: 'tools/call' },
    { from: 0, to: 4_102_444_800_000 },
    { limit: 1 },
    { offset: 1_000_000 },
  ])('same page as the row path for %j', async (f) => {
    await expectSamePage(ctx.store, id, f);
  });

  it('reads the whole incident, with rows in many chunks', async () => {
    expect(await expectSamePage(ctx.store, id, { limit: 100_000 })).toBeGreaterThan(100);
  });
});

describe('the columnar page on awkward rows', () => {
  let store: Store;
  const id = 'inc_awkward';
  const long = 'ü'.repeat(300_000) + '\u0000|,;\t\n\u001f' + 'x'.repeat(70_000);
  const texts = ['', 'a', 'exactly12byt', 'thirteen byte', 'ééééééé', '12345678901é', '\u0000', ',|;\t\n\u001e\u001f\u0000', '𝄞 non-BMP ✓', 'x'.repeat(4096)];
  const rpcIds: (string | number)[] = [
    7,
    0,
    -3,
    123456789012345,
    1.5,
    1e21,
    2 ** 53 + 2,
    '',
    'abc',
    '7',
    'with "quote"',
    'back\\slash',
    'é→x',
    '\u0000nul',
    'lone \ud800 surrogate',
    'new\nline',
  ];
  beforeAll(async () => {
    store = await Store.open(':memory:');
    const events: Event[] = [];
    // Rows over several DuckDB chunks.
    for (let i = 0; i < 9000; i++) {
      const t = i === 17 || i === 4321 ? long : texts[i % texts.length]!;
      events.push(
        base({
          file: i % 3 ? 'a/é.log' : 'b,c|d.log',
          line: i + 1,
          endLine: i + 1 + (i % 5),
          source: (['client', 'proxy', 'server', 'unknown'] as const)[i % 4],
          kind: i % 50 === 0 ? 'block' : 'line',
          // Ties in ts, NULL ts, negative and out-of-order times.
          ts: i % 13 === 0 ? null : i % 7 === 0 ? -5000 + i : 1_700_000_000_000 + Math.floor(i / 4) * 3 - (i % 3),
          level: i % 6 === 0 ? null : (['debug', 'info', 'warn', 'error'] as const)[i % 4],
          message: i % 9 === 0 ? '' : t.slice(0, 200),
          text: t,
          httpMethod: i % 2 ? 'POST' : null,
          httpPath: i % 2 ? `/mcp/${'p'.repeat(i % 20)}` : null,
          httpStatus: i % 4 === 1 ? [200, 404, 502][i % 3]! : null,
          requestId: i % 3 === 0 ? `req-${i}-${'r'.repeat(i % 17)}` : null,
          rpcId: i % 4 === 3 ? null : rpcIds[i % rpcIds.length]!,
          rpcMethod: i % 5 === 0 ? null : 'tools/call',
          tool: i % 8 === 0 ? 'get_order' : null,
          session: i % 10 === 0 ? null : `sess_${(i % 37).toString().padStart(12, 'a')}`,
          protocolVersion: i % 100 === 0 ? '2025-06-18' : null,
          durationMs: i % 3 === 1 ? (i * 0.37) % 1000 : null,
          signals: i % 11 === 0 ? ['session-not-found', 'http-404'] : i % 11 === 1 ? ['http-404-x'] : [],
        }),
      );
    }
    await store.ingest(id, 'awkward', async (w) => {
      for (const e of events) w.write(e);
      return { files: [], redactions: {} };
    });
    // rpc_id values no ingest writes (JSON.stringify never makes them) but the column may hold.
    const odd = ['1.0', '1e3', '-0', '"\\u00e9"', '"a\\"b"', '12345678901234567890', '0.1', '"ok"'];
    for (const [k, v] of odd.entries()) {
      await store.query(
        `INSERT INTO events (incident_id, seq, file, line, end_line, source, format, kind, ts, message, text, rpc_id) VALUES ($id, $seq, 'odd.log', $line, $line, 'server', 'fmt', 'line', $ts, 'odd', 'odd', $rpc)`,
        { id, seq: 100_000 + k, line: k + 1, ts: k % 2 ? 1_700_000_000_000 : null, rpc: v },
      );
    }
  });
  afterAll(async () => store.close());

  it.each([
    {},
    { limit: 333, offset: 1234 },
    { source: 'proxy' as const },
    { q: 'é' },
    { q: '\u0000' },
    { level: 'error' as const, limit: 50 },
    { rpcId: 'abc' },
    { file: 'b,c|d.log', limit: 10_000 },
    { to: 0 },
    { signal: 'http-404' },
  ])('same page as the row path for %j', async (f) => {
    await expectSamePage(store, id, f);
  });

  it('a signal filter matches whole ids in the space-separated column', async () => {
    const f = (signal: string) => ({ ...EventFilters.parse({}), signal, limit: 100_000 }) as EventFilters;
    const hit = await queryEvents(store, id, f('http-404'));
    expect(hit.total).toBe(Math.ceil(9000 / 11));
    expect(hit.rows.toArray().every((r) => String(r.signals).split(' ').includes('http-404'))).toBe(true);
    expect((await queryEvents(store, id, f('http-404-x'))).total).toBe(Math.ceil(8999 / 11));
    expect((await queryEvents(store, id, f('http'))).total).toBe(0);
  });

  it('the whole incident in one page', async () => {
    expect(await expectSamePage(store, id, { limit: 100_000 })).toBe(9008);
  });

  it("keyset pages (after = the previous page's last key) give the same rows as offset pages", async () => {
    for (const filters of [{}, { source: 'client' as const }, { q: 'é' }]) {
      const limit = 357;
      const seen: unknown[] = [];
      let after: string | undefined;
      for (let page = 0; page < 100; page++) {
        const r = await queryEvents(store, id, EventFilters.parse({ ...filters, limit, after }));
        const byOffset = await legacyQueryEvents(store, id, EventFilters.parse({ ...filters, limit, offset: page * limit }));
        expect(r.rows.toArray()).toEqual(byOffset.rows);
        expect(r.total).toBe(byOffset.total);
        seen.push(...r.rows.toArray());
        if (!r.next) break;
        const last = r.rows.at(-1)!;
        expect(r.next).toBe(`${last.ts ?? 'null'},${last.seq}`);
        after = r.next;
      }
      expect(seen).toEqual((await legacyQueryEvents(store, id, EventFilters.parse({ ...filters, limit: 100_000 }))).rows);
    }
  });

  it('an offset combined with a cursor counts from the cursor', async () => {
    const all = (await legacyQueryEvents(store, id, EventFilters.parse({ limit: 100_000 }))).rows;
    const k = all[999]!;
    const r = await queryEvents(store, id, EventFilters.parse({ after: `${k.ts ?? 'null'},${k.seq}`, offset: 10, limit: 5 }));
    expect(r.rows.toArray()).toEqual(all.slice(1010, 1015));
    const nullTs = all.find((row) => row.ts === null)!;
    const r2 = await queryEvents(store, id, EventFilters.parse({ after: `null,${nullTs.seq}`, limit: 3 }));
    expect(r2.rows.toArray()).toEqual(all.slice(all.indexOf(nullTs) + 1, all.indexOf(nullTs) + 4));
  });

  it('rejects a malformed cursor', () => {
    for (const bad of ['1,2,3', 'x,1', '1', ',1', '1.5,2', 'null,-1']) expect(EventFilters.safeParse({ after: bad }).success).toBe(false);
  });
});

describe('deep offsets, located from a ts histogram', () => {
  let store: Store;
  const id = 'inc_deep';
  beforeAll(async () => {
    store = await Store.open(':memory:');
    // 60k events: long runs of one ts (a 40k-row burst inside one 33 s bucket, to make the
    // histogram refine), NULL ts at the end, and seq order unlike ts order.
    await store.query(`INSERT INTO events (incident_id, seq, file, line, end_line, source, format, kind, ts, level, message, text, rpc_id)
      SELECT '${id}', i, 'f' || (i % 3) || '.log', i + 1, i + 1, ['client', 'proxy', 'server'][(i % 3) + 1], 'fmt', 'line',
        CASE WHEN i % 101 = 0 THEN NULL WHEN i < 40000 THEN 1700000000000 + (i % 997) // 50 ELSE 1700000000000 + (59999 - i) * 1000 END,
        CASE WHEN i % 7 = 0 THEN 'error' ELSE 'info' END, 'm' || i, 'text ' || i, CASE WHEN i % 2 = 0 THEN (i // 2)::VARCHAR END
      FROM range(60000) t(i)`);
  });
  afterAll(async () => store.close());

  it.each([20_001, 25_000, 39_999, 40_000, 59_000, 59_400, 59_999, 60_000, 70_000])('offset %i: same page as OFFSET', async (offset) => {
    await expectSamePage(store, id, { offset, limit: 250 });
  });

  it.each([{ limit: 100_000 }, { limit: 30_000, offset: 25_000 }, { limit: 9_000, offset: 55_000 }, { level: 'info' as const, limit: 50_000 }])('large page %j', async (f) => {
    await expectSamePage(store, id, f);
  });

  it('a large page of an incident stored in reverse seq order', async () => {
    await store.query(`INSERT INTO events (incident_id, seq, file, line, end_line, source, format, kind, ts, message, text)
      SELECT 'inc_reverse', i, 'r.log', i + 1, i + 1, 'server', 'fmt', 'line', CASE WHEN i % 11 = 0 THEN NULL ELSE 1700000000000 + (i * 7919) % 5000 END, 'm' || i, 't' || i
      FROM range(12000) t(i) ORDER BY i DESC`);
    expect(await expectSamePage(store, 'inc_reverse', { limit: 100_000 })).toBe(12_000);
  });

  it.each([
    { level: 'error' as const, offset: 8_000 },
    { level: 'error' as const, offset: 21_000 },
    { source: 'proxy' as const, offset: 19_950 },
    { q: 'text 1', offset: 20_500 },
  ])('filtered %j', async (f) => {
    await expectSamePage(store, id, { ...f, limit: 100 });
  });

  it('a cursor plus a deep offset', async () => {
    const all = (await legacyQueryEvents(store, id, EventFilters.parse({ limit: 100_000 }))).rows;
    const k = all[5000]!;
    const r = await queryEvents(store, id, EventFilters.parse({ after: `${k.ts ?? 'null'},${k.seq}`, offset: 30_000, limit: 20 }));
    expect(r.rows.toArray()).toEqual(all.slice(35_001, 35_021));
    expect(r.total).toBe(60_000);
  });
});
