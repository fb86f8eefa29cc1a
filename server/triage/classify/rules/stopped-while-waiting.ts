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
