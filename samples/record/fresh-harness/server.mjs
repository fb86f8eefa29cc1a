// Inventory MCP server ("stockroom") used by the recordings.
// Config via env: PORT, NAME, MODE=stateful|stateless, JSON=1, LOG=winston|pino|console,
// TOKENS="tok:rw,tok2:ro" (enables bearer auth), UNKNOWN_SESSION=404|400, IDLE_EVICT_MS, BODY_LIMIT
import express from 'express';
import { randomUUID } from 'node:crypto';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import winston from 'winston';
import pino from 'pino';

const PORT = Number(process.env.PORT || 18200);
const NAME = process.env.NAME || 'stockroom';
const MODE = process.env.MODE || 'stateful';
const JSON_MODE = process.env.JSON === '1';
const LOGLIB = process.env.LOG || 'winston';
const UNKNOWN_SESSION = Number(process.env.UNKNOWN_SESSION || 404);
const IDLE_EVICT_MS = Number(process.env.IDLE_EVICT_MS || 0);
const TOKENS = Object.fromEntries((process.env.TOKENS || '').split(',').filter(Boolean).map(t => t.split(':')));
const WRITE_TOOLS = new Set(['ledger_append', 'bulk_import', 'adjust_stock']);

function makeLogger() {
  if (LOGLIB === 'pino') {
    const p = pino({ base: { svc: NAME, pid: process.pid } });
    return { info: (m, o = {}) => p.info(o, m), warn: (m, o = {}) => p.warn(o, m), error: (m, o = {}) => p.error(o, m) };
  }
  if (LOGLIB === 'console') {
    const f = (lvl) => (m, o = {}) => console.log(`${new Date().toISOString()} ${lvl.toUpperCase()} [${NAME}] ${m}${Object.keys(o).length ? ' ' + Object.entries(o).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join(' ') : ''}`);
    return { info: f('info'), warn: f('warn'), error: f('error') };
  }
  const w = winston.createLogger({
    level: 'info',
    format: winston.format.combine(
      winston.format.timestamp(),
      winston.format.printf(({ timestamp, level, message, ...rest }) =>
        `${timestamp} [${NAME}] ${level}: ${message}${Object.keys(rest).length ? ' ' + JSON.stringify(rest) : ''}`)),
    transports: [new winston.transports.Console()],
  });
  return { info: (m, o) => w.info(m, o), warn: (m, o) => w.warn(m, o), error: (m, o) => w.error(m, o) };
}
const log = makeLogger();
const sleep = (ms) => new Promise(r => setTimeout(r, ms));

// in-memory "database"
const stock = new Map([['SKU-1001', 42], ['SKU-1002', 7], ['SKU-2040', 0]]);
const ledger = [];
let nextLedgerId = 5001;

function buildServer() {
  const mcp = new McpServer({ name: NAME, version: '0.4.2' });
  mcp.registerTool('lookup_item', {
    description: 'Look up stock level for a SKU',
    inputSchema: { sku: z.string() },
    annotations: { readOnlyHint: true },
  }, async ({ sku }) => {
    const qty = stock.get(sku);
    return { content: [{ type: 'text', text: qty === undefined ? `unknown sku ${sku}` : `${sku}: ${qty} on hand` }] };
  });
  mcp.registerTool('stock_report', {
    description: 'Aggregate stock report over all warehouses (slow)',
    inputSchema: { warehouse: z.string(), detail: z.boolean().optional() },
    annotations: { readOnlyHint: true },
  }, async ({ warehouse, detail }, extra) => {
    const ms = Number(process.env.REPORT_MS || 300);
    const steps = 5;
    for (let i = 1; i <= steps; i++) {
      await sleep(ms / steps);
      log.info(`report: aggregated batch ${i}/${steps}`, { warehouse });
      const pt = extra._meta?.progressToken;
      if (pt !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: pt, progress: i, total: steps } });
    }
    if (detail && process.env.REPORT_BUG === '1') {
      // bug: per-warehouse breakdown assumes a zones table exists for every warehouse
      const zones = undefined;
      return { content: [{ type: 'text', text: zones.map(z => z.name).join(',') }] };
    }
    let total = 0; for (const v of stock.values()) total += v;
    return { content: [{ type: 'text', text: `warehouse ${warehouse}: ${stock.size} skus, ${total} units` }] };
  });
  mcp.registerTool('ledger_append', {
    description: 'Append an entry to the stock ledger',
    inputSchema: { sku: z.string(), delta: z.number(), note: z.string().optional() },
    annotations: { readOnlyHint: false, idempotentHint: false },
  }, async ({ sku, delta, note }) => {
    const ms = Number(process.env.LEDGER_MS || 50);
    log.info('ledger: write started', { sku, delta });
    if (process.env.LEDGER_HANG === '1') { log.info('ledger: waiting for row lock on ledger_entries'); await new Promise(() => {}); }
    await sleep(ms);
    const id = nextLedgerId++;
    ledger.push({ id, sku, delta, note });
    stock.set(sku, (stock.get(sku) || 0) + delta);
    log.info(`ledger: committed entry #${id} sku=${sku} delta=${delta}`);
    return { content: [{ type: 'text', text: `ledger entry #${id} recorded` }] };
  });
  mcp.registerTool('bulk_import', {
    description: 'Import many stock rows at once',
    inputSchema: { rows: z.array(z.object({ sku: z.string(), qty: z.number() })) },
    annotations: { readOnlyHint: false },
  }, async ({ rows }) => {
    for (const r of rows) stock.set(r.sku, r.qty);
    log.info(`import: upserted ${rows.length} rows`);
    return { content: [{ type: 'text', text: `imported ${rows.length} rows` }] };
  });
  mcp.registerTool('reprice_catalog', {
    description: 'Recompute catalog prices from supplier feed',
    inputSchema: { supplier: z.string() },
    annotations: { readOnlyHint: false },
  }, async ({ supplier }) => {
    log.info('reprice: loading supplier feed', { supplier });
    // bug: feed parser emits an async exception that nobody awaits
    setTimeout(() => { const feed = JSON.parse('{"items": [1,2,'); return feed; }, 200);
    await sleep(2000);
    return { content: [{ type: 'text', text: 'repriced' }] };
  });
  mcp.registerResource('daily-report', new ResourceTemplate('report://daily/{date}', { list: undefined }),
    { description: 'Daily stock movement report', mimeType: 'text/plain' },
    async (uri, { date }) => {
      const byDay = {}; // bug: only filled by the nightly job, missing on fresh processes
      const summary = byDay[date];
      return { contents: [{ uri: uri.href, text: `moves on ${date}: ${summary.total}` }] };
    });
  return mcp;
}

