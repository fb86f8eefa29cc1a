import type { Rule } from '../rule.ts';
import { has } from '../rule.ts';

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
