// The parity suite, shared by the one-node and the two-shard test files: every sample incident
// (samples/*/ with expected.analysis.json) and every recorded incident (samples/recorded/*) gives
// the same `analyze --json` with `--store clickhouse://…` as with the embedded store; the report
// of the stored incident (report --store --incident) is the embedded store's report; and every
// event reads back from ClickHouse as DuckDB holds it.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { incidentReport, ingestIncident, openContext, type Context } from '../../../incidents.ts';
import { entriesFromPaths } from '../../../ingest/inputs.ts';
import { sampleDirs } from '../../../samples.ts';
import { REPO, tempWorkspace } from '../../../testing/helpers.ts';
import { rowToEvent } from '../../store.ts';
import { ClickHouseStore } from '../store.ts';
import { parseStoreUrl } from '../target.ts';
import { cli, storedId } from './cli.ts';
import { strict } from './strict.ts';
import { TestClickHouse } from './server.ts';

export function parityIncidents(): { name: string; dir: string }[] {
  const samples = sampleDirs().filter((d) => existsSync(join(d, 'expected.analysis.json')));
  const recordedRoot = join(REPO, 'samples', 'recorded');
  const recorded = readdirSync(recordedRoot)
    .filter((n) => !n.startsWith('_') && !n.startsWith('.') && statSync(join(recordedRoot, n)).isDirectory())
    .sort()
    .map((n) => join(recordedRoot, n));
  return [...samples, ...recorded].map((dir) => ({ name: dir.slice(REPO.length).replace(/^\/?samples\//, ''), dir }));
}

/**
 * Each incident is analysed once with the embedded store and once into each store of `stores`
 * (one node, a two-shard cluster): one embedded run serves both comparisons.
 */
export function parityTests(topologies: readonly number[]): void {
  const ws = tempWorkspace();
  const stores: { label: string; server: TestClickHouse; url: string; store: ClickHouseStore }[] = [];
  let embedded: Context;
  beforeAll(async () => {
    for (const shards of topologies) {
      const server = await TestClickHouse.start(shards);
      const url = server.url('parity');
      stores.push({ label: shards === 1 ? 'one node' : `${shards} shards`, server, url, store: await ClickHouseStore.open(parseStoreUrl(url, 'env')) });
    }
    embedded = await openContext({ env: ws.env, db: ':memory:', keyFile: ws.keyFile });
  });
  afterAll(async () => {
    for (const s of stores) {
      await s.store.close();
      await s.server.stop();
    }
    await embedded?.store.close();
    ws.cleanup();
  });

  const incidents = parityIncidents();
  describe(`analyze --json is the same with --store (${topologies.map((n) => (n === 1 ? 'one node' : `${n} shards`)).join(', ')})`, () => {
    it('covers the samples and the recorded incidents', () => {
      expect(incidents.filter((i) => !i.name.startsWith('recorded/')).length).toBeGreaterThanOrEqual(20);
      expect(incidents.filter((i) => i.name.startsWith('recorded/')).length).toBeGreaterThanOrEqual(80);
    });
    it.each(incidents)('$name', async ({ name, dir }) => {
      const args = ['analyze', dir, '--json', '--key-file', ws.keyFile];
      // A shared store is always strict: the embedded run it is compared with is too.
      const local = await cli([...args, '--strict'], ws.env);
      expect(local.code, local.stderr).toBe(0);
      // The samples (whose analyses and reports are reviewed goldens) also compare every stored
      // event and the report read back; the recorded incidents compare the analysis.
      const deep = !name.startsWith('recorded/');
      const e = deep ? await ingestIncident(strict(embedded), entriesFromPaths([dir]), { name: 'x' }) : null;
      const events = e ? await allEmbedded(embedded, e.id) : [];
      const report = e ? await incidentReport(embedded.store, e.id, { key: embedded.key }) : null;
      for (const s of stores) {
        const shared = await cli([...args, '--store', s.url], ws.env);
        expect(shared.code, `${s.label}: ${shared.stderr}`).toBe(0);
        // Byte for byte: decision, failures, rules, evidence, sessions, spans, inputs.
        expect(shared.stdout, s.label).toBe(local.stdout);
        if (!e) continue;
        const id = storedId(shared.stderr);
        const got: unknown[] = [];
        for await (const ev of s.store.allEvents(id)) got.push(ev);
        expect(got.length, s.label).toBe(events.length);
        expect(got, s.label).toEqual(events);
        const r = await incidentReport(s.store, id, { key: embedded.key });
        expect(r.markdown, s.label).toBe(report!.markdown);
        expect(r.redactions, s.label).toEqual(report!.redactions);
      }
      if (e) await embedded.store.deleteIncident(e.id);
    });
  });
}

/** Every event of an embedded incident in seq order, with its seq (as ClickHouseStore.allEvents gives them). */
async function allEmbedded(ctx: Context, id: string) {
  const rows = await ctx.store.query<Record<string, unknown>>(
    `SELECT seq, file, line, end_line, source, format, kind, ts, level, message, text, http_method, http_path, http_status, request_id, rpc_id, rpc_method, tool, session, protocol_version, duration_ms, attrs::VARCHAR AS attrs, signals
     FROM events WHERE incident_id = $id ORDER BY seq`,
    { id },
  );
  return rows.map((r) => ({ ...rowToEvent(r), seq: Number(r.seq) }));
}
