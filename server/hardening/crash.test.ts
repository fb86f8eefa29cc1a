// Crash safety: kill -9 in the middle of a large ingest, then a clean restart; the workspace's
// permissions; purge removes everything.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../cli/main.ts';
import { ingestIncident, openContext } from '../incidents.ts';
import { entriesFromPaths } from '../ingest/inputs.ts';
import { Store } from '../store/store.ts';
import { REPO, tempWorkspace } from '../testing/helpers.ts';
import { ensurePrivateDir, loadOrCreateKey, resolveWorkspace } from '../workspace.ts';

const ws = tempWorkspace();
afterAll(() => ws.cleanup());
const SAMPLE = join(REPO, 'samples', 'restart-stale-session');

/** A folder of client-ish logs big enough that parsing takes a few seconds. */
function bigDir(files: number, lines: number): string {
  const dir = join(ws.dir, 'big');
  mkdirSync(dir, { recursive: true });
  for (let f = 0; f < files; f++) {
    const out: string[] = [];
    for (let i = 0; i < lines; i++) {
      const t = new Date(Date.UTC(2026, 6, 28, 10, 0, 0) + f * 1000 + i * 7).toISOString().replace('T', ' ').replace('Z', '').replace('.', ',');
      out.push(
        i % 50 === 0
          ? `${t} ERROR mcp.client.streamable_http: Error in post_writer: Client error '404 Not Found' for url 'https://mcp.example/mcp' (session ${((i % 5) * 7919).toString(16).padStart(32, '0')})`
          : `${t} INFO httpx: HTTP Request: POST https://mcp.example/mcp "HTTP/1.1 200 OK" id=${i} Authorization: Bearer sk-test${(i % 5).toString(36).padStart(20, 'x')}`,
      );
    }
    writeFileSync(join(dir, `client-${f}.log`), out.join('\n') + '\n');
  }
  return dir;
}

async function consistency(store: Store) {
  const incidents = await store.listIncidents();
  const [orphans] = await store.query<{ n: number }>('SELECT count(*)::INTEGER AS n FROM events WHERE incident_id NOT IN (SELECT id FROM incidents)');
  const [orphanFiles] = await store.query<{ n: number }>('SELECT count(*)::INTEGER AS n FROM files WHERE incident_id NOT IN (SELECT id FROM incidents)');
  const perIncident: { id: string; state: string; counted: number; stored: number }[] = [];
  for (const i of incidents) {
    const files = await store.files(i.id);
    const [row] = await store.query<{ n: number }>('SELECT count(*)::INTEGER AS n FROM events WHERE incident_id = $id', { id: i.id });
    perIncident.push({ id: i.id, state: i.state, counted: files.reduce((s, f) => s + f.events, 0), stored: row!.n });
  }
  return { incidents, orphans: orphans!.n, orphanFiles: orphanFiles!.n, perIncident };
}

