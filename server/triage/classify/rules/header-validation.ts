import type { Rule } from '../rule.ts';
import { describe } from '../rule.ts';

// triage-rules.md §3 (a 400 for a missing or mismatched header; adding old session headers does
// not fix it); failure-signatures D14, D15, rows 26, 28–31, 53, 56, 57, 86–88.
const HEADER_TEXT =
  /Unsupported protocol version|Unsupported MCP-Protocol-Version|Bad MCP-Protocol-Version|Missing session ID|Mcp-Session-Id header is required|Not Acceptable|Client must accept|Unsupported Media Type|Content-Type must be|Header mismatch|HeaderMismatch|Missing required (?:header|client capability)|MissingRequiredClientCapability|Invalid (?:Host|Origin) header|Parse error/i;
const CODES = new Set([-32020, -32021, -32022]);

export const headerValidation: Rule = {
  id: 'request-rejected-at-validation',
  decision: 'fix_route_or_config',
  source: 'triage-rules.md §3 · failure-signatures D14, D15, rows 26, 28–31, 53, 56, 57, 86–88',
  when(f) {
    const status = f.httpStatus;
    if (status !== 400 && status !== 406 && status !== 415 && status !== 421 && status !== 403) return 'status is not 400/403/406/415/421';
    if (f.jsonRpcCode !== null && CODES.has(f.jsonRpcCode)) return true;
    if (HEADER_TEXT.test(f.text)) return true;
    if (status === 406 || status === 415 || status === 421) return true;
    if (status === 400 && f.era === 'sessionless' && f.bodyKind !== 'jsonrpc-error') return true; // D15: a bare 400 to a 2026 request
    return `HTTP ${status} without a header/version/content-type reason`;
  },
  rationale: (f) => {
    const code = f.jsonRpcCode !== null && CODES.has(f.jsonRpcCode) ? f.jsonRpcCode : null;
    const why =
      code === -32022 || /Unsupported (?:protocol version|MCP-Protocol-Version)/i.test(f.text)
        ? 'the MCP-Protocol-Version header names a version the server does not serve (a pinned or stale header; -32022 lists the supported ones)'
        : code === -32020 || /Header mismatch|HeaderMismatch/i.test(f.text)
          ? 'a required header (MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-*) is missing or does not match the body (-32020 HeaderMismatch)'
          : code === -32021
            ? 'the request lacks a client capability the server requires (-32021)'
            : f.httpStatus === 406 || /Not Acceptable|Client must accept/i.test(f.text)
              ? 'the Accept header is wrong (must list application/json and text/event-stream; a proxy may rewrite it)'
              : f.httpStatus === 415 || /Unsupported Media Type|Content-Type must be/i.test(f.text)
                ? 'the Content-Type is wrong (must be application/json)'
                : /Invalid (?:Host|Origin) header/i.test(f.text)
                  ? 'the server rejects the Host/Origin the proxy forwards (DNS-rebinding protection: allowed hosts/origins)'
                  : /Missing session ID|Mcp-Session-Id header is required/i.test(f.text)
                    ? 'the session header never reached the server (client did not keep it, CORS does not expose it, or a proxy strips it)'
                    : f.era === 'sessionless'
                      ? 'a bare 400 to a 2026-07-28 request: the server (or an intermediary) does not accept the request as sent — check headers, else it is a legacy server'
                      : 'the request failed validation';
    return `${describe(f)} was rejected with HTTP ${f.httpStatus} before it ran: ${why}. Fix the client headers or the proxy that rewrites them; reinitializing or re-sending unchanged repeats the rejection (and adding old session headers does not help).`;
  },
  examples: [
    { name: 'pinned protocol version header', facts: { httpStatus: 400, method: 'notifications/initialized', sessionSent: true, session: 'sess_aaaaaaaaaa', era: 'session', text: 'Bad Request: Unsupported protocol version: 2026-07-28 (supported versions: 2025-11-25)' }, fires: true },
    { name: '406 Accept rewritten by a proxy', facts: { httpStatus: 406, method: 'initialize', firstRequest: true, text: 'Not Acceptable: Client must accept both application/json and text/event-stream' }, fires: true },
    { name: '2026 -32020 header mismatch', facts: { httpStatus: 400, era: 'sessionless', jsonRpcCode: -32020, bodyKind: 'jsonrpc-error' }, fires: true },
    { name: '2026 -32022 unsupported version', facts: { httpStatus: 400, era: 'sessionless', jsonRpcCode: -32022, bodyKind: 'jsonrpc-error' }, fires: true },
    { name: 'missing session id, none sent', facts: { httpStatus: 400, sessionSent: false, text: 'Bad Request: Missing session ID' }, fires: true },
    { name: 'a 404', facts: { httpStatus: 404 }, fires: false },
    { name: 'a bare 400 in the session era', facts: { httpStatus: 400, era: 'session', text: 'Bad Request' }, fires: false },
  ],
};
