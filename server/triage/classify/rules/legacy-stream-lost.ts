import type { Rule } from '../rule.ts';
import { has, interruptionWords } from '../rule.ts';

// spec 2024-11-05 basic/transports (HTTP with SSE): the client opens the SSE stream with GET, the server's
// `endpoint` event names the message URL (with its session id), and every answer comes back on that stream.
// The stream IS the connection: SDK servers drop the session when it closes (python-sdk server/sse.py,
// typescript-sdk SSEServerTransport onclose), so a POST to the old endpoint is refused. failure-signatures
// (a.1) 2024-11-05 column; triage-rules.md §2 and the REINIT row ("a closed client object").
const CUT = ['stream-cut', 'stream-disconnected', 'conn-reset', 'peer-closed-before-response', 'connection-closed', 'proxy-timeout-mid-stream'] as const;

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
