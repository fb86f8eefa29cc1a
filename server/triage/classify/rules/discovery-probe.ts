import type { Rule } from '../rule.ts';
import { has } from '../rule.ts';

// MCP spec basic/authorization (authorization server discovery): clients probe the protected-resource
// metadata (path-inserted, then root) and the authorization server's RFC 8414 / OIDC documents; a server
// that does not use OAuth answers 404, and that is its answer, not a broken route. Browsers and crawlers
// ask any origin for /favicon.ico and /robots.txt. Neither is an MCP request: optional.
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
    if (f.httpStatus !== null && f.httpStatus !== 404 && f.httpStatus !== 405 && f.httpStatus !== 400)
      return `the probe got HTTP ${f.httpStatus}, not a "none here" answer (something in front may intercept the discovery path)`;
    return true;
  },
  rationale: (f) =>
    `A probe for ${f.httpPath && f.httpPath.includes('well-known') ? `OAuth metadata (${f.httpPath})` : `a browser asset${f.httpPath ? ` (${f.httpPath})` : ''}`} was answered ${f.httpStatus ?? 'with an error'}: clients look for authorization metadata before or after connecting, and a server that does not use OAuth has none. No MCP request failed. It matters only if the same server also answers 401 — then the client cannot discover where to authenticate (fix_auth).`,
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
    { name: 'favicon 404', facts: { httpMethod: 'GET', httpStatus: 404, httpPath: '/favicon.ico', causes: ['discovery-probe'] }, fires: true },
    { name: 'metadata answered 401 (intercepted)', facts: { httpMethod: 'GET', httpStatus: 401, causes: ['discovery-probe', 'auth-rejected'] }, fires: false },
    { name: 'a tools/call 404', facts: { httpMethod: 'POST', httpStatus: 404, method: 'tools/call' }, fires: false },
  ],
};
