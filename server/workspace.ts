// The per-user workspace (cli-contract.md): a 0700 data directory holding the default
// DuckDB file and the pseudonymisation key (0600, never inside the database).
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { TriageError } from './errors.ts';

export interface WorkspaceOptions {
  env?: NodeJS.ProcessEnv;
  /** --db FILE */
  db?: string;
  /** --key-file FILE */
  keyFile?: string;
}

export interface Workspace {
  dir: string;
  dbPath: string;
  keyFile: string;
}

export function workspaceDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MCP_TRIAGE_HOME) return resolve(env.MCP_TRIAGE_HOME);
  if (env.XDG_DATA_HOME) return join(resolve(env.XDG_DATA_HOME), 'mcp-triage');
  return join(homedir(), '.local', 'share', 'mcp-triage');
}

export function resolveWorkspace(opts: WorkspaceOptions = {}): Workspace {
  const dir = workspaceDir(opts.env);
  return {
    dir,
    dbPath: opts.db ? resolve(opts.db) : join(dir, 'mcp-triage.duckdb'),
    keyFile: opts.keyFile ? resolve(opts.keyFile) : join(dir, 'pseudonym.key'),
  };
}

/**
 * Make `dir` (0700) or tighten it to 0700 — but never a shared folder: a sticky or
 * world-writable one (`--db /tmp/x.duckdb` run as root must not chmod /tmp) or one owned by
 * someone else. Those are left alone; the files inside are still 0600 (the key here, the
 * database in Store.open).
 */
export function ensurePrivateDir(dir: string): void {
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700); // mkdir's mode is filtered by the umask
    return;
  }
  const st = statSync(dir);
  const uid = typeof process.getuid === 'function' ? process.getuid() : st.uid;
  if ((st.mode & 0o1000) !== 0 || (st.mode & 0o002) !== 0 || st.uid !== uid) return;
  if ((st.mode & 0o077) === 0) return;
  try {
    chmodSync(dir, 0o700);
  } catch {
    /* not ours to change; the files inside are still 0600 */
  }
}

/** Read the 32-byte workspace key, creating it (0600 in a 0700 dir) on first use. */
export function loadOrCreateKey(keyFile: string): Buffer {
  if (existsSync(keyFile)) {
    const key = readFileSync(keyFile);
    if (key.length < 32) {
      throw new TriageError('TRIAGE_ERR_KEY', `key file ${keyFile} is shorter than 32 bytes; delete it (old pseudonyms become unlinkable) or restore it`);
    }
    if ((statSync(keyFile).mode & 0o077) !== 0) chmodSync(keyFile, 0o600);
    return key;
  }
  ensurePrivateDir(dirname(keyFile));
  const key = randomBytes(32);
  // Exclusive create (no following a planted link), then 0600 whatever the umask did.
  writeFileSync(keyFile, key, { mode: 0o600, flag: 'wx' });
  chmodSync(keyFile, 0o600);
  return key;
}
