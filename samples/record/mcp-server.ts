/**
 * A small, real MCP server used by the sample-incident recorder.
 *
 * Official SDK McpServer + StreamableHTTPServerTransport on node:http, STATEFUL
 * (sessionIdGenerator: () => randomUUID()), one transport per session kept in a
 * Map, routed the way the SDK's simpleStreamableHttp example routes.
 *
 * Configuration comes as one JSON argument (see ServerConfig). On startup the
 * process prints one line `{"listening":<port>}` on stdout; everything else goes
 * to its own JSON-lines log (pino-style) at `cfg.log`.
 *
 * Started by samples/record/record.ts with a full config. Started by hand (the
 * root README's probe example), everything but the port has a default: no `log`
 * logs to stderr, no `db` keeps the orders in memory:
 *
 *   npx tsx samples/record/mcp-server.ts '{"port":3000}'
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { existsSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import winston from 'winston';
import Transport from 'winston-transport';

export interface ServerConfig {
  /** 0 = pick a free port */
  port: number;
  /** path of the JSON-lines log (appended) */
  log: string;
  /** JSON file standing in for the order database (shared across restarts/replicas) */
  db: string;
  /** service name written into every line */
  name: string;
  /** hostname written into every line (default os.hostname(); replicas get pod-like names) */
  hostname?: string;
  /**
   * How an unknown Mcp-Session-Id is answered:
   * - '404': the SDK 1.32.2 example's routing (404 {"code":-32001,"message":"Session not found"})
   * - '400': the older, widely copied example routing, whose else-branch answers
   *          400 {"code":-32000,"message":"Bad Request: No valid session ID provided"}
   */
  unknownSession: '404' | '400';
  /** enableJsonResponse on the transport (application/json instead of SSE for POST responses) */
  jsonResponse: boolean;
  /** fault injection: the process is SIGKILLed at this point of a tool call */
  crash?: 'create_order:after-commit' | 'create_order:before-commit' | 'get_order:before-response';
  /** how long import_orders (the slow write tool) works before committing, ms */
  importMs?: number;
  /**
   * Evict a session after this many ms without a request in it: logs `Session <id> idle timeout` (the Python
   * SDK's wording) and closes the transport, so the next request with that id gets 404 `Session not found`.
   */
  idleTimeoutMs?: number;
  /**
   * Resumability: give each transport the SDK examples' InMemoryEventStore, so SSE streams carry event ids
   * (a priming event first) and a client can resume with GET + Last-Event-ID.
   */
  eventStore?: boolean;
  /**
   * fault injection: reset the upstream connection of the import_orders POST stream right after the tool's
   * first progress event (like a connection drain / sidecar restart); the handler itself keeps running
   */
  cutStream?: 'import_orders:after-first-event';
  // ---- options used by the samples/recorded/ scenarios (scenarios-recorded.ts) ----
  /**
   * Session handling: 'stateful' (default, one transport per session id), 'stateless' (sessionIdGenerator
   * undefined, a new server + transport per POST, like the SDK's simpleStatelessStreamableHttp example) or
   * 'legacy-sse' (the 2024-11-05 HTTP+SSE transport: GET /sse + POST /messages?sessionId=, SSEServerTransport)
   */
  mode?: 'stateful' | 'stateless' | 'legacy-sse';
  /** stateless mode: GET answered 405 like the SDK example ('405', default) or handed to the transport ('open') */
  statelessGet?: '405' | 'open';
  /** server log style: pino-style JSON lines (default) or winston text (`<time> [<host>/<pid>] <level>: <msg> {meta}`) */
  logStyle?: 'pino' | 'winston';
  /** HTTP layer: plain node:http (default) or the SDK's createMcpExpressApp (Express 5: "Cannot POST /x" 404 pages) */
  http?: 'node' | 'express';
  /** Express only: the SDK's requireBearerAuth in front of /mcp; this token is valid, every other one "expired" */
  bearerToken?: string;
  /** how long export_report (slow read-only tool) runs, ms; it sends a progress event every 500 ms when asked */
  reportMs?: number;
  /** how long get_order takes, ms (a slow read) */
  getOrderMs?: number;
  /** how long create_order takes before it commits, ms (default 30) */
  createMs?: number;
  /** answer DELETE with 405 (a server that does not let clients end sessions) */
  noDelete?: boolean;
}

