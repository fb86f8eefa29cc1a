import type { Rule } from '../rule.ts';
import { describe } from '../rule.ts';

// failure-signatures (a.1) "Unknown method" row (2024-11-05 … 2025-11-25: JSON-RPC -32601 in the body, HTTP
// status not specified — the TypeScript SDK answers it inside a 200) and D13 (the same -32601 under 2026-07-28,
// there with a 404); triage-rules.md §3 ("-32601 means method not supported — not a session problem; do not
// clear anything"). The capability mismatch is fixed in configuration (which server, which features), so the
// decision is the one D13 maps to: fix_route_or_config. Retrying or re-initializing sends the same call to the
// same server and gets the same answer.
export const unknownMethod2025: Rule = {
  id: 'method-not-found-2025',
  decision: 'fix_route_or_config',
  source: 'failure-signatures (a.1) unknown method, D13 · triage-rules.md §3',
  when(f) {
    if (f.jsonRpcCode !== -32601) return 'no JSON-RPC -32601 (Method not found) answer';
    if (f.era === 'sessionless') return 'a 2026-07-28 exchange (its -32601 comes with a 404: method-not-supported-2026)';
    if (f.httpStatus !== null && f.httpStatus >= 400) return `the -32601 came with HTTP ${f.httpStatus}, not inside a complete 2xx answer (a 404 there is a route or session question)`;
    if (f.interruption !== null) return 'the request was interrupted: the -32601 is not the server\'s complete answer';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} got a complete answer without an HTTP error status, carrying JSON-RPC error -32601 Method not found: the server does not implement ${f.method ?? 'that method'}${f.session ? ` — the session itself is fine` : ''}. This is a capability mismatch between client and server, not a transport failure: re-initializing or retrying sends the same call to the same server and gets the same answer. Make the host check the server's capabilities from initialize before calling ${f.method ?? 'it'} (or turn the feature off for this server), or enable the feature on the server. If the server does advertise that capability and still answers -32601, that is a server defect: escalate to its owners.`,
  examples: [
    { name: 'resources/subscribe answered -32601 in a 200 SSE response (TS SDK server without resources)', facts: { method: 'resources/subscribe', rpcId: 3, era: 'session', jsonRpcCode: -32601, session: 'sess_aaaaaaaaaa', sessionSent: true, text: 'McpError: MCP error -32601: Method not found' }, fires: true },
    { name: '2026 404 -32601', facts: { httpStatus: 404, era: 'sessionless', jsonRpcCode: -32601, bodyKind: 'jsonrpc-error', method: 'subscriptions/listen' }, fires: false },
    { name: 'python 2.x synthesized Not Found -32601 with a 404 on the first request', facts: { httpStatus: 404, era: 'session', jsonRpcCode: -32601, firstRequest: true, method: 'initialize' }, fires: false },
    { name: 'a -32001 session error', facts: { httpStatus: 404, era: 'session', jsonRpcCode: -32001, sessionSent: true }, fires: false },
  ],
};
