import type { Rule } from '../rule.ts';

// failure-signatures.md D16, rows 16, 17, 43, 44, 55, 90, 91: the standalone GET SSE stream (and
// DELETE at shutdown) are optional channels; their failures lose no request.
const STREAM_TEXT = /Failed to open SSE stream|Failed to reconnect SSE stream|Maximum reconnection attempts|GET stream (?:disconnected|error)|SSE stream disconnected|Session termination failed/;

export const optionalStream: Rule = {
  id: 'optional-stream-failure',
  decision: 'no_action',
  source: 'failure-signatures D16',
  when(f) {
    if (f.method && f.method !== 'notifications/initialized') return `the failing exchange is a ${f.method} request, not the optional stream`;
    const get = f.httpMethod === 'GET' || f.httpMethod === 'DELETE';
    if (!get && !STREAM_TEXT.test(f.text)) return 'not a GET stream or DELETE failure';
    if (f.text.includes('"method":"tools/call"')) return 'a tools/call rode on this exchange';
    return true;
  },
  rationale: (f) =>
    `The standalone ${f.httpMethod === 'DELETE' ? 'session DELETE' : 'GET SSE stream'} failed${f.httpStatus ? ` (HTTP ${f.httpStatus})` : ''}. It is an optional channel: no request was lost on it. Act on it only if server notifications matter, or if other requests fail too.`,
  examples: [
    { name: 'GET stream 502 while the server restarts', facts: { httpMethod: 'GET', httpStatus: 502, text: 'Failed to open SSE stream: Bad Gateway' }, fires: true },
    { name: 'GET 405 from a server without a stream', facts: { httpMethod: 'GET', httpStatus: 405 }, fires: true },
    { name: 'a tools/call 404', facts: { httpMethod: 'POST', method: 'tools/call', httpStatus: 404 }, fires: false },
  ],
};
