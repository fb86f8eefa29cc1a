import type { Rule } from '../rule.ts';
import { has, signalWords } from '../rule.ts';

// triage-rules.md decision table (401/403, OAuth and token failures → fix_auth); failure-signatures
// D17, rows 49, 62. Includes auth failures a server hides in a 200 tool result with isError.
export const authFailure: Rule = {
  id: 'auth-failure',
  decision: 'fix_auth',
  source: 'failure-signatures D17, rows 49, 62 · triage-rules.md decision table',
  when(f) {
    // a 401 for a session the server lost (it worked with these credentials until a restart, or the
    // answer says the session is unknown): a session question, not credentials (D11 at another status)
    if (f.httpStatus === 401 && f.sessionUnknown === true && !has(f, 'auth-token-expired', 'oauth-flow-failed'))
      return 'the 401 answers a session the server no longer knows (it worked before; a restart or unknown-session answer), not the credentials';
    if (has(f, 'auth-rejected', 'auth-token-expired', 'oauth-flow-failed', 'credentials-missing')) return true;
    if (f.httpStatus === 401 || f.httpStatus === 407) return true;
    if (f.httpStatus === 403 && !has(f, 'route-missing', 'html-response')) return true;
    return 'no 401/403 and no credential, token or OAuth failure signal';
  },
  rationale: (f) =>
    `${f.httpStatus === 401 || f.httpStatus === 403 ? `HTTP ${f.httpStatus}` : 'An authentication failure'} (${signalWords(f, ['auth-rejected', 'auth-token-expired', 'oauth-flow-failed', 'credentials-missing'], 'credentials rejected')})${has(f, 'tool-error') ? ', hidden inside a successful answer as a tool error' : ''}: the credentials, token, scope or client registration were refused or are missing. Retrying cannot succeed; re-authenticate (refresh or re-issue the token, complete the OAuth flow, register the client another way), then re-run.${f.attempts > 1 ? ` It failed on ${f.attempts} attempts.` : ''}`,
  examples: [
    {
      name: '401 for a session that worked until the server restarted',
      facts: { httpStatus: 401, sessionSent: true, sessionUnknown: true, session: 'sess_aaaaaaaaaa', causes: ['auth-rejected'] },
      fires: false,
    },
    { name: '401 on tools/call', facts: { httpStatus: 401, method: 'tools/call' }, fires: true },
    { name: 'OAuth invalid_grant answered as 400', facts: { httpStatus: 400, causes: ['oauth-flow-failed'] }, fires: true },
    { name: "the bearer token's environment variable is not set (Codex)", facts: { causes: ['credentials-missing'] }, fires: true },
    { name: 'Token is not active, no status', facts: { causes: ['auth-token-expired', 'transport-fallback'] }, fires: true },
    { name: 'a 404 Session not found', facts: { httpStatus: 404, causes: ['session-unknown'] }, fires: false },
  ],
};
