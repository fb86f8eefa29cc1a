import type { Rule } from '../rule.ts';
import { describe, has, signalWords } from '../rule.ts';

// triage-rules.md §3 ("404 on the very first initialize, or an HTML 404 page from a reverse proxy");
// failure-signatures D12, rows 3, 36, 48, 73, 79. A route verdict needs evidence the route is wrong:
// the path never worked in the incident, an HTML or "Cannot POST" body, a proxy open() failure or no
// route — a 404 with a session id on a path that worked is session loss, not this.
export const route404: Rule = {
  id: 'route-404',
  decision: 'fix_route_or_config',
  source: 'triage-rules.md §3 · failure-signatures D12, rows 3, 73, 79',
  when(f) {
    if (f.era === 'sessionless' && f.jsonRpcCode === -32601) return 'a 2026-07-28 404 with -32601 means the method is unknown, not the route';
    // (a proxy's HTML page that says the request was too big is a size limit, not a wrong path)
    if (has(f, 'headers-too-large', 'body-too-large')) return 'the answer says the request was over a size limit (request-rejected-at-validation)';
    if (f.routeWrong !== true)
      return f.routeWrong === false
        ? 'the path worked elsewhere in the incident'
        : 'no evidence the route is wrong (no HTML/no-route body, and the path is not shown failing everywhere)';
    return true;
  },
  rationale: (f) =>
    f.bodyKind === 'html' || f.causes.includes('route-missing')
      ? `${describe(f)} got ${f.httpStatus ?? 'an answer'} from something other than the MCP endpoint (${signalWords(f, ['route-missing', 'html-response'], 'an HTML page')}): the path, mount prefix or proxy route is wrong. Re-creating sessions cannot fix it; fix the URL or the proxy location.`
      : `${describe(f)} got ${f.httpStatus ?? 'an error'} ${f.firstRequest ? 'on the very first exchange' : `on ${f.httpPath ?? 'a path'} that never answered successfully in these logs`}${f.sessionSent === false ? ' and carried no session id' : ''}: nothing at that URL speaks MCP. Check the endpoint path, mount prefix (trailing slash), transport URL (/mcp vs /sse) and proxy route.`,
  examples: [
    { name: 'first initialize 404', facts: { httpStatus: 404, firstRequest: true, method: 'initialize', routeWrong: true }, fires: true },
    { name: 'html 404 mid-session', facts: { httpStatus: 404, sessionSent: true, bodyKind: 'html', routeWrong: true }, fires: true },
    {
      name: "near miss: nginx's 400 page Request Header Or Cookie Too Large",
      facts: { httpStatus: 400, bodyKind: 'html', routeWrong: true, causes: ['headers-too-large'] },
      fires: false,
    },
    {
      name: 'json 404 with an assigned session on a path that worked',
      facts: { httpStatus: 404, sessionSent: true, sessionUnknown: true, routeWrong: false, pathWorked: true, era: 'session' },
      fires: false,
    },
  ],
};
