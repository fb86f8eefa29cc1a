// runProbe: prove (or disprove) that an MCP endpoint works NOW, with brand-new client objects,
// tool discovery and at most one side-effect-free call per connection (triage-rules.md §4–6).
//
//   reach → initialize → tools/list → [tools/call] → second-connection ×(N−1) → close
//
// The first failed step ends the run (later steps would only repeat the same failure); open
// connections are still closed, quietly. Every string in the result is redacted.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { TriageError } from '../errors.ts';
import { createLineRedactor, SessionIdBook } from '../triage/redact/index.ts';
import { describeExchange, diagnoseHttp, diagnoseNetwork, errorCode, innermostMessage, isTimeout } from './diagnose.ts';
import { ExchangeLog, withTimeout, type Exchange } from './http.ts';
import { DEFAULT_CONNECTIONS, DEFAULT_TIMEOUT_MS, MAX_CONNECTIONS } from './limits.ts';
import { hostPort, reach } from './reach.ts';
import type { ProbeLogEvent, ProbeOptions, ProbeResult, ProbeStep, StepName, TransportKind } from './types.ts';

export { DEFAULT_CONNECTIONS, DEFAULT_TIMEOUT_MS, MAX_CONNECTIONS } from './limits.ts';
const MAX_PAGES = 100;
/** how much of a tool's error text the result carries (errorText) */
export const ERROR_TEXT_MAX = 200;
export const TOOL_ERROR_WARNING = 'the tool reported an application error';

interface CallOutcome {
  ok: boolean;
  evidence: string;
  diagnosis?: string;
  /** set when a complete result arrived */
  isError?: boolean;
  /** isError: the result's text, redacted and cut */
  errorText?: string;
}

/** Validate the URL as the probe will use it; throws TRIAGE_ERR_USAGE (exit 1). */
export function parseProbeUrl(raw: string): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new TriageError('TRIAGE_ERR_USAGE', `probe: "${clip(raw, 80)}" is not a URL; give the full MCP endpoint, e.g. http://127.0.0.1:3000/mcp`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new TriageError('TRIAGE_ERR_USAGE', `probe: only http:// and https:// endpoints can be probed (got ${u.protocol}); a stdio server is not a remote endpoint`);
  if (!u.hostname) throw new TriageError('TRIAGE_ERR_USAGE', 'probe: the URL has no host');
  return u;
}

/** Validate a parsed --args value: a JSON object (not an array, string or null). */
export function isArgsObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** Whether a listed tool may be called by the probe without --i-know-it-writes. */
export function readOnlyVerdict(tool: Tool): { readOnly: boolean; reason: string } {
  const a = tool.annotations;
  if (a?.destructiveHint === true) return { readOnly: false, reason: `${tool.name} is annotated destructiveHint=true` };
  if (a?.readOnlyHint === true) return { readOnly: true, reason: `${tool.name} is annotated readOnlyHint=true` };
  if (a?.readOnlyHint === false) return { readOnly: false, reason: `${tool.name} is annotated readOnlyHint=false (it may write)` };
  return { readOnly: false, reason: `${tool.name} has no readOnlyHint annotation, and MCP's default is "may write"` };
}

// ---------------------------------------------------------------------------------------------

interface Conn {
  n: number;
  client: Client;
  transport: StreamableHTTPClientTransport | SSEClientTransport;
  kind: TransportKind;
  sessionId?: string;
  protocolVersion?: string;
  initExchange?: Exchange;
  /** legacy transport: the GET that opened the event stream */
  sseStream?: Exchange;
  closed?: boolean;
}

interface OpenResult {
  conn?: Conn;
  error?: unknown;
  failing?: Exchange;
  fallbackReason?: string;
  legacyFailure?: Exchange;
}

function clip(s: string, n: number): string {
  return s.length > n ? s.slice(0, n - 1) + '…' : s;
}

/** Strip terminal escapes, control and bidi characters: server-supplied text is untrusted. */
export function clean(s: string): string {
  return s
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '')
    .replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/g, '')
    .replace(/[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, ' ');
}

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

