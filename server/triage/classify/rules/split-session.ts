import type { Rule } from '../rule.ts';
import { describe, has } from '../rule.ts';

// failure-signatures D18, rows 52, 93: one session's requests land on replicas (or workers) that keep
// sessions in memory. Proven by the logs: one replica created or served the session, another rejected
// it and was not a restart of the first (hostname, pod, instance, pid or the proxy's upstream address).
export const splitSession: Rule = {
  id: 'split-session-no-affinity',
  decision: 'fix_route_or_config',
  source: 'failure-signatures D18, rows 52, 93 · triage-rules.md §3 (causes from evidence)',
  when(f) {
    if (f.era === 'sessionless') return 'protocol 2026-07-28 has no sessions to split';
    if (f.replicaSplit !== true)
      return f.replicas.length > 1 ? 'several replicas served the session, but none is shown rejecting what another created' : 'no evidence of a second replica';
    if (f.sessionUnknown !== true && !has(f, 'server-not-initialized') && f.httpStatus !== 404 && f.httpStatus !== 400) return 'the other replica did not reject the session';
    return true;
  },
  rationale: (f) =>
    `${f.session ? `Session ${f.session} was served by one replica` : 'One replica accepted the traffic'} and ${f.method ?? 'the next request'} was rejected by another (${f.replicas.join(' vs ')}) that was not a restart of it: the balancer spreads one session over replicas that keep sessions in memory. Reinitializing cannot help (every new session splits the same way). Fix the deployment: affinity on Mcp-Session-Id, a shared session store, or stateless mode.`,
  examples: [
    {
      name: 'notifications/initialized 404 on the other replica',
      facts: {
        httpStatus: 404,
        method: 'notifications/initialized',
        sessionSent: true,
        sessionUnknown: true,
        session: 'sess_aaaaaaaaaa',
        era: 'session',
        replicaSplit: true,
        replicas: ['orders-mcp-0', 'orders-mcp-1'],
      },
      fires: true,
    },
    {
      name: 'Server not initialized with two replicas',
      facts: { httpStatus: 400, sessionSent: true, replicaSplit: true, replicas: ['a', 'b'], causes: ['server-not-initialized'] },
      fires: true,
    },
    { name: 'restart on the same host', facts: { httpStatus: 404, sessionSent: true, sessionUnknown: true, replicas: ['vm'], replicaSplit: false, era: 'session' }, fires: false },
  ],
};

// failure-signatures D18, rows 37, 93: the first request a session sends after initialize
// (notifications/initialized, spec basic/lifecycle) is answered "session not found". The server had
// created that session a moment before: neither expiry nor eviction is that fast, and a restart would be
// logged. The process that answered never saw it — another replica or worker that keeps sessions in
// memory. A new session splits the same way, so reinitializing does not fix it.
export const sessionUnknownAtOnce: Rule = {
  id: 'session-unknown-at-once',
  decision: 'fix_route_or_config',
  source: 'failure-signatures D18, rows 37, 93 · spec basic/lifecycle (initialization)',
  when(f) {
    if (f.era === 'sessionless') return 'protocol 2026-07-28 has no sessions';
    if (f.method !== 'notifications/initialized') return 'not the first request after initialize';
    if (f.sessionUnknown !== true) return 'the server is not shown to have not known the session';
    if (f.sessionSent === false) return 'the request carried no session id (a missing header, not another replica)';
    if (f.restartedSinceWorked === true || f.nearShutdown) return 'a restart or shutdown is logged around it';
    return true;
  },
  rationale: (f) =>
    `notifications/initialized — the first request of a session, sent right after initialize — was answered ${f.httpStatus ?? ''} "session not found"${f.attempts > 1 ? ` on ${f.attempts} attempts` : ''}: the server had created that session a moment before, so it did not expire; the process that answered never saw it. Sessions live in the memory of one replica or worker and the balancer (or uvicorn/gunicorn with several workers) spreads one session's requests. Reinitializing splits the same way. Fix the deployment: session affinity on Mcp-Session-Id, one worker, a shared session store, or stateless mode.`,
  examples: [
    {
      name: 'notifications/initialized 404 Session not found, two of three tries',
      facts: { method: 'notifications/initialized', httpStatus: 404, sessionUnknown: true, attempts: 2, era: 'session' },
      fires: true,
    },
    { name: 'near miss: a tools/call 404 after a restart', facts: { method: 'tools/call', httpStatus: 404, sessionUnknown: true, restartedSinceWorked: true }, fires: false },
    { name: 'near miss: no session id was sent', facts: { method: 'notifications/initialized', httpStatus: 400, sessionUnknown: true, sessionSent: false }, fires: false },
    { name: 'near miss: a shutdown logged beside it', facts: { method: 'notifications/initialized', httpStatus: 404, sessionUnknown: true, nearShutdown: true }, fires: false },
  ],
};

