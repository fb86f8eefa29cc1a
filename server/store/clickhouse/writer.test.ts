// Writing to the shared store: idempotent per incident and file hash, an ingest visible only once
// every batch landed, and faults (a connection broken before or after a batch, a crash before the
// commit) that neither duplicate nor lose rows. On one node and on a two-shard cluster.
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TriageError } from '../../errors.ts';
import { ingestIncident, openContext, type Context } from '../../incidents.ts';
import { entriesFromPaths } from '../../ingest/inputs.ts';
import { REPO, tempWorkspace } from '../../testing/helpers.ts';
import { rowToEvent } from '../store.ts';
import { EventFilters } from '../event-filters.ts';
import { chQueryEvents } from './events.ts';
import { ClickHouseStore } from './store.ts';
import { parseStoreUrl } from './target.ts';
import { TestClickHouse } from './testing/server.ts';
import { strict } from './testing/strict.ts';
import { IngestWriter } from './writer.ts';

const DIR = join(REPO, 'samples', 'restart-stale-session');
const FIRST = ['client.log', 'server.log'].map((f) => join(DIR, f));
const SECOND = ['nginx-access.log', 'nginx-access.json.log', 'nginx-error.log'].map((f) => join(DIR, f));
const entries = (paths: string[]) => entriesFromPaths(paths);
/** As the contract carries it: JSON (so -0 is 0, as `analyze --json` prints it). */
const json = (a: unknown) => JSON.parse(JSON.stringify(a)) as unknown;
const lost = () => new TriageError('TRIAGE_ERR_STORE', 'injected: connection broken', { kind: 'unreachable' });

const ws = tempWorkspace();
let ctx: Context;
beforeAll(async () => {
  ctx = await openContext({ env: ws.env, db: ':memory:', keyFile: ws.keyFile });
});
afterAll(async () => {
  await ctx?.store.close();
  ws.cleanup();
});
afterEach(() => {
  IngestWriter.faults = {};
});

async function eventsOf(store: ClickHouseStore, id: string) {
  const out = [];
  for await (const e of store.allEvents(id)) out.push(e);
  return out;
}

async function embeddedEvents(id: string) {
  const rows = await ctx.store.query<Record<string, unknown>>('SELECT seq, * EXCLUDE (seq), attrs::VARCHAR AS attrs FROM events WHERE incident_id = $id ORDER BY seq', { id });
  return rows.map((r) => ({ ...rowToEvent(r), seq: Number(r.seq) }));
}

