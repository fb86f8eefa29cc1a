// Structured context written into free text: `key=value` pairs after a message (Python `extra`
// appended by the app, structlog/Serilog key-value renderers, logfmt tails after a text prefix) and
// the indented `key: value` property lines pretty-printers put under a header (pino-pretty, YAML-ish
// dumps). The same keys name the same fields as in JSON and logfmt lines, so a request id, MCP
// method, tool, JSON-RPC id, status or path logged this way joins like a JSON line's.
//
// Declarative: KEYS maps a normalised key (lower case, no `_`, `-` or `.`) to the field it fills,
// with a check on the value (an HTTP verb is not an MCP method, a status is 100–599). Only pairs
// whose key is in the table are read; a field already filled is never overwritten (enrich.ts).
import type { RpcId } from '../contract/event.ts';
import { toRpcId } from './apply.ts';

export type PairField = 'httpMethod' | 'rpcMethod' | 'httpPath' | 'httpStatus' | 'requestId' | 'rpcId' | 'tool' | 'protocolVersion';

const HTTP_VERB = /^(?:GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS)$/;
/** An MCP method value: `initialize`, `ping`, or `family/verb` (`tools/call`, `notifications/initialized`). */
const MCP_METHOD = /^(?:initialize|ping|[a-z]{2,20}(?:\/[A-Za-z_]{1,40}){1,2})$/;
const PATH_OR_URL = /^(?:https?:\/\/[^\s/]{1,300})?(\/[^\s?#"']{0,300})/;
const ID_VALUE = /^[\w:.\-/+=]{4,128}$/;
const TOOL_VALUE = /^[A-Za-z_][\w.:-]{0,99}$/;
const PROTOCOL = /^\d{4}-\d\d-\d\d$/;
const RPC_ID = /^(?:-?\d{1,15}|[\w.:-]{1,64})$/;

interface KeyRule {
  field: PairField;
  /** The value as the field holds it, or null when this value does not fit (the key then says nothing). */
  read: (v: string) => string | number | null;
}

const verb: KeyRule = { field: 'httpMethod', read: (v) => (HTTP_VERB.test(v.toUpperCase()) ? v.toUpperCase() : null) };
const mcpMethod: KeyRule = { field: 'rpcMethod', read: (v) => (MCP_METHOD.test(v) ? v : null) };
// a file path (`path=/etc/app/config.yaml`) is not a request path
const FILE_LIKE = /\.(?:py|js|mjs|ts|json|log|txt|ya?ml|toml|cfg|conf|ini|sock|pem|key)$/;
const path: KeyRule = {
  field: 'httpPath',
  read: (v) => {
    const p = PATH_OR_URL.exec(v)?.[1] ?? null;
    return p !== null && !FILE_LIKE.test(p) ? p : null;
  },
};
const status: KeyRule = {
  field: 'httpStatus',
  read: (v) => {
    if (!/^\d{3}$/.test(v)) return null;
    const n = Number(v);
    return n >= 100 && n <= 599 ? n : null;
  },
};
const requestId: KeyRule = { field: 'requestId', read: (v) => (ID_VALUE.test(v) ? v : null) };
const rpcId: KeyRule = { field: 'rpcId', read: (v) => (RPC_ID.test(v) ? toRpcId(v) : null) };
const tool: KeyRule = { field: 'tool', read: (v) => (TOOL_VALUE.test(v) ? v : null) };
const protocol: KeyRule = { field: 'protocolVersion', read: (v) => (PROTOCOL.test(v) ? v : null) };

/**
 * Normalised key → what it fills. `method` is either: an HTTP verb (access-style context) or an MCP
 * method (an MCP server's own context) — the value decides. Source: the key names of json-lines.json
 * and logfmt.json (pino-http, Go slog, structlog, OpenTelemetry's `mcp.*` attributes).
 */
export const KEYS: Readonly<Record<string, readonly KeyRule[]>> = {
  method: [verb, mcpMethod],
  httpmethod: [verb],
  requestmethod: [verb],
  verb: [verb],
  rpcmethod: [mcpMethod],
  mcpmethod: [mcpMethod],
  mcpmethodname: [mcpMethod],
  jsonrpcmethod: [mcpMethod],
  url: [path],
  uri: [path],
  path: [path],
  requesturi: [path],
  requestpath: [path],
  httppath: [path],
  httpurl: [path],
  httptarget: [path],
  status: [status],
  statuscode: [status],
  httpstatus: [status],
  httpstatuscode: [status],
  responsestatus: [status],
  reqid: [requestId],
  requestid: [requestId],
  xrequestid: [requestId],
  traceid: [requestId],
  rpcid: [rpcId],
  jsonrpcid: [rpcId],
  mcprequestid: [rpcId],
  tool: [tool],
  toolname: [tool],
  mcptoolname: [tool],
  protocolversion: [protocol],
  mcpprotocolversion: [protocol],
};

const normal = (k: string) => {
  // most keys hold no separator: skip the replace (once per pair on ingest's main thread)
  for (let i = 0; i < k.length; i++) {
    const c = k.charCodeAt(i);
    if (c === 95 /* _ */ || c === 46 /* . */ || c === 45 /* - */) return k.toLowerCase().replace(/[_.-]/g, '');
  }
  return k.toLowerCase();
};

/** `key=value` (bare, "double" or 'single' quoted) preceded by a start, space, `(`, `,`, `{` or `[`. */
const KV = /(?:^|[\s(,{[])([A-Za-z_][\w.-]{0,60})=("(?:[^"\\\n]|\\.){0,400}"|'[^'\n]{0,400}'|[^\s"',;)\]}]{1,400})/g;
/** A `"key": value` member of a JSON object written after a text message (winston's `msg {meta}`, Rails-style tails). */
const JSON_MEMBER = /"([A-Za-z_][\w.-]{0,60})"\s{0,4}:\s{0,4}("(?:[^"\\\n]|\\.){0,400}"|-?\d{1,15}(?:\.\d{1,6})?)/g;
/** An indented `key: value` property line (pino-pretty, YAML-ish dumps): JSON scalar or bare word. */
const PROP = /^[ \t]{2,12}([A-Za-z_][\w.-]{0,60}): ("(?:[^"\\\n]|\\.){0,400}"|-?\d{1,15}(?:\.\d{1,6})?|[^\s"{[]{1,400})[ \t]*$/gm;

function unquote(v: string): string {
  if (v.length >= 2 && (v[0] === '"' || v[0] === "'") && v[v.length - 1] === v[0]) return v.slice(1, -1).replace(/\\(.)/g, '$1');
  return v;
}

export type PairValues = Partial<Record<PairField, string | number | RpcId>>;

/** Quick test before the scan: a line without `=`, a JSON tail or (in a block) an indented `: ` has no pairs. */
export function mayHavePairs(text: string, block: boolean): boolean {
  return text.includes('=') || text.includes('{"') || (block && text.includes(': '));
}

/** Fields the pairs of a text give, first pair of each field wins. */
export function pairFields(text: string, block: boolean): PairValues {
  const out: PairValues = {};
  const take = (key: string, raw: string) => {
    const rules = KEYS[normal(key)];
    if (!rules) return;
    const v = unquote(raw);
    for (const r of rules) {
      if (out[r.field] !== undefined) continue;
      const got = r.read(v);
      if (got !== null) {
        out[r.field] = got;
        return;
      }
    }
  };
  if (text.includes('=')) {
    KV.lastIndex = 0;
    for (let m = KV.exec(text); m; m = KV.exec(text)) take(m[1]!, m[2]!);
  }
  // a JSON object after the message (only its top-level-looking members: nested keys are read as well,
  // which the value checks keep honest)
  const brace = text.indexOf('{"');
  if (brace > 0) {
    const tail = text.slice(brace, brace + 8000);
    JSON_MEMBER.lastIndex = 0;
    for (let m = JSON_MEMBER.exec(tail); m; m = JSON_MEMBER.exec(tail)) take(m[1]!, m[2]!);
  }
  if (block && text.includes(': ')) {
    PROP.lastIndex = 0;
    for (let m = PROP.exec(text); m; m = PROP.exec(text)) take(m[1]!, m[2]!);
  }
  return out;
}

/** Lines the pair reader must read (and the fields it gives), and near-misses that give nothing. */
export const PAIR_EXAMPLES: readonly { text: string; block?: boolean; expect: PairValues }[] = [
  {
    text: '2026-12-01 10:47:44,161 INFO [orders_mcp] incoming request reqId=7F000001:974E rpcId=0 rpcMethod=initialize method=POST url=/mcp',
    expect: { requestId: '7F000001:974E', rpcId: 0, rpcMethod: 'initialize', httpMethod: 'POST', httpPath: '/mcp' },
  },
  {
    text: 'request finished method=tools/call tool_name="create_order" status_code=502 request_id=a1b2c3d4e5',
    expect: { rpcMethod: 'tools/call', tool: 'create_order', httpStatus: 502, requestId: 'a1b2c3d4e5' },
  },
  {
    text: "2026-03-04 10:00:01 [warning  ] upstream error            mcp.method.name='tools/call' http.status_code=504 url='https://gw.example.test/mcp/'",
    expect: { rpcMethod: 'tools/call', httpStatus: 504, httpPath: '/mcp/' },
  },
  {
    text: '2026-12-01T10:50:58.420Z [vm/28389] warn: request completed {"reqId":"7d8b0a52-ea3c-414d","method":"POST","url":"/sse","statusCode":404,"responseTime":1.3}',
    expect: { requestId: '7d8b0a52-ea3c-414d', httpMethod: 'POST', httpPath: '/sse', httpStatus: 404 },
  },
  {
    text: '[2026-12-01 10:47:44.161 +0000] INFO (23225 on vm): incoming request\n    reqId: "7F000001:974E"\n    rpcId: 3\n    rpcMethod: "tools/call"\n    tool: "create_order"\n    method: "POST"\n    url: "/mcp"',
    block: true,
    expect: { requestId: '7F000001:974E', rpcId: 3, rpcMethod: 'tools/call', tool: 'create_order', httpMethod: 'POST', httpPath: '/mcp' },
  },
];

export const PAIR_NEAR_MISSES: readonly { text: string; block?: boolean }[] = [
  // values that do not fit their key
  { text: 'retry policy method=exponential status=degraded url=see-docs' },
  { text: 'loaded settings path=/etc/orders/config.yaml' },
  // a key inside a word or a URL query is not a pair
  { text: 'GET /search?q=tool&status=5000 timed out' },
  { text: 'my_reqId=short x' },
  // an unindented `key: value` line is prose, not a property
  { text: 'status: 502 upstream\nmethod: tools/call', block: true },
  // a JSON object that starts the line is a JSON log line, read by its format, not here
  { text: '{"reqId":"7d8b0a52-ea3c-414d","statusCode":404}' },
  // a JSON-RPC error code is not an HTTP status
  { text: 'error code=-32001 message="Session not found"' },
];
