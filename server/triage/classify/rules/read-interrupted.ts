import type { Rule } from '../rule.ts';
import { describe, interruptedAfterSend, interruptionWords, sideEffectWords } from '../rule.ts';

// triage-rules.md §6 ("confirmed read-only and repeatable" → retry with bounded attempts);
// failure-signatures D6, rows 8–12, 42, 46, 68, 80.
export const readInterrupted: Rule = {
  id: 'read-interrupted-retry',
  decision: 'retry',
  source: 'failure-signatures D6 · triage-rules.md §6',
  when(f) {
    if (!interruptedAfterSend(f)) return 'the request was not interrupted after it was sent';
    if (f.sideEffect !== 'read') return `not shown to be read-only (${sideEffectWords(f)})`;
    // (triage-rules.md §5: a closed client object is re-created before anything is sent again — the same
    // client refused its next call, failure-closed-the-client)
    if (f.clientClosedAfter !== null) return `the interruption closed the client object (${f.clientClosedAfter}): sending again on it fails`;
    if (f.persistent === true && f.attempts >= 3 && !f.serverStartedAfter && !f.serverStoppedBefore) return `it failed the same way on all ${f.attempts} attempts: not transient`;
    return true;
  },
  rationale: (f) =>
    f.method === 'subscriptions/listen'
      ? `The subscriptions/listen stream ${describe(f).replace(/^subscriptions\/listen ?/, '')}ended (${interruptionWords(f)}): the client gets no notifications until it re-sends subscriptions/listen (a new request with a new id); nothing was lost beyond that (failure-signatures row 92).`
      : `${describe(f)} was interrupted (${interruptionWords(f)}); ${sideEffectWords(f)}, so repeating it has no extra effect. Retry with bounded attempts and backoff (e.g. 3 tries, exponential with jitter)${f.era === 'sessionless' ? ' as a new request with a new id' : ''}${f.sessionSent ? '; if the server restarted, on a new session' : ''}.${f.knownTimerS ? ` The ${f.knownTimerS} s timing points at an infrastructure timer worth raising.` : ''}`,
  examples: [
    {
      name: 'get_order marked read by policy, 502 before headers',
      facts: { method: 'tools/call', tool: 'get_order', httpStatus: 502, interruption: 'closed-before-headers', sideEffect: 'read', sideEffectSource: 'policy' },
      fires: true,
    },
    { name: 'tools/list stream cut', facts: { method: 'tools/list', interruption: 'stream-cut', sideEffect: 'read', sideEffectSource: 'method' }, fires: true },
    { name: 'unknown tool', facts: { method: 'tools/call', tool: 'get_order', interruption: 'closed-before-headers', sideEffect: 'unknown' }, fires: false },
    {
      name: 'a read whose interruption closed the client (its next call refused with Connection closed)',
      facts: { method: 'tools/call', tool: 'get_order', interruption: 'stream-cut', sideEffect: 'read', sideEffectSource: 'annotations', clientClosedAfter: 'host.log:9' },
      fires: false,
    },
  ],
};
