import type { Rule } from '../rule.ts';
import { describe, signalWords } from '../rule.ts';

// failure-signatures rows 18, 48, 58, 61; spec 2025-03-26 "backward compatibility": a legacy HTTP+SSE
// (2024-11-05) client against a Streamable HTTP endpoint or the reverse. New sessions cannot fix the
// transport choice.
export const transportMismatch: Rule = {
  id: 'transport-mismatch',
  decision: 'fix_route_or_config',
  source: 'failure-signatures rows 18, 48, 58, 61, (a.1) Endpoints · spec 2025-03-26 backward compatibility',
  when(f) {
    if (f.transportMismatch !== true) return 'no sign of the other transport (legacy SSE connect refused, 405 on POST, POST to /sse, fallback that also failed)';
    // spec 2025-03-26 backward compatibility: a 4xx to the first POST is how a client detects a legacy server;
    // when its fallback then received the server's `endpoint` event, the server serves the transport the
    // client fell back to — what failed after that is the client reading it, not the route or transport choice
    if (f.probeFoundLegacy) return "the refused POST was the legacy-detection probe and the fallback reached the server's endpoint event";
    return true;
  },
  rationale: (f) =>
    f.legacyClientPath
      ? `${describe(f)} failed on a legacy HTTP+SSE client (it opens a GET event stream and waits for an \`endpoint\` event) that was given ${f.legacyClientPath}, the path of a Streamable HTTP endpoint, and nothing there ever answered it as the old transport. Switch the client to Streamable HTTP (\`-t http\`, \`type: "http"\`, \`streamablehttp_client\`) for that URL, or point it at the server's /sse endpoint if the server still serves the old transport; retries and new sessions repeat the same failure.`
      : `${describe(f)} talked to an endpoint of the other transport (${signalWords(f, ['transport-mismatch', 'sse-connect-rejected', 'endpoint-event-missing', 'html-response', 'content-type-wrong', 'transport-fallback'], f.httpStatus ? `HTTP ${f.httpStatus} on ${f.httpMethod ?? 'the request'} ${f.httpPath ?? ''}`.trim() : 'the answer did not fit the transport')}): a legacy SSE client against a Streamable HTTP endpoint or the reverse. Point the client at the URL of the transport the server speaks (Streamable HTTP at /mcp vs GET /sse + POST /messages) or switch the client's transport; retries and new sessions repeat the same answer.`,
  examples: [
    { name: '405 on POST', facts: { httpStatus: 405, httpMethod: 'POST', transportMismatch: true }, fires: true },
    { name: 'legacy client GET /sse answered 404', facts: { httpStatus: 404, httpMethod: 'GET', transportMismatch: true, causes: ['sse-connect-rejected'] }, fires: true },
    { name: 'legacy client never got the endpoint event (ruby-mcp-client, Java SDK)', facts: { transportMismatch: true, causes: ['endpoint-event-missing'] }, fires: true },
    {
      name: 'near miss: the 405 probe, then the fallback received the endpoint event (and misread it)',
      facts: { httpStatus: 405, httpMethod: 'POST', method: 'initialize', transportMismatch: true, probeFoundLegacy: true },
      fires: false,
    },
    {
      name: 'a legacy SSE client given a /mcp URL, nothing answered as the old transport',
      facts: { transportMismatch: true, legacyClientPath: '/mcp', causes: ['transport-legacy'] },
      fires: true,
    },
    { name: 'a 502 page from the proxy', facts: { httpStatus: 502, bodyKind: 'html', transportMismatch: null }, fires: false },
  ],
};