describe('kill -9 during a large ingest', () => {
  it('leaves a database that opens, with the incident absent or whole, never half-visible; then a clean restart works', async () => {
    const db = join(ws.dir, 'crash.duckdb');
    // Something committed before the crash, which must survive it.
    const ctx0 = await openContext({ env: ws.env, db, keyFile: ws.keyFile });
    const before = await ingestIncident(ctx0, entriesFromPaths([SAMPLE]), { name: 'before' });
    await ctx0.store.close();

    // Few distinct secrets: many distinct ones make the redactor quadratic (see redactor-scaling.test.ts).
    const dir = bigDir(3, 20_000);
    const child = spawn(process.execPath, [join(REPO, 'server/cli/bin.mjs'), 'analyze', dir, '--db', db, '--key-file', ws.keyFile], {
      env: ws.env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    let killedMidIngest = false;
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      // Parsing the second file: the ingest transaction is open and the first file's events are appended.
      if (!killedMidIngest && /parsing 2\/3/.test(err) && !/analyzing/.test(err)) {
        killedMidIngest = true;
        child.kill('SIGKILL');
      }
    });
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((r) => child.on('exit', (c, s) => r([c, s])));
    expect(killedMidIngest, err).toBe(true);
    expect(signal).toBe('SIGKILL');
    expect(code).toBeNull();

    const store = await Store.open(db);
    try {
      const c = await consistency(store);
      expect(c.orphans).toBe(0);
      expect(c.orphanFiles).toBe(0);
      // The killed ingest rolled back: only the earlier incident is there, whole.
      expect(c.incidents.map((i) => i.id)).toEqual([before.id]);
      for (const p of c.perIncident) {
        expect(['ready', 'incomplete']).toContain(p.state);
        expect(p.stored).toBe(p.counted);
      }
      expect((await store.analysis(before.id))!.decision).toBe('reinitialize');
    } finally {
      await store.close();
    }

    // Clean restart: the same command on the same database runs to the end.
    const out: string[] = [];
    const io = { stdout: { write: (s: string) => out.push(s) }, stderr: { write: () => true }, stdin: process.stdin, cwd: ws.dir, env: ws.env } as never;
    expect(await main(['analyze', join(dir, 'client-0.log'), '--db', db, '--key-file', ws.keyFile, '--json'], io)).toBe(0);
    expect(JSON.parse(out.join('')).inputs[0].lines).toBe(20_000);
    const after = await Store.open(db);
    try {
      const c = await consistency(after);
      expect(c.incidents).toHaveLength(2);
      for (const p of c.perIncident) expect([p.state, p.stored]).toEqual(['ready', p.counted]);
    } finally {
      await after.close();
    }
  });

  it("an incident an older process left 'ingesting' is marked 'incomplete' when the store opens", async () => {
    const db = join(ws.dir, 'stale.duckdb');
    const s1 = await Store.open(db);
    await s1.query(`INSERT INTO incidents (id, name, created_at, state, analysis) VALUES ('inc_stale000', 'cut off', 1, 'ingesting', NULL)`);
    await s1.close();
    const s2 = await Store.open(db);
    try {
      expect((await s2.incident('inc_stale000'))!.state).toBe('incomplete');
      expect(await s2.analysis('inc_stale000')).toBeNull();
    } finally {
      await s2.close();
    }
  });
});

describe('the workspace', () => {
  const home = join(ws.dir, 'wshome');
  const env = { ...process.env, MCP_TRIAGE_HOME: home };

  it('is a 0700 folder with the key and the database 0600', async () => {
    const w = resolveWorkspace({ env });
    const ctx = await openContext({ env });
    try {
      await ingestIncident(ctx, entriesFromPaths([SAMPLE]), { name: 'perm' });
    } finally {
      await ctx.store.close();
    }
    expect(statSync(w.dir).mode & 0o777).toBe(0o700);
    expect(statSync(w.keyFile).mode & 0o777).toBe(0o600);
    expect(statSync(w.dbPath).mode & 0o777).toBe(0o600);
    expect(loadOrCreateKey(w.keyFile).length).toBe(32);
  });

  it('tightens a workspace left open, but never chmods a shared sticky folder', () => {
    const open = join(ws.dir, 'loose');
    mkdirSync(open, { mode: 0o755 });
    ensurePrivateDir(open);
    expect(statSync(open).mode & 0o777).toBe(0o700);
    const shared = join(ws.dir, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    ensurePrivateDir(shared);
    expect(statSync(shared).mode & 0o7777).toBe(0o1777);
  });

  it('purge --yes removes the database, the key and the upload folder', async () => {
    const w = resolveWorkspace({ env });
    mkdirSync(join(w.dir, '.mcp-triage-uploads', '123-x'), { recursive: true });
    const io = { stdout: { write: () => true }, stderr: { write: () => true }, stdin: process.stdin, cwd: ws.dir, env } as never;
    expect(existsSync(w.dbPath)).toBe(true);
    expect(await main(['purge', '--yes'], io)).toBe(0);
    expect(existsSync(w.dir)).toBe(false);
    expect(readdirSync(ws.dir)).not.toContain('wshome');
  });
});
