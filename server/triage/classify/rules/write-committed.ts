import type { Rule } from '../rule.ts';
import { describe, interruptedAfterSend, interruptionWords } from '../rule.ts';

// triage-rules.md §6 ("write completed in the target system" → read that result, do not write again);
// failure-signatures D5 (server-side evidence the write committed, but the client never got the answer).
export const writeCommitted: Rule = {
  id: 'write-committed-not-delivered',
  decision: 'read_result_no_repeat',
  source: 'failure-signatures D5 · triage-rules.md §6',
  when(f) {
    if (!interruptedAfterSend(f)) return 'the request was not interrupted after it was sent';
    if (f.sideEffect === 'read') return 'a read-only call: nothing to reconcile';
    if (!f.writeEvidence) return 'no server line shows the work completed';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was interrupted (${interruptionWords(f)}), but the server logged that it finished the work (${f.writeEvidence}). The effect exists: do not send it again. Read the result in the target system${f.era === 'sessionless' ? '' : ' (or over a new session)'} and carry on; fix the interruption separately.`,
  examples: [
    {
      name: '502 before headers, server logged committed',
      facts: {
        method: 'tools/call',
        tool: 'create_order',
        httpStatus: 502,
        interruption: 'closed-before-headers',
        writeEvidence: 'server.log:16 tools/call create_order committed order=ORD-4711',
      },
      fires: true,
    },
    { name: 'no commit evidence', facts: { method: 'tools/call', tool: 'create_order', httpStatus: 502, interruption: 'closed-before-headers' }, fires: false },
    {
      name: 'read-only call that completed',
      facts: { method: 'tools/list', interruption: 'stream-cut', sideEffect: 'read', sideEffectSource: 'method', writeEvidence: 'x' },
      fires: false,
    },
  ],
};
