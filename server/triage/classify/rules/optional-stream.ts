import type { Rule } from '../rule.ts';
import type { SignalCause } from '../../../../parsers/contract/signal.ts';
import { streamDeclinedWrongly, type Facts } from '../facts.ts';
import { has } from '../rule.ts';

// failure-signatures.md D16, rows 16, 17, 20, 43, 44, 55, 90, 91; cli-contract.md roles; spec server/prompts
// and server/resources for the list probes: the standalone GET SSE stream of Streamable HTTP, a DELETE on
// close, logging/setLevel and a host's menu probes are optional — their failures lose no request. In the
// legacy HTTP+SSE transport the GET stream IS the connection.
/** The lists a host fetches for its menus whatever the server declared (spec server/prompts, server/resources). */
const LIST_PROBES = new Set(['prompts/list', 'resources/list', 'resources/templates/list']);
const STREAM_ONLY = ['stream-open-failed', 'stream-disconnected', 'stream-reconnecting', 'reconnect-exhausted'] as const;
/**
 * What else a stream failure's lines may say: the retry, the cut itself, an answer that was no event stream
 * (java-sdk's `Invalid SSE response` from its GET), or a success logged next to it (`Found 9 tools`).
 */
const BESIDE_STREAM = new Set<SignalCause>(['retry-attempt', 'stream-cut', 'conn-reset', 'call-succeeded', 'handshake-ok', 'connected', 'sse-read-failed', 'content-type-wrong']);

/** The server answered -32601 Method not found (its status aside). */
const methodNotFound = (f: Facts) => f.causes.includes('method-not-found') || f.jsonRpcCode === -32601;

const isStream = (f: Facts) => f.httpMethod === 'GET' || has(f, 'stream-open-failed');

/**
 * Row 44: the standalone GET stream refused with 400/404/406 instead of 405, or answered 2xx with a body
 * that is no event stream (spec: GET → text/event-stream or 405), reported as an error (or at
 * no logged level) and nothing after it — no other request, sent or answered, no other line of the
 * client's — while a session it had not lost was in use: the client treated the refusal as fatal, and
 * the log ends there.
 */
function refusedFatally(f: Facts): boolean {
  return (
    f.method === null &&
    f.tool === null &&
    isStream(f) &&
    streamDeclinedWrongly(f) &&
    !f.wentOn &&
    f.loggedAsError !== false &&
    f.sessionUnknown !== true &&
    !has(f, 'reconnect-exhausted')
  );
}

