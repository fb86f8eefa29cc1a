import type { Rule } from '../rule.ts';
import { has } from '../rule.ts';

// MCP spec basic/authorization (authorization server discovery): clients probe the protected-resource
// metadata (path-inserted, then root) and the authorization server's RFC 8414 / OIDC documents; a server
// that does not use OAuth answers 404, and that is its answer, not a broken route. Browsers and crawlers
// ask any origin for /favicon.ico and /robots.txt; scanners ask any public origin for /.env, /.git/config,
// /wp-login.php. None of them is an MCP request: optional.
/** The answers a probe gets where there is nothing to find: none here, not this method, not understood. */
const NONE_HERE = new Set([400, 404, 405]);

export const discoveryProbe: Rule = {
  id: 'discovery-probe',
  decision: 'no_action',
  source: 'MCP spec basic/authorization (authorization server discovery) · cli-contract.md (optional)',
  role: 'optional',
  when(f) {
    if (!has(f, 'discovery-probe')) return 'not a metadata or asset probe';
    if (f.method !== null || f.tool !== null) return 'the failing exchange is an MCP request';
    // a 401 that names the metadata URL (`WWW-Authenticate: Bearer resource_metadata="…/.well-known/…"`)
    // is the MCP request's own refusal, not a probe of that URL
    if (has(f, 'auth-rejected', 'auth-token-expired', 'auth-challenge') && (f.httpPath === null || !f.httpPath.includes('/.well-known/')))
      return 'an auth refusal that points at the metadata, not a request for it';
    if (f.httpStatus !== null && !NONE_HERE.has(f.httpStatus))
      return `the probe got HTTP ${f.httpStatus}, not a "none here" answer (something in front may intercept the discovery path)`;
    return true;
  },
  rationale: (f) =>
    `A probe for ${f.httpPath && f.httpPath.includes('well-known') ? `OAuth metadata (${f.httpPath})` : f.signals.includes('scanner-probe') ? `a path scanners try on every public server${f.httpPath ? ` (${f.httpPath})` : ''}` : `a browser asset${f.httpPath ? ` (${f.httpPath})` : ''}`} was answered ${f.httpStatus ?? 'with an error'}: clients look for authorization metadata before or after connecting, and a server that does not use OAuth has none. No MCP request failed. It matters only if the same server also answers 401 — then the client cannot discover where to authenticate (fix_auth).`,
  examples: [
    {
      name: 'a 401 whose challenge names resource_metadata=…/.well-known/…',
      facts: { httpMethod: 'POST', httpPath: '/mcp', causes: ['discovery-probe', 'auth-rejected'] },
      fires: false,
    },
    {
      name: 'protected-resource metadata 404',
      facts: { httpMethod: 'GET', httpStatus: 404, httpPath: '/.well-known/oauth-protected-resource/mcp', causes: ['discovery-probe'] },
      fires: true,
    },
    {
      name: "a scanner's /.env refused by the framework",
      facts: { causes: ['discovery-probe', 'route-missing'], signals: ['scanner-probe', 'framework-cannot-route'] },
      fires: true,
    },
    { name: 'favicon 404', facts: { httpMethod: 'GET', httpStatus: 404, httpPath: '/favicon.ico', causes: ['discovery-probe'] }, fires: true },
    { name: 'metadata answered 401 (intercepted)', facts: { httpMethod: 'GET', httpStatus: 401, causes: ['discovery-probe', 'auth-rejected'] }, fires: false },
    { name: 'a tools/call 404', facts: { httpMethod: 'POST', httpStatus: 404, method: 'tools/call' }, fires: false },
  ],
};

// MCP spec basic/authorization (protected resource metadata, RFC 9728; authorization server metadata, RFC
// 8414 / OIDC discovery): the client needs these documents to find where to authenticate. Answered with
// anything but "none here" (404, 405, 400) — a 406 or 403 from a gateway that intercepts the path, a 5xx —
// the discovery itself is broken, so authorization cannot start: the auth setup in front of the server
// (the gateway's MCP auth, the metadata route) needs fixing, not the MCP route.
export const oauthDiscoveryFailed: Rule = {
  id: 'oauth-discovery-failed',
  decision: 'fix_auth',
  source: 'MCP spec basic/authorization (authorization server discovery) · RFC 9728 · RFC 8414',
  when(f) {
    if (!has(f, 'discovery-probe')) return 'not a metadata probe';
    if (f.method !== null || f.tool !== null) return 'the failing exchange is an MCP request';
    if (f.httpPath === null || !(f.httpPath.includes('/.well-known/oauth-') || f.httpPath.includes('/.well-known/openid-configuration')))
      return 'not an OAuth or OIDC metadata document';
    if (f.httpStatus === null || f.httpStatus < 400 || NONE_HERE.has(f.httpStatus)) return 'the probe got a "none here" answer (or none at all)';
    return true;
  },
  rationale: (f) =>
    `The client's OAuth discovery request for ${f.httpPath} was answered HTTP ${f.httpStatus}, not the metadata document and not a "none here" 404: whatever answers that path (a gateway or proxy in front of the server, an auth plugin) breaks discovery, so the client cannot learn where to authenticate. Configure authorization where the path is answered — the gateway's MCP auth or a route that serves the protected-resource and authorization-server metadata — then connect again.`,
  examples: [
    {
      name: 'a gateway answers the protected-resource metadata 406',
      facts: { httpMethod: 'GET', httpStatus: 406, httpPath: '/.well-known/oauth-protected-resource', causes: ['discovery-probe'] },
      fires: true,
    },
    {
      name: 'authorization-server metadata 502',
      facts: { httpMethod: 'GET', httpStatus: 502, httpPath: '/.well-known/oauth-authorization-server/mcp', causes: ['discovery-probe'] },
      fires: true,
    },
    {
      name: 'near miss: metadata 404 (no OAuth here)',
      facts: { httpMethod: 'GET', httpStatus: 404, httpPath: '/.well-known/oauth-protected-resource', causes: ['discovery-probe'] },
      fires: false,
    },
    { name: 'near miss: favicon 500', facts: { httpMethod: 'GET', httpStatus: 500, httpPath: '/favicon.ico', causes: ['discovery-probe'] }, fires: false },
  ],
};
