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
