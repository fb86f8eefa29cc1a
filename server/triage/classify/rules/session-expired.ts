import type { Rule } from '../rule.ts';
import { describe, has, signalWords } from '../rule.ts';

// triage-rules.md §3; failure-signatures D10 (404 on a request that carried an established session id,
// rows 1, 2, 25, 27, 50) and D11 (the same from a non-compliant server: 400 "No valid session ID
// provided" or another status with "unknown session" wording while a session id was sent, rows 24, 51).
// The server says it does not know the session — at any status and log level.
const lost = (f: Parameters<Rule['when']>[0]): true | string => {
  if (f.era === 'sessionless') return 'protocol 2026-07-28 has no sessions: a 404 there is a route or an unknown method';
  if (f.sessionUnknown !== true) return 'nothing shows the server did not know the session';
  if (f.sessionSent === false) return 'the request carried no session id (a missing header, not a lost session)';
  if (f.routeWrong === true) return 'the answer came from something other than the MCP endpoint (HTML page, no route)';
  if (f.method === 'initialize' && (f.sessionSent !== true || has(f, 'session-terminated-client')))
    return 'the refused request was itself an initialize carrying no old id: no established session was lost (initialize-refused-as-unknown-session)';
  return true;
};

// spec basic/lifecycle and transports (an initialize opens a session and carries none), failure-signatures
// rows 1 and 54: an initialize answered "session not found" with nothing showing it carried an old id. No
// established session was lost: the URL reaches something that answers with a 404, which the client words as
// a lost session (the Python SDK 1.x, mcp-go and the Go SDK say so for any 404), or the client re-used its old
// Mcp-Session-Id. (Shown carrying the old id, session-expired-404 says: initialize again without it.)
export const initializeRefusedUnknownSession: Rule = {
  id: 'initialize-refused-as-unknown-session',
  decision: 'fix_route_or_config',
  source: 'spec basic/lifecycle · failure-signatures rows 1, 54',
  when(f) {
    if (f.era === 'sessionless') return 'protocol 2026-07-28 has no sessions';
    if (f.method !== 'initialize') return 'not an initialize';
    if (f.routeWrong === true) return 'the URL is shown wrong (route-404 says why)';
    if (f.sessionUnknown !== true && !has(f, 'session-terminated-client')) return 'the initialize was not answered as an unknown session';
    // (an initialize shown carrying the old id was refused for that id: a fresh one without it is the cure — session-expired-404)
    if (f.sessionSent === true && !has(f, 'session-terminated-client'))
      return 'the initialize carried the old session id: reinitializing without it is the cure (session-expired-404)';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} — the request that opens a session — was answered as an unknown session (${signalWords(f, ['session-unknown', 'session-terminated-client'], 'session not found')})${f.attempts > 1 ? ` on ${f.attempts} attempts` : ''}. A correct initialize carries no session id, so no established session was lost and initializing again meets the same answer: most often the URL is wrong and the client words the 404 it got as a lost session (the Python SDK 1.x, mcp-go and the Go SDK do) — check the endpoint path; or the client re-used its old Mcp-Session-Id on the initialize — make it drop the id.`,
  examples: [
    {
      name: 'Go SDK: calling "initialize": session not found, no session sent',
      facts: { method: 'initialize', sessionUnknown: true, sessionSent: false, causes: ['session-unknown', 'session-terminated-client'] },
      fires: true,
    },
    {
      name: 'near miss: an initialize shown carrying the old id (initialize again without it)',
      facts: { method: 'initialize', httpStatus: 404, sessionUnknown: true, sessionSent: true, causes: ['session-unknown'] },
      fires: false,
    },
    { name: 'a 404 on initialize, no header shown', facts: { method: 'initialize', httpStatus: 404, sessionUnknown: true, causes: ['session-unknown'] }, fires: true },
    {
      name: 'near miss: tools/call on a lost session',
      facts: { method: 'tools/call', httpStatus: 404, sessionUnknown: true, sessionSent: true, causes: ['session-unknown'] },
      fires: false,
    },
    { name: 'near miss: initialize refused for another reason', facts: { method: 'initialize', httpStatus: 400, causes: ['protocol-version-unsupported'] }, fires: false },
  ],
};

export const sessionExpired404: Rule = {
  id: 'session-expired-404',
  decision: 'reinitialize',
  source: 'triage-rules.md §3 · failure-signatures D10',
  when(f) {
    // the Python SDK synthesises "Session terminated" only for a 404 (streamable_http.py
    // _send_session_terminated_error): the status line itself may be on another line, or not logged
    if (f.httpStatus !== 404 && !(f.httpStatus === null && has(f, 'session-terminated-client'))) return 'status is not 404';
    return lost(f);
  },
  rationale: (f) =>
    `${
      f.restartedSinceWorked && !f.session && f.sessionSent !== true
        ? `${describe(f)} got 404 on a path that had answered before the server restarted (a process start or shutdown is logged between): its session lived in the old process and is gone.`
        : f.sameRequestWorkedAt && !f.session && f.sessionSent !== true
          ? `${f.httpMethod} ${f.httpPath} got 404 although the same ${f.httpMethod} to ${f.httpPath} had been answered 2xx before (${f.sameRequestWorkedAt}): the endpoint routes it, so the path is not wrong. On the Streamable HTTP endpoint a 404 there means the server no longer holds the session the request carried (spec: a server that terminated a session answers 404). The log shows neither the Mcp-Session-Id header nor the body, so this is inferred, not read: a body with JSON-RPC -32601 would mean an unsupported method instead.`
          : `${describe(f)} ${f.session ? `carried session ${f.session}` : 'carried a session id'}${f.sessionAssignedEarlier ? ' that the server had assigned earlier' : ''} and got 404 (${signalWords(f, ['session-unknown', 'session-invalid', 'session-terminated-client'], 'session not found')}): the session is gone (restart, eviction or DELETE).`
    } Close the old transport, create a new one and send a fresh initialize without the old id; then judge the original call on its own (a write that got 404 was rejected before it ran).`,
  examples: [
    {
      name: 'tools/call after restart',
      facts: {
        httpStatus: 404,
        sessionSent: true,
        sessionAssignedEarlier: true,
        sessionUnknown: true,
        session: 'sess_aaaaaaaaaa',
        method: 'tools/call',
        era: 'session',
        bodyKind: 'jsonrpc-error',
      },
      fires: true,
    },
    { name: 'lone client line quoting the server: unknown whether a header was sent', facts: { httpStatus: 404, sessionUnknown: true, causes: ['session-unknown'] }, fires: true },
    {
      name: 'access log only: a 404 on a path that had worked, the server restarted between',
      facts: { httpStatus: 404, sessionUnknown: true, restartedSinceWorked: true, era: 'unknown' },
      fires: true,
    },
    {
      name: "Python SDK 'Session terminated' with the 404 on another line",
      facts: {
        httpStatus: null,
        sessionUnknown: true,
        sessionAssignedEarlier: true,
        method: 'tools/call',
        causes: ['session-terminated-client'],
        signals: ['python-session-terminated'],
      },
      fires: true,
    },
    {
      name: 'access log only: a POST 404 on a path whose POSTs were answered 2xx before, no restart logged',
      facts: { httpStatus: 404, httpMethod: 'POST', httpPath: '/mcp', sessionUnknown: true, sameRequestWorkedAt: 'access.log:2', pathWorked: true, routeWrong: false },
      fires: true,
    },
    {
      name: 'near miss: a 404 on a path that never answered 2xx (no session loss shown)',
      facts: { httpStatus: 404, httpMethod: 'POST', httpPath: '/mcp', sessionUnknown: null, pathWorked: false, routeWrong: true },
      fires: false,
    },
    { name: 'html 404 with a session', facts: { httpStatus: 404, sessionSent: true, sessionUnknown: null, routeWrong: true, bodyKind: 'html' }, fires: false },
    { name: '2026 404', facts: { httpStatus: 404, sessionSent: true, era: 'sessionless', jsonRpcCode: -32601 }, fires: false },
  ],
};

export const staleSession400: Rule = {
  id: 'stale-session-400',
  decision: 'reinitialize',
  source: 'failure-signatures D11, rows 24, 51 · triage-rules.md §3',
  when(f) {
    if (f.httpStatus === 404) return 'a 404 (session-expired-404)';
    return lost(f);
  },
  rationale: (f) =>
    `${describe(f)} ${f.session ? `carried session ${f.session}` : 'was sent with a session id'} and the server answered ${f.httpStatus ?? 'an error'} saying it does not know that session (${signalWords(f, ['session-unknown', 'session-invalid', 'session-terminated-client'], 'unknown session')}): the session was lost (restart, eviction, DELETE). ${f.httpStatus !== null && f.httpStatus !== 404 ? `Spec servers answer 404; this one uses ${f.httpStatus}. ` : ''}Reinitialize — new transport, fresh initialize WITHOUT the old id — not "fix headers"${f.httpStatus !== null && f.httpStatus !== 404 ? '; and file the status as a server-side bug' : ''}.`,
  examples: [
    {
      name: 'old SDK example server after a restart',
      facts: { httpStatus: 400, sessionSent: true, sessionUnknown: true, sessionAssignedEarlier: true, session: 'sess_aaaaaaaaaa', era: 'session', causes: ['session-unknown'] },
      fires: true,
    },
    { name: 'session expired at info level, no status', facts: { sessionUnknown: true, causes: ['session-unknown'] }, fires: true },
    { name: 'the same text when no session was sent', facts: { httpStatus: 400, sessionSent: false, sessionUnknown: true }, fires: false },
  ],
};

// failure-signatures row 51: the TS SDK example servers (widely copied) answer 400 "No valid session ID
// provided" both for an id they do not know and for a request without one. Which it was decides between
// reinitialize (an id was sent) and fixing the client (none was); when no line shows the request's
// headers, neither can be claimed.
export const sessionInvalidUnknownWhy: Rule = {
  id: 'session-invalid-unproven',
  decision: 'escalate',
  source: 'failure-signatures row 51 · triage-rules.md §3',
  when(f) {
    if (!has(f, 'session-invalid')) return 'no "no valid session id" answer';
    if (f.sessionUnknown === true) return 'the request carried a session the server did not know (stale-session-400)';
    if (f.sessionSent === false) return 'no session id was sent (request-rejected-at-validation)';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} got ${f.httpStatus ? `HTTP ${f.httpStatus} ` : ''}"no valid session id". Servers built from the TypeScript SDK examples say this both when the session id is unknown (a restart or another replica: reinitialize) and when the request carried none (the client skipped initialize, dropped the Mcp-Session-Id it was given, or a proxy stripped it: fix the client). No line here shows the request's headers, so which it was is not in these logs. Capture the request (client debug log or proxy access log with the Mcp-Session-Id header) and check that the client sent initialize first; escalate to the client's owners if it did not.`,
  examples: [
    {
      name: 'a client config dump quoting the 400',
      facts: { httpStatus: 400, method: 'tools/list', jsonRpcCode: -32000, bodyKind: 'jsonrpc-error', causes: ['session-invalid'] },
      fires: true,
    },
    { name: 'the id was sent', facts: { httpStatus: 400, sessionSent: true, sessionUnknown: true, causes: ['session-invalid'] }, fires: false },
    { name: 'none was sent', facts: { httpStatus: 400, sessionSent: false, causes: ['session-invalid'] }, fires: false },
  ],
};