const cfg: ServerConfig = {
  port: 0,
  log: '',
  db: '',
  name: 'orders-mcp',
  unknownSession: '404',
  jsonResponse: false,
  ...(JSON.parse(process.argv[2] ?? '{}') as Partial<ServerConfig>),
};
const logFd = cfg.log ? openSync(cfg.log, 'a') : 2;
const HOST = cfg.hostname ?? hostname();

type Fields = Record<string, unknown>;

/** winston text logger (logStyle 'winston'); its transport writes synchronously, so a crash loses nothing */
class SyncFdTransport extends Transport {
  override log(info: Record<string | symbol, unknown>, next: () => void): void {
    writeSync(logFd, String(info[Symbol.for('message')]) + '\n');
    next();
  }
}
const wlog =
  cfg.logStyle === 'winston'
    ? winston.createLogger({
        level: 'info',
        format: winston.format.combine(
          winston.format.timestamp(),
          winston.format.printf(({ timestamp, level, message, ...meta }) => {
            const rest = Object.keys(meta).length ? ' ' + JSON.stringify(meta) : '';
            return `${timestamp} [${HOST}/${process.pid}] ${level}: ${message}${rest}`;
          }),
        ),
        transports: [new SyncFdTransport()],
      })
    : undefined;

/** pino-compatible line: level, time, pid, hostname, <fields>, msg. Synchronous, so nothing is lost on a crash. */
function log(level: number, fields: Fields, msg: string): void {
  if (wlog) {
    const meta: Fields = {};
    for (const [k, v] of Object.entries(fields)) if (v !== undefined) meta[k] = v;
    wlog.log(level >= 50 ? 'error' : level >= 40 ? 'warn' : 'info', msg, meta);
    return;
  }
  const line: Fields = { level, time: Date.now(), pid: process.pid, hostname: HOST, service: cfg.name };
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) line[k] = v;
  line.msg = msg;
  writeSync(logFd, JSON.stringify(line) + '\n');
}
const info = (f: Fields, m: string) => log(30, f, m);
const warn = (f: Fields, m: string) => log(40, f, m);
const error = (f: Fields, m: string) => log(50, f, m);

function errObj(e: unknown): Fields {
  if (e instanceof Error) return { type: e.name, message: e.message, stack: e.stack };
  return { type: typeof e, message: String(e) };
}

// ---- the "business system": an order store in a JSON file (survives restarts, shared by replicas) ----
interface Order {
  id: string;
  sku: string;
  qty: number;
  status: string;
}
const SEED: Order[] = [
  { id: 'ORD-1001', sku: 'SKU-RED-MUG', qty: 2, status: 'shipped' },
  { id: 'ORD-1002', sku: 'SKU-BLUE-CAP', qty: 1, status: 'processing' },
];
/** no cfg.db (started by hand): the orders live in memory */
let memoryOrders: Order[] = SEED;
function loadOrders(): Order[] {
  if (!cfg.db) return memoryOrders;
  return existsSync(cfg.db) ? (JSON.parse(readFileSync(cfg.db, 'utf8')) as Order[]) : SEED;
}
function saveOrder(sku: string, qty: number): Order {
  const all = loadOrders();
  const o: Order = { id: `ORD-${4711 + all.length - SEED.length}`, sku, qty, status: 'created' };
  if (cfg.db) writeFileSync(cfg.db, JSON.stringify([...all, o]));
  else memoryOrders = [...all, o];
  return o;
}

function die(): never {
  // Simulates an OOM kill / segfault: nothing more is written, the socket is cut.
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
}