export async function runProbe(opts: ProbeOptions): Promise<ProbeResult> {
  const url = parseProbeUrl(opts.url);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const connections = opts.connections ?? DEFAULT_CONNECTIONS;
  if (!Number.isInteger(connections) || connections < 1 || connections > MAX_CONNECTIONS)
    throw new TriageError('TRIAGE_ERR_USAGE', `probe: --connections takes a whole number from 1 to ${MAX_CONNECTIONS}, got ${connections}`);
  if (!(timeoutMs > 0) || timeoutMs > 600_000) throw new TriageError('TRIAGE_ERR_USAGE', 'probe: --timeout takes seconds between 0 and 600');
  if (opts.args !== undefined && !isArgsObject(opts.args)) throw new TriageError('TRIAGE_ERR_USAGE', 'probe: --args must be a JSON object, e.g. \'{"order_id":"ORD-1"}\'');
  if (opts.args !== undefined && !opts.tool) throw new TriageError('TRIAGE_ERR_USAGE', 'probe: --args needs --tool NAME');
  if (opts.tool !== undefined && !opts.tool.trim()) throw new TriageError('TRIAGE_ERR_USAGE', 'probe: --tool needs a tool name');

  // ---- redaction: every string that leaves this function passes through here ----
  const ids = new SessionIdBook();
  const red = (s: string): string => clean(createLineRedactor({ key: opts.key, ids }).line(clean(s)).text);
  const seeSession = (id: string | undefined) => id && ids.add(id);
  const redUrl = red(url.href);
  const { host, port } = hostPort(url);
  const bearerSent = !!opts.bearer;
  const requestInit: RequestInit | undefined = opts.bearer ? { headers: { Authorization: `Bearer ${opts.bearer}` } } : undefined;

  const steps: ProbeStep[] = [];
  let current: StepName | 'start' | 'done' = 'start';
  const emit = (e: Omit<ProbeLogEvent, 'time' | 'probe'> & { time?: number }) => {
    if (!opts.onEvent) return;
    const out: ProbeLogEvent = { time: e.time ?? Date.now(), probe: true, ...e } as ProbeLogEvent;
    out.msg = red(out.msg);
    if (out.url) out.url = red(out.url);
    if (out.diagnosis) out.diagnosis = red(out.diagnosis);
    try {
      opts.onEvent(out);
    } catch {
      /* a broken log sink must not break the probe */
    }
  };

  const exchanges = new ExchangeLog((x) => {
    const r = x.rpc[0];
    const sid = x.requestHeaders['mcp-session-id'] ?? x.assignedSessionId;
    seeSession(x.assignedSessionId);
    seeSession(x.requestHeaders['mcp-session-id']);
    const bad = x.status === undefined || x.status >= 400;
    emit({
      time: x.startedAt,
      level: bad ? 'warn' : 'info',
      msg: `probe ${describeExchange(x)} in ${x.ms ?? 0} ms${x.requestHeaders['mcp-session-id'] ? ' (Mcp-Session-Id sent)' : ' (no Mcp-Session-Id sent)'}`,
      step: current,
      connection: x.connection,
      method: x.method,
      url: pathOf(x.url),
      ...(x.status !== undefined ? { statusCode: x.status } : {}),
      durationMs: x.ms ?? 0,
      ...(r?.id !== undefined ? { rpcId: r.id } : {}),
      ...(r?.method ? { rpcMethod: r.method } : {}),
      ...(r?.tool ? { tool: r.tool } : {}),
      ...(sid ? { mcpSessionId: sid } : {}),
      ...(x.requestHeaders['mcp-protocol-version'] ? { mcpProtocolVersion: x.requestHeaders['mcp-protocol-version'] } : {}),
      ...(x.contentType ? { contentType: x.contentType.split(';')[0] } : {}),
    });
  });

  const result: ProbeResult = {
    ok: false,
    url: redUrl,
    protocolVersion: null,
    sessionAssigned: false,
    transport: 'streamable-http',
    steps,
    failedStep: null,
    refused: null,
    fallback: null,
    server: null,
    exitCode: 3,
  };

  const push = (s: ProbeStep): ProbeStep => {
    s.evidence = red(s.evidence);
    if (s.diagnosis !== undefined) s.diagnosis = red(s.diagnosis);
    if (s.warning !== undefined) s.warning = red(s.warning);
    if (s.requestHeaders) s.requestHeaders = Object.fromEntries(Object.entries(s.requestHeaders).map(([k, v]) => [k, red(v)]));
    steps.push(s);
    if (!s.ok && !result.failedStep) result.failedStep = s.name;
    emit({
      level: s.ok ? (s.warning ? 'warn' : 'info') : 'error',
      msg: `probe step ${s.name}${s.connection && s.connection > 1 ? ` #${s.connection}` : ''} ${s.refused ? 'REFUSED' : s.ok ? (s.warning ? `passed with a warning (${s.warning})` : 'passed') : 'FAILED'} in ${s.ms} ms: ${s.evidence}${s.diagnosis ? ` — ${s.diagnosis}` : ''}`,
      step: s.name,
      connection: s.connection ?? 1,
      durationMs: s.ms,
      ok: s.ok,
      ...(s.diagnosis ? { diagnosis: s.diagnosis } : {}),
    });
    opts.onStep?.(s);
    return s;
  };
  const timed = async <T>(name: StepName, f: () => Promise<T>): Promise<{ value: T; ms: number }> => {
    current = name;
    const t0 = performance.now();
    const value = await f();
    return { value, ms: Math.round(performance.now() - t0) };
  };

  /** The diagnosis of a failure inside an MCP step, from the exchange that failed or the error. */
  const diagnose = (e: unknown, conn: number, fromSeq: number, carriedSession: boolean, firstInitialize: boolean): { diagnosis: string; failing?: Exchange } => {
    const bad = (x: Exchange) => x.error !== undefined || (x.status !== undefined && (x.status >= 300 || /text\/html/i.test(x.contentType ?? '')));
    // The optional GET stream answering 405 is allowed by the spec; prefer the request that failed.
    const xs = exchanges.since(conn, fromSeq).filter((x) => bad(x) && !(x.method === 'GET' && x.status === 405));
    const failing = [...xs].reverse().find((x) => x.method !== 'GET') ?? xs[xs.length - 1];
    if (failing?.status !== undefined) {
      // Judge by what the failing request itself carried: a 404 for the initialized notification
      // that carried the just-assigned session is a lost session, not a wrong path.
      const sent = 'mcp-session-id' in failing.requestHeaders;
      const isInit = failing.rpc.some((r) => r.method === 'initialize');
      return { diagnosis: diagnoseHttp(failing, { firstInitialize: firstInitialize && isInit && !sent, carriedSession: carriedSession || sent, bearerSent, url }), failing };
    }
    if (failing?.error !== undefined && !isTimeout(e)) return { diagnosis: diagnoseNetwork(failing.error, { host, port, timeoutMs, https: url.protocol === 'https:' }), failing };
    if (isTimeout(e)) {
      // Which stage stalled: before the response headers, or inside the body/stream?
      const pending = [...exchanges.since(conn, fromSeq)].reverse().find((x) => x.method === 'POST' && x.rpc.some((r) => r.id !== undefined));
      const secs = `${timeoutMs / 1000} s`;
      if (pending && pending.status === undefined)
        return {
          failing: pending,
          diagnosis: `no response headers within ${secs}: the server or a proxy accepted the request but never answered (a hung server, or a proxy waiting on a dead upstream)`,
        };
      if (pending)
        return {
          failing: pending,
          diagnosis: `response headers arrived (${pending.status} ${pending.contentType?.split(';')[0] ?? ''}) but the JSON-RPC reply did not complete within ${secs}: the stream stalled or was cut (proxy buffering or read timeout, a hung tool)`,
        };
      return {
        diagnosis: `no complete answer within ${secs}: the server or a proxy accepted the request but the reply stalled or was cut (proxy buffering or read timeout, a hung server)`,
      };
    }
    const code = errorCode(e);
    const msg = innermostMessage(e);
    if (/protocol version is not supported/i.test(msg)) return { diagnosis: `the server negotiated a protocol version this client does not speak: ${msg}` };
    if (/Unexpected content type/i.test(msg)) return { diagnosis: `the reply was not JSON or an SSE stream (${msg}): not an MCP endpoint, or a proxy rewrote it` };
    if (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'ENOTFOUND' || code === 'UND_ERR_SOCKET')
      return { diagnosis: diagnoseNetwork(e, { host, port, timeoutMs, https: url.protocol === 'https:' }) };
    const mcpCode = (e as { code?: unknown }).code;
    if (mcpCode === -32601) return { diagnosis: `the server answered "method not found" (-32601): it does not implement this method` };
    if (typeof mcpCode === 'number') return { diagnosis: `the server answered JSON-RPC error ${mcpCode}: ${clip(msg, 160)}` };
    return { diagnosis: `the client failed: ${clip(msg, 200)}` };
  };

  const newStreamable = (n: number) =>
    new StreamableHTTPClientTransport(url, {
      fetch: exchanges.fetchFor(n),
      ...(requestInit ? { requestInit } : {}),
      reconnectionOptions: { initialReconnectionDelay: 1000, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1, maxRetries: 0 },
    });
  const newLegacy = (n: number) =>
    new SSEClientTransport(url, { fetch: exchanges.fetchFor(n), ...(requestInit ? { requestInit, eventSourceInit: { fetch: exchanges.fetchFor(n) } } : {}) });
  const newClient = () => {
    const c = new Client({ name: opts.clientName ?? 'mcp-triage-probe', version: '0.1.0' }, { capabilities: {} });
    c.onerror = () => {
      /* the optional GET stream failing is reported through the exchanges, not thrown */
    };
    return c;
  };

  /** A NEW client object and a NEW transport; initialize without any earlier session id. */
  const connect = async (n: number, kind: TransportKind): Promise<Conn> => {
    const client = newClient();
    const transport = kind === 'streamable-http' ? newStreamable(n) : newLegacy(n);
    try {
      await withTimeout(client.connect(transport, { timeout: timeoutMs }), timeoutMs + 250, 'initialize');
    } catch (e) {
      await client.close().catch(() => {});
      throw e;
    }
    const init = [...exchanges.all].reverse().find((x) => x.connection === n && x.rpc.some((r) => r.method === 'initialize') && x.status !== undefined && x.status < 300);
    const sessionId = transport instanceof StreamableHTTPClientTransport ? transport.sessionId : legacySession(exchanges, n);
    seeSession(sessionId);
    const pv = transport instanceof StreamableHTTPClientTransport ? transport.protocolVersion : undefined;
    const sseStream = kind === 'legacy-sse' ? [...exchanges.all].reverse().find((x) => x.connection === n && x.method === 'GET' && x.status === 200) : undefined;
    return { n, client, transport, kind, sessionId, protocolVersion: pv, initExchange: init, ...(sseStream ? { sseStream } : {}) };
  };

  const open = async (n: number, kind: TransportKind, allowFallback: boolean): Promise<OpenResult> => {
    const fromSeq = exchanges.lastSeq;
    try {
      return { conn: await connect(n, kind) };
    } catch (e) {
      const { failing } = diagnose(e, n, fromSeq, false, true);
      const st = failing?.status;
      const initRefused = failing?.method === 'POST' && failing.rpc.some((r) => r.method === 'initialize') && !('mcp-session-id' in failing.requestHeaders);
      if (allowFallback && kind === 'streamable-http' && initRefused && (st === 400 || st === 404 || st === 405)) {
        const fb = exchanges.lastSeq;
        try {
          const conn = await connect(n, 'legacy-sse');
          return { conn, fallbackReason: `POST initialize → ${st}` };
        } catch (e2) {
          const lf = diagnose(e2, n, fb, false, true).failing;
          return { error: e, failing, ...(lf ? { legacyFailure: lf } : {}) };
        }
      }
      return { error: e, ...(failing ? { failing } : {}) };
    }
  };

  const conns: Conn[] = [];
  const closeQuietly = async () => {
    for (const c of conns) {
      if (c.closed) continue;
      c.closed = true;
      if (c.transport instanceof StreamableHTTPClientTransport && c.sessionId) await withTimeout(c.transport.terminateSession(), timeoutMs, 'DELETE').catch(() => {});
      await c.client.close().catch(() => {});
    }
  };
  const finish = async (): Promise<ProbeResult> => {
    await closeQuietly();
    result.ok = steps.length > 0 && steps.every((s) => s.ok);
    result.exitCode = result.refused ? 1 : result.ok ? 0 : 3;
    current = 'done';
    emit({
      level: result.ok ? (result.isError ? 'warn' : 'info') : 'error',
      msg: `probe done: ${result.ok ? (result.isError ? 'every step passed; the tool reported an application error' : 'every step passed') : result.refused ? `refused at ${result.failedStep}` : `FAILED at ${result.failedStep}`} (exit ${result.exitCode})`,
      step: 'done',
      ok: result.ok,
    });
    return result;
  };

  emit({
    level: 'info',
    msg: `mcp-triage probe start: StreamableHTTPClientTransport (legacy HTTP+SSE detected if needed) to ${url.href}, ${connections} connection(s)${opts.tool ? `, tool ${opts.tool}` : ', no tool call'}`,
    step: 'start',
    url: pathOf(url.href),
  });

  // ---- reach ----
  {
    const { value: r, ms } = await timed('reach', () => reach(url, timeoutMs));
    push({
      name: 'reach',
      ok: r.ok,
      ms,
      evidence: r.evidence,
      ...(r.ok ? {} : { diagnosis: diagnoseNetwork(r.error, { host, port, timeoutMs, https: url.protocol === 'https:' }) }),
    });
    if (!r.ok) return finish();
  }

  // ---- initialize (connection 1) ----
  let first: Conn;
  {
    const { value: o, ms } = await timed('initialize', () => open(1, 'streamable-http', true));
    if (!o.conn) {
      const d = diagnose(o.error, 1, 0, false, true);
      const ex = o.failing ?? d.failing;
      let evidence = ex ? describeExchange(ex) : `initialize failed: ${clip(innermostMessage(o.error), 160)}`;
      // The initialize itself may have worked, and the notification after it failed: say both.
      const okInit = exchanges.all.find((x) => x.connection === 1 && x !== ex && x.rpc.some((r) => r.method === 'initialize') && x.status !== undefined && x.status < 300);
      if (okInit && ex) evidence = `${describeExchange(okInit)}${okInit.assignedSessionId ? `, session assigned ${okInit.assignedSessionId}` : ''}; then ${evidence}`;
      if (ex) evidence += `; request headers ${headerLine(ex.requestHeaders)}`;
      if (o.legacyFailure) evidence += `; legacy HTTP+SSE fallback tried: ${describeExchange(o.legacyFailure)}`;
      push({
        name: 'initialize',
        ok: false,
        ms,
        evidence,
        diagnosis: d.diagnosis,
        connection: 1,
        ...(ex ? { requestHeaders: ex.requestHeaders, sessionIdSent: 'mcp-session-id' in ex.requestHeaders } : {}),
      });
      return finish();
    }
    first = o.conn;
    conns.push(first);
    result.transport = first.kind;
    if (o.fallbackReason) result.fallback = { from: 'streamable-http', reason: o.fallbackReason };
    const sv = first.client.getServerVersion();
    result.server = sv ? { name: clip(clean(sv.name), 80), version: clip(clean(sv.version), 40) } : null;
    result.protocolVersion = first.protocolVersion ?? negotiated(first) ?? null;
    result.sessionAssigned = !!first.sessionId;
    push({ name: 'initialize', ok: true, ms, connection: 1, ...initEvidence(first, result, o.fallbackReason) });
  }

  // ---- tools/list ----
  let tools: Tool[] = [];
  {
    const fromSeq = exchanges.lastSeq;
    current = 'tools/list';
    const t0 = performance.now();
    try {
      const value = await listAll(first.client, timeoutMs);
      const ms = Math.round(performance.now() - t0);
      tools = value.tools;
      push({
        name: 'tools/list',
        ok: true,
        ms,
        connection: 1,
        evidence: `${tools.length} tool${tools.length === 1 ? '' : 's'} in ${value.pages} page${value.pages === 1 ? '' : 's'}${value.pages > 1 ? ' (nextCursor followed)' : ''}${tools.length ? ': ' + toolNames(tools) : ''}`,
      });
    } catch (e) {
      const d = diagnose(e, 1, fromSeq, !!first.sessionId, false);
      push({
        name: 'tools/list',
        ok: false,
        ms: Math.round(performance.now() - t0),
        connection: 1,
        evidence: d.failing ? describeExchange(d.failing) : `tools/list failed: ${clip(innermostMessage(e), 160)}`,
        diagnosis: d.diagnosis,
      });
      return finish();
    }
  }

  // ---- tools/call (only when asked, only read-only unless --i-know-it-writes) ----
  let callTool: Tool | undefined;
  let repeatCall = false;
  if (opts.tool) {
    const tool = tools.find((t) => t.name === opts.tool);
    if (!tool) {
      push({
        name: 'tools/call',
        ok: false,
        ms: 0,
        connection: 1,
        evidence: `${opts.tool} is not among the ${tools.length} listed tools (nothing was called)`,
        diagnosis: `the server does not offer this tool: a typo in --tool, or the URL reaches a different server or deployment than intended`,
      });
      return finish();
    }
    const v = readOnlyVerdict(tool);
    if (!v.readOnly && !opts.allowWrites) {
      result.refused = { tool: tool.name, reason: v.reason };
      push({
        name: 'tools/call',
        ok: false,
        refused: true,
        ms: 0,
        connection: 1,
        evidence: `nothing was sent: ${v.reason}`,
        diagnosis: `the probe only makes side-effect-free calls, so a retry can never repeat a write; call a read-only tool, or add --i-know-it-writes if a repeat is harmless (it is then called once, on the first connection only)`,
      });
      current = 'close';
      await closeStep(conns);
      return finish();
    }
    callTool = tool;
    repeatCall = v.readOnly;
    const { value: r, ms } = await timed('tools/call', () => callOnce(first, tool.name));
    noteToolError(r);
    push({
      name: 'tools/call',
      ok: r.ok,
      ms,
      connection: 1,
      evidence: (v.readOnly ? '' : `called despite the annotations (--i-know-it-writes: ${v.reason}); `) + r.evidence,
      ...(r.diagnosis ? { diagnosis: r.diagnosis } : {}),
      ...(r.isError ? { warning: TOOL_ERROR_WARNING } : {}),
    });
    if (!r.ok) return finish();
  }

  // ---- second (…Nth) fresh connection ----
  for (let n = 2; n <= connections; n++) {
    const t0 = performance.now();
    current = 'second-connection';
    const o = await open(n, first.kind, false);
    const ms = () => Math.round(performance.now() - t0);
    if (!o.conn) {
      const d = diagnose(o.error, n, 0, false, true);
      const ex = o.failing ?? d.failing;
      push({
        name: 'second-connection',
        ok: false,
        ms: ms(),
        connection: n,
        evidence: `new client #${n}: initialize ${ex ? describeExchange(ex) : `failed: ${clip(innermostMessage(o.error), 160)}`}`,
        diagnosis: `initialize on a fresh connection: ${d.diagnosis}`,
        ...(ex ? { requestHeaders: ex.requestHeaders, sessionIdSent: 'mcp-session-id' in ex.requestHeaders } : {}),
      });
      return finish();
    }
    const c = o.conn;
    conns.push(c);
    const init = c.initExchange;
    const sent = init ? 'mcp-session-id' in init.requestHeaders : false;
    const parts = [`new client #${n}: initialize ${init ? `→ ${init.status}` : 'ok'}, ${sent ? 'Mcp-Session-Id SENT' : 'no Mcp-Session-Id sent'}`];
    if (c.sessionId) parts.push(`session ${c.sessionId}${first.sessionId ? ` (first: ${first.sessionId})` : ''}`);
    else parts.push('no session assigned');
    const failed = (diagnosis: string, headers = false) => {
      push({
        name: 'second-connection',
        ok: false,
        ms: ms(),
        connection: n,
        evidence: parts.join('; '),
        diagnosis,
        ...(headers && init ? { requestHeaders: init.requestHeaders, sessionIdSent: sent } : {}),
      });
      return finish();
    };
    if (c.sessionId && c.sessionId === first.sessionId) return failed('the server handed out the same session id to two independent connections: sessions are not isolated', true);
    const fromSeq = exchanges.lastSeq;
    let warning: string | undefined;
    let listed: { tools: Tool[]; pages: number };
    try {
      listed = await listAll(c.client, timeoutMs);
      parts.push(`tools/list ${listed.tools.length} tools${listed.tools.length !== tools.length ? ` (first connection saw ${tools.length})` : ''}`);
    } catch (e) {
      const d = diagnose(e, n, fromSeq, !!c.sessionId, false);
      parts.push(`tools/list ${d.failing ? describeExchange(d.failing) : 'failed'}`);
      return failed(`tools/list on a fresh connection: ${d.diagnosis}`);
    }
    if (callTool && repeatCall) {
      const r = await callOnce(c, callTool.name);
      noteToolError(r);
      if (r.isError) warning = TOOL_ERROR_WARNING;
      parts.push(`${callTool.name}: ${r.evidence}`);
      if (!r.ok) return failed(`tools/call on a fresh connection: ${r.diagnosis ?? 'failed'}`);
    } else if (callTool) parts.push(`${callTool.name} not called again (it may write)`);
    push({
      name: 'second-connection',
      ok: true,
      ms: ms(),
      connection: n,
      evidence: parts.join('; '),
      ...(warning ? { warning } : {}),
      ...(init ? { requestHeaders: init.requestHeaders, sessionIdSent: sent } : {}),
    });
  }

  // ---- close ----
  current = 'close';
  await closeStep(conns);
  return finish();

  // ---------------------------------------------------------------------------------------
  /** The first application error a call reported: isError and its text on the result. */
  function noteToolError(r: CallOutcome): void {
    if (r.isError === undefined) return;
    if (r.isError && !result.isError) {
      result.isError = true;
      result.errorText = r.errorText ?? '';
    } else if (result.isError === undefined) result.isError = false;
  }

  async function callOnce(c: Conn, name: string): Promise<CallOutcome> {
    const fromSeq = exchanges.lastSeq;
    try {
      const r = await withTimeout(c.client.callTool({ name, arguments: opts.args ?? {} }, undefined, { timeout: timeoutMs }), timeoutMs + 250, 'tools/call');
      const content = Array.isArray(r.content) ? (r.content as { type?: string }[]) : [];
      const bytes = Buffer.byteLength(JSON.stringify(r.content ?? null)) + (r.structuredContent ? Buffer.byteLength(JSON.stringify(r.structuredContent)) : 0);
      const kinds = [...new Set(content.map((x) => x.type ?? '?'))].join('/');
      const ev = `complete result received: isError=${r.isError === true}, ${content.length} content item${content.length === 1 ? '' : 's'}${kinds ? ` (${kinds})` : ''}${r.structuredContent ? ' + structuredContent' : ''}, ${bytes} bytes`;
      // isError is the TOOL's answer (an unknown id, bad arguments, its backend said no), carried
      // by a complete JSON-RPC result: transport and session did their job, which is what the
      // probe verifies. So the step passes with a warning, and the error text is shown (redacted,
      // cut) because that is what a person needs to fix the call. Successful content never is.
      if (r.isError === true) return { ok: true, isError: true, errorText: errorTextOf(content), evidence: `${ev} (an application error; its text, redacted, is in errorText)` };
      return { ok: true, isError: false, evidence: `${ev} (content not shown: tool results are business data)` };
    } catch (e) {
      const d = diagnose(e, c.n, fromSeq, !!c.sessionId, false);
      return { ok: false, evidence: d.failing ? describeExchange(d.failing) : `${name} failed: ${clip(innermostMessage(e), 160)}`, diagnosis: d.diagnosis };
    }
  }

  /**
   * The text items of an error result, as one line: redacted first (secrets, session ids as
   * pseudonyms) and only then cut to ERROR_TEXT_MAX characters, so the cut can never leave a
   * partial secret that the redactor would no longer recognise.
   */
  function errorTextOf(content: { type?: string; text?: unknown }[]): string {
    const text = content
      .filter((x) => x.type === 'text' && typeof x.text === 'string')
      .map((x) => x.text as string)
      .join(' ')
      .slice(0, 64 * 1024)
      .replace(/\s+/g, ' ')
      .trim();
    return clip(red(text).trim(), ERROR_TEXT_MAX);
  }

  async function closeStep(list: Conn[]): Promise<void> {
    const t0 = performance.now();
    const parts: string[] = [];
    let ok = true;
    let diagnosis: string | undefined;
    for (const c of list) {
      if (c.closed) continue;
      c.closed = true;
      const label = list.length > 1 ? `#${c.n} ` : '';
      if (c.transport instanceof StreamableHTTPClientTransport && c.sessionId) {
        const fromSeq = exchanges.lastSeq;
        try {
          await withTimeout(c.transport.terminateSession(), timeoutMs, 'DELETE');
        } catch (e) {
          const d = diagnose(e, c.n, fromSeq, true, false);
          ok = false;
          diagnosis ??= d.failing?.status === 404 ? d.diagnosis : `ending the session failed: ${d.diagnosis}`;
        }
        const del = exchanges.since(c.n, fromSeq).find((x) => x.method === 'DELETE');
        if (del)
          parts.push(
            `${label}${describeExchange(del)}${del.status === 405 ? ' (the server does not allow explicit termination: fine)' : del.status !== undefined && del.status < 300 ? ' (session ended)' : ''}`,
          );
        else parts.push(`${label}DELETE not completed`);
      } else if (c.kind === 'legacy-sse') parts.push(`${label}closed the SSE stream (the legacy transport has no DELETE)`);
      else parts.push(`${label}no session to end (the server assigned none); transport closed`);
      await c.client.close().catch(() => {});
    }
    const ms = Math.round(performance.now() - t0);
    push({ name: 'close', ok, ms, evidence: parts.join('; ') || 'nothing to close', ...(diagnosis ? { diagnosis } : {}) });
  }
}

