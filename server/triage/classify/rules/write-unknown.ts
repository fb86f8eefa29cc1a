import type { Rule } from '../rule.ts';
import { describe, has, identifiedCall, interruptedAfterSend, interruptionWords, sideEffectWords } from '../rule.ts';

// triage-rules.md §6 ("write outcome unknown" → query status / idempotency key / a person);
// failure-signatures D7, D8, rows 8, 9, 13, 14, 42, 45–47, 68–71, 76, 80–82, 84. Only for an identified
// call: an error tied to no known call says nothing about a write.
export const writeUnknown: Rule = {
  id: 'write-outcome-unknown',
  decision: 'check_write_then_escalate',
  source: 'failure-signatures D7 · triage-rules.md §6',
  when(f) {
    if (!interruptedAfterSend(f)) return 'the request was not interrupted after it was sent';
    if (!identifiedCall(f)) return 'the call is not identified (no tool or method): write safety cannot be judged';
    if (f.sideEffect === 'read') return `a read-only call (${sideEffectWords(f)})`;
    if (f.delivered === false) return 'the request never reached the server';
    // (the handler's own word that it changed nothing — rolled back, no changes made: the outcome is known)
    if (has(f, 'write-not-done')) return 'the server logged that the call changed nothing';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was interrupted (${interruptionWords(f)}) and nothing proves whether it ran: ${sideEffectWords(f)}.${f.attempts > 1 ? ` It was attempted ${f.attempts} times, so there may be more than one effect.` : ''}${f.recovered ? ` It was re-sent and answered later (${f.recoveredBy}): check for a duplicate.` : ''} ${
      f.era === 'sessionless'
        ? 'Under 2026-07-28 the server must treat the closed stream as cancellation, but it may already have committed.'
        : 'Until 2025-11-25 a disconnect is not a cancellation: the server may have finished the write after the client gave up.'
    } Query the operation's status in the target system (or tasks/get if the call was task-augmented), re-send only with an idempotency key the server documents, else have a person with rights confirm. Never blind-retry.${
      f.interruption === 'client-timeout' && f.clientTimeoutMs !== null && f.clientTimeoutMs <= 15_000
        ? ` Then raise the client's ${f.clientTimeoutMs} ms timeout for this tool: it is shorter than the work takes.`
        : ''
    }`,
  examples: [
    { name: 'create_order 502, no commit line', facts: { method: 'tools/call', tool: 'create_order', httpStatus: 502, interruption: 'closed-before-headers' }, fires: true },
    {
      name: '2026 cut stream on a destructive tool',
      facts: {
        method: 'tools/call',
        tool: 'delete_project',
        era: 'sessionless',
        interruption: 'stream-cut',
        sideEffect: 'write',
        sideEffectSource: 'annotations',
        toolHints: 'destructiveHint: true',
      },
      fires: true,
    },
    { name: 'read-only call', facts: { method: 'tools/list', interruption: 'stream-cut', sideEffect: 'read', sideEffectSource: 'method' }, fires: false },
    { name: 'an unidentified cut', facts: { interruption: 'stream-cut' }, fires: false },
    {
      name: 'near miss: the server logged that the cut call changed nothing (rolled back)',
      facts: { method: 'tools/call', tool: 'merge_branch', interruption: 'client-timeout', causes: ['client-timeout', 'write-not-done'] },
      fires: false,
    },
  ],
};
