import type { Rule } from '../rule.ts';

// triage-rules.md decision table (401/403, OAuth and token failures → fix_auth); failure-signatures
// D17, rows 49, 62. Also auth failures a server hides in a 200 tool result with isError.
export const AUTH_TEXT =
  /\bUnauthorizedError\b|\binvalid_grant\b|\binvalid_token\b|\binvalid_client\b|\bunauthorized_client\b|\binsufficient_scope\b|Bearer auth failed|WWW-Authenticate|Authentication required|Server returned 40[13] after|token (?:has )?expired|invalid JWT|JWT (?:signature|expired)|Upstream token set not found|TokenError|OAuth(?:Error| error)|\b401 Unauthorized\b|\b403 Forbidden\b|access[_ ]denied/i;
const NOT_AUTH = /Invalid (?:Origin|Host) header/;

export const authFailure: Rule = {
  id: 'auth-failure',
  decision: 'fix_auth',
  source: 'failure-signatures D17, rows 49, 62 · triage-rules.md decision table',
  when(f) {
    if (NOT_AUTH.test(f.text)) return 'an Origin/Host check (a configuration rule), not credentials';
    if (f.httpStatus === 401 || f.httpStatus === 403) return true;
    if (AUTH_TEXT.test(f.text)) return true;
    return 'no 401/403 and no OAuth or token error';
  },
  rationale: (f) =>
    `${f.httpStatus === 401 || f.httpStatus === 403 ? `HTTP ${f.httpStatus}` : 'An authentication error'} (${(AUTH_TEXT.exec(f.text)?.[0] ?? 'credentials rejected').slice(0, 60)}): the credentials, token, scope or audience were rejected${f.httpStatus === 200 || /isError/.test(f.text) ? ' — here hidden inside a successful HTTP answer as a tool error' : ''}. Retrying cannot succeed; re-authenticate or fix the token/scope configuration, then re-run.`,
  examples: [
    { name: '401 on tools/call', facts: { httpStatus: 401, method: 'tools/call' }, fires: true },
    { name: 'OAuth invalid_grant answered as 400', facts: { httpStatus: 400, text: 'TokenError: invalid_grant: Upstream token set not found' }, fires: true },
    { name: 'Bearer auth failed inside a 200 isError result', facts: { httpStatus: null, text: '{"result":{"isError":true,"content":[{"text":"Bearer auth failed: invalid token"}]}}' }, fires: true },
    { name: '403 Invalid Origin header', facts: { httpStatus: 403, text: 'Invalid Origin header: http://evil' }, fires: false },
    { name: 'a 404 Session not found', facts: { httpStatus: 404, text: 'Session not found' }, fires: false },
  ],
};
