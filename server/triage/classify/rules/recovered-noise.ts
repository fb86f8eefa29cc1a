import type { Rule } from '../rule.ts';

// failure-signatures D9 (resumed SSE with Last-Event-ID), row 61 / spec 2025-03-26 backward
// compatibility (http-first probe answered 404/405, then the SSE transport worked): failures the
// client recovered from on its own.
const FALLBACK = /falling-back-to-alternate-transport|fall(?:ing)? ?back to (?:the )?(?:SSE|sse|legacy)|trying (?:the )?SSE transport|sse-only|Trying (?:SSE|legacy) transport/i;
const RESUME = /SSE stream disconnected, reconnecting|reconnecting with Last-Event-ID|Last-Event-ID/;

export const recoveredNoise: Rule = {
  id: 'recovered-on-its-own',
  decision: 'no_action',
  source: 'failure-signatures D9, row 61 · spec 2025-03-26 backward compatibility',
  when(f) {
    if (!f.recoveredLater) return 'no later success on a new transport or stream';
    const probe = (f.httpStatus === 404 || f.httpStatus === 405 || f.httpStatus === 400) && f.firstRequest && FALLBACK.test(f.text);
    const resumed = RESUME.test(f.text);
    if (!probe && !resumed) return 'the later success is not a transport fallback or a stream resumption of this failure';
    return true;
  },
  rationale: (f) =>
    /Last-Event-ID|reconnecting/.test(f.text)
      ? 'The response stream dropped and the client resumed it (GET + Last-Event-ID) and carried on: replay delivered what was pending. Nothing to do.'
      : `The client's first Streamable HTTP attempt got ${f.httpStatus} (the expected answer of an older HTTP+SSE server), it fell back to the SSE transport and that worked. Expected probing, not a failure; pin the transport to skip the probe if the noise matters.`,
  examples: [
    { name: 'mcp-remote http-first 404, SSE fallback connected', facts: { httpStatus: 404, firstRequest: true, recoveredLater: true, text: 'Received error: Error POSTing to endpoint (HTTP 404)\nRecursively reconnecting for reason: falling-back-to-alternate-transport' }, fires: true },
    { name: 'resumed SSE stream', facts: { method: 'tools/call', recoveredLater: true, interruption: 'stream-cut', text: 'SSE stream disconnected, reconnecting...\nReconnected to SSE stream' }, fires: true },
    { name: 'expired session, host re-initialized itself', facts: { httpStatus: 404, sessionSent: true, sessionAssignedEarlier: true, session: 'sess_aaaaaaaaaa', recoveredLater: true, era: 'session', bodyKind: 'jsonrpc-error', text: 'Session not found' }, fires: false },
  ],
};
