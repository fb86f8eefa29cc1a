import type { Rule } from '../rule.ts';
import { describe, sideEffectWords } from '../rule.ts';

// failure-signatures (c) stage H (sent, no status line came back) and triage-rules.md's vocabulary
// ("a defect in … the calling application" → escalate): the client's own process logged that it was
// shutting down while a call still waited for its answer, with no error before it (mcp-remote's
// `[Local→Remote] initialize` then `Shutting down...` as its host stops it). Nothing broke on the
// wire: whatever stopped the process (the host app, a supervisor, a user) is where to look. A call
// that may write is judged before this by write-outcome-unknown (its outcome comes first).
export const stoppedWhileWaiting: Rule = {
  id: 'stopped-while-waiting',
  decision: 'escalate',
  source: 'failure-signatures (c) stage H · triage-rules.md decision vocabulary (calling application)',
  when(f) {
    if (f.interruption !== 'stopped-while-waiting') return 'the client process did not shut down with this call waiting';
    return true;
  },
  rationale: (f) =>
    `The client sent ${describe(f)} and its process logged that it was shutting down before any answer came, with no error logged before it: the call was cut off by the stop, not by the server or the network. Find what stopped the process (the host application's own log, a supervisor, a user closing it) — a host that kills its MCP bridge during ${f.method === 'initialize' ? 'the handshake' : 'a call'} is a defect of the host, not something a retry or a config change here fixes.${f.sideEffect === 'read' ? ` Sending it again is safe (${sideEffectWords(f)}).` : ''}`,
  examples: [
    {
      name: 'initialize, then the bridge shuts down',
      facts: { method: 'initialize', interruption: 'stopped-while-waiting', sideEffect: 'read', sideEffectSource: 'method' },
      fires: true,
    },
    { name: 'a timeout, not a stop', facts: { method: 'initialize', interruption: 'client-timeout' }, fires: false },
    { name: 'no interruption', facts: { method: 'tools/list' }, fires: false },
  ],
};

// failure-signatures (c) stage H: a call sent, no status line back, and the client's log ends there
// with nothing else failed anywhere (analyze.ts markEndedWaiting) — the "it just hangs" report. No
// error exists to read because the client was still waiting; the server's side of this call is
// where the answer went missing. A call that may write is judged before this by write-outcome-unknown.
export const endedWaiting: Rule = {
  id: 'log-ended-waiting',
  decision: 'escalate',
  source: 'failure-signatures (c) stage H · triage-rules.md decision vocabulary',
  when(f) {
    if (f.interruption !== 'log-ended-waiting') return "the client's log does not end with this call waiting";
    return true;
  },
  rationale: (f) =>
    `The client sent ${describe(f)} and its log ends with no answer of any kind — no status, result or error — and nothing else in the incident failed: the call hung. The server's log for this call (or the proxy's access line, which shows whether it was ever answered) is what to read next; if the client's log was cut before the answer, collect more of it.${f.sideEffect === 'read' ? ` Sending it again is safe (${sideEffectWords(f)}), but a retry that hangs the same way says the server never finishes it.` : ''}`,
  examples: [
    {
      name: 'tools/list sent, the log ends',
      facts: { method: 'tools/list', interruption: 'log-ended-waiting', sideEffect: 'read', sideEffectSource: 'method' },
      fires: true,
    },
    { name: 'the process stopped it', facts: { method: 'tools/list', interruption: 'stopped-while-waiting' }, fires: false },
    { name: 'a client timeout', facts: { method: 'tools/call', interruption: 'client-timeout' }, fires: false },
  ],
};
