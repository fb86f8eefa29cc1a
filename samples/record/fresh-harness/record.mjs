import { startNginx, startServer, waitPort, runClient, stop, prepDir, label, sleep } from './lib.mjs';

const L = (family, decision, failing, why) => ({ family, decision, failing, why });
const F = (method, tool = null, httpStatus = null) => ({ method, tool, httpStatus });

// Each incident: { n: index, nginx: {...}, server: env, clog, scenario, hooks(ctx), label, custom }
const incidents = {
  'healthy-basic': { n: 1, nginx: { format: 'combined' }, server: { LOG: 'winston' }, clog: 'pino', scenario: 'healthy',
    label: L('healthy', 'no_action', null, 'Single client initializes, lists tools, runs read and write tools and terminates its session; every request succeeds.') },
  'healthy-concurrent-3': { n: 2, nginx: { format: 'json' }, server: { LOG: 'pino' }, clog: 'winston', scenario: 'concurrent',
    label: L('healthy', 'no_action', null, 'Three concurrent clients each open their own session, run read and write tools and close cleanly; no errors.') },
  'restart-stale-session': { n: 3, nginx: { format: 'custom' }, server: { LOG: 'winston' }, clog: 'debug', scenario: 'stale_after_restart',
    hooks: (ctx) => ({ restart: async () => { await ctx.restartServer(); } }),
    label: L('session_lost', 'reinitialize', F('tools/call', 'lookup_item', 404), 'The server process restarted and lost its in-memory sessions; the client keeps retrying with the old Mcp-Session-Id and gets 404 Session not found every time.') },
  'restart-client-reinitialized': { n: 4, nginx: { format: 'combined' }, server: { LOG: 'pino' }, clog: 'console', scenario: 'restart_recover',
    hooks: (ctx) => ({ restart: async () => { await ctx.restartServer(); } }),
    label: L('session_lost', 'no_action', null, 'After a server restart the client got one 404 Session not found, re-initialized a new session by itself and all later calls succeeded.') },
  'session-deleted-then-reused': { n: 5, nginx: { format: 'json' }, server: { LOG: 'winston' }, clog: 'pino', scenario: 'delete_reuse',
    label: L('session_lost', 'reinitialize', F('tools/call', 'stock_report', 404), 'One component sent DELETE for the shared session and another component kept using the same Mcp-Session-Id, getting 404 Session not found.') },
  'session-evicted-idle': { n: 6, nginx: { format: 'custom' }, server: { LOG: 'pino', IDLE_EVICT_MS: '1500', UNKNOWN_SESSION: '400' }, clog: 'winston', scenario: 'evicted',
    label: L('session_lost', 'reinitialize', F('tools/call', 'stock_report', 400), 'The server evicted the idle session after its idle timeout; later requests with that session id are rejected with 400 No valid session ID provided.') },
  'upstream-down-502': { n: 7, nginx: { format: 'combined' }, server: { LOG: 'winston' }, clog: 'console', scenario: 'connect_retry', serverDownBeforeClient: true,
    label: L('upstream_unavailable', 'retry', F('initialize', null, 502), 'The MCP server process is not running, so nginx gets connection refused and returns 502 on initialize; the request never reached the server.') },
  'wrong-path-404': { n: 8, nginx: { format: 'json' }, server: { LOG: 'winston' }, clog: 'debug', scenario: 'connect_once', path: '/mcp/v1',
    label: L('misroute', 'fix_route_or_config', F('initialize', null, 404), 'The client is configured with /mcp/v1, which the server does not serve (Express 404 Cannot POST) on the very first initialize.') },
  'proxy-timeout-readonly-504': { n: 9, nginx: { format: 'custom', readTimeout: '3s' }, server: { LOG: 'winston', JSON: '1', REPORT_MS: '7000' }, clog: 'pino', scenario: 'slow_read',
    label: L('proxy_timeout', 'fix_route_or_config', F('tools/call', 'stock_report', 504), 'stock_report needs ~7s but nginx proxy_read_timeout is 3s, so every attempt of this read-only call is cut with 504; retrying cannot help.') },
  'proxy-timeout-write-completed': { n: 10, nginx: { format: 'combined', readTimeout: '3s' }, server: { LOG: 'pino', JSON: '1', LEDGER_MS: '5000' }, clog: 'winston', scenario: 'slow_write',
    hooks: () => ({ after_write: () => sleep(3500) }),
    label: L('write_timeout', 'read_result_no_repeat', F('tools/call', 'ledger_append', 504), 'nginx cut the ledger_append call at 3s with 504, but the server log shows the ledger entry committed afterwards, so the write happened and must not be repeated.') },
  'proxy-timeout-write-server-killed': { n: 11, nginx: { format: 'json', readTimeout: '3s' }, server: { LOG: 'winston', JSON: '1', LEDGER_MS: '7000' }, clog: 'console', scenario: 'slow_write',
    hooks: (ctx) => ({ after_write: async () => { await sleep(800); await stop(ctx.server, 'SIGKILL'); } }),
    label: L('write_timeout', 'check_write_then_escalate', F('tools/call', 'ledger_append', 504), 'nginx cut the ledger_append call with 504 and the server process died before logging any commit; there is no evidence whether the write was applied.') },
  'client-timeout-write': { n: 12, nginx: { format: 'custom' }, server: { LOG: 'pino', LEDGER_HANG: '1' }, clog: 'debug', scenario: 'write_client_timeout',
    hooks: () => ({ after_write: () => sleep(1500) }),
    label: L('write_timeout', 'check_write_then_escalate', F('tools/call', 'ledger_append', null), 'The client SDK timed out the ledger_append write after 4s (-32001 Request timed out); the server log shows the write started but no commit, so its outcome is unknown.') },
  'body-too-large-413': { n: 13, nginx: { format: 'json', bodySize: '16k' }, server: { LOG: 'console' }, clog: 'pino', scenario: 'big_import',
    label: L('proxy_limit', 'fix_route_or_config', F('tools/call', 'bulk_import', 413), 'A large bulk_import request body exceeds nginx client_max_body_size (16k) and is rejected with 413 before reaching the server.') },
  'auth-401-invalid-token': { n: 14, nginx: { format: 'combined' }, server: { LOG: 'console', TOKENS: 'sk-live-7f3a:rw,sk-ro-11b2:ro' }, clog: 'winston', scenario: 'auth', clientEnv: { TOKEN: 'sk-live-0000expired' },
    label: L('auth', 'fix_auth', F('initialize', null, 401), 'The server rejects the bearer token with 401 and WWW-Authenticate error="invalid_token" on initialize.') },
  'auth-403-write-scope': { n: 15, nginx: { format: 'custom' }, server: { LOG: 'winston', TOKENS: 'sk-live-7f3a:rw,sk-ro-11b2:ro' }, clog: 'console', scenario: 'auth', clientEnv: { TOKEN: 'sk-ro-11b2' },
    label: L('auth', 'fix_auth', F('tools/call', 'ledger_append', 403), 'Reads succeed but the write tool ledger_append is refused with 403 insufficient_scope because the token lacks stock:write.') },
  'raw-client-accept-406': { n: 16, nginx: { format: 'json' }, server: { LOG: 'pino' }, clog: 'console', scenario: 'raw_fetch',
    label: L('protocol_mismatch', 'fix_route_or_config', F('initialize', null, 406), 'A hand-written fetch client sends Accept: application/json only; the Streamable HTTP server requires application/json and text/event-stream and answers 406.') },
  'resource-read-internal-error': { n: 17, nginx: { format: 'combined' }, server: { LOG: 'winston' }, clog: 'pino', scenario: 'resource_read',
    label: L('server_bug', 'escalate', F('resources/read', null, null), 'resources/read of a valid daily report URI fails with JSON-RPC -32603 (TypeError inside the server handler) on every attempt.') },
  'tool-bug-iserror': { n: 18, nginx: { format: 'json' }, server: { LOG: 'pino', REPORT_BUG: '1' }, clog: 'debug', scenario: 'tool_bug',
    label: L('server_bug', 'escalate', F('tools/call', 'stock_report', null), 'stock_report with detail=true (valid input) consistently returns an isError result with a TypeError from the server code.') },
  'server-crash-502': { n: 19, nginx: { format: 'custom' }, server: { LOG: 'console', JSON: '1' }, clog: 'winston', scenario: 'crash',
    label: L('server_crash', 'escalate', F('tools/call', 'reprice_catalog', 502), 'Calling reprice_catalog with valid arguments crashes the server process (uncaught SyntaxError), nginx returns 502 and the server stays down.') },
  'unknown-method-32601': { n: 20, nginx: { format: 'combined' }, server: { LOG: 'pino' }, clog: 'console', scenario: 'unknown_method',
    label: L('protocol_mismatch', 'escalate', F('tools/batch', null, null), 'The client sends a non-existent JSON-RPC method tools/batch and the server answers -32601 Method not found; a code/version mismatch that needs a developer.') },
  'legacy-sse-client': { n: 21, nginx: { format: 'custom' }, server: { LOG: 'winston' }, clog: 'debug', scenario: 'legacy_sse',
    label: L('wrong_transport', 'fix_route_or_config', F('initialize', null, 400), 'A legacy SSE-transport client opens GET /mcp on a Streamable HTTP endpoint, which answers 400 (no session id), so the connection never initializes.') },
  'transient-502-retry-ok': { n: 22, nginx: { format: 'json' }, server: { LOG: 'console', MODE: 'stateless' }, clog: 'pino', scenario: 'transient',
    hooks: (ctx) => ({ bounce: async () => { await stop(ctx.server, 'SIGKILL'); setTimeout(() => { ctx.server = ctx.spawnServer(); }, 1200); } }),
    label: L('upstream_unavailable', 'no_action', null, 'The stateless server was briefly down (nginx 502 connection refused); the client retried the read-only stock_report and it succeeded.') },
  'lb-round-robin-no-affinity': { n: 23, nginx: { format: 'combined' }, server: { LOG: 'pino' }, clog: 'winston', scenario: 'lb', replicas: 2,
    label: L('lb_affinity', 'fix_route_or_config', F('notifications/initialized', null, 404), 'nginx round-robins between two stateful replicas without session affinity, so requests after initialize land on the replica that does not know the session (404 Session not found).') },
  'sse-proxy-buffering': { n: 24, nginx: { format: 'custom', buffering: true, gzipSse: true }, server: { LOG: 'winston', REPORT_MS: '9000' }, clog: 'console', scenario: 'progress_report',
    label: L('proxy_buffering', 'fix_route_or_config', F('tools/call', 'stock_report', null), 'nginx gzips and buffers the SSE response (gzip_types text/event-stream, proxy_buffering on with X-Accel-Buffering ignored), so the progress notifications the server emits every ~1.8s never reach the client and its 4s progress-reset timeout fires on every attempt.') },
  'readonly-502-during-deploy': { n: 25, nginx: { format: 'json' }, server: { LOG: 'pino', MODE: 'stateless', JSON: '1', REPORT_MS: '3000' }, clog: 'debug', scenario: 'report_once',
    hooks: (ctx) => ({ deploy: async () => { setTimeout(async () => { await stop(ctx.server); setTimeout(() => { ctx.server = ctx.spawnServer(); }, 700); }, 1200); } }),
    label: L('upstream_unavailable', 'retry', F('tools/call', 'stock_report', 502), 'The stateless server was restarted (deploy) while the read-only stock_report was in flight, nginx returned 502 and the client gave up; the server is back, so the read-only call can simply be retried.') },
};