function getServer(): McpServer {
  const server = new McpServer({ name: 'orders-mcp', version: '1.4.2' }, { capabilities: { logging: {} } });

  server.registerTool(
    'get_order',
    {
      description: 'Look up an order by id',
      inputSchema: { order_id: z.string() },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ order_id }, extra) => {
      const o = loadOrders().find((x) => x.id === order_id);
      info({ mcpSessionId: extra.sessionId, rpcId: extra.requestId, tool: 'get_order' }, `tools/call get_order order=${order_id} found=${!!o}`);
      if (cfg.crash === 'get_order:before-response') die();
      if (cfg.getOrderMs) await new Promise((r) => setTimeout(r, cfg.getOrderMs));
      if (!o) return { isError: true, content: [{ type: 'text', text: `order ${order_id} not found` }] };
      return { content: [{ type: 'text', text: JSON.stringify(o) }] };
    },
  );

  server.registerTool(
    'create_order',
    {
      description: 'Create an order',
      inputSchema: { sku: z.string(), qty: z.number().int().positive() },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async ({ sku, qty }, extra) => {
      const base = { mcpSessionId: extra.sessionId, rpcId: extra.requestId, tool: 'create_order' };
      info(base, `tools/call create_order start sku=${sku} qty=${qty}`);
      if (cfg.crash === 'create_order:before-commit') die();
      await new Promise((r) => setTimeout(r, cfg.createMs ?? 30)); // the write to the order DB
      const id = saveOrder(sku, qty).id;
      info(base, `tools/call create_order committed order=${id}`);
      if (cfg.crash === 'create_order:after-commit') die();
      return { content: [{ type: 'text', text: JSON.stringify({ order_id: id, status: 'created' }) }] };
    },
  );

  server.registerTool(
    'import_orders',
    {
      description: 'Import a batch of orders from the supplier feed (slow)',
      inputSchema: { batch: z.string(), rows: z.array(z.string()).optional() },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    async ({ batch }, extra) => {
      const base = { mcpSessionId: extra.sessionId, rpcId: extra.requestId, tool: 'import_orders' };
      info(base, `tools/call import_orders start batch=${batch}`);
      const progressToken = extra._meta?.progressToken;
      if (progressToken !== undefined) {
        // only when the client asked for progress (callTool with onprogress): the first event of the stream
        await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: 0, total: 42, message: 'import started' } });
      }
      if (cfg.cutStream === 'import_orders:after-first-event') {
        const res = openPosts.get(`${extra.sessionId}|${String(extra.requestId)}`);
        // let the event reach nginx first, then drop the connection without a FIN-terminated body
        setTimeout(() => res?.socket?.destroy(), 150);
      }
      await new Promise((r) => setTimeout(r, cfg.importMs ?? 1500));
      info(base, `tools/call import_orders committed batch=${batch} imported=42`);
      return { content: [{ type: 'text', text: JSON.stringify({ batch, imported: 42 }) }] };
    },
  );
  server.registerTool(
    'export_report',
    {
      description: 'Build a sales report for a month (slow, read-only)',
      inputSchema: { month: z.string() },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ month }, extra) => {
      const base = { mcpSessionId: extra.sessionId, rpcId: extra.requestId, tool: 'export_report' };
      info(base, `tools/call export_report start month=${month}`);
      const progressToken = extra._meta?.progressToken;
      const total = cfg.reportMs ?? 1500;
      for (let t = 0; t < total; t += 500) {
        if (progressToken !== undefined) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress: t / 500, total: Math.ceil(total / 500), message: `building report ${month}` },
          });
        }
        await new Promise((r) => setTimeout(r, Math.min(500, total - t)));
      }
      info(base, `tools/call export_report done month=${month} rows=318`);
      return { content: [{ type: 'text', text: JSON.stringify({ month, rows: 318, url: `reports://sales/${month}` }) }] };
    },
  );
  return server;
}

// ---- HTTP routing, as in the SDK example -----------------------------------------------------
const transports = new Map<string, StreamableHTTPServerTransport>();
/** open POST responses by `<session>|<rpc id>` (for the cutStream fault injection) */
const openPosts = new Map<string, ServerResponse>();
/** idle timers per session (cfg.idleTimeoutMs) */
const idleTimers = new Map<string, NodeJS.Timeout>();

/** a request arrived in this session: restart its idle timer */
function touch(sid: string): void {
  if (!cfg.idleTimeoutMs) return;
  clearTimeout(idleTimers.get(sid));
  const t = setTimeout(() => {
    idleTimers.delete(sid);
    const tr = transports.get(sid);
    if (!tr) return;
    info({ mcpSessionId: sid, idleTimeoutMs: cfg.idleTimeoutMs }, `Session ${sid} idle timeout`);
    void tr.close(); // onclose logs "Transport closed …" and drops it from the map
  }, cfg.idleTimeoutMs);
  t.unref();
  idleTimers.set(sid, t);
}

