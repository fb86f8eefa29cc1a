import type { Rule } from '../rule.ts';
import { has, interruptionWords } from '../rule.ts';

// failure-signatures D19 ("repeated idle cuts at a fixed interval (60/100/125/300 s) → fix proxy config: … send
// `:` keep-alive comments inside the smallest idle window") and the timing fingerprints of section (c); D16 keeps a
// single failure of the standalone GET stream optional ("optionally … keep-alives"). The same quiet stream ended
// after the same long time, again and again, is not a one-off: a timer on the path (a CDN's or load balancer's
// idle timeout, a proxy's read timeout) kills it at that age, and the client keeps reopening it — server
// notifications go missing between, and hosts that treat the stream's failure as fatal lose the connection.
// A server that goes away ends streams at whatever age they have; only a timer ends them all at one.
export const streamCutFixedInterval: Rule = {
  id: 'stream-cut-at-fixed-interval',
  decision: 'fix_route_or_config',
  source: 'failure-signatures D19, section (c) timing fingerprints · D16',
  when(f) {
    if (f.era === 'legacy-sse' || has(f, 'transport-legacy')) return 'in the legacy HTTP+SSE transport the GET stream is the connection (legacy-stream-lost)';
    // (or 2026-07-28's listen stream, its successor: spec basic/patterns/subscriptions)
    const listen = f.method === 'subscriptions/listen';
    if (!listen && (f.method !== null || f.tool !== null)) return 'a request failed, not the GET event stream';
    if (!listen && f.httpMethod !== 'GET') return 'not a GET event stream';
    if (f.streamCutEveryMs === null) return 'no other failed event stream of the incident ended after the same long time (30 s or more)';
    if (f.nearShutdown) return 'a shutdown is logged at the cut: the server went away';
    return true;
  },
  rationale: (f) =>
    `The ${f.method === 'subscriptions/listen' ? 'listen stream (subscriptions/listen)' : 'GET event stream'} ended in a failure — ${interruptionWords(f)} — after about ${Math.round((f.streamCutEveryMs ?? 0) / 100) / 10} s, and another failed stream of these logs ended after the same time: a timer on the path (a CDN's or load balancer's idle timeout, a proxy's read timeout) cuts the quiet stream at that age, and each reopened stream meets it again. Server-initiated messages are lost at every cut, and clients that treat the stream's failure as fatal drop the connection. Make the server send keep-alive events (SSE \`:\` comments) well inside that window, or raise the idle/read timeout for the MCP route (and turn response buffering off for text/event-stream).`,
  examples: [
    {
      name: 'the standalone GET stream answered 502 after 125.4 s, twice',
      facts: { httpMethod: 'GET', httpStatus: 502, interruption: 'bad-gateway', elapsedMs: 125_412, streamCutEveryMs: 125_412 },
      fires: true,
    },
    {
      name: "2026-07-28's listen stream ended after 60.03 s, again and again",
      facts: { method: 'subscriptions/listen', httpMethod: 'POST', era: 'sessionless', causes: ['stream-disconnected'], streamCutEveryMs: 60_030 },
      fires: true,
    },
    { name: 'near miss: one GET stream cut after 125 s', facts: { httpMethod: 'GET', httpStatus: 502, interruption: 'bad-gateway', elapsedMs: 125_000 }, fires: false },
    {
      name: 'near miss: a legacy SSE connection cut at the same age twice (legacy-stream-lost decides)',
      facts: { era: 'legacy-sse', httpMethod: 'GET', causes: ['stream-cut'], streamCutEveryMs: 60_000 },
      fires: false,
    },
    {
      name: 'near miss: the cuts come with a shutdown',
      facts: { httpMethod: 'GET', httpStatus: 502, streamCutEveryMs: 90_000, nearShutdown: true },
      fires: false,
    },
    {
      name: 'near miss: a tools/call cut twice at 60 s (timer-cut-every-attempt)',
      facts: { method: 'tools/call', tool: 'x', httpMethod: 'POST', httpStatus: 504, streamCutEveryMs: null },
      fires: false,
    },
  ],
};
