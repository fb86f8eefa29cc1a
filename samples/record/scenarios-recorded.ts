/**
 * The samples/recorded/ incidents: every failure family recorded several ways (proxy × server mode × client count ×
 * client-log style), each with a label.json written from the scenario's construction (see README.md "Labels").
 * Kept apart from scenarios.ts, whose list must match the hand-documented samples/<incident>/ bundles.
 */
import { Decision } from '../../server/contract/analysis.ts';
import type { RecordingContext } from './lib/context.ts';
import {
  callMethod,
  callTool,
  closeClient,
  connect,
  connectLegacy,
  connectWithFallback,
  listTools,
  type Connected,
  type ConnectOptions,
  type LegacyConnected,
  type Log,
} from './lib/client.ts';
import { freePort, sleep, type ServerProcess } from './lib/proc.ts';
import type { ServerConfig } from './mcp-server.ts';

export const FAMILIES = [
  'session-lost',
  'replica-affinity',
  'route',
  'transport-mismatch',
  'headers',
  'auth',
  'upstream-down',
  'proxy-timeout',
  'stream-cut',
  'client-timeout',
  'buffering',
  'body-limit',
  'unknown-method',
  'recovered',
  'optional-channel',
  'healthy',
] as const;
export type Family = (typeof FAMILIES)[number];
// The decision vocabulary is the contract's (server/contract/analysis.ts): labels use exactly it.
export const DECISIONS = Decision.options;
export type { Decision };
export type ProxyKind = 'nginx' | 'haproxy' | 'caddy' | 'none';
export type ServerMode = 'stateful' | 'stateless' | 'json' | 'legacy-sse';

export interface Failing {
  method: string | null;
  tool: string | null;
  rpcId: number | string | null;
  httpStatus: number | null;
}

/** proxy settings, translated for whichever proxy runs */
export interface ProxyOpts {
  /** nginx proxy_read_timeout / HAProxy timeout server / Caddy response_header_timeout + read_timeout */
  timeout?: string;
  /** nginx only: proxy_buffering on */
  buffering?: boolean;
  /** request bodies above 16 KiB are refused with 413 */
  bodyLimit?: boolean;
  /** proxy-side bearer check (this token passes) */
  bearerToken?: string;
  /** request header the proxy overwrites (copied from another service's config) */
  setHeader?: [string, string];
  /** exact paths proxied (default /mcp); legacy SSE: /sse and /messages */
  paths?: string[];
  /** every path goes to the server (it answers unknown paths itself) */
  allPaths?: boolean;
}

export interface Plan {
  name: string;
  family: Family;
  decision: Decision;
  failing: Failing | null;
  proxy: ProxyKind;
  server: ServerMode;
  clients: 1 | 3;
  why: string;
  /** extra server config (all replicas) */
  serverCfg?: Partial<ServerConfig>;
  /** two replicas (round robin, no affinity) */
  replicas?: 2;
  /** upstream-down: 'never' = nothing ever listened on the upstream port; 'stopped' = the server was shut down before */
  down?: 'never' | 'stopped';
  proxyOpts?: ProxyOpts;
  /** the path the host app is configured with (default /mcp; /sse for legacy) */
  path?: string;
  play(env: Env): Promise<void>;
}

export interface RecordedScenario extends Omit<Plan, 'play' | 'serverCfg' | 'replicas' | 'proxyOpts' | 'path' | 'down'> {
  /** noise material (samples/recorded/_noise/<name>), not an incident */
  noise?: boolean;
  run(ctx: RecordingContext): Promise<void>;
}

export interface Env {
  ctx: RecordingContext;
  /** the URL the host app is configured with */
  url: string;
  /** the failing conversation's log (conv-c with three clients) */
  log: Log;
  servers: ServerProcess[];
  plan: Plan;
  /** the two other conversations, when clients = 3 */
  others?: Bystanders;
}

const START = () => 'orders-assistant 0.9.0 starting (node ' + process.version + ')';

function serverConfig(mode: ServerMode, extra: Partial<ServerConfig> = {}): Partial<ServerConfig> {
  const base: Partial<ServerConfig> =
    mode === 'stateless'
      ? { mode: 'stateless' }
      : mode === 'json'
        ? { mode: 'stateful', jsonResponse: true }
        : mode === 'legacy-sse'
          ? { mode: 'legacy-sse' }
          : { mode: 'stateful' };
  return { ...base, ...extra };
}