async function record(name) {
  const inc = incidents[name];
  const dir = prepDir(name);
  const nport = 18100 + inc.n, sport = 18200 + inc.n, sport2 = 18300 + inc.n;
  const senv = { PORT: String(sport), NAME: 'stockroom', ...inc.server };
  const ctx = {};
  const replicas = inc.replicas || 1;
  ctx.spawnServer = () => startServer(dir, senv);
  const upstreams = replicas === 2 ? [sport, sport2] : [sport];
  if (replicas === 2) {
    ctx.server = startServer(dir, { ...senv, NAME: 'stockroom-a' }, 'server-a.log');
    ctx.server2 = startServer(dir, { ...senv, PORT: String(sport2), NAME: 'stockroom-b' }, 'server-b.log');
    await waitPort(sport); await waitPort(sport2);
  } else {
    ctx.server = ctx.spawnServer(); await waitPort(sport);
  }
  ctx.restartServer = async () => { await sleep(300); await stop(ctx.server); await sleep(300); ctx.server = ctx.spawnServer(); await waitPort(sport); await sleep(200); };
  const ng = startNginx(dir, name, { port: nport, upstreams, ...inc.nginx });
  await waitPort(nport);
  if (inc.serverDownBeforeClient) { await sleep(300); await stop(ctx.server); await sleep(300); }
  const code = await runClient(dir, inc.scenario, { MCP_URL: `http://127.0.0.1:${nport}${inc.path || '/mcp'}`, CLOG: inc.clog, DEBUG: inc.clog === 'debug' ? 'restock:*' : '', ...(inc.clientEnv || {}) }, inc.hooks ? inc.hooks(ctx) : {});
  await sleep(500);
  await stop(ng, 'SIGTERM');
  await stop(ctx.server); await stop(ctx.server2);
  label(dir, inc.label);
  console.log(`${name}: client exit ${code}`);
}

const which = process.argv.slice(2);
for (const name of (which.length ? which : Object.keys(incidents))) await record(name);
export { incidents };
