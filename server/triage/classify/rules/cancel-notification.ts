import type { Rule } from '../rule.ts';

// triage-rules.md §5 step 4 / failure-signatures D16: a failed notifications/cancelled loses no
// request of its own; the request it tried to cancel is judged separately (its own row).
export const cancelNotification: Rule = {
  id: 'cancel-notification-failure',
  decision: 'no_action',
  source: 'failure-signatures D16 · triage-rules.md §5',
  when(f) {
    if (f.method !== 'notifications/cancelled' && !/Failed to send cancellation/.test(f.text)) return 'not a notifications/cancelled exchange';
    if (f.method && f.method !== 'notifications/cancelled') return `the exchange is a ${f.method} request`;
    return true;
  },
  rationale: (f) =>
    `The client's notifications/cancelled could not be delivered${f.httpStatus ? ` (HTTP ${f.httpStatus})` : ''}. A notification carries no result and nothing waits for it; the request it tried to cancel is judged on its own row — act on that one.`,
  examples: [
    { name: 'cancel after a timeout hits a dead upstream', facts: { method: 'notifications/cancelled', httpStatus: 502, proxyPhrase: 'connecting', interruption: 'connect' }, fires: true },
    { name: 'a tools/call 502', facts: { method: 'tools/call', httpStatus: 502 }, fires: false },
  ],
};
