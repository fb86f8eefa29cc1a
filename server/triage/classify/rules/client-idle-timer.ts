import type { Rule } from '../rule.ts';
import { describe, has } from '../rule.ts';

// undici (Node's fetch) `bodyTimeout` (300 s by default between two chunks of a response body) and
// failure-signatures (c) stage E: a stream that stays quiet longer than the client's own idle timer is cut
// by the client itself — the SSE connection of the legacy transport, a long call's response stream. It
// repeats on every quiet stretch: the fix is configuration (server keep-alive events inside the timer, or a
// longer client body timeout), like a proxy's timer (D19). Identified writes were judged before this.
// The Python SDK's is its `sse_read_timeout` (httpx's read timeout on the stream, 300 s by default): a
// ReadTimeout logged as the failure to read an SSE stream (`Error reading SSE stream:`) — facts.ts reads
// the two together as this cause (failure-signatures row 10, (c) stage E).
export const clientIdleTimer: Rule = {
  id: 'client-idle-timer-cut',
  decision: 'fix_route_or_config',
  source: 'undici bodyTimeout (BodyTimeoutError) · python-sdk sse_read_timeout · failure-signatures row 10, (c) stage E, D19',
  when(f) {
    if (!has(f, 'client-idle-timeout')) return "no client idle timer (undici's Body Timeout Error, the Python SDK's SSE read timeout) cut the stream";
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was cut by the client's own idle timer on the response body (${f.signals.includes('client-body-timeout') ? "undici's Body Timeout Error: by default 300 s without a byte" : "a read timeout while reading the SSE stream: the Python SDK's sse_read_timeout, by default 300 s without a byte"}). A quiet stream — the legacy SSE connection, a long call's response stream — dies this way every time it idles. Make the server send keep-alive events (SSE comments or pings) well inside that timer, or raise the client's read timeout for the stream (sse_read_timeout, the body timeout); reconnecting alone only waits for the next cut.`,
  examples: [
    {
      name: "Cursor's legacy SSE stream: terminated: Body Timeout Error",
      facts: { era: 'legacy-sse', causes: ['transport-legacy', 'stream-cut', 'client-idle-timeout'] },
      fires: true,
    },
    { name: 'near miss: a stream cut by the peer (terminated, no timer)', facts: { era: 'legacy-sse', causes: ['transport-legacy', 'stream-cut'] }, fires: false },
    {
      name: "the Python SDK's Error reading SSE stream: ReadTimeout",
      facts: { interruption: 'client-timeout', causes: ['sse-read-failed', 'client-timeout', 'client-idle-timeout'] },
      fires: true,
    },
    {
      name: 'near miss: Error reading SSE stream: peer closed connection (a cut, no timer)',
      facts: { interruption: 'stream-cut', causes: ['sse-read-failed', 'stream-cut'] },
      fires: false,
    },
  ],
};
