import type { Rule } from '../rule.ts';
import { describe, has, sideEffectWords } from '../rule.ts';

// sdk-behaviour.md item 3; triage-rules.md §5; cli-contract.md roles (cancellation after a timeout is a
// consequence): a failed notifications/cancelled loses no request of its own.
export const cancelNotification: Rule = {
  id: 'cancel-notification-failure',
  decision: 'no_action',
  source: 'sdk-behaviour.md item 3 · failure-signatures D16 · cli-contract.md (consequence)',
  role: 'consequence',
  when(f) {
    if (f.method !== 'notifications/cancelled' && !has(f, 'cancel-sent')) return 'not a notifications/cancelled exchange';
    if (f.method && f.method !== 'notifications/cancelled') return `the exchange is a ${f.method} request`;
    return true;
  },
  rationale: (f) =>
    `The client's notifications/cancelled could not be delivered${f.httpStatus ? ` (HTTP ${f.httpStatus})` : ''}: a consequence of the request it tried to cancel, which is judged on its own row. A notification carries no result and nothing waits for it.`,
  examples: [
    { name: 'cancel after a timeout hits a restarted server', facts: { method: 'notifications/cancelled', httpStatus: 404, causes: ['cancel-sent'] }, fires: true },
    { name: 'a tools/call 502', facts: { method: 'tools/call', httpStatus: 502 }, fires: false },
  ],
};

// typescript-sdk shared/protocol.ts: the SDK logs "Received a response for an unknown message ID" when an
// answer comes for a request it already gave up on (timed out or cancelled): the request's own failure is
// judged on its row; this line only shows the server did finish it, late (sdk-behaviour.md item 10).
export const lateResponse: Rule = {
  id: 'late-response',
  decision: 'no_action',
  source: 'typescript-sdk shared/protocol.ts · sdk-behaviour.md item 10',
  role: 'consequence',
  when(f) {
    if (!f.causes.includes('late-response')) return 'no late response';
    if (f.causes.some((c) => c !== 'late-response' && c !== 'call-succeeded')) return 'other failures in the same lines';
    return true;
  },
  rationale: () =>
    'An answer arrived for a request the client had already given up on (timed out or cancelled): a consequence of that timeout, judged on its own row. It shows the server did finish the request, late.',
  examples: [
    { name: 'unknown message ID after a timeout', facts: { causes: ['late-response'] }, fires: true },
    { name: 'a late response beside a cut stream', facts: { causes: ['late-response', 'stream-cut'] }, fires: false },
  ],
};

// spec 2026-07-28 basic/patterns/cancellation.mdx: a client cancels a request it issued (the spec's example
// reason: "User requested cancellation"; over Streamable HTTP, closing the response stream is the cancellation
// and the server must stop). A call its caller cancelled on purpose — a user's Stop, the host dropping a turn —
// did not fail: the connection, the proxy and the server did what they should (a proxy's 499 is the same
// choice seen from the middle). Only the write question stays: a cancellation does not undo work already
// committed (triage-rules.md §6), so a call known to write goes on to write-outcome-unknown, and one whose
// completion was logged to write-committed (both judged by the outcome, not the stop). A timeout's own cancel
// is not this (facts.ts: the interruption is the timeout).
export const cancelledByCaller: Rule = {
  id: 'cancelled-by-caller',
  decision: 'no_action',
  source: 'spec 2026-07-28 basic/patterns/cancellation.mdx · triage-rules.md §6 · cli-contract.md (no_action)',
  role: 'consequence',
  when(f) {
    if (f.interruption !== 'caller-cancelled') return 'the caller did not cancel this call on purpose';
    if (f.sideEffect === 'write') return `a call that writes (${sideEffectWords(f)}): whether it ran is the question`;
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was cancelled by its caller on purpose (a user's Stop, or the host application cancelling it), not cut by a fault: the connection, any proxy and the server did what a cancellation asks (under 2026-07-28 the server must treat the closed stream as cancellation and stop). Nothing to fix; send it again if the work is still wanted${
      f.sideEffect === 'read'
        ? ` (${sideEffectWords(f)})`
        : ` — and if ${f.tool ?? 'it'} can change state, first check whether it already did: a cancellation does not undo work already committed`
    }.`,
  examples: [
    {
      name: 'a user stops a long tool call; nothing says it writes',
      facts: { method: 'tools/call', tool: 'summarize_repo', interruption: 'caller-cancelled', causes: ['caller-cancelled'] },
      fires: true,
    },
    {
      name: 'near miss: the caller cancels a call known to write (its outcome is the question)',
      facts: { method: 'tools/call', tool: 'close_ticket', interruption: 'caller-cancelled', sideEffect: 'write', sideEffectSource: 'annotations' },
      fires: false,
    },
    { name: "near miss: a timeout's own cancellation", facts: { method: 'tools/call', interruption: 'client-timeout', causes: ['client-timeout', 'cancel-sent'] }, fires: false },
  ],
};
