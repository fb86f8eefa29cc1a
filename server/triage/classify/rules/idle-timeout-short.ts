import type { Rule } from '../rule.ts';
import { describe } from '../rule.ts';

// failure-signatures rows 25, 35 ("Session <id> idle timeout" before the refusal) and triage-rules.md §3
// (causes of a lost session from evidence: an eviction policy). The server states its idle timeout when it
// closes an idle session: the C# SDK (ModelContextProtocol.AspNetCore StatefulSessionManager) logs
// `IdleTimeout of {IdleTimeout} exceeded. Closing idle session {SessionId}.` — default IdleTimeout 2 hours
// (HttpServerTransportOptions) — and rmcp `keep alive timeout after {ms}ms` — default SessionConfig
// keep_alive 5 minutes. A refusal for an unknown session when the stated timeout is below the shortest SDK
// default is not a one-off: an interactive host pauses minutes between tool calls, so every pause that long
// loses the session again. A fresh session restores service once; the setting is the fix.
/** The shortest idle timeout an SDK ships (rmcp SessionConfig::DEFAULT_KEEP_ALIVE, 300 s). */
export const SHORTEST_DEFAULT_IDLE_MS = 300_000;

export const idleTimeoutShort: Rule = {
  id: 'idle-timeout-below-defaults',
  decision: 'fix_route_or_config',
  source: 'failure-signatures rows 25, 35 · triage-rules.md §3 (eviction policy from evidence) · C# SDK HttpServerTransportOptions.IdleTimeout, rmcp SessionConfig keep_alive',
  when(f) {
    if (f.era === 'sessionless') return 'protocol 2026-07-28 has no sessions';
    if (f.sessionUnknown !== true) return 'nothing shows the server did not know the session';
    if (f.sessionSent === false) return 'the request carried no session id';
    if (f.routeWrong === true) return 'the answer came from something other than the MCP endpoint';
    if (f.method === 'initialize') return 'an initialize opens a session: it lost none (initialize-refused-as-unknown-session)';
    if (f.idleTimeoutMs === null) return "no eviction line states the server's idle timeout";
    if (f.idleTimeoutMs >= SHORTEST_DEFAULT_IDLE_MS)
      return `the server's idle timeout (${Math.round(f.idleTimeoutMs / 1000)} s) is no shorter than the SDK defaults: a session idle that long was expired, reinitialize`;
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was refused for an unknown session, and the server logged that it closes sessions idle for ${fmt(f.idleTimeoutMs ?? 0)} (${f.idleTimeoutAt}). That is shorter than any SDK default (C# SDK IdleTimeout 2 hours, rmcp keep_alive 5 minutes): a host pauses longer than that between tool calls in normal use, so sessions keep expiring under it. A fresh initialize without the old id restores service once; the fix is the setting — raise the server's idle timeout above the pauses its clients take (or have the client hold the standalone GET stream open, which keeps a C# SDK session active).`,
  examples: [
    {
      name: 'C# SDK closed sessions idle 2 minutes, then Session not found',
      facts: { method: 'tools/call', httpStatus: 404, sessionUnknown: true, idleTimeoutMs: 120_000, idleTimeoutAt: 'server.log:1', era: 'session', causes: ['session-unknown'] },
      fires: true,
    },
    {
      name: 'near miss: the C# default of 2 hours (a long pause: reinitialize)',
      facts: { method: 'tools/call', httpStatus: 404, sessionUnknown: true, idleTimeoutMs: 7_200_000, era: 'session', causes: ['session-unknown'] },
      fires: false,
    },
    {
      name: 'near miss: rmcp default keep-alive of 5 minutes',
      facts: { method: 'tools/call', httpStatus: 404, sessionUnknown: true, idleTimeoutMs: 300_000, era: 'session', causes: ['session-unknown'] },
      fires: false,
    },
    {
      name: 'near miss: an initialize answered as an unknown session',
      facts: { method: 'initialize', httpStatus: 404, sessionUnknown: true, idleTimeoutMs: 60_000, causes: ['session-unknown'] },
      fires: false,
    },
    {
      name: 'near miss: an eviction logged without its timeout',
      facts: { method: 'tools/call', httpStatus: 404, sessionUnknown: true, idleTimeoutMs: null, era: 'session', causes: ['session-unknown'] },
      fires: false,
    },
    {
      name: 'near miss: a short timeout, but the request carried no session id',
      facts: { method: 'tools/call', httpStatus: 400, sessionUnknown: true, sessionSent: false, idleTimeoutMs: 60_000, causes: ['session-unknown'] },
      fires: false,
    },
  ],
};

function fmt(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 1000)} s`;
}
