import type { Rule } from '../rule.ts';
import { describe } from '../rule.ts';

// failure-signatures row 72 and D19: "client times out though server logged the response", "SSE events arrive
// in bursts or only at stream end; progress notifications late". The server
// finished the call seconds before the client gave up, so the answer existed and something between them
// held it: a buffering proxy (nginx proxy_buffering on, gzip on text/event-stream, a tunnel or CDN that
// buffers until the stream ends). Re-sending waits behind the same buffer. A write that the server
// committed is judged before this (write-committed-not-delivered: read the result, do not repeat).
export const responseHeld: Rule = {
  id: 'response-held-on-the-way',
  decision: 'fix_route_or_config',
  source: 'failure-signatures row 72, D19',
  when(f) {
    // events that reached the client in one burst long after the call: held, though nothing failed
    if (f.interruption === null && f.heldInTransit === true) return true;
    if (f.interruption !== 'client-timeout') return 'not a client-local timeout, nor events that arrived in one burst';
    if (f.heldInTransit === null) return 'the server finishing and the client giving up are not both timed in the logs';
    if (f.heldInTransit === false) return 'the server had not finished when the client gave up: nothing was held on the way';
    return true;
  },
  rationale: (f) =>
    `${
      f.heldKind === 'events-not-delivered'
        ? `${describe(f)} gave up at the client for idleness — no events reached it — although the server was writing the call's progress events all along (${f.heldEvidence})`
        : f.heldKind === 'late-headers'
          ? `${describe(f)}${f.interruption === 'client-timeout' ? ' timed out at the client, and its' : "'s"} answer came late: ${f.heldEvidence}`
          : f.interruption === null
            ? `The client received ${describe(f)}'s events all at once (${f.heldEvidence}) instead of as the server sent them`
            : `${describe(f)} timed out at the client although the server had already finished it (${f.heldEvidence})`
    }: the answer was held between them. That is a buffering hop — nginx with proxy_buffering on (or X-Accel-Buffering ignored, or gzip on text/event-stream), a tunnel or CDN that delivers an event stream only when it ends. Turn buffering and compression off for the MCP location and send keep-alive comments; re-sending waits behind the same buffer.`,
  examples: [
    {
      name: 'tools/list answered 4 s before the client timed out',
      facts: { method: 'tools/list', interruption: 'client-timeout', sideEffect: 'read', sideEffectSource: 'method', heldInTransit: true, heldEvidence: 'server.log:12' },
      fires: true,
    },
    {
      name: 'the server finished after the client gave up',
      facts: { method: 'tools/call', tool: 'summarize_ledger', interruption: 'client-timeout', heldInTransit: false },
      fires: false,
    },
    { name: 'no server log', facts: { method: 'tools/call', tool: 'x', interruption: 'client-timeout' }, fires: false },
    {
      name: 'progress events arrived in one burst, the call returned',
      facts: { method: 'tools/call', tool: 'build_digest', heldInTransit: true, heldEvidence: '5 progress events logged within 3 ms, 4.1 s after the call was sent (host.log:7)' },
      fires: true,
    },
    { name: 'a stream cut, not held', facts: { method: 'tools/call', tool: 'x', interruption: 'stream-cut', heldInTransit: null }, fires: false },
  ],
};
