import type { Rule } from '../rule.ts';
import { describe, has, identifiedCall } from '../rule.ts';

// failure-signatures row 93 ("alternating success and Session not found / No valid session ID provided /
// Server not initialized on consecutive calls in one session → FIX affinity, shared store or stateless
// mode"), D18, row 25 ("repeated on every call across pods → FIX"); triage-rules.md §3 (a request landing
// on another worker without that session, shown from evidence). A session refusal counted beside
// successes of the same requests (`7 ok / 5 failed`, `200: 7  400: 13`) is not a lost session: a restart
// or an idle reap loses a session for good, and a missing header fails every time. Some of the servers
// behind the endpoint hold the session and others do not; a new session splits the same way.
export const sessionRefusedIntermittently: Rule = {
  id: 'session-refused-intermittently',
  decision: 'fix_route_or_config',
  source: 'failure-signatures row 93, D18, row 25 · triage-rules.md §3 (causes from evidence)',
  when(f) {
    if (f.era === 'sessionless') return 'protocol 2026-07-28 has no sessions';
    if (f.sessionUnknown !== true && !has(f, 'session-invalid', 'server-not-initialized')) return 'not refused for its session';
    if (f.sessionSent === false) return 'the request carried no session id (a missing header fails every time)';
    if (f.mixedTally === null) return 'no count shows the same requests also passing';
    // (a summary of requests before and after a restart counts both too: the restart explains the failures)
    if (f.sessionLossExplained !== null || f.restartedSinceWorked === true) return 'a restart or eviction logged in between explains the loss';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was refused for its session (${f.httpStatus ? `HTTP ${f.httpStatus}, ` : ''}the server did not know it), and a count in the logs shows the same requests passing as well (${f.mixedTally}): the session was not lost — a restart or an idle timeout loses it for good, and a missing header fails every time. Some of the servers (replicas or worker processes) behind this endpoint hold the session and others do not: requests of one session spread over backends that keep sessions in memory (failure-signatures row 93). Reinitializing gets a session that splits the same way. Fix the deployment: session affinity on Mcp-Session-Id (or client IP), a shared session store, one worker, or stateless mode.`,
  examples: [
    {
      name: '"Session not found" counted beside successes: 7 ok / 5 failed',
      facts: { sessionUnknown: true, sessionSent: true, era: 'session', causes: ['session-unknown'], mixedTally: 'probe.log:7 (7 passed, 5 failed)' },
      fires: true,
    },
    {
      name: '400 "no valid session id" on 13 of 20 tools/list with the same headers',
      facts: { httpStatus: 400, causes: ['session-invalid'], era: 'session', mixedTally: 'notes.log:9 (7 passed, 13 failed)' },
      fires: true,
    },
    { name: 'near miss: "Session not found", no count', facts: { sessionUnknown: true, sessionSent: true, era: 'session', causes: ['session-unknown'] }, fires: false },
    {
      name: 'near miss: counted beside successes, but a restart is logged before the failures',
      facts: { sessionUnknown: true, sessionSent: true, era: 'session', mixedTally: 'probe.log:7 (7 passed, 5 failed)', sessionLossExplained: 'server.log:3 process-started' },
      fires: false,
    },
    {
      name: 'near miss: no session id was sent',
      facts: { httpStatus: 400, causes: ['session-invalid'], sessionSent: false, mixedTally: 'probe.log:7 (7 passed, 5 failed)' },
      fires: false,
    },
  ],
};

// failure-signatures D1 (connect-stage: bounded retries for availability; "persistent → fix") and D6 (a
// read-only and repeatable request: retry with bounded attempts and backoff); triage-rules.md §6. A
// failure that a count shows beside successes of the same requests (`3/5 OK` while the other servers
// probed were 5/5, `18 succeeded, 2 failed`) is intermittent: the route, the credentials and the server's
// code are right, or nothing would pass. Only for a failure that nothing shows to be a write: an
// identified call whose side effect is unknown goes to the write rules.
export const intermittentRetry: Rule = {
  id: 'intermittent-retry',
  decision: 'retry',
  source: 'failure-signatures D1, D6 · triage-rules.md §6 (read-only and repeatable → bounded retries)',
  when(f) {
    if (f.mixedTally === null) return 'no count shows the same requests also passing';
    if (f.sessionUnknown === true || has(f, 'session-invalid', 'server-not-initialized', 'session-missing')) return 'refused for its session (session-refused-intermittently)';
    if (has(f, 'auth-rejected', 'auth-token-expired', 'rate-limited')) return 'a refusal with its own remedy (credentials, rate)';
    if (f.writeEvidence !== null) return 'the server logged the work: its result comes first';
    if (identifiedCall(f) && f.method === 'tools/call' && f.sideEffect !== 'read') return 'a tool call not shown to be read-only: its outcome comes first';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} failed, and a count in the logs shows the same requests passing as well (${f.mixedTally}): intermittent, not a wrong route, credential or server defect — those fail every attempt. Retry with bounded attempts and backoff (a few tries, exponential with jitter); if the failure rate persists, take the failing attempts' errors and timing to the owners of the failing side (a flaky upstream, a replica that misbehaves, a network path that drops connections).`,
  examples: [
    { name: 'a probe: 3/5 OK, the other servers 5/5', facts: { mixedTally: 'probe.log:1 (3 passed, 2 failed)', persistent: false }, fires: true },
    {
      name: 'initialize reset on 2 of 5 attempts',
      facts: { method: 'initialize', causes: ['conn-reset'], mixedTally: 'probe.log:1 (3 passed, 2 failed)', persistent: false },
      fires: true,
    },
    { name: 'near miss: a write tool failing 2 of 5 times', facts: { method: 'tools/call', tool: 'submit_invoice', mixedTally: 'agent.log:4 (3 passed, 2 failed)' }, fires: false },
    { name: 'near miss: no count, one failure', facts: { causes: ['conn-reset'] }, fires: false },
    {
      name: 'near miss: 401 on some attempts',
      facts: { httpStatus: 401, causes: ['auth-rejected'], mixedTally: 'probe.log:1 (3 passed, 2 failed)' },
      fires: false,
    },
  ],
};