interface ReqCtx {
  reqId?: string;
  mcpSessionId?: string;
  rpcId?: string | number;
  rpcMethod?: string;
  tool?: string;
  mcpProtocolVersion?: string;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function attachTransportLogging(t: StreamableHTTPServerTransport): void {
  t.onerror = (e) => error({ mcpSessionId: t.sessionId, err: errObj(e) }, `transport error: ${e.message}`);
  t.onclose = () => {
    const sid = t.sessionId;
    if (sid) {
      clearTimeout(idleTimers.get(sid));
      idleTimers.delete(sid);
    }
    if (sid && transports.has(sid)) {
      info({ mcpSessionId: sid }, `Transport closed for session ${sid}, removing from transports map`);
      transports.delete(sid);
    }
  };
}

/** the POST body: Express has parsed it already (req.body); node:http reads it here */
async function postBody(req: IncomingMessage, ctx: ReqCtx): Promise<unknown> {
  let body: unknown = (req as IncomingMessage & { body?: unknown }).body;
  if (body === undefined) {
    const raw = await readBody(req);
    try {
      body = JSON.parse(raw);
    } catch {
      body = undefined;
    }
  }
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const m = body as { id?: string | number; method?: string; params?: { name?: string } };
    ctx.rpcId = m.id;
    ctx.rpcMethod = m.method;
    if (m.method === 'tools/call') ctx.tool = m.params?.name;
  }
  info({ ...ctx, method: 'POST', url: req.url }, 'incoming request');
  return body;
}

