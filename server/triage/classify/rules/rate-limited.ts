import type { Rule } from '../rule.ts';
import { describe, has } from '../rule.ts';

// RFC 6585 §4 (429 Too Many Requests, Retry-After) and failure-signatures (c) stage P: a complete answer
// refusing the request for rate or quota, given before it was dispatched, so nothing ran and sending it
// again (after the wait the answer asks for) is safe even for a write. Persisting 429s are a quota to
// raise or a call rate to lower.
export const rateLimited: Rule = {
  id: 'rate-limited',
  decision: 'retry',
  source: 'RFC 6585 §4 · failure-signatures (c) stage P',
  when(f) {
    if (f.httpStatus !== 429 && !has(f, 'rate-limited')) return 'no 429 and no rate-limit wording';
    if (f.httpStatus !== null && f.httpStatus !== 429 && f.httpStatus !== 503) return `the answer was ${f.httpStatus}, not a rate limit`;
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was refused for rate or quota${f.httpStatus ? ` (HTTP ${f.httpStatus})` : ''} by the server or a gateway in front of it. A rate-limit answer comes before the request is dispatched, so nothing ran: send it again after the wait the answer asks for (Retry-After) or with exponential backoff${f.attempts > 1 ? `; it was refused ${f.attempts} times, so lower the call rate or raise the quota` : ''}.`,
  examples: [
    { name: '429 on tools/call', facts: { method: 'tools/call', tool: 'search', httpStatus: 429, signals: ['http-429'] }, fires: true },
    { name: 'a gateway rate-limit line, 503', facts: { httpStatus: 503, causes: ['rate-limited'] }, fires: true },
    { name: '503 upstream down', facts: { httpStatus: 503, causes: ['proxy-upstream-unavailable'] }, fires: false },
    { name: 'rate-limit wording beside a 401', facts: { httpStatus: 401, causes: ['rate-limited'] }, fires: false },
  ],
};
