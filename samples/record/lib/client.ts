/**
 * The "host app" side: the official SDK Client + StreamableHTTPClientTransport with a
 * logging fetch wrapper and a tiny text logger (format documented in ../README.md).
 */
import { appendFileSync } from 'node:fs';
import { formatWithOptions } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { EmptyResultSchema } from '@modelcontextprotocol/sdk/types.js';

export type Level = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

/** What the host app logs through: the text ClientLog (samples/<incident>/) or the styled fan-out (samples/recorded/). */
export interface Log {
  line(level: Level, component: string, msg: string): void;
  debug(msg: string, component?: string): void;
  info(msg: string, component?: string): void;
  warn(msg: string, component?: string): void;
  /** like console.error(msg, err) */
  error(msg: string, err?: unknown, component?: string): void;
  /** the same log, host-app messages tagged with one conversation (`conv-a: `) */
  tagged(prefix: string): Log;
}

export class ClientLog implements Log {
  /**
   * @param prefix written before every host-app message (e.g. `conv-a: ` when one host app serves several
   *   conversations, each with its own MCP client); mcp-client lines keep their documented grammar
   */
  constructor(
    public file: string,
    public prefix = '',
  ) {}
  /** the same file, with host-app messages prefixed (one conversation of a multi-client host) */
  tagged(prefix: string): ClientLog {
    return new ClientLog(this.file, prefix);
  }
  line(level: Level, component: string, msg: string): void {
    const p = component === 'host-app' ? this.prefix : '';
    appendFileSync(this.file, `${new Date().toISOString()} ${level} [${component}] ${p}${msg}\n`);
  }
  debug(msg: string, component = 'mcp-client') {
    this.line('DEBUG', component, msg);
  }
  info(msg: string, component = 'host-app') {
    this.line('INFO', component, msg);
  }
  warn(msg: string, component = 'host-app') {
    this.line('WARN', component, msg);
  }
  /** like console.error(msg, err): the header line, then util.inspect of the error object, unprefixed */
  error(msg: string, err?: unknown, component = 'host-app') {
    if (err === undefined) return this.line('ERROR', component, msg);
    // exactly what console.error(header, err) would print, redirected into the log file
    const p = component === 'host-app' ? this.prefix : '';
    appendFileSync(this.file, formatWithOptions({ colors: false }, '%s', `${new Date().toISOString()} ERROR [${component}] ${p}${msg}`, err) + '\n');
  }
}

type FetchFn = (url: string | URL, init?: RequestInit) => Promise<Response>;

function headerOf(h: HeadersInit | undefined, name: string): string | undefined {
  if (!h) return undefined;
  if (h instanceof Headers) return h.get(name) ?? undefined;
  if (Array.isArray(h)) return h.find(([k]) => k.toLowerCase() === name)?.[1];
  for (const [k, v] of Object.entries(h)) if (k.toLowerCase() === name) return v;
  return undefined;
}

function describeBody(body: unknown): string {
  if (typeof body !== 'string') return '';
  try {
    const m = JSON.parse(body) as { id?: unknown; method?: string; params?: { name?: string } };
    const parts = [`rpc=${m.id === undefined ? '-' : String(m.id)}`];
    if (m.method) parts.push(`method=${m.method}`);
    else parts.push('method=-');
    if (m.method === 'tools/call' && m.params?.name) parts.push(`tool=${m.params.name}`);
    return ' ' + parts.join(' ');
  } catch {
    return '';
  }
}

const oneLine = (s: string, max = 400) => {
  const t = s.replace(/\r?\n/g, '\\n');
  return t.length > max ? t.slice(0, max) + '…' : t;
};

export interface FetchHooks {
  /** rewrite outgoing headers (simulates a host/gateway bug) */
  rewriteHeaders?: (h: Headers) => void;
}

