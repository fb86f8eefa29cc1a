import type { Rule } from '../rule.ts';
import { describe, has } from '../rule.ts';

// failure-signatures D15 and the 2026-07-28 versioning compatibility matrix: a client that speaks
// 2026-07-28 opens with server/discover; a 2025-era server answers it 400 (or 404/405) with an empty or
// non-JSON-RPC body, and the client falls back to initialize. When that initialize then succeeds, the
// refused probe is how the two found a common version: optional, no request was lost. (A -32601 in a
// JSON-RPC body is a 2026 server without the method: D13, method-not-found.)
export const versionProbeFellBack: Rule = {
  id: 'version-probe-fell-back',
  decision: 'no_action',
  source: 'failure-signatures D15 · spec 2026-07-28 versioning (compatibility with 2025 servers) · cli-contract.md (optional)',
  role: 'optional',
  when(f) {
    // (the probe is server/discover, or any first request the client says it fell back from to initialize)
    if (f.method !== 'server/discover' && !(f.method === null && has(f, 'version-fallback')))
      return 'not a server/discover probe, nor a request the client fell back from to initialize';
    const fellBack = f.method === null && has(f, 'version-fallback');
    if (f.httpStatus !== 400 && f.httpStatus !== 404 && f.httpStatus !== 405 && !(fellBack && f.httpStatus === null))
      return 'the probe was not refused as by a 2025-era server (400/404/405)';
    // (unless the error is a session-era complaint — `Missing session ID`, `Server not initialized`: how a 2025
    // server refuses a request with no initialize before it, JSON-RPC body and all; the Python SDK's does)
    if (f.bodyKind === 'jsonrpc-error' && !has(f, 'session-missing', 'session-invalid', 'server-not-initialized'))
      return 'a JSON-RPC error body is a 2026 server answering, not a legacy refusal';
    if (!f.initializedAfter) return 'the client did not go on to a successful initialize';
    return true;
  },
  rationale: (f) =>
    `server/discover got HTTP ${f.httpStatus} with no JSON-RPC error: a 2025-era server that does not know 2026-07-28 discovery. The client fell back to initialize, which succeeded — that is how the two agreed on a version; no request was lost.`,
  examples: [
    { name: 'discover 400 empty body, then initialize ok', facts: { method: 'server/discover', httpStatus: 400, bodyKind: 'empty', initializedAfter: true }, fires: true },
    { name: 'discover 400, no initialize after', facts: { method: 'server/discover', httpStatus: 400, bodyKind: 'empty' }, fires: false },
    { name: 'discover 404 with -32601 in JSON-RPC', facts: { method: 'server/discover', httpStatus: 404, bodyKind: 'jsonrpc-error', initializedAfter: true }, fires: false },
    {
      name: 'discover 400 with a session-era JSON-RPC error (Missing session ID), then initialize ok',
      facts: { method: 'server/discover', httpStatus: 400, bodyKind: 'jsonrpc-error', causes: ['session-missing'], initializedAfter: true },
      fires: true,
    },
    { name: 'initialize 400', facts: { method: 'initialize', httpStatus: 400, initializedAfter: false }, fires: false },
    {
      name: 'a modern request 400 "Missing session ID", the client falls back to initialize, which succeeds',
      facts: { httpStatus: 400, causes: ['version-fallback', 'session-missing'], initializedAfter: true },
      fires: true,
    },
    { name: 'a tools/call 400 beside a fallback line', facts: { method: 'tools/call', httpStatus: 400, causes: ['version-fallback'], initializedAfter: true }, fires: false },
  ],
};

// Spec 2025-03-26 basic/transports "backward compatibility" (and failure-signatures row 31: during legacy
// detection 400/404/405 on the first POST mean "try the old HTTP+SSE transport"): a client that wants to
// reach old servers POSTs initialize first and, on a 4xx, opens the legacy GET stream expecting an
// `endpoint` event. When that event then reached a client, the refused POST was the detection doing its job:
// the server serves the transport the client fell back to. What failed afterwards is decided on its own
// lines (a client that misread the event: client-misread-endpoint-event); the probe loses no request.
export const legacyProbeFellBack: Rule = {
  id: 'legacy-probe-fell-back',
  decision: 'no_action',
  source: 'spec 2025-03-26 basic/transports (backward compatibility) · failure-signatures row 31 · cli-contract.md (optional)',
  role: 'optional',
  when(f) {
    if (!f.probeFoundLegacy) return "no refused POST followed by the server's legacy endpoint event reaching the client";
    if (f.method !== null && f.method !== 'initialize') return 'not the first POST of a connection (initialize)';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} got HTTP ${f.httpStatus} on POST — the probe a client makes to tell Streamable HTTP from the legacy HTTP+SSE transport — and the fallback then received the server's legacy \`endpoint\` event: the server serves the old transport at that URL and the client found it. The probe lost no request; read the failure after the fallback.`,
  examples: [
    {
      name: '405 on POST initialize, the fallback received the endpoint event',
      facts: { method: 'initialize', httpMethod: 'POST', httpStatus: 405, probeFoundLegacy: true },
      fires: true,
    },
    {
      name: 'near miss: 405 on POST, no endpoint event reached anyone',
      facts: { method: 'initialize', httpMethod: 'POST', httpStatus: 405, transportMismatch: true },
      fires: false,
    },
    { name: 'near miss: a tools/call refused on a working session', facts: { method: 'tools/call', httpMethod: 'POST', httpStatus: 400, probeFoundLegacy: true }, fires: false },
  ],
};
