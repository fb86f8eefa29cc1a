/**
 * Real MCP servers for the probe's tests: the official SDK (low-level `Server`, so tools/list can
 * paginate and carry any annotations) on node:http at 127.0.0.1, port 0 by default.
 *
 *   - stateful:  StreamableHTTPServerTransport with sessionIdGenerator, one transport per session
 *                (routed like the SDK 1.32 example: unknown session → 404 -32001)
 *   - stateless: sessionIdGenerator undefined, a new Server + transport per request (GET/DELETE → 405)
 *   - json:      stateful with enableJsonResponse (application/json instead of SSE for POST replies)
 *   - legacy:    the old HTTP+SSE transport (GET /sse + POST /messages?sessionId=…), SSEServerTransport
 *
 * Every request's headers are recorded (`seen`), so a test can check from the server's side what
 * the probe sent. Test-only code: never imported by the product.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, isInitializeRequest, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';

export type ServerMode = 'stateful' | 'stateless' | 'json' | 'legacy';

export interface SeenRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  rpcMethod?: string;
  status?: number;
}

export interface TestServerOptions {
  mode: ServerMode;
  /** listen here (0 = any free port); a restart reuses the previous port */
  port?: number;
  /** tools/list page size (default: all tools in one page) */
  pageSize?: number;
  /** path of the MCP endpoint (default /mcp; legacy: /sse and /messages) */
  path?: string;
  /** require `Authorization: Bearer <this>`; otherwise 401 with WWW-Authenticate */
  bearer?: string;
  /** how long slow_lookup takes (default 5000 ms) */
  hangMs?: number;
}

export const TOOLS: Tool[] = [
  {
    name: 'get_order',
    description: 'Look up an order by id',
    inputSchema: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  {
    name: 'create_order',
    description: 'Create an order',
    inputSchema: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'number' } }, required: ['sku', 'qty'] },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  },
  {
    name: 'delete_order',
    description: 'Delete an order',
    inputSchema: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
    annotations: { destructiveHint: true },
  },
  { name: 'ping_backend', description: 'No annotations at all', inputSchema: { type: 'object', properties: {} } },
  {
    name: 'slow_lookup',
    description: 'A read-only lookup that takes hangMs to answer',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
  },
];

export interface ToolCallRecord {
  tool: string;
  args: unknown;
  sessionId?: string;
}

export class TestMcpServer {
  readonly seen: SeenRequest[] = [];
  readonly calls: ToolCallRecord[] = [];
  port = 0;
  private http?: HttpServer;
  private transports = new Map<string, StreamableHTTPServerTransport>();
  private legacy = new Map<string, SSEServerTransport>();

  constructor(readonly opts: TestServerOptions) {
    this.port = opts.port ?? 0;
  }

  get url(): string {
    const p = this.opts.path ?? (this.opts.mode === 'legacy' ? '/sse' : '/mcp');
    return `http://127.0.0.1:${this.port}${p}`;
  }

  /** Session ids this server instance has assigned and still holds. */
  sessions(): string[] {
    return [...this.transports.keys(), ...this.legacy.keys()];
  }