/** fetch wrapper: one DEBUG line per HTTP exchange (+ body of non-2xx answers, + new session ids). */
export function loggingFetch(log: Log, hooks: FetchHooks = {}): FetchFn {
  let lastSession: string | undefined;
  return async (url, init = {}) => {
    if (hooks.rewriteHeaders) {
      const h = new Headers(init.headers);
      hooks.rewriteHeaders(h);
      init = { ...init, headers: h };
    }
    const method = init.method ?? 'GET';
    const sid = headerOf(init.headers, 'mcp-session-id');
    const pv = headerOf(init.headers, 'mcp-protocol-version');
    const desc =
      `${method} ${String(url)}${describeBody(init.body)}` +
      (method === 'GET' ? ` accept=${headerOf(init.headers, 'accept') ?? '-'}` : '') +
      // only on a resuming GET (the SDK sends it when it holds an SSE event id)
      (method === 'GET' && headerOf(init.headers, 'last-event-id') ? ` last-event-id=${headerOf(init.headers, 'last-event-id')}` : '') +
      ` mcp-session-id=${sid ?? '-'} mcp-protocol-version=${pv ?? '-'}`;
    const t0 = performance.now();
    let res: Response;
    try {
      res = await fetch(url, init);
    } catch (e) {
      const err = e as Error & { cause?: { code?: string; message?: string } };
      const cause = err.cause ? ` (cause: ${err.cause.code ?? err.cause.message ?? String(err.cause)})` : '';
      log.debug(`${desc} -> failed after ${Math.round(performance.now() - t0)} ms: ${err.name}: ${err.message}${cause}`);
      throw e;
    }
    const ms = Math.round(performance.now() - t0);
    const xr = res.headers.get('x-request-id');
    log.debug(`${desc} -> ${res.status} (${ms} ms) content-type=${res.headers.get('content-type') ?? '-'}` + (xr ? ` x-request-id=${xr}` : ''));
    const newSid = res.headers.get('mcp-session-id');
    if (newSid && newSid !== sid && newSid !== lastSession) {
      log.line('INFO', 'mcp-client', `Received session ID: ${newSid}`);
    }
    if (newSid) lastSession = newSid;
    if (!res.ok) {
      const body = await res
        .clone()
        .text()
        .catch(() => '');
      log.debug(`response body (${res.status}): ${oneLine(body)}`);
    }
    return res;
  };
}

export interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
}

export interface ConnectOptions extends FetchHooks {
  /** reuse a persisted session id (what a host app does when it caches the id) */
  sessionId?: string;
  requestInit?: RequestInit;
}

/** new Client + transport, connect (initialize + notifications/initialized), log the outcome. Throws on failure. */
export async function connect(log: Log, url: string, opts: ConnectOptions = {}): Promise<Connected> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: loggingFetch(log, opts),
    sessionId: opts.sessionId,
    requestInit: opts.requestInit,
    reconnectionOptions: { initialReconnectionDelay: 500, maxReconnectionDelay: 2000, reconnectionDelayGrowFactor: 1.5, maxRetries: 2 },
  });
  const client = new Client({ name: 'orders-assistant', version: '0.9.0' });
  client.onerror = (e) => log.error('MCP client error:', e, 'mcp-client');
  log.info(`Connecting to MCP server at ${url} (transport=streamable-http, @modelcontextprotocol/sdk 1.32.2${opts.sessionId ? `, resuming session ${opts.sessionId}` : ''})`);
  try {
    await client.connect(transport);
  } catch (e) {
    log.error(`Failed to connect to MCP server at ${url}:`, e);
    throw e;
  }
  const sv = client.getServerVersion();
  if (sv) {
    log.info(`Connected to ${sv.name} ${sv.version}`, 'mcp-client');
    log.info(`Negotiated protocol version: ${transport.protocolVersion ?? '(none)'}`, 'mcp-client');
  } else {
    // Client.connect() skips initialize when the transport already has a session id
    log.info(`Transport attached to existing session ${transport.sessionId} (no initialize sent)`, 'mcp-client');
  }
  return { client, transport };
}

export async function listTools(log: Log, c: Connected | LegacyConnected): Promise<void> {
  try {
    const r = await c.client.listTools();
    log.info(`Tools available: ${r.tools.map((t) => t.name).join(', ')}`);
  } catch (e) {
    log.error('tools/list failed:', e);
    throw e;
  }
}