// failure-signatures rows 51, 53 and D14, D18 · spec basic/lifecycle (notifications/initialized follows the
// initialize result at once) and transports (session management: the client MUST send the id it was given).
// The TS SDK examples' "No valid session ID provided" cannot say whether the id was missing or unknown
// (row 51), so on most requests neither reinitialize nor fixing the client can be claimed
// (session-invalid-unproven). On notifications/initialized both readings end in the same place: the id the
// server issued a moment before was not sent (a client that never stores it, a proxy that strips it, or
// no initialize at all), or it was sent and the server did not keep it (another worker or replica, a new
// transport per request). A new session meets the same answer; the client or the deployment is the fix.
export const sessionRefusedAtHandshake: Rule = {
  id: 'session-refused-at-handshake',
  decision: 'fix_route_or_config',
  source: 'failure-signatures rows 51, 53, D14, D18 · spec basic/lifecycle, transports (session management)',
  when(f) {
    if (f.era === 'sessionless') return 'protocol 2026-07-28 has no sessions';
    if (f.method !== 'notifications/initialized') return 'not the message that completes the handshake';
    if (!has(f, 'session-invalid')) return 'no "no valid session id" answer';
    if (f.sessionUnknown === true) return 'the server is shown not to know a session it got (session-unknown-at-once)';
    if (f.restartedSinceWorked === true || f.nearShutdown) return 'a restart or shutdown is logged around it';
    return true;
  },
  rationale: (f) =>
    `notifications/initialized — the message a client sends right after the initialize result — got ${f.httpStatus ? `HTTP ${f.httpStatus} ` : ''}"no valid session id"${f.attempts > 1 ? ` on ${f.attempts} attempts` : ''}. Such servers say it both for a missing id and for one they do not know; here either way the session the handshake was to open never worked: the client did not send the Mcp-Session-Id the initialize result gave it (it does not store it, a proxy or CORS strips the header, or it skipped initialize altogether), or it sent it and the process that answered never saw that session (another worker or replica without affinity, a new transport per request). Nothing expired in between, so reinitializing meets the same answer. Check that the client sends initialize first and echoes the header on every later request (capture one request's headers); if it does, give the server session affinity, one worker, a shared session store or stateless mode.`,
  examples: [
    {
      name: 'notifications/initialized answered 400 "No valid session ID provided", headers not shown',
      facts: { method: 'notifications/initialized', httpStatus: 400, jsonRpcCode: -32000, bodyKind: 'jsonrpc-error', causes: ['session-invalid'], era: 'session' },
      fires: true,
    },
    {
      name: 'near miss: tools/list with the same answer (an expired session is as likely: session-invalid-unproven)',
      facts: { method: 'tools/list', httpStatus: 400, jsonRpcCode: -32000, bodyKind: 'jsonrpc-error', causes: ['session-invalid'] },
      fires: false,
    },
    {
      name: 'near miss: the server says it does not know the session (session-unknown-at-once)',
      facts: { method: 'notifications/initialized', httpStatus: 404, sessionUnknown: true, causes: ['session-unknown'], era: 'session' },
      fires: false,
    },
    {
      name: 'near miss: a restart logged beside it',
      facts: { method: 'notifications/initialized', httpStatus: 400, causes: ['session-invalid'], nearShutdown: true },
      fires: false,
    },
  ],
};

