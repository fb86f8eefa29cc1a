import type { Rule } from '../rule.ts';
import { describe, sideEffectWords } from '../rule.ts';
import { interruptionWords } from './write-committed.ts';

// triage-rules.md §6 ("write outcome unknown" → query status / idempotency key / a person);
// failure-signatures D7, D8, rows 8, 9, 13, 14, 42, 45–47, 68–71, 76, 80–82, 84.
export const writeUnknown: Rule = {
  id: 'write-outcome-unknown',
  decision: 'check_write_then_escalate',
  source: 'failure-signatures D7 · triage-rules.md §6',
  when(f) {
    if (f.interruption === null || f.interruption === 'connect') return 'the request was not interrupted after it was sent';
    if (f.sideEffect === 'read') return `a read-only call (${sideEffectWords(f)})`;
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was interrupted (${interruptionWords(f)}) and nothing proves whether it ran: ${sideEffectWords(f)}. ${
      f.era === 'sessionless'
        ? 'Under 2026-07-28 the server must treat the closed stream as cancellation, but it may already have committed.'
        : 'Until 2025-11-25 a disconnect is not a cancellation: the server may have finished the write after the client gave up.'
    } Query the operation's status in the target system (or tasks/get if the call was task-augmented), re-send only with an idempotency key the server documents, else have a person with rights confirm. Never blind-retry.`,
  examples: [
    { name: 'create_order 502, handler started, no commit line', facts: { method: 'tools/call', tool: 'create_order', httpStatus: 502, interruption: 'proxy-closed-before-headers' }, fires: true },
    { name: '2026 cut stream on a destructive tool', facts: { method: 'tools/call', tool: 'delete_project', era: 'sessionless', interruption: 'stream-cut', sideEffect: 'write', sideEffectSource: 'annotations', toolHints: 'destructiveHint: true' }, fires: true },
    { name: 'read-only call', facts: { method: 'tools/list', interruption: 'stream-cut', sideEffect: 'read', sideEffectSource: 'method' }, fires: false },
  ],
};
