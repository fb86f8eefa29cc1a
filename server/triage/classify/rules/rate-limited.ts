import type { Rule } from '../rule.ts';
import { describe, has } from '../rule.ts';

// RFC 6585 §4 (429 Too Many Requests, Retry-After), RFC 9110 §15.6.4 and §10.2.3 (503 with Retry-After: unavailable
// for now, maintenance or overload) and failure-signatures (c) stage P: a complete answer
// refusing the request for rate or quota, given before it was dispatched, so nothing ran and sending it
// again (after the wait the answer asks for) is safe even for a write. Persisting 429s are a quota to
// raise or a call rate to lower.
export const rateLimited: Rule = {
  id: 'rate-limited',
  decision: 'retry',
  source: 'RFC 6585 §4 · RFC 9110 §15.6.4, §10.2.3 · failure-signatures (c) stage P',
  when(f) {
    if (f.httpStatus !== 429 && !has(f, 'rate-limited') && !has(f, 'unavailable-retry-after')) return 'no 429, no rate-limit wording and no 503 naming when to come back';
    if (f.httpStatus !== null && f.httpStatus !== 429 && f.httpStatus !== 503) return `the answer was ${f.httpStatus}, not a rate limit`;
    return true;
  },
  rationale: (f) =>
    has(f, 'unavailable-retry-after') && !has(f, 'rate-limited') && f.httpStatus !== 429
      ? `${describe(f)} was answered 503 with the time to come back (Retry-After, or a maintenance page): the server said it was unavailable for now — maintenance or overload — before it dispatched the request, so nothing ran. Send it again after that wait${f.attempts > 1 ? `; it was refused ${f.attempts} times, so check when the maintenance or overload ends` : ''}.`
      : `${describe(f)} was refused for rate or quota${f.httpStatus ? ` (HTTP ${f.httpStatus})` : ''} by the server or a gateway in front of it. A rate-limit answer comes before the request is dispatched, so nothing ran: send it again after the wait the answer asks for (Retry-After) or with exponential backoff${f.attempts > 1 ? `; it was refused ${f.attempts} times, so lower the call rate or raise the quota` : ''}.`,
  examples: [
    { name: '429 on tools/call', facts: { method: 'tools/call', tool: 'search', httpStatus: 429, signals: ['http-429'] }, fires: true },
    { name: 'a gateway rate-limit line, 503', facts: { httpStatus: 503, causes: ['rate-limited'] }, fires: true },
    { name: '503 upstream down', facts: { httpStatus: 503, causes: ['proxy-upstream-unavailable'] }, fires: false },
    { name: 'rate-limit wording beside a 401', facts: { httpStatus: 401, causes: ['rate-limited'] }, fires: false },
    { name: '503 with Retry-After (maintenance)', facts: { method: 'tools/call', tool: 'list_open_orders', httpStatus: 503, causes: ['unavailable-retry-after'] }, fires: true },
    { name: 'near miss: Retry-After wording beside a 502', facts: { httpStatus: 502, causes: ['unavailable-retry-after'] }, fires: false },
  ],
};
