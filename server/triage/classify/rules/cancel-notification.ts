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
