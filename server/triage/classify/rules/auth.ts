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

// failure-signatures row 41 and stage C, read by where the certificate complaint came from: a TLS failure of the
// SERVER's certificate ends the handshake, so no HTTP answer ever comes back. A certificate complaint that came back
// as an HTTP answer (400/401/403: a gateway's mutual-TLS check at HTTP level — Tyk's CertificateCheckMW answers 403 —
// or a server's 400 for a client certificate it refused) is about the CLIENT's certificate: a credential that expired, was revoked
// or was not sent — renew or reload it (fix_auth), not the route. (A line only the receiving side logged is not
// enough: an edge logs the client's alert about the edge's own certificate in the same words.)
export const clientCertificateRefused: Rule = {
  id: 'client-certificate-refused',
  decision: 'fix_auth',
  source: 'failure-signatures row 41, stage C (a bad server certificate yields no HTTP answer) · triage-rules.md decision table (credentials → fix_auth)',
  when(f) {
    if (!has(f, 'tls-certificate')) return 'no certificate complaint';
    // (the proxy's own TLS to its backend — nginx "while SSL handshaking to upstream" — is about the backend's certificate)
    if (has(f, 'proxy-upstream-unavailable')) return "the proxy's connection to its upstream failed: the backend's certificate, not the client's";
    if (f.httpStatus !== 400 && f.httpStatus !== 401 && f.httpStatus !== 403)
      return 'no HTTP refusal came back: the TLS failure is the handshake with the server (its certificate)';
    return true;
  },
  rationale: (f) =>
    `HTTP ${f.httpStatus} came back with a certificate complaint (${signalWords(f, ['tls-certificate'], 'certificate rejected')}): a bad server certificate ends the TLS handshake before any HTTP answer, so this is the client's own certificate (mutual TLS) being refused — expired, revoked, from an untrusted CA or not sent. Renew it, or make the client load the renewed one (a process that read it at start keeps presenting the old one until it reloads or restarts); retrying with the same certificate fails the same way.${f.attempts > 1 ? ` It failed on ${f.attempts} attempts.` : ''}`,
  examples: [
    {
      name: 'a gateway answers 403 "Certificate has expired"',
      facts: { method: 'tools/call', httpStatus: 403, causes: ['tls-certificate', 'auth-rejected'], seenBy: { client: true, proxy: false, server: false } },
      fires: true,
    },
    {
      name: 'a server answers 400 with a certificate complaint',
      facts: { httpStatus: 400, causes: ['tls-certificate'], seenBy: { client: false, proxy: true, server: false } },
      fires: true,
    },
    {
      name: "near miss: the client's own CERT_HAS_EXPIRED (the server's certificate), no HTTP answer",
      facts: { causes: ['tls-certificate'], seenBy: { client: true, proxy: false, server: false } },
      fires: false,
    },
    {
      name: "near miss: only the edge logged a certificate failure (it may be the client's alert about the edge's own)",
      facts: { causes: ['tls-certificate'], seenBy: { client: false, proxy: true, server: false } },
      fires: false,
    },
    {
      name: "near miss: nginx failing TLS to its upstream (the backend's certificate)",
      facts: { httpStatus: 502, causes: ['tls-certificate', 'proxy-upstream-unavailable'], seenBy: { client: false, proxy: true, server: false } },
      fires: false,
    },
  ],
};
