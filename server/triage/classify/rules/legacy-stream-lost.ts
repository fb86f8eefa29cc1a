import type { Rule } from '../rule.ts';
import { has, interruptionWords } from '../rule.ts';

// spec 2024-11-05 basic/transports (HTTP with SSE): the client opens the SSE stream with GET, the server's
// `endpoint` event names the message URL (with its session id), and every answer comes back on that stream.
// The stream IS the connection: SDK servers drop the session when it closes (python-sdk server/sse.py,
// typescript-sdk SSEServerTransport onclose), so a POST to the old endpoint is refused. failure-signatures
// (a.1) 2024-11-05 column; triage-rules.md §2 and the REINIT row ("a closed client object").
const CUT = ['stream-cut', 'stream-disconnected', 'conn-reset', 'peer-closed-before-response', 'connection-closed', 'proxy-timeout-mid-stream'] as const;

/** The shortest idle timer of failure-signatures (c) timing fingerprints read as one here (30 s: balancer backend/idle timeouts, Pomerium); Envoy's 15 s route timeout caps whole requests, not quiet streams. */
export const QUIET_CUT_MS = 30_000;

// spec 2025-03-26 basic/transports (backwards compatibility: a client that gets 400/404/405 on its POST falls back
// to the HTTP+SSE transport of 2024-11-05) and failure-signatures (c) stage E, D19, row 43: a client that speaks
// Streamable HTTP fell back because the configured URL is a legacy SSE endpoint; on that transport the quiet GET
// stream is the whole connection, and a timer on the path (a balancer's idle or backend timeout, a proxy's read
// timeout, undici's body timeout) ends it at every quiet stretch. Shown when it had been quiet at least
// QUIET_CUT_MS and nothing logged a shutdown or restart then. Reopening works until the next quiet stretch; the
// configuration is the fix. (A legacy-only client has no other transport: legacy-stream-lost, reopen it.)
export const legacyFallbackIdleCut: Rule = {
  id: 'legacy-fallback-idle-cut',
  decision: 'fix_route_or_config',
  source: 'spec 2025-03-26 basic/transports (backwards compatibility) · failure-signatures (c) stage E, D19, row 43',
  when(f) {
    if (f.era !== 'legacy-sse' && !has(f, 'transport-legacy')) return 'not the legacy HTTP+SSE transport';
    if (f.method !== null || f.tool !== null) return 'a request failed, not the SSE connection';
    if (!has(f, ...CUT)) return 'the SSE connection is not shown cut or dropped';
    if (!f.fellBackEarlier) return 'the client did not fall back to this transport from Streamable HTTP';
    if (f.quietBeforeMs === null) return 'how long the connection was quiet before the cut is not in the logs';
    if (f.quietBeforeMs < QUIET_CUT_MS) return `the connection was quiet only ${Math.round(f.quietBeforeMs / 1000)} s before the cut: no idle timer is that short`;
    if (f.nearShutdown || f.restartedSinceWorked === true) return 'a shutdown or restart is logged at the cut: the server went away';
    return true;
  },
  rationale: (f) =>
    `The client fell back from Streamable HTTP to the legacy HTTP+SSE transport (the configured URL answers only as a 2024-11-05 SSE endpoint), and that connection — its GET event stream — was cut (${interruptionWords(f)}) after ${Math.round((f.quietBeforeMs ?? 0) / 1000)} s with nothing logged on it, with nothing showing the server going away: a quiet stream ended by a timer on the path (a load balancer's idle or backend timeout, a proxy's read timeout, the client's body timeout). Reconnecting gets a session that dies at the next quiet stretch as long. Point the client at the server's Streamable HTTP endpoint if it has one (often /mcp instead of /sse); otherwise make the server send keep-alive events inside the smallest timer or raise the timers for this route.`,
  examples: [
    {
      name: 'fell back to legacy SSE; terminated 3 minutes after discovery',
      facts: { era: 'legacy-sse', causes: ['stream-cut'], interruption: 'stream-cut', fellBackEarlier: true, quietBeforeMs: 168_000 },
      fires: true,
    },
    {
      name: 'near miss: a legacy-only client cut after 5 quiet minutes (legacy-stream-lost)',
      facts: { era: 'legacy-sse', causes: ['stream-cut'], quietBeforeMs: 300_000 },
      fires: false,
    },
    { name: 'near miss: cut 4 s after the fallback', facts: { era: 'legacy-sse', causes: ['stream-cut'], fellBackEarlier: true, quietBeforeMs: 4000 }, fires: false },
    { name: 'near miss: untimed', facts: { era: 'legacy-sse', causes: ['stream-cut'], fellBackEarlier: true }, fires: false },
    {
      name: 'near miss: a shutdown logged at the cut',
      facts: { era: 'legacy-sse', causes: ['stream-cut'], fellBackEarlier: true, quietBeforeMs: 90_000, nearShutdown: true },
      fires: false,
    },
  ],
};

export const legacyStreamLost: Rule = {
  id: 'legacy-stream-lost',
  decision: 'reinitialize',
  source: 'spec 2024-11-05 basic/transports (HTTP with SSE) · triage-rules.md §2 · failure-signatures (a.1)',
  // a client that reopened its stream and initialized again has done what this asks
  settledBySuccess: true,
  when(f) {
    if (f.era !== 'legacy-sse' && !has(f, 'transport-legacy')) return 'not the legacy HTTP+SSE transport';
    if (f.method !== null || f.tool !== null) return 'a request failed, not the SSE connection';
    if (f.httpMethod !== null && f.httpMethod !== 'GET') return 'not the GET event stream';
    if (!has(f, ...CUT)) return 'the SSE connection is not shown cut or dropped';
    return true;
  },
  rationale: (f) =>
    `The legacy HTTP+SSE connection (the GET event stream of protocol 2024-11-05) was lost (${interruptionWords(f)}). In that transport the stream is the connection: the server's endpoint event gave the message URL with its session, every answer arrives on the stream, and servers drop the session when it closes. Posting to the old endpoint fails. Open the SSE stream again (a new endpoint and session) and initialize, then re-send only what is safe to repeat. If it drops again and again, look for the idle timer in between (proxy read timeout, client body timeout) or move to Streamable HTTP.`,
  examples: [
    {
      name: 'Java SSE client: SSE connection error, chunked read cut',
      facts: { era: 'legacy-sse', causes: ['transport-legacy', 'stream-cut'], interruption: 'stream-cut' },
      fires: true,
    },
    { name: 'near miss: a Streamable HTTP GET stream dropping (optional)', facts: { era: 'session', httpMethod: 'GET', causes: ['stream-disconnected'] }, fires: false },
    { name: 'near miss: a tools/call cut on a legacy connection', facts: { era: 'legacy-sse', method: 'tools/call', tool: 'x', causes: ['stream-cut'] }, fires: false },
    { name: 'near miss: a legacy connect refused (404)', facts: { era: 'legacy-sse', httpMethod: 'GET', httpStatus: 404, causes: ['sse-connect-rejected'] }, fires: false },
  ],
};
