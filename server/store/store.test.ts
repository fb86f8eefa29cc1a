// The store on a real DuckDB file: schema on first open, one transaction per ingest,
// idempotent re-adds, reopen, delete, and no raw session id in the file.
import { readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFormats } from '../../parsers/engine/registry.ts';
import { ingestIncident, openContext, type Context } from '../incidents.ts';
import { entriesFromPaths } from '../ingest/inputs.ts';
import { tempWorkspace, TEST_KEY } from '../testing/helpers.ts';
import { Store } from './store.ts';

const RAW_SESSION = '5d1c9b7e-3f2a-4c8d-9e10-aa55bb66cc77';
const ws = tempWorkspace();
const logs = join(ws.dir, 'logs');
const dbPath = join(ws.dir, 'db', 'test.duckdb');
let ctx: Context;

beforeAll(async () => {
  mkdirSync(logs);
  writeFileSync(
    join(logs, 'client.log'),
    [
      `2026-11-29T10:00:00.000Z INFO [mcp-client] Received session ID: ${RAW_SESSION}`,
      `2026-11-29T10:00:01.000Z DEBUG [mcp-client] POST http://127.0.0.1:9/mcp rpc=4 method=tools/call tool=get_order mcp-session-id=${RAW_SESSION} -> 404 (3 ms)`,
      'this line matches no format',
    ].join('\n'),
  );
  writeFileSync(join(logs, 'proxy-access.log'), `127.0.0.1 - - [29/Nov/2026:10:00:01 +0000] "POST /mcp HTTP/1.1" 404 69 "-" "node"\n`);
  ctx = await openContext({ env: ws.env, db: dbPath, keyFile: ws.keyFile });
});
afterAll(async () => {
  await ctx.store.close().catch(() => undefined);
  ws.cleanup();
});

describe('store on a DuckDB file', () => {
  let id = '';
  it('ingests an incident as one transaction and lists it', async () => {
    const r = await ingestIncident(ctx, entriesFromPaths([logs]), { name: 'test' });
    id = r.id;
    expect(r.added).toBe(2);
    const list = await ctx.store.listIncidents();
    expect(list.map((i) => i.id)).toContain(id);
    const row = list.find((i) => i.id === id)!;
    expect(row).toMatchObject({ state: 'ready', files: 2, events: 4 });
    const files = await ctx.store.files(id);
    expect(files.find((f) => f.path === 'client.log')).toMatchObject({ source: 'client', lines: 3, unparsed: 1 });
  });

  it("tells where each file's events end (line and latest time, untriaged lines too)", async () => {
    const ends = await ctx.store.fileEnds(id);
    expect(ends).toEqual([
      // the untimed raw line 3 carries the time of the line above it
      { file: 'client.log', lastTs: Date.parse('2026-11-29T10:00:01.000Z'), lastLine: 3 },
      { file: 'proxy-access.log', lastTs: Date.parse('2026-11-29T10:00:01.000Z'), lastLine: 1 },
    ]);
  });

  it('skips a file it already holds (content hash)', async () => {
    const r = await ingestIncident(ctx, entriesFromPaths([join(logs, 'client.log')]), { id, name: 'test' });
    expect(r).toMatchObject({ added: 0, skipped: 1 });
    expect((await ctx.store.files(id)).length).toBe(2);
  });

  it('rolls the whole ingest back when it fails half-way', async () => {
    const before = await ctx.store.listIncidents();
    const boom = {
      name: 'boom.log',
      size: 1,
      async *open() {
        yield Buffer.from('line one\n');
        throw new Error('disk gone');
      },
    };
    await expect(ingestIncident(ctx, [boom], { name: 'broken' })).rejects.toThrow(/disk gone/);
    expect((await ctx.store.listIncidents()).length).toBe(before.length);
    const [{ n }] = await ctx.store.query<{ n: bigint }>(`SELECT count(*) AS n FROM events WHERE file = 'boom.log'`);
    expect(Number(n)).toBe(0);
  });

  it('keeps data across a reopen, with the file private', async () => {
    await ctx.store.close();
    expect(statSync(dbPath).mode & 0o777).toBe(0o600);
    const store = await Store.open(dbPath);
    ctx = { store, key: TEST_KEY, formats: loadFormats() };
    expect((await store.analysis(id))?.schemaVersion).toBe(1);
  });

  it('never writes the raw session id into the database file', async () => {
    await ctx.store.close();
    const bytes = readFileSync(dbPath);
    for (const v of [RAW_SESSION, RAW_SESSION.replace(/-/g, '')]) expect(bytes.includes(Buffer.from(v))).toBe(false);
    ctx = { store: await Store.open(dbPath), key: TEST_KEY, formats: loadFormats() };
    const [{ s }] = await ctx.store.query<{ s: string }>(`SELECT any_value(session) AS s FROM events WHERE session IS NOT NULL`);
    expect(s).toMatch(/^sess_[a-z2-7]{10,}$/);
  });

  it('deletes an incident and everything derived from it', async () => {
    expect(await ctx.store.deleteIncident(id)).toBe(true);
    expect(await ctx.store.incident(id)).toBeNull();
    const [{ n }] = await ctx.store.query<{ n: bigint }>(`SELECT count(*) AS n FROM events WHERE incident_id = $id`, { id });
    expect(Number(n)).toBe(0);
    expect(await ctx.store.deleteIncident(id)).toBe(false);
  });
});
