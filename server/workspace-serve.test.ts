// One owner of the workspace at a time, with real processes: `serve` holds the workspace lock,
// `purge` refuses while it is held (naming the PID) and works once serve is gone; a lock left by
// a killed serve is taken over with a note; other writers of the workspace database are refused
// by DuckDB's own lock, in one line. Port errors are one line, before any heavy work.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { main } from './cli/main.ts';
import { REPO, tempWorkspace } from './testing/helpers.ts';
import { lockPath, readLock } from './workspace-lock.ts';

const run = promisify(execFile);
const BIN = join(REPO, 'server/cli/bin.mjs');
const spaces: ReturnType<typeof tempWorkspace>[] = [];
afterAll(() => spaces.forEach((w) => w.cleanup()));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

function workspace() {
  const w = tempWorkspace();
  spaces.push(w);
  return { ...w, home: w.env.MCP_TRIAGE_HOME! };
}

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}
async function exec(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<Ran> {
  const t0 = Date.now();
  try {
    const r = await run(file, args, { cwd: REPO, env, maxBuffer: 16 << 20 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr, ms: Date.now() - t0 };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr, ms: Date.now() - t0 };
  }
}
const cli = (env: NodeJS.ProcessEnv, ...args: string[]) => exec(process.execPath, [BIN, ...args], env);

/** `mcp-triage serve --port 0` as a real process; resolves once it is listening. */
async function startServe(env: NodeJS.ProcessEnv, ...extra: string[]): Promise<{ child: ChildProcess; port: number; stderr: () => string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...extra], { cwd: REPO, env, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let err = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /serving http:\/\/[^:]+:(\d+)\//.exec(err);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  return { child, port, stderr: () => err };
}

const exited = (c: ChildProcess) => new Promise<number | null>((r) => (c.exitCode !== null || c.signalCode !== null ? r(c.exitCode) : c.once('exit', (code) => r(code))));

function oneLine(r: Ran): string {
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^mcp-triage: /);
  return lines[0]!;
}

async function busyPort(): Promise<{ port: number; server: Server }> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((ok) => server.once('listening', ok));
  return { port: (server.address() as AddressInfo).port, server };
}

describe('serve owns the workspace; purge refuses while it runs', () => {
  it('purge --yes is refused naming the serve PID; after serve stops, purge deletes the workspace', async () => {
    const ws = workspace();
    const s = await startServe(ws.env);
    const pid = s.child.pid!;
    expect(readLock(lockPath(ws.home))).toMatchObject({ pid, command: 'serve', url: `http://127.0.0.1:${s.port}/` });

    const refused = await cli(ws.env, 'purge', '--yes');
    expect(refused.code).toBe(1);
    const line = oneLine(refused);
    expect(line).toContain(`PID ${pid}`);
    expect(line).toMatch(/not deleted.*stop it first.*then run purge again/);
    expect(existsSync(join(ws.home, 'mcp-triage.duckdb'))).toBe(true);
    // the server is untouched and still answers
    expect((await fetch(`http://127.0.0.1:${s.port}/api/health`)).status).toBe(200);

    // A second serve on the same workspace is refused too, naming the first and where it serves.
    const second = await cli(ws.env, 'serve', '--port', '0');
    expect(second.code).toBe(1);
    expect(oneLine(second)).toMatch(new RegExp(`already served by mcp-triage serve \\(PID ${pid}, http://127\\.0\\.0\\.1:${s.port}/\\)`));

    s.child.kill('SIGTERM');
    expect(await exited(s.child)).toBe(0);
    expect(existsSync(lockPath(ws.home))).toBe(false);

    const ok = await cli(ws.env, 'purge', '--yes');
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toMatch(/^deleted /);
    expect(existsSync(ws.home)).toBe(false);
  });

  it('Ctrl-C (SIGINT) and SIGHUP remove the lock too', async () => {
    for (const sig of ['SIGINT', 'SIGHUP'] as const) {
      const ws = workspace();
      const s = await startServe(ws.env);
      expect(existsSync(lockPath(ws.home))).toBe(true);
      s.child.kill(sig);
      expect(await exited(s.child), sig).toBe(0);
      expect(existsSync(lockPath(ws.home)), sig).toBe(false);
    }
  });

  it('a serve killed with SIGKILL leaves a stale lock: purge takes it over with a note and deletes', async () => {
    const ws = workspace();
    const s = await startServe(ws.env);
    const pid = s.child.pid!;
    s.child.kill('SIGKILL');
    await exited(s.child);
    expect(readLock(lockPath(ws.home))).toMatchObject({ pid });

    const r = await cli(ws.env, 'purge', '--yes');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`^mcp-triage: note: took over the workspace lock of serve PID ${pid} \\(PID ${pid} is not running`, 'm'));
    expect(r.stderr).toMatch(/^deleted /m);
    expect(existsSync(ws.home)).toBe(false);
  });

  it('…and a new serve takes a stale lock over, saying so', async () => {
    const ws = workspace();
    const first = await startServe(ws.env);
    const pid = first.child.pid!;
    first.child.kill('SIGKILL');
    await exited(first.child);
    const next = await startServe(ws.env);
    expect(next.stderr()).toMatch(new RegExp(`note: took over the workspace lock of serve PID ${pid}`));
    expect(readLock(lockPath(ws.home))).toMatchObject({ pid: next.child.pid });
    next.child.kill('SIGTERM');
    expect(await exited(next.child)).toBe(0);
  });

  it('another writer of the workspace database (analyze --db) is refused in one line naming the PID, not an internal error', async () => {
    const ws = workspace();
    const s = await startServe(ws.env);
    const r = await cli(ws.env, 'analyze', 'samples/healthy-control', '--db', join(ws.home, 'mcp-triage.duckdb'));
    expect(r.code).toBe(1);
    expect(oneLine(r)).toMatch(new RegExp(`database .*mcp-triage\\.duckdb is in use by another process \\(PID ${s.child.pid}\\)`));
    // without --db, analyze uses its own in-memory database and runs beside serve
    const mem = await cli(ws.env, 'analyze', 'samples/healthy-control', '--json');
    expect(mem.code, mem.stderr).toBe(0);
  });

  it('purge is refused while another process has the workspace database open (a long analyze --db)', async () => {
    const ws = workspace();
    mkdirSync(ws.home, { mode: 0o700 });
    const holder = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'server/testing/hold-database.ts'), join(ws.home, 'mcp-triage.duckdb')], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(holder);
    await new Promise<void>((ok, fail) => {
      holder.stdout!.on('data', (d: Buffer) => d.toString().includes('open') && ok());
      holder.once('exit', (c) => fail(new Error(`holder exited ${c}`)));
    });
    const r = await cli(ws.env, 'purge', '--yes');
    expect(r.code).toBe(1);
    expect(oneLine(r)).toMatch(new RegExp(`not deleted: another process \\(PID ${holder.pid}\\) has the database .* open`));
    expect(existsSync(join(ws.home, 'mcp-triage.duckdb'))).toBe(true);
    expect(existsSync(lockPath(ws.home))).toBe(false); // purge let go of its own lock
    holder.kill('SIGKILL');
    await exited(holder);
    expect((await cli(ws.env, 'purge', '--yes')).code).toBe(0);
  });
});

