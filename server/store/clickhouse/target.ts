// Where the shared store is and who we are to it: `--store URL` / MCP_TRIAGE_STORE, and
// `--store-credentials FILE`. Light on purpose (no DuckDB, no fetch): the CLI checks these before it
// loads anything heavy (server/cli/main.ts).
//
//   clickhouse://host[:8123]/database[?cluster=NAME][&nodes=h1:8123,h2:8123][&secure=1]
//
// The port is ClickHouse's HTTP port. With `cluster=`, the tables are created on every node of that
// cluster (`nodes=`: their HTTP addresses; default: the cluster's hosts from system.clusters at the
// URL's port) and read and written through Distributed tables sharded by incident.
//
// Credentials never come from the command line (process lists, shell history): userinfo is allowed
// in MCP_TRIAGE_STORE alone, or `--store-credentials FILE` names a private file holding `user:password`.
// A StoreTarget prints without them (`display`), and nothing here ever puts them in a message.
import { readFileSync, statSync } from 'node:fs';
import { TriageError } from '../../errors.ts';

export const STORE_ENV = 'MCP_TRIAGE_STORE';

export interface StoreTarget {
  kind: 'clickhouse';
  /** The URL without credentials, for messages: clickhouse://host:port/db?cluster=… */
  display: string;
  database: string;
  cluster: string | null;
  /** HTTP base URLs (http[s]://host:port) of the nodes that get the local tables; the first is the one queried. */
  nodes: string[];
  /** Whether `nodes` was given (else, with a cluster, it is completed from system.clusters). */
  nodesGiven: boolean;
  secure: boolean;
  user: string | null;
  /** Never printed; use `secrets` to scrub messages. */
  password: string | null;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const HOSTPORT = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]{1,253})(?::(\d{1,5}))?$/;
const DEFAULT_PORT = 8123;

function usage(message: string): TriageError {
  return new TriageError('TRIAGE_ERR_USAGE', message);
}

function node(hostport: string, secure: boolean, what: string): string {
  const m = HOSTPORT.exec(hostport);
  const port = m?.[2] === undefined ? DEFAULT_PORT : Number(m[2]);
  if (!m || !(port > 0 && port < 65536)) throw usage(`${what}: "${hostport.slice(0, 100)}" is not host[:port] (the ClickHouse HTTP port, 8123 by default)`);
  return `${secure ? 'https' : 'http'}://${m[1]}:${port}`;
}

/**
 * Parse a store URL. `from` says where it came from: userinfo is refused on the command line
 * (its value is never echoed) and taken as the credentials from the environment.
 */
export function parseStoreUrl(raw: string, from: 'flag' | 'env'): StoreTarget {
  const what = from === 'flag' ? '--store' : STORE_ENV;
  const text = raw.trim();
  if (!/^clickhouse:\/\//i.test(text)) throw usage(`${what} takes clickhouse://host:8123/database[?cluster=NAME] (the HTTP port); without it the embedded DuckDB store is used`);
  let url: URL;
  try {
    url = new URL(text.replace(/^clickhouse:/i, 'http:'));
  } catch {
    throw usage(`${what} is not a URL of the form clickhouse://host:8123/database[?cluster=NAME]`);
  }
  const hasUserinfo = url.username !== '' || url.password !== '' || /^clickhouse:\/\/[^/?#]*@/i.test(text);
  if (hasUserinfo && from === 'flag') {
    throw usage(
      `--store must not carry credentials (a command line shows in process lists and shell history): put them in ${STORE_ENV} (clickhouse://user:password@host:8123/db) or in a file named by --store-credentials FILE (one line user:password, mode 0600)`,
    );
  }
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!NAME.test(database)) throw usage(`${what}: name the database after the host, e.g. clickhouse://host:8123/mcp_triage (letters, digits and _)`);
  let cluster: string | null = null;
  let nodes: string[] | null = null;
  let secure = false;
  for (const [k, v] of url.searchParams) {
    if (k === 'cluster') {
      if (!NAME.test(v)) throw usage(`${what}: cluster= takes a cluster name from the servers' remote_servers (letters, digits and _)`);
      cluster = v;
    } else if (k === 'nodes')
      nodes = v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    else if (k === 'secure') secure = v === '1' || v === 'true';
    else throw usage(`${what}: unknown parameter "${k.slice(0, 40)}" (known: cluster, nodes, secure)`);
  }
  if (nodes && !cluster) throw usage(`${what}: nodes= only goes with cluster=NAME`);
  const first = node(url.host, secure, what);
  const list = nodes ? nodes.map((n) => node(n, secure, `${what} nodes=`)) : [first];
  // The URL's own node is queried first, whatever order nodes= lists them in.
  const ordered = [first, ...list.filter((n) => n !== first)];
  const display = `clickhouse://${url.host}/${database}${cluster ? `?cluster=${cluster}` : ''}`;
  return {
    kind: 'clickhouse',
    display,
    database,
    cluster,
    nodes: ordered,
    nodesGiven: nodes !== null,
    secure,
    user: hasUserinfo && url.username ? decodeURIComponent(url.username) : null,
    password: hasUserinfo && url.password ? decodeURIComponent(url.password) : null,
  };
}

/** `user:password` from a private file (first non-empty line; the password may hold colons). */
export function readCredentials(file: string): { user: string; password: string } {
  let text: string;
  try {
    const st = statSync(file);
    // Like ssh with a private key: a credentials file others can read is refused.
    if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) {
      throw usage(`--store-credentials ${file} can be read by other users (mode ${(st.mode & 0o777).toString(8)}); chmod 600 it`);
    }
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if (e instanceof TriageError) throw e;
    throw new TriageError('TRIAGE_ERR_INPUT', `cannot read --store-credentials ${file} (${(e as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  const line =
    text
      .split(/\r?\n/)
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  const at = line.indexOf(':');
  // Never echo the content: it is a password.
  if (at <= 0) throw usage(`--store-credentials ${file} must hold one line user:password`);
  return { user: line.slice(0, at), password: line.slice(at + 1) };
}

/**
 * The store a command uses: `--store URL` (credentials from --store-credentials FILE, or from
 * MCP_TRIAGE_STORE when that names the same host), else MCP_TRIAGE_STORE, else null: the
 * embedded DuckDB store, as before.
 */
export function resolveStore(opts: { flag?: string; credentialsFile?: string; env: NodeJS.ProcessEnv }): StoreTarget | null {
  const envRaw = opts.env[STORE_ENV]?.trim() || undefined;
  let target: StoreTarget | null = null;
  if (opts.flag !== undefined) {
    target = parseStoreUrl(opts.flag, 'flag');
    if (envRaw) {
      const env = parseStoreUrl(envRaw, 'env');
      if (env.nodes[0] === target.nodes[0] && env.user !== null) target = { ...target, user: env.user, password: env.password };
    }
  } else if (envRaw) target = parseStoreUrl(envRaw, 'env');
  if (opts.credentialsFile !== undefined) {
    if (!target) throw usage(`--store-credentials goes with --store URL (or ${STORE_ENV})`);
    const c = readCredentials(opts.credentialsFile);
    target = { ...target, user: c.user, password: c.password };
  }
  return target;
}

/** Values that must never appear in a message or log line. */
export function secretsOf(t: StoreTarget): string[] {
  return t.password ? [t.password, encodeURIComponent(t.password)] : [];
}
