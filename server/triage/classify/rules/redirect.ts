import type { Rule } from '../rule.ts';
import { describe } from '../rule.ts';

// failure-signatures row 36 (a Starlette mount answers /mcp with 307 to /mcp/; some clients and proxies
// drop the body or refuse to follow for POST, or the Location downgrades https to http): a redirect
// nothing followed to a success is a URL to fix. A followed redirect is recovered (recovered-on-its-own).
export const redirectNotFollowed: Rule = {
  id: 'redirect-not-followed',
  decision: 'fix_route_or_config',
  source: 'failure-signatures row 36',
  when(f) {
    if (!f.causes.includes('redirect') && !(f.httpStatus !== null && f.httpStatus >= 300 && f.httpStatus < 400)) return 'no redirect';
    if (f.recovered === true) return 'the redirect was followed and answered';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} got a redirect${f.httpStatus ? ` (HTTP ${f.httpStatus})` : ''}${f.httpPath ? ` for ${f.httpPath}` : ''} and nothing in the logs shows it followed to an answer: configure the exact endpoint URL (trailing slash, scheme) so no redirect is needed — POST bodies and auth headers are often dropped on the way, and a Location built without the forwarded scheme downgrades https to http.`,
  examples: [
    { name: '307 with no later success', facts: { httpStatus: 307, causes: ['redirect'], httpPath: '/mcp' }, fires: true },
    { name: '307 then the slash path answered', facts: { httpStatus: 307, causes: ['redirect'], recovered: true }, fires: false },
  ],
};

// RFC 9110 §15.4 (a client SHOULD detect and intervene in cyclical redirections) · triage-rules.md decision
// table (escalate: a defect in the server that configuration cannot fix, a non-compliant reply) · failure-
// signatures row 36. A transcript shows the endpoint answering a path with a path-only Location naming that
// same path: no URL the client can choose reaches an answer (its redirect target redirects to itself), and
// no scheme or host rewrite on the way explains it (the Location carries neither). A loop between hops that
// disagree (a slash, a scheme, a host) stays redirect-not-followed: that is configuration.
export const redirectToItself: Rule = {
  id: 'redirect-to-itself',
  decision: 'escalate',
  source: 'RFC 9110 §15.4 · triage-rules.md decision table (escalate: non-compliant reply) · failure-signatures row 36',
  when(f) {
    if (f.redirectLoop !== 'self') return f.redirectLoop === 'cycle' ? 'the loop runs between hops that disagree (slash, scheme or host): configuration' : 'no redirect loop shown';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was answered with a redirect${f.httpStatus ? ` (HTTP ${f.httpStatus})` : ''}${f.httpPath ? ` whose Location is ${f.httpPath} itself` : ' to the very path it requested'}: the endpoint sends every client back to the same URL, so no URL a client can configure reaches an answer (clients give up: curl exit 47, fetch's "redirect count exceeded", a reconnect loop). The Location is a bare path, so no scheme or host rewrite on the way explains it — the server's own routing redirects the path to itself. Escalate to the server's owners with this transcript.`,
  examples: [
    { name: 'path-only Location naming the requested path', facts: { httpStatus: 301, causes: ['redirect'], httpPath: '/mcp', redirectLoop: 'self' }, fires: true },
    { name: 'slash ping-pong between two hops', facts: { httpStatus: 308, causes: ['redirect'], httpPath: '/mcp', redirectLoop: 'cycle' }, fires: false },
    { name: 'a redirect with no loop shown', facts: { httpStatus: 307, causes: ['redirect'], httpPath: '/mcp' }, fires: false },
  ],
};
