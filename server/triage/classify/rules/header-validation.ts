import type { Rule } from '../rule.ts';
import { describe, has, signalWords } from '../rule.ts';
import type { SignalCause } from '../../../../parsers/contract/signal.ts';

// triage-rules.md §3 (a 400 for a missing or mismatched header; adding old session headers does not fix
// it); failure-signatures D14, D15, rows 26, 28–30, 53, 54, 56, 57, 86–88; body limits (413). The request
// was rejected at validation, before it ran: fix the client or the proxy that rewrites it.
const VALIDATION: SignalCause[] = [
  'not-acceptable',
  'unsupported-media-type',
  'protocol-version-unsupported',
  'header-mismatch',
  'body-too-large',
  'headers-too-large',
  'parse-error',
  'already-initialized',
  'content-type-wrong',
];

// failure-signatures row 54 names the client's cause of `Server already initialized` (400, -32600): it re-sent
// initialize on the same session, WITH the old id. A fresh initialize carries no session id, so where no line
// shows the old id on it, the other cause the TypeScript SDK gives the same answer for is as open: a server that
// keeps one transport for every client (one StreamableHTTPServerTransport created at start-up, not one per
// session), where no client's second handshake can succeed — a server defect no client setting fixes (decision
// table: escalate). Near miss: the initialize shown carrying the session id the server had assigned (row 54).
export const alreadyInitialized: Rule = {
  id: 'initialize-refused-already-initialized',
  decision: 'escalate',
  source: 'failure-signatures row 54 · typescript-sdk server/streamableHttp.ts (`Server already initialized`) · triage-rules decision table (escalate)',
  when(f) {
    if (!has(f, 'already-initialized')) return 'no "already initialized" refusal';
    if (f.sessionSent === true) return 'the initialize carried a session id: the client re-sent it on its old session (row 54: request-rejected-at-validation)';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was refused${f.httpStatus ? ` with HTTP ${f.httpStatus}` : ''} as "already initialized", and no line shows it carrying an old session id. A fresh initialize has no session to collide with, so the server answers every new client this way when it keeps one transport (or one session) for all of them — e.g. a TypeScript server that creates a single StreamableHTTPServerTransport at start-up instead of one per session. Escalate to the server's owners with the two handshakes; if the client did re-send initialize with its old \`Mcp-Session-Id\`, it must drop the id and the old transport first (failure-signatures row 54).`,
  examples: [
    { name: 'initialize refused, no session id shown', facts: { httpStatus: 400, method: 'initialize', jsonRpcCode: -32600, causes: ['already-initialized'] }, fires: true },
    {
      name: 'near miss: the initialize carried the assigned session id',
      facts: { httpStatus: 400, method: 'initialize', sessionSent: true, jsonRpcCode: -32600, causes: ['already-initialized'] },
      fires: false,
    },
  ],
};

export const headerValidation: Rule = {
  id: 'request-rejected-at-validation',
  decision: 'fix_route_or_config',
  // a client that corrected itself (retried with a version from data.supported, re-listed tools for
  // Mcp-Param-*) and got the same call answered has nothing left to fix
  settledBySuccess: true,
  source: 'triage-rules.md §3 · failure-signatures D14, D15, rows 26, 28–30, 53, 54, 56, 57, 86–88',
  when(f) {
    if (has(f, ...VALIDATION)) return true;
    if (has(f, 'session-missing') && f.sessionSent !== true) return true;
    if (has(f, 'session-invalid') && f.sessionSent === false) return true; // row 51: "no valid session id" and none was sent
    if (f.jsonRpcCode === -32020 || f.jsonRpcCode === -32021 || f.jsonRpcCode === -32022) return true;
    if (f.httpStatus === 406 || f.httpStatus === 413 || f.httpStatus === 415 || f.httpStatus === 431) return true;
    if (f.httpStatus === 400 && f.era === 'sessionless' && f.bodyKind !== 'jsonrpc-error') return true; // D15: a bare 400 to a 2026 request
    // D15: a 2026-07-28 request (no handshake, no session) answered with a session-era complaint: the
    // server speaks an earlier revision and wants initialize first
    if (f.era === 'sessionless' && has(f, 'server-not-initialized', 'session-missing', 'session-invalid')) return true;
    return 'no header, version, content-type or size rejection';
  },
  rationale: (f) => {
    const why =
      f.era === 'sessionless' && has(f, 'server-not-initialized', 'session-missing', 'session-invalid')
        ? "a 2026-07-28 request (no initialize, no session) was answered as a session-era server answers it: the server speaks an earlier revision. The client should fall back to initialize (or be pinned to the server's revision); upgrading the server also fixes it"
        : has(f, 'session-missing') || has(f, 'session-invalid')
          ? 'the session header never reached the server (the client did not keep it, CORS does not expose it, a proxy strips it, or the client speaks another transport mode)'
          : has(f, 'already-initialized')
            ? 'the client re-sent initialize on a live session; drop the old session id before re-initializing'
            : `${signalWords(f, VALIDATION, f.httpStatus === 413 ? 'the body is over a size limit' : f.httpStatus === 431 ? 'the request headers are over a size limit (a large token or cookie, or Mcp-Param-* headers carrying a big argument)' : f.era === 'sessionless' ? 'a bare 400 to a 2026-07-28 request: the headers do not match what the server requires, else it is a legacy server' : 'the request failed validation')}`;
    return `${describe(f)} was rejected${f.httpStatus ? ` with HTTP ${f.httpStatus}` : ''} before it ran: ${why}. Fix the client (headers, protocol version, content type, body or header size) or the proxy that rewrites it (or raise the limit); reinitializing or re-sending unchanged repeats the rejection.`;
  },
  examples: [
    {
      name: 'pinned protocol version header',
      facts: { httpStatus: 400, method: 'notifications/initialized', sessionSent: true, era: 'session', causes: ['protocol-version-unsupported'] },
      fires: true,
    },
    { name: '406 Accept rewritten by a proxy', facts: { httpStatus: 406, method: 'initialize', firstRequest: true, causes: ['not-acceptable'] }, fires: true },
    { name: '2026 -32020 header mismatch', facts: { httpStatus: 400, era: 'sessionless', jsonRpcCode: -32020, bodyKind: 'jsonrpc-error' }, fires: true },
    { name: 'missing session id, none sent', facts: { httpStatus: 400, sessionSent: false, causes: ['session-missing'] }, fires: true },
    { name: '413 from the proxy', facts: { httpStatus: 413, method: 'tools/call', causes: ['body-too-large'] }, fires: true },
    { name: '431 from the server (headers over its limit)', facts: { httpStatus: 431, method: 'tools/call', causes: ['headers-too-large'] }, fires: true },
    { name: "nginx's 400 page: Request Header Or Cookie Too Large", facts: { httpStatus: 400, method: 'tools/list', causes: ['headers-too-large'] }, fires: true },
    {
      name: '"No valid session ID" and the request line shows none',
      facts: { httpStatus: 400, method: 'tools/list', sessionSent: false, causes: ['session-invalid'] },
      fires: true,
    },
    { name: '"No valid session ID", unknown whether one was sent', facts: { httpStatus: 400, method: 'tools/list', causes: ['session-invalid'] }, fires: false },
    {
      name: '2026 client, "Server not initialized" from a 2025 server',
      facts: { httpStatus: 400, method: 'server/discover', era: 'sessionless', bodyKind: 'jsonrpc-error', causes: ['server-not-initialized'] },
      fires: true,
    },
    { name: 'a 404', facts: { httpStatus: 404 }, fires: false },
    { name: 'a bare 400 in the session era', facts: { httpStatus: 400, era: 'session' }, fires: false },
  ],
};
