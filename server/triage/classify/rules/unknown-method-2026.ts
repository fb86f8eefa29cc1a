import type { Rule } from '../rule.ts';
import { describe } from '../rule.ts';

// triage-rules.md §3 (2026-07-28: 404 + -32601 = method not supported, not a session problem);
// failure-signatures D13, row 89.
export const unknownMethod2026: Rule = {
  id: 'method-not-supported-2026',
  decision: 'fix_route_or_config',
  source: 'triage-rules.md §3 · failure-signatures D13, row 89',
  when(f) {
    if (f.httpStatus !== 404) return 'status is not 404';
    if (f.era !== 'sessionless') return 'not a 2026-07-28 exchange (a session-era 404 is about the session or the route)';
    if (f.jsonRpcCode !== -32601 || f.bodyKind !== 'jsonrpc-error') return 'the 404 body is not a JSON-RPC -32601 error';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} got 404 with JSON-RPC error -32601 under protocol 2026-07-28: the server does not implement ${f.method ?? 'that method'}. It is not a session problem (2026-07-28 has none) and not a reason to fall back to the legacy transport. Call a method the server supports (check server/discover), or upgrade the server; do not clear or re-create anything.`,
  examples: [
    { name: '2026 404 -32601 on subscriptions/listen', facts: { httpStatus: 404, era: 'sessionless', jsonRpcCode: -32601, bodyKind: 'jsonrpc-error', method: 'subscriptions/listen' }, fires: true },
    { name: 'python 2.x synthesized Not Found -32601 on a first request, session era', facts: { httpStatus: 404, era: 'session', jsonRpcCode: -32601, firstRequest: true, method: 'initialize' }, fires: false },
    { name: '2026 404 with an HTML body', facts: { httpStatus: 404, era: 'sessionless', bodyKind: 'html' }, fires: false },
  ],
};
