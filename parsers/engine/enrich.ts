// Facts that hide inside free text, whatever the format: an embedded JSON-RPC message, a
// session pseudonym after a header name, a status in an SDK error string, a protocol version.
// Declarative: each extractor is a regex and the field it fills; the first match wins and a
// field the format already filled is never overwritten.
import type { Event } from '../contract/event.ts';
import { toRpcId } from './apply.ts';
import { signalTable } from './signals.ts';

interface Extractor {
  field: 'httpStatus' | 'rpcId' | 'rpcMethod' | 'tool' | 'session' | 'protocolVersion' | 'requestId' | 'httpMethod' | 'httpPath';
  re: RegExp;
  /** Which capture holds the value (default 1). */
  group?: number;
  why: string;
}

export const EXTRACTORS: readonly Extractor[] = [
  { field: 'session', re: /\b(sess_[a-z2-7]{10,40})\b/, why: 'pseudonymised session id (redaction writes them in this shape)' },
  { field: 'rpcMethod', re: /"method"\s*:\s*"([a-z][\w/$.-]{0,80})"/, why: 'JSON-RPC request embedded in the line' },
  { field: 'rpcId', re: /"jsonrpc"\s*:\s*"2\.0"[^{}]{0,400}?"id"\s*:\s*("[^"]{1,100}"|-?\d{1,15})/, why: 'JSON-RPC id (after jsonrpc)' },
  { field: 'rpcId', re: /"id"\s*:\s*("[^"]{1,100}"|-?\d{1,15})[^{}]{0,400}?"jsonrpc"\s*:\s*"2\.0"/, why: 'JSON-RPC id (before jsonrpc)' },
  { field: 'rpcId', re: /\b(?:rpc[_-]?id|rpcId)[=:]\s?("[^"]{1,100}"|-?\d{1,15})\b/i, why: 'rpc=… key-value' },
  { field: 'rpcId', re: /\brpc=(-?\d{1,15}|"[^"]{1,100}")/, why: 'rpc=… key-value' },
  { field: 'rpcMethod', re: /\bmethod=((?:tools|resources|prompts|notifications|completion|logging|sampling|roots|server|subscriptions|tasks|elicitation)\/[\w/$-]{1,60}|initialize|ping)\b/, why: 'method=… key-value' },
  { field: 'tool', re: /"params"\s*:\s*\{\s*"name"\s*:\s*"([\w.:-]{1,100})"/, why: 'tools/call params.name' },
  { field: 'tool', re: /\btool=([\w.:-]{1,100})/, why: 'tool=… key-value' },
  { field: 'protocolVersion', re: /(?:protocol[_ -]?version|mcp-protocol-version|protocolVersion)["']?\s*[:=]\s*["']?(20\d{2}-\d{2}-\d{2})/i, why: 'negotiated or requested protocol version' },
  { field: 'httpStatus', re: /\(HTTP (\d{3})\)/, why: 'TS SDK ≤1.23 "Error POSTing to endpoint (HTTP 404)"' },
  { field: 'httpStatus', re: /\bHTTP\/\d(?:\.\d)? (\d{3})\b/, why: 'status line' },
  { field: 'httpStatus', re: /\s->\s(\d{3})\b/, why: 'request -> status' },
  { field: 'httpStatus', re: /[Ss]tatus(?: code)?[ =:(]{1,3}(\d{3})\b/, why: 'status code N' },
  { field: 'httpStatus', re: /\b(?:Client|Server) error '(\d{3}) /, why: 'httpx HTTPStatusError' },
  { field: 'httpStatus', re: /\bError code: (\d{3})\b/, why: 'openai/anthropic client errors' },
  { field: 'httpStatus', re: /\bNon-200 status code \((\d{3})\)/, why: 'SSE client error' },
  { field: 'httpStatus', re: /\b(\d{3}) \((?:Bad Request|Not Found|Unauthorized|Forbidden|Internal Server Error|Bad Gateway|Gateway Timeout|Service Unavailable|Method Not Allowed|Not Acceptable)\)/, why: '.NET HttpRequestException' },
  { field: 'httpStatus', re: /\((\d{3}) (?:Unauthorized|Forbidden|Not Found|Bad Request)\)/, why: 'reqwest status error' },
  { field: 'httpStatus', re: /\bcode: (\d{3})\b/, why: 'StreamableHTTPError code' },
  { field: 'httpStatus', re: /\bError (\d{3}) status sending message\b/, why: 'VS Code MCP client' },
  { field: 'httpStatus', re: /return_value=\(b'HTTP\/[\d.]{1,3}', (\d{3}),/, why: 'httpcore receive_response_headers.complete under any logging layout' },
  { field: 'httpMethod', re: /\b(GET|POST|DELETE|PUT|PATCH|HEAD|OPTIONS) (?:https?:\/\/[^\s/]{1,200})?\/[^\s"]{0,500}/, why: 'METHOD /path' },
  { field: 'httpPath', re: /\b(?:GET|POST|DELETE|PUT|PATCH|HEAD|OPTIONS) (?:https?:\/\/[^\s/]{1,200})?(\/[^\s"?]{0,300})/, why: 'METHOD /path' },
  { field: 'requestId', re: /\b(?:x-request-id|request_id|reqId|requestId)["']?\s*[:=]\s*["']?([0-9a-f]{16,64})\b/i, why: 'proxy request id' },
];

/** Fill missing correlation fields from the event's text. Mutates and returns the event. */
export function enrich(e: Event): Event {
  const text = e.kind === 'block' ? e.text.slice(0, 20_000) : e.text;
  for (const x of EXTRACTORS) {
    if (e[x.field] !== null && e[x.field] !== undefined) continue;
    const m = x.re.exec(text);
    if (!m) continue;
    const v = m[x.group ?? 1]!;
    if (x.field === 'httpStatus') {
      const n = Number(v);
      if (n >= 100 && n <= 599) e.httpStatus = n;
    } else if (x.field === 'rpcId') {
      e.rpcId = v.startsWith('"') ? v.slice(1, -1) : toRpcId(v);
    } else {
      e[x.field] = v;
    }
  }
  // What the line says happened (parsers/signals), once per event, after the fields it reads.
  e.signals = signalTable().forEvent(e);
  return e;
}
