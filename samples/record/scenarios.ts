/** The incident scenarios. Each one drives real processes; see samples/<name>/README.md for what it shows. */
import type { RecordingContext } from './lib/context.ts';
import { callMethod, callTool, closeClient, connect, listTools, type Connected } from './lib/client.ts';
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
    // the SDK client never re-initializes by itself on a 404 (sdk-behaviour.md item 7): like most hosts, this
    // one reports the failed call to the user and stops; a later recovery would fold the failure as recovered
    log.warn('Order not placed: reported to the user (no automatic reconnect)');
    await sleep(200);
    await closeClient(log, c, false);
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
  {
    name: 'multi-client-one-failing',
    expected:
      "reinitialize (D10: conv-c's session idled out on the server while conv-a and conv-b kept working; its next call got 404 Session not found; the other two clients have no failures)",
    run: async (ctx) => {
      const base = ctx.log;
      base.info('orders-assistant 0.9.0 starting (node ' + process.version + '); 3 conversations share this host');
      const server = await ctx.startServer({ idleTimeoutMs: 2500 });
      const url = await ctx.startNginx({ upstreams: [`127.0.0.1:${server.port}`] });
      const logs = { a: base.tagged('conv-a: '), b: base.tagged('conv-b: '), c: base.tagged('conv-c: ') };
      // three conversations, three SDK clients, three sessions: each client's rpc ids start at 0
      const [a, b, c] = await Promise.all([connect(logs.a, url), connect(logs.b, url), connect(logs.c, url)]);
      ctx.clients.push(a, b, c);
      await Promise.all([listTools(logs.a, a), listTools(logs.b, b), listTools(logs.c, c)]);
      await Promise.all([
        callTool(logs.a, a, 'get_order', { order_id: 'ORD-1001' }),
        callTool(logs.b, b, 'get_order', { order_id: 'ORD-1002' }),
        callTool(logs.c, c, 'get_order', { order_id: 'ORD-1001' }),
      ]);
      // conv-c's user goes quiet; conv-a and conv-b keep talking (their sessions never idle 2.5 s)
      logs.c.info('User is composing the next message');
      for (let round = 0; round < 3; round++) {
        await sleep(1000);
        await Promise.all([
          callTool(logs.a, a, 'get_order', { order_id: round % 2 ? 'ORD-1002' : 'ORD-1001' }),
          callTool(logs.b, b, 'get_order', { order_id: round % 2 ? 'ORD-1001' : 'ORD-1002' }),
        ]);
      }
      await sleep(600);
      // all three act at once: conv-c's session was evicted in the meantime
      logs.c.info('User asked to place an order');
      await Promise.all([
        callTool(logs.a, a, 'create_order', { sku: 'SKU-RED-MUG', qty: 1 }),
        callTool(logs.b, b, 'get_order', { order_id: 'ORD-1001' }),
        callTool(logs.c, c, 'create_order', { sku: 'SKU-BLUE-CAP', qty: 2 }),
      ]);
      // conv-c's host reports the failed call and stops: the SDK client does not re-initialize by itself
      logs.c.warn('Order not placed: reported to the user (no automatic reconnect)');
      await Promise.all([callTool(logs.a, a, 'get_order', { order_id: 'ORD-4711' }), callTool(logs.b, b, 'get_order', { order_id: 'ORD-1002' })]);
      await callTool(logs.a, a, 'get_order', { order_id: 'ORD-1002' });
      await sleep(200);
      await Promise.all([closeClient(logs.a, a, true), closeClient(logs.b, b, true), closeClient(logs.c, c, false)]);
    },
  },
  {
    name: 'idle-eviction',
    expected:
      'no_action (D10 then recovered: the server logged "Session <id> idle timeout" and closed the transport; the next tools/call with that id got 404 Session not found; the host re-initialized and the same call succeeded, so the 404 is folded as recovered)',
    run: async (ctx) => {
      const log = ctx.log;
      log.info('orders-assistant 0.9.0 starting (node ' + process.version + ')');
      const server = await ctx.startServer({ idleTimeoutMs: 2000 });
      const url = await ctx.startNginx({ upstreams: [`127.0.0.1:${server.port}`] });
      const c = await connect(log, url);
      ctx.clients.push(c);
      await listTools(log, c);
      await callTool(log, c, 'get_order', { order_id: 'ORD-1001' });
      // the user reads the answer for a while; the server's idle timer (2 s) runs out meanwhile
      await sleep(4000);
      log.info('User asked to place an order');
      await callTool(log, c, 'create_order', { sku: 'SKU-RED-MUG', qty: 1 });
      log.warn('MCP call failed; closing the old transport and reconnecting with a new session');
      await c.client.close();
      await sleep(100);
      const c2 = await connect(log, url);
      ctx.clients.push(c2);
      await listTools(log, c2);
      await callTool(log, c2, 'create_order', { sku: 'SKU-RED-MUG', qty: 1 });
      await sleep(200);
      await closeClient(log, c2, true);
    },
  },
  {
    name: 'proxy-read-timeout-sse',
    expected:
      'check_write_then_escalate (D7: SSE response started (200), nginx "upstream timed out … while reading upstream" after 2 s; import_orders started, no commit logged; client times out)',
    run: async (ctx) => {
      const log = ctx.log;
      log.info('orders-assistant 0.9.0 starting (node ' + process.version + ')');
      // SSE responses (the SDK default), no event store: a cut stream cannot be resumed
      const server = await ctx.startServer({ importMs: 15000 });
      const url = await ctx.startNginx({ upstreams: [`127.0.0.1:${server.port}`], proxyReadTimeout: '2s' });
      const c = await connect(log, url);
      ctx.clients.push(c);
      await listTools(log, c);
      log.info('User asked to import the supplier batch');
      // host-app request timeout for tool calls: 6 s
      await callTool(log, c, 'import_orders', { batch: 'supplier-2026-11-29' }, 6000);
      // the on-call engineer pulls the logs right away, before the (still running) import could finish
      await sleep(500);
      ctx.snapshot();
    },
  },
  {
    name: 'unknown-method-2025',
    expected:
      'fix_route_or_config (JSON-RPC -32601 Method not found in a 200 for resources/subscribe: the server does not offer resources; a capability mismatch, not a session problem)',
    run: async (ctx) => {
      const log = ctx.log;
      log.info('orders-assistant 0.9.0 starting (node ' + process.version + ')');
      const server = await ctx.startServer();
      const url = await ctx.startNginx({ upstreams: [`127.0.0.1:${server.port}`] });
      const c = await connect(log, url);
      ctx.clients.push(c);
      log.info(`Server capabilities: ${Object.keys(c.client.getServerCapabilities() ?? {}).join(', ')}`);
      await listTools(log, c);
      await callTool(log, c, 'get_order', { order_id: 'ORD-1002' });
      // the host's "watch my order" feature subscribes without checking the server's capabilities
      log.info('User asked to be notified when ORD-1002 ships');
      await callMethod(log, c, 'resources/subscribe', { uri: 'orders://ORD-1002' });
      await callTool(log, c, 'get_order', { order_id: 'ORD-1002' });
      await sleep(200);
      await closeClient(log, c, true);
    },
  },
  {
    name: 'resumed-stream',
    expected:
      'no_action (D9: the import_orders SSE stream was cut after its first event (nginx "upstream prematurely closed … while reading upstream"); the client resumed with GET + Last-Event-ID and received the result)',
    run: async (ctx) => {
      const log = ctx.log;
      log.info('orders-assistant 0.9.0 starting (node ' + process.version + ')');
      const server = await ctx.startServer({ eventStore: true, importMs: 2500, cutStream: 'import_orders:after-first-event' });
      const url = await ctx.startNginx({ upstreams: [`127.0.0.1:${server.port}`] });
      const c: Connected = await connect(log, url);
      ctx.clients.push(c);
      await listTools(log, c);
      log.info('User asked to import the supplier batch');
      await callTool(log, c, 'import_orders', { batch: 'supplier-2026-11-29' }, 20000, { progress: true });
      await callTool(log, c, 'get_order', { order_id: 'ORD-1001' });
      await sleep(200);
      await closeClient(log, c, true);
    },
  },
];
