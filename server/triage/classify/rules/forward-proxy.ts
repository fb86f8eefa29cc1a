import type { Rule } from '../rule.ts';
import { describe, has } from '../rule.ts';

// triage-rules.md decision table (FIX route … client headers, proxy …) and failure-signatures (c) stage C/H: a
// client that takes HTTP(S)_PROXY from its environment sends a local or private MCP server's traffic to the
// corporate forward proxy, which cannot reach it (Squid's "could not be retrieved" page, a 502/503, a refused
// CONNECT) or holds the event stream until the read times out. Hosts fixed it by putting loopback in NO_PROXY
// (zed PR 39100, slopus/happy PR 1021; claude-code issues 23344, 34804; gemini-cli issue 3340). The server
// never saw the request, so nothing is to be checked there; a retry takes the same path.
export const forwardProxyInPath: Rule = {
  id: 'forward-proxy-in-path',
  decision: 'fix_route_or_config',
  source: 'triage-rules.md decision table (route, proxy) · failure-signatures (c) stages C/H',
  when(f) {
    if (f.viaForwardProxy !== true) return 'no line shows the request going through a forward HTTP(S) proxy';
    if (f.proxyBypassExpected === false) return 'the server is a public address: going through the configured proxy is the usual path there';
    if (has(f, 'auth-rejected') || has(f, 'auth-token-expired') || has(f, 'session-unknown') || has(f, 'tool-error') || f.bodyKind === 'jsonrpc-error')
      return 'the MCP server itself answered through the proxy (an auth, session or tool answer): the path works';
    const transportFailure = f.interruption !== null || (f.httpStatus !== null && (f.httpStatus >= 500 || f.httpStatus === 407)) || f.bodyKind === 'html' || f.stage === 'connect';
    if (!transportFailure) return 'the failure is not a connection, timeout or gateway answer';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} went through a forward HTTP(S) proxy${f.target ? ` to ${f.target.host}${f.target.port ? `:${f.target.port}` : ''}` : ''} — a proxy from the client's environment (HTTP_PROXY/HTTPS_PROXY/ALL_PROXY) or settings — and failed there${f.httpStatus ? ` (${f.httpStatus})` : f.interruption ? ` (${f.interruption})` : ''}: such a proxy cannot reach this machine or a private address, or holds an event stream until the read times out. Add the MCP server's host to NO_PROXY (localhost, 127.0.0.1, ::1 for a local server) or turn the proxy off for this client, and connect again. The server never saw the request; retrying takes the same path.`,
  examples: [
    { name: 'Squid error page for a loopback server', facts: { httpStatus: 500, bodyKind: 'html', causes: ['forward-proxy', 'server-error'], viaForwardProxy: true }, fires: true },
    {
      name: 'SSE GET timed out through httpcore http_proxy, target unknown',
      facts: { causes: ['forward-proxy', 'client-timeout'], viaForwardProxy: true, interruption: 'client-timeout' },
      fires: true,
    },
    {
      name: 'ProxyError to 127.0.0.1',
      facts: { causes: ['forward-proxy'], viaForwardProxy: true, stage: 'connect', target: { scheme: 'http', host: '127.0.0.1', port: 8765 }, proxyBypassExpected: true },
      fires: true,
    },
    {
      name: 'near miss: a public server reached through the corporate proxy times out',
      facts: { causes: ['forward-proxy', 'client-timeout'], viaForwardProxy: true, interruption: 'client-timeout', proxyBypassExpected: false },
      fires: false,
    },
    { name: 'near miss: the server answered 401 through the proxy', facts: { httpStatus: 401, causes: ['forward-proxy', 'auth-rejected'], viaForwardProxy: true }, fires: false },
    { name: 'near miss: a timeout with no proxy in sight', facts: { causes: ['client-timeout'], interruption: 'client-timeout' }, fires: false },
  ],
};

// RFC 9110 §15.6.3 and §15.6.5: 502 and 504 are answered by a server "acting as a gateway or proxy". A client
// that dials a server on its own machine (localhost, 127.0.0.1, ::1) has no gateway in the path unless one was
// put there: a forward proxy taken from the environment without loopback in NO_PROXY (the hosts' fixes cited
// above), or a local reverse proxy or port forward whose upstream is not running. With no proxy log in the
// incident to say which, the answer is still the same kind: the path to the local server is misconfigured, and
// a retry takes the same path. (A 503 is not counted: a server can say it is unavailable itself.)
export const gatewayForLocalServer: Rule = {
  id: 'gateway-answered-for-local-server',
  decision: 'fix_route_or_config',
  source: 'RFC 9110 §15.6.3, §15.6.5 (502/504 come from a gateway or proxy) · triage-rules.md decision table (route, proxy) · the forward-proxy fixes above',
  when(f) {
    if (f.localTarget !== true) return 'the target is not this machine (or not in the logs)';
    if (f.httpStatus !== 502 && f.httpStatus !== 504) return 'not a gateway answer (502/504)';
    if (f.proxyLogged) return "a proxy's own log is in the incident: what it says about its upstream decides";
    if (f.bodyKind === 'jsonrpc-error') return 'the MCP server itself answered (a JSON-RPC error body)';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was answered ${f.httpStatus} by a gateway${f.target ? ` for ${f.target.host}${f.target.port ? `:${f.target.port}` : ''}` : ''}, an address on the client's own machine: nothing should stand between a client and a local server, so something was put in the path — an HTTP(S) proxy from the environment (HTTP_PROXY/HTTPS_PROXY/ALL_PROXY without localhost, 127.0.0.1 and ::1 in NO_PROXY) or a local reverse proxy or port forward whose upstream is not running. Check the client's proxy settings and what listens on that port; a retry takes the same path.`,
  examples: [
    {
      name: 'legacy SSE GET to 127.0.0.1 answered 502',
      facts: { httpStatus: 502, httpMethod: 'GET', era: 'legacy-sse', localTarget: true, target: { scheme: 'http', host: '127.0.0.1', port: 8240 } },
      fires: true,
    },
    { name: 'localhost 504', facts: { httpStatus: 504, localTarget: true }, fires: true },
    {
      name: 'near miss: a public host answered 502',
      facts: { httpStatus: 502, localTarget: false, target: { scheme: 'https', host: 'mcp.example.com', port: null } },
      fires: false,
    },
    { name: 'near miss: the local nginx logged its own 502', facts: { httpStatus: 502, localTarget: true, proxyLogged: true }, fires: false },
    { name: 'near miss: a local server saying 503 itself', facts: { httpStatus: 503, localTarget: true }, fires: false },
    { name: 'near miss: a 502 whose target is not logged', facts: { httpStatus: 502 }, fires: false },
  ],
};

