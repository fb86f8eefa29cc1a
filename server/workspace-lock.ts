// One owner of the workspace at a time. `serve` holds `<workspace>/workspace.lock` for as long as
// it runs and `purge` takes it before deleting anything, so a purge can never pull the database
// and the key out from under a running server (which would keep serving, and accepting uploads
// into, a deleted database).
//
// The lock file is JSON ({pid, command, hostname, startedAt, procStart?, url?}), mode 0600. It is
// written complete to a private temporary file and then hard-linked into place: link() is atomic
// and fails if the name exists, so a reader never sees a half-written lock and two starters
// cannot both win. A lock whose PID is dead (or, on Linux, whose PID now belongs to a process
// that started at another time: the PID was reused) is stale: it is taken over, with a note.
// A lock written on another host (a shared home directory) is never judged stale from here.
//
// Short-lived commands (analyze, report, redact, timeline, probe) do not take this lock: the
// database they may write (`analyze --db`) is guarded by DuckDB's own file lock, which refuses a
// second writer (Store.open turns that into a one-line TRIAGE_ERR_BUSY), and purge checks that
// lock too (databaseHolder) before deleting.
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { TriageError } from './errors.ts';
import { ensurePrivateDir } from './workspace.ts';

export const LOCK_NAME = 'workspace.lock';

export interface LockInfo {
  pid: number;
  /** which command holds it: serve, purge */
  command: string;
  hostname: string;
  startedAt: string;
  /** Linux: the holder's start time in clock ticks since boot (/proc/<pid>/stat field 22), to detect a reused PID */
  procStart?: string;
  /** serve: the address it serves, once listening */
  url?: string;
}

export function lockPath(dir: string): string {
  return join(dir, LOCK_NAME);
}

/** The start time of a process in clock ticks since boot (Linux /proc), or undefined. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from the last ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return rest[19]; // field 22 overall; rest[0] is field 3
  } catch {
    return undefined;
  }
}

/** Read a lock file; null when it does not exist, 'unreadable' when it is not a lock we wrote. */
export function readLock(path: string): LockInfo | null | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  return parseLock(text);
}

function parseLock(text: string): LockInfo | 'unreadable' {
  try {
    const v = JSON.parse(text) as LockInfo;
    if (v && Number.isInteger(v.pid) && v.pid > 0 && typeof v.command === 'string') return v;
  } catch {
    /* below */
  }
  return 'unreadable';
}

export type Liveness = { alive: true } | { alive: false; why: string };

