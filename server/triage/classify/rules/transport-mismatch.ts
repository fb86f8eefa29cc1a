import type { Rule } from '../rule.ts';
import { describe } from '../rule.ts';

// failure-signatures rows 18, 48, 58, 61; spec 2025-03-26 "backward compatibility": an SSE
// (2024-11-05) client against a Streamable HTTP endpoint or the reverse, or an HTML page where an
// event stream was expected. Re-creating sessions cannot fix the transport choice.
const MISMATCH =
  /Cannot POST \/sse|Cannot GET \/mcp|Unexpected content type: text\/html|Expected response header Content-Type to contain 'text\/event-stream'|got 'text\/html'|Invalid content type,? expected "?text\/event-stream|SSE error: Non-200 status code \((?:404|405)\)|Already attempted transport fallback|Method Not Allowed|streamable.{0,40}(?:against|vs\.?|instead of).{0,20}sse|sse.{0,40}(?:against|vs\.?|instead of).{0,20}streamable/i;

export const transportMismatch: Rule = {
  id: 'transport-mismatch',
  decision: 'fix_route_or_config',
  source: 'failure-signatures rows 18, 48, 58, 61 · spec 2025-03-26 backward compatibility',
  when(f) {
    if (f.httpStatus === 405 && f.httpMethod === 'POST') return true;
    const m = MISMATCH.exec(f.text);
    if (!m) return 'no sign of the wrong transport (405 on POST, Cannot POST /sse, text/html where an event stream was expected)';
    if (f.httpMethod === 'GET' && f.method === null && /Method Not Allowed/i.test(m[0])) return 'a 405 on the optional GET stream is expected';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} talked to an endpoint of the other transport (${(MISMATCH.exec(f.text)?.[0] ?? `HTTP ${f.httpStatus} on POST`).slice(0, 80)}): an SSE (2024-11-05) client against a Streamable HTTP endpoint or the reverse, or an HTML page where an event stream was expected. Point the client at the right URL and pick the transport the server speaks (/mcp Streamable HTTP vs /sse + /messages); retries and new sessions repeat the same answer.`,
  examples: [
    { name: '405 on POST /sse', facts: { httpStatus: 405, httpMethod: 'POST' }, fires: true },
    { name: 'python sse_reader got text/html', facts: { text: "Error in sse_reader: Expected response header Content-Type to contain 'text/event-stream', got 'text/html'" }, fires: true },
    { name: 'a 405 on the optional GET stream', facts: { httpStatus: 405, httpMethod: 'GET', text: 'Method Not Allowed' }, fires: false },
    { name: 'a 502 HTML page from the proxy', facts: { httpStatus: 502, bodyKind: 'html', text: '<title>502 Bad Gateway</title>' }, fires: false },
  ],
};
