// runProbe against real SDK servers on 127.0.0.1 (stateful, stateless, JSON-response, legacy
// HTTP+SSE), plus the pure diagnosis helpers. Each test starts its own server on port 0.
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_KEY } from '../testing/helpers.ts';
import { sessionPseudonym } from '../triage/redact/index.ts';
import { diagnoseHttp, diagnoseNetwork } from './diagnose.ts';
import type { Exchange } from './http.ts';
import { readOnlyVerdict, runProbe } from './run.ts';
import { startServer, type TestMcpServer } from './testing/servers.ts';
import type { ProbeLogEvent, ProbeOptions, ProbeResult } from './types.ts';

const servers: TestMcpServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
});

async function server(opts: Parameters<typeof startServer>[0]): Promise<TestMcpServer> {
  const s = await startServer(opts);
  servers.push(s);
  return s;
}

function probe(url: string, o: Partial<ProbeOptions> = {}): Promise<ProbeResult> {
  return runProbe({ url, key: TEST_KEY, timeoutMs: 5000, ...o });
}

const names = (r: ProbeResult) => r.steps.map((s) => s.name);
const step = (r: ProbeResult, n: string) => r.steps.find((s) => s.name === n)!;

describe('runProbe: healthy servers', () => {
  it('stateful (SSE replies): every step passes, pagination is followed, sessions are fresh and distinct, DELETE closes them', async () => {
    const s = await server({ mode: 'stateful', pageSize: 3 });
    const r = await probe(s.url, { tool: 'get_order', args: { order_id: 'ORD-1001' } });
    expect(r.ok, JSON.stringify(r.steps, null, 1)).toBe(true);
    expect(r.exitCode).toBe(0);
    expect(r).toMatchObject({ protocolVersion: '2025-11-25', sessionAssigned: true, transport: 'streamable-http', failedStep: null, fallback: null });
    expect(names(r)).toEqual(['reach', 'initialize', 'tools/list', 'tools/call', 'second-connection', 'close']);
    for (const st of r.steps) {
      expect(st.ms).toBeGreaterThanOrEqual(0);
      expect(st.evidence.length).toBeGreaterThan(10);
      expect(st.evidence).not.toContain('\n');
    }
    expect(step(r, 'initialize').evidence).toMatch(/protocol 2025-11-25; server orders-mcp 1\.4\.2; session assigned sess_[a-z2-7]{10,}/);
    expect(step(r, 'initialize').sessionIdSent).toBe(false);
    expect(step(r, 'initialize').requestHeaders).toEqual({ accept: 'application/json, text/event-stream', 'content-type': 'application/json' });
    expect(step(r, 'tools/list').evidence).toMatch(
      /^5 tools in 2 pages \(nextCursor followed\): get_order \(read-only\), create_order, delete_order \(destructive\), ping_backend, slow_lookup \(read-only\)$/,
    );
    expect(step(r, 'tools/call').evidence).toMatch(/complete result received: isError=false, 1 content item \(text\)/);
    expect(step(r, 'close').evidence).toMatch(/#1 DELETE \/mcp → 200 \(session ended\); #2 DELETE \/mcp → 200/);

    // The server's own view: two initializes, neither carrying a session id; two sessions ended.
    const inits = s.seen.filter((x) => x.rpcMethod === 'initialize');
    expect(inits).toHaveLength(2);
    for (const i of inits) expect(i.headers['mcp-session-id']).toBeUndefined();
    expect(s.seen.filter((x) => x.method === 'DELETE').map((x) => x.status)).toEqual([200, 200]);
    expect(s.sessions()).toEqual([]);
    expect(s.calls.map((c) => c.tool)).toEqual(['get_order', 'get_order']);
    // Raw session ids never appear: only pseudonyms.
    const text = JSON.stringify(r);
    for (const i of s.seen) if (i.headers['mcp-session-id']) expect(text).not.toContain(i.headers['mcp-session-id']);
  });

  it('stateless (sessionIdGenerator undefined): no session assigned, nothing to DELETE, GET 405 is not a failure', async () => {
    const s = await server({ mode: 'stateless' });
    const r = await probe(s.url);
    expect(r.ok, JSON.stringify(r.steps, null, 1)).toBe(true);
    expect(r).toMatchObject({ sessionAssigned: false, protocolVersion: '2025-11-25' });
    expect(names(r)).toEqual(['reach', 'initialize', 'tools/list', 'second-connection', 'close']);
    expect(step(r, 'initialize').evidence).toMatch(/→ 200 application\/json; .*no session assigned \(stateless\)/);
    expect(step(r, 'close').evidence).toMatch(/no session to end/);
    expect(s.seen.some((x) => x.method === 'DELETE')).toBe(false);
  });

  it('JSON-response mode (enableJsonResponse): replies as application/json, sessions still assigned', async () => {
    const s = await server({ mode: 'json' });
    const r = await probe(s.url, { tool: 'get_order', args: { order_id: 'ORD-1001' }, connections: 3 });
    expect(r.ok, JSON.stringify(r.steps, null, 1)).toBe(true);
    expect(step(r, 'initialize').evidence).toMatch(/POST \/mcp \(initialize\) → 200 application\/json/);
    const seconds = r.steps.filter((x) => x.name === 'second-connection');
    expect(seconds.map((x) => x.connection)).toEqual([2, 3]);
    const sessions = [step(r, 'initialize'), ...seconds].map((x) => /session (?:assigned )?(sess_[a-z2-7]+)/.exec(x.evidence)?.[1]);
    expect(new Set(sessions).size).toBe(3);
  });

  it('a legacy HTTP+SSE server: the fallback is detected and REPORTED (transport legacy-sse), not hidden', async () => {
    const s = await server({ mode: 'legacy' });
    const r = await probe(s.url, { tool: 'get_order', args: { order_id: 'ORD-1001' } });
    expect(r.ok, JSON.stringify(r.steps, null, 1)).toBe(true);
    expect(r.transport).toBe('legacy-sse');
    expect(r.fallback).toEqual({ from: 'streamable-http', reason: 'POST initialize → 405' });
    expect(step(r, 'initialize').evidence).toMatch(/^LEGACY TRANSPORT: Streamable HTTP refused \(POST initialize → 405\).*GET \/sse → 200 text\/event-stream/);
    expect(step(r, 'close').evidence).toMatch(/closed the SSE stream/);
  });
});

describe('runProbe: failures name the step and what it means', () => {
  it('server stopped: reach fails with "connection refused" and nothing else runs', async () => {
    const s = await server({ mode: 'stateful' });
    const url = s.url;
    await s.stop();
    const r = await probe(url);
    expect(r.exitCode).toBe(3);
    expect(r.failedStep).toBe('reach');
    expect(names(r)).toEqual(['reach']);
    expect(step(r, 'reach').evidence).toMatch(/TCP 127\.0\.0\.1:\d+ failed: ECONNREFUSED/);
    expect(step(r, 'reach').diagnosis).toMatch(/^connection refused: nothing listens on 127\.0\.0\.1:\d+/);
  });

  it("server restarted under an old session: the probe's own fresh initialize succeeds and sends no old session id", async () => {
    const s = await server({ mode: 'stateful' });
    // An application's client holds a session…
    const app = new Client({ name: 'host-app', version: '1' });
    const t = new StreamableHTTPClientTransport(new URL(s.url));
    await app.connect(t);
    const old = t.sessionId!;
    expect(old).toMatch(/^[0-9a-f-]{36}$/);
    // …the server restarts and forgets it: the old id now gets 404 (what the incident showed).
    await s.restart();
    await app.close().catch(() => {});
    const stale = await fetch(s.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': old },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(stale.status).toBe(404);
    const seenBefore = s.seen.length;

    const r = await probe(s.url);
    expect(r.ok, JSON.stringify(r.steps, null, 1)).toBe(true);
    const init = step(r, 'initialize');
    expect(init.sessionIdSent).toBe(false);
    expect(init.requestHeaders).not.toHaveProperty('mcp-session-id');
    expect(init.evidence).toMatch(/no Mcp-Session-Id sent \(a fresh session, nothing stale\)/);
    const text = JSON.stringify(r);
    expect(text).not.toContain(old);
    expect(text).not.toContain(sessionPseudonym(TEST_KEY, old));
    // From the server's side: the probe's requests never carried the old id.
    const probeReqs = s.seen.slice(seenBefore);
    expect(probeReqs.filter((x) => x.rpcMethod === 'initialize').every((x) => x.headers['mcp-session-id'] === undefined)).toBe(true);
    expect(probeReqs.some((x) => x.headers['mcp-session-id'] === old)).toBe(false);
  });

  it('wrong path: 404 on the first initialize says route, not session; the legacy fallback is tried and said', async () => {
    const s = await server({ mode: 'stateful' });
    const r = await probe(s.url.replace('/mcp', '/api/mcp'));
    expect(r.exitCode).toBe(3);
    expect(r.failedStep).toBe('initialize');
    const init = step(r, 'initialize');
    expect(init.evidence).toMatch(/^POST \/api\/mcp \(initialize\) → 404 text\/plain; request headers .*; legacy HTTP\+SSE fallback tried: GET \/api\/mcp → 404/);
    expect(init.diagnosis).toMatch(/^404 on the first initialize: the path or mount prefix is wrong/);
  });

  it('a port that accepts but never answers: initialize times out within --timeout', async () => {
    const sockets: import('node:net').Socket[] = [];
    const tcp: TcpServer = createTcpServer((c) => void sockets.push(c));
    await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', () => r()));
    const port = (tcp.address() as import('node:net').AddressInfo).port;
    try {
      const t0 = Date.now();
      const r = await probe(`http://127.0.0.1:${port}/mcp`, { timeoutMs: 800 });
      expect(Date.now() - t0).toBeLessThan(5000);
      expect(r.failedStep).toBe('initialize');
      expect(step(r, 'initialize').evidence).toMatch(/^POST \/mcp \(initialize\) → no response headers \(still waiting at the timeout\)/);
      expect(step(r, 'initialize').diagnosis).toMatch(/^no response headers within 0\.8 s: the server or a proxy accepted the request but never answered/);
    } finally {
      for (const c of sockets) c.destroy();
      await new Promise((r) => tcp.close(() => r(null)));
    }
  });

  it('a call that stalls: the diagnosis says which stage (SSE headers sent vs no headers at all)', async () => {
    const sse = await server({ mode: 'stateful', hangMs: 3000 });
    const r = await probe(sse.url, { tool: 'slow_lookup', timeoutMs: 700 });
    expect(r.failedStep).toBe('tools/call');
    expect(step(r, 'tools/call').evidence).toMatch(/^POST \/mcp \(tools\/call\) → 200 text\/event-stream$/);
    expect(step(r, 'tools/call').diagnosis).toMatch(/^response headers arrived \(200 text\/event-stream\) but the JSON-RPC reply did not complete within 0\.7 s/);
    const json = await server({ mode: 'json', hangMs: 3000 });
    const j = await probe(json.url, { tool: 'slow_lookup', timeoutMs: 700 });
    expect(step(j, 'tools/call').evidence).toMatch(/^POST \/mcp \(tools\/call\) → no response headers \(still waiting at the timeout\)$/);
    expect(step(j, 'tools/call').diagnosis).toMatch(/^no response headers within 0\.7 s/);
  });

  it('401 without a token says credentials; with MCP_TRIAGE_BEARER-style bearer it passes and the token is never shown', async () => {
    const token = 'tok_live_9f8e7d6c5b4a39281706f5e4d3c2b1a0';
    const s = await server({ mode: 'stateful', bearer: token });
    const denied = await probe(s.url);
    expect(denied.failedStep).toBe('initialize');
    expect(step(denied, 'initialize').diagnosis).toMatch(
      /^401: credentials — the server wants a token \(WWW-Authenticate present\); give it via MCP_TRIAGE_BEARER or --bearer-stdin/,
    );

    const events: ProbeLogEvent[] = [];
    const r = await probe(s.url, { bearer: token, onEvent: (e) => events.push(e) });
    expect(r.ok, JSON.stringify(r.steps, null, 1)).toBe(true);
    expect(step(r, 'initialize').requestHeaders!.authorization).toBe('Bearer [REDACTED:authorization]');
    expect(step(r, 'initialize').evidence).toContain('authorization="Bearer [REDACTED:authorization]"');
    expect(JSON.stringify(r)).not.toContain(token);
    expect(JSON.stringify(events)).not.toContain(token);
    expect(s.seen.filter((x) => x.rpcMethod === 'initialize').every((x) => x.headers.authorization === `Bearer ${token}`)).toBe(true);

    const wrong = await probe(s.url, { bearer: 'nope-nope-nope' });
    expect(step(wrong, 'initialize').diagnosis).toMatch(/^401: credentials — the token was refused/);
  });

  it('a tool that answers isError: true is a healthy transport: steps pass with a warning, exit 0, errorText on the result', async () => {
    const s = await server({ mode: 'stateful' });
    const events: ProbeLogEvent[] = [];
    const r = await probe(s.url, { tool: 'get_order', args: { order_id: 'ORD-9999' }, onEvent: (e) => events.push(e) });
    expect(r.exitCode).toBe(0);
    expect(r.ok).toBe(true);
    expect(r.failedStep).toBeNull();
    expect(names(r)).toEqual(['reach', 'initialize', 'tools/list', 'tools/call', 'second-connection', 'close']);
    expect(step(r, 'tools/call')).toMatchObject({ ok: true, warning: 'the tool reported an application error' });
    expect(step(r, 'tools/call')).not.toHaveProperty('diagnosis');
    expect(step(r, 'tools/call').evidence).toMatch(/isError=true/);
    // the repeat on the fresh connection got the same answer: passed, with the same warning
    expect(step(r, 'second-connection')).toMatchObject({ ok: true, warning: 'the tool reported an application error' });
    expect(r).toMatchObject({ isError: true, errorText: 'order ORD-9999 not found' });
    expect(s.calls.map((c) => c.tool)).toEqual(['get_order', 'get_order']);
    expect(events.find((e) => e.msg.startsWith('probe step tools/call'))).toMatchObject({ level: 'warn', ok: true });
    expect(events.at(-1)).toMatchObject({ step: 'done', ok: true, level: 'warn' });
  });

  it('a successful call sets isError: false and no errorText or warning; without --tool neither field is there', async () => {
    const s = await server({ mode: 'stateful' });
    const r = await probe(s.url, { tool: 'get_order', args: { order_id: 'ORD-1001' } });
    expect(r.isError).toBe(false);
    expect(r).not.toHaveProperty('errorText');
    expect(r.steps.some((x) => 'warning' in x)).toBe(false);
    expect(JSON.stringify(r)).not.toContain('SKU-RED-MUG'); // successful content is never shown
    const none = await probe(s.url);
    expect(none).not.toHaveProperty('isError');
    expect(none).not.toHaveProperty('errorText');
  });

  it('errorText is redacted with the project redactor before it is cut to 200 characters', async () => {
    const s = await server({ mode: 'stateful' });
    const secret = 'sk_live_' + 'Q7x9Lm2Pz4'.repeat(4);
    const id = `ORD-1\n\tAuthorization: Bearer ${secret} ${'x'.repeat(400)}`;
    const r = await probe(s.url, { tool: 'get_order', args: { order_id: id }, connections: 1 });
    expect(r.exitCode).toBe(0);
    expect(r.isError).toBe(true);
    expect(r.errorText!.length, r.errorText).toBeLessThanOrEqual(200);
    expect(r.errorText).toMatch(/^order ORD-1 Authorization: Bearer \[REDACTED:[^\]]+\] x+…$/);
    expect(r.errorText).toMatch(/…$/);
    expect(r.errorText).not.toMatch(/[\n\t]/);
    expect(JSON.stringify(r)).not.toContain(secret);
    expect(JSON.stringify(r)).not.toContain(secret.slice(0, 16));
    // A secret straddling the 200th character: cut first, and its head would no longer look like
    // a secret to the redactor; redacted first, nothing of it is left.
    const straddle = await probe(s.url, { tool: 'get_order', args: { order_id: `${'y'.repeat(180)} ${secret}` }, connections: 1 });
    expect(straddle.errorText).toMatch(/^order y{180} \[REDACTED/);
    expect(straddle.errorText).not.toContain(secret.slice(0, 10));
  });

  it('a tool the server does not list fails the call step with the reason, nothing called', async () => {
    const s = await server({ mode: 'stateful' });
    const r = await probe(s.url, { tool: 'get_ordr' });
    expect(r.exitCode).toBe(3);
    expect(step(r, 'tools/call').diagnosis).toMatch(/does not offer this tool/);
    expect(s.calls).toEqual([]);
  });
});

describe('runProbe: only read-only calls', () => {
  it.each([
    ['create_order', /readOnlyHint=false/],
    ['delete_order', /destructiveHint=true/],
    ['ping_backend', /no readOnlyHint annotation/],
  ])('%s is refused (exit 1) before anything is sent', async (tool, why) => {
    const s = await server({ mode: 'stateful' });
    const r = await probe(s.url, { tool, args: {} });
    expect(r.exitCode).toBe(1);
    expect(r.ok).toBe(false);
    expect(r.refused).toMatchObject({ tool });
    expect(r.refused!.reason).toMatch(why);
    expect(names(r)).toEqual(['reach', 'initialize', 'tools/list', 'tools/call', 'close']);
    expect(step(r, 'tools/call')).toMatchObject({ ok: false, refused: true, ms: 0 });
    expect(step(r, 'close').ok).toBe(true);
    expect(s.calls).toEqual([]);
    expect(s.seen.some((x) => x.rpcMethod === 'tools/call')).toBe(false);
  });

  it('--i-know-it-writes calls a writing tool ONCE, never again on the extra connections', async () => {
    const s = await server({ mode: 'stateful' });
    const r = await probe(s.url, { tool: 'create_order', args: { sku: 'SKU-1', qty: 1 }, allowWrites: true, connections: 3 });
    expect(r.ok, JSON.stringify(r.steps, null, 1)).toBe(true);
    expect(s.calls.map((c) => c.tool)).toEqual(['create_order']);
    expect(step(r, 'tools/call').evidence).toMatch(/^called despite the annotations \(--i-know-it-writes/);
    expect(r.steps.filter((x) => x.name === 'second-connection').every((x) => /create_order not called again/.test(x.evidence))).toBe(true);
  });

  it('readOnlyVerdict follows the MCP defaults (absent readOnlyHint = may write)', () => {
    const t = (annotations?: object) => ({ name: 't', inputSchema: { type: 'object' as const }, ...(annotations ? { annotations } : {}) });
    expect(readOnlyVerdict(t({ readOnlyHint: true })).readOnly).toBe(true);
    expect(readOnlyVerdict(t({ readOnlyHint: true, destructiveHint: true })).readOnly).toBe(false);
    expect(readOnlyVerdict(t({ readOnlyHint: false })).readOnly).toBe(false);
    expect(readOnlyVerdict(t()).readOnly).toBe(false);
  });

  it('rejects unusable input as TRIAGE_ERR_USAGE', async () => {
    await expect(probe('not a url')).rejects.toMatchObject({ code: 'TRIAGE_ERR_USAGE' });
    await expect(probe('ftp://127.0.0.1/mcp')).rejects.toMatchObject({ code: 'TRIAGE_ERR_USAGE' });
    await expect(probe('http://127.0.0.1:1/mcp', { tool: 't', args: [] as unknown as Record<string, unknown> })).rejects.toMatchObject({ code: 'TRIAGE_ERR_USAGE' });
    await expect(probe('http://127.0.0.1:1/mcp', { args: {} })).rejects.toMatchObject({ code: 'TRIAGE_ERR_USAGE' });
    await expect(probe('http://127.0.0.1:1/mcp', { connections: 0 })).rejects.toMatchObject({ code: 'TRIAGE_ERR_USAGE' });
  });
});

describe('diagnoses (pure)', () => {
  const x = (o: Partial<Exchange>): Exchange => ({
    seq: 1,
    connection: 1,
    method: 'POST',
    url: 'http://h/mcp',
    requestHeaders: {},
    rpc: [{ method: 'initialize', id: 0 }],
    startedAt: 0,
    ...o,
  });
  const ctx = { firstInitialize: true, carriedSession: false, bearerSent: false, url: new URL('http://h/mcp') };
  it('HTML 404 from a proxy is a route problem', () => {
    expect(diagnoseHttp(x({ status: 404, contentType: 'text/html', serverHeader: 'nginx/1.22.1', bodySnippet: '<html><head><title>404 Not Found</title>' }), ctx)).toMatch(
      /^HTML 404 from nginx: the path or proxy route is wrong/,
    );
    expect(diagnoseHttp(x({ status: 404, contentType: 'text/html' }), { ...ctx, url: new URL('http://h/v1') })).toMatch(/model API base URL/);
  });
  it('a 404 for a session just assigned means the server lost it', () => {
    expect(
      diagnoseHttp(x({ status: 404, contentType: 'application/json', bodySnippet: '{"error":{"code":-32001}}' }), { ...ctx, firstInitialize: false, carriedSession: true }),
    ).toMatch(/lost the session/);
  });
  it('proxy statuses and credentials', () => {
    expect(diagnoseHttp(x({ status: 502, serverHeader: 'nginx' }), ctx)).toMatch(/^502 from nginx: the proxy could not reach the upstream/);
    expect(diagnoseHttp(x({ status: 504 }), ctx)).toMatch(/timed out waiting for the upstream/);
    expect(diagnoseHttp(x({ status: 401 }), { ...ctx, bearerSent: true })).toMatch(/token was refused/);
    expect(diagnoseHttp(x({ status: 200, contentType: 'text/html' }), ctx)).toMatch(/serves a web page/);
  });
  it('network errors by code', () => {
    const w = { host: 'h', port: 1, timeoutMs: 2000, https: false };
    expect(diagnoseNetwork(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), w)).toMatch(/^connection refused/);
    expect(diagnoseNetwork(new TypeError('fetch failed', { cause: Object.assign(new Error('getaddrinfo'), { code: 'ENOTFOUND' }) }), w)).toMatch(/^DNS: h does not resolve/);
    expect(diagnoseNetwork(Object.assign(new Error('x'), { code: 'ERR_SSL_WRONG_VERSION_NUMBER' }), { ...w, https: true })).toMatch(/try http:\/\//);
  });
});