/** Whether the process that wrote this lock still runs. */
export function holderLiveness(l: LockInfo): Liveness {
  // Another machine's PID means nothing here: assume it is alive (the message names the host).
  if (l.hostname && l.hostname !== hostname()) return { alive: true };
  if (l.pid === process.pid) return { alive: true };
  try {
    process.kill(l.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return { alive: false, why: `PID ${l.pid} is not running` };
    // EPERM: the process exists but belongs to someone else; it is alive.
  }
  if (l.procStart) {
    const now = processStartTime(l.pid);
    if (now !== undefined && now !== l.procStart) return { alive: false, why: `PID ${l.pid} now belongs to another process (the ${l.command} that held the lock is gone)` };
  }
  return { alive: true };
}

/** "mcp-triage serve (PID 123, http://127.0.0.1:8765/)" */
export function describeHolder(l: LockInfo): string {
  const where = [`PID ${l.pid}`, l.hostname && l.hostname !== hostname() ? `on host ${l.hostname}` : '', l.url ?? ''].filter(Boolean).join(', ');
  return `mcp-triage ${l.command} (${where})`;
}

/** Thrown when a live process holds the lock; `holder` says who. Exit 1, HTTP 409. */
export class WorkspaceBusy extends TriageError {
  constructor(
    readonly holder: LockInfo,
    message: string,
  ) {
    super('TRIAGE_ERR_BUSY', message);
  }
}

export class WorkspaceLock {
  private released = false;
  constructor(
    readonly path: string,
    private info: LockInfo,
    /** set when a stale lock was taken over: say so on stderr */
    readonly note?: string,
  ) {}

  get holder(): LockInfo {
    return this.info;
  }

  /** Add facts once known (serve: the URL after listening). Atomic: rename over our own file. */
  update(extra: Partial<Pick<LockInfo, 'url'>>): void {
    if (this.released || !this.ours()) return;
    this.info = { ...this.info, ...extra };
    const tmp = `${this.path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.info) + '\n', { mode: 0o600, flag: 'wx' });
    renameSync(tmp, this.path);
  }

  /** Remove the lock file if it is still ours. Synchronous, so it also works in an 'exit' handler. Idempotent. */
  release(): void {
    if (this.released) return;
    this.released = true;
    if (!this.ours()) return;
    try {
      unlinkSync(this.path);
    } catch {
      /* already gone (purge deletes the folder it locked) */
    }
  }

  private ours(): boolean {
    try {
      const l = readLock(this.path);
      return l !== null && l !== 'unreadable' && l.pid === process.pid && l.startedAt === this.info.startedAt;
    } catch {
      return false;
    }
  }
}

export interface AcquireOptions {
  command: 'serve' | 'purge';
  /** the one-line refusal, given who holds the lock */
  busyMessage: (holder: LockInfo) => string;
  /** tests only: runs after a lock was judged stale and before it is taken over (to widen the race) */
  beforeTakeover?: () => void;
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

function unlinkQuiet(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    /* gone */
  }
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Take the workspace lock in `dir` (created 0700 if missing), or throw WorkspaceBusy naming the
 * live holder. A stale lock is taken over; `lock.note` then says whose it was.
 *
 * Taking over: only the holder of a second, short-lived lock (`workspace.lock.takeover`, made
 * the same atomic way) may delete a stale lock, and only after reading it again and finding the
 * very file it judged stale. Then it competes like everyone else for the free name, so however
 * many processes find the same stale lock at once, exactly one ends up holding it. (A takeover
 * lock whose own holder died within those microseconds is simply deleted.)
 */
export function acquireWorkspaceLock(dir: string, opts: AcquireOptions): WorkspaceLock {
  ensurePrivateDir(dir);
  const path = lockPath(dir);
  const takeover = `${path}.takeover`;
  const start = processStartTime(process.pid);
  const info: LockInfo = { pid: process.pid, command: opts.command, hostname: hostname(), startedAt: new Date().toISOString(), ...(start ? { procStart: start } : {}) };
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, JSON.stringify(info) + '\n', { mode: 0o600, flag: 'wx' });
  let note: string | undefined;
  try {
    for (let attempt = 0; attempt < 200; attempt++) {
      try {
        linkSync(tmp, path);
        return new WorkspaceLock(path, info, note);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const text = readText(path);
      if (text === null) continue; // released between our link and our read: try again
      const held = parseLock(text);
      let why: string;
      if (held === 'unreadable') {
        // Not written by us (we only ever link complete files). Young: someone may be writing it
        // by hand; old: leftover junk.
        if (Date.now() - statSync(path).mtimeMs < 5000)
          throw new TriageError('TRIAGE_ERR_BUSY', `${path} exists but is not a lock this version wrote; if no mcp-triage runs, delete it and try again`);
        why = `replaced ${path}, which was not a readable lock (left over from an older version or a crash)`;
      } else {
        const live = holderLiveness(held);
        if (live.alive) throw new WorkspaceBusy(held, opts.busyMessage(held));
        why = `took over the workspace lock of ${held.command} PID ${held.pid} (${live.why}; it ended without removing ${path})`;
      }
      opts.beforeTakeover?.();
      try {
        linkSync(tmp, takeover);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        const t = parseLock(readText(takeover) ?? '');
        if (t !== 'unreadable' && holderLiveness(t).alive)
          pause(20); // someone is taking over right now
        else unlinkQuiet(takeover);
        continue;
      }
      try {
        // Still the same stale file? (Nobody else can replace it while we hold the takeover lock.)
        if (readText(path) === text) {
          unlinkSync(path);
          note = why;
        }
      } finally {
        unlinkQuiet(takeover);
      }
    }
    throw new TriageError('TRIAGE_ERR_BUSY', `could not take the workspace lock ${path}: other processes keep taking it; try again`);
  } finally {
    unlinkQuiet(tmp);
  }
}
