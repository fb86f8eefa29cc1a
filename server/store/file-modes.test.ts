// Every file the store writes is private (0600, folders 0700), whatever the umask the process
// started with: the database, its .wal — which DuckDB deletes at each checkpoint and creates again
// at the next write, long after the open — and the workspace files beside them.
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestIncident, openContext } from '../incidents.ts';
import { entriesFromPaths } from '../ingest/inputs.ts';
import { REPO, tempWorkspace } from '../testing/helpers.ts';
import { privateUmask, Store } from './store.ts';

const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);

let saved = 0;
beforeEach(() => {
  saved = process.umask(0o022); // what a login shell usually has
});
afterEach(() => {
  process.umask(saved);
});

describe('file modes of the store', () => {
  it('keeps the database and its .wal 0600 for as long as it is open, across checkpoints', async () => {
    const ws = tempWorkspace();
    try {
      const db = join(ws.dir, 'modes', 'm.duckdb');
      const ctx = await openContext({ env: ws.env, db, keyFile: ws.keyFile });
      await ingestIncident(ctx, entriesFromPaths([join(REPO, 'samples', 'restart-stale-session')]), { name: 'modes' });
      expect(mode(db)).toBe('600');
      expect(existsSync(`${db}.wal`)).toBe(true);
      expect(mode(`${db}.wal`)).toBe('600');
      expect(mode(join(ws.dir, 'modes'))).toBe('700');
      // The .wal goes at a checkpoint and comes back with the next write: private again.
      await ctx.store.query('CHECKPOINT');
      expect(existsSync(`${db}.wal`)).toBe(false);
      await ctx.store.setToolPolicy((await ctx.store.listIncidents())[0]!.id, { tools: {} });
      expect(existsSync(`${db}.wal`)).toBe(true);
      expect(mode(`${db}.wal`)).toBe('600');
      // Upload folders and the key are private too (upload.ts, workspace.ts).
      expect(mode(ws.keyFile)).toBe('600');
      await ctx.store.close();
      // Closed: the umask the process had is back.
      expect(process.umask(0o022)).toBe(0o022);
    } finally {
      ws.cleanup();
    }
  });

  it('tightens files an older version left readable', async () => {
    const ws = tempWorkspace();
    try {
      const db = join(ws.dir, 'old.duckdb');
      const s1 = await Store.open(db);
      await s1.query(`INSERT INTO meta VALUES ('x', 'y')`);
      await s1.close();
      chmodSync(db, 0o644);
      if (existsSync(`${db}.wal`)) chmodSync(`${db}.wal`, 0o644);
      mkdirSync(`${db}.tmp`, { mode: 0o755 });
      chmodSync(`${db}.tmp`, 0o755);
      writeFileSync(join(`${db}.tmp`, 'spill.block'), 'x', { mode: 0o644 });
      const s2 = await Store.open(db);
      try {
        expect(mode(db)).toBe('600');
        if (existsSync(`${db}.wal`)) expect(mode(`${db}.wal`)).toBe('600');
        expect(mode(`${db}.tmp`)).toBe('700');
        for (const f of readdirSync(`${db}.tmp`)) expect(mode(join(`${db}.tmp`, f))).toBe('600');
      } finally {
        await s2.close();
      }
    } finally {
      ws.cleanup();
    }
  });

  it('shares the private umask between open stores and restores it after the last', () => {
    const a = privateUmask();
    const b = privateUmask();
    a();
    a(); // twice is once
    expect(process.umask(0o077)).toBe(0o077);
    b();
    expect(process.umask(0o022)).toBe(0o022);
  });
});
