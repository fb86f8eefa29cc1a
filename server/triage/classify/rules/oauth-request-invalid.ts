import type { Rule } from '../rule.ts';
import { has } from '../rule.ts';

// RFC 6749 §5.2, which the MCP authorization spec's OAuth 2.1 token requests follow: the token endpoint
// answers `invalid_request` (a required parameter missing, repeated, or more than one client
// authentication method) or `unsupported_grant_type` about how the client built its request, where
// `invalid_grant` / `invalid_client` speak of the grant and the credentials (auth-failure, after this).
// New credentials do not change how the client builds the request: a client defect, or a mismatch with
// the server's token_endpoint_auth_methods_supported that only the client's code or settings can fix.
export const oauthRequestInvalid: Rule = {
  id: 'oauth-request-malformed',
  decision: 'escalate',
  source: 'RFC 6749 §5.2 (token endpoint errors) · MCP spec basic/authorization (OAuth 2.1 token requests) · failure-signatures row 62',
  when(f) {
    if (!has(f, 'oauth-request-invalid')) return 'the token endpoint did not call the request malformed (invalid_request, unsupported_grant_type)';
    if (has(f, 'auth-token-expired')) return 'the token is also said to be expired or revoked: the credentials come first (auth-failure)';
    return true;
  },
  rationale: () =>
    "The authorization server refused the client's token request as malformed (RFC 6749 §5.2: invalid_request or unsupported_grant_type — a required parameter missing, or a client authentication method or grant it does not accept), not its credentials; signing in again sends the same request. Escalate to the client's owners with the error_description; compare the client's token request with the server's metadata (token_endpoint_auth_methods_supported, grant_types_supported).",
  examples: [
    { name: 'refresh answered 400 invalid_request', facts: { httpStatus: 400, causes: ['oauth-flow-failed', 'oauth-request-invalid'] }, fires: true },
    { name: 'refresh answered invalid_grant', facts: { httpStatus: 400, causes: ['oauth-flow-failed'] }, fires: false },
    { name: 'malformed and the token expired', facts: { httpStatus: 400, causes: ['oauth-request-invalid', 'auth-token-expired'] }, fires: false },
  ],
};