async function listAll(client: Client, timeoutMs: number): Promise<{ tools: Tool[]; pages: number }> {
  const tools: Tool[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  let pages = 0;
  do {
    const r = await withTimeout(client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs }), timeoutMs + 250, 'tools/list');
    pages++;
    tools.push(...r.tools);
    cursor = r.nextCursor;
    if (cursor !== undefined) {
      if (seen.has(cursor)) throw new Error(`tools/list pagination loops: nextCursor "${clip(cursor, 40)}" came back twice`);
      seen.add(cursor);
    }
  } while (cursor !== undefined && pages < MAX_PAGES);
  if (cursor !== undefined) throw new Error(`tools/list still had a nextCursor after ${MAX_PAGES} pages`);
  return { tools, pages };
}

function toolNames(tools: Tool[]): string {
  const shown = tools.slice(0, 12).map((t) => {
    const v = readOnlyVerdict(t);
    const mark = t.annotations?.destructiveHint === true ? ' (destructive)' : v.readOnly ? ' (read-only)' : '';
    return clip(clean(t.name), 64) + mark;
  });
  return shown.join(', ') + (tools.length > 12 ? `, … +${tools.length - 12} more` : '');
}

function headerLine(h: Record<string, string>): string {
  const entries = Object.entries(h);
  if (!entries.length) return '(none set by the client)';
  return entries.map(([k, v]) => `${k}="${v}"`).join(' ');
}

