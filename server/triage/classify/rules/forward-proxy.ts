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
