import type { Rule } from '../rule.ts';
import { describe } from '../rule.ts';

// triage-rules.md §3 ("404 on the very first initialize, or an HTML 404 page"); failure-signatures.md D12, rows 3, 48, 73.
export const route404: Rule = {
  id: 'route-404',
  decision: 'fix_route_or_config',
  source: 'triage-rules.md §3 · failure-signatures D12',
  when(f) {
    if (f.httpStatus !== 404) return 'status is not 404';
    if (f.era === 'sessionless' && f.jsonRpcCode === -32601) return 'a 2026-07-28 404 with -32601 means the method is unknown, not the route';
    if (f.bodyKind === 'html') return true;
    if (f.firstRequest) return true;
    if (!f.sessionSent) return true;
    return 'a session id was sent and the answer was not an HTML page';
  },
  rationale: (f) =>
    f.bodyKind === 'html'
      ? `${describe(f)} got an HTML 404 page: something other than the MCP endpoint answered (proxy route, mount prefix or path). Re-creating sessions cannot fix it; fix the URL or the proxy location.`
      : `${describe(f)} got 404 ${f.firstRequest ? 'on the very first exchange' : 'without carrying a session id'}: nothing at that URL speaks MCP. Check the endpoint path, mount prefix and proxy route.`,
  examples: [
    { name: 'first initialize 404', facts: { httpStatus: 404, firstRequest: true, method: 'initialize' }, fires: true },
    { name: 'html 404 mid-session', facts: { httpStatus: 404, sessionSent: true, sessionAssignedEarlier: true, session: 'sess_aaaaaaaaaa', bodyKind: 'html' }, fires: true },
    { name: 'json 404 with an assigned session', facts: { httpStatus: 404, sessionSent: true, sessionAssignedEarlier: true, session: 'sess_aaaaaaaaaa', bodyKind: 'jsonrpc-error', era: 'session' }, fires: false },
  ],
};
