import type { Rule } from '../rule.ts';
import { describe } from '../rule.ts';

// failure-signatures rows 31, 57 and D17 (Invalid Host header 421 / Invalid Origin header 403): the
// server's DNS-rebinding protection rejects the Host or Origin a proxy or client sends. Configuration
// (allowed hosts/origins, the proxy's Host header), not credentials.
export const hostOrigin: Rule = {
  id: 'host-origin-rejected',
  decision: 'fix_route_or_config',
  source: 'failure-signatures rows 31, 57, D17',
  when(f) {
    if (f.causes.includes('host-origin-rejected')) return true;
    if (f.httpStatus === 421) return true;
    return 'no Host/Origin rejection and no 421';
  },
  rationale: (f) =>
    `${describe(f)} was rejected by the server's DNS-rebinding protection (Invalid Host/Origin header${f.httpStatus ? `, HTTP ${f.httpStatus}` : ''}): the Host or Origin that reached it is not on its allowed list. Add the host (and port) or origin to the server's allowed hosts/origins (e.g. MCP_ALLOWED_HOSTS), or make the proxy forward the expected Host. Credentials are not the problem; retrying repeats the rejection.`,
  examples: [
    { name: 'Invalid Host header then 421', facts: { httpStatus: 421, causes: ['host-origin-rejected'] }, fires: true },
    { name: 'a 403 without host/origin wording', facts: { httpStatus: 403, causes: ['auth-rejected'] }, fires: false },
  ],
};