// A forward proxy whose access rules deny the MCP host answers the client's CONNECT itself (Squid's TCP_DENIED/403
// with HIER_NONE: no server contacted; CPython's `Tunnel connection failed: 403`, undici's `Proxy response (403) !==
// 200 when HTTP Tunneling`, curl's `CONNECT tunnel failed, response 403`). The 403 is the proxy's, not the MCP
// server's: no credential of the MCP server changes it, and nothing reached the server, so even a write did nothing.
// The proxy's ACL must allow the host (or NO_PROXY route around it) — configuration, however often it is retried.
export const forwardProxyRefused: Rule = {
  id: 'forward-proxy-refused-tunnel',
  decision: 'fix_route_or_config',
  source: 'Squid access.log TCP_DENIED · CPython http.client _tunnel · undici ProxyAgent · curl CONNECT · triage-rules.md decision table (route/config)',
  when(f) {
    if (f.tunnelRefused === null) return 'no forward proxy refused to tunnel to the MCP host';
    if (f.writeEvidence) return 'the server logged work for this request, so it was delivered';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} never reached the MCP server: the forward HTTP(S) proxy on the way refused to open a tunnel to ${f.target ? `${f.target.host}${f.target.port ? `:${f.target.port}` : ''}` : 'its host'} (${f.tunnelRefused}) — its access rules deny that host, and the 403 is the proxy's, not the server's. Allow the host in the proxy's ACL (or add it to NO_PROXY where the network allows a direct connection); nothing ran, so the calls are safe to send once the path is open. Credentials and retries do not change it.`,
  examples: [
    {
      name: "a client's 403 beside Squid's TCP_DENIED CONNECT to the same host",
      facts: { method: 'tools/call', tool: 'enrich_lead', httpStatus: 403, tunnelRefused: 'access.log:7' },
      fires: true,
    },
    { name: 'urllib3: Tunnel connection failed: 403', facts: { method: 'initialize', causes: ['forward-proxy-denied'], tunnelRefused: 'client.log:3' }, fires: true },
    { name: "near miss: the MCP server's own 403", facts: { method: 'tools/call', httpStatus: 403, causes: ['auth-rejected'], tunnelRefused: null }, fires: false },
  ],
};
