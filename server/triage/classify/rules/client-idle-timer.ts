import type { Rule } from '../rule.ts';
import { describe, has, identifiedCall, sideEffectWords } from '../rule.ts';

// undici (Node's fetch) `bodyTimeout` (300 s by default between two chunks of a response body) and
// failure-signatures (c) stage E: a stream that stays quiet longer than the client's own idle timer is cut
// by the client itself — the SSE connection of the legacy transport, a long call's response stream. It
// repeats on every quiet stretch: the fix is configuration (server keep-alive events inside the timer, or a
// longer client body timeout), like a proxy's timer (D19). It is judged before write-outcome-unknown, as
// client-timeout-too-low is: the timer cuts the same call on every re-run, so the setting is the finding and
// the rationale says to check a write before running it again. A call known to write (policy, annotations)
// or one the server is shown taking is a write in flight whose outcome comes first (D19: "pending writes
// still follow D7").
// The Python SDK's is its `sse_read_timeout` (httpx's read timeout on the stream, 300 s by default): a
// ReadTimeout logged as the failure to read an SSE stream (`Error reading SSE stream:`) — facts.ts reads
// the two together as this cause (failure-signatures row 10, (c) stage E). undici's `headersTimeout` (also
// 300 s) ends a call whose answer never starts with a bare `fetch failed`: facts.ts reads one logged at that
// mark after the call as this cause too.
export const clientIdleTimer: Rule = {
  id: 'client-idle-timer-cut',
  decision: 'fix_route_or_config',
  source:
    'undici bodyTimeout (BodyTimeoutError) and headersTimeout (300 s defaults, undici docs Client options) · python-sdk sse_read_timeout · failure-signatures row 10, (c) stage E and timing fingerprints, D19',
  when(f) {
    if (!has(f, 'client-idle-timeout')) return "no client idle timer (undici's Body Timeout Error, the Python SDK's SSE read timeout) cut the stream";
    if (identifiedCall(f) && f.sideEffect === 'write') return `a call that writes (${sideEffectWords(f)}): its outcome comes first (write-outcome-unknown)`;
    if (identifiedCall(f) && f.sideEffect !== 'read' && f.delivered === true)
      return 'the server received this call that may write: its outcome comes first (write-outcome-unknown)';
    if (identifiedCall(f) && f.sideEffect !== 'read' && f.delivered === null && f.serverLogged)
      return 'the server log is here and cannot show whether this call that may write arrived: its outcome comes first (write-outcome-unknown)';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was cut by the client's own idle timer on the response (${f.signals.includes('client-body-timeout') ? "undici's Body Timeout Error: by default 300 s without a byte" : f.causes.includes('network-error') ? "a bare fetch failed 300 s after the call: undici's headers and body timeouts, 300 s by default, which Node's fetch reports that way" : "a read timeout while reading the SSE stream: the Python SDK's sse_read_timeout, by default 300 s without a byte"}). A quiet stream — the legacy SSE connection, a long call's response stream — dies this way every time it idles. Make the server send keep-alive events (SSE comments, pings or progress) well inside that timer, or raise the client's timeout for the stream (sse_read_timeout, undici's headersTimeout and bodyTimeout through the host's fetch dispatcher); reconnecting alone only waits for the next cut.${identifiedCall(f) && f.sideEffect !== 'read' ? ' Nothing shows this call is read-only and the server may have gone on running it after the cut (a disconnect is not a cancellation before 2026-07-28): if it changes state, check whether it completed before running it again.' : ''}`,
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
      name: 'a long tool cut by the SSE read timeout, only the client logged',
      facts: {
        method: 'tools/call',
        tool: 'render_archive',
        interruption: 'client-timeout',
        clientTimeoutMs: 300000,
        causes: ['sse-read-failed', 'client-timeout', 'client-idle-timeout'],
      },
      fires: true,
    },
    {
      name: "a bare fetch failed at undici's 300 s mark on a tool call",
      facts: { method: 'tools/call', tool: 'tabulate_responses', interruption: 'connection-closed', causes: ['network-error', 'client-idle-timeout'], signals: ['fetch-failed'] },
      fires: true,
    },
    {
      name: 'near miss: a bare fetch failed 40 s after the call (no timer of its own)',
      facts: { method: 'tools/call', tool: 'tabulate_responses', interruption: 'connection-closed', causes: ['network-error'], signals: ['fetch-failed'] },
      fires: false,
    },
    {
      name: 'near miss: the same cut, the server shown running the call',
      facts: {
        method: 'tools/call',
        tool: 'render_archive',
        interruption: 'client-timeout',
        delivered: true,
        serverLogged: true,
        causes: ['sse-read-failed', 'client-timeout', 'client-idle-timeout'],
      },
      fires: false,
    },
    {
      name: 'near miss: the same cut on a tool annotated destructive',
      facts: {
        method: 'tools/call',
        tool: 'purge_cache',
        interruption: 'client-timeout',
        sideEffect: 'write',
        sideEffectSource: 'annotations',
        toolHints: 'destructiveHint: true',
        causes: ['sse-read-failed', 'client-timeout', 'client-idle-timeout'],
      },
      fires: false,
    },
    {
      name: 'near miss: Error reading SSE stream: peer closed connection (a cut, no timer)',
      facts: { interruption: 'stream-cut', causes: ['sse-read-failed', 'stream-cut'] },
      fires: false,
    },
  ],
};
