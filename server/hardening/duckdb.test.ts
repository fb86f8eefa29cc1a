// DuckDB hardening (redaction.md §5.4): after setup, no file or network access from SQL, no
// extension loading, and the configuration locked — and none of it breaks the store.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ingestIncident, openContext } from '../incidents.ts';
import { entriesFromPaths } from '../ingest/inputs.ts';
import { queryEvents, EventFilters } from '../store/events-query.ts';
import { Store } from '../store/store.ts';
import { REPO, tempWorkspace } from '../testing/helpers.ts';

const ws = tempWorkspace();
afterAll(() => ws.cleanup());
const SAMPLE = join(REPO, 'samples', 'restart-stale-session');

async function setting(store: Store, name: string): Promise<unknown> {
  const [row] = await store.query<{ v: unknown }>(`SELECT current_setting('${name}') AS v`);
  return row!.v;
}

describe('DuckDB after Store.open', () => {
  it('has external access and extension autoload/autoinstall off; SQL cannot read files', async () => {
    const store = await Store.open(join(ws.dir, 'a.duckdb'));
    try {
      expect(await setting(store, 'enable_external_access')).toBe(false);
      expect(await setting(store, 'autoload_known_extensions')).toBe(false);
      expect(await setting(store, 'autoinstall_known_extensions')).toBe(false);
      const secret = join(ws.dir, 'secret.txt');
      writeFileSync(secret, 'raw secret\n');
      await expect(store.query(`SELECT content FROM read_text('${secret}')`)).rejects.toThrow(/disabled by configuration/);
      await expect(store.query(`COPY (SELECT 1) TO '${join(ws.dir, 'out.csv')}'`)).rejects.toThrow();
      await expect(store.query(`ATTACH '${join(ws.dir, 'other.duckdb')}' AS o`)).rejects.toThrow();
      await expect(store.query('INSTALL httpfs')).rejects.toThrow();
      await expect(store.query('LOAD spatial')).rejects.toThrow();
    } finally {
      await store.close();
    }
  });

  // Without the lock, any statement that reaches DuckDB could turn extension autoloading back on
  // or raise memory and thread limits; the next test shows the lock breaks nothing.
  it('locks the configuration', async () => {
    const store = await Store.open(join(ws.dir, 'b.duckdb'));
    try {
      expect(await setting(store, 'lock_configuration')).toBe(true);
      await expect(store.query('SET autoload_known_extensions = true')).rejects.toThrow(/locked/);
    } finally {
      await store.close();
    }
  });

  it('locking the configuration after setup breaks nothing: ingest, query, delete, close, reopen', async () => {
    const db = join(ws.dir, 'c.duckdb');
    for (let round = 0; round < 2; round++) {
      const ctx = await openContext({ env: ws.env, db, keyFile: ws.keyFile });
      try {
        // Store.open already turned external access off and locked the configuration.
        await expect(ctx.store.query('SET enable_external_access = true')).rejects.toThrow(/locked|Cannot enable/);
        const { id, analysis } = await ingestIncident(ctx, entriesFromPaths([SAMPLE]), { name: `round ${round}` });
        expect(analysis.decision).toBe('reinitialize');
        const { rows, total } = await queryEvents(ctx.store, id, EventFilters.parse({ source: 'proxy', limit: 5 }));
        expect(rows.length).toBeGreaterThan(0);
        expect(total).toBeGreaterThan(0);
        expect((await ctx.store.listIncidents()).length).toBe(round + 1);
        if (round === 1) expect(await ctx.store.deleteIncident(id)).toBe(true);
        await ctx.store.query('CHECKPOINT');
      } finally {
        await ctx.store.close();
      }
    }
    const store = await Store.open(db);
    expect((await store.listIncidents()).map((i) => i.name)).toEqual(['round 0']);
    await store.close();
  });
});
