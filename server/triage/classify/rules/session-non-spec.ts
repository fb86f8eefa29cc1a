import type { Rule } from '../rule.ts';
import { describe, has, signalWords } from '../rule.ts';

// spec basic/transports, session management: an unknown session id MUST be answered 404 (no stream opened),
// the cue a client re-initializes on. failure-signatures D11 takes 400 "No valid session ID provided" (the
// Python ≤1.25 and TS example servers, which hosts handle) as the same loss. An "unknown session" answered
// as an internal error (HTTP 500, often with JSON-RPC -32603) or written as an event into a stream the server had
// already opened (actionhero/keryx#503: a 2xx SSE body) is the server's handler failing on its own session
// look-up: no client reads it as a lost session, so it recurs until the server is fixed.
export const sessionLostNonSpecAnswer: Rule = {
  id: 'session-lost-non-spec-answer',
  decision: 'escalate',
  source: 'spec basic/transports (session management: 404) · failure-signatures D11 · keryx#503',
  when(f) {
    if (f.era === 'sessionless') return 'protocol 2026-07-28 has no sessions';
    if (!has(f, 'session-unknown')) return 'the server did not say it does not know the session';
    if (f.routeWrong === true) return 'the answer came from something other than the MCP endpoint';
    if (f.httpStatus === 404) return 'a 404: the answer the spec prescribes (session-expired-404)';
    // (HTTP 500 itself: -32603 alone is also what a local proxy wraps any forwarding failure in — mcp-remote's
    // "Failed to forward message", failure-signatures row 60 — a 404 inside included)
    const internal = f.httpStatus === 500;
    const inStream = f.signals.includes('error-in-sse-event') && (f.httpStatus === null || (f.httpStatus >= 200 && f.httpStatus < 300));
    if (!internal && !inStream) return 'answered with a status a client can read as a lost session (400/401/503: stale-session-400)';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was answered "${signalWords(f, ['session-unknown'], 'session not found')}" ${
      f.httpStatus === 500
        ? `as an internal error (HTTP 500${f.jsonRpcCode === -32603 ? ', JSON-RPC -32603' : ''})`
        : 'inside an SSE event of a stream the server had already opened (a 2xx)'
    }, not with the 404 the spec prescribes for an unknown session. Clients re-initialize on a 404; this answer they surface as an error, so the failure repeats on every request until the server is fixed. Escalate to the server's owners: validate the session before opening a stream and answer an unknown id with 404 (a brand-new connection refused this way means the server does not find the sessions it issues). Reinitializing by hand may get one session through.`,
  examples: [
    {
      name: 'HTTP 500 with -32603 "Session … not found"',
      facts: { httpStatus: 500, jsonRpcCode: -32603, sessionUnknown: true, causes: ['session-unknown', 'jsonrpc-internal-error'], signals: ['session-not-found', 'http-500'] },
      fires: true,
    },
    {
      name: 'unknown session written as an SSE event, no error status',
      facts: { sessionUnknown: true, causes: ['session-unknown', 'error-in-stream'], signals: ['session-not-found', 'error-in-sse-event'] },
      fires: true,
    },
    {
      name: 'near miss: the spec 404',
      facts: { httpStatus: 404, jsonRpcCode: -32001, sessionSent: true, sessionUnknown: true, causes: ['session-unknown'], signals: ['session-not-found', 'http-404'] },
      fires: false,
    },
    {
      name: 'near miss: 400 "Session not found" (stale-session-400)',
      facts: { httpStatus: 400, jsonRpcCode: -32000, sessionSent: true, sessionUnknown: true, causes: ['session-unknown'], signals: ['session-not-found', 'http-400'] },
      fires: false,
    },
    {
      name: 'near miss: an SSE error event on a 400 answer',
      facts: { httpStatus: 400, sessionUnknown: true, causes: ['session-unknown', 'error-in-stream'], signals: ['session-not-found', 'error-in-sse-event'] },
      fires: false,
    },
    { name: 'near miss: a 500 that says nothing about the session', facts: { httpStatus: 500, jsonRpcCode: -32603, causes: ['jsonrpc-internal-error'] }, fires: false },
    {
      name: "near miss: a local proxy's -32603 forwarding error quoting the server's session answer, no status",
      facts: { jsonRpcCode: -32603, sessionUnknown: true, causes: ['jsonrpc-internal-error', 'session-unknown'], signals: ['jsonrpc-internal-error', 'session-not-found'] },
      fires: false,
    },
  ],
};

// spec basic/transports: the session id is opaque to the client, which sends back exactly what the server
// issued. A server or gateway whose own parser refuses the id's structure (envoyproxy/ai-gateway's composite
// `route@subject@backend:id` id: "invalid session ID: missing '@' separator") built or stored it wrong — or
// the client altered it: neither a configuration nor a fresh initialize changes the id format the next
// session gets. So is a session header holding two ids (`Mcp-Session-Id: a, a`: the initialize answer carried
// the field twice, and httpx or Fetch joined the values with ", "): the server looks up an id it never issued
// (the spec's id is one token of visible ASCII), and every new session is doubled the same way.
const JOINED = 'session-header-repeated';
/** The only malformed-id evidence is the doubled header (no server or gateway said it could not parse the id). */
const onlyJoined = (f: Parameters<Rule['when']>[0]) => f.signals.includes(JOINED) && !f.signals.includes('session-id-unparsable');
export const sessionIdUnparsable: Rule = {
  id: 'session-id-unparsable',
  decision: 'escalate',
  source: 'spec basic/transports (session management) · envoyproxy/ai-gateway mcpproxy session id parsing · httpx Headers (repeated fields joined with ", ")',
  when(f) {
    if (f.era === 'sessionless') return 'protocol 2026-07-28 has no sessions';
    if (!has(f, 'session-id-malformed')) return 'nothing says the session id could not be parsed';
    // (a doubled header is a fact about the request: it explains a refusal of the session, not any failure)
    if (onlyJoined(f) && f.sessionUnknown !== true && f.httpStatus !== 400 && f.httpStatus !== 404)
      return 'the session header held two ids, but the server did not refuse the session';
    return true;
  },
  rationale: (f) =>
    onlyJoined(f)
      ? `${describe(f)} carried an Mcp-Session-Id holding two ids (the field twice, or its values joined with ", "), and the server refused the session: a session id is one token of visible ASCII (spec basic/transports), so the server looked up an id it never issued. Something on the way doubles the header — most often the initialize answer carries Mcp-Session-Id twice (a proxy or middleware adding its own beside the server's) and the client's HTTP library joins the two values; a fresh initialize gets the same doubled header. Escalate to the owner of the hop that adds it, with the initialize answer's headers.`
      : `${describe(f)} was refused (${signalWords(f, ['session-id-malformed'], 'malformed session id')}): not an unknown or expired session, an id its own parser rejects. The client sends back the id exactly as it was issued, so either the server or gateway builds ids its parser cannot read (a separator that also occurs inside a part, such as an e-mail subject) or the client altered the id; a fresh initialize gets an id of the same shape. Escalate to the gateway's or server's owners with the id's shape (redacted).`,
  examples: [
    {
      name: 'a session header holding two ids, answered 404 session not found',
      facts: {
        httpStatus: 404,
        sessionSent: true,
        sessionUnknown: true,
        causes: ['session-id-malformed', 'session-unknown'],
        signals: ['session-header-repeated', 'session-not-found', 'http-404'],
      },
      fires: true,
    },
    {
      name: 'near miss: a session header holding two ids on a request that failed for another reason (a 502)',
      facts: { httpStatus: 502, sessionSent: true, causes: ['session-id-malformed', 'proxy-upstream-unavailable'], signals: ['session-header-repeated', 'http-502'] },
      fires: false,
    },
    {
      name: "gateway: invalid session ID: missing '@' separator",
      facts: { sessionUnknown: true, causes: ['session-id-malformed', 'session-invalid'], signals: ['session-id-unparsable', 'no-valid-session-id'] },
      fires: true,
    },
    {
      name: 'near miss: "No valid session ID provided" (an unknown id)',
      facts: { httpStatus: 400, sessionSent: true, sessionUnknown: true, causes: ['session-invalid'], signals: ['no-valid-session-id', 'http-400'] },
      fires: false,
    },
    { name: 'near miss: session not found', facts: { httpStatus: 404, sessionSent: true, sessionUnknown: true, causes: ['session-unknown'] }, fires: false },
  ],
};
