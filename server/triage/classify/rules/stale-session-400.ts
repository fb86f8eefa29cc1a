import type { Rule } from '../rule.ts';
import { describe } from '../rule.ts';

// failure-signatures D11, rows 24, 51 (and 37 for the legacy transport): a non-compliant server
// answers 400 "No valid session ID provided" (or another "unknown session" wording) for a
// session it lost, while the request DID carry a session id.
export const SESSION_LOST = /No valid session ID|unknown session|Session not found|Invalid or expired session|expired session|Could not find session|Transport not found for sessionId|No transport found for sessionId|Invalid session ID|session (?:has been )?terminated/i;

export const staleSession400: Rule = {
  id: 'stale-session-400',
  decision: 'reinitialize',
  source: 'failure-signatures D11, rows 24, 37, 51',
  when(f) {
    if (f.httpStatus !== 400 && f.httpStatus !== 503) return 'status is not 400 (or 503)';
    if (f.era === 'sessionless') return 'protocol 2026-07-28 has no sessions';
    if (!f.sessionSent) return 'the request carried no session id (a missing header is a client/proxy problem)';
    if (!SESSION_LOST.test(f.text)) return 'the answer does not say the session is unknown';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} carried session ${f.session ?? '(id)'} and got ${f.httpStatus} "${(SESSION_LOST.exec(f.text)?.[0] ?? 'unknown session').slice(0, 50)}": the server lost the session (restart, expiry or another worker) and answers with a non-compliant 400 instead of 404. Reinitialize — close the old transport, fresh initialize without the old id — rather than "fixing headers"; also file a server bug (it should answer 404). The rejected call never ran, so re-sending it on the new session is safe.`,
  examples: [
    { name: 'TS example server after a restart', facts: { httpStatus: 400, sessionSent: true, sessionAssignedEarlier: true, session: 'sess_aaaaaaaaaa', era: 'session', method: 'tools/call', text: '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"},"id":null}' }, fires: true },
    { name: 'same text, but no session id sent', facts: { httpStatus: 400, sessionSent: false, text: 'Bad Request: No valid session ID provided' }, fires: false },
    { name: 'unsupported protocol version', facts: { httpStatus: 400, sessionSent: true, session: 'sess_aaaaaaaaaa', text: 'Bad Request: Unsupported protocol version: 2026-07-28' }, fires: false },
  ],
};
