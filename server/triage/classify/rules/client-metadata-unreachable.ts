import type { Rule } from '../rule.ts';
import { describe } from '../rule.ts';

// MCP authorization spec 2025-11-25 (Client ID Metadata Documents) and draft-ietf-oauth-client-id-metadata-document:
// the client's id is a URL and the authorization server fetches its metadata document from it before it
// registers the client. When that fetch gets a non-2xx answer (a WAF or bot rule in front of the client's host,
// the server's egress blocked, a wrong document URL), the server rejects the client ("Unknown OAuth client",
// "Authorization … failed"): no token, scope or user credential was judged, so re-authenticating meets the same
// refusal. The fix is on the path between the authorization server and the metadata document.
export const clientMetadataUnreachable: Rule = {
  id: 'client-metadata-unreachable',
  decision: 'fix_route_or_config',
  source: 'MCP authorization spec 2025-11-25 (Client ID Metadata Documents) · draft-ietf-oauth-client-id-metadata-document',
  when(f) {
    if (f.clientMetadataUnreachableAt === null) return "no authorization server logged a failed fetch of the client's metadata document";
    return true;
  },
  rationale: (f) =>
    `${describe(f)} failed in the OAuth flow, and the authorization server logged (${f.clientMetadataUnreachableAt}) that fetching the client's metadata document — the URL the client uses as its client_id — got a non-2xx answer${f.httpStatus ? ` (HTTP ${f.httpStatus})` : ''}. The server could not read who the client is, so it refused the registration before any credential was judged: signing in again meets the same refusal. Fix the path from the authorization server to that URL — a CDN/WAF or bot rule in front of the client's host, the server's outbound firewall or proxy, DNS — and check the URL answers 200 with JSON from the server's network; then authorize again.`,
  examples: [
    {
      name: '"Unknown OAuth client" after the server got 403 fetching the client metadata document',
      facts: { causes: ['oauth-flow-failed'], clientMetadataUnreachableAt: 'oauth.log:3' },
      fires: true,
    },
    {
      name: "the server's own line: [CIMD] rejected: non-200 status 403",
      facts: { httpStatus: 403, causes: ['oauth-flow-failed', 'client-metadata-unreachable'], clientMetadataUnreachableAt: 'oauth.log:3' },
      fires: true,
    },
    {
      name: 'near miss: invalid_client with no failed metadata fetch logged',
      facts: { httpStatus: 401, causes: ['oauth-flow-failed'], clientMetadataUnreachableAt: null },
      fires: false,
    },
    { name: 'near miss: a 401 invalid_token on tools/call', facts: { httpStatus: 401, method: 'tools/call', causes: ['auth-rejected'] }, fires: false },
  ],
};
