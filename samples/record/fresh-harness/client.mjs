// "restock-agent": MCP client used by the recordings.
// argv[2] = scenario; env: MCP_URL, CLOG=pino|winston|debug|console, TOKEN
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { z } from 'zod';
import pino from 'pino';
import winston from 'winston';
import createDebug from 'debug';

const URL_ = process.env.MCP_URL;
const STYLE = process.env.CLOG || 'pino';
const sleep = (ms) => new Promise(r => setTimeout(r, ms));

function errFields(e) {
  if (!e) return {};
  const o = { errName: e.name, errMessage: e.message };
  if (e.code !== undefined) o.errCode = e.code;
  if (e.cause) o.cause = String(e.cause?.code || e.cause?.message || e.cause);
  return o;
}
function makeLogger(tag) {
  if (STYLE === 'pino') {
    const p = pino({ base: { app: 'restock-agent', ...(tag ? { worker: tag } : {}) } });
    return { info: (m, o = {}) => p.info(o, m), warn: (m, o = {}) => p.warn(o, m), error: (m, e, o = {}) => p.error({ ...o, err: e }, m), debug: (m, o = {}) => p.info(o, m) };
  }
  if (STYLE === 'winston') {
    const w = winston.createLogger({
      level: 'debug',
      defaultMeta: { service: 'restock-agent', ...(tag ? { worker: tag } : {}) },
      format: winston.format.combine(winston.format.timestamp(), winston.format.json()),
      transports: [new winston.transports.Console()],
    });
    return { info: (m, o) => w.info(m, o), warn: (m, o) => w.warn(m, o), error: (m, e, o = {}) => w.error(m, { ...o, ...errFields(e) }), debug: (m, o) => w.debug(m, o) };
  }
  if (STYLE === 'debug') {
    const d = createDebug(`restock:mcp${tag ? ':' + tag : ''}`);
    const de = createDebug(`restock:mcp${tag ? ':' + tag : ''}:error`);
    const fmt = (o) => (o && Object.keys(o).length ? ' ' + JSON.stringify(o) : '');
    return { info: (m, o) => d('%s%s', m, fmt(o)), warn: (m, o) => d('WARN %s%s', m, fmt(o)), error: (m, e, o) => de('%s: %s: %s%s%s', m, e?.name || 'Error', String(e?.message ?? e).replace(/\s*[\r\n]+\s*/g, ' ').slice(0, 400), e?.code !== undefined ? ` (code=${e.code})` : '', fmt(o)), debug: (m, o) => d('%s%s', m, fmt(o)) };
  }
  const pre = () => `[${new Date().toLocaleTimeString('en-GB')}]${tag ? ' [' + tag + ']' : ''}`;
  const fmt = (o) => (o && Object.keys(o).length ? ' ' + Object.entries(o).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join(' ') : '');
  return { info: (m, o) => console.log(`${pre()} ${m}${fmt(o)}`), warn: (m, o) => console.warn(`${pre()} warning: ${m}${fmt(o)}`), error: (m, e, o) => console.error(`${pre()} ERROR ${m}${fmt(o)}\n`, e), debug: (m, o) => console.log(`${pre()} ${m}${fmt(o)}`) };
}

// orchestration hook (not logged)
function hook(name) {
  if (!process.send) return Promise.resolve();
  return new Promise(res => { const h = (m) => { if (m === `${name}:done`) { process.off('message', h); res(); } }; process.on('message', h); process.send(name); });
}

async function connect(log, { headers, sessionId } = {}) {
  log.info('connecting to MCP server', { url: URL_ });
  const transport = new StreamableHTTPClientTransport(new URL(URL_), { requestInit: headers ? { headers } : undefined, sessionId });
  const client = new Client({ name: 'restock-agent', version: '2.3.0' });
  client.onerror = (e) => log.error('transport error', e);
  await client.connect(transport);
  const sv = client.getServerVersion();
  log.info('connected', { sessionId: transport.sessionId, server: sv ? `${sv.name}@${sv.version}` : undefined, protocol: transport.protocolVersion });
  return { client, transport };
}
async function call(log, client, name, args, opts) {
  log.info(`calling tool ${name}`, { args: name === 'bulk_import' ? { rows: `[${args.rows.length} rows]` } : args });
  const t0 = Date.now();
  const r = await client.callTool({ name, arguments: args }, undefined, opts);
  const text = r.content?.map(c => c.text).join(' ');
  if (r.isError) log.warn(`tool ${name} returned error result`, { text, ms: Date.now() - t0 });
  else log.info(`tool ${name} ok`, { text, ms: Date.now() - t0 });
  return r;
}
async function shutdown(log, { client, transport }) {
  try { await transport.terminateSession(); log.info('session terminated'); } catch (e) { log.error('terminateSession failed', e); }
  await client.close();
  log.info('closed');
}

