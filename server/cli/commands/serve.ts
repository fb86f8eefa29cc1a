// `mcp-triage serve`: the web UI and HTTP API. Cheap checks come first, heavy work after:
//   options (port range, host, token) → the workspace lock (one owner at a time: purge refuses
//   while it is held) → bind the port → open the database, optional warm-up (npm start builds
//   the UI and loads the samples here), build the app → listen on the port just held.
// So a busy or invalid port, or a workspace another serve owns, is one line on stderr within
// about a second, never after a UI build. fastify and DuckDB are imported only once the port is
// held (the options, lock and port checks run without them).
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { parseArgs } from '../args.ts';
import type { CliIO, Command } from '../command.ts';
import type { Context } from '../../incidents.ts';
import { TriageError } from '../../errors.ts';
import { workspaceDir } from '../../workspace.ts';
import { acquireWorkspaceLock, describeHolder } from '../../workspace-lock.ts';
import { repoPath } from '../../../parsers/engine/repo.ts';
import { STORE_HELP, storeChoice } from '../store-option.ts';
import type { StoreTarget } from '../../store/clickhouse/target.ts';

export const UI_DIST = repoPath('ui/dist/');
const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|::1)$/;
export const DEFAULT_PORT = 8765;

export interface ServeOptions {
  host: string;
  port: number;
  db?: string;
  keyFile?: string;
  /** Every ingest strict (redaction.md "Tiers"): asked with --strict, and always on a non-loopback host. */
  strict: boolean;
  /** Bound beyond loopback: API answers are an exit (standard-mode incidents go out exit-redacted). */
  network: boolean;
  maxUploadMb?: number;
  token?: string;
  /** A shared store (issue #20): the API reads and writes it instead of the workspace DuckDB. */
  store?: StoreTarget;
}

/** Work done after the port is held and the database is open, before the app is built (npm start). */
export type Warmup = (ctx: Context, io: CliIO) => Promise<void>;

/** A TCP port as given on the command line or in PORT: a whole number 0…65535 (0 picks a free one). */
export function parsePort(v: string | number | undefined, what = '--port'): number {
  if (v === undefined) return DEFAULT_PORT;
  const n = typeof v === 'number' ? v : String(v).trim() === '' ? NaN : Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new TriageError('TRIAGE_ERR_USAGE', `serve: ${what} takes a whole number from 0 to 65535 (0 picks a free one), got "${v}"`);
  return n;
}

