import type { Rule } from '../rule.ts';
import { describe, has } from '../rule.ts';

// failure-signatures rows 31, 57 and D17 (Invalid Host header 421 / Invalid Origin header 403): the
// server's DNS-rebinding protection rejects the Host or Origin a proxy or client sends. Configuration
// (allowed hosts/origins, the proxy's Host header), not credentials.
export const hostOrigin: Rule = {
  id: 'host-origin-rejected',
  decision: 'fix_route_or_config',
  source: 'failure-signatures rows 31, 57, D17',
  when(f) {
    if (f.causes.includes('host-origin-rejected')) return true;
    if (f.httpStatus === 421) return true;
    return 'no Host/Origin rejection and no 421';
  },
  rationale: (f) =>
    `${describe(f)} was rejected by the server's DNS-rebinding protection (Invalid Host/Origin header${f.httpStatus ? `, HTTP ${f.httpStatus}` : ''}): the Host or Origin that reached it is not on its allowed list. Add the host (and port) or origin to the server's allowed hosts/origins (e.g. MCP_ALLOWED_HOSTS), or make the proxy forward the expected Host. Credentials are not the problem; retrying repeats the rejection.`,
  examples: [
    { name: 'Invalid Host header then 421', facts: { httpStatus: 421, causes: ['host-origin-rejected'] }, fires: true },
    { name: 'a 403 without host/origin wording', facts: { httpStatus: 403, causes: ['auth-rejected'] }, fires: false },
  ],
};

// spec 2024-11-05 basic/transports (HTTP+SSE: the `endpoint` event names where to POST); typescript-sdk
// client/sse.ts, python-sdk client/sse.py and mcp-go refuse an endpoint on another origin than the SSE URL's.
// The server announced its own idea of its address (a hard-coded base URL, or a Host/scheme its proxy did not
// forward): nothing in the client's settings changes that announcement, so it goes to the server's owners.
export const endpointOrigin: Rule = {
  id: 'endpoint-origin-mismatch',
  decision: 'escalate',
  source: 'spec 2024-11-05 basic/transports · typescript-sdk src/client/sse.ts · python-sdk src/mcp/client/sse.py',
  when(f) {
    if (has(f, 'endpoint-origin-mismatch')) return true;
    return 'the client did not refuse the announced endpoint for its origin';
  },
  rationale: () =>
    "The server's legacy SSE stream announced a message endpoint (its `endpoint` event) on another origin — scheme, host or port — than the URL the client connected to, and the client refused to post there (\"Endpoint origin does not match connection origin\"). The server builds that URL from what it believes its own address is, so nothing in the client's settings changes it, and retrying or reinitializing gets the same announcement. Escalate to the server's owners: it must announce a relative path or its public base URL, and a proxy in front of it must forward Host and X-Forwarded-Proto/Port.",
  examples: [
    { name: 'Endpoint origin does not match connection origin', facts: { causes: ['endpoint-origin-mismatch', 'transport-legacy'] }, fires: true },
    { name: 'an Invalid Origin header refusal (the server refused the client)', facts: { httpStatus: 403, causes: ['host-origin-rejected'] }, fires: false },
  ],
};

// spec 2024-11-05 basic/transports (HTTP+SSE: the `endpoint` event is "a URI for the client to use for sending
// messages") · RFC 3986 §5.2 (how a relative reference resolves against the SSE URL) · triage-rules.md decision
// table (escalate: a defect no configuration fixes). The client posted to a path the server never named — the
// announced absolute path glued onto its own stream path, or a query-only reference resolved against `/` —
// so the 404/405/406 it got says nothing about the route or the server: no URL the user configures changes how
// that client joins the two. The server's own announcement is not at fault (that is endpoint-origin-mismatch,
// or a mount prefix the announcement left out: a 404 on exactly the announced path stays route-404, D12).
export const endpointMisresolved: Rule = {
  id: 'endpoint-misresolved',
  decision: 'escalate',
  source: 'spec 2024-11-05 basic/transports (HTTP with SSE) · RFC 3986 §5.2 · triage-rules.md decision table',
  when(f) {
    if (f.endpointMisresolved === null) return 'the client used the message URL the endpoint event named (or the log does not show both)';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was sent to a message URL the server never announced (${f.endpointMisresolved}). The client built the URL wrongly from the legacy transport's endpoint event — a reference is resolved against the SSE URL by RFC 3986 (an absolute path replaces the path, a query-only one keeps it) — so the server's answer there says nothing about the route or the server, and no setting of the server or proxy fixes it. Escalate to the client's maintainers with these two lines; meanwhile a client that resolves the endpoint correctly, or the Streamable HTTP transport, avoids it.`,
  examples: [
    {
      name: 'announced /mcp/message, posted to /sse/mcp/message, 404',
      facts: {
        httpStatus: 404,
        method: 'initialize',
        endpointMisresolved: 'c.log:6: the request went to /sse/mcp/message, but the endpoint event (c.log:4) named /mcp/message?sessionId=s, which resolves to /mcp/message',
      },
      fires: true,
    },
    {
      name: 'a 404 on the announced path (a mount prefix the announcement left out)',
      facts: { httpStatus: 404, method: 'initialize', causes: ['legacy-message-rejected'] },
      fires: false,
    },
  ],
};

// Fetch standard (CORS protocol) · spec basic/transports: a browser-based client sends the MCP headers on every
// request (Mcp-Method, Mcp-Name, MCP-Protocol-Version, Authorization), so each POST is preflighted; a preflight
// answer that does not allow them (or no Access-Control-Allow-Origin) stops the request in the browser. The
// request never reached the MCP handler: the server's or proxy's CORS settings are to fix, not the client.
export const corsRefused: Rule = {
  id: 'cors-refused',
  decision: 'fix_route_or_config',
  source: 'Fetch standard (CORS protocol) · spec basic/transports',
  when(f) {
    if (has(f, 'cors-refused')) return true;
    return 'no cross-origin refusal';
  },
  rationale: (f) =>
    `${describe(f)} was refused by the browser's cross-origin check: the CORS preflight (or the answer) did not allow what the request carries — its origin, its method, or the MCP headers every request sends (Mcp-Method, Mcp-Name, MCP-Protocol-Version, Authorization). The request never reached the MCP handler, so nothing was done. Add the origin and those headers to the server's or proxy's CORS policy (Access-Control-Allow-Origin, -Headers, -Methods; and expose the headers the client reads); retrying gets the same refusal.`,
  examples: [
    { name: 'a header not allowed in the CORS policy', facts: { causes: ['cors-refused'] }, fires: true },
    { name: 'an Invalid Origin refusal by DNS-rebinding protection', facts: { httpStatus: 403, causes: ['host-origin-rejected'] }, fires: false },
  ],
};
