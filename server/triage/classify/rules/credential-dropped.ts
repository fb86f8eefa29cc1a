import type { Rule } from '../rule.ts';
import { describe, has } from '../rule.ts';

// failure-signatures D17 sends a 401 to fix_auth: the credentials were refused or are missing. When the server
// says no credential arrived at all (typescript-sdk requireBearerAuth: `Missing Authorization header`) while the
// client shows it sent one on that request, the credential is fine and was lost on the way: a hop that drops or
// overwrites the header (nginx drops headers whose names hold underscores unless underscores_in_headers is on;
// `proxy_set_header Authorization …` replaces it), or a redirect the client followed to another origin, which
// drops Authorization (RFC 9110 §15.4; Fetch strips it on a cross-origin redirect). Re-authenticating changes
// nothing; the route or the proxy's configuration does.
export const credentialDropped: Rule = {
  id: 'credential-dropped-on-the-way',
  decision: 'fix_route_or_config',
  source: 'failure-signatures D17 · typescript-sdk server/auth/middleware/bearerAuth.ts · RFC 9110 §15.4 · nginx underscores_in_headers, proxy_set_header',
  when(f) {
    if (!has(f, 'credentials-not-received')) return 'the server did not say the request carried no credential';
    if (!f.credentialSentAt) return 'nothing shows the client sent a credential with it: it may have none (fix_auth)';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was refused because no credential arrived ("missing Authorization header"), yet the client sent one with it (${f.credentialSentAt}): the header was lost between the client and the server. A hop dropped or overwrote it — a proxy that drops headers it does not pass on (nginx: names with underscores unless underscores_in_headers is on; a proxy_set_header for Authorization), or a redirect to another origin, after which clients drop Authorization (RFC 9110 §15.4). Re-authenticating does not help: send the request to the server's final URL, or make each hop pass Authorization through.`,
  examples: [
    {
      name: '401 "Missing Authorization header" to a request curl shows sent with a bearer token',
      facts: { httpStatus: 401, causes: ['credentials-not-received', 'auth-rejected'], signals: ['credential-not-received', 'auth-unauthorized'], credentialSentAt: 'curl.txt:5' },
      fires: true,
    },
    {
      name: 'near miss: the same 401 and nothing shows a credential sent (the client has none)',
      facts: { httpStatus: 401, causes: ['credentials-not-received', 'auth-rejected'], signals: ['credential-not-received', 'auth-unauthorized'], credentialSentAt: null },
      fires: false,
    },
    { name: 'near miss: a credential sent and refused as invalid', facts: { httpStatus: 401, causes: ['auth-rejected'], signals: ['auth-unauthorized'] }, fires: false },
  ],
};

// HTTP clients drop the Authorization header when they follow a redirect to another origin — Fetch (undici) on a
// cross-origin redirect, httpx `_redirect_headers` when the origin or scheme changes, requests `rebuild_auth` on a
// new host — so a 401 that comes right after the same request was redirected (a trailing-slash 307, a Location built
// with the wrong scheme behind a TLS proxy: failure-signatures row 36) is the credential lost on the way, not a bad
// one: fetching a new token changes nothing. Configure the exact endpoint URL so no redirect is needed (and let the
// server honour X-Forwarded-Proto). A 401 saying invalid_token after a redirect means the token did arrive.
export const credentialDroppedOnRedirect: Rule = {
  id: 'credential-dropped-on-redirect',
  decision: 'fix_route_or_config',
  source: 'failure-signatures row 36 · Fetch standard (Authorization removed on cross-origin redirect) · httpx _redirect_headers · requests rebuild_auth',
  when(f) {
    if (f.httpStatus !== 401) return 'not a 401';
    if (f.redirectBeforeRefusal === null) return 'no redirect of the same request came just before the 401';
    if (has(f, 'auth-token-expired')) return 'the refusal says the token arrived and is invalid or expired';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was refused 401 right after the same request was redirected (${f.redirectBeforeRefusal}): HTTP clients drop the Authorization header when they follow a redirect to another origin (a trailing-slash 307, or a Location built with http:// behind a TLS proxy), so the server saw no credential — the credential is not the problem and a new token will not help. Configure the exact endpoint URL (with or without the trailing slash, https) so no redirect is needed, and let the server build its URLs from the forwarded scheme.`,
  examples: [
    {
      name: 'a 401 right after a 307 to /mcp/',
      facts: { method: 'tools/call', tool: 'list_pending', httpStatus: 401, causes: ['auth-challenge'], redirectBeforeRefusal: 'server.log:11' },
      fires: true,
    },
    {
      name: 'near miss: a 401 with no redirect before it',
      facts: { method: 'tools/call', httpStatus: 401, causes: ['auth-challenge'], redirectBeforeRefusal: null },
      fires: false,
    },
    {
      name: 'near miss: invalid_token after a redirect (the token arrived)',
      facts: { httpStatus: 401, causes: ['auth-token-expired'], redirectBeforeRefusal: 'server.log:11' },
      fires: false,
    },
  ],
};