describe('port errors: exit 1, one line, before any heavy work', () => {
  it('serve --port out of range, not a number or not whole: exit 1, one line, nothing opened', async () => {
    const ws = workspace();
    const r = await cli(ws.env, 'serve', '--port', '99999');
    expect(r.code).toBe(1);
    expect(oneLine(r)).toBe('mcp-triage: serve: --port takes a whole number from 0 to 65535 (0 picks a free one), got "99999"');
    expect(r.stdout).toBe('');
    expect(existsSync(ws.home)).toBe(false); // refused before even the workspace lock
    console.info(`serve --port 99999 answered in ${r.ms} ms`);
    for (const bad of ['abc', '-1', '80.5', '', '65536']) {
      const out: string[] = [];
      const sink = { write: (s: string) => (out.push(s), true) } as never;
      expect(await main(['serve', '--port', bad], { stdout: sink, stderr: sink, stdin: process.stdin, cwd: REPO, env: ws.env }), bad).toBe(1);
      expect(out.join(''), bad).toMatch(/^mcp-triage: serve: --port takes a whole number from 0 to 65535/);
    }
  });

  it('serve on a busy port: exit 1, one line, before the database is opened; the lock is released', async () => {
    const ws = workspace();
    const { port, server } = await busyPort();
    try {
      const r = await cli(ws.env, 'serve', '--port', String(port));
      expect(r.code).toBe(1);
      expect(oneLine(r)).toBe(`mcp-triage: serve: 127.0.0.1:${port} is already in use (another mcp-triage?); stop it or pass --port N (PORT=N for npm start)`);
      expect(existsSync(join(ws.home, 'mcp-triage.duckdb'))).toBe(false);
      expect(existsSync(lockPath(ws.home))).toBe(false);
      console.info(`serve on a busy port answered in ${r.ms} ms`);
    } finally {
      server.close();
    }
  });

  it('npm start (server/main.ts) with a busy or invalid PORT: one line, before the UI build and the sample load', async () => {
    const ws = workspace();
    const indexHtml = join(REPO, 'ui/dist/index.html');
    const before = existsSync(indexHtml) ? statSync(indexHtml).mtimeMs : null;
    const { port, server } = await busyPort();
    try {
      const start = (PORT: string) => exec(process.execPath, ['--import', 'tsx', join(REPO, 'server/main.ts')], { ...ws.env, PORT });
      const busy = await start(String(port));
      expect(busy.code).toBe(1);
      expect(oneLine(busy)).toMatch(new RegExp(`^mcp-triage: serve: 127\\.0\\.0\\.1:${port} is already in use`));
      const bad = await start('99999');
      expect(bad.code).toBe(1);
      expect(oneLine(bad)).toBe('mcp-triage: serve: PORT takes a whole number from 0 to 65535 (0 picks a free one), got "99999"');
      // …and through npm itself (npm adds its own banner and error lines around ours)
      const npm = await exec('npm', ['start', '--silent'], { ...ws.env, PORT: String(port) });
      expect(npm.code).not.toBe(0);
      expect(
        npm.stderr.split('\n').filter((l) => l.startsWith('mcp-triage: ')),
        npm.stderr,
      ).toEqual([expect.stringMatching(new RegExp(`^mcp-triage: serve: 127\\.0\\.0\\.1:${port} is already in use`))]);
      expect(npm.stdout + npm.stderr).not.toMatch(/vite|built in|sample/i);
      console.info(`npm start on a busy port answered in ${npm.ms} ms`);
      // nothing heavy ran: no vite output, no samples loaded, no database, the UI build untouched
      expect(existsSync(ws.home) ? readdirSync(ws.home) : []).toEqual([]);
      expect(existsSync(indexHtml) ? statSync(indexHtml).mtimeMs : null).toBe(before);
      console.info(`server/main.ts on a busy port answered in ${busy.ms} ms (npm start used to take 9–16 s)`);
    } finally {
      server.close();
    }
  });
});