/** The optional GET stream's refusal that ended the connection: then it is the failure, and a defect. */
export const optionalStreamFatal: Rule = {
  id: 'optional-stream-refused-fatally',
  decision: 'escalate',
  source: 'failure-signatures row 44, D16 · spec 2025-03-26+ basic/transports (GET: text/event-stream or 405)',
  when(f) {
    if (f.era === 'legacy-sse' || has(f, 'transport-legacy', 'sse-connect-rejected')) return 'in the legacy HTTP+SSE transport the GET stream is the connection';
    if (!isStream(f)) return 'not the standalone GET stream';
    if (!streamDeclinedWrongly(f)) return 'not refused with 400, 404 or 406, nor answered 2xx with a body that is no event stream';
    if (f.sessionUnknown === true) return 'the session was unknown to the server: session loss, not a refusal';
    if (f.wentOn) return 'the client went on after it: the optional channel only';
    if (f.loggedAsError === false) return 'the client logged it below error level: it carried on';
    return refusedFatally(f) ? true : 'a request, not the stream alone';
  },
  rationale: (f) =>
    f.httpStatus === null
      ? `The server answered the standalone GET SSE stream with HTTP ${f.answerStatus ?? '2xx'} and a body that is no event stream, the client could not read it and sent nothing after it: it gave up on the whole connection. The spec lets a server answer GET only with text/event-stream or decline with 405, and some SDK versions treat any other answer as fatal. Nothing in your configuration is wrong; escalate: the server should answer 405 (or a stream) to GET, or the client should tolerate a non-stream answer to its GET (spring-ai issue 5239).`
      : `The server refused the standalone GET SSE stream with HTTP ${f.httpStatus} instead of 405, the client reported it as an error and sent nothing after it: it gave up on the whole connection. The spec lets a server decline the stream only with 405 (GET → text/event-stream or 405), and some SDK versions and hosts treat any other refusal as fatal. Nothing in your configuration is wrong; escalate: the server should answer 405 to GET, or the client should treat a refused GET stream as optional (TypeScript SDK PR 1637).`,
  examples: [
    { name: 'Failed to open SSE stream: Not Found, and nothing after', facts: { httpStatus: 404, causes: ['stream-open-failed'], wentOn: false }, fires: true },
    { name: 'GET 406 and the client stopped', facts: { httpMethod: 'GET', httpStatus: 406, wentOn: false }, fires: true },
    {
      name: 'GET answered 200 with a JSON body (Invalid SSE response), and nothing after',
      facts: { answerStatus: 200, causes: ['stream-open-failed', 'content-type-wrong'], wentOn: false },
      fires: true,
    },
    {
      name: 'GET answered 200 with a JSON body, then tools were called',
      facts: { httpMethod: 'GET', answerStatus: 200, causes: ['content-type-wrong'], wentOn: true },
      fires: false,
    },
    { name: 'GET answered 200 and its stream cut later', facts: { httpMethod: 'GET', answerStatus: 200, causes: ['stream-cut'], wentOn: false }, fires: false },
    { name: 'GET 404 but the client went on calling tools', facts: { httpMethod: 'GET', httpStatus: 404, wentOn: true }, fires: false },
    { name: "Python's GET stream error (non-fatal) at DEBUG, last line", facts: { httpMethod: 'GET', httpStatus: 400, wentOn: false, loggedAsError: false }, fires: false },
    { name: 'GET 405: the spec-conformant refusal', facts: { httpMethod: 'GET', httpStatus: 405, wentOn: false }, fires: false },
    { name: 'GET 502 while the server restarts', facts: { httpMethod: 'GET', httpStatus: 502, causes: ['stream-open-failed'], wentOn: false }, fires: false },
    { name: 'GET 404 for a session the server no longer knows', facts: { httpMethod: 'GET', httpStatus: 404, sessionUnknown: true, wentOn: false }, fires: false },
    { name: 'a tools/call 404 that ends the log', facts: { httpMethod: 'POST', method: 'tools/call', httpStatus: 404, wentOn: false }, fires: false },
  ],
};

