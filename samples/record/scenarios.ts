/** The incident scenarios. Each one drives real processes; see samples/<name>/README.md for what it shows. */
import type { RecordingContext } from './lib/context.ts';
import { callTool, closeClient, connect, listTools } from './lib/client.ts';
import { freePort, sleep } from './lib/proc.ts';

export interface Scenario {
  name: string;
  /** the decision a human expert makes (documented in samples/<name>/README.md) */
  expected: string;
  run(ctx: RecordingContext): Promise<void>;
}

/** restart the server under an established session, then call a tool with the stale id; then recover */
function restartStaleSession(unknownSession: '404' | '400'): Scenario['run'] {
  return async (ctx) => {
    const log = ctx.log;
    log.info('orders-assistant 0.9.0 starting (node ' + process.version + ')');
    let server = await ctx.startServer({ unknownSession });
    const url = await ctx.startNginx({ upstreams: [`127.0.0.1:${server.port}`] });
    const c = await connect(log, url);
    ctx.clients.push(c);
    await listTools(log, c);
    await callTool(log, c, 'get_order', { order_id: 'ORD-1001' });
    await sleep(400);
    // the server is redeployed: new process, in-memory sessions gone
    server = await ctx.restartServer(server);
    // give the SDK's GET-stream reconnection attempts time to play out, so the shape is stable
    await sleep(2500);
    log.info('User asked to place an order');
    await callTool(log, c, 'create_order', { sku: 'SKU-RED-MUG', qty: 1 });
    // recovery: drop the old transport, new transport WITHOUT the old id, initialize again
    log.warn('MCP call failed; closing the old transport and reconnecting with a new session');
    await c.client.close();
    await sleep(100);
    const c2 = await connect(log, url);
    ctx.clients.push(c2);
    await listTools(log, c2);
    await callTool(log, c2, 'get_order', { order_id: 'ORD-1001' });
    await callTool(log, c2, 'create_order', { sku: 'SKU-RED-MUG', qty: 1 });
    await sleep(200);
    await closeClient(log, c2, true);
  };
}


type Crash = NonNullable<import('./mcp-server.ts').ServerConfig['crash']>;

/** JSON-response server; the process is SIGKILLed inside the tool call (before the response headers). */
function killedMidResponse(crash: Crash, jsonResponse = true): Scenario['run'] {
  return async (ctx) => {
    const log = ctx.log;
    log.info('orders-assistant 0.9.0 starting (node ' + process.version + ')');
    const server = await ctx.startServer({ jsonResponse, crash });
    const url = await ctx.startNginx({ upstreams: [`127.0.0.1:${server.port}`] });
    const c = await connect(log, url);
    ctx.clients.push(c);
    await listTools(log, c);
    await callTool(log, c, 'get_order', { order_id: 'ORD-1002' }).catch(() => {});
    if (crash.startsWith('create_order')) {
      log.info('User asked to place an order');
      // host-app request timeout for tool calls: 8 s (SDK default would be 60 s)
      await callTool(log, c, 'create_order', { sku: 'SKU-GREEN-TEE', qty: 2 }, 8000);
    }
    await server.exited();
    // let the SDK's GET-stream reconnection attempts finish (they hit nginx while the server is gone)
    await sleep(2000);
  };
}

/** JSON-response server, nginx proxy_read_timeout 2s, a slow write tool. */
function proxyReadTimeout(waitForCommit: boolean): Scenario['run'] {
  return async (ctx) => {
    const log = ctx.log;
    log.info('orders-assistant 0.9.0 starting (node ' + process.version + ')');
    const server = await ctx.startServer({ jsonResponse: true, importMs: waitForCommit ? 3000 : 8000 });
    const url = await ctx.startNginx({ upstreams: [`127.0.0.1:${server.port}`], proxyReadTimeout: '2s' });
    const c = await connect(log, url);
    ctx.clients.push(c);
    await listTools(log, c);
    await callTool(log, c, 'import_orders', { batch: 'supplier-2026-11-29' });
    // the on-call engineer pulls the logs shortly after the failure
    await sleep(waitForCommit ? 2000 : 1000);
    ctx.snapshot();
  };
}