/** stateless (SDK simpleStatelessStreamableHttp): a new server and transport for every POST */
async function handleStateless(req: IncomingMessage, res: ServerResponse, ctx: ReqCtx): Promise<void> {
  if (req.method !== 'POST' && !(req.method === 'GET' && cfg.statelessGet === 'open')) {
    info({ ...ctx, method: req.method, url: req.url }, 'incoming request');
    res.writeHead(405, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null }));
    return;
  }
  const body = req.method === 'POST' ? await postBody(req, ctx) : (info({ ...ctx, method: req.method, url: req.url }, 'incoming request'), undefined);
  const server = getServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: cfg.jsonResponse });
  transport.onerror = (e) => error({ reqId: ctx.reqId, err: errObj(e) }, `transport error: ${e.message}`);
  const key = `undefined|${String(ctx.rpcId)}`;
  if (ctx.rpcId !== undefined) openPosts.set(key, res);
  res.on('close', () => {
    if (openPosts.get(key) === res) openPosts.delete(key);
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}

/** legacy HTTP+SSE (2024-11-05), routed like the SDK's simpleSseServer example */
const sseTransports = new Map<string, SSEServerTransport>();
async function handleLegacy(req: IncomingMessage, res: ServerResponse, ctx: ReqCtx, path: string): Promise<boolean> {
  if (req.method === 'GET' && path === '/sse') {
    info({ ...ctx, method: req.method, url: req.url }, 'incoming request');
    const t = new SSEServerTransport('/messages', res);
    ctx.mcpSessionId = t.sessionId;
    sseTransports.set(t.sessionId, t);
    t.onclose = () => {
      info({ mcpSessionId: t.sessionId }, `SSE connection closed for session ${t.sessionId}`);
      sseTransports.delete(t.sessionId);
    };
    t.onerror = (e) => error({ mcpSessionId: t.sessionId, err: errObj(e) }, `transport error: ${e.message}`);
    await getServer().connect(t);
    info({ reqId: ctx.reqId, mcpSessionId: t.sessionId }, `Established SSE stream with session ID: ${t.sessionId}`);
    return true;
  }
  if (req.method === 'POST' && path === '/messages') {
    const sid = new URL(req.url ?? '/', 'http://x').searchParams.get('sessionId') ?? undefined;
    ctx.mcpSessionId = sid;
    const body = await postBody(req, ctx);
    const t = sid ? sseTransports.get(sid) : undefined;
    if (!t) {
      warn({ ...ctx }, `No transport found for sessionId ${sid}`);
      res.writeHead(400, { 'content-type': 'text/plain' }).end('No transport found for sessionId');
      return true;
    }
    await t.handlePostMessage(req, res, body);
    return true;
  }
  return false;
}

async function handlePost(req: IncomingMessage, res: ServerResponse, ctx: ReqCtx): Promise<void> {
  const body = await postBody(req, ctx);
  const sid = ctx.mcpSessionId;
  const existing = sid ? transports.get(sid) : undefined;
  if (existing) {
    touch(sid!);
    const key = `${sid}|${String(ctx.rpcId)}`;
    if (ctx.rpcId !== undefined) {
      openPosts.set(key, res);
      res.on('close', () => openPosts.get(key) === res && openPosts.delete(key));
    }
    await existing.handleRequest(req, res, body);
    return;
  }
  if (cfg.unknownSession === '404') {
    // SDK 1.32.2 example routing
    if (!sid && isInitializeRequest(body)) return initialize(req, res, body, ctx);
    if (sid) {
      warn({ ...ctx }, `Session not found: ${sid}`);
      return sendJson(res, 404, { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
    }
    warn({ ...ctx }, 'Bad Request: No valid session ID provided');
    return sendJson(res, 400, { jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null });
  }
  // older example routing: `if (sessionId && transports[sessionId]) … else if (!sessionId && isInitializeRequest) … else 400`
  if (!sid && isInitializeRequest(body)) return initialize(req, res, body, ctx);
  warn({ ...ctx }, 'Bad Request: No valid session ID provided');
  return sendJson(res, 400, { jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null });
}

async function initialize(req: IncomingMessage, res: ServerResponse, body: unknown, ctx: ReqCtx): Promise<void> {
  const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    enableJsonResponse: cfg.jsonResponse,
    eventStore: cfg.eventStore ? new InMemoryEventStore() : undefined,
    onsessioninitialized: (sessionId) => {
      ctx.mcpSessionId = sessionId;
      info({ reqId: ctx.reqId, mcpSessionId: sessionId }, `Created new transport with session ID: ${sessionId}`);
      transports.set(sessionId, transport);
      touch(sessionId);
    },
  });
  attachTransportLogging(transport);
  await getServer().connect(transport);
  await transport.handleRequest(req, res, body);
}

async function handleGetOrDelete(req: IncomingMessage, res: ServerResponse, ctx: ReqCtx): Promise<void> {
  info({ ...ctx, method: req.method, url: req.url }, 'incoming request');
  const sid = ctx.mcpSessionId;
  if (cfg.unknownSession === '400' && (!sid || !transports.has(sid))) {
    // older example (SDK README "With Session Management"): one reusable handler for GET and DELETE
    warn({ ...ctx }, 'Invalid or missing session ID');
    res.writeHead(400, { 'content-type': 'text/plain' }).end('Invalid or missing session ID');
    return;
  }
  if (!sid) {
    warn({ ...ctx }, 'Missing session ID');
    res.writeHead(400, { 'content-type': 'text/plain' }).end('Missing session ID');
    return;
  }
  const t = transports.get(sid);
  if (!t) {
    warn({ ...ctx }, `Session not found: ${sid}`);
    return sendJson(res, 404, { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
  }
  touch(sid);
  const lastEventId = h1(req, 'last-event-id');
  if (req.method === 'DELETE') info({ ...ctx }, `Received session termination request for session ${sid}`);
  else if (lastEventId) info({ ...ctx, lastEventId }, `Client reconnecting with Last-Event-ID: ${lastEventId}`);
  else info({ ...ctx }, `Establishing new SSE stream for session ${sid}`);
  await t.handleRequest(req, res);
}

function h1(req: IncomingMessage, n: string): string | undefined {
  const v = req.headers[n];
  return Array.isArray(v) ? v[0] : v;
}

/** the streamable-HTTP endpoint, whatever the HTTP layer */
async function mcpRoute(req: IncomingMessage, res: ServerResponse, ctx: ReqCtx): Promise<void> {
  if (cfg.mode === 'stateless') return handleStateless(req, res, ctx);
  if (req.method === 'POST') return handlePost(req, res, ctx);
  if (req.method === 'DELETE' && cfg.noDelete) {
    info({ ...ctx, method: req.method, url: req.url }, 'incoming request');
    res.writeHead(405, { allow: 'GET, POST', 'content-type': 'text/plain' }).end('Method Not Allowed');
    return;
  }
  if (req.method === 'GET' || req.method === 'DELETE') return handleGetOrDelete(req, res, ctx);
  res.writeHead(405, { allow: 'GET, POST, DELETE' }).end('Method Not Allowed');
}

const reqCtx = new WeakMap<IncomingMessage, ReqCtx>();
/** Express 5 through the SDK's createMcpExpressApp (JSON body parser, localhost Host check), optional bearer auth */
const express = cfg.http === 'express' ? buildExpress() : undefined;
function buildExpress() {
  const app = createMcpExpressApp();
  const wrap = (fn: (req: IncomingMessage, res: ServerResponse, ctx: ReqCtx) => Promise<unknown>) => (req: IncomingMessage, res: ServerResponse, next: (e?: unknown) => void) => {
    fn(req, res, reqCtx.get(req)!).catch(next);
  };
  if (cfg.bearerToken) {
    const verifier = {
      async verifyAccessToken(token: string) {
        if (token !== cfg.bearerToken) {
          warn({}, 'Bearer token rejected: Token has expired');
          throw new InvalidTokenError('Token has expired');
        }
        return { token, clientId: 'orders-assistant', scopes: ['orders'], expiresAt: Math.floor(Date.now() / 1000) + 3600 };
      },
    };
    app.use('/mcp', requireBearerAuth({ verifier, resourceMetadataUrl: 'https://auth.example.test/.well-known/oauth-protected-resource' }));
  }
  if (cfg.mode === 'legacy-sse') {
    app.get(
      '/sse',
      wrap((req, res, ctx) => handleLegacy(req, res, ctx, '/sse')),
    );
    app.post(
      '/messages',
      wrap((req, res, ctx) => handleLegacy(req, res, ctx, '/messages')),
    );
  } else {
    app.all('/mcp', wrap(mcpRoute));
  }
  return app;
}

const http = createServer((req, res) => {
  const start = process.hrtime.bigint();
  const h = (n: string) => {
    const v = req.headers[n];
    return Array.isArray(v) ? v[0] : v;
  };
  const ctx: ReqCtx = {
    reqId: h('x-request-id') ?? randomUUID(),
    mcpSessionId: h('mcp-session-id'),
    mcpProtocolVersion: h('mcp-protocol-version'),
  };
  let done = false;
  const fields = () => ({
    reqId: ctx.reqId,
    method: req.method,
    url: req.url,
    statusCode: res.headersSent ? res.statusCode : undefined,
    responseTime: Math.round(Number(process.hrtime.bigint() - start) / 1e5) / 10,
    mcpSessionId: ctx.mcpSessionId,
    mcpProtocolVersion: ctx.mcpProtocolVersion,
    rpcId: ctx.rpcId,
    rpcMethod: ctx.rpcMethod,
    tool: ctx.tool,
  });
  res.on('finish', () => {
    done = true;
    const f = fields();
    log(res.statusCode >= 500 ? 50 : res.statusCode >= 400 ? 40 : 30, f, 'request completed');
  });
  res.on('close', () => {
    // pino-http wording; no statusCode when the headers never left
    if (!done) warn({ ...fields(), headersSent: res.headersSent }, 'request aborted');
  });
  reqCtx.set(req, ctx);
  if (express) {
    express(req, res);
    return;
  }
  const run = async () => {
    const path = req.url?.split('?')[0] ?? '/';
    if (cfg.mode === 'legacy-sse') {
      if (await handleLegacy(req, res, ctx, path)) return;
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    if (path !== '/mcp') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    return mcpRoute(req, res, ctx);
  };
  run().catch((e) => {
    error({ reqId: ctx.reqId, err: errObj(e) }, 'Error handling MCP request');
    if (!res.headersSent) sendJson(res, 500, { jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null });
  });
});

http.listen(cfg.port, '127.0.0.1', () => {
  const addr = http.address();
  const port = typeof addr === 'object' && addr ? addr.port : cfg.port;
  info(
    {
      port,
      sessionRouting: cfg.mode === 'stateless' || cfg.mode === 'legacy-sse' ? undefined : cfg.unknownSession === '404' ? 'sdk-1.32-example' : 'legacy-example',
      mode: cfg.mode,
      http: cfg.http,
      jsonResponse: cfg.jsonResponse,
      idleTimeoutMs: cfg.idleTimeoutMs,
      eventStore: cfg.eventStore || undefined,
    },
    `orders-mcp 1.4.2 (@modelcontextprotocol/sdk 1.32.2) listening on http://127.0.0.1:${port}${cfg.mode === 'legacy-sse' ? '/sse' : '/mcp'}`,
  );
  process.stdout.write(JSON.stringify({ listening: port }) + '\n');
});

function shutdown(sig: string) {
  info({ signal: sig, openSessions: transports.size }, `${sig} received, shutting down`);
  for (const t of transports.values()) void t.close();
  http.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 500).unref();
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
