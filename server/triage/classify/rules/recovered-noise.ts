import type { Rule } from '../rule.ts';

// failure-signatures D9 (resumed SSE with Last-Event-ID), row 61 / spec 2025-03-26 backward
// compatibility (http-first probe answered 404/405, then the SSE transport worked): failures the
// client recovered from on its own.
const RESUME = /SSE stream disconnected, reconnecting|reconnecting with Last-Event-ID|Last-Event-ID/;

export const recoveredNoise: Rule = {
  id: 'recovered-on-its-own',
  decision: 'no_action',
  source: 'failure-signatures D9, row 61 · spec 2025-03-26 backward compatibility',
  when(f) {
    // a resumed POST stream (D9) exists only in the session era (2026-07-28 removed resumption)
    const resumedCut = f.resumedStream !== null && f.interruption === 'stream-cut' && f.era !== 'sessionless';
    if (!f.recoveredLater && !resumedCut) return 'no later success on a new transport or stream';
    const probe = (f.httpStatus === 404 || f.httpStatus === 405 || f.httpStatus === 400) && f.firstRequest && f.transportFallback;
    const resumed = RESUME.test(f.text) || resumedCut;
    if (!probe && !resumed) return 'the later success is not a transport fallback or a stream resumption of this failure';
    return true;
  },
  rationale: (f) =>
    f.resumedStream !== null && f.interruption === 'stream-cut'
      ? `${f.method ?? 'The request'}${f.tool ? ` (${f.tool})` : ''}${f.rpcId !== null ? ` id ${JSON.stringify(f.rpcId)}` : ''}: its SSE response stream was cut after it had started, and the client resumed it (${f.resumedStream}) with GET + Last-Event-ID in the same session; no error of this request followed, so the replay delivered the response. Nothing to do${f.sideEffect === 'read' ? '' : ' — and do not re-send it: it ran once'}.`
      : /Last-Event-ID|reconnecting/.test(f.text)
      ? 'The response stream dropped and the client resumed it (GET + Last-Event-ID) and carried on: replay delivered what was pending. Nothing to do.'
      : `The client's first Streamable HTTP attempt got ${f.httpStatus} (the expected answer of an older HTTP+SSE server), it fell back to the SSE transport and that worked. Expected probing, not a failure; pin the transport to skip the probe if the noise matters.`,
  examples: [
    { name: 'mcp-remote http-first 404, SSE fallback connected', facts: { httpStatus: 404, firstRequest: true, recoveredLater: true, transportFallback: true, text: 'Received error: Error POSTing to endpoint (HTTP 404)\nRecursively reconnecting for reason: falling-back-to-alternate-transport' }, fires: true },
    { name: 'a first-request 404, later success, no fallback said', facts: { httpStatus: 404, firstRequest: true, recoveredLater: true, text: 'Error POSTing to endpoint (HTTP 404)' }, fires: false },
    { name: 'resumed SSE stream', facts: { method: 'tools/call', recoveredLater: true, interruption: 'stream-cut', text: 'SSE stream disconnected, reconnecting...\nReconnected to SSE stream' }, fires: true },
    { name: 'POST stream cut, then GET + Last-Event-ID 200 in the same session (TS SDK logs no "Reconnected" line)', facts: { method: 'tools/call', tool: 'import_orders', era: 'session', interruption: 'stream-cut', resumedStream: 'client.log:17 GET … last-event-id=… -> 200', sideEffect: 'write' }, fires: true },
    { name: '2026 cut stream: no resumption exists', facts: { method: 'tools/call', era: 'sessionless', interruption: 'stream-cut', resumedStream: 'client.log:17 GET … last-event-id=… -> 200' }, fires: false },
    { name: 'expired session, host re-initialized itself', facts: { httpStatus: 404, sessionSent: true, sessionAssignedEarlier: true, session: 'sess_aaaaaaaaaa', recoveredLater: true, era: 'session', bodyKind: 'jsonrpc-error', text: 'Session not found' }, fires: false },
  ],
};
