import type { Rule } from '../rule.ts';
import { describe } from '../rule.ts';

// failure-signatures (a.1) "Unknown method" (JSON-RPC -32601 in the body; the TypeScript SDK answers it
// inside a 200 until 2025-11-25), D13 and row 89 (2026-07-28: 404 + -32601 = method not supported, not a
// session problem); triage-rules.md §3 ("do not clear anything"). A capability mismatch, fixed in
// configuration: retrying or re-initializing sends the same call and gets the same answer.
export const unknownMethod: Rule = {
  id: 'method-not-found',
  decision: 'fix_route_or_config',
  source: 'failure-signatures (a.1) unknown method, D13, row 89 · triage-rules.md §3',
  when(f) {
    if (!f.causes.includes('method-not-found') && f.jsonRpcCode !== -32601) return 'no JSON-RPC -32601 (Method not found) answer';
    if (f.era !== 'sessionless' && f.httpStatus === 404 && f.firstRequest === true && f.bodyKind !== 'jsonrpc-error')
      return 'a synthesised -32601 for a 404 on the first request is a route question (failure-signatures row 3)';
    if (f.interruption !== null && f.interruption !== 'connect' && f.httpStatus === null) return "the request was interrupted: the -32601 is not the server's complete answer";
    return true;
  },
  rationale: (f) =>
    `${describe(f)} got JSON-RPC error -32601 Method not found${f.httpStatus ? ` with HTTP ${f.httpStatus}` : ' inside a complete answer'}: the server does not implement ${f.method ?? 'that method'}${f.era === 'sessionless' ? ' (under 2026-07-28 a 404 + -32601 means exactly this; there is no session to clear and no reason to fall back to the legacy transport)' : f.session ? ' — the session itself is fine' : ''}. A capability mismatch, not a transport failure: make the host check the server's capabilities (initialize or server/discover) before calling it, turn the feature off for this server, or enable it on the server. If the server advertises it and still answers -32601, escalate to its owners.`,
  examples: [
    {
      name: 'resources/subscribe answered -32601 in a 200',
      facts: { method: 'resources/subscribe', rpcId: 3, era: 'session', jsonRpcCode: -32601, causes: ['method-not-found'] },
      fires: true,
    },
    {
      name: '2026 404 -32601 on tasks/get (no tasks extension)',
      facts: { httpStatus: 404, era: 'sessionless', jsonRpcCode: -32601, bodyKind: 'jsonrpc-error', method: 'tasks/get', causes: ['method-not-found'] },
      fires: true,
    },
    {
      name: 'python 2.x synthesised Not Found -32601 on the first request',
      facts: { httpStatus: 404, era: 'session', jsonRpcCode: -32601, firstRequest: true, method: 'initialize', bodyKind: 'text' },
      fires: false,
    },
    { name: 'a -32001 session error', facts: { httpStatus: 404, era: 'session', jsonRpcCode: -32001, sessionSent: true }, fires: false },
  ],
};

// The same -32601 for a method no MCP version defines (spec-methods.ts): nothing the server could enable and no
// setting of the host's that asks for it — the calling application (or its SDK) sends a method the protocol
// does not have, or one of an extension this server does not speak. triage-rules.md decision table: a defect
// in the calling application that configuration cannot fix → escalate.
export const nonexistentMethod: Rule = {
  id: 'method-not-in-protocol',
  decision: 'escalate',
  source: 'MCP schema.ts request and notification unions (every version) · failure-signatures (a.1) unknown method · triage-rules.md decision table (escalate)',
  when(f) {
    if (!f.causes.includes('method-not-found') && f.jsonRpcCode !== -32601) return 'no JSON-RPC -32601 (Method not found) answer';
    if (f.methodInSpec !== false) return f.methodInSpec === null ? 'which method was called is not in the logs' : `${f.method} is a method of the protocol (method-not-found)`;
    if (f.interruption !== null && f.interruption !== 'connect' && f.httpStatus === null) return "the request was interrupted: the -32601 is not the server's complete answer";
    return true;
  },
  rationale: (f) =>
    `${describe(f)} got JSON-RPC error -32601 Method not found, and ${f.method} is not a method of any MCP version: the calling application (or its SDK) sends something the protocol does not define — a typo, a made-up or vendor method, an extension this server does not implement. No server capability or client setting turns it on, and retrying or re-initializing sends the same call. Escalate to the owners of the client code that sends it (or, for a vendor extension, ask whether this server is meant to support it).`,
  examples: [
    {
      name: 'tools/batch answered -32601',
      facts: { method: 'tools/batch', methodInSpec: false, era: 'session', jsonRpcCode: -32601, causes: ['method-not-found'] },
      fires: true,
    },
    {
      name: 'near miss: resources/subscribe (in the protocol) answered -32601',
      facts: { method: 'resources/subscribe', methodInSpec: true, era: 'session', jsonRpcCode: -32601, causes: ['method-not-found'] },
      fires: false,
    },
    { name: 'near miss: -32601 with no method logged', facts: { jsonRpcCode: -32601, causes: ['method-not-found'] }, fires: false },
  ],
};