export const scenarios: Scenario[] = [
  {
    name: 'restart-stale-session',
    expected: 'reinitialize (D10: 404 Session not found on a request carrying an assigned session id)',
    run: restartStaleSession('404'),
  },
  {
    name: 'restart-stale-session-400',
    expected: 'reinitialize (D11: non-compliant 400 "No valid session ID provided" while a session id was sent)',
    run: restartStaleSession('400'),
  },
  {
    name: 'healthy-control',
    expected: 'no_action',
    run: async (ctx) => {
      const log = ctx.log;
      log.info('orders-assistant 0.9.0 starting (node ' + process.version + ')');
      const server = await ctx.startServer();
      const url = await ctx.startNginx({ upstreams: [`127.0.0.1:${server.port}`] });
      const c = await connect(log, url);
      ctx.clients.push(c);
      await listTools(log, c);
      await callTool(log, c, 'get_order', { order_id: 'ORD-1001' });
      await callTool(log, c, 'get_order', { order_id: 'ORD-1002' });
      await callTool(log, c, 'create_order', { sku: 'SKU-BLUE-CAP', qty: 3 });
      await callTool(log, c, 'get_order', { order_id: 'ORD-4711' });
      await sleep(200);
      await closeClient(log, c, true);
    },
  },
  {
    name: 'wrong-path',
    expected: 'fix_route_or_config (D12: HTML 404 from nginx on the very first initialize)',
    run: async (ctx) => {
      const log = ctx.log;
      log.info('orders-assistant 0.9.0 starting (node ' + process.version + ')');
      const server = await ctx.startServer();
      const base = await ctx.startNginx({ upstreams: [`127.0.0.1:${server.port}`] });
      // the host was configured with a wrong path (typo); nginx only routes `location = /mcp`
      await connect(log, base.replace(/\/mcp$/, '/mcp-wrong')).catch(() => {});
      await sleep(200);
    },
  },
  {
    name: 'upstream-down',
    expected: 'retry (D1: nginx connect() failed (111: Connection refused) while connecting to upstream; nothing reached the server)',
    run: async (ctx) => {
      const log = ctx.log;
      log.info('orders-assistant 0.9.0 starting (node ' + process.version + ')');
      // the MCP server is not running: nginx points at a port nobody listens on
      const deadPort = await freePort();
      const url = await ctx.startNginx({ upstreams: [`127.0.0.1:${deadPort}`] });
      await connect(log, url).catch(() => {});
      await sleep(200);
    },
  },
  {
    name: 'killed-mid-response-write-committed',
    expected: 'read_result_no_repeat (D5: server logged "committed" for rpc 3, then died before the response; nginx 502 premature close)',
    run: killedMidResponse('create_order:after-commit'),
  },
  {
    name: 'killed-mid-response-write-uncommitted',
    expected: 'check_write_then_escalate (D7: write started, no commit evidence, nginx 502 premature close)',
    run: killedMidResponse('create_order:before-commit'),
  },
  {
    name: 'killed-mid-response-read',
    expected: 'retry (D6: read-only get_order, nginx 502 premature close while reading response header)',
    run: killedMidResponse('get_order:before-response'),
  },
  {
    name: 'proxy-read-timeout-json',
    expected: 'check_write_then_escalate (D7: 504 upstream timed out while reading response header; import_orders started, no commit yet)',
    run: proxyReadTimeout(false),
  },
  {
    name: 'proxy-read-timeout-json-committed',
    expected: 'read_result_no_repeat (D5: 504 at 2 s, the server logged "committed" for the same rpc 1 s later)',
    run: proxyReadTimeout(true),
  },
  {
    name: 'session-deleted-then-reused',
    expected: 'reinitialize (D10: 404 Session not found on a session id the client itself had DELETEd)',
    run: async (ctx) => {
      const log = ctx.log;
      log.info('orders-assistant 0.9.0 starting (node ' + process.version + ')');
      const server = await ctx.startServer();
      const url = await ctx.startNginx({ upstreams: [`127.0.0.1:${server.port}`] });
      const c = await connect(log, url);
      ctx.clients.push(c);
      await listTools(log, c);
      await callTool(log, c, 'get_order', { order_id: 'ORD-1001' });
      const oldId = c.transport.sessionId!;
      log.info(`Persisting MCP session id for conversation conv-8841: ${oldId}`);
      await closeClient(log, c, true);
      await sleep(300);
      // next turn of the conversation: the host restores the cached session id instead of initializing
      log.info(`Restoring MCP session id for conversation conv-8841: ${oldId}`);
      const c2 = await connect(log, url, { sessionId: oldId });
      ctx.clients.push(c2);
      await callTool(log, c2, 'get_order', { order_id: 'ORD-1002' });
      await sleep(200);
    },
  },
  {
    name: 'round-robin-no-affinity',
    expected: 'fix_route_or_config (D18: session created on replica orders-mcp-0, the next request of the same session lands on orders-mcp-1: Session not found)',
    run: async (ctx) => {
      const log = ctx.log;
      log.info('orders-assistant 0.9.0 starting (node ' + process.version + ')');
      const a = await ctx.startServer({ hostname: 'orders-mcp-0' });
      const b = await ctx.startServer({ hostname: 'orders-mcp-1', file: 'server-2.log' });
      const url = await ctx.startNginx({ upstreams: [`127.0.0.1:${a.port}`, `127.0.0.1:${b.port}`] });
      for (let attempt = 1; attempt <= 2; attempt++) {
        try {
          const c = await connect(log, url);
          ctx.clients.push(c);
          await listTools(log, c);
          await callTool(log, c, 'get_order', { order_id: 'ORD-1001' });
          break;
        } catch {
          log.warn(`MCP connect attempt ${attempt} failed` + (attempt < 2 ? '; retrying in 500 ms' : '; giving up'));
          await sleep(500);
        }
      }
      await sleep(200);
    },
  },
  {
    name: 'stale-protocol-version',
    expected: 'fix_route_or_config (D14: 400 Unsupported protocol version from a header the host app pins)',
    run: async (ctx) => {
      const log = ctx.log;
      log.info('orders-assistant 0.9.0 starting (node ' + process.version + ')');
      const server = await ctx.startServer();
      const url = await ctx.startNginx({ upstreams: [`127.0.0.1:${server.port}`] });
      // host config carries a hard-coded protocol header (copied from newer docs); it overrides the negotiated one
      await connect(log, url, { requestInit: { headers: { 'mcp-protocol-version': '2026-07-28' } } }).catch(() => {});
      await sleep(200);
    },
  },
  {
    name: 'wrong-accept',
    expected: 'fix_route_or_config (D14: 406 Not Acceptable; the proxy rewrites Accept to application/json)',
    run: async (ctx) => {
      const log = ctx.log;
      log.info('orders-assistant 0.9.0 starting (node ' + process.version + ')');
      const server = await ctx.startServer();
      const url = await ctx.startNginx({
        upstreams: [`127.0.0.1:${server.port}`],
        // copied from the team's REST API proxy block
        extraLocation: '            proxy_set_header Accept "application/json";',
      });
      await connect(log, url).catch(() => {});
      await sleep(200);
    },
  },
  {
    name: 'killed-mid-stream-write-committed',
    expected: 'read_result_no_repeat (D5: SSE response already started (200), server logged "committed" then died; nginx "while reading upstream"; client times out)',
    run: killedMidResponse('create_order:after-commit', false),
  },
];