function legacySession(exchanges: ExchangeLog, n: number): string | undefined {
  for (const x of [...exchanges.all].reverse()) {
    if (x.connection !== n || x.method !== 'POST') continue;
    try {
      const id = new URL(x.url).searchParams.get('sessionId');
      if (id) return id;
    } catch {
      /* not a URL */
    }
  }
  return undefined;
}

/** The negotiated version as the client sends it after initialize (legacy transport). */
function negotiated(c: Conn): string | undefined {
  const t = c.transport as unknown as { protocolVersion?: string; _protocolVersion?: string };
  return t.protocolVersion ?? t._protocolVersion;
}

function initEvidence(c: Conn, r: ProbeResult, fallbackReason: string | undefined): Pick<ProbeStep, 'evidence' | 'requestHeaders' | 'sessionIdSent'> {
  const x = c.initExchange;
  const sent = x ? 'mcp-session-id' in x.requestHeaders : false;
  const parts: string[] = [];
  if (fallbackReason) parts.push(`LEGACY TRANSPORT: Streamable HTTP refused (${fallbackReason}), so the deprecated HTTP+SSE transport (2024-11-05 style) answered instead`);
  if (c.sseStream) parts.push(describeExchange(c.sseStream));
  parts.push(x ? describeExchange(x) : 'initialize ok');
  parts.push(`protocol ${r.protocolVersion ?? 'unknown'}`);
  if (r.server) parts.push(`server ${r.server.name} ${r.server.version}`);
  parts.push(c.sessionId ? `session assigned ${c.sessionId}${c.kind === 'legacy-sse' ? ' (in the endpoint URL)' : ''}` : 'no session assigned (stateless)');
  if (x) parts.push(`request headers ${headerLine(x.requestHeaders)}`);
  parts.push(sent ? 'an Mcp-Session-Id WAS sent' : 'no Mcp-Session-Id sent (a fresh session, nothing stale)');
  return { evidence: parts.join('; '), ...(x ? { requestHeaders: x.requestHeaders } : {}), sessionIdSent: sent };
}
