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
