import type { Rule } from '../rule.ts';
import { describe, has } from '../rule.ts';

// Spec basic/lifecycle (version negotiation, 2024-11-05 … 2025-11-25): a server that does not support
// the version an `initialize` asks for MUST answer with another version it supports — it negotiates,
// it does not refuse. The MCP-Protocol-Version header (2025-06-18 transports) carries the version
// negotiated that way and is validated on the requests AFTER initialize (the TypeScript and Python SDK
// servers skip the header check for initialize; typescript-sdk PR 2280 pins the rejection for the
// header path; gitlab-mcp issue 652: the initialize body is answered with the server's own version).
// So a session-era server that answers the connection's first request — an initialize, or a request
// with no session yet — with 400 "Unsupported protocol version" refused instead of negotiating, or a
// hop in front of it forwarded a version the backend never negotiated: a non-compliant reply no client
// setting fixes (triage-rules.md decision table: escalate). Narrower than D14 (rows 28, 56), which
// stays for a request on an established session: there the client sent a version it did not
// negotiate (a pinned header) and fixing it is configuration.
export const versionNotNegotiated: Rule = {
  id: 'protocol-version-refused-at-handshake',
  decision: 'escalate',
  // a client that fell back to a version the server accepts and got the call answered has nothing left
  settledBySuccess: true,
  source: 'spec basic/lifecycle (version negotiation) · 2025-06-18 transports (protocol version header) · failure-signatures rows 28, 56 (narrowed)',
  when(f) {
    if (!has(f, 'protocol-version-unsupported')) return 'no unsupported-protocol-version answer';
    if (f.httpStatus !== 400) return 'not a server’s HTTP 400 (a client refusing the server’s negotiated version is row 94)';
    if (f.era === 'sessionless') return 'a 2026-07-28 request: no handshake to negotiate in, the client retries with data.supported (row 87)';
    if (f.jsonRpcCode === -32022 || f.jsonRpcCode === -32020 || f.jsonRpcCode === -32021) return 'a 2026-07-28 version error code (row 87)';
    if (f.method !== null && f.method !== 'initialize') return 'a request after the handshake: the client sent a version it did not negotiate (D14)';
    if (f.sessionSent === true) return 'the request carried a session: the handshake was done, the header was pinned (D14)';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was refused with HTTP 400 "Unsupported protocol version" before any session existed. In the session era the version is negotiated by initialize — a server that does not support the client's version must answer with one it does support, and the MCP-Protocol-Version header only ever carries the negotiated version — so this server (or a gateway forwarding the client's header to a backend that never negotiated it) refuses where it must negotiate. No client setting fixes a non-compliant server; escalate to its owner with this line (a client that can pin an older revision is a workaround, not the fix).`,
  examples: [
    { name: 'initialize refused for its version', facts: { httpStatus: 400, method: 'initialize', firstRequest: true, causes: ['protocol-version-unsupported'] }, fires: true },
    { name: 'bare 400 unsupported version, nothing else known', facts: { httpStatus: 400, causes: ['protocol-version-unsupported'] }, fires: true },
    {
      name: 'near miss: pinned header on an established session',
      facts: { httpStatus: 400, method: 'notifications/initialized', sessionSent: true, era: 'session', causes: ['protocol-version-unsupported'] },
      fires: false,
    },
    {
      name: 'near miss: 2026 -32022 with data.supported',
      facts: { httpStatus: 400, era: 'sessionless', jsonRpcCode: -32022, bodyKind: 'jsonrpc-error', causes: ['protocol-version-unsupported'] },
      fires: false,
    },
    { name: 'near miss: client refuses the server’s version (row 94)', facts: { method: 'initialize', causes: ['protocol-version-unsupported'] }, fires: false },
  ],
};
