// The workspace lock on its own: atomic create, refusal naming the live holder, stale locks
// (dead PID, reused PID) taken over with a note, and only one winner when several processes try
// to take over the same stale lock at once. serve/purge with it: workspace-serve.test.ts.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { REPO } from './testing/helpers.ts';
import { acquireWorkspaceLock, lockPath, processStartTime, readLock, WorkspaceBusy, type LockInfo } from './workspace-lock.ts';

const root = mkdtempSync(join(tmpdir(), 'mcp-triage-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(root, `ws${++n}`);
const opts = { command: 'serve' as const, busyMessage: (h: LockInfo) => `held by PID ${h.pid}` };

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

/** A process that is alive until killed. */
async function sleeper(): Promise<ChildProcess> {
  const c = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  children.push(c);
  await new Promise((r) => c.once('spawn', r));
  return c;
}

/** The PID of a process that has exited (so it is, for now, not running). */
async function deadPid(): Promise<number> {
  const c = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((r) => c.once('exit', r));
  return c.pid!;
}

function plant(dir: string, l: Partial<LockInfo> & { pid: number }): void {
  rmSync(dir, { recursive: true, force: true });
  acquireWorkspaceLock(dir, opts).release(); // creates the folder the way serve does
  writeFileSync(lockPath(dir), JSON.stringify({ command: 'serve', hostname: hostname(), startedAt: new Date(0).toISOString(), ...l }), { mode: 0o600 });
}

describe('workspace lock', () => {
  it('is one private file holding our PID, refused to a second taker while held, gone after release', () => {
    const dir = freshDir();
    const lock = acquireWorkspaceLock(dir, opts);
    const path = lockPath(dir);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readLock(path)).toMatchObject({ pid: process.pid, command: 'serve', hostname: hostname() });
    expect(lock.note).toBeUndefined();
    expect(() => acquireWorkspaceLock(dir, opts)).toThrow(`held by PID ${process.pid}`);
    lock.update({ url: 'http://127.0.0.1:1/' });
    expect(readLock(path)).toMatchObject({ pid: process.pid, url: 'http://127.0.0.1:1/' });
    lock.release();
    expect(existsSync(path)).toBe(false);
    // no temporary files left behind
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a lock held by another live process is refused, naming that PID (exit 1 as TRIAGE_ERR_BUSY)', async () => {
    const dir = freshDir();
    const live = await sleeper();
    plant(dir, { pid: live.pid! });
    let err: unknown;
    try {
      acquireWorkspaceLock(dir, opts);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(WorkspaceBusy);
    expect((err as WorkspaceBusy).message).toBe(`held by PID ${live.pid}`);
    expect((err as WorkspaceBusy).exitCode).toBe(1);
    expect(readLock(lockPath(dir))).toMatchObject({ pid: live.pid }); // untouched
  });

  it('release() never removes a lock that is no longer ours', () => {
    const dir = freshDir();
    const lock = acquireWorkspaceLock(dir, opts);
    writeFileSync(lockPath(dir), JSON.stringify({ pid: 1, command: 'purge', hostname: hostname(), startedAt: 'x' }));
    lock.release();
    expect(readLock(lockPath(dir))).toMatchObject({ pid: 1, command: 'purge' });
  });

  it('a lock whose PID is dead is taken over, with a note naming it', async () => {
    const dir = freshDir();
    const pid = await deadPid();
    plant(dir, { pid });
    const lock = acquireWorkspaceLock(dir, opts);
    expect(lock.note).toMatch(new RegExp(`took over the workspace lock of serve PID ${pid} \\(PID ${pid} is not running`));
    expect(readLock(lockPath(dir))).toMatchObject({ pid: process.pid });
    lock.release();
  });

  it.runIf(existsSync('/proc/self/stat'))('Linux: a live PID that started at another time than the holder (a reused PID) is stale too', async () => {
    const dir = freshDir();
    const live = await sleeper();
    const start = processStartTime(live.pid!);
    expect(start).toMatch(/^\d+$/);
    plant(dir, { pid: live.pid!, procStart: String(Number(start) - 1000) });
    const lock = acquireWorkspaceLock(dir, opts);
    expect(lock.note).toMatch(/now belongs to another process/);
    lock.release();
    // …while the right start time means it is the holder
    plant(dir, { pid: live.pid!, procStart: start });
    expect(() => acquireWorkspaceLock(dir, opts)).toThrow(WorkspaceBusy);
  });

  it('a lock written on another host is never judged from here', async () => {
    const dir = freshDir();
    plant(dir, { pid: await deadPid(), hostname: 'some-other-host' });
    expect(() => acquireWorkspaceLock(dir, { ...opts, busyMessage: (h) => `held on ${h.hostname}` })).toThrow('held on some-other-host');
  });

  it('a file that is not a lock is replaced when old, refused when it was just written', () => {
    const dir = freshDir();
    acquireWorkspaceLock(dir, opts).release();
    writeFileSync(lockPath(dir), 'garbage');
    expect(() => acquireWorkspaceLock(dir, opts)).toThrow(/not a lock this version wrote/);
    const old = new Date(Date.now() - 60_000);
    utimesSync(lockPath(dir), old, old);
    const lock = acquireWorkspaceLock(dir, opts);
    expect(lock.note).toMatch(/was not a readable lock/);
    lock.release();
  });

  it('several processes taking over one stale lock at the same moment: exactly one wins', async () => {
    const dir = freshDir();
    plant(dir, { pid: await deadPid() });
    const startAt = Date.now() + 4000; // after every contender has started (tsx on 2 cores)
    const run = promisify(execFile);
    const outs = await Promise.all(
      Array.from({ length: 5 }, () =>
        run(process.execPath, ['--import', 'tsx', join(REPO, 'server/testing/lock-contender.ts'), dir, String(startAt), '1500'], { cwd: REPO }).then((r) => r.stdout.trim()),
      ),
    );
    const won = outs.filter((o) => o.startsWith('won '));
    expect(won, outs.join(' | ')).toHaveLength(1);
    const winner = won[0]!.split(' ')[1];
    for (const o of outs.filter((x) => !x.startsWith('won '))) expect(o).toBe(`busy ${winner}`);
    expect(existsSync(lockPath(dir))).toBe(false); // the winner released it
  });
});