const scenarios = {
  async healthy() {
    const log = makeLogger();
    const c = await connect(log);
    const tools = await c.client.listTools();
    log.info('tools listed', { count: tools.tools.length, names: tools.tools.map(t => t.name).join(',') });
    await call(log, c.client, 'lookup_item', { sku: 'SKU-1001' });
    await call(log, c.client, 'stock_report', { warehouse: 'north' }, { onprogress: (p) => log.debug('progress', p) });
    await call(log, c.client, 'ledger_append', { sku: 'SKU-1002', delta: 5, note: 'restock po-7781' });
    await call(log, c.client, 'lookup_item', { sku: 'SKU-1002' });
    await shutdown(log, c);
  },
  async concurrent() {
    await Promise.all(['w1', 'w2', 'w3'].map(async (w, i) => {
      const log = makeLogger(w);
      await sleep(i * 40);
      const c = await connect(log);
      await call(log, c.client, 'lookup_item', { sku: ['SKU-1001', 'SKU-1002', 'SKU-2040'][i] });
      await call(log, c.client, 'stock_report', { warehouse: ['north', 'south', 'east'][i] });
      await call(log, c.client, 'ledger_append', { sku: 'SKU-2040', delta: i + 1, note: `cycle count ${w}` });
      await shutdown(log, c);
    }));
  },
  async stale_after_restart() {
    const log = makeLogger();
    const c = await connect(log);
    await call(log, c.client, 'lookup_item', { sku: 'SKU-1001' });
    log.info('idle, waiting for next job');
    await hook('restart');
    for (let attempt = 1; attempt <= 3; attempt++) {
      try { await call(log, c.client, 'lookup_item', { sku: 'SKU-1002' }); return; }
      catch (e) { log.error(`tools/call lookup_item failed (attempt ${attempt}/3)`, e, { sessionId: c.transport.sessionId }); await sleep(500 * attempt); }
    }
    log.error('giving up on job restock-sync', new Error('retries exhausted'));
    await c.client.close();
  },
  async restart_recover() {
    const log = makeLogger();
    let c = await connect(log);
    await call(log, c.client, 'lookup_item', { sku: 'SKU-1001' });
    await hook('restart');
    try { await call(log, c.client, 'lookup_item', { sku: 'SKU-1002' }); }
    catch (e) {
      log.error('tools/call lookup_item failed', e, { sessionId: c.transport.sessionId });
      if (e.code === 404) {
        log.warn('session no longer valid on server, re-initializing', { oldSession: c.transport.sessionId });
        await c.client.close().catch(() => {});
        c = await connect(log);
        await call(log, c.client, 'lookup_item', { sku: 'SKU-1002' });
      } else throw e;
    }
    await call(log, c.client, 'ledger_append', { sku: 'SKU-1002', delta: 3, note: 'po-7790' });
    await shutdown(log, c);
  },
  async delete_reuse() {
    const log = makeLogger('pool');
    const main = await connect(log);
    const sid = main.transport.sessionId;
    log.info('session cached in pool', { sessionId: sid });
    const logB = makeLogger('report-job');
    const t2 = new StreamableHTTPClientTransport(new URL(URL_), { sessionId: sid });
    const c2 = new Client({ name: 'restock-agent', version: '2.3.0' });
    c2.onerror = (e) => logB.error('transport error', e);
    await c2.connect(t2);
    logB.info('attached to pooled session', { sessionId: sid });
    await call(logB, c2, 'lookup_item', { sku: 'SKU-1001' });
    await call(log, main.client, 'ledger_append', { sku: 'SKU-1001', delta: -2, note: 'pick order 4411' });
    log.info('pool: releasing idle connection');
    await shutdown(log, main);
    await sleep(300);
    try { await call(logB, c2, 'stock_report', { warehouse: 'north' }); }
    catch (e) { logB.error('tools/call stock_report failed', e, { sessionId: t2.sessionId }); }
    await c2.close();
  },
  async evicted() {
    const log = makeLogger();
    const c = await connect(log);
    await call(log, c.client, 'lookup_item', { sku: 'SKU-1001' });
    log.info('waiting for operator approval');
    await sleep(2500);
    try { await call(log, c.client, 'stock_report', { warehouse: 'south' }); }
    catch (e) { log.error('tools/call stock_report failed', e, { sessionId: c.transport.sessionId }); }
    try { await call(log, c.client, 'stock_report', { warehouse: 'south' }); }
    catch (e) { log.error('tools/call stock_report failed again', e, { sessionId: c.transport.sessionId }); }
    await c.client.close();
  },
  async connect_retry() {
    const log = makeLogger();
    for (let attempt = 1; attempt <= 3; attempt++) {
      try { const c = await connect(log); await call(log, c.client, 'lookup_item', { sku: 'SKU-1001' }); await shutdown(log, c); return; }
      catch (e) { log.error(`connect failed (attempt ${attempt}/3)`, e); await sleep(700 * attempt); }
    }
    log.error('MCP server unavailable, aborting run', new Error('connect retries exhausted'));
  },
  async connect_once() {
    const log = makeLogger();
    try { const c = await connect(log); await call(log, c.client, 'lookup_item', { sku: 'SKU-1001' }); await shutdown(log, c); }
    catch (e) { log.error('could not connect to MCP server', e); process.exitCode = 1; }
  },
  async slow_read() {
    const log = makeLogger();
    const c = await connect(log);
    await call(log, c.client, 'lookup_item', { sku: 'SKU-2040' });
    for (let attempt = 1; attempt <= 2; attempt++) {
      try { await call(log, c.client, 'stock_report', { warehouse: 'all' }); break; }
      catch (e) { log.error(`tools/call stock_report failed (attempt ${attempt}/2)`, e); }
    }
    await shutdown(log, c);
  },
  async slow_write() {
    const log = makeLogger();
    const c = await connect(log);
    await call(log, c.client, 'lookup_item', { sku: 'SKU-1002' });
    try { await call(log, c.client, 'ledger_append', { sku: 'SKU-1002', delta: 20, note: 'inbound shipment ASN-55102' }); }
    catch (e) { log.error('tools/call ledger_append failed; not retrying non-idempotent write', e); }
    await hook('after_write');
    await c.client.close();
    log.info('client closed');
  },
  async write_client_timeout() {
    const log = makeLogger();
    const c = await connect(log);
    await call(log, c.client, 'lookup_item', { sku: 'SKU-1001' });
    try { await call(log, c.client, 'ledger_append', { sku: 'SKU-1001', delta: -10, note: 'transfer to store 12' }, { timeout: 4000 }); }
    catch (e) { log.error('tools/call ledger_append failed', e); }
    await hook('after_write');
    await c.client.close();
    log.info('client closed');
  },
  async big_import() {
    const log = makeLogger();
    const c = await connect(log);
    await call(log, c.client, 'bulk_import', { rows: Array.from({ length: 20 }, (_, i) => ({ sku: `SKU-3${String(i).padStart(3, '0')}`, qty: i })) });
    const rows = Array.from({ length: 3000 }, (_, i) => ({ sku: `SKU-4${String(i).padStart(4, '0')}`, qty: (i * 7) % 50 }));
    try { await call(log, c.client, 'bulk_import', { rows }); }
    catch (e) { log.error('tools/call bulk_import failed', e, { rows: rows.length }); }
    await shutdown(log, c);
  },
  async auth() {
    const log = makeLogger();
    try {
      const c = await connect(log, { headers: { Authorization: `Bearer ${process.env.TOKEN}` } });
      await call(log, c.client, 'lookup_item', { sku: 'SKU-1001' });
      try { await call(log, c.client, 'ledger_append', { sku: 'SKU-1001', delta: 4, note: 'return RMA-301' }); }
      catch (e) { log.error('tools/call ledger_append failed', e); }
      await shutdown(log, c);
    } catch (e) { log.error('initialize failed', e); process.exitCode = 1; }
  },
  async raw_fetch() {
    // hand-rolled client of an internal dashboard, not using the SDK
    const log = makeLogger('dashboard');
    const body = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'stock-dashboard', version: '0.9.1' } } };
    for (let attempt = 1; attempt <= 2; attempt++) {
      log.info('POST initialize', { url: URL_, attempt });
      const r = await fetch(URL_, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body) });
      const text = await r.text();
      if (!r.ok) { log.error(`initialize failed with HTTP ${r.status}`, new Error(text.slice(0, 300))); await sleep(500); continue; }
      log.info('initialized', { status: r.status, session: r.headers.get('mcp-session-id') });
      return;
    }
  },
  async resource_read() {
    const log = makeLogger();
    const c = await connect(log);
    await call(log, c.client, 'lookup_item', { sku: 'SKU-1001' });
    for (const date of ['2025-03-14', '2025-03-14']) {
      try {
        log.info('reading resource', { uri: `report://daily/${date}` });
        const r = await c.client.readResource({ uri: `report://daily/${date}` });
        log.info('resource ok', { text: r.contents[0]?.text });
      } catch (e) { log.error('resources/read failed', e, { uri: `report://daily/${date}` }); await sleep(400); }
    }
    await shutdown(log, c);
  },
  async tool_bug() {
    const log = makeLogger();
    const c = await connect(log);
    await call(log, c.client, 'stock_report', { warehouse: 'north' });
    await call(log, c.client, 'stock_report', { warehouse: 'north', detail: true });
    await sleep(300);
    await call(log, c.client, 'stock_report', { warehouse: 'north', detail: true });
    await shutdown(log, c);
  },
  async crash() {
    const log = makeLogger();
    const c = await connect(log);
    await call(log, c.client, 'lookup_item', { sku: 'SKU-1001' });
    try { await call(log, c.client, 'reprice_catalog', { supplier: 'acme-wholesale' }); }
    catch (e) { log.error('tools/call reprice_catalog failed', e); }
    await sleep(500);
    try { await call(log, c.client, 'lookup_item', { sku: 'SKU-1001' }); }
    catch (e) { log.error('tools/call lookup_item failed', e); }
    await c.client.close();
  },
  async unknown_method() {
    const log = makeLogger();
    const c = await connect(log);
    await call(log, c.client, 'lookup_item', { sku: 'SKU-1001' });
    try {
      log.info('sending tools/batch', { count: 2 });
      await c.client.request({ method: 'tools/batch', params: { calls: [{ name: 'lookup_item', arguments: { sku: 'SKU-1002' } }, { name: 'lookup_item', arguments: { sku: 'SKU-2040' } }] } }, z.object({}).passthrough());
    } catch (e) { log.error('tools/batch failed', e); }
    await shutdown(log, c);
  },
  async legacy_sse() {
    const log = makeLogger();
    log.info('connecting (sse transport)', { url: URL_ });
    const transport = new SSEClientTransport(new URL(URL_));
    const client = new Client({ name: 'restock-agent-legacy', version: '1.4.0' });
    client.onerror = (e) => log.error('transport error', e);
    try { await client.connect(transport); log.info('connected'); await call(log, client, 'lookup_item', { sku: 'SKU-1001' }); }
    catch (e) { log.error('connect failed', e); process.exitCode = 1; }
    await client.close().catch(() => {});
  },
  async transient() {
    const log = makeLogger();
    const c = await connect(log);
    await call(log, c.client, 'lookup_item', { sku: 'SKU-1001' });
    await hook('bounce');
    for (let attempt = 1; attempt <= 4; attempt++) {
      try { await call(log, c.client, 'stock_report', { warehouse: 'east' }); break; }
      catch (e) { log.error(`tools/call stock_report failed (attempt ${attempt}/4), will retry read-only call`, e); await sleep(800 * attempt); }
    }
    await call(log, c.client, 'lookup_item', { sku: 'SKU-2040' });
    await c.client.close();
    log.info('done');
  },
  async report_once() {
    const log = makeLogger('nightly');
    const c = await connect(log);
    await call(log, c.client, 'lookup_item', { sku: 'SKU-1002' });
    await hook('deploy');
    try { await call(log, c.client, 'stock_report', { warehouse: 'west' }); }
    catch (e) { log.error('tools/call stock_report failed, nightly summary job aborted', e); process.exitCode = 2; }
    await sleep(2500);
    await c.client.close();
  },
  async lb() {
    const log = makeLogger();
    try {
      const c = await connect(log);
      await call(log, c.client, 'lookup_item', { sku: 'SKU-1001' });
      await call(log, c.client, 'lookup_item', { sku: 'SKU-1002' });
      await shutdown(log, c);
    } catch (e) { log.error('MCP session setup failed', e); process.exitCode = 1; }
  },
  async progress_report() {
    const log = makeLogger();
    const c = await connect(log);
    await call(log, c.client, 'lookup_item', { sku: 'SKU-1001' });
    for (let attempt = 1; attempt <= 2; attempt++) {
      try {
        await call(log, c.client, 'stock_report', { warehouse: 'all' }, { timeout: 4000, resetTimeoutOnProgress: true, onprogress: (p) => log.info('report progress', p) });
        break;
      } catch (e) { log.error(`tools/call stock_report failed (attempt ${attempt}/2)`, e); }
    }
    await c.client.close();
  },
};

const name = process.argv[2];
scenarios[name]().then(() => { setTimeout(() => process.exit(process.exitCode || 0), 200); },
  (e) => { const log = makeLogger(); log.error('unhandled failure', e); setTimeout(() => process.exit(1), 200); });
