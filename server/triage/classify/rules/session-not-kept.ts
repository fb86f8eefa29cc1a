import type { Rule } from '../rule.ts';
import { QUICK_LOSS_MS } from '../incident.ts';
import { describe } from '../rule.ts';

// failure-signatures D18 and row 25 ("repeated on every call across pods → FIX sticky routing / stateless
// mode"), row 37 (legacy SSE across workers): a session the server forgets seconds after issuing it, with
// no restart, exit, 5xx, DELETE or eviction logged in between, was not expired — idle timers run for
// minutes. The deployment does not keep sessions: replicas or workers without affinity, a serverless host
// that starts an instance per request, a stateless server answering like a stateful one. Reinitializing
// gets a new session that is lost the same way.
export const LOST_SOON_MS = QUICK_LOSS_MS;
/** Untimed logs: the failure within this many lines of the session's creation, nothing logged between. */
export const LOST_SOON_LINES = 12;

export const sessionNotKept: Rule = {
  id: 'session-not-kept',
  decision: 'fix_route_or_config',
  source: 'failure-signatures D18, rows 25, 37 · triage-rules.md §3 (causes from evidence)',
  when(f) {
    if (f.era === 'sessionless') return 'protocol 2026-07-28 has no sessions';
    if (f.sessionUnknown !== true) return 'nothing shows the server did not know the session';
    if (f.sessionSent === false) return 'the request carried no session id';
    // D18: answered 2xx again after the refusal, so it was never expired or forgotten — another holder has it
    if (f.sessionAcceptedAfter !== null) return true;
    // untimed: the session's own creation a few lines up the same log, nothing between (no loss, no other call answered), stands in for "seconds"
    if (f.sessionAgeMs === null && (f.sessionAgeLines === null || f.sessionAgeLines > LOST_SOON_LINES))
      return 'when the session began is not in the logs (or not timed, and not just above)';
    if (f.sessionAgeMs !== null && (f.sessionAgeMs < 0 || f.sessionAgeMs > LOST_SOON_MS))
      return `the session lived ${Math.round(f.sessionAgeMs / 1000)} s: long enough to have been expired or lost to a restart`;
    if (f.sessionLossExplained !== null) return `something logged in between explains the loss (${f.sessionLossExplained})`;
    // (unless sessions were lost within seconds of their creation again and again: then the one that lasted was lucky)
    if (f.laterSessionKept !== null && f.quickSessionLosses < 2)
      return `a session issued after it kept working (${f.laterSessionKept}): the server keeps its sessions, this loss was a one-off`;
    return true;
  },
  rationale: (f) =>
    f.sessionAcceptedAfter !== null
      ? `${describe(f)} was rejected for an unknown session, and the same session was answered again afterwards (${f.sessionAcceptedAfter}) with no new handshake: the session was never expired or forgotten — a restart or idle timeout loses it for good. Some of the servers (replicas or workers) behind this endpoint hold it and others do not: the same session failing on alternate calls (failure-signatures D18). Reinitializing gets a session that is lost the same way. Fix the deployment: affinity on Mcp-Session-Id, a shared session store, one worker, or stateless mode.`
      : `${describe(f)} was rejected for an unknown session ${f.sessionAgeMs !== null ? `${(f.sessionAgeMs / 1000).toFixed(1)} s` : `${f.sessionAgeLines} lines`} after the client's handshake, and nothing logged in between — no restart, exit, 5xx, DELETE or eviction — explains it. Sessions expire after minutes idle, not seconds${f.quickSessionLosses > 1 ? ` — and ${f.quickSessionLosses} sessions here were lost within seconds of being issued` : ''}: the server is not keeping the sessions it issues (several replicas or workers without affinity, a serverless host starting an instance per request, or a stateless server answering like a stateful one). Reinitializing gets a session that is lost the same way. Fix the deployment: affinity on Mcp-Session-Id, a shared session store, one worker, or stateless mode. If the server did restart in between and its log is missing, reinitialize instead.`,
  examples: [
    { name: 'forgotten 1.2 s after discovery', facts: { httpStatus: 404, sessionUnknown: true, sessionAgeMs: 1200, era: 'session', causes: ['session-unknown'] }, fires: true },
    {
      name: 'a restart logged in between',
      facts: { httpStatus: 404, sessionUnknown: true, sessionAgeMs: 3800, sessionLossExplained: 'server.log:12 process-started', era: 'session' },
      fires: false,
    },
    {
      name: 'lost 2 s after the handshake, but the next session served three calls (an unlogged restart)',
      facts: { httpStatus: 404, sessionUnknown: true, sessionAgeMs: 2000, era: 'session', laterSessionKept: 'client.log:40-52' },
      fires: false,
    },
    {
      name: 'lost seconds after the handshake three times, one session in between served a call',
      facts: { httpStatus: 404, sessionUnknown: true, sessionAgeMs: 300, era: 'session', laterSessionKept: 'client.log:5', quickSessionLosses: 3 },
      fires: true,
    },
    { name: 'lost after ten minutes idle', facts: { httpStatus: 404, sessionUnknown: true, sessionAgeMs: 600_000, era: 'session' }, fires: false },
    { name: 'no timestamps', facts: { httpStatus: 404, sessionUnknown: true, era: 'session' }, fires: false },
    { name: 'no timestamps, rejected six lines under its own creation', facts: { httpStatus: 404, sessionUnknown: true, era: 'session', sessionAgeLines: 6 }, fires: true },
    { name: 'no timestamps, created 40 lines up', facts: { httpStatus: 404, sessionUnknown: true, era: 'session', sessionAgeLines: 40 }, fires: false },
    {
      name: 'refused as unknown after ten minutes, then the same session answered 200 (D18)',
      facts: { httpStatus: 404, sessionUnknown: true, sessionAgeMs: 600_000, era: 'session', sessionAcceptedAfter: 'nginx.log:31' },
      fires: true,
    },
    {
      name: 'the same session answered again, but protocol 2026-07-28 has no sessions',
      facts: { httpStatus: 404, sessionUnknown: true, era: 'sessionless', sessionAcceptedAfter: 'nginx.log:31' },
      fires: false,
    },
    { name: 'no session id was sent', facts: { httpStatus: 400, sessionUnknown: true, sessionSent: false, sessionAgeMs: 500 }, fires: false },
  ],
};