describe.each([1, 2])('writing to ClickHouse (%i shard(s))', (shards) => {
  let server: TestClickHouse;
  let store: ClickHouseStore;
  beforeAll(async () => {
    server = await TestClickHouse.start(shards);
    store = await ClickHouseStore.open(parseStoreUrl(server.url('writer'), 'env'));
  });
  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });

  it('files added later: the same incident as the embedded store makes; the same files again add nothing', async () => {
    const a = await ingestIncident(strict(ctx), entries(FIRST), { name: 'x' });
    const b = await ingestIncident(strict(ctx), entries(SECOND), { id: a.id, name: 'x' });
    const s1 = await store.ingest(ctx, entries(FIRST), { name: 'x' });
    expect(s1.analysis).toEqual(json(a.analysis));
    const s2 = await store.ingest(ctx, entries(SECOND), { id: s1.id, name: 'x' });
    expect(s2.added).toBe(3);
    expect(s2.analysis).toEqual(json(b.analysis));
    expect(await eventsOf(store, s1.id)).toEqual(await embeddedEvents(a.id));
    // A re-upload of files the incident holds (by content hash): skipped, nothing duplicated.
    const again = await store.ingest(ctx, entries([...FIRST, ...SECOND]), { id: s1.id, name: 'x' });
    expect({ added: again.added, skipped: again.skipped }).toEqual({ added: 0, skipped: 5 });
    expect(again.analysis).toEqual(json(b.analysis));
    expect(await eventsOf(store, s1.id)).toEqual(await embeddedEvents(a.id));
    expect((await store.files(s1.id)).map((f) => f.path)).toEqual(['client.log', 'server.log', 'nginx-access.log', 'nginx-access.json.log', 'nginx-error.log']);
    expect((await store.incident(s1.id))!.state).toBe('ready');
  });

  it('a batch whose answer was lost is counted, not sent twice; one broken before sending is sent again', async () => {
    const want = await ingestIncident(strict(ctx), entries([DIR]), { name: 'x' });
    const seen: string[] = [];
    IngestWriter.faults.insert = (table, attempt, when) => {
      seen.push(`${table}:${attempt}:${when}`);
      if (table === 'events' && attempt === 1 && when === 'after') throw lost();
      if (table === 'failures' && attempt === 1 && when === 'before') throw lost();
    };
    const r = await store.ingest(ctx, entries([DIR]), { name: 'x' });
    expect(seen).toContain('events:1:after');
    expect(seen).not.toContain('events:2:before'); // it had landed: counted, not re-sent
    expect(seen).toContain('failures:2:after'); // it had not: sent again
    expect(r.analysis).toEqual(json(want.analysis));
    expect(await eventsOf(store, r.id)).toEqual(await embeddedEvents(want.id));
  });

  it('an ingest that fails is never seen: a new incident is incomplete; an existing one stays as it was and takes the files again exactly once', async () => {
    IngestWriter.faults.insert = (table) => {
      if (table === 'spans') throw new TriageError('TRIAGE_ERR_STORE', 'injected: refused', { kind: 'refused' });
    };
    const err = await store.ingest(ctx, entries([DIR]), { name: 'doomed' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TriageError);
    expect((err as TriageError).code).toBe('TRIAGE_ERR_STORE');
    const doomed = (await store.listIncidents()).find((i) => i.name === 'doomed')!;
    expect(doomed.state).toBe('incomplete');
    expect(await store.readable(doomed.id)).toBeNull();
    await expect(chQueryEvents(store, doomed.id, EventFilters.parse({}))).rejects.toMatchObject({ code: 'TRIAGE_ERR_NOT_FOUND' });

    // An incident with the first files; adding the rest crashes after every batch landed, before the commit.
    IngestWriter.faults = {};
    const first = await store.ingest(ctx, entries(FIRST), { name: 'x' });
    const before = await eventsOf(store, first.id);
    IngestWriter.faults.commit = () => {
      throw new Error('injected: the process died here');
    };
    await expect(store.ingest(ctx, entries(SECOND), { id: first.id, name: 'x' })).rejects.toThrow('injected');
    IngestWriter.faults = {};
    expect(await eventsOf(store, first.id)).toEqual(before);
    expect(await store.analysis(first.id)).toEqual(json(first.analysis));
    // The retry adds the files (their rows from the crashed ingest stay invisible: no duplicates).
    const retry = await store.ingest(ctx, entries(SECOND), { id: first.id, name: 'x' });
    expect(retry.added).toBe(3);
    const a = await ingestIncident(strict(ctx), entries(FIRST), { name: 'x' });
    const b = await ingestIncident(strict(ctx), entries(SECOND), { id: a.id, name: 'x' });
    expect(retry.analysis).toEqual(json(b.analysis));
    expect(await eventsOf(store, first.id)).toEqual(await embeddedEvents(a.id));
    const total = await chQueryEvents(store, first.id, EventFilters.parse({ limit: 1 }));
    expect(total.total).toBe((await embeddedEvents(a.id)).length);
  });

  it('a deleted incident is gone from every read', async () => {
    const r = await store.ingest(ctx, entries([join(REPO, 'samples', 'wrong-path')]), { name: 'x' });
    expect(await store.deleteIncident(r.id)).toBe(true);
    expect(await store.deleteIncident(r.id)).toBe(false);
    expect(await store.incident(r.id)).toBeNull();
    expect((await store.listIncidents()).some((i) => i.id === r.id)).toBe(false);
    expect(await store.analysis(r.id)).toBeNull();
    await expect(store.ingest(ctx, entries(FIRST), { id: r.id, name: 'x' })).rejects.toMatchObject({ code: 'TRIAGE_ERR_NOT_FOUND' });
  });
});