// failure-signatures row 37 and D18 ("per-replica in-memory sessions"), row 25 ("repeated on every call across
// pods → FIX sticky routing / stateless mode"); triage-rules.md §3 (a request landing on another worker without
// that session, shown from evidence). The logs say the server runs several worker processes side by side —
// uvicorn's multiprocess supervisor, a --workers/-w count of two or more, PM2 cluster mode — and it refused a
// session as unknown with no restart, shutdown or eviction logged to explain the loss. Each worker keeps the
// sessions it created in its own memory and the listening socket hands requests to any of them, so a session
// lives only on the worker that answered its initialize. Reinitializing gets a session that splits the same way.
export const sessionWorkersStated: Rule = {
  id: 'session-across-workers',
  decision: 'fix_route_or_config',
  source: 'failure-signatures row 37, D18, row 25 · triage-rules.md §3 (causes from evidence)',
  when(f) {
    if (f.era === 'sessionless') return 'protocol 2026-07-28 has no sessions';
    if (f.workersStated === null) return 'nothing says the server runs several worker processes';
    if (f.sessionUnknown !== true) return 'nothing shows the server did not know the session';
    if (f.sessionSent === false) return 'the request carried no session id';
    if (f.method === 'initialize') return 'an initialize opens a session: it lost none';
    if (f.restartedSinceWorked === true || f.nearShutdown) return 'a restart or shutdown is logged around it';
    if (f.sessionLossExplained !== null) return `something logged in between explains the loss (${f.sessionLossExplained})`;
    if (f.idleTimeoutMs !== null) return `the server logged closing idle sessions (${f.idleTimeoutAt})`;
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was refused for a session the server did not know, and the server runs several worker processes side by side (${f.workersStated}), with no restart, shutdown or eviction logged to explain the loss. Each worker keeps the sessions it created in its own memory, and requests go to whichever worker accepts the connection: a session lives only on the worker that answered its initialize, so its other requests are refused whenever they land elsewhere. Reinitializing gets a session that splits the same way. Fix the deployment: one worker per session store (a single worker, or several instances behind session affinity on Mcp-Session-Id), a shared session store, or the server's stateless mode.`,
  examples: [
    {
      name: 'uvicorn --workers 4, tools/list 404 Session not found',
      facts: { method: 'tools/list', httpStatus: 404, sessionUnknown: true, workersStated: 'run.log:1', era: 'session', causes: ['session-unknown'] },
      fires: true,
    },
    {
      name: 'legacy SSE message POST 404 under a multiprocess supervisor',
      facts: { httpStatus: 404, httpMethod: 'POST', sessionUnknown: true, sessionSent: true, workersStated: 'uvicorn.log:2', era: 'legacy-sse' },
      fires: true,
    },
    {
      name: 'near miss: several workers, but a restart logged between creation and refusal',
      facts: { method: 'tools/call', httpStatus: 404, sessionUnknown: true, workersStated: 'run.log:1', sessionLossExplained: 'server.log:9 process-started' },
      fires: false,
    },
    {
      name: 'near miss: no worker count stated',
      facts: { method: 'tools/call', httpStatus: 404, sessionUnknown: true, era: 'session', causes: ['session-unknown'] },
      fires: false,
    },
    {
      name: 'near miss: several workers, but the request carried no session id',
      facts: { method: 'tools/list', httpStatus: 400, sessionUnknown: true, sessionSent: false, workersStated: 'run.log:1' },
      fires: false,
    },
  ],
};

// triage-rules.md §3 (a loss's cause from evidence: a request landing on another worker without the state) and its
// decision table (FIX load-balancer affinity, deployment); failure-signatures D18 (state kept in memory per replica).
// The same split for what a tool keeps between calls — a browser context, a sandbox, a cursor handed out by one call
// and named by the next: one replica handed it out, another said moments later it does not know it, and no restart
// came between. 2026-07-28 has no protocol session to pin, so nothing in the protocol routes the next call back;
// retrying lands anywhere again. Near miss: the handle unknown to the replica that made it (it expired or was
// closed: the state must be made again, handle-lost).
export const handleLostAcrossReplicas: Rule = {
  id: 'handle-lost-across-replicas',
  decision: 'fix_route_or_config',
  source: 'triage-rules.md §3 and decision table (FIX affinity, deployment) · failure-signatures D18',
  when(f) {
    if (!has(f, 'handle-unknown')) return 'no tool saying it does not know a handle it gave out';
    if (!f.handleSplit) return 'the handle is not shown handed out by another replica moments before';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} named a handle the tool had just given out, and another replica did not know it: ${f.handleSplit}. The replicas keep that state in memory and the balancer spreads one client's calls over them, so every call after the first can land where the handle does not exist; opening a new one splits the same way. Fix the deployment: route a client's calls to one replica (affinity on a client or handle key), keep the handles in a shared store, or run one replica.`,
  examples: [
    {
      name: 'a browser context made on one pod, unknown to the other',
      facts: { method: 'tools/call', tool: 'navigate', causes: ['handle-unknown', 'tool-error'], handleSplit: 'ctx_1 handed out by pod-a and unknown to pod-b' },
      fires: true,
    },
    {
      name: 'near miss: a handle the same replica no longer knows (expired)',
      facts: { method: 'tools/call', tool: 'navigate', causes: ['handle-unknown', 'tool-error'] },
      fires: false,
    },
  ],
};

// triage-rules.md decision table (REINIT: expired or lost state the client holds a handle to — the same as an expired
// or lost session) and failure-signatures rows 25, 35 (a restart loses what a server keeps in memory): a kernel, a
// snapshot, a sandbox, a browser context that a tool handed out and the client used, now unknown to the server —
// the server restarted, or the handle expired or was closed. Nothing is wrong with the route or the credentials, and
// the same call with the same handle fails the same way however often it is sent: the state must be made again (the
// tool that created it), then the call repeated. Near misses: another replica made it (handle-lost-across-replicas:
// a deployment fix); a handle no earlier line shows (the client may have made it up: the tool's own answer).
export const handleLost: Rule = {
  id: 'handle-lost',
  decision: 'reinitialize',
  source: 'triage-rules.md decision table (REINIT) · failure-signatures rows 25, 35',
  when(f) {
    if (!has(f, 'handle-unknown')) return 'no tool saying it does not know a handle';
    if (f.handleSplit) return 'another replica handed the handle out (handle-lost-across-replicas)';
    if (!f.handleLost) return 'no earlier line shows the handle in use';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} named a handle the server no longer knows: ${f.handleLost!.where}. ${f.handleLost!.restarted ? 'The server restarted since: what it kept in memory (a kernel, a snapshot, a context) went with the old process' : 'It expired, was closed, or went with a restart these logs do not show'}; sending the same call again fails the same way. Rebuild the state — call the tool that creates the handle again (the client must drop the old one) — then repeat the call.${f.handleLost!.restarted ? ' If restarts are routine, the server should keep such state in a shared store.' : ''}`,
  examples: [
    {
      name: 'a kernel created before the restart, unknown after',
      facts: {
        method: 'tools/call',
        tool: 'execute_cell',
        causes: ['handle-unknown', 'tool-error'],
        handleLost: { where: 'krn_1 named before the server restarted', restarted: true },
      },
      fires: true,
    },
    {
      name: 'a sandbox opened earlier, closed when idle',
      facts: { method: 'tools/call', tool: 'run_code', causes: ['handle-unknown', 'tool-error'], handleLost: { where: 'sbx_1 named earlier', restarted: false } },
      fires: true,
    },
    {
      name: 'near miss: a handle no earlier line shows',
      facts: { method: 'tools/call', tool: 'execute_cell', causes: ['handle-unknown', 'tool-error'] },
      fires: false,
    },
    {
      name: 'near miss: made on another replica',
      facts: {
        method: 'tools/call',
        tool: 'navigate',
        causes: ['handle-unknown', 'tool-error'],
        handleSplit: 'ctx_1 handed out by pod-a and unknown to pod-b',
        handleLost: { where: 'ctx_1 named earlier', restarted: false },
      },
      fires: false,
    },
  ],
};