export const optionalStream: Rule = {
  id: 'optional-stream-failure',
  decision: 'no_action',
  source: 'failure-signatures D16 · cli-contract.md (optional)',
  role: 'optional',
  when(f) {
    if (f.method === 'logging/setLevel') return true;
    // 2026-07-28's subscriptions/listen replaces the standalone GET stream: change notifications only
    // (failure-signatures (a.1) server→client traffic, (c) stage E "GET/listen: reconnect, benign"); once
    // the client has sent it again nothing is lost. Not re-sent, the subscription is gone until it is (row 92).
    if (f.method === 'subscriptions/listen' && f.sentAgain) return true;
    // argument autocompletion (spec server/utilities/completion: only for servers that declare the
    // completions capability): a server without it answers -32601 and the host offers no suggestions
    const notFound = methodNotFound(f);
    if (f.method === 'completion/complete' && notFound) return true;
    // a host listing prompts or resources (for its menus) from a server that offers none: spec
    // server/prompts and server/resources — only servers that declare the capability serve those
    // methods, and the answer to an undeclared one is -32601; the host shows an empty list
    if (f.method !== null && LIST_PROBES.has(f.method) && notFound) return true;
    // 2026-07-28's subscriptions/listen answered -32601: the server has no change notifications to offer
    // (failure-signatures (a.1): listen carries notifications only, never a request's answer); the client
    // refreshes lists on demand and loses no request
    if (f.method === 'subscriptions/listen' && notFound) return true;
    // (the requests above are optional in either transport; the channels below are not in the legacy one)
    if (f.era === 'legacy-sse' || has(f, 'transport-legacy', 'sse-connect-rejected'))
      return 'in the legacy HTTP+SSE transport the GET stream is the connection, not an optional channel';
    if (f.httpMethod === 'DELETE' && (f.method === null || f.method === 'notifications/cancelled')) return true;
    // the SDK's own report of that DELETE failing (`Failed to terminate session: Not Found`)
    if (has(f, 'session-termination-failed') && f.method === null && f.tool === null) return true;
    if (f.method !== null || f.tool !== null) return `the failing exchange is a ${f.method ?? 'tools/call'} request, not the optional stream`;
    if (refusedFatally(f)) return `the server refused the GET stream with ${f.httpStatus} instead of 405 and the client stopped there`;
    if (f.authFlowPath) return `a GET of the OAuth flow (${f.httpPath}), not the stream`;
    if (f.httpMethod === 'GET') return true;
    const streamOnly = f.causes.length > 0 && f.causes.every((c) => (STREAM_ONLY as readonly string[]).includes(c) || BESIDE_STREAM.has(c));
    if (streamOnly && has(f, ...STREAM_ONLY) && f.httpMethod !== 'POST') return true;
    return 'not the standalone GET stream, a DELETE or logging/setLevel';
  },
  rationale: (f) =>
    f.method === 'subscriptions/listen' && methodNotFound(f)
      ? `subscriptions/listen got -32601 Method not found${f.httpStatus ? ` (HTTP ${f.httpStatus})` : ''}: the server offers no change notifications (2026-07-28's listen stream carries notifications only, never a request's answer), so lists are refreshed on demand. No request was lost. Act on it only if the server declares the capability — then escalate to its owners.`
      : f.method === 'subscriptions/listen'
        ? `subscriptions/listen failed${f.httpStatus ? ` (HTTP ${f.httpStatus})` : ''}: the long-lived stream of change notifications (2026-07-28's replacement for the standalone GET stream). It carries no request's answer; the client re-sends listen. Act on it only if notifications matter or other requests fail too.`
        : f.method === 'logging/setLevel'
          ? `logging/setLevel failed${f.httpStatus ? ` (HTTP ${f.httpStatus})` : ''}: an optional request that only changes how much the server logs; no work was lost.`
          : f.method !== null && LIST_PROBES.has(f.method)
            ? `${f.method} got -32601 Method not found${f.httpStatus ? ` (HTTP ${f.httpStatus})` : ''}: the server offers no ${f.method.split('/')[0]} (it does not declare the capability), so the host's list is empty. No request was lost. If the server does declare it, escalate to its owners.`
            : f.method === 'completion/complete'
              ? `completion/complete got -32601 Method not found${f.httpStatus ? ` (HTTP ${f.httpStatus})` : ''}: the server does not offer argument autocompletion (no completions capability). The host only loses suggestions while the user types; no work was lost. Make the host check the capability first if the noise matters.`
              : `The ${f.httpMethod === 'DELETE' || has(f, 'session-termination-failed') ? 'session DELETE at shutdown' : 'standalone GET SSE stream (server-initiated messages)'} failed${f.httpStatus ? ` (HTTP ${f.httpStatus})` : ''}. It is an optional channel: no request was lost on it. Act on it only if server notifications matter, or if other requests fail too.`,
  examples: [
    { name: 'GET stream 502 while the server restarts', facts: { httpMethod: 'GET', httpStatus: 502, causes: ['stream-open-failed'], era: 'session' }, fires: true },
    { name: 'GET 405 from a server without a stream', facts: { httpMethod: 'GET', httpStatus: 405 }, fires: true },
    { name: 'GET 404, then the client went on', facts: { httpMethod: 'GET', httpStatus: 404, wentOn: true }, fires: true },
    {
      name: 'Failed to open SSE stream: Bad Request, joined to the next line: Found 9 tools',
      facts: { httpStatus: 400, causes: ['stream-open-failed', 'call-succeeded'] },
      fires: true,
    },
    { name: 'Maximum reconnection attempts, no request', facts: { causes: ['reconnect-exhausted'] }, fires: true },
    {
      name: 'the GET answered 200 with no event stream, then the client went on',
      facts: { answerStatus: 200, causes: ['stream-open-failed', 'content-type-wrong'], wentOn: true },
      fires: true,
    },
    { name: 'a POST answered with the wrong content type', facts: { httpMethod: 'POST', causes: ['content-type-wrong'] }, fires: false },
    { name: 'subscriptions/listen: 404 with -32601', facts: { method: 'subscriptions/listen', httpStatus: 404, jsonRpcCode: -32601, causes: ['method-not-found'] }, fires: true },
    { name: 'tools/call: 404 with -32601', facts: { method: 'tools/call', httpStatus: 404, jsonRpcCode: -32601, causes: ['method-not-found'] }, fires: false },
    { name: 'subscriptions/listen refused 401, not re-sent', facts: { method: 'subscriptions/listen', httpStatus: 401, causes: ['auth-rejected'] }, fires: false },
    { name: 'DELETE 404 at shutdown', facts: { httpMethod: 'DELETE', httpStatus: 404 }, fires: true },
    { name: 'GET /authorize 500: the OAuth flow, not the stream', facts: { httpMethod: 'GET', httpStatus: 500, httpPath: '/authorize', authFlowPath: true }, fires: false },
    { name: "the SDK's Failed to terminate session: Not Found", facts: { httpStatus: 404, causes: ['session-termination-failed'] }, fires: true },
    { name: 'a tools/call 404', facts: { httpMethod: 'POST', method: 'tools/call', httpStatus: 404 }, fires: false },
    { name: 'completion/complete answered -32601', facts: { method: 'completion/complete', jsonRpcCode: -32601, causes: ['method-not-found'] }, fires: true },
    { name: 'prompts/list -32601 over legacy SSE', facts: { method: 'prompts/list', era: 'legacy-sse', causes: ['method-not-found', 'transport-legacy'] }, fires: true },
    { name: 'completion/complete cut by a proxy 502', facts: { method: 'completion/complete', httpStatus: 502, causes: ['proxy-upstream-unavailable'] }, fires: false },
    { name: 'resources/subscribe answered -32601', facts: { method: 'resources/subscribe', jsonRpcCode: -32601, causes: ['method-not-found'] }, fires: false },
    {
      name: 'subscriptions/listen 502 while the server restarts, then sent again',
      facts: { method: 'subscriptions/listen', httpStatus: 502, era: 'sessionless', causes: ['conn-refused'], sentAgain: true },
      fires: true,
    },
    { name: 'subscriptions/listen ended by the server and never sent again', facts: { method: 'subscriptions/listen', era: 'sessionless', causes: ['stream-cut'] }, fires: false },
    { name: 'prompts/list answered -32601', facts: { method: 'prompts/list', jsonRpcCode: -32601, causes: ['method-not-found'] }, fires: true },
    {
      name: '2026 prompts/list 404 + -32601',
      facts: { method: 'prompts/list', httpStatus: 404, era: 'sessionless', jsonRpcCode: -32601, bodyKind: 'jsonrpc-error', causes: ['method-not-found'] },
      fires: true,
    },
    { name: 'resources/list cut by a proxy 502', facts: { method: 'resources/list', httpStatus: 502, causes: ['proxy-upstream-unavailable'] }, fires: false },
    { name: 'resources/read answered -32601', facts: { method: 'resources/read', jsonRpcCode: -32601, causes: ['method-not-found'] }, fires: false },
    { name: 'legacy SSE GET /sse 404: the connection itself', facts: { httpMethod: 'GET', httpStatus: 404, era: 'legacy-sse', causes: ['sse-connect-rejected'] }, fires: false },
  ],
};
