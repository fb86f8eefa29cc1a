/** The incident scenarios. Each one drives real processes; see samples/<name>/README.md for what it shows. */
import type { RecordingContext } from './lib/context.ts';
import { callTool, closeClient, connect, listTools } from './lib/client.ts';
import { sleep } from './lib/proc.ts';

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
];
