import type { Rule } from '../rule.ts';
import { describe } from '../rule.ts';

// triage-rules.md §3; failure-signatures.md D10, rows 1, 25, 27, 50.
export const sessionExpired404: Rule = {
  id: 'session-expired-404',
  decision: 'reinitialize',
  source: 'triage-rules.md §3 · failure-signatures D10',
  when(f) {
    if (f.httpStatus !== 404) return 'status is not 404';
    if (f.era === 'sessionless') return 'protocol 2026-07-28 has no sessions: a 404 there is a route or an unknown method';
    if (!f.sessionSent) return 'the failing request carried no session id';
    if (!f.sessionAssignedEarlier) return 'no evidence the server had assigned that session id earlier';
    if (f.bodyKind === 'html') return 'the 404 is an HTML page (a proxy or a wrong path), not the MCP endpoint';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} carried session ${f.session} that the server had assigned earlier, and got 404 from the MCP endpoint: the session is gone. Close the old transport, create a new one and send a fresh initialize without the old id; then judge the original call on its own.`,
  examples: [
    { name: 'tools/call after restart', facts: { httpStatus: 404, sessionSent: true, sessionAssignedEarlier: true, session: 'sess_aaaaaaaaaa', method: 'tools/call', era: 'session', bodyKind: 'jsonrpc-error' }, fires: true },
    { name: 'first initialize 404', facts: { httpStatus: 404, firstRequest: true, method: 'initialize' }, fires: false },
    { name: 'html 404 with a session', facts: { httpStatus: 404, sessionSent: true, sessionAssignedEarlier: true, bodyKind: 'html', session: 'sess_aaaaaaaaaa' }, fires: false },
    { name: '2026 404', facts: { httpStatus: 404, sessionSent: true, sessionAssignedEarlier: true, era: 'sessionless', jsonRpcCode: -32601, bodyKind: 'jsonrpc-error' }, fires: false },
  ],
};