  private mcp(): Server {
    const s = new Server({ name: 'orders-mcp', version: '1.4.2' }, { capabilities: { tools: {} } });
    s.setRequestHandler(ListToolsRequestSchema, async (req) => {
      const size = this.opts.pageSize ?? TOOLS.length;
      const from = req.params?.cursor ? Number(req.params.cursor) : 0;
      const page = TOOLS.slice(from, from + size);
      const next = from + size < TOOLS.length ? String(from + size) : undefined;
      return { tools: page, ...(next ? { nextCursor: next } : {}) };
    });
    s.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
      this.calls.push({ tool: req.params.name, args: req.params.arguments, sessionId: extra.sessionId });
      if (req.params.name === 'get_order') {
        const id = (req.params.arguments as { order_id?: string } | undefined)?.order_id;
        if (id !== 'ORD-1001') return { isError: true, content: [{ type: 'text', text: `order ${id} not found` }] };
        return { content: [{ type: 'text', text: JSON.stringify({ id, sku: 'SKU-RED-MUG', qty: 2, status: 'shipped' }) }] };
      }
      if (req.params.name === 'slow_lookup') await new Promise((r) => setTimeout(r, this.opts.hangMs ?? 5000).unref());
      return { content: [{ type: 'text', text: JSON.stringify({ ok: true, tool: req.params.name }) }] };
    });
    return s;
  }

  async start(): Promise<string> {
    const http = createServer((req, res) => {
      const rec: SeenRequest = { method: req.method ?? '', url: req.url ?? '', headers: flat(req.headers) };
      this.seen.push(rec);
      res.on('finish', () => (rec.status = res.statusCode));
      if (this.opts.bearer && req.headers.authorization !== `Bearer ${this.opts.bearer}`) {
        res.writeHead(401, { 'www-authenticate': 'Bearer realm="mcp"', 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'invalid_token' }));
        return;
      }
      this.route(req, res, rec).catch((e) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end(String(e));
      });
    });
    this.http = http;
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (http.address() as AddressInfo).port;
    return this.url;
  }

  /** Stop listening and forget every session (a crash/restart loses in-memory sessions). */
  async stop(): Promise<void> {
    const http = this.http;
    this.http = undefined;
    for (const t of this.transports.values()) await t.close().catch(() => {});
    for (const t of this.legacy.values()) await t.close().catch(() => {});
    this.transports.clear();
    this.legacy.clear();
    if (!http) return;
    http.closeAllConnections();
    await new Promise<void>((r) => http.close(() => r()));
  }

  /** Stop, then listen again on the same port with no sessions (a server restart). */
  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  private async route(req: IncomingMessage, res: ServerResponse, rec: SeenRequest): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    if (this.opts.mode === 'legacy') return this.routeLegacy(req, res, path ?? '');
    if (path !== (this.opts.path ?? '/mcp')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    if (body && typeof body === 'object' && 'method' in body) rec.rpcMethod = String((body as { method: unknown }).method);
    if (this.opts.mode === 'stateless') {
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST' }).end('Method Not Allowed');
        return;
      }
      const t = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      const s = this.mcp();
      res.on('close', () => {
        void t.close();
        void s.close();
      });
      await s.connect(t);
      await t.handleRequest(req, res, body);
      return;
    }
    const sid = header(req, 'mcp-session-id');
    const existing = sid ? this.transports.get(sid) : undefined;
    if (existing) return existing.handleRequest(req, res, body);
    if (sid) return json(res, 404, { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
    if (req.method === 'POST' && isInitializeRequest(body)) {
      const t: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: this.opts.mode === 'json',
        onsessioninitialized: (id) => void this.transports.set(id, t),
      });
      t.onclose = () => t.sessionId && this.transports.delete(t.sessionId);
      await this.mcp().connect(t);
      return t.handleRequest(req, res, body);
    }
    return json(res, 400, { jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null });
  }

  private async routeLegacy(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (req.method === 'GET' && path === (this.opts.path ?? '/sse')) {
      const t = new SSEServerTransport('/messages', res);
      this.legacy.set(t.sessionId, t);
      res.on('close', () => this.legacy.delete(t.sessionId));
      await this.mcp().connect(t);
      return;
    }
    if (req.method === 'POST' && path === '/messages') {
      const id = new URL(req.url ?? '', 'http://x').searchParams.get('sessionId') ?? '';
      const t = this.legacy.get(id);
      if (!t) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Session not found');
        return;
      }
      return t.handlePostMessage(req, res);
    }
    // An old server knows nothing of Streamable HTTP: POST to the SSE URL is not allowed.
    res.writeHead(path === (this.opts.path ?? '/sse') ? 405 : 404, { 'content-type': 'text/plain' }).end('Method Not Allowed');
  }
}

function flat(h: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        resolve(undefined);
      }
    });
    req.on('error', reject);
  });
}

export async function startServer(opts: TestServerOptions): Promise<TestMcpServer> {
  const s = new TestMcpServer(opts);
  await s.start();
  return s;
}