export function parseServeArgs(args: string[], env: NodeJS.ProcessEnv = process.env): ServeOptions {
  const a = parseArgs('serve', args, {
    port: { type: 'string' },
    host: { type: 'string' },
    db: { type: 'string' },
    'max-upload-mb': { type: 'number' },
    'token-file': { type: 'string' },
    'key-file': { type: 'string' },
    store: { type: 'string' },
    'store-credentials': { type: 'string' },
    strict: { type: 'boolean' },
  });
  const { target } = storeChoice('serve', a, env);
  const port = parsePort(a.options.port as string | undefined);
  const host = (a.options.host as string | undefined) ?? '127.0.0.1';
  let token: string | undefined;
  if (a.options['token-file']) {
    const f = String(a.options['token-file']);
    try {
      token = readFileSync(f, 'utf8').trim();
    } catch (e) {
      throw new TriageError('TRIAGE_ERR_INPUT', `serve: cannot read --token-file ${f} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  }
  if (!LOOPBACK.test(host) && !token)
    throw new TriageError('TRIAGE_ERR_USAGE', `serve: binding to ${host} exposes your logs to the network; add --token-file FILE (a file holding a long random token)`);
  const network = !LOOPBACK.test(host);
  return {
    host,
    port,
    strict: network || a.options.strict === true,
    network,
    ...(a.options.db !== undefined ? { db: String(a.options.db) } : {}),
    ...(a.options['key-file'] !== undefined ? { keyFile: String(a.options['key-file']) } : {}),
    ...(a.options['max-upload-mb'] !== undefined ? { maxUploadMb: a.options['max-upload-mb'] as number } : {}),
    ...(token !== undefined ? { token } : {}),
    ...(target ? { store: target } : {}),
  };
}

function portError(e: unknown, host: string, port: number): never {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE')
    throw new TriageError('TRIAGE_ERR_USAGE', `serve: ${host}:${port} is already in use (another mcp-triage?); stop it or pass --port N (PORT=N for npm start)`);
  if (code === 'EACCES')
    throw new TriageError('TRIAGE_ERR_USAGE', `serve: not allowed to listen on ${host}:${port} (EACCES: ports below 1024 need privileges); pass --port N above 1023`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    throw new TriageError('TRIAGE_ERR_USAGE', `serve: cannot listen on ${host}:${port} (${code}: not an address of this machine); pick another --host`);
  if (code === 'ERR_SOCKET_BAD_PORT') throw new TriageError('TRIAGE_ERR_USAGE', `serve: ${port} is not a valid port; pass --port N with N from 0 to 65535`);
  throw e;
}

/** Bind host:port now (before any heavy work) and hold it until the app takes over. */
async function holdPort(host: string, port: number): Promise<{ port: number; release(): Promise<void> }> {
  const s: Server = createServer();
  try {
    await new Promise<void>((ok, fail) => {
      s.once('error', fail);
      s.listen({ host, port }, () => ok());
    });
  } catch (e) {
    portError(e, host, port);
  }
  const bound = s.address();
  let open = true;
  return {
    port: typeof bound === 'object' && bound ? bound.port : port,
    release: () => (open ? ((open = false), new Promise<void>((ok) => s.close(() => ok()))) : Promise.resolve()),
  };
}

/**
 * Run the server until SIGINT, SIGTERM or SIGHUP. Holds the workspace lock for its whole life and
 * removes it on the way out (also on an uncaught error: the 'exit' hook). A SIGKILL leaves the
 * lock behind; the next serve or purge sees its PID is gone and takes it over with a note.
 */
export async function serve(o: ServeOptions, io: CliIO, warmup?: Warmup): Promise<number> {
  const dir = workspaceDir(io.env);
  const lock = acquireWorkspaceLock(dir, {
    command: 'serve',
    busyMessage: (h) =>
      h.command === 'serve'
        ? `serve: the workspace ${dir} is already served by ${describeHolder(h)}; use that one, or stop it first (Ctrl-C in its terminal, or kill ${h.pid}); a second server needs its own MCP_TRIAGE_HOME`
        : `serve: the workspace ${dir} is held by ${describeHolder(h)}; wait for it to finish, then start serve again`,
  });
  const releaseOnExit = () => lock.release();
  process.on('exit', releaseOnExit);
  // A signal before the server is up (Ctrl-C during npm start's UI build): drop the lock, then die
  // of the signal as if unhandled. Once serving, the same signal closes the server cleanly.
  let stop: (() => void) | undefined;
  const onSignal = (sig: NodeJS.Signals) => {
    if (stop) return stop();
    lock.release();
    for (const s of SIGNALS) process.off(s, onSignal);
    process.kill(process.pid, sig);
  };
  for (const s of SIGNALS) process.on(s, onSignal);
  if (lock.note) io.stderr.write(`mcp-triage: note: ${lock.note}\n`);
  let held: Awaited<ReturnType<typeof holdPort>> | undefined;
  let ctx: Context | undefined;
  try {
    held = await holdPort(o.host, o.port);
    const [{ openContext }, { buildApp }] = await Promise.all([import('../../incidents.ts'), import('../../http/app.ts')]);
    const common = { uiDist: existsSync(UI_DIST) ? UI_DIST : undefined, maxUploadMb: o.maxUploadMb, token: o.token, allowedHosts: LOOPBACK.test(o.host) ? [] : [o.host] };
    let app: Awaited<ReturnType<typeof buildApp>>;
    let where: string;
    if (o.store) {
      // A shared store: the workspace gives the key and formats; incidents live in ClickHouse.
      const { ClickHouseStore } = await import('../../store/clickhouse/store.ts');
      // A shared store is always strict (redaction.md "Tiers"), whatever the host.
      ctx = { ...(await openContext({ env: io.env, db: ':memory:', keyFile: o.keyFile })), strict: true, network: o.network };
      const shared = await ClickHouseStore.open(o.store);
      await warmup?.(ctx, io);
      app = await buildApp({ ctx, shared, ...common });
      where = `store ${shared.path}; privacy mode strict for every upload, as in every shared store`;
    } else {
      ctx = { ...(await openContext({ env: io.env, db: o.db, keyFile: o.keyFile })), strict: o.strict, network: o.network };
      await warmup?.(ctx, io);
      app = await buildApp({ ctx, ...common });
      where = `database ${ctx.store.path}; ${o.strict ? `privacy mode strict for every upload${o.network ? ', since the host is not loopback' : ''}` : 'privacy mode standard by default: PII stays in the local database and is redacted at every exit'}`;
    }
    // Hand the port over: released and re-bound within the same tick of work, so the window in
    // which another process could take it is a few milliseconds (and then it is reported below).
    await held.release();
    let address: string;
    try {
      address = await app.listen({ host: o.host, port: held.port });
    } catch (e) {
      await app.close().catch(() => undefined);
      portError(e, o.host, held.port);
    }
    const url = `${address.replace('0.0.0.0', o.host)}/`;
    lock.update({ url });
    io.stderr.write(`mcp-triage: serving ${url} (${where})\n`);
    await new Promise<void>((done) => {
      stop = () => {
        stop = () => undefined; // a second Ctrl-C while closing changes nothing
        void app.close().then(done, done);
      };
    });
    return 0;
  } finally {
    for (const s of SIGNALS) process.off(s, onSignal);
    await held?.release();
    await ctx?.store.close().catch(() => undefined);
    lock.release();
    process.off('exit', releaseOnExit);
  }
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export const serveCommand: Command = {
  name: 'serve',
  summary: 'start the web UI and HTTP API (127.0.0.1:8765 by default)',
  help: `Usage: mcp-triage serve [--port N] [--host H] [--db FILE] [--max-upload-mb N] [--token-file FILE] [--strict] [--store URL]

Starts the web UI and the HTTP API on http://127.0.0.1:8765/.
  --port N            port, 0…65535 (default 8765; 0 picks a free one)
  --host H            bind address (default 127.0.0.1); a non-loopback host also needs --token-file
  --db FILE           DuckDB file (default: the workspace database)
  --max-upload-mb N   largest upload accepted (default 2048)
  --token-file FILE   require Authorization: Bearer <token from this file> on every request
  --strict            redact everything before storage for every upload (always on for a non-loopback
                      --host, and with --store). Default (standard): session ids and credentials before
                      storage; personal and business data stay in the local database, shown in the UI,
                      and are redacted in every report and export. An upload can ask for strict itself
                      (?privacy=strict)
${STORE_HELP.split('\n')
  .filter((l) => !l.includes('--incident') && !l.includes('stored incident ID'))
  .join('\n')}

One serve per workspace: it holds <workspace>/workspace.lock (its PID) while it runs, so a second
serve on the same workspace, and purge, refuse and name that PID. The lock is removed on exit,
Ctrl-C, SIGTERM and SIGHUP; one left behind by a killed process is taken over with a note.
A busy or invalid port is reported (exit 1) before the database is opened.`,
  async run(args, io) {
    return serve(parseServeArgs(args, io.env), io);
  },
};