async function startProxy(ctx: RecordingContext, kind: ProxyKind, upstreams: string[], o: ProxyOpts, legacy: boolean, withId: boolean): Promise<string | undefined> {
  const paths = o.paths ?? (legacy ? ['/sse', '/messages'] : ['/mcp']);
  if (kind === 'nginx') {
    const extra = o.setHeader ? `            proxy_set_header ${o.setHeader[0]} "${o.setHeader[1]}";` : undefined;
    const url = await ctx.startNginx({
      upstreams,
      paths: o.allPaths ? undefined : paths,
      proxyReadTimeout: o.timeout,
      buffering: o.buffering,
      clientMaxBodySize: o.bodyLimit ? '16k' : undefined,
      bearerToken: o.bearerToken,
      extraLocation: extra,
    });
    return new URL(url).origin;
  }
  if (kind === 'haproxy') {
    return ctx.startHaproxy({
      upstreams,
      paths,
      allPaths: o.allPaths,
      timeoutServer: o.timeout,
      maxBodyBytes: o.bodyLimit ? 16384 : undefined,
      bearerToken: o.bearerToken,
      extraFrontend: o.setHeader ? `    http-request set-header ${o.setHeader[0]} "${o.setHeader[1]}"\n` : undefined,
      // half the HAProxy incidents log the unique request id too
      logFormat: withId ? 'httplog+id' : 'httplog',
    });
  }
  if (kind === 'caddy') {
    return ctx.startCaddy({
      upstreams,
      paths,
      allPaths: o.allPaths,
      responseHeaderTimeout: o.timeout,
      readTimeout: o.timeout,
      maxBodySize: o.bodyLimit ? '16KB' : undefined,
      headerUp: o.setHeader ? [`${o.setHeader[0]} "${o.setHeader[1]}"`] : undefined,
    });
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// the two other conversations of a three-client host: they connect, read, keep their GET streams open

export interface Bystanders {
  logs: Log[];
  clients: Connected[];
}

async function startBystanders(ctx: RecordingContext, url: string): Promise<Bystanders> {
  const logs = [ctx.log.tagged('conv-a: '), ctx.log.tagged('conv-b: ')];
  const clients = await Promise.all(logs.map((l) => connect(l, url)));
  ctx.clients.push(...clients);
  await Promise.all(clients.map((c, i) => listTools(logs[i]!, c)));
  await Promise.all(clients.map((c, i) => callTool(logs[i]!, c, 'get_order', { order_id: i ? 'ORD-1002' : 'ORD-1001' })));
  return { logs, clients };
}

/** the other conversations keep working for `ms` (a read every 1.2 s each, so their sessions stay busy) */
export async function othersBusy(env: Env, ms: number): Promise<void> {
  const o = env.others;
  if (!o) return sleep(ms);
  const end = Date.now() + ms;
  await Promise.all(
    o.clients.map(async (c, i) => {
      await sleep(300 + i * 500);
      while (Date.now() + 1200 < end) {
        await callTool(o.logs[i]!, c, 'get_order', { order_id: i ? 'ORD-1001' : 'ORD-1002' });
        await sleep(1200);
      }
    }),
  );
  const left = end - Date.now();
  if (left > 0) await sleep(left);
}

/** how the others end: DELETE their sessions (server still has them) or just close (the server lost them) */
async function endBystanders(o: Bystanders, terminate: boolean): Promise<void> {
  await Promise.all(o.clients.map((c, i) => closeClient(o.logs[i]!, c, terminate)));
}

function scenario(p: Plan, noise = false): RecordedScenario {
  const { play, serverCfg, replicas, proxyOpts, path, down, ...label } = p;
  return {
    ...label,
    noise,
    async run(ctx) {
      const legacy = p.server === 'legacy-sse';
      ctx.log.info(START() + (p.clients === 3 ? '; 3 conversations share this host' : ''));
      const servers: ServerProcess[] = [];
      const n = replicas ?? 1;
      if (down !== 'never') {
        for (let i = 0; i < n; i++) {
          servers.push(
            await ctx.startServer({
              ...serverConfig(p.server, serverCfg),
              ...(n > 1 ? { hostname: serverCfg?.hostname ?? `orders-mcp-${i}`, file: i ? 'server-2.log' : 'server.log' } : {}),
            }),
          );
        }
      }
      if (down === 'stopped') {
        // a deploy stopped the server before the client came (its log ends with the shutdown line)
        await sleep(300);
        await servers[0]!.stop();
        await sleep(500);
      }
      const upstreams = servers.length ? servers.map((s) => `127.0.0.1:${s.port}`) : [`127.0.0.1:${await freePort()}`];
      const origin = (await startProxy(ctx, p.proxy, upstreams, proxyOpts ?? {}, legacy, p.name.length % 2 === 1)) ?? `http://${upstreams[0]}`;
      const url = origin + (path ?? (legacy ? '/sse' : '/mcp'));
      const env: Env = { ctx, url, log: p.clients === 3 ? ctx.log.tagged('conv-c: ') : ctx.log, servers, plan: p };
      if (p.clients === 3) env.others = await startBystanders(ctx, url);
      await play(env);
      if (env.others && !ctx.cut) await endBystanders(env.others, servers.every((s) => s.running) && !bystandersLost.has(env));
    },
  };
}

/** plays whose fault also ended the other conversations' sessions (restart): those just close */
const bystandersLost = new WeakSet<Env>();

// ---------------------------------------------------------------------------------------------------------------
// plays

async function open(env: Env, opts: ConnectOptions = {}): Promise<Connected> {
  const c = await connect(env.log, env.url, opts);
  env.ctx.clients.push(c);
  await listTools(env.log, c);
  return c;
}

/** reconnect the documented way: drop the old transport, new one without the old id, initialize */
async function reinit(env: Env, old: Connected): Promise<void> {
  env.log.warn('MCP call failed; closing the old transport and reconnecting with a new session');
  await old.client.close();
  await sleep(100);
  const c = await open(env);
  await callTool(env.log, c, 'create_order', { sku: 'SKU-RED-MUG', qty: 1 });
  await sleep(200);
  await closeClient(env.log, c, true);
}

const restartPlay = async (env: Env) => {
  const c = await open(env);
  await callTool(env.log, c, 'get_order', { order_id: 'ORD-1001' });
  await sleep(400);
  if (env.others) bystandersLost.add(env);
  env.servers[0] = await env.ctx.restartServer(env.servers[0]!);
  // the SDK's GET-stream reconnection attempts play out before the user's next turn
  await sleep(2500);
  env.log.info('User asked to place an order');
  await callTool(env.log, c, 'create_order', { sku: 'SKU-RED-MUG', qty: 1 });
  await reinit(env, c);
};

const idlePlay = async (env: Env) => {
  const c = await open(env);
  await callTool(env.log, c, 'get_order', { order_id: 'ORD-1001' });
  // the user reads the answer; the server's idle timer (2 s) runs out meanwhile
  await othersBusy(env, 4000);
  env.log.info('User asked to place an order');
  await callTool(env.log, c, 'create_order', { sku: 'SKU-RED-MUG', qty: 1 });
  await reinit(env, c);
};

const deletedReusePlay = async (env: Env) => {
  const c = await open(env);
  await callTool(env.log, c, 'get_order', { order_id: 'ORD-1001' });
  const oldId = c.transport.sessionId!;
  env.log.info(`Persisting MCP session id for conversation conv-8841: ${oldId}`);
  await closeClient(env.log, c, true);
  await sleep(300);
  env.log.info(`Restoring MCP session id for conversation conv-8841: ${oldId}`);
  const c2 = await connect(env.log, env.url, { sessionId: oldId });
  env.ctx.clients.push(c2);
  await callTool(env.log, c2, 'get_order', { order_id: 'ORD-1002' });
  await sleep(200);
  env.log.warn('MCP call failed; closing the old transport and reconnecting with a new session');
  await c2.client.close();
  const c3 = await open(env);
  await callTool(env.log, c3, 'get_order', { order_id: 'ORD-1002' });
  await closeClient(env.log, c3, true);
};

const affinityPlay = async (env: Env) => {
  for (let attempt = 1; attempt <= 2; attempt++) {
    try {
      const c = await open(env);
      await callTool(env.log, c, 'get_order', { order_id: 'ORD-1001' });
      break;
    } catch {
      env.log.warn(`MCP connect attempt ${attempt} failed` + (attempt < 2 ? '; retrying in 500 ms' : '; giving up'));
      await sleep(500);
    }
  }
  await sleep(200);
};

/** the process is SIGKILLed inside the call (crash point in serverCfg); the host's tool-call timeout is 8 s */
const killPlay = (tool: 'create_order' | 'get_order') => async (env: Env) => {
  const c = await open(env);
  if (tool === 'create_order') {
    await callTool(env.log, c, 'get_order', { order_id: 'ORD-1002' });
    env.log.info('User asked to place an order');
    await callTool(env.log, c, 'create_order', { sku: 'SKU-GREEN-TEE', qty: 2 }, 8000);
  } else {
    await callTool(env.log, c, 'get_order', { order_id: 'ORD-1002' }, 8000);
  }
  await env.servers[0]!.exited();
  // the SDK's GET-stream reconnection attempts hit the proxy while the server is gone
  await sleep(2000);
  env.ctx.snapshot();
};

/** a slow write through a proxy whose timer is 2 s; the engineer pulls the logs `pullAfterMs` later */
const proxyTimeoutWritePlay = (pullAfterMs: number, clientTimeout?: number) => async (env: Env) => {
  const c = await open(env);
  env.log.info('User asked to import the supplier batch');
  await callTool(env.log, c, 'import_orders', { batch: 'supplier-2026-11-29' }, clientTimeout);
  await sleep(pullAfterMs);
  env.ctx.snapshot();
};

/** a slow read through a proxy whose timer is 2 s: the host retries once, same cut at the same interval */
const proxyTimeoutReadPlay = (clientTimeout?: number) => async (env: Env) => {
  const c = await open(env);
  env.log.info('User asked for the November sales report');
  await callTool(env.log, c, 'export_report', { month: '2026-11' }, clientTimeout);
  env.log.warn('export_report failed; retrying once');
  await callTool(env.log, c, 'export_report', { month: '2026-11' }, clientTimeout);
  await sleep(300);
  env.ctx.snapshot();
};

/** a tool slower than the host's request timeout; logs pulled `pullAfterMs` after the timeout */
const clientTimeoutPlay = (tool: 'create_order' | 'import_orders' | 'get_order', timeoutMs: number, pullAfterMs: number) => async (env: Env) => {
  const c = await open(env);
  const args = tool === 'create_order' ? { sku: 'SKU-BLUE-CAP', qty: 2 } : tool === 'import_orders' ? { batch: 'supplier-2026-11-30' } : { order_id: 'ORD-1001' };
  env.log.info(tool === 'get_order' ? 'User asked where ORD-1001 is' : 'User asked to place an order');
  await callTool(env.log, c, tool, args, timeoutMs);
  await othersBusy(env, pullAfterMs);
  env.ctx.snapshot();
};

/** SSE through a buffering proxy: progress events are held; the host's timeout (reset on progress) runs out */
const bufferingPlay = (timeoutMs: number | undefined, pullAfterMs: number) => async (env: Env) => {
  const c = await open(env);
  env.log.info('User asked for the November sales report');
  await callTool(env.log, c, 'export_report', { month: '2026-11' }, timeoutMs, { progress: true, resetTimeoutOnProgress: true });
  await othersBusy(env, pullAfterMs);
  env.ctx.snapshot();
};

const bodyLimitPlay = async (env: Env) => {
  const c = await open(env);
  env.log.info('User uploaded supplier-2026-11-29.csv (2000 rows)');
  const rows = Array.from({ length: 2000 }, (_, i) => `SKU-${String(i).padStart(5, '0')},${(i % 7) + 1},EUR,19.90`);
  await callTool(env.log, c, 'import_orders', { batch: 'supplier-2026-11-29', rows });
  await othersBusy(env, 300);
  if (!env.others) await closeClient(env.log, c, true);
};

const connectOnce =
  (opts: ConnectOptions = {}, attempts = 1) =>
  async (env: Env) => {
    for (let i = 1; i <= attempts; i++) {
      try {
        const c = await open(env, opts);
        await callTool(env.log, c, 'get_order', { order_id: 'ORD-1001' });
        return;
      } catch {
        if (i < attempts) {
          env.log.warn(`MCP connect attempt ${i} failed; retrying in 1000 ms`);
          await sleep(1000);
        }
      }
    }
    await sleep(200);
  };

const unknownMethodPlay = async (env: Env) => {
  const c = await open(env);
  env.log.info(`Server capabilities: ${Object.keys(c.client.getServerCapabilities() ?? {}).join(', ')}`);
  await callTool(env.log, c, 'get_order', { order_id: 'ORD-1002' });
  env.log.info('User asked to be notified when ORD-1002 ships');
  await callMethod(env.log, c, 'resources/subscribe', { uri: 'orders://ORD-1002' });
  await callTool(env.log, c, 'get_order', { order_id: 'ORD-1002' });
  await sleep(200);
  await closeClient(env.log, c, true);
};

const resumePlay = async (env: Env) => {
  const c = await open(env);
  env.log.info('User asked to import the supplier batch');
  await callTool(env.log, c, 'import_orders', { batch: 'supplier-2026-11-29' }, 20000, { progress: true });
  await callTool(env.log, c, 'get_order', { order_id: 'ORD-1001' });
  await sleep(200);
  await closeClient(env.log, c, true);
};

const legacyClientPlay = async (env: Env) => {
  try {
    const c = await connectLegacy(env.log, env.url);
    env.ctx.clients.push(c as unknown as Connected);
    await listTools(env.log, c);
  } catch {
    /* logged */
  }
  await sleep(300);
};

const fallbackPlay = async (env: Env) => {
  const c = await connectWithFallback(env.log, env.url);
  env.ctx.clients.push(c as Connected);
  await listTools(env.log, c);
  await callTool(env.log, c, 'get_order', { order_id: 'ORD-1001' });
  await callTool(env.log, c, 'create_order', { sku: 'SKU-BLUE-CAP', qty: 1 });
  await sleep(200);
  await closeClient(env.log, c, true);
};

const healthyPlay =
  (idleMs = 0) =>
  async (env: Env) => {
    const legacy = env.plan.server === 'legacy-sse';
    const c: Connected | LegacyConnected = legacy ? await connectLegacy(env.log, env.url) : await connect(env.log, env.url);
    env.ctx.clients.push(c as Connected);
    await listTools(env.log, c);
    await callTool(env.log, c, 'get_order', { order_id: 'ORD-1001' });
    if (idleMs) {
      env.log.info('Waiting for the user');
      await othersBusy(env, idleMs);
    }
    await callTool(env.log, c, 'create_order', { sku: 'SKU-BLUE-CAP', qty: 3 });
    await callTool(env.log, c, 'get_order', { order_id: 'ORD-4711' });
    await sleep(200);
    await closeClient(env.log, c, true);
  };

/** the conversation ends, the server is redeployed right after; the DELETE at shutdown meets the new process */
const lateDeletePlay = async (env: Env) => {
  const c = await open(env);
  await callTool(env.log, c, 'get_order', { order_id: 'ORD-1001' });
  await callTool(env.log, c, 'create_order', { sku: 'SKU-RED-MUG', qty: 1 });
  env.log.info('Conversation finished; the host app is shutting down');
  env.servers[0] = await env.ctx.restartServer(env.servers[0]!);
  await closeClient(env.log, c, true);
  await sleep(300);
};

/**
 * 2024-11-05 transport: the server restarts under a connected SSE client; the next POST /messages?sessionId=<old>
 * meets the new process (400 No transport found for sessionId) before EventSource's own reconnect (3 s) fires
 */
const legacyRestartPlay = async (env: Env) => {
  const c = await connectLegacy(env.log, env.url);
  env.ctx.clients.push(c as unknown as Connected);
  await listTools(env.log, c);
  await callTool(env.log, c, 'get_order', { order_id: 'ORD-1001' });
  await sleep(300);
  env.servers[0] = await env.ctx.restartServer(env.servers[0]!);
  await sleep(400);
  env.log.info('User asked to place an order');
  await callTool(env.log, c, 'create_order', { sku: 'SKU-RED-MUG', qty: 1 });
  // 2024-11-05 reinitialize: close, reopen GET /sse (new endpoint, new session), initialize
  env.log.warn('MCP call failed; reopening the SSE connection');
  await c.client.close();
  const c2 = await connectLegacy(env.log, env.url);
  env.ctx.clients.push(c2 as unknown as Connected);
  await listTools(env.log, c2);
  await callTool(env.log, c2, 'create_order', { sku: 'SKU-RED-MUG', qty: 1 });
  await sleep(200);
  await closeClient(env.log, c2, false);
};

// ---------------------------------------------------------------------------------------------------------------

const W = (tool: string, rpcId: number, httpStatus: number | null, method = 'tools/call'): Failing => ({ method, tool, rpcId, httpStatus });
const INIT = (httpStatus: number | null): Failing => ({ method: 'initialize', tool: null, rpcId: 0, httpStatus });

const plans: Plan[] = [
  // ---- session-lost ----
  {
    name: 'restart-404-nginx',
    family: 'session-lost',
    decision: 'no_action',
    failing: W('create_order', 3, 404),
    proxy: 'nginx',
    server: 'stateful',
    clients: 1,
    why: 'The server process restarted (new pid, new start line) and the next tools/call carried the old Mcp-Session-Id: 404 Session not found on the right endpoint. D10: reinitialize without the old id; the write was rejected before execution. The client then did that itself (a new session, and the same call re-sent and answered): the failure is recovered, so the incident needs no action (cli-contract.md roles).',
    play: restartPlay,
  },
  {
    name: 'restart-400-haproxy-3clients',
    family: 'session-lost',
    decision: 'no_action',
    failing: W('create_order', 3, 400),
    proxy: 'haproxy',
    server: 'json',
    clients: 3,
    serverCfg: { unknownSession: '400', logStyle: 'winston' },
    why: "After a restart conv-c's create_order with its old session id got the example-style 400 'Bad Request: No valid session ID provided'. D11: a non-compliant 400 while a session id was sent means the session is gone; reinitialize. The client then did that itself (a new session, and the same call re-sent and answered): the failure is recovered, so the incident needs no action (cli-contract.md roles).",
    play: restartPlay,
  },
  {
    name: 'restart-404-caddy',
    family: 'session-lost',
    decision: 'no_action',
    failing: W('create_order', 3, 404),
    proxy: 'caddy',
    server: 'stateful',
    clients: 1,
    why: 'Server restarted under an established session; the next tools/call with that id got 404 Session not found (D10). Reinitialize, then the rejected write can be sent again. The client then did that itself (a new session, and the same call re-sent and answered): the failure is recovered, so the incident needs no action (cli-contract.md roles).',
    play: restartPlay,
  },
  {
    name: 'restart-400-direct',
    family: 'session-lost',
    decision: 'no_action',
    failing: W('create_order', 3, 400),
    proxy: 'none',
    server: 'stateful',
    clients: 1,
    serverCfg: { unknownSession: '400', http: 'express' },
    why: 'No proxy; the server restarted and answered the stale session id with 400 No valid session ID provided (old example routing). D11: reinitialize (and file the 400-instead-of-404 bug). The client then did that itself (a new session, and the same call re-sent and answered): the failure is recovered, so the incident needs no action (cli-contract.md roles).',
    play: restartPlay,
  },
  {
    name: 'idle-eviction-nginx-3clients',
    family: 'session-lost',
    decision: 'no_action',
    failing: W('create_order', 3, 404),
    proxy: 'nginx',
    server: 'stateful',
    clients: 3,
    serverCfg: { idleTimeoutMs: 2000 },
    why: "The server logged 'Session <id> idle timeout' for conv-c only (the others stayed busy); conv-c's next tools/call got 404 Session not found. D10: reinitialize. The client then did that itself (a new session, and the same call re-sent and answered): the failure is recovered, so the incident needs no action (cli-contract.md roles).",
    play: idlePlay,
  },
  {
    name: 'idle-eviction-haproxy-json',
    family: 'session-lost',
    decision: 'no_action',
    failing: W('create_order', 3, 404),
    proxy: 'haproxy',
    server: 'json',
    clients: 1,
    serverCfg: { idleTimeoutMs: 2000 },
    why: 'Idle eviction on the server (idle timeout line, transport closed), then 404 Session not found for the next call with that id. D10: reinitialize. The client then did that itself (a new session, and the same call re-sent and answered): the failure is recovered, so the incident needs no action (cli-contract.md roles).',
    play: idlePlay,
  },
  {
    name: 'idle-eviction-direct-winston',
    family: 'session-lost',
    decision: 'no_action',
    failing: W('create_order', 3, 404),
    proxy: 'none',
    server: 'stateful',
    clients: 1,
    serverCfg: { idleTimeoutMs: 2000, logStyle: 'winston' },
    why: 'Direct connection; the server evicted the idle session and answered the next tools/call 404 Session not found. D10: reinitialize. The client then did that itself (a new session, and the same call re-sent and answered): the failure is recovered, so the incident needs no action (cli-contract.md roles).',
    play: idlePlay,
  },
  {
    name: 'deleted-reused-caddy',
    family: 'session-lost',
    decision: 'no_action',
    failing: W('get_order', 0, 404),
    proxy: 'caddy',
    server: 'stateful',
    clients: 1,
    why: 'The host DELETEd its session, then restored the cached id for the next turn (no initialize, rpc 0 is a tools/call): 404 Session not found. D10: reinitialize; a terminated session cannot be revived. The client then did that itself (a new session, and the same call re-sent and answered): the failure is recovered, so the incident needs no action (cli-contract.md roles).',
    play: deletedReusePlay,
  },
  {
    name: 'deleted-reused-haproxy-400',
    family: 'session-lost',
    decision: 'no_action',
    failing: W('get_order', 0, 400),
    proxy: 'haproxy',
    server: 'json',
    clients: 1,
    serverCfg: { unknownSession: '400' },
    why: 'Session id reused after the client DELETEd it; the example-routed server said 400 No valid session ID provided. D11: reinitialize. The client then did that itself (a new session, and the same call re-sent and answered): the failure is recovered, so the incident needs no action (cli-contract.md roles).',
    play: deletedReusePlay,
  },
  {
    name: 'deleted-reused-direct',
    family: 'session-lost',
    decision: 'no_action',
    failing: W('get_order', 0, 404),
    proxy: 'none',
    server: 'stateful',
    clients: 1,
    serverCfg: { logStyle: 'winston' },
    why: 'The client terminated its session (DELETE 200), later re-attached the same id and got 404 Session not found. D10: reinitialize. The client then did that itself (a new session, and the same call re-sent and answered): the failure is recovered, so the incident needs no action (cli-contract.md roles).',
    play: deletedReusePlay,
  },
  // ---- replica-affinity ----
  {
    name: 'round-robin-nginx-hostnames',
    family: 'replica-affinity',
    decision: 'fix_route_or_config',
    failing: { method: 'notifications/initialized', tool: null, rpcId: null, httpStatus: 404 },
    proxy: 'nginx',
    server: 'stateful',
    clients: 1,
    replicas: 2,
    why: 'Two replicas (hostnames orders-mcp-0/1) behind round robin: the session is created on one and the next request of the same session lands on the other (Session not found), on every attempt. D18: session affinity / shared store / stateless mode.',
    play: affinityPlay,
  },
  {
    name: 'round-robin-haproxy-winston',
    family: 'replica-affinity',
    decision: 'fix_route_or_config',
    failing: { method: 'notifications/initialized', tool: null, rpcId: null, httpStatus: 404 },
    proxy: 'haproxy',
    server: 'stateful',
    clients: 1,
    replicas: 2,
    serverCfg: { logStyle: 'winston', hostname: 'orders-mcp' },
    why: "HAProxy balance roundrobin over two servers (different backend server names and pids): initialize on one, the session's next request on the other → 404 Session not found, repeatedly. D18: fix affinity.",
    play: affinityPlay,
  },
  {
    name: 'round-robin-caddy-pids',
    family: 'replica-affinity',
    decision: 'fix_route_or_config',
    failing: { method: 'notifications/initialized', tool: null, rpcId: null, httpStatus: 404 },
    proxy: 'caddy',
    server: 'stateful',
    clients: 1,
    replicas: 2,
    serverCfg: { hostname: 'orders-mcp' },
    why: 'Caddy round robin over two replicas that share a hostname and differ only by pid/port: the session created on one is unknown to the other. D18: fix affinity.',
    play: affinityPlay,
  },
  {
    name: 'round-robin-nginx-json-400',
    family: 'replica-affinity',
    decision: 'fix_route_or_config',
    failing: { method: 'notifications/initialized', tool: null, rpcId: null, httpStatus: 400 },
    proxy: 'nginx',
    server: 'json',
    clients: 1,
    replicas: 2,
    serverCfg: { unknownSession: '400' },
    why: 'Replicas with example-style routing: alternate requests of one session get 400 No valid session ID provided from the replica that never saw initialize (upstream_addr alternates). D18 over D11: the cause is missing affinity, reinitializing loops.',
    play: affinityPlay,
  },
  // ---- stream-cut (process killed) ----
  {
    name: 'killed-after-commit-nginx-json',
    family: 'stream-cut',
    decision: 'read_result_no_repeat',
    failing: W('create_order', 3, 502),
    proxy: 'nginx',
    server: 'json',
    clients: 1,
    serverCfg: { crash: 'create_order:after-commit' },
    why: "Server logged 'create_order committed' for rpc 3 and then died (no shutdown line); nginx 502 upstream prematurely closed while reading response header. D5: the write committed, read the result, do not repeat.",
    play: killPlay('create_order'),
  },
  {
    name: 'killed-after-commit-haproxy-sse',
    family: 'stream-cut',
    decision: 'read_result_no_repeat',
    failing: W('create_order', 3, 200),
    proxy: 'haproxy',
    server: 'stateful',
    clients: 1,
    serverCfg: { crash: 'create_order:after-commit' },
    why: 'SSE response had started (200), the server logged committed then died; HAProxy logged the stream cut by the server and the client timed out. D5: committed → read_result_no_repeat.',
    play: killPlay('create_order'),
  },
  {
    name: 'killed-before-commit-caddy-json',
    family: 'stream-cut',
    decision: 'check_write_then_escalate',
    failing: W('create_order', 3, 502),
    proxy: 'caddy',
    server: 'json',
    clients: 1,
    serverCfg: { crash: 'create_order:before-commit' },
    why: "create_order started on the server ('start' line) but no 'committed' line; the process died and Caddy answered 502. D7: write outcome unknown → check the order system, then escalate; never blind-retry.",
    play: killPlay('create_order'),
  },
  {
    name: 'killed-before-commit-nginx-sse-3clients',
    family: 'stream-cut',
    decision: 'check_write_then_escalate',
    failing: W('create_order', 3, 502),
    proxy: 'nginx',
    server: 'stateful',
    clients: 3,
    serverCfg: { crash: 'create_order:before-commit' },
    why: "The server died right after logging conv-c's create_order 'start' (no commit), before its SSE response headers left: nginx 502 upstream prematurely closed while reading response header. The other conversations only lost GET streams. D7: check_write_then_escalate.",
    play: killPlay('create_order'),
  },
  {
    name: 'killed-after-commit-direct-json',
    family: 'stream-cut',
    decision: 'read_result_no_repeat',
    failing: W('create_order', 3, null),
    proxy: 'none',
    server: 'json',
    clients: 1,
    serverCfg: { crash: 'create_order:after-commit' },
    why: "No proxy: fetch failed (other side closed) for rpc 3 right after the server logged 'committed' and died. D5: read the committed result, do not repeat the write.",
    play: killPlay('create_order'),
  },
  {
    name: 'killed-read-haproxy-json',
    family: 'stream-cut',
    decision: 'retry',
    failing: W('get_order', 2, null),
    proxy: 'haproxy',
    server: 'json',
    clients: 1,
    serverCfg: { crash: 'get_order:before-response' },
    why: 'The server died inside get_order (read-only, idempotent) before answering; HAProxy closed the client connection without a response (client: fetch failed, other side closed). D6: a read interrupted before headers → retry with backoff once the server is back.',
    play: killPlay('get_order'),
  },
  {
    name: 'killed-before-commit-direct-sse-winston',
    family: 'stream-cut',
    decision: 'check_write_then_escalate',
    failing: W('create_order', 3, null),
    proxy: 'none',
    server: 'stateful',
    clients: 1,
    serverCfg: { crash: 'create_order:before-commit', logStyle: 'winston' },
    why: "Direct connection: rpc 3 failed with fetch failed (other side closed) right after the server logged create_order 'start' and died without a commit or shutdown line. D7: write outcome unknown → check_write_then_escalate.",
    play: killPlay('create_order'),
  },
  // ---- proxy-timeout ----
  {
    name: 'proxy-timeout-nginx-json-write',
    family: 'proxy-timeout',
    decision: 'check_write_then_escalate',
    failing: W('import_orders', 2, 504),
    proxy: 'nginx',
    server: 'json',
    clients: 1,
    serverCfg: { importMs: 8000 },
    proxyOpts: { timeout: '2s' },
    why: "nginx 504 'upstream timed out while reading response header' after proxy_read_timeout 2s; import_orders started and had not committed when the logs were pulled. D7 (and D19 for the timer): check the write, then escalate.",
    play: proxyTimeoutWritePlay(1000),
  },
  {
    name: 'proxy-timeout-haproxy-sse-write',
    family: 'proxy-timeout',
    decision: 'check_write_then_escalate',
    failing: W('import_orders', 2, 200),
    proxy: 'haproxy',
    server: 'stateful',
    clients: 1,
    serverCfg: { importMs: 15000 },
    proxyOpts: { timeout: '2s' },
    why: 'SSE mode: HAProxy returned 200 and then cut the quiet stream after timeout server 2s (server-side timeout flags); import_orders was still running, no commit; the client timed out. D7: check_write_then_escalate; fix the timer separately.',
    play: proxyTimeoutWritePlay(500, 6000),
  },
  {
    name: 'proxy-timeout-caddy-json-committed',
    family: 'proxy-timeout',
    decision: 'read_result_no_repeat',
    failing: W('import_orders', 2, 504),
    proxy: 'caddy',
    server: 'json',
    clients: 1,
    serverCfg: { importMs: 3000 },
    proxyOpts: { timeout: '2s' },
    why: "Caddy gave up waiting for response headers after 2 s (504); the server logged 'import_orders committed' for the same rpc a second later. D5: the write finished → read its result, do not repeat.",
    play: proxyTimeoutWritePlay(2000),
  },
  {
    name: 'proxy-timeout-nginx-sse-read',
    family: 'proxy-timeout',
    decision: 'fix_route_or_config',
    failing: W('export_report', 2, 200),
    proxy: 'nginx',
    server: 'stateful',
    clients: 1,
    serverCfg: { reportMs: 6000 },
    proxyOpts: { timeout: '2s' },
    why: 'A read-only report tool that needs 6 s; nginx cut the quiet SSE stream after proxy_read_timeout 2s (200, then upstream timed out while reading upstream) on both attempts. D19: the proxy timer is shorter than the tool; retrying cannot help → fix the proxy config.',
    play: proxyTimeoutReadPlay(4000),
  },
  {
    name: 'proxy-timeout-haproxy-json-read-3clients',
    family: 'proxy-timeout',
    decision: 'fix_route_or_config',
    failing: W('export_report', 2, 504),
    proxy: 'haproxy',
    server: 'json',
    clients: 3,
    serverCfg: { reportMs: 6000 },
    proxyOpts: { timeout: '2s' },
    why: "conv-c's read-only export_report got HAProxy 504 after exactly 2 s, twice, while the other conversations' short calls worked. D19: fix the proxy timeout (or stream progress).",
    play: proxyTimeoutReadPlay(),
  },
  // ---- client-timeout ----
  {
    name: 'client-timeout-nginx-sse-uncommitted',
    family: 'client-timeout',
    decision: 'check_write_then_escalate',
    failing: W('create_order', 2, 200),
    proxy: 'nginx',
    server: 'stateful',
    clients: 1,
    serverCfg: { createMs: 8000 },
    why: "The host's 3 s request timeout fired (MCP error -32001 Request timed out) while create_order was still running (start, no commit when the logs were pulled). D7: outcome unknown → check_write_then_escalate.",
    play: clientTimeoutPlay('create_order', 3000, 800),
  },
  {
    name: 'client-timeout-haproxy-json-committed',
    family: 'client-timeout',
    decision: 'read_result_no_repeat',
    failing: W('create_order', 2, null),
    proxy: 'haproxy',
    server: 'json',
    clients: 1,
    serverCfg: { createMs: 4000 },
    why: "The client gave up after 2.5 s; the server went on and logged 'create_order committed' for the same rpc about 1.5 s later. D5: the write completed → read the result, do not repeat.",
    play: clientTimeoutPlay('create_order', 2500, 3000),
  },
  {
    name: 'client-timeout-direct-sse-committed-3clients',
    family: 'client-timeout',
    decision: 'read_result_no_repeat',
    failing: W('import_orders', 2, 200),
    proxy: 'none',
    server: 'stateful',
    clients: 3,
    serverCfg: { importMs: 5000 },
    why: "conv-c's import_orders timed out at the client after 3 s; the server logged 'import_orders committed' for that rpc two seconds later. D5: read_result_no_repeat.",
    play: clientTimeoutPlay('import_orders', 3000, 3500),
  },
  {
    name: 'client-timeout-caddy-json-uncommitted',
    family: 'client-timeout',
    decision: 'check_write_then_escalate',
    failing: W('create_order', 2, null),
    proxy: 'caddy',
    server: 'json',
    clients: 1,
    serverCfg: { createMs: 9000 },
    why: 'Request timed out at the client after 3 s; the server shows create_order start and no commit in the pulled logs. D7: check_write_then_escalate.',
    play: clientTimeoutPlay('create_order', 3000, 1000),
  },
  {
    name: 'client-timeout-nginx-stateless-read',
    family: 'client-timeout',
    decision: 'retry',
    failing: W('get_order', 2, 200),
    proxy: 'nginx',
    server: 'stateless',
    clients: 1,
    serverCfg: { getOrderMs: 4000 },
    why: 'A slow get_order (read-only, idempotent) exceeded the host timeout of 2 s once. D6: a read interrupted by a timeout → retry with backoff.',
    play: clientTimeoutPlay('get_order', 2000, 2500),
  },
  // ---- buffering ----
  {
    name: 'buffering-nginx-timeout',
    family: 'buffering',
    decision: 'fix_route_or_config',
    failing: W('export_report', 2, null),
    proxy: 'nginx',
    server: 'stateful',
    clients: 1,
    serverCfg: { reportMs: 6000 },
    proxyOpts: { buffering: true },
    why: 'The MCP location buffers (proxy_buffering on, X-Accel-Buffering ignored, gzip on event streams): the server sent a progress event every 500 ms, the client saw nothing (not even the response headers) and its 3 s timeout (reset on progress) ran out; the server finished the read-only report at 6 s. Row 72 / D19: fix the proxy buffering.',
    play: bufferingPlay(3000, 4500),
  },
  {
    name: 'buffering-nginx-late-progress-3clients',
    family: 'buffering',
    decision: 'fix_route_or_config',
    failing: W('export_report', 2, 200),
    proxy: 'nginx',
    server: 'stateful',
    clients: 3,
    serverCfg: { reportMs: 3000 },
    proxyOpts: { buffering: true },
    why: "conv-c's progress events (sent every 500 ms) all arrived at once with the result 3 s later: nginx buffered and gzipped the SSE response. D19 / row 72: fix_route_or_config (buffering and gzip off for the MCP location).",
    play: bufferingPlay(undefined, 500),
  },
  {
    name: 'buffering-nginx-stateless-timeout',
    family: 'buffering',
    decision: 'fix_route_or_config',
    failing: W('export_report', 2, 200),
    proxy: 'nginx',
    server: 'stateless',
    clients: 1,
    serverCfg: { reportMs: 5000 },
    proxyOpts: { buffering: true },
    why: 'Stateless server streaming progress through a buffering nginx: the client got no event and timed out at 2.5 s; the server finished the read at 5 s and only then did the response (headers, progress and result at once) reach the client. D19: fix proxy buffering.',
    play: bufferingPlay(2500, 3000),
  },
  // ---- body-limit ----
  {
    name: 'body-limit-nginx',
    family: 'body-limit',
    decision: 'fix_route_or_config',
    failing: W('import_orders', 2, 413),
    proxy: 'nginx',
    server: 'stateful',
    clients: 1,
    proxyOpts: { bodyLimit: true },
    why: 'nginx refused the ~60 KB tools/call body with its own 413 page (client intended to send too large body); the server never saw the request. Row 30: fix client_max_body_size for the MCP location.',
    play: bodyLimitPlay,
  },
  {
    name: 'body-limit-haproxy-3clients',
    family: 'body-limit',
    decision: 'fix_route_or_config',
    failing: W('import_orders', 2, 413),
    proxy: 'haproxy',
    server: 'json',
    clients: 3,
    proxyOpts: { bodyLimit: true },
    why: "HAProxy denied conv-c's large import_orders POST with 413 (request body limit) before it reached the server; the other conversations' small requests passed. Fix the proxy's body limit.",
    play: bodyLimitPlay,
  },
  {
    name: 'body-limit-caddy-stateless',
    family: 'body-limit',
    decision: 'fix_route_or_config',
    failing: W('import_orders', 2, 502),
    proxy: 'caddy',
    server: 'stateless',
    clients: 1,
    proxyOpts: { bodyLimit: true },
    why: "Caddy 2.6's request_body max_size cut the large tools/call body: its error log says 'HTTP 413: http: request body too large' while the client got 502; the server never got a complete request. Body limit → fix the proxy limit.",
    play: bodyLimitPlay,
  },
  // ---- upstream-down ----
  {
    name: 'upstream-down-nginx',
    down: 'never',
    family: 'upstream-down',
    decision: 'retry',
    failing: INIT(502),
    proxy: 'nginx',
    server: 'stateful',
    clients: 1,
    why: 'nginx connect() failed (111: Connection refused) while connecting to upstream → 502 on initialize; nothing reached a server. D1: send again once the server is up.',
    play: connectOnce(),
  },
  {
    name: 'upstream-down-haproxy-503',
    down: 'never',
    family: 'upstream-down',
    decision: 'retry',
    failing: INIT(503),
    proxy: 'haproxy',
    server: 'stateful',
    clients: 1,
    why: 'HAProxy could not connect to its only server (SC termination flags) and answered 503 on both connect attempts; the request was never delivered. D1: retry.',
    play: connectOnce({}, 2),
  },
  {
    name: 'upstream-down-caddy',
    down: 'stopped',
    family: 'upstream-down',
    decision: 'retry',
    failing: INIT(502),
    proxy: 'caddy',
    server: 'json',
    clients: 1,
    why: 'The server log ends with its SIGTERM shutdown (a deploy); Caddy: dial tcp … connect: connection refused → 502 on initialize. D1: not delivered, retry once the server is back.',
    play: connectOnce(),
  },
  {
    name: 'upstream-down-direct',
    down: 'stopped',
    family: 'upstream-down',
    decision: 'retry',
    failing: INIT(null),
    proxy: 'none',
    server: 'stateful',
    clients: 1,
    why: 'No proxy; the server had shut down (SIGTERM line last in its log) and fetch failed with cause ECONNREFUSED on initialize, twice. D1 / row 41: nothing was sent, retry.',
    play: connectOnce({}, 2),
  },
  // ---- route ----
  {
    name: 'wrong-path-nginx-html',
    family: 'route',
    decision: 'fix_route_or_config',
    failing: INIT(404),
    proxy: 'nginx',
    server: 'stateful',
    clients: 1,
    path: '/mcp-wrong',
    why: "The very first initialize got nginx's own HTML 404 (no X-Request-ID, no server line). D12: wrong path/proxy route.",
    play: connectOnce(),
  },
  {
    name: 'wrong-path-haproxy-trailing-slash',
    family: 'route',
    decision: 'fix_route_or_config',
    failing: INIT(404),
    proxy: 'haproxy',
    server: 'stateful',
    clients: 1,
    path: '/mcp/',
    why: 'The host URL has a trailing slash (/mcp/) that HAProxy does not route: its 404 page on the first initialize. D12: fix the URL or the route.',
    play: connectOnce(),
  },
  {
    name: 'wrong-path-caddy-express-v1',
    family: 'route',
    decision: 'fix_route_or_config',
    failing: INIT(404),
    proxy: 'caddy',
    server: 'stateful',
    clients: 1,
    path: '/v1',
    serverCfg: { http: 'express' },
    proxyOpts: { allPaths: true },
    why: "The model API base URL (/v1) was configured as the MCP endpoint; the server's Express answered 'Cannot POST /v1' (HTML 404) to the first initialize. D12 / triage-rules §1: route mistake.",
    play: connectOnce(),
  },
  {
    name: 'wrong-path-direct-server-404',
    family: 'route',
    decision: 'fix_route_or_config',
    failing: INIT(404),
    proxy: 'none',
    server: 'json',
    clients: 1,
    path: '/api/mcp',
    why: 'Direct to the server with a mount prefix it does not have (/api/mcp): plain-text 404 Not Found on the very first initialize, no session involved. D12.',
    play: connectOnce(),
  },
  // ---- headers ----
  {
    name: 'accept-rewrite-nginx',
    family: 'headers',
    decision: 'fix_route_or_config',
    failing: INIT(406),
    proxy: 'nginx',
    server: 'stateful',
    clients: 1,
    proxyOpts: { setHeader: ['Accept', 'application/json'] },
    why: 'nginx overwrites Accept with application/json (copied REST config); the server answered 406 Not Acceptable to initialize. D14: fix the proxy header.',
    play: connectOnce(),
  },
  {
    name: 'content-type-rewrite-haproxy',
    family: 'headers',
    decision: 'fix_route_or_config',
    failing: INIT(415),
    proxy: 'haproxy',
    server: 'stateful',
    clients: 1,
    proxyOpts: { setHeader: ['Content-Type', 'text/plain'] },
    why: 'HAProxy rewrites Content-Type to text/plain; the server answered 415 Unsupported Media Type to initialize. D14: fix the proxy.',
    play: connectOnce(),
  },
  {
    name: 'accept-rewrite-caddy-json',
    family: 'headers',
    decision: 'fix_route_or_config',
    failing: INIT(406),
    proxy: 'caddy',
    server: 'json',
    clients: 1,
    proxyOpts: { setHeader: ['Accept', 'text/event-stream'] },
    why: 'Caddy header_up forces Accept: text/event-stream; the server requires both types and answered 406. D14: fix the proxy header.',
    play: connectOnce(),
  },
  {
    name: 'content-type-client-bug-direct',
    family: 'headers',
    decision: 'fix_route_or_config',
    failing: INIT(415),
    proxy: 'none',
    server: 'stateful',
    clients: 1,
    serverCfg: { http: 'express' },
    why: "The host's fetch hook sends Content-Type: text/plain; charset=utf-8; the server answered 415 to initialize. D14: fix the client's headers.",
    play: connectOnce({ rewriteHeaders: (h) => h.has('content-type') && h.set('content-type', 'text/plain; charset=utf-8') }),
  },
  {
    name: 'pinned-protocol-direct',
    family: 'headers',
    decision: 'fix_route_or_config',
    failing: { method: 'notifications/initialized', tool: null, rpcId: null, httpStatus: 400 },
    proxy: 'none',
    server: 'stateful',
    clients: 1,
    why: 'The host pins mcp-protocol-version 2026-07-28 in its request headers; initialize passes, notifications/initialized gets 400 Unsupported protocol version. D14: fix the header, do not reinitialize.',
    play: connectOnce({ requestInit: { headers: { 'mcp-protocol-version': '2026-07-28' } } }),
  },
  {
    name: 'pinned-protocol-haproxy-proxy',
    family: 'headers',
    decision: 'fix_route_or_config',
    failing: { method: 'notifications/initialized', tool: null, rpcId: null, httpStatus: 400 },
    proxy: 'haproxy',
    server: 'json',
    clients: 1,
    proxyOpts: { setHeader: ['MCP-Protocol-Version', '2026-07-28'] },
    why: 'HAProxy sets MCP-Protocol-Version 2026-07-28 on every request, overriding the negotiated 2025-11-25; the first checked request (notifications/initialized) got 400 Unsupported protocol version. D14: fix the proxy.',
    play: connectOnce(),
  },
  {
    name: 'pinned-protocol-caddy-stateless',
    family: 'headers',
    decision: 'fix_route_or_config',
    failing: { method: 'notifications/initialized', tool: null, rpcId: null, httpStatus: 400 },
    proxy: 'caddy',
    server: 'stateless',
    clients: 1,
    why: 'Stateless server, host pins a draft protocol header (DRAFT-2026-v1): 400 Unsupported protocol version after initialize. D14: fix the client header.',
    play: connectOnce({ requestInit: { headers: { 'mcp-protocol-version': 'DRAFT-2026-v1' } } }),
  },
  // ---- auth ----
  {
    name: 'auth-server-bearer-nginx',
    family: 'auth',
    decision: 'fix_auth',
    failing: INIT(401),
    proxy: 'nginx',
    server: 'stateful',
    clients: 1,
    serverCfg: { http: 'express', bearerToken: 'test-token-valid' },
    why: 'The server\'s bearer check rejected the token: 401 with WWW-Authenticate Bearer error="invalid_token", error_description="Token has expired". D17: fix auth (new token); retrying cannot help.',
    play: connectOnce({ requestInit: { headers: { authorization: 'Bearer test-token-expired' } } }),
  },
  {
    name: 'auth-proxy-nginx',
    family: 'auth',
    decision: 'fix_auth',
    failing: INIT(401),
    proxy: 'nginx',
    server: 'stateful',
    clients: 1,
    proxyOpts: { bearerToken: 'test-token-valid' },
    why: 'nginx itself checks the bearer token and answered its HTML 401 with WWW-Authenticate on initialize; nothing reached the server. D17: fix_auth.',
    play: connectOnce({ requestInit: { headers: { authorization: 'Bearer test-token-expired' } } }),
  },
  {
    name: 'auth-proxy-haproxy',
    family: 'auth',
    decision: 'fix_auth',
    failing: INIT(401),
    proxy: 'haproxy',
    server: 'json',
    clients: 1,
    proxyOpts: { bearerToken: 'test-token-valid' },
    why: 'HAProxy returned 401 invalid_token with WWW-Authenticate for the missing/wrong bearer token, twice. D17: fix_auth.',
    play: connectOnce({ requestInit: { headers: { authorization: 'Bearer test-token-expired' } } }, 2),
  },
  {
    name: 'auth-server-bearer-direct-stateless',
    family: 'auth',
    decision: 'fix_auth',
    failing: INIT(401),
    proxy: 'none',
    server: 'stateless',
    clients: 1,
    serverCfg: { http: 'express', bearerToken: 'test-token-valid', logStyle: 'winston' },
    why: 'Direct to a stateless server with bearer auth: 401 Token has expired (WWW-Authenticate). D17: fix_auth.',
    play: connectOnce({ requestInit: { headers: { authorization: 'Bearer test-token-expired' } } }),
  },
  {
    name: 'auth-server-bearer-caddy-json',
    family: 'auth',
    decision: 'fix_auth',
    failing: INIT(401),
    proxy: 'caddy',
    server: 'json',
    clients: 1,
    serverCfg: { http: 'express', bearerToken: 'test-token-valid' },
    why: 'Through Caddy, the server answered 401 invalid_token (Token has expired) to initialize. D17: fix_auth.',
    play: connectOnce({ requestInit: { headers: { authorization: 'Bearer test-token-expired' } } }),
  },
  // ---- unknown-method ----
  {
    name: 'unknown-method-haproxy-stateless',
    family: 'unknown-method',
    decision: 'fix_route_or_config',
    failing: { method: 'resources/subscribe', tool: null, rpcId: 3, httpStatus: 200 },
    proxy: 'haproxy',
    server: 'stateless',
    clients: 1,
    why: 'resources/subscribe answered 200 with JSON-RPC -32601 Method not found: the server offers no resources (capabilities: logging, tools). Not a session problem; fix the host feature (capability check).',
    play: unknownMethodPlay,
  },
  {
    name: 'unknown-method-caddy-json',
    family: 'unknown-method',
    decision: 'fix_route_or_config',
    failing: { method: 'resources/subscribe', tool: null, rpcId: 3, httpStatus: 200 },
    proxy: 'caddy',
    server: 'json',
    clients: 1,
    why: 'JSON response mode: -32601 Method not found for resources/subscribe in a 200; the session keeps working. Capability mismatch → fix_route_or_config.',
    play: unknownMethodPlay,
  },
  {
    name: 'unknown-method-direct-3clients',
    family: 'unknown-method',
    decision: 'fix_route_or_config',
    failing: { method: 'resources/subscribe', tool: null, rpcId: 3, httpStatus: 200 },
    proxy: 'none',
    server: 'stateful',
    clients: 3,
    serverCfg: { logStyle: 'winston' },
    why: "conv-c's resources/subscribe got -32601 Method not found; everything else worked. Capability mismatch, not transport: fix_route_or_config.",
    play: unknownMethodPlay,
  },
  // ---- recovered ----
  {
    name: 'resumed-nginx',
    family: 'recovered',
    decision: 'no_action',
    failing: W('import_orders', 2, 200),
    proxy: 'nginx',
    server: 'stateful',
    clients: 1,
    serverCfg: { eventStore: true, importMs: 2500, cutStream: 'import_orders:after-first-event' },
    why: 'The import_orders SSE stream was cut after its first event; the client resumed with GET + Last-Event-ID and received the result. D9: no_action.',
    play: resumePlay,
  },
  {
    name: 'resumed-haproxy-3clients',
    family: 'recovered',
    decision: 'no_action',
    failing: W('import_orders', 2, 200),
    proxy: 'haproxy',
    server: 'stateful',
    clients: 3,
    serverCfg: { eventStore: true, importMs: 2500, cutStream: 'import_orders:after-first-event' },
    why: "conv-c's POST stream was cut mid-call (HAProxy logs the server-side abort); the SDK resumed via GET + Last-Event-ID and the result arrived. D9: no_action.",
    play: resumePlay,
  },
  {
    name: 'resumed-direct-winston',
    family: 'recovered',
    decision: 'no_action',
    failing: W('import_orders', 2, 200),
    proxy: 'none',
    server: 'stateful',
    clients: 1,
    serverCfg: { eventStore: true, importMs: 2500, cutStream: 'import_orders:after-first-event', logStyle: 'winston' },
    why: 'Direct connection reset after the first progress event; replay from the event store delivered the result on the resuming GET. D9: no_action.',
    play: resumePlay,
  },
  {
    name: 'fallback-to-sse-nginx',
    family: 'recovered',
    decision: 'no_action',
    failing: INIT(404),
    proxy: 'nginx',
    server: 'legacy-sse',
    clients: 1,
    why: 'The Streamable HTTP initialize POST to /sse got 404 from the legacy server; the client fell back to the HTTP+SSE transport, connected and its calls succeeded. Fallback worked → no_action.',
    play: fallbackPlay,
  },
  {
    name: 'fallback-to-sse-caddy-express',
    family: 'recovered',
    decision: 'no_action',
    failing: INIT(404),
    proxy: 'caddy',
    server: 'legacy-sse',
    clients: 1,
    serverCfg: { http: 'express' },
    why: "Express legacy server answered the Streamable HTTP POST with 'Cannot POST /sse'; the client's documented fallback to SSE connected and worked. no_action.",
    play: fallbackPlay,
  },
  {
    name: 'fallback-to-sse-direct',
    family: 'recovered',
    decision: 'no_action',
    failing: INIT(404),
    proxy: 'none',
    server: 'legacy-sse',
    clients: 1,
    serverCfg: { logStyle: 'winston' },
    why: 'Direct to a 2024-11-05 server: initialize POST 404, fallback GET /sse + POST /messages worked. no_action.',
    play: fallbackPlay,
  },
  // ---- transport-mismatch ----
  {
    name: 'legacy-client-streamable-server-nginx',
    family: 'transport-mismatch',
    decision: 'fix_route_or_config',
    failing: { method: null, tool: null, rpcId: null, httpStatus: 400 },
    proxy: 'nginx',
    server: 'stateful',
    clients: 1,
    why: 'An SSE-only (2024-11-05) client opened GET /mcp without a session on a Streamable-HTTP-only server: 400, no endpoint event, never initialized. Transport choice mismatch → fix the client transport/config.',
    play: legacyClientPlay,
  },
  {
    name: 'legacy-client-streamable-server-haproxy-stateless',
    family: 'transport-mismatch',
    decision: 'fix_route_or_config',
    failing: { method: null, tool: null, rpcId: null, httpStatus: 405 },
    proxy: 'haproxy',
    server: 'stateless',
    clients: 1,
    why: 'Legacy SSE client against a stateless Streamable HTTP server: GET answered 405 Method not allowed, the client never got an endpoint. Fix the client to use Streamable HTTP.',
    play: legacyClientPlay,
  },
  {
    name: 'streamable-client-legacy-server-direct',
    family: 'transport-mismatch',
    decision: 'fix_route_or_config',
    failing: INIT(404),
    proxy: 'none',
    server: 'legacy-sse',
    clients: 1,
    why: "A Streamable-HTTP-only client POSTed initialize to a 2024-11-05 server's /sse: 404 on the first request and no fallback configured. D12: fix the transport choice (or enable the SSE fallback).",
    play: connectOnce(),
  },
  // ---- optional-channel ----
  {
    name: 'get-stream-recycled-nginx',
    family: 'optional-channel',
    decision: 'no_action',
    failing: null,
    proxy: 'nginx',
    server: 'stateful',
    clients: 1,
    proxyOpts: { timeout: '2s' },
    why: 'Only the standalone GET stream was cut by proxy_read_timeout 2s and reopened (upstream timed out … while reading upstream on GET); every request succeeded. D16 / row 43: optional channel, no_action.',
    play: healthyPlay(5000),
  },
  {
    name: 'get-stream-recycled-haproxy-3clients',
    family: 'optional-channel',
    decision: 'no_action',
    failing: null,
    proxy: 'haproxy',
    server: 'stateful',
    clients: 3,
    proxyOpts: { timeout: '2s' },
    why: "HAProxy's timeout server 2s recycled the idle GET streams of all three conversations; no request failed. D16: no_action.",
    play: healthyPlay(4500),
  },
  {
    name: 'late-delete-after-redeploy-direct',
    family: 'optional-channel',
    decision: 'no_action',
    failing: null,
    proxy: 'none',
    server: 'stateful',
    clients: 1,
    why: 'The conversation had finished; the server was redeployed and the DELETE sent at host shutdown got 404 (Session termination failed). Nothing the user asked for failed. D16 / row 20: no_action.',
    play: lateDeletePlay,
  },
  {
    name: 'stateless-get-abort-caddy',
    family: 'optional-channel',
    decision: 'no_action',
    failing: null,
    proxy: 'caddy',
    server: 'stateless',
    clients: 1,
    serverCfg: { statelessGet: 'open' },
    why: 'Stateless server that holds the GET open: closing the client aborts it and the SDK logs SSE stream disconnected: AbortError at error level in a healthy run. Optional channel noise, no_action.',
    play: healthyPlay(),
  },
  // ---- healthy ----
  {
    name: 'healthy-haproxy',
    family: 'healthy',
    decision: 'no_action',
    failing: null,
    proxy: 'haproxy',
    server: 'stateful',
    clients: 1,
    why: 'Initialize, tools, reads and a write all succeed; the session ends with a clean DELETE at shutdown. no_action.',
    play: healthyPlay(),
  },
  {
    name: 'healthy-caddy-stateless-3clients',
    family: 'healthy',
    decision: 'no_action',
    failing: null,
    proxy: 'caddy',
    server: 'stateless',
    clients: 3,
    why: 'Three conversations on a stateless server (GET 405 is the server saying it has no standalone stream); every call succeeded. no_action.',
    play: healthyPlay(),
  },
  {
    name: 'healthy-direct-json',
    family: 'healthy',
    decision: 'no_action',
    failing: null,
    proxy: 'none',
    server: 'json',
    clients: 1,
    serverCfg: { logStyle: 'winston' },
    why: 'JSON response mode, direct connection, all calls succeed, clean DELETE. no_action.',
    play: healthyPlay(),
  },
  {
    name: 'healthy-nginx-legacy-sse',
    family: 'healthy',
    decision: 'no_action',
    failing: null,
    proxy: 'nginx',
    server: 'legacy-sse',
    clients: 1,
    why: 'A 2024-11-05 HTTP+SSE client and server through nginx: GET /sse, endpoint event, POST /messages 202s, results on the stream. Nothing failed. no_action.',
    play: healthyPlay(),
  },
  {
    name: 'healthy-nginx-replicas-stateless',
    family: 'healthy',
    decision: 'no_action',
    failing: null,
    proxy: 'nginx',
    server: 'stateless',
    clients: 1,
    replicas: 2,
    why: 'Two replicas behind round robin WITHOUT affinity, but the server is stateless, so alternating replicas is harmless; every call succeeded. no_action (contrast with replica-affinity).',
    play: healthyPlay(),
  },
  {
    name: 'healthy-haproxy-3clients-winston',
    family: 'healthy',
    decision: 'no_action',
    failing: null,
    proxy: 'haproxy',
    server: 'json',
    clients: 3,
    serverCfg: { logStyle: 'winston' },
    why: 'Three concurrent conversations with overlapping rpc ids, each with its GET stream, all calls fine, clean DELETEs. no_action.',
    play: healthyPlay(1500),
  },
  // ---- appended later (kept last so the primary styles of the plans above stay put) ----
  {
    name: 'legacy-restart-nginx',
    family: 'session-lost',
    decision: 'no_action',
    failing: W('create_order', 3, 400),
    proxy: 'nginx',
    server: 'legacy-sse',
    clients: 1,
    why: '2024-11-05 HTTP+SSE: the server restarted (its SSE stream ended, new pid), and the next POST /messages?sessionId=<old> got 400 No transport found for sessionId. The session is gone: reinitialize, which for this transport means reopening GET /sse and using the new endpoint (D10 version modifier, row 37/58). The client then did that itself (a new session, and the same call re-sent and answered): the failure is recovered, so the incident needs no action (cli-contract.md roles).',
    play: legacyRestartPlay,
  },
  {
    name: 'legacy-restart-direct-winston',
    family: 'session-lost',
    decision: 'no_action',
    failing: W('create_order', 3, 400),
    proxy: 'none',
    server: 'legacy-sse',
    clients: 1,
    serverCfg: { logStyle: 'winston' },
    why: 'Legacy SSE transport, direct: after a server restart the old sessionId in the POST URL is unknown (400 No transport found for sessionId). Reopen GET /sse and initialize again (reinitialize for 2024-11-05). The client then did that itself (a new session, and the same call re-sent and answered): the failure is recovered, so the incident needs no action (cli-contract.md roles).',
    play: legacyRestartPlay,
  },
];

const noisePlans: Plan[] = [
  {
    name: 'healthy-sessions',
    family: 'healthy',
    decision: 'no_action',
    failing: null,
    proxy: 'nginx',
    server: 'stateful',
    clients: 3,
    why: 'Noise material: three healthy conversations doing reads with their GET streams open; splice into an incident, the decision must not change.',
    play: async (env) => {
      const c = await open(env);
      await callTool(env.log, c, 'get_order', { order_id: 'ORD-1001' });
      await othersBusy(env, 3000);
      await callTool(env.log, c, 'get_order', { order_id: 'ORD-1002' });
      await closeClient(env.log, c, true);
    },
  },
  {
    name: 'get-reconnect',
    family: 'optional-channel',
    decision: 'no_action',
    failing: null,
    proxy: 'nginx',
    server: 'stateful',
    clients: 1,
    proxyOpts: { timeout: '2s' },
    why: 'Noise material: one healthy session whose idle GET stream nginx cuts every 2 s (proxy_read_timeout) and the SDK reopens; no request fails.',
    play: async (env) => {
      const c = await open(env);
      await callTool(env.log, c, 'get_order', { order_id: 'ORD-1001' });
      await sleep(7000);
      await callTool(env.log, c, 'get_order', { order_id: 'ORD-1002' });
      await closeClient(env.log, c, true);
    },
  },
];

export const recordedScenarios: RecordedScenario[] = [...plans.map((p) => scenario(p)), ...noisePlans.map((p) => scenario(p, true))];