const app = express();
app.use(express.json({ limit: process.env.BODY_LIMIT || '4mb' }));
app.use((req, res, next) => {
  const t0 = Date.now();
  const meta = () => Object.fromEntries(Object.entries({ rpc: req.body?.method, tool: req.body?.params?.name, session: req.headers['mcp-session-id'], ms: Date.now() - t0 }).filter(([, v]) => v !== undefined));
  res.on('finish', () => log.info(`${req.method} ${req.originalUrl} -> ${res.statusCode}`, meta()));
  res.on('close', () => { if (!res.writableFinished) log.warn(`${req.method} ${req.originalUrl} connection closed before response completed`, meta()); });
  next();
});
if (Object.keys(TOKENS).length) {
  app.use('/mcp', (req, res, next) => {
    const auth = req.headers.authorization || '';
    const tok = auth.startsWith('Bearer ') ? auth.slice(7) : null;
    const scope = tok && TOKENS[tok];
    if (!scope) {
      log.warn('auth: rejected request, token not recognised', { hasAuth: !!auth });
      res.set('WWW-Authenticate', `Bearer realm="${NAME}", error="invalid_token", error_description="token not recognised"`);
      return res.status(401).json({ error: 'invalid_token', error_description: 'token not recognised' });
    }
    if (req.body?.method === 'tools/call' && WRITE_TOOLS.has(req.body?.params?.name) && scope !== 'rw') {
      log.warn('auth: write tool denied for read-only token', { tool: req.body.params.name });
      res.set('WWW-Authenticate', `Bearer realm="${NAME}", error="insufficient_scope", scope="stock:write"`);
      return res.status(403).json({ jsonrpc: '2.0', id: req.body.id ?? null, error: { code: -32000, message: 'Forbidden: token lacks stock:write scope' } });
    }
    next();
  });
}

const sessions = {}; // id -> {transport, lastSeen}
if (MODE === 'stateless') {
  app.post('/mcp', async (req, res) => {
    const server = buildServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: JSON_MODE });
    res.on('close', () => { transport.close(); server.close(); });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  const no = (req, res) => res.status(405).set('Allow', 'POST').json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });
  app.get('/mcp', no); app.delete('/mcp', no);
} else {
  app.post('/mcp', async (req, res) => {
    const sid = req.headers['mcp-session-id'];
    let entry = sid && sessions[sid];
    if (!entry) {
      if (!sid && isInitializeRequest(req.body)) {
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: JSON_MODE,
          onsessioninitialized: (id) => { sessions[id] = { transport, lastSeen: Date.now() }; log.info(`session opened ${id}`, { client: req.body.params?.clientInfo?.name }); },
          onsessionclosed: (id) => { log.info(`session closed by client ${id}`); },
        });
        transport.onclose = () => { if (transport.sessionId) delete sessions[transport.sessionId]; };
        await buildServer().connect(transport);
        return transport.handleRequest(req, res, req.body);
      }
      if (sid) {
        log.warn(`unknown session id ${sid}`, { rpc: req.body?.method });
        if (UNKNOWN_SESSION === 400) return res.status(400).json({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null });
        return res.status(404).json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: req.body?.id ?? null });
      }
      return res.status(400).json({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null });
    }
    entry.lastSeen = Date.now();
    await entry.transport.handleRequest(req, res, req.body);
  });
  const other = async (req, res) => {
    const sid = req.headers['mcp-session-id'];
    const entry = sid && sessions[sid];
    if (!entry) {
      if (sid) { log.warn(`unknown session id ${sid}`, { http: req.method }); return res.status(UNKNOWN_SESSION).send(UNKNOWN_SESSION === 404 ? 'Session not found' : 'Invalid or missing session ID'); }
      return res.status(400).send('Invalid or missing session ID');
    }
    entry.lastSeen = Date.now();
    await entry.transport.handleRequest(req, res);
  };
  app.get('/mcp', other); app.delete('/mcp', other);
  if (IDLE_EVICT_MS) setInterval(() => {
    for (const [id, e] of Object.entries(sessions)) if (Date.now() - e.lastSeen > IDLE_EVICT_MS) {
      log.info(`evicting idle session ${id}`, { idleMs: Date.now() - e.lastSeen });
      delete sessions[id]; e.transport.close();
    }
  }, 250).unref();
}

const srv = app.listen(PORT, '127.0.0.1', () => log.info(`${NAME} listening on 127.0.0.1:${PORT}`, { mode: MODE, json: JSON_MODE }));
process.on('SIGTERM', () => { log.info('SIGTERM received, shutting down'); srv.close(); process.exit(0); });