/** host-app style tool call: INFO before/after, console.error-style ERROR on failure (returned, not thrown) */
export async function callTool(
  log: Log,
  c: Connected | LegacyConnected,
  name: string,
  args: Record<string, unknown>,
  timeoutMs?: number,
  opts: { progress?: boolean; resetTimeoutOnProgress?: boolean } = {},
): Promise<unknown> {
  // long arguments (a pasted CSV) are cut like the other logged bodies; short ones are logged whole
  log.info(`Calling tool ${name} ${oneLine(JSON.stringify(args), 300)}`);
  const t0 = performance.now();
  try {
    const onprogress = opts.progress
      ? (p: { progress: number; total?: number; message?: string }) => log.info(`Progress for tool ${name}: ${p.progress}/${p.total ?? '?'}${p.message ? ` ${p.message}` : ''}`)
      : undefined;
    const ro =
      timeoutMs || onprogress
        ? { ...(timeoutMs ? { timeout: timeoutMs } : {}), ...(onprogress ? { onprogress } : {}), ...(opts.resetTimeoutOnProgress ? { resetTimeoutOnProgress: true } : {}) }
        : undefined;
    const r = await c.client.callTool({ name, arguments: args }, undefined, ro);
    const text = (r.content as { type: string; text?: string }[] | undefined)?.find((x) => x.type === 'text')?.text ?? '';
    log.info(`Tool ${name} returned isError=${r.isError ? 'true' : 'false'} in ${Math.round(performance.now() - t0)} ms: ${oneLine(text, 200)}`);
    return r;
  } catch (e) {
    log.error(`Error calling tool ${name}:`, e);
    return e;
  }
}

/** a raw JSON-RPC request (a method the SDK has a helper for, or not); logs like callTool, returns the error */
export async function callMethod(log: Log, c: Connected | LegacyConnected, method: string, params: Record<string, unknown>): Promise<unknown> {
  log.info(`Calling ${method} ${JSON.stringify(params)}`);
  const t0 = performance.now();
  try {
    const r = await c.client.request({ method, params } as never, EmptyResultSchema);
    log.info(`${method} returned in ${Math.round(performance.now() - t0)} ms: ${oneLine(JSON.stringify(r), 200)}`);
    return r;
  } catch (e) {
    log.error(`Error calling ${method}:`, e);
    return e;
  }
}

/** the 2024-11-05 HTTP+SSE client (SSEClientTransport: GET /sse, then POSTs to the announced endpoint) */
export interface LegacyConnected {
  client: Client;
  transport: SSEClientTransport;
}

export async function connectLegacy(log: Log, url: string, opts: ConnectOptions = {}): Promise<LegacyConnected> {
  const transport = new SSEClientTransport(new URL(url), { fetch: loggingFetch(log, opts), requestInit: opts.requestInit });
  const client = new Client({ name: 'orders-assistant', version: '0.9.0' });
  client.onerror = (e) => log.error('MCP client error:', e, 'mcp-client');
  log.info(`Connecting to MCP server at ${url} (transport=sse, @modelcontextprotocol/sdk 1.32.2)`);
  try {
    await client.connect(transport);
  } catch (e) {
    log.error(`Failed to connect to MCP server at ${url}:`, e);
    throw e;
  }
  const sv = client.getServerVersion();
  log.info(`Connected to ${sv?.name} ${sv?.version} over SSE`, 'mcp-client');
  return { client, transport };
}

/** the SDK README's backwards-compatible client: Streamable HTTP first, the old SSE transport if that fails */
export async function connectWithFallback(log: Log, url: string): Promise<Connected | LegacyConnected> {
  try {
    return await connect(log, url);
  } catch {
    log.warn('Streamable HTTP connection failed, falling back to SSE transport');
    return connectLegacy(log, url);
  }
}

export async function closeClient(log: Log, c: Connected | LegacyConnected, terminate: boolean): Promise<void> {
  if (terminate && c.transport instanceof StreamableHTTPClientTransport) {
    try {
      await c.transport.terminateSession();
      log.info('Session terminated (DELETE sent)', 'mcp-client');
    } catch (e) {
      log.error('Session termination failed:', e, 'mcp-client');
    }
  }
  await c.client.close();
  log.info('MCP client closed', 'mcp-client');
}
