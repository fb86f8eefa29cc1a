import type { Rule } from '../rule.ts';
import { describe, has, signalWords } from '../rule.ts';

// A limit on the answer's size between the server and the caller — a serverless platform's (Cloud Run 32 MiB over
// HTTP/1, AWS Lambda 6 MB, Vercel 4.5 MB), a proxy's buffer for response headers (nginx proxy_buffer_size), a client's
// cap on one SSE event (Java SDK, rmcp): the server ran the call and answered, the answer was dropped on the way.
// The same call with the same arguments meets the same limit, so a retry cannot pass it; what changes it is the
// size of the answer (narrower arguments, pagination, streaming the result, HTTP/2 end-to-end on Cloud Run) or the
// platform's setting — route and configuration. A tool that writes ran too: the write rules judge that call.
export const responseTooLarge: Rule = {
  id: 'response-over-platform-limit',
  decision: 'fix_route_or_config',
  source: 'signals response-too-large (Cloud Run request limits, AWS Lambda quotas, Vercel limits) · triage-rules.md §1',
  when(f) {
    if (!has(f, 'response-too-large')) return "no platform refused to deliver the server's answer for its size";
    if (f.method === 'tools/call' && f.sideEffect !== 'read') return 'a tool call that may write ran: the write rules judge it first';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} ran on the server, but its answer was refused on the way for its size (${f.httpStatus ? `HTTP ${f.httpStatus}` : 'an error'} instead of the result) — the limit is the platform's, the proxy's or the client's (${signalWords(f, ['response-too-large'], 'a size limit')}), not the server's. Re-sending the same call meets the same limit. Make the answer smaller (narrower arguments, pagination, a resource link instead of inline data), deliver it another way (stream it, HTTP/2 end-to-end on Cloud Run) or raise the limit that refused it (a proxy's response buffers, the client's event size), then send the call again.`,
  examples: [
    {
      name: "a read-only export over Cloud Run's response limit",
      facts: { method: 'tools/call', tool: 'export_audit_events', httpStatus: 500, sideEffect: 'read', causes: ['response-too-large', 'server-error'] },
      fires: true,
    },
    {
      name: 'near miss: a write tool whose answer was dropped (it ran: the write rules)',
      facts: { method: 'tools/call', tool: 'create_report', httpStatus: 500, sideEffect: 'write', causes: ['response-too-large'] },
      fires: false,
    },
    { name: 'near miss: a request body over a proxy limit (413)', facts: { method: 'tools/call', httpStatus: 413, sideEffect: 'read', causes: ['body-too-large'] }, fires: false },
  ],
};
