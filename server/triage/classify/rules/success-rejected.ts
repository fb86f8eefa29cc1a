import type { Rule } from '../rule.ts';
import { describe, has } from '../rule.ts';

// RFC 9110 §15.3 (201 Created, 204 No Content, 205 Reset Content: the server fulfilled the request) and
// triage-rules.md §6 ("write completed in the target system" → read that result, do not write again): a
// handler or client that accepts one success code reports another 2xx as "unexpected status 204". The
// target system answered that it did the work; the failure is in the status check, not the work. Repeating
// it repeats an effect that exists (or fails on the state it left). 202 Accepted is not here: accepted is
// not done.
export const successRejected: Rule = {
  id: 'success-reported-as-failure',
  decision: 'read_result_no_repeat',
  source: 'RFC 9110 §15.3.2, §15.3.5, §15.3.6 · triage-rules.md §6 · failure-signatures D5',
  when(f) {
    if (!has(f, 'success-status-rejected')) return 'no success status reported as unexpected';
    if (f.sideEffect === 'read') return 'a read-only call: nothing was changed to reconcile';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was reported as failed, but what it reports is the target system answering ${f.httpStatus !== null && f.httpStatus >= 200 && f.httpStatus < 300 ? `HTTP ${f.httpStatus}` : 'a 2xx success (201, 204 or 205)'}, which says the work was done: the caller's status check accepted only another success code. The effect exists — do not send it again. Read the state in the target system and go on; report the status check to the owners of the tool or client that made it.`,
  examples: [
    {
      name: 'a tool: "unexpected status 204" from the API it called',
      facts: { method: 'tools/call', tool: 'archive_thread', httpStatus: 204, causes: ['success-status-rejected'] },
      fires: true,
    },
    { name: 'the bare error line, call not named', facts: { httpStatus: 204, causes: ['success-status-rejected'] }, fires: true },
    { name: 'near miss: a 202 Accepted reported as unexpected (no signal: accepted is not done)', facts: { httpStatus: 202 }, fires: false },
    {
      name: 'near miss: a read-only tool',
      facts: { method: 'tools/call', tool: 'get_thread', sideEffect: 'read', sideEffectSource: 'policy', causes: ['success-status-rejected'] },
      fires: false,
    },
  ],
};
