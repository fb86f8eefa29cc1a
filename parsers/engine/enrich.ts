// Facts that hide inside free text, whatever the format: the MCP method, the JSON-RPC id, the tool,
// the session pseudonym, the URL and its target, the HTTP status, and whether the line describes
// the request, the response or both. These are the join keys: a client line in prose that names
// `tools/call create_order`, rpc id 7 and a 404 joins the proxy and server lines of that request.
//
// Declarative: each extractor is a regex, the field it fills and why, with lines it must read and
// near-misses it must not (enrich.test.ts checks both). The first extractor that matches fills its
// field; a field already filled (by the format or an earlier extractor) is never overwritten.
// False ids are worse than none (they join unrelated lines), so ids are read only where the
// context says they are JSON-RPC ids. Every regex is bounded; `needs` literals skip a regex cheaply.
import type { Event, RpcId } from '../contract/event.ts';
import { toRpcId } from './apply.ts';
import { mayHavePairs, pairFields } from './pairs.ts';
import { readTallyRows } from './tally.ts';
import { signalTable } from './signals.ts';

type Field = 'httpStatus' | 'rpcId' | 'rpcMethod' | 'tool' | 'session' | 'protocolVersion' | 'requestId' | 'httpMethod' | 'httpPath';

export interface Extractor {
  field: Field;
  re: RegExp;
  /** Which capture holds the value (default 1). */
  group?: number;
  /** The text must contain one of these literals before the regex is tried (cheap pre-check). */
  needs?: readonly string[];
  /** Read the value from the match instead of a capture (the JSON-RPC object's members, in any key order). */
  read?: (text: string, m: RegExpExecArray) => string | number | null;
  /** A captured spelling → the field's value (SDK type names → MCP methods). */
  map?: Readonly<Record<string, string>>;
  why: string;
  /** Lines this extractor alone must read, and the value it gives. */
  examples: readonly (readonly [string, string | number])[];
  /** Lines this extractor alone must not fire on. */
  nearMisses: readonly string[];
}

// ---------------------------------------------------------------------------------------------
// Vocabulary.

/** MCP methods with a slash: unambiguous in prose (the namespaces the spec defines). */
const SLASH_METHOD =
  '(?:notifications/(?:tools|resources|prompts|roots)/[A-Za-z_]{1,30}|(?:tools|resources|prompts|roots|notifications|completion|logging|sampling|elicitation|tasks|server|subscriptions)/[A-Za-z_]{1,30}(?:/[A-Za-z_]{1,30})?)';
/** Any MCP method, where the context already says a method follows (`method=`, `Sending request …`). */
const MCP_METHOD = `(?:${SLASH_METHOD}|initialize|ping)`;
/** A value that is an MCP method and nothing else. */
const WHOLE_METHOD = new RegExp(`^${MCP_METHOD}$`);
/** A slash method standing alone: not inside a path (`/mcp/tools/call`) or a file name (`resources/read.ts`). */
const BARE_SLASH_METHOD = `(?<![\\w/.-])(${SLASH_METHOD})(?![\\w/-]|\\.\\w)`;

/** Python SDK request/notification type names (`Processing request of type CallToolRequest`). */
export const SDK_TYPE_METHODS: Readonly<Record<string, string>> = {
  InitializeRequest: 'initialize',
  PingRequest: 'ping',
  ListToolsRequest: 'tools/list',
  CallToolRequest: 'tools/call',
  ListResourcesRequest: 'resources/list',
  ListResourceTemplatesRequest: 'resources/templates/list',
  ReadResourceRequest: 'resources/read',
  SubscribeRequest: 'resources/subscribe',
  UnsubscribeRequest: 'resources/unsubscribe',
  ListPromptsRequest: 'prompts/list',
  GetPromptRequest: 'prompts/get',
  CompleteRequest: 'completion/complete',
  SetLevelRequest: 'logging/setLevel',
  CreateMessageRequest: 'sampling/createMessage',
  ListRootsRequest: 'roots/list',
  ElicitRequest: 'elicitation/create',
  InitializedNotification: 'notifications/initialized',
  CancelledNotification: 'notifications/cancelled',
  ProgressNotification: 'notifications/progress',
};
const SDK_TYPES = Object.keys(SDK_TYPE_METHODS).join('|');

/** SDK client API names (Java, Kotlin, TypeScript, langchain4j) and the MCP method each sends. */
export const SDK_CLIENT_CALLS: Readonly<Record<string, string>> = {
  listTools: 'tools/list',
  callTool: 'tools/call',
  executeTool: 'tools/call',
  readResource: 'resources/read',
  listResources: 'resources/list',
  listResourceTemplates: 'resources/templates/list',
  getPrompt: 'prompts/get',
  listPrompts: 'prompts/list',
  ping: 'ping',
  sendPing: 'ping',
  checkHealth: 'ping',
  initialize: 'initialize',
};

/** Words that follow `tools/call` or `calling tool` in prose but are not a tool's name — also capitalised, as an
 * error message after a colon starts (`executing the MCP tool: Timed out while waiting…`, python-sdk row 11). */
const NOT_A_TOOL_WORDS =
  'failed|fails|timed|timeout|error|errors|call|calls|request|requests|response|result|results|with|returned|returns|for|to|from|in|on|at|after|took|succeeded|completed|started|rejected|refused|cancelled|canceled|aborted|denied|is|was|has|and|or|the|a|an|not|list|execution|invocation|params|arguments|id|rpc|refreshing|retrying|retry|reconnecting|waiting|sending|will|no|none|step|steps|use|output|discovery|listing|loading|registration|initialization|initialisation|sync';
const NOT_A_TOOL = `(?!(?:${NOT_A_TOOL_WORDS.split('|')
  .map((w) => `[${w[0]}${w[0]!.toUpperCase()}]${w.slice(1)}`)
  .join('|')})\\b)`;
/** A tool name in prose: a `server:tool` namespace is kept, a trailing colon (`get_order: boom`) is not. */
const TOOL_NAME = `${NOT_A_TOOL}([A-Za-z_][\\w.-]{0,99}(?::[\\w.-]{1,99})?)`;

/**
 * A host logging each call by its tool and JSON-RPC id without the method: `calling search_kb id=61 {…}` (or `calling
 * tool x id=61`), then `search_kb id=61 failed: …`. Groups: 1 and 2 the tool and id of the first form, 3 and 4 of the
 * second. A tool-shaped name only (`_`, `-`, `.` or camelCase), never a plain word.
 */
const TOOL_SHAPED = '(?:[A-Za-z][A-Za-z0-9]{0,40}(?:[_.-][A-Za-z0-9]{1,40}){1,6}|[a-z][a-z0-9]{0,40}(?:[A-Z][a-z0-9]{1,40}){1,6})';
const HOST_CALL_BY_ID = new RegExp(
  `\\b(?:[Cc]alling|[Ii]nvoking) (?:tool )?(${TOOL_SHAPED}) (?:rpc[_-]?)?id=(-?\\d{1,15})(?![\\w.])|(?:^|[\\s:])(${TOOL_SHAPED}) (?:rpc[_-]?)?id=(-?\\d{1,15}):? (?:failed|errored|timed out|returned|ok|OK|done|cancell?ed)\\b`,
);

const HTTP_METHOD = '(?:GET|POST|DELETE|PUT|PATCH|HEAD|OPTIONS)';
// `scheme://host` before a request's path; a host redacted in strict mode reads `<string len=9>` (blanks inside
// the placeholder are still the host)
const URL_PREFIX = '(?:https?:\\/\\/(?:[^\\s/<]|<[^<>\\n]{1,40}>){1,200})?';
/** Up to four other key=value pairs between two keys of one logfmt line (`method=x tool=y id=7`). */
/** A JSON-RPC id that is a string, unquoted in key=value text (`id=req-88`, `id=c-3391`): starts with a letter, holds a digit. */
const STRING_ID = '[A-Za-z][A-Za-z_]{0,20}-?[A-Za-z_]{0,20}[-_:]?\\d[\\w:-]{0,60}';
const KV_BETWEEN = `(?: {1,3}[\\w.-]{1,40}=(?:"[^"\\n]{0,200}"|'[^'\\n]{0,200}'|[^\\s"']{1,200})){0,4}`;
// (nginx's own pages spell some the old way — `504 Gateway Time-out`, `405 Not Allowed`, `413 Request Entity
// Too Large`: src/http/ngx_http_special_response.c — and clients quote those pages in their errors)
const REASONS =
  'OK|Created|Accepted|No Content|Moved Permanently|Found|See Other|Temporary Redirect|Permanent Redirect|Bad Request|Unauthorized|Forbidden|Not Found|Method Not Allowed|Not Allowed|Not Acceptable|Request Time-?out|Conflict|Gone|Length Required|Misdirected Request|(?:Request Entity|Payload|Content) Too Large|Unsupported Media Type|Unprocessable (?:Entity|Content)|Too Many Requests|Internal Server Error|Not Implemented|Bad Gateway|Service (?:Temporarily )?Unavailable|Gateway Time-?out';

/** Reason phrases that name one status when they open an error message (`Not Found: …`). */
const REASON_ONLY: Record<string, number> = {
  'Bad Request': 400,
  Unauthorized: 401,
  Forbidden: 403,
  'Not Found': 404,
  'Method Not Allowed': 405,
  'Not Acceptable': 406,
  'Unsupported Media Type': 415,
  'Internal Server Error': 500,
  'Bad Gateway': 502,
  'Service Unavailable': 503,
  'Gateway Timeout': 504,
};

/** A body that is only a reason phrase (rmcp quotes it after `body: `). */
const BODY_REASON: Record<string, number> = { ...REASON_ONLY, 'Method Not Allowed': 405 };

/**
 * After the TS SDK's `Failed to open SSE stream: ` the phrase is always a status text, so the ones too
 * common to open an error message on their own count there too: 409 (a second GET stream for one
 * session, failure-signatures D16) and 429.
 */
const STREAM_REASONS: Record<string, number> = { ...REASON_ONLY, Conflict: 409, 'Too Many Requests': 429 };

// ---------------------------------------------------------------------------------------------
// The JSON-RPC object of a line: its top-level members in any key order (`"id"` after a nested
// `"params"` object included). A small string-aware scanner, bounded; the last result is cached
// because several extractors ask about the same line.

export interface RpcMembers {
  id: RpcId | null;
  method: string | null;
  result: boolean;
  error: boolean;
  /** params.name when the method is tools/call (or unknown with `arguments` beside it). */
  tool: string | null;
}

/** The method of a cancellation: its `params.requestId` is the id of the request it gives up (spec basic/utilities/cancellation). */
export const CANCELLED = 'notifications/cancelled';

const SCAN_LIMIT = 65_536;
let lastRpc: { text: string; at: number; members: RpcMembers | null } = { text: '', at: -1, members: null };

function escaped(text: string, k: number): boolean {
  let n = 0;
  while (k - 1 - n >= 0 && text.charCodeAt(k - 1 - n) === 92 /* \ */) n++;
  return n % 2 === 1;
}

/** The `{` that opens the object holding the member at `at` (scanning back, strings skipped). */
function objectStart(text: string, at: number): number {
  let depth = 0;
  let inString = false;
  for (let k = at - 1, stop = Math.max(0, at - SCAN_LIMIT); k >= stop; k--) {
    const c = text.charCodeAt(k);
    if (c === 34 /* " */ && !escaped(text, k)) inString = !inString;
    else if (inString) continue;
    else if (c === 125 /* } */ || c === 93 /* ] */) depth++;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (depth === 0) return c === 123 ? k : -1;
      depth--;
    }
  }
  return -1;
}

function skipWs(text: string, i: number): number {
  while (i < text.length && text.charCodeAt(i) <= 32) i++;
  return i;
}

/** A JSON string starting at i (a quote): its raw content and the index after it. */
function readString(text: string, i: number, end: number): [string, number] {
  let j = i + 1;
  while (j < end && !(text.charCodeAt(j) === 34 && !escaped(text, j))) j++;
  return [text.slice(i + 1, j), j + 1];
}

/** The index after the JSON value at i (balanced, strings skipped). */
function skipValue(text: string, i: number, end: number): number {
  const c = text.charCodeAt(i);
  if (c === 34) return readString(text, i, end)[1];
  if (c !== 123 && c !== 91) {
    while (i < end && !',}]'.includes(text[i]!)) i++;
    return i;
  }
  let depth = 0;
  for (let k = i; k < end; k++) {
    const d = text.charCodeAt(k);
    if (d === 34) k = readString(text, k, end)[1] - 1;
    else if (d === 123 || d === 91) depth++;
    else if ((d === 125 || d === 93) && --depth === 0) return k + 1;
  }
  return end;
}

/** One member of an object: its key, where its value starts, and where the next member starts (-1 at the end). */
interface Member {
  key: string;
  value: number;
  next: number;
}

/** The member at `i` (just after `{` or `,`), or null at the object's end or on malformed text. */
function memberAt(text: string, i: number, end: number, out: Member): Member | null {
  i = skipWs(text, i);
  if (i >= end || text.charCodeAt(i) !== 34) return null;
  const [key, afterKey] = readString(text, i, end);
  i = skipWs(text, afterKey);
  if (text[i] !== ':') return null;
  out.key = key;
  out.value = skipWs(text, i + 1);
  const after = skipWs(text, skipValue(text, out.value, end));
  out.next = text[after] === ',' ? after + 1 : -1;
  return out;
}

function scalar(text: string, i: number, end: number): RpcId | null {
  if (text.charCodeAt(i) === 34) {
    const [s] = readString(text, i, end);
    return s.length >= 1 && s.length <= 100 ? s : null;
  }
  const m = /^-?\d{1,15}(?![\d.eE])/.exec(text.slice(i, i + 17));
  return m ? Number(m[0]) : null;
}

/** The JSON-RPC object whose `"jsonrpc":"2.0"` member is at `at`. */
export function readJsonRpc(text: string, at: number): RpcMembers | null {
  if (lastRpc.text === text && lastRpc.at === at) return lastRpc.members;
  const start = objectStart(text, at);
  let out: RpcMembers | null = null;
  if (start >= 0) {
    const end = Math.min(text.length, start + SCAN_LIMIT);
    const m: RpcMembers = { id: null, method: null, result: false, error: false, tool: null };
    let name: string | null = null as string | null;
    let args = false;
    let cancels: RpcId | null = null;
    const top: Member = { key: '', value: 0, next: 0 };
    for (let i = start + 1; i >= 0 && memberAt(text, i, end, top); i = top.next) {
      const v = top.value;
      if (top.key === 'id') m.id = scalar(text, v, end);
      else if (top.key === 'method') {
        const s = scalar(text, v, end);
        m.method = typeof s === 'string' && /^[a-z][\w/$.-]{0,80}$/i.test(s) ? s : null;
      } else if (top.key === 'result') m.result = true;
      else if (top.key === 'error') m.error = true;
      else if (top.key === 'params' && text.charCodeAt(v) === 123) {
        const p: Member = { key: '', value: 0, next: 0 };
        for (let j = v + 1; j >= 0 && memberAt(text, j, end, p); j = p.next) {
          if (p.key === 'name') {
            const s = scalar(text, p.value, end);
            if (typeof s === 'string' && /^[\w.:-]{1,100}$/.test(s)) name = s;
          } else if (p.key === 'arguments') args = true;
          else if (p.key === 'requestId') {
            const s = scalar(text, p.value, end);
            if (typeof s === 'number' || typeof s === 'string') cancels = s;
          }
        }
      }
    }
    if (name !== null && (m.method === 'tools/call' || (m.method === null && args))) m.tool = name;
    // a cancellation carries no id of its own: it speaks for the request it cancels (its reason — `Request timed
    // out` — is that request's failure), so it takes that request's id and joins its span
    if (m.method === CANCELLED && m.id === null && cancels !== null) m.id = cancels;
    out = m;
  }
  lastRpc = { text, at, members: out };
  return out;
}

const JSONRPC_KEY = /"jsonrpc"\s{0,8}:\s{0,8}"2\.0"/;
const rpcMember = (pick: (m: RpcMembers) => string | number | null) => (text: string, m: RegExpExecArray) => {
  const r = readJsonRpc(text, m.index);
  return r ? pick(r) : null;
};

// ---------------------------------------------------------------------------------------------

export const EXTRACTORS: readonly Extractor[] = [
  {
    field: 'session',
    re: /\b(sess_[a-z2-7]{10,40})\b/,
    needs: ['sess_'],
    why: 'pseudonymised session id (redaction writes them in this shape)',
    examples: [['mcp-session-id: sess_abcdefghijk', 'sess_abcdefghijk']],
    nearMisses: ['session sess_short', 'my_sess_abcdefghijk'],
  },

  // --- MCP method -----------------------------------------------------------------------------
  {
    field: 'rpcMethod',
    re: JSONRPC_KEY,
    needs: ['"jsonrpc"'],
    read: rpcMember((r) => r.method),
    why: 'the JSON-RPC object embedded in the line: its own top-level "method"',
    examples: [['sending {"params":{"name":"x","arguments":{}},"method":"tools/call","jsonrpc":"2.0","id":7}', 'tools/call']],
    nearMisses: ['{"jsonrpc":"2.0","id":1,"result":{"method":"tools/call"}}'],
  },
  {
    field: 'rpcMethod',
    // (a namespaced name or one of MCP's two bare ones: a stack frame's "method" member — log4j2 JsonLayout's
    // extendedStackTrace, Bunyan's and Sentry's frames — names a function, `onComplete`, `send`, not a message)
    re: /"method"\s{0,8}:\s{0,8}"((?:initialize|ping|[a-z][\w$.-]{0,40}\/[\w/$.-]{1,60}))"/,
    needs: ['"method"'],
    why: 'a "method" member anywhere (a JSON-RPC message without its "jsonrpc" member, a cut line)',
    examples: [
      ['{"method": "tools/list", "id": 2', 'tools/list'],
      ['{"id":1,"method":"initialize","params":{', 'initialize'],
    ],
    nearMisses: [
      '{"method":"POST","path":"/mcp"}',
      '"extendedStackTrace":[{"class":"jdk.internal.net.http.Http2Connection$Http2TubeSubscriber","method":"onComplete","file":"Http2Connection.java","line":1722}',
      '{"class":"com.example.mcp.StreamableHttpTransport","method":"send","line":141}',
    ],
  },
  {
    field: 'rpcMethod',
    re: new RegExp(`\\b(?:[Mm]cp|MCP)[-_][Mm]ethod["']?\\s?[:=]\\s?["']?(${MCP_METHOD})\\b`),
    needs: ['cp-method', 'cp_method', 'CP-Method', 'cp-Method', 'CP_METHOD'],
    why: '2026-07-28 mirrors the JSON-RPC method in the `Mcp-Method` request header (basic/transports/streamable-http.mdx), which clients and proxies log (`Mcp-Method: tools/call`, nginx `mcp_method="$http_mcp_method"`)',
    examples: [
      ['POST https://api.example.test/mcp Mcp-Method=tools/call Mcp-Name=search_orders', 'tools/call'],
      ['"POST /mcp HTTP/1.1" 400 mcp_method="resources/read"', 'resources/read'],
      ['mcp-method: initialize', 'initialize'],
    ],
    nearMisses: ['Mcp-Method: POST', 'mcp_method="-"'],
  },
  {
    field: 'tool',
    re: /\b(?:[Mm]cp|MCP)[-_][Mm]ethod["']?\s?[:=]\s?["']?tools\/call\b[^\n]{0,300}?\b(?:[Mm]cp|MCP)[-_][Nn]ame["']?\s?[:=]\s?["']?([A-Za-z_][\w.:-]{0,99})|\b(?:[Mm]cp|MCP)[-_][Nn]ame["']?\s?[:=]\s?["']?([A-Za-z_][\w.:-]{0,99})["']?[^\n]{0,300}?\b(?:[Mm]cp|MCP)[-_][Mm]ethod["']?\s?[:=]\s?["']?tools\/call\b|(?<![\w/.-])tools\/call\b[^\n]{0,120}?\b(?:[Mm]cp|MCP)[-_][Nn]ame["']?\s?[:=]\s?["']?([A-Za-z_][\w.:-]{0,99})/,
    needs: ['cp-name', 'cp_name', 'cp-Name', 'CP-Name'],
    read: (_t, m) => m[1] ?? m[2] ?? m[3]!,
    why: "2026-07-28 mirrors a tools/call's tool in the `Mcp-Name` header (streamable-http.mdx); for other methods it names a prompt or resource, so only beside `Mcp-Method: tools/call` (or the method `tools/call` logged just before it)",
    examples: [
      ['POST /mcp Mcp-Method=tools/call Mcp-Name=search_orders id=11', 'search_orders'],
      ['mcp_name="get_order" mcp_method="tools/call"', 'get_order'],
      // (a client that logs the method itself, then the header it sets)
      ['POST tools/call id=4 Mcp-Name=search_code args={"query":"x"}', 'search_code'],
    ],
    nearMisses: ['Mcp-Method: prompts/get Mcp-Name: summary', 'Mcp-Name: x', 'POST prompts/get id=4 Mcp-Name=summary'],
  },
  {
    field: 'tool',
    re: /\{(?:[^{}|\n]{0,200}\|){0,8}tools\/call\|([A-Za-z_][\w.:-]{0,99})[|}]/,
    needs: ['tools/call|'],
    why: 'the same two headers captured by HAProxy (`capture request header Mcp-Method` then `… Mcp-Name`): httplog writes captured request headers between braces, separated by `|` (configuration manual 8.2.3 and `capture request header`), so `{tools/call|get_order}` is the method and the tool of the call',
    examples: [
      ['fe be/s1 0/0/1/-1/32861 -1 0 - - KH-- 9/9/1/0/0 0/0 {tools/call|purge_accounts} "POST /mcp HTTP/1.1"', 'purge_accounts'],
      ['0/0 {api.example.test|tools/call|search_kb} "POST /mcp HTTP/1.1"', 'search_kb'],
    ],
    nearMisses: ['0/0 {prompts/get|summary} "POST /mcp HTTP/1.1"', 'tools/call|x outside braces', '{tools/call|} "POST /mcp HTTP/1.1"'],
  },
  {
    field: 'rpcMethod',
    re: new RegExp(`["']?\\b(?:rpc|rpc_?[Mm]ethod|jsonrpc_?[Mm]ethod|mcp\\.method)["']?\\s{0,4}[:=]\\s{0,4}["']?(${MCP_METHOD})(?![\\w/])`),
    needs: ['rpc', 'mcp.method'],
    why: 'a structured log field that names the JSON-RPC method under another key (`{"rpc":"initialize"}` in winston/pino meta, `rpc=initialize`, `rpc_method="tools/call"`, OpenTelemetry-style `mcp.method`): the value must be a whole MCP method name (a number there is the id)',
    examples: [
      ['POST /mcp/v1 -> 404 {"rpc":"initialize","ms":3}', 'initialize'],
      ["rpc_method='tools/list' status=500", 'tools/list'],
      ['{"mcp.method":"tools/call","mcp.tool":"x"}', 'tools/call'],
      ['INFO [stockroom] POST /mcp -> 401 rpc=initialize ms=2', 'initialize'],
    ],
    nearMisses: ['POST /mcp rpc=3 -> 200', 'grpc="tools/call"', '{"rpc":"initializer"}', 'rpc=initialize_db'],
  },
  {
    field: 'rpcMethod',
    re: new RegExp(`\\bmethod=['"]?(${MCP_METHOD})\\b`),
    needs: ['method='],
    why: "key-value and Python reprs: `method=tools/call`, `ClientRequest(method='tools/call'`, `JSONRPCRequest(method='initialize'`",
    examples: [
      ['POST /mcp rpc=3 method=tools/call -> 404', 'tools/call'],
      ["root=JSONRPCRequest(method='initialize', params={}, jsonrpc='2.0', id=0)", 'initialize'],
      ["ClientRequest(method='tools/call', params=CallToolRequestParams(name='x'))", 'tools/call'],
    ],
    nearMisses: ['request method=POST', 'method=initializer'],
  },
  {
    field: 'rpcMethod',
    re: new RegExp(`\\[(?:Local|Remote)→(?:Local|Remote)\\] (${MCP_METHOD})\\b`),
    needs: ['→'],
    why: 'mcp-remote traces each message it forwards: `[Local→Remote] tools/call`',
    examples: [
      ['[526630] [Local→Remote] tools/call', 'tools/call'],
      ['[63643] [Local→Remote] initialize', 'initialize'],
    ],
    nearMisses: ['[Local→Remote] hello'],
  },
  {
    field: 'rpcMethod',
    re: new RegExp(
      `\\b(?:[Ss]ending|[Cc]alling|[Rr]eceived|[Rr]eceiving|[Hh]andling|[Pp]rocessing|[Dd]ispatching|[Cc]ancell?ing|[Cc]ancelled|[Ff]orwarding)(?: (?:MCP|JSON-RPC|mcp))?(?: (?:request|notification|message|method|response to))?:? ['"]?(${MCP_METHOD})\\b`,
    ),
    why: 'SDK and host prose: `Sending request initialize`, `Calling tools/list`, `Received response to tools/call`',
    examples: [
      ['Sending request initialize', 'initialize'],
      ['Calling tools/list', 'tools/list'],
      ['Handling MCP request: ping', 'ping'],
      ['[10:00:00] info: sending initialize request to http://localhost:3000/mcp', 'initialize'],
    ],
    nearMisses: ['Sending initializer', 'Calling pingback'],
  },
  {
    field: 'rpcMethod',
    // the Go SDK wraps every call's error in `calling "tools/list": …` (also with its quotes escaped
    // inside a slog `error="…"` value)
    re: new RegExp(`\\bcalling \\\\?"(${MCP_METHOD})\\\\?"`),
    needs: ['calling "', 'calling \\"'],
    why: 'modelcontextprotocol/go-sdk client errors: `calling "initialize": sending "initialize": …`',
    examples: [
      ['failed to connect: calling "initialize": sending "initialize": failed to connect (session ID: ): session not found', 'initialize'],
      ['level=ERROR msg="mcp connect" error="calling \\"tools/list\\": EOF"', 'tools/list'],
    ],
    nearMisses: ['calling "make build"', 'calling initialize_db()'],
  },
  {
    field: 'rpcMethod',
    // a method named in a capitalised sentence start (`Tools/list request failed with status 400`)
    re: /\b([A-Z][a-z]{3,11}\/[a-z][A-Za-z]{2,20}) (?:request|call|notification) (?:failed|errored|error|timed out)\b/,
    needs: [' request failed', ' call failed', ' request error', ' request timed out', ' notification failed'],
    read: (_t, m) => {
      const v = m[1]!.toLowerCase();
      return WHOLE_METHOD.test(v) ? v : null;
    },
    why: 'gateway and host messages that start a sentence with the method (higress `Tools/list request failed with status 400`)',
    examples: [['Tools/list request failed with status 400: Bad Request: No valid session ID provided', 'tools/list']],
    nearMisses: ['Users/list request failed with status 400', 'Orders/create request failed'],
  },
  {
    field: 'rpcMethod',
    // only an initialize request gets this answer (a second one on a live transport)
    re: /\b(?:Server already initialized|Only one initialization request is allowed)\b/,
    needs: ['already initialized', 'Only one initialization'],
    read: () => 'initialize',
    why: 'the TS SDK server refusing a repeated initialize (failure-signatures row 54): the request it answers is an initialize',
    examples: [['HTTP 400 {"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: Server already initialized"}}', 'initialize']],
    nearMisses: ['Server not initialized', 'server already running'],
  },
  {
    field: 'rpcMethod',
    // rmcp (the Rust SDK) ends a handshake error with its context: `…, when send initialize request`;
    // printed with {:?} the same error shows the context as a field: `TransportError { …, context: "send initialized notification" }`
    re: /(?:\bwhen |\bcontext: ")(?:send|receive|sending|receiving) (initialize(?:d)?) (?:request|response|notification)\b/,
    needs: ['when send', 'when receiv', 'context: "send', 'context: "receiv'],
    read: (_t, m) => (m[1] === 'initialized' ? 'notifications/initialized' : 'initialize'),
    why: 'rmcp\'s ClientInitializeError context (`when send initialize request`, `when send initialized notification`; its Debug form `context: "send initialized notification"`, rmcp service/client.rs)',
    examples: [
      ['Send message error Transport [rmcp::transport::worker::WorkerTransport<…>] error: Auth error: OAuth token refresh failed, when send initialize request', 'initialize'],
      ['error: Transport closed, when send initialized notification', 'notifications/initialized'],
      [
        'TransportError { error: DynamicTransportError { transport_name: "rmcp::transport::worker::WorkerTransport<…>", error: TransportChannelClosed }, context: "send initialized notification" }',
        'notifications/initialized',
      ],
    ],
    nearMisses: ['when sending the initialize payload', 'send initialize request to the server', 'context: "sending initialize payload to upstream"'],
  },
  {
    field: 'rpcMethod',
    re: new RegExp(`\\b[Ww]aiting for (?:the )?server to respond to [\\x60'"]?(${MCP_METHOD})[\\x60'"]? request\\b`),
    needs: ['aiting for'],
    why: "VS Code's MCP output channel while a request is unanswered: ``Waiting for server to respond to `initialize` request...`` (every few seconds)",
    examples: [['2026-03-01 10:00:05.310 [warning] Waiting for server to respond to `initialize` request...', 'initialize']],
    nearMisses: ['Waiting for server to start'],
  },
  {
    field: 'rpcMethod',
    // Zed's context-server client when its request timer fires (crates/context_server/src/client.rs)
    re: new RegExp(`\\bcancelled csp request task for "(${MCP_METHOD})" id \\d`),
    needs: ['csp request task'],
    why: 'Zed names the request its timer cancelled: `cancelled csp request task for "initialize" id 0 which took over 60s`',
    examples: [
      ['ERROR [context_server::client] cancelled csp request task for "initialize" id 0 which took over 60s', 'initialize'],
      ['cancelled csp request task for "tools/call" id 7 after the response exceeded 120s', 'tools/call'],
    ],
    nearMisses: ['cancelled csp request task for "frobnicate" id 3 which took over 60s'],
  },
  {
    field: 'rpcMethod',
    // small MCP clients that raise their own timeout naming the request: clacky-ai/openclacky's Ruby
    // client (`MCP request '#{method}' to '#{@name}' timed out after #{timeout}s`) and a Crystal client
    // (`MCP request '#{method}' timed out after #{timeout.total_seconds}s`)
    re: new RegExp(`\\bMCP request '(${MCP_METHOD})'(?: to '[^'\\n]{1,200}')? timed out after\\b`),
    needs: ['MCP request'],
    why: "a client's own request timeout that names the method: `MCP request 'initialize' to 'kb' timed out after 15s` (clacky-ai/openclacky, issue 379)",
    examples: [
      ["拉取工具失败：MCP request 'initialize' to 'kb-search' timed out after 15s", 'initialize'],
      ["RpcError: MCP request 'tools/list' timed out after 30.0s", 'tools/list'],
    ],
    nearMisses: ["MCP request to 'kb-search' timed out after 15s", "MCP server 'kb-search' error on initialize: boom (code -32603)"],
  },
  {
    field: 'rpcMethod',
    // spec basic/lifecycle: connecting *is* the initialize handshake (Streamable HTTP posts it first;
    // legacy SSE opens the stream, then posts it). A log that ends on this line ended waiting on it.
    re: /\b(?:[Cc]onnecting|[Aa]ttempting to connect|[Tt]rying to connect|[Ee]stablishing (?:a )?connection) to (?:the )?(?:(?:remote|MCP|mcp|SSE|sse|streamable ?HTTP|[Ss]treamable[Hh]ttp|HTTP|http) ){1,3}(?:server|endpoint)\b|\b[Cc]onnecting\b(?: to)?[^\n]{0,60}?[\s"'(=]{1,3}(?:https?|wss?):\/\/[^\s"'<>]{1,200}\/(?:mcp|sse)\b/,
    needs: ['onnecting', 'to connect to', 'connection to'],
    read: () => 'initialize',
    why: "a client saying it is connecting to an MCP server: the Python SDK's `Connecting to SSE endpoint: URL`, mcp-remote's `Connecting to remote server: URL`, Cursor's `Connecting to streamableHttp server`, hosts' `Connecting to MCP server …`. Connecting is the initialize handshake (spec basic/lifecycle)",
    examples: [
      ['INFO:mcp.client.sse:Connecting to SSE endpoint: http://localhost:8000/sse', 'initialize'],
      ['[4711] Connecting to remote server: https://mcp.example.com/mcp', 'initialize'],
      ['2026-03-01 10:00:00.020 [info] notes: Connecting to streamableHttp server', 'initialize'],
      ['Connecting to MCP server at https://mcp.example.com/mcp...', 'initialize'],
      ['Attempting to connect to MCP server "notes"', 'initialize'],
      // (or says it is connecting and names an MCP endpoint URL)
      ['2026-12-02T13:56:18.101Z restock:mcp connecting (sse transport) {"url":"http://127.0.0.1:18121/mcp"}', 'initialize'],
      ['connecting to https://tools.example.com/v1/sse', 'initialize'],
    ],
    nearMisses: [
      'Connecting to database at localhost:5432',
      'Connected to MCP server',
      'Reconnecting to SSE endpoint',
      'connecting to upstream server',
      'Connecting to remote host 10.0.0.2',
      'connecting to https://auth.example.com/oauth/token',
      'Reconnecting to http://h/mcp',
    ],
  },
  {
    field: 'rpcMethod',
    // (not advice: `re-initialize by sending a new InitializeRequest` names no request of this exchange)
    re: new RegExp(`(?<!\\b[Aa]? ?new )\\b(${SDK_TYPES})\\b`),
    map: SDK_TYPE_METHODS,
    needs: ['Request', 'Notification'],
    why: 'Python SDK type names: `Processing request of type CallToolRequest`',
    examples: [
      ['Processing request of type CallToolRequest', 'tools/call'],
      ['Processing request of type ListToolsRequest', 'tools/list'],
    ],
    nearMisses: ['CallToolResult received', 'MyCallToolRequest', 'The client should re-initialize by sending a new InitializeRequest without a session id'],
  },
  {
    field: 'rpcMethod',
    re: /\b(?:Mcp(?:Async|Sync)?Client|DefaultMcpClient|McpClientSession|ClientSession|McpClient\w{0,20})[.#:]{1,2}(listTools|callTool|executeTool|readResource|listResources|listResourceTemplates|getPrompt|listPrompts|ping|checkHealth|initialize|sendPing)\b/,
    map: SDK_CLIENT_CALLS,
    needs: ['Client', 'Session'],
    why: 'the SDK client API the failing call went through, in a stack frame (`DefaultMcpClient.readResource(…)`, `ClientSession.call_tool` is the Python spelling below)',
    examples: [
      ['at dev.langchain4j.mcp.client.DefaultMcpClient.readResource(DefaultMcpClient.java:284)', 'resources/read'],
      ['at io.modelcontextprotocol.client.McpAsyncClient.callTool(McpAsyncClient.java:501)', 'tools/call'],
      ['at dev.langchain4j.mcp.client.DefaultMcpClient.checkHealth(DefaultMcpClient.java:329)', 'ping'],
    ],
    nearMisses: ['HttpClient.send(HttpClient.java:12)', 'DefaultMcpClient.close(DefaultMcpClient.java:88)'],
  },
  {
    field: 'rpcMethod',
    re: /\bmcp[\\/]client[\\/]session\.py", line \d{1,6}, in (initialize|call_tool|list_tools|read_resource|list_resources|list_resource_templates|get_prompt|list_prompts|send_ping|complete|set_logging_level)\b/,
    map: {
      initialize: 'initialize',
      call_tool: 'tools/call',
      list_tools: 'tools/list',
      read_resource: 'resources/read',
      list_resources: 'resources/list',
      list_resource_templates: 'resources/templates/list',
      get_prompt: 'prompts/get',
      list_prompts: 'prompts/list',
      send_ping: 'ping',
      complete: 'completion/complete',
      set_logging_level: 'logging/setLevel',
    },
    needs: ['session.py'],
    why: "the Python SDK's ClientSession method in a traceback frame of its own file (python-sdk src/mcp/client/session.py): the request that failed, more exactly than the host's words around it (`Failed to list tools` while `session.initialize()` raised)",
    examples: [
      ['  File "D:\\app\\.venv\\Lib\\site-packages\\mcp\\client\\session.py", line 123, in initialize', 'initialize'],
      ['  File "/srv/venv/lib/python3.12/site-packages/mcp/client/session.py", line 283, in call_tool', 'tools/call'],
    ],
    nearMisses: ['  File "/srv/app/db.py", line 12, in initialize', '  File "/srv/venv/lib/mcp/shared/session.py", line 286, in send_request'],
  },
  {
    field: 'rpcMethod',
    re: /\b(?:[Ff]ailed to (?:invoke|call|execute|run)|[Ee]rror (?:invoking|executing|calling|running)|[Ee]xception (?:invoking|executing|calling)) (?:the |an? )?(?:MCP )?tool\b(?! ?(?:list|s\b|schema|definition))|\b(?:[Ff]ailed to (?:get|list|fetch|load|discover|query)|[Ee]rror (?:getting|listing|fetching|loading|discovering|querying)) (?:the )?(?:MCP )?tools\b/,
    read: (_t, m) => (/tools\b/.test(m[0]) ? 'tools/list' : 'tools/call'),
    needs: ['tool'],
    why: 'host prose naming the kind of call that failed without naming the tool: `Error executing MCP tool:`, `failed to invoke tool: …`, `Failed to get tools from MCP server`',
    examples: [
      ['Error executing MCP tool:', 'tools/call'],
      ['failed to invoke tool: request failed with status: 502', 'tools/call'],
      ['ConnectionError: Failed to get tools from MCP server: ', 'tools/list'],
      ['Failed to query tools from MCP server: Session terminated', 'tools/list'],
      ['Error querying tools: connection closed', 'tools/list'],
    ],
    nearMisses: [
      'Error executing tool schema validation',
      'failed to load toolchain',
      'calling tool succeeded',
      'Failed to query toolbox status',
      'Failed to retrieve tools from MCP server: jakarta.enterprise.inject.CreationException',
    ],
  },
  {
    field: 'rpcMethod',
    re: /\b(?:[Ff]ailed to initiali[sz]e|[Ee]rror (?:during|while|in|on) initiali[sz](?:e|ation|ing)|[Ii]nitiali[sz]ation (?:failed|error|timed out)|\binitialize (?:failed|timed out|error(?:ed)?))\b|\b(?:[Ee]rror|[Ff]ailed to|[Ff]ailure) (?:reading|read) (?:the |a )?resource\b|\b(?:[Ee]rror|[Ff]ailed to|[Ff]ailure) (?:fetching|getting|listing|list|fetch|get) (?:the )?(?:prompts|resources|resource templates)\b|\b(list_tools|call_tool|read_resource|list_resources|get_prompt|list_prompts|send_ping|listTools|callTool|readResource|listResources|getPrompt|listPrompts)(?:\(\))? (?:failed|error(?:ed)?|timed out|raised)\b|\b[Pp]ing (?:failed|timed out|error)\b/,
    read: (_t, m) => {
      if (m[1])
        return (
          (
            {
              list_tools: 'tools/list',
              listTools: 'tools/list',
              call_tool: 'tools/call',
              callTool: 'tools/call',
              read_resource: 'resources/read',
              readResource: 'resources/read',
              list_resources: 'resources/list',
              listResources: 'resources/list',
              get_prompt: 'prompts/get',
              getPrompt: 'prompts/get',
              list_prompts: 'prompts/list',
              listPrompts: 'prompts/list',
              send_ping: 'ping',
            } as Record<string, string>
          )[m[1]] ?? null
        );
      const w = m[0].toLowerCase();
      return w.includes('initiali')
        ? 'initialize'
        : w.includes('resource template')
          ? 'resources/templates/list'
          : w.includes('resources')
            ? 'resources/list'
            : w.includes('resource')
              ? 'resources/read'
              : w.includes('prompts')
                ? 'prompts/list'
                : w.includes('ping')
                  ? 'ping'
                  : null;
    },
    needs: ['nitiali', 'esource', 'rompts', 'failed', 'error', 'timed out', 'raised', 'ing '],
    why: 'host prose naming the operation that failed: `Failed to initialize MCP client`, `Error reading resource x`, `Error fetching prompts`, `Failed to list resources`, `list_tools() failed`, `callTool failed`, `ping timed out`',
    examples: [
      ['Failed to initialize MCP client: connection refused', 'initialize'],
      ['MCP server initialization failed: HTTP 401', 'initialize'],
      ['Error reading resource file:///notes/a.md: 404', 'resources/read'],
      ['Error fetching prompts: HTTP 500', 'prompts/list'],
      ['[error] [docs] Failed to list resources: MCP error -32601: Method not found', 'resources/list'],
      ['Error listing resource templates: MCP error -32601', 'resources/templates/list'],
      ['list_tools() failed: ConnectError', 'tools/list'],
      ['callTool failed: McpError: MCP error -32001: Request timed out', 'tools/call'],
      ['ping timed out after 5 s', 'ping'],
    ],
    nearMisses: ['initialized session abc', 'resource usage high', 'Initialization complete', 'ping ok in 4 ms', 'listing resources took 3 ms'],
  },
  {
    field: 'rpcMethod',
    re: /[.#:](list|call|read|get)Mcp(Tools|Tool|Resources|Resource|Prompts|Prompt)\b/,
    read: (_t, m) =>
      (
        ({
          listTools: 'tools/list',
          callTool: 'tools/call',
          readResource: 'resources/read',
          listResources: 'resources/list',
          getPrompt: 'prompts/get',
          listPrompts: 'prompts/list',
        }) as Record<string, string>
      )[`${m[1]}${m[2]}`] ?? null,
    needs: ['Mcp'],
    why: 'a host action named for the MCP call it makes, with an `Mcp` infix (`AgentView.listMcpTools`, `bridge#callMcpTool`)',
    examples: [
      ['Action: ToolPanelWebview.listMcpTools', 'tools/list'],
      ['at Bridge#callMcpTool (bridge.js:12)', 'tools/call'],
    ],
    nearMisses: ['listMcpToolsCache', 'callMcpToolbar', 'listMcpServers'],
  },
  {
    field: 'rpcMethod',
    // Electron's ipcRenderer.invoke rejects with `Error invoking remote method '<channel>': <error>`; desktop
    // hosts name the channel after the MCP call it makes (Cherry Studio `mcp:list-tools`, `mcp:call-tool`;
    // Witsy `mcp-call-tool`)
    re: /\bError invoking remote method '(?:[\w.-]{1,40}[:.-])?mcp[:-](call-tool|list-tools|read-resource|list-resources|get-prompt|list-prompts)'/,
    read: (_t, m) =>
      (
        ({
          'call-tool': 'tools/call',
          'list-tools': 'tools/list',
          'read-resource': 'resources/read',
          'list-resources': 'resources/list',
          'get-prompt': 'prompts/get',
          'list-prompts': 'prompts/list',
        }) as Record<string, string>
      )[m[1] ?? ''] ?? null,
    needs: ['remote method'],
    why: "an Electron host's IPC channel named for the MCP call it makes, in the wrapper Electron puts on its rejections: `Error invoking remote method 'mcp-call-tool': McpError: …` (Witsy), `Error invoking remote method 'mcp:list-tools': …` (Cherry Studio)",
    examples: [
      ["Error invoking remote method 'mcp-call-tool': McpError: MCP error -32001: Request timed out", 'tools/call'],
      ["Error invoking remote method 'mcp:list-tools': McpError: MCP error -32000: Connection closed", 'tools/list'],
    ],
    nearMisses: ["Error invoking remote method 'mcp:save': Error: MCP server URL must be http(s)", "Error invoking remote method 'mcp:start': Error: consent denied"],
  },
  {
    field: 'rpcMethod',
    re: /\bin (call_tool|list_tools|read_resource|list_resources|get_prompt|list_prompts|send_ping)\b|\b(?:Ping) (?:failed|timed out|error)\b/,
    read: (_t, m) =>
      (
        ({
          call_tool: 'tools/call',
          list_tools: 'tools/list',
          read_resource: 'resources/read',
          list_resources: 'resources/list',
          get_prompt: 'prompts/get',
          list_prompts: 'prompts/list',
          send_ping: 'ping',
        }) as Record<string, string>
      )[m[1] ?? ''] ?? 'ping',
    needs: ['in ', 'Ping '],
    why: 'the Python SDK ClientSession method a traceback frame names (`in call_tool`), or a host saying its ping failed',
    examples: [
      ['  File "/x/mcp/client/session.py", line 280, in call_tool', 'tools/call'],
      ['[MCP][x] Ping failed: MCP error -32601: invalid method ping', 'ping'],
    ],
    nearMisses: ['in calls_tools', 'ping pong'],
  },
  {
    field: 'rpcMethod',
    re: new RegExp(BARE_SLASH_METHOD),
    needs: ['/'],
    why: 'a slash method standing alone in prose: `tools/call create_order`, `MCP request timed out for tools/call`',
    examples: [
      ['tools/call create_order failed', 'tools/call'],
      ['MCP request timed out for tools/call', 'tools/call'],
      ['notifications/initialized -> 202', 'notifications/initialized'],
    ],
    nearMisses: ['POST /mcp/tools/call', 'see src/resources/read.ts', 'https://x/tools/list'],
  },

  // --- JSON-RPC id ----------------------------------------------------------------------------
  {
    field: 'rpcId',
    re: new RegExp(
      `"(?:id|requestId|request_id)"\\s?:\\s?(-?\\d{1,15})(?![\\w.])[^{}]{0,300}?"method"\\s?:\\s?"${MCP_METHOD}"|"method"\\s?:\\s?"${MCP_METHOD}"[^{}]{0,300}?"(?:id|requestId|request_id)"\\s?:\\s?(-?\\d{1,15})(?![\\w.])|"id"\\s?:\\s?"(${STRING_ID})"[^{}]{0,300}?"method"\\s?:\\s?"${MCP_METHOD}"|"method"\\s?:\\s?"${MCP_METHOD}"[^{}]{0,300}?"id"\\s?:\\s?"(${STRING_ID})"`,
    ),
    needs: ['"id"', '"requestId"', '"request_id"'],
    read: (_t, m) => toRpcId(m[1] ?? m[2] ?? m[3] ?? m[4]!),
    why: 'a structured log record of a call (no "jsonrpc" member): its "id" beside an MCP "method" in the same object — alone, "id" names anything. Also a whole-number "requestId" there: MCP\'s own name for the JSON-RPC id (spec basic/utilities/cancellation and progress: params.requestId), as an application logging the call writes it (a proxy\'s request id is a string or a uuid); a string "id" of the same record too, shaped as ids are (`"id":"w3-1201"`)',
    examples: [
      ['{"level":"INFO","msg":"mcp: request","server":"kb","id":89,"method":"tools/call","tool":"kb_search"}', 89],
      ['{"method":"resources/read","uri":"file:///a","id":4}', 4],
      ['{"level":"error","message":"request failed","method":"tools/list","requestId":5,"error":"McpError: MCP error -32001: Request timed out"}', 5],
      ['{"msg":"send","method":"tools/call","name":"analyze_logs","id":"w3-1201"}', 'w3-1201'],
    ],
    nearMisses: [
      '{"id":7,"method":"POST","path":"/mcp"}',
      '{"id":7,"user":{"method":"tools/call"}}',
      '{"order":{"id":7},"method":"tools/call"}',
      '{"requestId":"4f1c9e2a-7d7b-4c1e-9d8e-1b2c3d4e5f60","method":"tools/call"}',
      '{"requestId":7,"method":"POST","url":"/mcp"}',
      '{"requestId":"req-7","method":"tools/call"}',
      '{"id":"order-7","method":"POST"}',
    ],
  },
  {
    field: 'rpcId',
    re: JSONRPC_KEY,
    needs: ['"jsonrpc"'],
    read: rpcMember((r) => r.id),
    why: 'the top-level "id" of the JSON-RPC object in the line, in any key order (not an "id" nested in params or a result)',
    examples: [
      ['{"jsonrpc":"2.0","method":"tools/call","params":{"name":"x","arguments":{"id":99}},"id":7}', 7],
      ['{"id":"abc-1","result":{},"jsonrpc":"2.0"}', 'abc-1'],
      ['Message from client: {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"timed out"}}', 5],
      ['Error POSTing to endpoint (HTTP 404): {"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":3}', 3],
    ],
    nearMisses: [
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","result":{"user":{"id":7}}}',
      '{"user":{"id":7},"jsonrpc":"1.0"}',
      '{"jsonrpc":"2.0","method":"notifications/progress","params":{"requestId":5,"progress":1}}',
    ],
  },
  {
    field: 'rpcId',
    re: /notifications\/cancelled\b[^\n]{0,120}?\brequestId["']?\s?[:=]\s?("[^"]{1,100}"|-?\d{1,15})(?![\w.])/,
    needs: ['requestId'],
    why: 'a cancellation logged as text names the request it cancels (spec basic/utilities/cancellation: params.requestId): it speaks for that request',
    examples: [['session 6b0f notifications/cancelled requestId=12 reason="Request timed out"', 12]],
    nearMisses: ['notifications/progress requestId=12', 'requestId=12 notifications/cancelled'],
  },
  {
    field: 'rpcId',
    re: /\b(?:rpc[_-]?id|rpcId)[=:]\s?("[^"]{1,100}"|-?\d{1,15})(?![\w.])/i,
    needs: ['id', 'Id', 'ID'],
    why: 'rpc_id=… / rpcId: … key-value',
    examples: [
      ['rpcId: 12 done', 12],
      ['rpc_id="a-1"', 'a-1'],
    ],
    nearMisses: ['grpc_identity=5'],
  },
  {
    field: 'rpcId',
    re: /\[Remote→Local\] (\d{1,15})\s*$/,
    needs: ['Remote→Local'],
    why: 'mcp-remote traces a response it forwards by its JSON-RPC id: `[Remote→Local] 7`',
    examples: [
      ['[526630] [Remote→Local] 7', 7],
      ['[2026-08-10T02:36:25.511Z][11736] [Remote→Local] 1', 1],
    ],
    nearMisses: ['[Remote→Local] notifications/progress', '[Remote→Local] 7 items'],
  },
  {
    field: 'rpcId',
    re: new RegExp(`(?<![\\w.-])id=(-?\\d{1,15}|${STRING_ID})(?![\\w.])[^\\n]{0,40}?\\b(?:[Mm]cp|MCP)[-_][Mm]ethod["']?\\s?[:=]`),
    needs: ['cp-method', 'cp_method', 'cp-Method', 'CP-Method'],
    why: "a request's `id=N` logged beside the 2026-07-28 `Mcp-Method` header it sends: `POST /mcp id=3 Mcp-Method=tools/call` (a string id too: `id=req-88`)",
    examples: [
      ['POST /mcp id=3 Mcp-Method=tools/call Mcp-Name=apply_migration', 3],
      ['POST /mcp id=req-88 Mcp-Method=tools/call', 'req-88'],
    ],
    nearMisses: ['user id=3 logged in', 'POST /mcp Mcp-Method=tools/call retries=3', 'POST /mcp id=3.5 Mcp-Method=tools/call'],
  },
  {
    field: 'rpcId',
    re: new RegExp(
      `\\b(?:[Mm]cp|MCP)[-_][Mm]ethod["']?\\s?[:=]\\s?["']?${MCP_METHOD}["']?(?: {1,3}[\\w.-]{1,40}[=:]\\s?[^\\s]{1,300}){0,3} {1,3}(?:rpc[_-]?)?id[=:]\\s?(-?\\d{1,15}|${STRING_ID})(?![\\w.])`,
    ),
    needs: ['cp-method', 'cp_method', 'cp-Method', 'CP-Method'],
    why: "the request's id logged after the 2026-07-28 `Mcp-Method` (and `Mcp-Name`) headers it sends, within three key=value pairs: `POST /mcp Mcp-Method=resources/read Mcp-Name=contracts://C-1 id=c-3391`",
    examples: [
      ['FINE: POST https://h.example/mcp Mcp-Method=resources/read Mcp-Name=contracts://2026/C-1 id=c-3391 traceparent=00-ab-01', 'c-3391'],
      ['POST /mcp Mcp-Method=tools/call Mcp-Name=search id=12', 12],
    ],
    nearMisses: ['POST /mcp Mcp-Method=tools/call Mcp-Name=search user_id=12', 'POST /mcp Mcp-Method=tools/call a=1 b=2 c=3 d=4 id=9'],
  },
  {
    field: 'rpcId',
    re: new RegExp(`(?:^|[\\s\\]])id=(-?\\d{1,15}|${STRING_ID}):? (?:progress|notifications/progress)\\b`),
    needs: ['progress'],
    why: "a server logging a running call's progress by the call's id: `id=w3-1201 progress 22%` (spec basic/utilities/progress: the notifications a request's handler sends while it runs)",
    examples: [
      ['DEBUG [tools.analyze] id=w3-1201 progress 10% (scanned 1.2 GB) -> event written (142 bytes)', 'w3-1201'],
      ['id=7 notifications/progress 1/4', 7],
    ],
    nearMisses: ['user_id=7 progress 10%', 'id=7 in progress', 'job id=7 progressed'],
  },
  {
    field: 'rpcId',
    re: /\brpc=(-?\d{1,15}|"[^"]{1,100}")(?![\w.])/,
    needs: ['rpc='],
    why: 'rpc=… key-value (our client logs)',
    examples: [['POST /mcp rpc=3 method=tools/call', 3]],
    nearMisses: ['grpc=3', 'rpc=3.5'],
  },
  {
    field: 'rpcId',
    re: /\b(?:json-?rpc|JSON-RPC|rpc|RPC) ?id[ =:#]{1,3}(-?\d{1,15}|"[^"]{1,100}")(?![\w.])/,
    needs: ['id'],
    why: '`rpc id 7`, `JSON-RPC id=7` in prose',
    examples: [
      ['tools/call rpc id 7 timed out', 7],
      ['JSON-RPC id=3', 3],
    ],
    nearMisses: ['rpc identity 7', 'pid 7'],
  },
  {
    field: 'rpcId',
    re: new RegExp(
      `(?<![\\w/.-])${SLASH_METHOD}(?: (?:[A-Za-z][A-Za-z0-9]{0,40}(?:[_.:-][A-Za-z0-9]{1,40}){1,6}|[a-z][a-z0-9]{0,40}(?:[A-Z][a-z0-9]{1,40}){1,6}|[a-z][a-z0-9+.-]{1,20}://[^\\s,()]{1,300}))?,? {1,3}(?:\\(id |(?:rpc[_-]?)?id[=:#] ?)(-?\\d{1,15}|${STRING_ID})(?![\\w.])`,
    ),
    needs: ['id'],
    why: 'an MCP method followed at once by its `id=` (or `(id N)`), or by the tool it calls and then its id: `-> tools/call id=2`, `<- server/discover id=1 ok`, `-> tools/call post_invoice id=41`, `→ tools/call restore_snapshot (id 5)` (a tool name as tools are named: with `_`, `-`, `.` or camelCase, never a plain word); a comma may part them, as an application interpolating the request into its message writes it (`request failed (tools/list, id=5)`)',
    examples: [
      ['-> tools/call id=2 name=search_docs', 2],
      ['<- server/discover id=1 ok', 1],
      ['tools/list rpc_id=5 failed', 5],
      ['ledger: -> tools/call post_invoice id=41 (Mcp-Name: post_invoice)', 41],
      ['tools/call searchIssues id=9 failed after 30.0s', 9],
      ['request failed (tools/list, id=5): McpError: MCP error -32001: Request timed out', 5],
      ['calling tool (tools/call archive_ticket, id=12)', 12],
      ['→ tools/call restore_snapshot (id 5)', 5],
      ['info  resources/read contracts://2026/C-88121 id=c-3391 trace=4bf9 stream=sse', 'c-3391'],
      ['tools/call create_refund id=req-88 failed', 'req-88'],
    ],
    nearMisses: [
      'tools/call (idle 5 s)',
      'tools/call user id=7',
      'mytools/call id=3',
      'tools/call id=3.5',
      'tools/call for account id=7',
      'tools/call, user id=7',
      'tools/call,id=7',
      'tools/call id=0x1F',
      'tools/call id=abc.def',
    ],
  },
  {
    field: 'rpcId',
    re: new RegExp(`\\b(?:MCP )?[Tt]ool(?: call)? (?:[\\w.-]{1,60}\\/)?${TOOL_NAME} \\((?:rpc[_-]?)?id[ =:#]{1,2}(-?\\d{1,15}|${STRING_ID})\\)`),
    needs: ['(id', '(rpc'],
    read: (_t, m) => toRpcId(m[2]!),
    why: 'a host naming the call by its tool and, in brackets, its JSON-RPC id: `tool call issue_payout (id 44) failed after 60017ms` (the words "tool call" say the name is a tool\'s and the id the call\'s)',
    examples: [
      ['[tools] tool call issue_claim_payout (id 44) failed after 60017ms: McpTransportError: HTTP 504', 44],
      ['MCP tool search_docs (id=req-7) timed out', 'req-7'],
    ],
    nearMisses: ['tool call failed (id 44)', 'user k.mensah (id 44) approved tool call', 'tool call issue_payout (ids 4, 5)'],
  },
  {
    field: 'rpcId',
    re: new RegExp(`(?:^|\\]\\s{1,3}|:\\s{1,3})(?:<-|->|←|→|<==|==>) ?(?:rpc[_-]?)?id[=:#] ?(-?\\d{1,15}|${STRING_ID})(?![\\w.])`),
    needs: ['id'],
    why: "a client's message trace marks each message in or out with an arrow, at the start of its message (or after its logger's tag), and names it by its JSON-RPC id: `-> tools/call id=44` goes out, `<- id=44 200 resultType=complete` (or `<- id=44 HTTP 504`) is its answer coming in — the arrow is what says the id is the message's",
    examples: [
      ['[mcp:claims-payments] <- id=40 200 resultType=complete serverInfo=claims-payments-mcp/1.12.0', 40],
      ['<- id=44 HTTP 504 Gateway Timeout (not a JSON-RPC response)', 44],
      ['→ id=req-9 notifications/cancelled', 'req-9'],
    ],
    nearMisses: ['user -> id=3', 'page <-- id=7', 'x=>id=4', '<- id=3.5 done', 'session <- ids=3'],
  },
  {
    field: 'rpcId',
    re: new RegExp(`(?<!(?:user|account|order|customer|tenant|org|project|job|task|item|row|record) )(?<![\\w.-])id=(-?\\d{1,15}|${STRING_ID}) {1,3}${SLASH_METHOD}(?![\\w/-])`),
    needs: ['id='],
    why: "a client naming each request by its JSON-RPC id first and then its method: `POST http://h/mcp id=905 tools/list`, `id=917 tools/call create_refund: httpx.ReadTimeout` (an id owned by a business word before it is that thing's)",
    examples: [
      ['POST http://refunds-mcp.payments.svc.cluster.local:8080/mcp id=905 tools/list x-request-id=02040deb', 905],
      ['support_bot.mcp - id=917 tools/call create_refund: httpx.ReadTimeout after 30.0s (no response headers)', 917],
    ],
    nearMisses: ['user id=7 tools/call', 'id=7 mytools/call', 'id=7.5 tools/call', 'order id=7 tools/call create_refund'],
  },
  {
    field: 'rpcId',
    re: new RegExp(
      `(?:^|[-:\\]]\\s{1,3})id=(-?\\d{1,15}|${STRING_ID}):?\\s{1,3}(?:ok|OK|done|failed|errored|error|timed out|cancell?ed|closed|returned|result|response|request stream|stream)\\b`,
    ),
    needs: ['id='],
    why: "a client's line led by the JSON-RPC id of the request it reports on, then the outcome: `id=915 ok order=…`, `id=917 request stream closed by client` (at the start of the message or right after its logger's name, never an id inside a sentence)",
    examples: [
      ['id=905 ok tools=6 (create_refund: readOnlyHint=false)', 905],
      ['support_bot.mcp - id=917 request stream closed by client (2026-07-28: closing the stream cancels the request)', 917],
      ['[mcp] id=req-4 failed: 502', 'req-4'],
    ],
    nearMisses: ['user id=7 ok', 'id=7 items loaded', 'id=7.5 ok', 'the job with id=7 failed'],
  },
  {
    field: 'rpcId',
    re: HOST_CALL_BY_ID,
    needs: ['id='],
    read: (_t, m) => toRpcId(m[2] ?? m[4]!),
    why: "a host logging each call by its tool and JSON-RPC id, without the method: `calling search_kb id=61 {…}`, then `search_kb id=61 failed: …` (a tool name as tools are named — with `_`, `-`, `.` or camelCase — so never a plain word's id)",
    examples: [
      ['INFO kbassist.tools: calling search_kb id=61 {"q":"vpn"}', 61],
      ['ERROR kbassist.tools: get_article id=62 failed: McpError: Connection closed', 62],
    ],
    nearMisses: ['calling home id=3', 'user id=7 failed login', 'calling search_kb with 3 args', 'order_service id=9 started'],
  },
  {
    field: 'rpcId',
    re: new RegExp(
      `\\b(?:method=['"]?${MCP_METHOD}['"]?|jsonrpc=['"]?2\\.0['"]?),?${KV_BETWEEN} {1,3}(?:rpc[_-]?)?id=(-?\\d{1,15}|['"][^'"]{1,100}['"]|${STRING_ID})(?![\\w.])|(?<![\\w.-])id=(-?\\d{1,15}|['"][^'"]{1,100}['"]|${STRING_ID}),?${KV_BETWEEN} {1,3}(?:method=['"]?${MCP_METHOD}\\b|jsonrpc=['"]?2\\.0)`,
    ),
    needs: ['id='],
    read: (_t, m) => unquote(m[1] ?? m[2]!),
    why: '`id=7` only in the key=value pairs of a line that names an MCP `method=` or `jsonrpc=2.0` (up to four pairs apart): alone, `id=` names anything',
    examples: [
      ['method=tools/call id=7', 7],
      ["id='x1', method='ping'", 'x1'],
      ['jsonrpc=2.0 id=12 method=tools/list', 12],
      ['msg="sending request" method=tools/call tool=create_ticket id=9 protocolVersion=2026-07-28', 9],
      ['id=4 tool=get_order method=tools/call', 4],
      ['msg="request" method=tools/call tool=reserve_stock id=inv-7d21', 'inv-7d21'],
    ],
    nearMisses: ['user id=7 method=POST', 'order id=7', 'method=tools/call user_id=7', 'method=tools/call and then a sentence with id=7 in it', 'method=tools/call id=pending'],
  },
  {
    field: 'rpcId',
    re: /\bJSONRPC(?:Request|Response|Notification|Error)\([^()]{0,2000}?\bid=(-?\d{1,15}|'[^']{1,100}')/,
    needs: ['JSONRPC'],
    read: (_t, m) => unquote(m[1]!),
    why: "Python SDK repr: `JSONRPCRequest(method='initialize', params={…}, jsonrpc='2.0', id=0)`",
    examples: [["root=JSONRPCRequest(method='initialize', params={'protocolVersion': '2025-06-18'}, jsonrpc='2.0', id=0)", 0]],
    nearMisses: ["JSONRPCRequest(method='ping')"],
  },
  {
    field: 'rpcId',
    re: new RegExp(
      `(?:\\bMCP|\\bJSON-?RPC|(?<![\\w/.-])${SLASH_METHOD}|\\binitialize|\\b[Tt]ool [A-Za-z_][\\w.:-]{0,99})\\b[^\\n"]{0,40}?(?:(?<![\\w-])request[ _-]?id[ =:#]{1,3}(\\d{1,15})(?![\\w.])|\\(request (\\d{1,15})\\))`,
    ),
    needs: ['request', 'Request'],
    read: (_t, m) => Number(m[1] ?? m[2]),
    why: "`request id 7` (or a host's `(request 7)` after the call it names) only where MCP context says it is the JSON-RPC id — an MCP word, a method, or a named tool's call (elsewhere a request id is the proxy's)",
    examples: [
      ['MCP request id 7 timed out', 7],
      ['tools/call request id 12 cancelled', 12],
      ['Executing tool nmap_scan (request id 7)', 7],
      ['Calling tool search_tickets (request 17)', 17],
      ['tools/call search_tickets failed (request 18)', 18],
    ],
    nearMisses: ['request id 42 done', 'x-request-id: 4242', 'MCP x-request-id=abc', 'MCP x-request-id: 4242', 'tools/call retried (request 3 of 5)', 'MCP request 7 of 9 queued'],
  },

  // --- tool -----------------------------------------------------------------------------------
  {
    field: 'tool',
    re: JSONRPC_KEY,
    needs: ['"jsonrpc"'],
    read: rpcMember((r) => r.tool),
    why: 'tools/call params.name, in any key order within params',
    examples: [['{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{"sku":"A"},"name":"create_order"}}', 'create_order']],
    nearMisses: ['{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"summary"}}'],
  },
  {
    field: 'tool',
    re: /(?:"params"\s{0,8}:|\bparams=)\s{0,8}\{[^{}]{0,2000}?"name"\s{0,8}:\s{0,8}"([\w.:-]{1,100})"/,
    needs: ['tools/call'],
    why: 'params.name on a tools/call line without a "jsonrpc" member (name after other plain members)',
    examples: [['tools/call params={"_meta":null,"name":"get_order"}', 'get_order']],
    nearMisses: ['prompts/get params={"name":"summary"}'],
  },
  {
    field: 'tool',
    re: /\bCallToolRequest(?:Params)?\([^()]{0,1000}?\bname=['"]([\w.:-]{1,100})['"]|\bmethod=['"]tools\/call['"],? {1,3}params=\{[^{}]{0,1000}?['"]name['"]: ['"]([\w.:-]{1,100})['"]/,
    needs: ['CallToolRequest', 'tools/call'],
    read: (_t, m) => m[1] ?? m[2]!,
    why: "Python SDK reprs: `CallToolRequestParams(name='x', …)`, `method='tools/call', params={'name': 'x', …}`",
    examples: [
      ["ClientRequest(method='tools/call', params=CallToolRequestParams(meta=None, name='get_order', arguments={}))", 'get_order'],
      ["method='tools/call', params={'_meta': None, 'name': 'search', 'arguments': {}}", 'search'],
    ],
    nearMisses: ["method='prompts/get', params={'name': 'summary'}", 'CallToolRequestParams(arguments={})'],
  },
  {
    field: 'tool',
    re: new RegExp(
      `\\btools/call\\b[^\\n]{0,120}?(?<![\\w.-])name[=:] ?['"]?([A-Za-z_][\\w.:-]{0,99})|(?<![\\w.-])name=['"]?([A-Za-z_][\\w.:-]{0,99})['"]?${KV_BETWEEN} {1,3}(?:method=)?['"]?tools/call\\b`,
    ),
    needs: ['name'],
    read: (_t, m) => m[1] ?? m[2]!,
    why: "a `name=` key on a line naming tools/call is the tool (the method's params.name): `-> tools/call id=2 name=search_docs`",
    examples: [
      ['-> tools/call id=2 name=search_docs', 'search_docs'],
      ['POST /mcp method=tools/call name=list_repos id=4', 'list_repos'],
      ['name=get_order method=tools/call id=3', 'get_order'],
    ],
    nearMisses: ['tools/call id=2 hostname=web-1', 'tools/list name=x', 'tools/call user_name=bob'],
  },
  {
    field: 'tool',
    re: /\btool=['"]?([\w.:-]{1,100})/,
    needs: ['tool='],
    why: 'tool=… key-value',
    examples: [['level=info tool=create_order', 'create_order']],
    nearMisses: ['mytool=x'],
  },
  {
    field: 'tool',
    re: /"(?:tool|toolName|tool_name)"\s{0,8}:\s{0,8}"([\w.:-]{1,100})"/,
    needs: ['"tool'],
    why: 'a "tool" / "toolName" member of a structured log',
    examples: [['{"msg":"call","toolName":"get_order"}', 'get_order']],
    nearMisses: ['{"tools":"a"}'],
  },
  {
    field: 'tool',
    // (within one flat object: `[^{}]` keeps both members at one level, so a nested params.name of another method is not it)
    re: /"method"\s{0,8}:\s{0,8}"tools\/call"[^{}]{0,300}?"name"\s{0,8}:\s{0,8}"([\w.:-]{1,100})"|"name"\s{0,8}:\s{0,8}"([\w.:-]{1,100})"[^{}]{0,300}?"method"\s{0,8}:\s{0,8}"tools\/call"/,
    needs: ['tools/call'],
    read: (_t, m) => m[1] ?? m[2]!,
    why: 'a structured log record of a tools/call (a gateway\'s or a host\'s own line, no "jsonrpc" member): its "name" beside the method in the same object is the tool (spec server/tools: params.name), in either order',
    examples: [
      ['{"msg":"downstream request","method":"tools/call","name":"search_tickets","id":17}', 'search_tickets'],
      ['{"name":"get_order","id":4,"method":"tools/call","ms":88}', 'get_order'],
    ],
    nearMisses: ['{"method":"prompts/get","name":"summary"}', '{"method":"tools/call","params":{"x":1},"user":{"name":"ann"}}'],
  },
  {
    field: 'tool',
    re: new RegExp(`\\btools/call[ :]{1,3}['"]?(?![\\w.:-]{1,100}=)${TOOL_NAME}`),
    needs: ['tools/call'],
    why: 'the tool named right after its method: `tools/call create_order`',
    examples: [
      ['[Local→Remote] tools/call create_order', 'create_order'],
      ["tools/call 'get_order' (rpc 3)", 'get_order'],
    ],
    nearMisses: [
      'tools/call failed with status 504',
      'tools/call -> 404',
      'tools/call request id 7',
      'tools/call name=list_repos id=4',
      'HeaderMismatch on tools/call: refreshing tools/list and retrying once',
    ],
  },
  {
    field: 'tool',
    re: new RegExp(
      `\\btools/call (?:rpc[_-]?)?id[=:#] ?-?\\d{1,15} ['"]?${TOOL_NAME}['"]?(?= ?(?:->|=>|→|\\(|:|$)| (?:returned|failed|started|timed out|completed|succeeded|done|ok)\\b)`,
    ),
    needs: ['tools/call'],
    why: 'the tool named after the call and its id: `tools/call id=32 lookup_customer -> result`',
    examples: [
      ['tools/call id=32 lookup_customer -> result (1 content item)', 'lookup_customer'],
      ['tools/call rpc_id=7 create_ticket failed: 502', 'create_ticket'],
    ],
    nearMisses: ['tools/call id=31: stream closed before response', 'tools/call id=5 name=get_status -> ok', 'tools/call id=4 took 300 ms'],
  },
  {
    field: 'tool',
    re: new RegExp(`\\b(?:[Cc]alling|[Ii]nvoking|[Ee]xecuting|[Rr]unning|[Ff]ailed to (?:call|invoke|execute|run))(?: the)?(?: MCP)? [Tt]ool(?: call)?:? ['"\`]?${TOOL_NAME}`),
    needs: ['ool'],
    why: 'host prose: `Calling MCP tool: x`, `calling tool x`, `Error invoking MCP tool x`, Spring AI `Executing tool call: x`',
    examples: [
      ['Calling MCP tool: createConfluencePage', 'createConfluencePage'],
      ['Error invoking MCP tool get_order: boom', 'get_order'],
      ["calling tool 'search'", 'search'],
      ['o.s.a.m.tool.DefaultToolCallingManager : Executing tool call: inventory_list_items', 'inventory_list_items'],
      ['Failed to call tool search_docs: timeout', 'search_docs'],
    ],
    nearMisses: ['calling tool failed', 'Calling tools/list', 'An error occurred while executing the MCP tool: Timed out while waiting for response to ClientRequest.'],
  },
  {
    field: 'tool',
    re: HOST_CALL_BY_ID,
    needs: ['id='],
    read: (_t, m) => m[1] ?? m[3]!,
    why: 'a host logging each call by its tool and JSON-RPC id, without the word "tool": `calling search_kb id=61 {…}`, `search_kb id=61 failed: …` (a tool-shaped name: `_`, `-`, `.` or camelCase)',
    examples: [
      ['INFO kbassist.tools: calling search_kb id=61 {"q":"vpn"}', 'search_kb'],
      ['ERROR kbassist.tools: get_article id=62 failed: McpError: Connection closed', 'get_article'],
      ['invoking listCategories id=4', 'listCategories'],
    ],
    nearMisses: ['calling home id=3', 'user id=7 failed login', 'calling search_kb with 3 args', 'order_service id=9 started'],
  },
  {
    field: 'tool',
    re: new RegExp(
      `\\b(?:MCP )?[Tt]ool(?: call)? (?:[\\w.-]{1,60}\\/)?${TOOL_NAME}(?: call)?(?: on (?:server )?['"]?[\\w.-]{1,60}['"]?)?(?: \\((?:rpc[_-]?)?id[ =:#]{1,2}[\\w:-]{1,60}\\))? (?:returned|failed|timed out|completed|succeeded|errored|raised|ok|OK)\\b`,
    ),
    needs: ['ool '],
    why: "host prose reporting a call's outcome: `Tool get_order returned isError=false`, `tool search failed: …`, `Tool call X on server Y timed out after 60s`, `tool X ok`, hermes-agent's `MCP tool server/tool call failed: …` (the server before the slash is a namespace)",
    examples: [
      ['Tool import_orders returned isError=false in 2508 ms: {}', 'import_orders'],
      ['MCP tool search_docs failed: timeout', 'search_docs'],
      ['MCP: Tool call Sheets_ReadRange on server gsuite timed out after 60s', 'Sheets_ReadRange'],
      ['tool lookup_item ok text=SKU-1002: 7 on hand ms=8', 'lookup_item'],
      ['ERROR tools.mcp_tool: MCP tool firms/firms_search call failed: Connection closed', 'firms_search'],
      ['[tools] tool call issue_claim_payout (id 44) failed after 60017ms', 'issue_claim_payout'],
    ],
    nearMisses: [
      'Tool returned 3 results',
      'the tool failed',
      'Tool call on server gsuite timed out',
      'MCP tool call failed: Connection closed',
      'tool step failed; run aborted (exit code 3)',
      // (the host's step of finding or loading the tools, not a tool of that name)
      'MCP tool discovery failed: {"error": "Invalid API Key"}',
      'tool loading failed for server docs',
    ],
  },
  {
    field: 'tool',
    re: new RegExp(`\\b[Pp]rogress (?:update |notification )?(?:for|of) (?:(?:MCP )?tool )?['"\`]?(?!tool\\b)${TOOL_NAME}['"\`]?:`),
    needs: ['rogress'],
    why: 'a host logging the progress notifications of a running call by its tool: `Progress for tool export_report: 2/6`',
    examples: [
      ['Progress for tool export_report: 2/6 building report', 'export_report'],
      ["progress for 'build_digest': 40%", 'build_digest'],
    ],
    nearMisses: ['progress for request 7: 2/6', 'progress of 3/5', 'Progress for tool: 2/6'],
  },
  {
    field: 'tool',
    re: /\]\[[^\][\n]{1,80}\]\[([A-Za-z_][\w.:-]{0,99})\] [Tt]ool call (?:failed|aborted|completed|succeeded|started|timed out)\b/,
    needs: ['] Tool call', '] tool call'],
    why: 'LibreChat (api/server/services/MCP.js, packages/api MCPManager): `[MCP][User: id][server][tool] Tool call failed|aborted|completed`, the tool in the last of three or more brackets (two are `[MCP][server]`)',
    examples: [
      ['[MCP][User: 6650aa01][inventory][lookup_sku] Tool call failed Not connected', 'lookup_sku'],
      ['[MCP][inventory][lookup_sku] Tool call aborted', 'lookup_sku'],
    ],
    nearMisses: ['[MCP][User: 6650aa01] Tool call failed', '[MCP][inventory] Tool call completed in 3 ms'],
  },
  {
    field: 'tool',
    re: /\b[Tt]ool call failed for `((?:[\w.-]{1,60}\/)?[A-Za-z_][\w.:-]{0,99})`/,
    needs: ['ool call failed for'],
    why: 'Codex (codex-rs mcp_connection_manager.rs): `tool call failed for `server/tool`` over its `Caused by:` chain; the server part is a namespace (sameTool)',
    examples: [
      ['tool call error: tool call failed for `ledger/export_statement`', 'ledger/export_statement'],
      ['tool call failed for `search_docs`', 'search_docs'],
    ],
    nearMisses: ['tool call failed for server ledger', 'tool call failed for `` (empty)'],
  },
  {
    field: 'tool',
    re: /\b[Tt]ool call ['"`]([A-Za-z_][\w.:-]{0,99})['"`]/,
    needs: ['ool call'],
    why: 'a quoted name after "tool call": `tool call "create_issue" failed with status 500`',
    examples: [['tool call "create_issue" failed with status 500', 'create_issue']],
    nearMisses: ['tool call "" failed', 'tool call failed'],
  },
  {
    field: 'tool',
    re: /\b(?:MCP )?[Tt]ool ['"`]([A-Za-z_][\w.:-]{0,99})['"`]/,
    needs: ['ool '],
    why: "a quoted name after \"tool\": `MCP tool 'x' timed out`, `not connected for tool 'x'`",
    examples: [
      ["MCP tool 'scheduled_task_create' timed out (attempt 3/3)", 'scheduled_task_create'],
      ["MCP client not connected for tool 'linear__list_issues'.", 'linear__list_issues'],
    ],
    nearMisses: ["tool '' empty", 'tool "two words"'],
  },

  // --- protocol version, HTTP status ----------------------------------------------------------
  {
    field: 'protocolVersion',
    re: /(?:protocol[_ -]?version|mcp-protocol-version|protocolVersion)["']?\s?[:=]\s?["']?(20\d{2}-\d{2}-\d{2})/i,
    needs: ['ersion'],
    why: 'negotiated or requested protocol version',
    examples: [['mcp-protocol-version: 2025-06-18', '2025-06-18']],
    nearMisses: ['version 2025-06-18'],
  },
  {
    field: 'protocolVersion',
    re: /\bprotocol["']?(?:=|: ?| )["']?(20\d{2}-\d{2}-\d{2})\b/,
    needs: ['protocol'],
    why: 'the MCP revision a line names as its protocol (`protocol=2026-07-28`, `"protocol":"2026-07-28"`, `serving protocol 2026-07-28`): only a revision-shaped date, never an HTTP protocol',
    examples: [
      ['DEBUG mcp_host::connect: probe server/discover id="probe-1" protocol=2026-07-28', '2026-07-28'],
      ['{"msg":"downstream request","method":"tools/list","protocol":"2026-07-28"}', '2026-07-28'],
      ['tickets-mcp 1.0.0 serving protocol 2026-07-28 at /mcp', '2026-07-28'],
    ],
    nearMisses: ['"protocol":"HTTP/1.1"', 'protocol upgraded on 2026-07-28 by ops', 'protocol=h2'],
  },
  {
    field: 'httpStatus',
    re: /\(HTTP (\d{3})\)/,
    needs: ['(HTTP '],
    why: 'TS SDK ≤1.23 "Error POSTing to endpoint (HTTP 404)"',
    examples: [['Error POSTing to endpoint (HTTP 404): Not Found', 404]],
    nearMisses: ['(HTTP 2)'],
  },
  {
    field: 'httpStatus',
    re: /\bHTTP\/\d(?:\.\d)? (\d{3})\b/,
    needs: ['HTTP/'],
    why: 'status line',
    examples: [['HTTP/1.1 502 Bad Gateway', 502]],
    nearMisses: ['HTTP/1.1 upgrade'],
  },
  {
    field: 'httpStatus',
    re: /\bHTTP\/[\d.]{1,3}"\s{1,8}(\d{3})\b/,
    needs: ['HTTP/'],
    why: 'a quoted request line and its status (access-log shaped lines no format read)',
    examples: [
      ['14:21:07  "POST /mcp  HTTP/2"   307   Java-http-client/21', 307],
      ['ip-abc:47430 - "GET /mcp HTTP/1.1" 421 Misdirected Request', 421],
    ],
    nearMisses: ['"GET /mcp HTTP/1.1" -'],
  },
  {
    field: 'httpStatus',
    re: /\b(?:GET|POST|PUT|DELETE|PATCH) \/[^\s"]{0,300}(?: [^\s"]{1,100}){0,4}? ([1-5]\d\d) \d{1,7}(?:\.\d{1,3})? ?(?:ms|µs|us|s)\b/,
    needs: ['GET /', 'POST /', 'PUT /', 'DELETE /', 'PATCH /'],
    why: "an application's own request log: method, path, what it served (an MCP method, a name, an id), then the status and how long it took (chi/echo/Fastify-style `POST /mcp 200 14ms`)",
    examples: [
      ['info POST /mcp resources/read id=42 200 14ms', 200],
      ['POST /mcp tools/call search_docs id=45 502 30001ms', 502],
      ['GET /mcp 405 0.4 ms', 405],
    ],
    nearMisses: ['POST /mcp sent 3 rows 14ms', 'GET /reports 2026 12ms', 'POST /mcp id=42 200 rows', 'POST /mcp took 250ms'],
  },
  {
    field: 'httpStatus',
    re: /\s(?:->|→|=>)\s(\d{3})\b(?!\.\d)/,
    needs: ['->', '→', '=>'],
    why: 'request -> status',
    examples: [
      ['POST /mcp -> 404', 404],
      ['POST /mcp → 202', 202],
    ],
    nearMisses: ['a -> 4042', 'fan-out -> 212 hosts', 'retry -> 150 ms', '• DNS mcp.example.com -> 203.0.113.5 ok'],
  },
  {
    field: 'httpStatus',
    re: /(?:^|[\s([{,])['"]?(?:RES|RESP|[Rr]esponse)['"]?,\s{0,3}([1-5]\d\d),\s{0,3}['"]?(?:https?:\/\/|\/)/,
    needs: ['RES', 'esponse'],
    why: "a debugging print of the response as a tuple or list — label, status, URL — as people write httpx event hooks and fetch wrappers (`('RES', 401, 'https://…')`)",
    examples: [
      ["('RES', 401, 'https://mcp.example.net', Authorization_present=False)", 401],
      ['["response", 502, "/mcp"]', 502],
    ],
    nearMisses: ["('RES', 3, 'https://mcp.example.net')", "('RESULT', 200, 'https://x')", 'response, 200, ok', "('REQ', 'POST', 'https://mcp.example.net')"],
  },
  {
    field: 'httpStatus',
    re: new RegExp(
      `(?:^|\\s)(?:<-{1,2}|←) {1,3}(?:${SLASH_METHOD}|initialize|ping)(?: [A-Za-z][\\w.:-]{0,60})?(?: \\(?id[=: #]{1,2}[\\w.:-]{1,40}\\)?)? {1,3}([1-5]\\d\\d)(?=$|[ ,;(])(?! (?:rows?|results?|items?|records?|bytes|entries|tools|matches|ms)\\b)`,
    ),
    needs: ['<-', '←'],
    why: "a client's trace of an answer by its method (and id or tool), then the status it came with: `<- tools/list id=4 200 (6 tools)`, `← initialize 200 in 41ms` — the arrow says it is the response",
    examples: [
      ['12:00:01.204 <- tools/list id=4 200 (6 tools)', 200],
      ['<- tools/call id=5 502', 502],
      ['← initialize 200 in 41ms', 200],
      ['<-- tools/call export_report (id 7) 504, retrying', 504],
    ],
    nearMisses: ['<- tools/list id=4 (200 tools)', '<- tools/list id=4 200 tools', '<- resources/read id=3 120 bytes', '<- tools/call id=5 ok', 'a <- tools/list 2000'],
  },
  {
    field: 'httpStatus',
    // before the plain `status code 200` below: the status that came is the one after "but"
    re: /\b[Ee]xpected (?:HTTP )?(?:status )?(?:code )?[1-5]\d\d,? but (?:was|got|received|is) (\d{3})\b/,
    needs: ['xpected'],
    why: 'a client comparing the status it wanted with the one it got (ktor `Expected status code 200 but was 405`)',
    examples: [
      ['io.ktor.client.plugins.sse.SSEClientException: Expected status code 200 but was 405', 405],
      ['expected 200, but got 502', 502],
    ],
    nearMisses: ['expected status code 200 but was empty', 'Expected 200 items but got 12'],
  },
  {
    field: 'httpStatus',
    re: /[Ss]tatus(?:[ _]?[Cc]ode)?[ =:(]{1,3}(\d{3})\b/,
    needs: ['tatus'],
    why: '`status 404`, `status code: 404`, `status_code=404`, `failed with status 504`, `non-200 status 403`',
    examples: [
      ['request failed with status 504: Timeout', 504],
      ['status code: 404', 404],
      ['status_code=401', 401],
      ['Non-200 status code (404)', 404],
    ],
    nearMisses: ['status 1', 'status: ok'],
  },
  {
    field: 'httpStatus',
    re: /"(?:status(?:Code|_code)?|response[-_]?[Cc]ode)\\?"\s{0,8}:\s{0,8}(\d{3})\b/,
    needs: ['"status', '"response'],
    why: 'a "status" (or Envoy/Pomerium "response_code"/"response-code") member with a number (`{"client_id":…,"status":403}`), also inside a JSON-escaped body',
    examples: [
      ['rejected: non-200 status {"client_id":"x","status":403}', 403],
      ['"path":"/mcp" ... "response-code":401', 401],
      ['Unexpected content type: Some("text/plain; body: {\\n \\"code\\": \\"token_expired\\"\\n},\\n \\"status\\": 401\\n}")', 401],
    ],
    nearMisses: ['{"status":"ok"}', '{"status":1}', '{"response_code_details":"via_upstream"}'],
  },
  {
    field: 'httpStatus',
    re: /\b([45]\d\d) Server Error for HTTP (?:GET|POST|DELETE|PUT|PATCH) "/,
    needs: [' Server Error for HTTP'],
    why: 'Spring WebFlux: `500 Server Error for HTTP POST "/mcp/message?sessionId=…"`',
    examples: [['[7d3e91c2-4]  500 Server Error for HTTP POST "/mcp/message?sessionId=abc"', 500]],
    nearMisses: ['Server Error for HTTP POST "/x"'],
  },
  {
    field: 'httpStatus',
    // rmcp prints the body it could not take: `Some("text/plain; …; body: Method Not Allowed")`
    re: /\bbody: (Method Not Allowed|Not Found|Bad Request|Unauthorized|Forbidden|Not Acceptable|Unsupported Media Type)\b/,
    needs: ['body: '],
    read: (_t, m) => BODY_REASON[m[1]!] ?? null,
    why: "rmcp's content-type error quoting a body that is only a reason phrase",
    examples: [['Unexpected content type: Some("text/plain; charset=utf-8; body: Method Not Allowed"), when send initialize request', 405]],
    nearMisses: ['body: Method Not Allowedness', 'request body: {"a":1}'],
  },
  {
    field: 'httpStatus',
    // (a CLI's transcript marks each answer with a check or a cross: the status that follows is that answer's)
    re: /(?:^|\s)[✓✔✗✘] {1,3}([1-5]\d\d)(?=$| (?:[a-z]{2,20}\/[\w.+-]|in \d|\(|[A-Z][a-z]+\b))/,
    needs: ['✓', '✔', '✗', '✘'],
    why: "a CLI transcript's mark and the answer's status (`✓ 200 application/json in 0.21s`, `✗ 404 text/html`)",
    examples: [
      ['✓ 200 application/json in 0.21s', 200],
      ['  ✗ 404 text/html (Not Found)', 404],
      ['✗ 502 Bad Gateway', 502],
    ],
    nearMisses: ['✓ 200 tools loaded', '✓ 12 tests passed', '✗ 3 of 5 failed'],
  },
  {
    field: 'httpStatus',
    re: /\bHTTP (?:[Ee]rror |ERROR |[Ss]tatus )?(\d{3})\b/,
    needs: ['HTTP '],
    why: '`HTTP 401:`, `HTTP error 500`, urllib `HTTP Error 404: Not Found`, the error page Chromium shows for an error answer with no body of its own (`HTTP ERROR 503`)',
    examples: [
      ['Failed: sentry: HTTP 401: {"error":"invalid_token"}', 401],
      ['HTTP error 500', 500],
      ['HTTP ERROR 503', 503],
      ['urllib.error.HTTPError: HTTP Error 404: Not Found', 404],
    ],
    nearMisses: ['HTTP 2 stream'],
  },
  {
    field: 'httpStatus',
    re: /\breturned (?:HTTP |status |status code |a |an )?(\d{3})\b(?! (?:rows?|results?|items?|records?|bytes|entries|tools|matches|ms)\b)/,
    needs: ['returned'],
    why: '`upstream returned 502`',
    examples: [
      ['upstream returned 502', 502],
      ['server returned a 404 for /mcp', 404],
    ],
    nearMisses: ['query returned 200 rows', 'returned 12'],
  },
  {
    field: 'httpStatus',
    re: /does not indicate success: (\d{3})\b/,
    needs: ['indicate success'],
    why: '.NET `Response status code does not indicate success: 400 (Bad Request)`',
    examples: [['Response status code does not indicate success: 400 (Bad Request).', 400]],
    nearMisses: ['does not indicate success: maybe'],
  },
  {
    field: 'httpStatus',
    re: /\b(?:Client|Server) error '(\d{3}) /,
    needs: [" error '"],
    why: 'httpx HTTPStatusError',
    examples: [["Client error '404 Not Found' for url 'http://x/mcp'", 404]],
    nearMisses: ["Client error 'boom'"],
  },
  {
    field: 'httpStatus',
    re: /\bError code: (\d{3})\b/,
    needs: ['Error code'],
    why: 'openai/anthropic client errors',
    examples: [['Error code: 500 - {}', 500]],
    nearMisses: ['Error code: -32001'],
  },
  {
    field: 'httpStatus',
    // `curl -w '%{http_code} '` output and pasted answers: the status, then the JSON-RPC body it carried
    re: /^\s{0,8}([45]\d\d)\s{1,4}\{\s{0,4}"(?:jsonrpc|error)"/,
    needs: ['{"jsonrpc"', '{"error"', '{ "jsonrpc"', '{ "error"'],
    why: 'a status printed before the JSON-RPC error body it came with',
    examples: [
      ['400 {"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"},"id":null}', 400],
      ['404 { "error": "Session not found" }', 404],
    ],
    nearMisses: ['200 {"jsonrpc":"2.0","result":{}}', 'took 400 {"jsonrpc":"2.0"}', '1400 {"error":"x"}'],
  },
  {
    field: 'httpStatus',
    re: /\b(\d{3}) \((?:Bad Request|Not Found|Unauthorized|Forbidden|Internal Server Error|Bad Gateway|Gateway Timeout|Service Unavailable|Method Not Allowed|Not Acceptable)\)/,
    needs: [' ('],
    why: '.NET HttpRequestException',
    examples: [['400 (Bad Request)', 400]],
    nearMisses: ['400 (whatever)'],
  },
  {
    field: 'httpStatus',
    // .NET Framework's System.Net.WebException message, which Windows PowerShell's Invoke-WebRequest and
    // Invoke-RestMethod print for any non-2xx answer: `The remote server returned an error: (404) Not Found.`
    re: /\bremote server returned an error: \(([1-5]\d\d)\)/,
    needs: ['returned an error: ('],
    why: '.NET WebException (Windows PowerShell Invoke-WebRequest / Invoke-RestMethod)',
    examples: [['Invoke-WebRequest : The remote server returned an error: (404) Not Found.', 404]],
    nearMisses: ['The remote server returned an error: (timeout)', 'The remote server returned an error: (1404)'],
  },
  {
    field: 'httpStatus',
    // mcp-go's transport errors (client/transport/streamable_http.go): `ErrUnauthorized = "unauthorized (401)"`,
    // `ErrSessionTerminated = "session terminated (404). need to re-initialize"`
    re: /\b(?:[Uu]nauthori[sz]ed|UNAUTHORI[SZ]ED|[Ff]orbidden|FORBIDDEN|[Nn]ot [Ff]ound|[Bb]ad [Rr]equest|[Bb]ad [Gg]ateway|[Ss]ervice [Uu]navailable|[Tt]oo [Mm]any [Rr]equests|[Ss]ession terminated) \(([45]\d\d)\)/,
    needs: [' (4', ' (5'],
    why: 'a reason phrase, then the status in parentheses (mcp-go `unauthorized (401)`, `session terminated (404)`)',
    examples: [
      ['transport error: unauthorized (401)', 401],
      ['failed to send request: session terminated (404). need to re-initialize', 404],
      ['upstream said Service Unavailable (503)', 503],
    ],
    nearMisses: ['unauthorized (see docs)', 'not found (12 items)', 'session terminated (normal)'],
  },
  {
    field: 'httpStatus',
    re: /\bConflict: Only one SSE stream is allowed per session\b/,
    needs: ['Only one SSE stream'],
    read: () => 409,
    why: 'the TS SDK server refusing a second standalone GET stream for one session (webStandardStreamableHttp.ts, 409)',
    examples: [['Error: Conflict: Only one SSE stream is allowed per session', 409]],
    nearMisses: ['Only one SSE stream per session is recommended'],
  },
  {
    field: 'httpStatus',
    re: /\((\d{3}) (?:Unauthorized|Forbidden|Not Found|Bad Request)\)/,
    needs: ['('],
    why: 'reqwest status error: `HTTP status client error (401 Unauthorized)`',
    examples: [['HTTP status client error (401 Unauthorized) for url (http://x/mcp)', 401]],
    nearMisses: ['(401 apples)'],
  },
  {
    field: 'httpStatus',
    re: new RegExp(`\\b([1-5]\\d{2}) (?:${REASONS})\\b`),
    why: 'a status and its reason phrase (`404 Not Found` after a request line)',
    examples: [
      ['POST /mcp 404 Not Found', 404],
      ['GET /sse 200 OK', 200],
      ['Error POSTing to endpoint: <html>\r\n<head><title>504 Gateway Time-out</title></head>', 504],
      ['<head><title>413 Request Entity Too Large</title></head>', 413],
    ],
    nearMisses: ['took 404 Nothing', 'item 123 OKAY'],
  },
  {
    field: 'httpStatus',
    re: new RegExp(`(?:^|\\n|\\bendpoint:|\\bError:)\\s{0,8}(${Object.keys(REASON_ONLY).join('|')}): \\S`),
    needs: Object.keys(REASON_ONLY).map((r) => `${r}:`),
    read: (_t, m) => REASON_ONLY[m[1]!] ?? null,
    why: "a reason phrase opening the error message says the status: the Python SDK server's `Not Found: Invalid or expired session ID` (failure-signatures row 27), a client quoting it (`Error POSTing to endpoint: Not Found: Session not found`)",
    examples: [
      ['Not Found: Invalid or expired session ID', 404],
      ['Streamable HTTP error: Error POSTing to endpoint:\nNot Found: Session not found', 404],
      ['Error: Unauthorized: missing bearer token', 401],
    ],
    nearMisses: ['User Not Found: bob', 'Not found: config.json', 'Not Found:', 'page Forbidden: x'],
  },
  {
    field: 'httpStatus',
    // only the phrase, the whole message: the body some proxies answer with (Traefik's `Bad Gateway`,
    // Envoy-fronted hosts' `Service Unavailable`) printed by a client that quotes the body and not the status
    re: new RegExp(
      `^\\s{0,8}(${Object.keys(REASON_ONLY)
        .filter((r) => REASON_ONLY[r]! >= 500)
        .join('|')})\\.?\\s{0,8}$`,
    ),
    needs: Object.keys(REASON_ONLY).filter((r) => REASON_ONLY[r]! >= 500),
    read: (_t, m) => REASON_ONLY[m[1]!] ?? null,
    why: "a message that is only a 5xx reason phrase is a proxy's error body quoted by the client (Traefik answers 502 with the body `Bad Gateway`)",
    examples: [
      ['Bad Gateway', 502],
      ['Service Unavailable', 503],
      ['  Internal Server Error.', 500],
    ],
    nearMisses: ['Bad Gateway handling is configured', 'retry on Service Unavailable', 'Not Found'],
  },
  {
    field: 'httpStatus',
    re: new RegExp(`\\bSSE stream: (${Object.keys(STREAM_REASONS).join('|')})\\b(?!-)`),
    needs: ['SSE stream: '],
    read: (_t, m) => STREAM_REASONS[m[1]!] ?? null,
    why: "the TS SDK's StreamableHTTPClientTransport names only the reason phrase of a refused GET stream: `Failed to open SSE stream: ${response.statusText}` (client/streamableHttp.ts), as Cline, Cursor and VS Code log it",
    examples: [
      ['Streamable HTTP error: Failed to open SSE stream: Not Found', 404],
      ['[error] Failed to reconnect SSE stream: Streamable HTTP error: Failed to open SSE stream: Bad Request [error] Maximum reconnection attempts (2) exceeded.', 400],
      ['Failed to open SSE stream: Method Not Allowed', 405],
      ['  Streamable HTTP error: Failed to open SSE stream: Conflict', 409],
    ],
    nearMisses: ['Failed to open SSE stream: Not Founders', 'SSE stream: not found', 'Failed to open SSE stream: fetch failed'],
  },
  {
    field: 'httpStatus',
    // the whole body is the phrase: the message ends there (or the line does)
    re: new RegExp(`\\bPOSTing to endpoint: (${Object.keys(STREAM_REASONS).join('|')})\\.?[ \\t]{0,8}(?:$|\\n)`),
    needs: ['POSTing to endpoint: '],
    read: (_t, m) => STREAM_REASONS[m[1]!] ?? null,
    why: "the TS SDK quotes a refused POST's body, `Error POSTing to endpoint: ${text}` (client/streamableHttp.ts), and a body that is only the reason phrase is what Express's `res.sendStatus()` and many proxies answer with, so the phrase is the status: 409 and 429 included, as after `Failed to open SSE stream: `",
    examples: [
      ['MCP server "hosted X": Connection error: Streamable HTTP error: Error POSTing to endpoint: Conflict', 409],
      ['Streamable HTTP error: Error POSTing to endpoint: Gateway Timeout', 504],
      ['Error POSTing to endpoint: Too Many Requests\n    at StreamableHTTPClientTransport.send', 429],
    ],
    nearMisses: [
      'Error POSTing to endpoint: Conflict between two sessions for one user',
      'Error POSTing to endpoint: Not Found: Session not found',
      'Error POSTing to endpoint: {"error":"Conflict"}',
    ],
  },
  {
    field: 'httpStatus',
    re: /\b(?:[Rr]esponse|body|error) \((\d{3})\)/,
    needs: [' ('],
    why: 'a status in parentheses after what it qualifies: `response body (502):`, `downstream error (404):`',
    examples: [
      ['response body (404): {"jsonrpc":"2.0"}', 404],
      ['neotoma-mcp-proxy downstream error (404): {"jsonrpc":"2.0"', 404],
    ],
    nearMisses: ['error (12)', 'body (see below)'],
  },
  {
    field: 'httpStatus',
    re: /\b(?:failed|error|rejected|refused)(?: with)?: ([45]\d{2})(?=$|[ \t]*[{(\[:,;.-]|[ \t]+(?:[A-Z][a-z]|<|"))/,
    needs: ['failed', 'error', 'rejected', 'refused'],
    why: 'a host quoting the status of a refused call before its body: `resources/subscribe failed: 404 {"jsonrpc":…}`, `error: 502 Bad Gateway`',
    examples: [
      ['resources/subscribe failed: 404 {"jsonrpc":"2.0","id":5,"error":{"code":-32601}}', 404],
      ['tools/call failed with: 500 Internal error', 500],
      ['POST failed: 401', 401],
    ],
    nearMisses: ['failed: 404 items could not be copied', 'error: 500 ms budget exceeded', 'failed: 40412'],
  },
  {
    field: 'httpStatus',
    re: /\bcode: (\d{3})\b/,
    needs: ['code: '],
    why: 'StreamableHTTPError code',
    examples: [['StreamableHTTPError (code: 404)', 404]],
    nearMisses: ['code: -32001'],
  },
  {
    field: 'httpStatus',
    re: /\bError (\d{3}) status (?:sending message|connecting to)\b/,
    needs: ['status sending', 'status connecting'],
    why: 'VS Code MCP client: a POST (`sending message to`) or the SSE connection (`connecting to <url> [as SSE]`)',
    examples: [
      ['Error 404 status sending message to http://x/mcp', 404],
      ['Connection state: Error 404 status connecting to https://x.example/mcp: <!DOCTYPE html>', 404],
    ],
    nearMisses: ['Error 40 status sending message', 'Error connecting to https://x.example/: 200 Invalid content type'],
  },
  {
    field: 'httpStatus',
    re: /\b[Ee]rror sending message: ([1-5]\d\d)\s*$/,
    needs: ['sending message: '],
    why: 'Java SDK HttpClientSseClientTransport logs the status of a failed POST to the message endpoint (`logger.error("Error sending message: {}", statusCode)`)',
    examples: [['i.m.c.t.HttpClientSseClientTransport : Error sending message: 503', 503]],
    nearMisses: ['Error sending message: 404 items dropped', 'Error sending message: timeout'],
  },
  {
    field: 'httpStatus',
    re: /return_value=\(b'HTTP\/[\d.]{1,3}', (\d{3}),/,
    needs: ['return_value'],
    why: 'httpcore receive_response_headers.complete under any logging layout',
    examples: [["receive_response_headers.complete return_value=(b'HTTP/1.1', 404, b'Not Found', [])", 404]],
    nearMisses: ["return_value=(b'HTTP/1.1', 'x')"],
  },

  {
    field: 'httpStatus',
    re: new RegExp(`\\b${HTTP_METHOD} {1,4}(?:https?:\\/\\/[^\\s/]{1,200})?\\/[^\\s"]{0,500}(?: HTTP\\/[\\d.]{1,3})?[ \\t]{1,60}([1-5]\\d\\d)(?=[ \\t]|$)`),
    why: 'a request line followed by its status, as Express morgan (`dev`, `tiny`, `short`) and many proxies print it: `POST /mcp 401 3.1 ms - 45`',
    examples: [
      ['POST /mcp 200 12.345 ms - 45', 200],
      ['[mcp-proxy] POST /mcp 401 method=tools/call session=x', 401],
      ['::1 - POST /sse HTTP/1.1 404 9 - 1.203 ms', 404],
      // (an access log printed in padded columns)
      ['100.91.12.44     POST /                                         202', 202],
    ],
    nearMisses: ['POST /mcp 3 ms', 'GET /items/404 ok', 'POST /mcp 2026-07-01', 'POST /mcp          3.5 ms'],
  },

  {
    field: 'httpStatus',
    re: new RegExp(`(?:^|[\\s\\]|])([1-5]\\d\\d) {1,3}${HTTP_METHOD} {1,4}\\/`),
    why: 'the status before the request line, as some access loggers print it: `[http] 401 POST /mcp 25ms`',
    examples: [
      ['2026-02-14T21:07:33.143Z info  [http] 401 POST /mcp 25ms', 401],
      ['| 404 GET /sse', 404],
    ],
    nearMisses: ['sent 200 POST requests', 'v2026 POST /mcp', 'id=401 POST'],
  },

  // --- HTTP method and path -------------------------------------------------------------------
  // (not a framework's "Cannot POST /sse" body: that is an answer quoting the request, not a request line)
  {
    field: 'httpMethod',
    re: new RegExp(`(?<!Cannot )\\b(${HTTP_METHOD}) {1,4}${URL_PREFIX}\\/[^\\s"]{0,500}`),
    why: 'METHOD /path or METHOD http://host/path',
    examples: [
      ['POST http://ip-abc:8080/mcp rpc=3', 'POST'],
      ['"GET /sse HTTP/1.1"', 'GET'],
      ['GET http://<string len=9>:45385/mcp accept=text/event-stream', 'GET'],
    ],
    nearMisses: ['GET it done', 'POSTing to endpoint', '<pre>Cannot POST /sse</pre>'],
  },
  {
    field: 'httpPath',
    re: new RegExp(`(?<!Cannot )\\b${HTTP_METHOD} {1,4}${URL_PREFIX}(\\/[^\\s"?]{0,300})`),
    why: 'METHOD /path',
    examples: [
      ['POST http://ip-abc:8080/mcp?x=1 rpc=3', '/mcp'],
      ['"GET  /mcp/ HTTP/1.1"', '/mcp/'],
      ['POST http://<string len=12>:8080/mcp rpc=3', '/mcp'],
    ],
    nearMisses: ['GET it done', 'Cannot GET /mcp'],
  },
  {
    field: 'httpMethod',
    re: new RegExp(`"(?:method|httpMethod|http_method|request_method|verb)"\\s{0,4}:\\s{0,4}"(${HTTP_METHOD})"`),
    needs: ['"'],
    why: 'an HTTP verb in a structured log member (`{"method":"POST","url":"/mcp",…}` after a text message)',
    examples: [['request completed {"reqId":"r1","method":"POST","url":"/sse","statusCode":404}', 'POST']],
    nearMisses: ['{"method":"tools/call"}', '{"method":"POSTED"}'],
  },
  {
    field: 'httpPath',
    re: /"(?:url|path|uri|request_uri|requestPath)"\s{0,4}:\s{0,4}"(\/[^"?\s]{0,300})/,
    needs: ['"'],
    why: 'the request path in a structured log member',
    examples: [['request completed {"method":"POST","url":"/messages?sessionId=x","statusCode":202}', '/messages']],
    nearMisses: ['{"url":"https://x.test/mcp"}'],
  },
  {
    field: 'httpPath',
    re: /(?:\bfor url|\burl[=:]|"(?:url|base_url|endpoint|serverUrl|server_url)"\s{0,4}:|\b(?:[Rr]e)?[Cc]onnect(?:ing|ed)? to(?: remote server| (?:SSE|StreamableHTTP|Streamable HTTP|MCP) (?:endpoint|server))?:?|\bPOSTing to|\brequest to|\bendpoint:?|\b(?:server|listening|running) (?:at|on):?)\s{0,3}['"(]?(?:https?|wss?):\/\/[^\s/"'<>()]{1,300}(\/[^\s"'<>?#()]{0,300}?)(?=:?(?:[\s"'<>?#()]|$))/,
    needs: ['://'],
    why: "the path of the URL a request goes to: `for url 'http://…/mcp'`, `Connecting to remote server: https://…/sse`",
    examples: [
      ["Client error '404 Not Found' for url 'http://ip-abc:8000/mcp'", '/mcp'],
      ['Connecting to remote server: https://mcp.example.com/v1/sse', '/v1/sse'],
      ['Error 404 status connecting to https://x.example/missing-page: <!DOCTYPE html>', '/missing-page'],
      ['Query parameters: {"url":"http://localhost:6274/mcp","transportType":"streamable-http"}', '/mcp'],
    ],
    nearMisses: ['see https://modelcontextprotocol.io/docs for details'],
  },
  {
    field: 'requestId',
    re: /\b(?:x[-_]request[-_]id|(?:kong_)?request_id|req_id|reqId|requestId|x?rid)["']?\s?[:=]\s?["']?([0-9a-f]{16,64})\b/i,
    needs: ['equest', 'eqId', 'EQUEST', 'eq_id', 'rid', 'RID'],
    why: "a proxy's request id, under the names access log formats give it: `x-request-id`, `request_id`, Kong's `kong_request_id`, a format's `rid=`/`xrid=` (nginx `$request_id`) — always the 16–64 hex digits proxies generate",
    examples: [
      ['x-request-id=0123456789abcdef0123', '0123456789abcdef0123'],
      ['"POST /mcp HTTP/1.1" 200 4318 "-" "ClaimsCopilot/5.2.1" kong_request_id: "75cf8a91adf2422245777ba5b129a403"', '75cf8a91adf2422245777ba5b129a403'],
      ['rt=0.216 rid=977bad350ef5d9306e04c939c722a021 mcp="tools/call"', '977bad350ef5d9306e04c939c722a021'],
      ['status=200 dur_ms=212 xrid=977bad350ef5d9306e04c939c722a021', '977bad350ef5d9306e04c939c722a021'],
    ],
    nearMisses: ['request_id=42', 'grid=0123456789abcdef0123', 'rid=42', 'fluid=0123456789abcdef0123'],
  },
];

/**
 * One cheap test per field before its extractors run (a line without any of these cannot give the
 * field, so its extractors are skipped together). Every extractor's examples pass their gate (test).
 */
export const GATES: Partial<Record<Field, RegExp>> = {
  rpcMethod:
    /"method"|method=|Request|Notification|initiali[sz]|[Pp]ing|[Rr]esource|[Pp]rompts|_tools?\b|_resources?\b|_prompts?\b|[a-z](?:Tools?|Resources?|Prompts?)\b| (?:MCP )?tools?\b|[.#:](?:list|call|read|get)Mcp|(?:tools|resources|prompts|roots|notifications|completion|logging|sampling|elicitation|tasks|server|subscriptions)\/|Client[.#:]|Session[.#:]|remote method '|in (?:call_tool|list_tools|read_resource|list_resources|get_prompt|list_prompts|send_ping)\b|onnecting|to connect to|connection to/,
  rpcId: /jsonrpc|JSONRPC|[Rr][Pp][Cc]|[Ii][Dd]=|"id"|equest[ _-]?[Ii][Dd]|\(request \d|\(id \d|Remote→Local/,
  tool: /ool|"arguments"|rogress |[Cc]alling |[Ii]nvoking | id=\d{1,15}:? (?:failed|errored|timed|returned|ok|OK|done|cancel)/,
  // a three-digit number of its own (not in 2026, nor a time's .250 milliseconds)
  // or a reason phrase opening an error message (`Not Found: …`, REASON_ONLY), or after the TS SDK's `SSE stream: `,
  // or a 5xx phrase that is the whole message, or a phrase that is a refused POST's whole body
  httpStatus:
    /(?<![\d.])[1-5]\d\d(?!\d)|(?:Not Found|Bad Request|Unauthorized|Forbidden|Not Allowed|Not Acceptable|Media Type|Server Error|Bad Gateway|Unavailable|Gateway Timeout): |SSE stream: |POSTing to endpoint: [A-Z][a-z]|Only one SSE stream|body: [A-Z][a-z]|^\s{0,8}(?:Internal Server Error|Bad Gateway|Service Unavailable|Gateway Timeout)\.?\s{0,8}$/,
  httpMethod: /(?:GET|POST|DELETE|PUT|PATCH|HEAD|OPTIONS)[ "]/,
  httpPath: /(?:GET|POST|DELETE|PUT|PATCH|HEAD|OPTIONS) |:\/\/|"(?:url|path|uri|request_uri|requestPath)"/,
};

function unquote(v: string): string | number | null {
  const c = v[0];
  if (c === '"' || c === "'") return v.slice(1, -1);
  return toRpcId(v);
}

// ---------------------------------------------------------------------------------------------
// The target of a request: scheme, host and port of the URL a line talks to (attrs targetScheme,
// targetHost, targetPort — the port made explicit from the scheme), so a client line can be matched
// to the proxy or replica it reached. Only URLs in a request context count (a documentation link
// is not a target).

export const TARGET = {
  re: /(?:\b(?:GET|POST|DELETE|PUT|PATCH|HEAD|OPTIONS) |\bfor url\s{0,3}|\burl[=:]\s{0,3}|"(?:url|base_url|endpoint|serverUrl|server_url)"\s{0,4}:\s{0,4}|\b(?:[Rr]e)?[Cc]onnect(?:ing|ed)? to(?: remote server| (?:SSE|StreamableHTTP|Streamable HTTP|MCP) (?:endpoint|server)|(?: [\w-]{1,40}){0,2} (?:server|endpoint) at)?:?\s{0,3}|\bPOSTing to\s{0,3}|\brequest to\s{0,3}|\bendpoint:?\s{0,3}|\b(?:server|listening|running) (?:at|on):?\s{0,3})['"(]?(https?|wss?):\/\/(?:[^\s/@"'<>()]{1,200}@)?(\[[0-9A-Fa-f:.]{2,60}\]|<[^<>\n]{1,40}>|[A-Za-z0-9][A-Za-z0-9._-]{0,252})(?::(\d{1,5}))?(?![\w.-])/,
  why: 'scheme, host and port of the URL a request goes to',
  examples: [
    ['POST http://ip-abc:8080/mcp rpc=3', { targetScheme: 'http', targetHost: 'ip-abc', targetPort: 8080 }],
    ["Client error '404 Not Found' for url 'https://mcp.example.com/mcp'", { targetScheme: 'https', targetHost: 'mcp.example.com', targetPort: 443 }],
    ['Connecting to remote server: https://mcp.atlassian.com/v1/sse', { targetScheme: 'https', targetHost: 'mcp.atlassian.com', targetPort: 443 }],
    ['connecting to http://[::1]:9000/mcp', { targetScheme: 'http', targetHost: '[::1]', targetPort: 9000 }],
    ['Connecting to inventory server at http://localhost:8093', { targetScheme: 'http', targetHost: 'localhost', targetPort: 8093 }],
    ['reconnecting to ws://host-q7w2e9r4t1/mcp', { targetScheme: 'ws', targetHost: 'host-q7w2e9r4t1', targetPort: 80 }],
    ['GET http://<string len=9>:45385/mcp accept=text/event-stream', { targetScheme: 'http', targetHost: '<string len=9>', targetPort: 45385 }],
  ] as const,
  nearMisses: ['see https://modelcontextprotocol.io/docs for details', 'https://<host>/mcp'],
};
const DEFAULT_PORT: Record<string, number> = { http: 80, ws: 80, https: 443, wss: 443 };

/**
 * The MCP server a host's line is about, by the name the host configured for it (attrs.mcpServer):
 * hosts that run several servers write one log (`MCP server "notes" connected`, `Error during
 * discovery for server 'docs'`), and a line about one says nothing of another.
 */
export const SERVER_NAME = {
  re: /\b(?:MCP [Ss]erver|[Ss]erver):? ["'\x60]([A-Za-z0-9][\w.@/:-]{0,59})["'\x60]/,
  why: 'the configured name of the MCP server a host line is about, quoted after "server"',
  examples: [
    ['2026-03-01 10:00:01.500 [info] MCP server "notes" connected (8 tools)', 'notes'],
    ["Error during discovery for server 'docs': Connection failed", 'docs'],
    ["Server 'github' is ready", 'github'],
    ['Failed to connect to MCP server `linear`: 401', 'linear'],
  ] as const,
  nearMisses: ["(b'server', b'uvicorn')", '{"server":"nginx"}', 'Server: uvicorn', 'server "" not found', 'the server "said" nothing'],
};

/** The configured server name a line is about, or null. */
export function serverName(text: string): string | null {
  if (!text.includes('erver')) return null;
  const m = SERVER_NAME.re.exec(text);
  // (a quoted word that is prose, not a name: `the server "said"` — names are what hosts configure, not English after "the")
  if (!m || /\bthe [Ss]erver/.test(text.slice(Math.max(0, m.index - 4), m.index + 7))) return null;
  return m[1]!;
}

/**
 * The MCP client a server's or gateway's line names (attrs.clientName): the `clientInfo.name` a client sends
 * in initialize (spec basic/lifecycle), which servers log at initialize and often on every request
 * (`client="crm-assistant 4.0.0"`, `"clientInfo":{"name":"cursor","version":"1.4"}`). Two clients of one
 * server are told apart by it where no User-Agent is logged: another client's success is not this one's
 * recovery. The version is dropped (one client, upgraded, is still that client).
 */
export const CLIENT_NAME = {
  re: /"client(?:_?[Nn]ame)?"\s{0,4}:\s{0,4}"([A-Za-z][^"]{0,79})"|"clientInfo"\s{0,4}:\s{0,4}\{[^{}]{0,200}?"name"\s{0,4}:\s{0,4}"([A-Za-z][^"]{0,79})"|\bclient(?:_?[Nn]ame|Info\.name|_info\.name)?="([A-Za-z][^"]{0,79})"|\bclient(?:_?[Nn]ame|Info\.name|_info\.name)?=([A-Za-z][\w.@/-]{0,79})/,
  why: "the client's clientInfo name as a server or gateway logs it",
  examples: [
    ['time="2026-09-29T13:20:01Z" level=info msg="legacy initialize" client="legacy-sync 0.9.3" requested_version=2025-03-26', 'legacy-sync'],
    ['level=info msg="request served" client="crm-assistant 4.0.0" method=tools/call status=200', 'crm-assistant'],
    ['{"level":"info","msg":"initialize","clientInfo":{"name":"Cursor","version":"1.4.2"}}', 'cursor'],
    ['{"time":"2026-10-01T10:00:00Z","client_name":"claude-code/2.0.14","status":200}', 'claude-code'],
    ['INFO session opened client=mcp-inspector/0.16.2 session=ab12', 'mcp-inspector'],
    ['INFO initialize clientInfo.name="VS Code" protocol=2025-06-18', 'vs code'],
    ['new session client="notes-sync (via mcp-remote 0.1.31)"', 'notes-sync'],
  ] as const,
  nearMisses: [
    '2026/10/01 10:00:00 [error] 7#7: *1 upstream timed out, client: 203.0.113.9, server: mcp.example.com',
    'level=info msg="accepted" client=127.0.0.1:51234',
    '{"client":"10.0.0.7","status":502}',
    'level=info client_ip=10.1.1.1 status=200',
    '{"client":{"ip":"10.0.0.7"}}',
    'level=debug msg="http client=true" retries=2',
    'creating client for server notes',
  ],
};
const NOT_A_NAME = new Set(['true', 'false', 'null', 'none', 'nil', 'unknown', 'undefined']);

/** The client name a line logs (lower case, no version), or null. */
export function clientNameOf(text: string): string | null {
  if (!text.includes('lient')) return null;
  const m = CLIENT_NAME.re.exec(text);
  if (!m) return null;
  const raw = (m[1] ?? m[2] ?? m[3] ?? m[4] ?? '').replace(/\s*\([^)]{0,80}\)\s*$/, '');
  const name = raw
    .replace(/[\s/@]v?\d[\w.+-]{0,40}$/, '')
    .trim()
    .toLowerCase();
  return name === '' || NOT_A_NAME.has(name) ? null : name;
}

/**
 * The task a line is about (attrs.taskId): under the tasks extension (spec 2025-11-25 basic/utilities/tasks,
 * 2026-07-28 io.modelcontextprotocol/tasks) a task-augmented tools/call answers with a task handle, the client
 * polls `tasks/get` with it over many HTTP exchanges, and the server logs the task's steps and end by it — one
 * piece of work across requests, correlated by its handle. Only a handle-shaped value: a `"taskId"` member, a
 * `task_id=` pair, or an id with a prefix (`tsk_4M2Q9ZC7XH`) after "task" or a `tasks/…` method.
 */
export const TASK_ID = {
  re: /"task_?[Ii]d"\s{0,4}:\s{0,4}"([\w.:-]{3,100})"|\btask_?[Ii]d[=:] ?["']?([\w.:-]{3,100})|\b(?:[Tt]ask(?: created:?| handle:?)?|tasks\/(?:get|result|cancel)(?: for)?) ([A-Za-z]{1,8}_[A-Za-z0-9-]{4,80})\b|\btask[=:] ?["']?([A-Za-z]{1,8}_[A-Za-z0-9-]{0,80}\d[A-Za-z0-9-]{0,80})\b/,
  why: 'the handle of a task-augmented request, as the spec names it (taskId) or as a host or server logs it',
  examples: [
    ['{"jsonrpc":"2.0","id":3,"result":{"task":{"taskId":"tk_8a1","status":"working"}}}', 'tk_8a1'],
    ['tasks/get taskId=tk_8a1 -> status=working', 'tk_8a1'],
    ['← task created: tsk_4M2Q9ZC7XH (status=working, pollIntervalMs=10000)', 'tsk_4M2Q9ZC7XH'],
    ['  polling tasks/get tsk_4M2Q9ZC7XH ...', 'tsk_4M2Q9ZC7XH'],
    ['INFO infra.tasks: task tsk_4M2Q9ZC7XH -> completed cluster_id=c-7', 'tsk_4M2Q9ZC7XH'],
    // (a server's logfmt record keyed `task=` with a handle-shaped value: a prefix, an underscore, a digit in it)
    ['level=INFO msg="batch committed" task=tsk_01J8Z6Q4W7KX batch=JB-4413', 'tsk_01J8Z6Q4W7KX'],
  ] as const,
  nearMisses: [
    'task created',
    'background task running',
    'Task exception was never retrieved',
    'task_queue=default',
    'tasks/get failed: read ECONNRESET',
    'level=info msg=scheduled task=send_email',
  ],
};

/** The task handle a line names, or null. */
export function taskIdOf(text: string): string | null {
  if (!text.includes('ask')) return null;
  const m = TASK_ID.re.exec(text);
  return m ? (m[1] ?? m[2] ?? m[3] ?? m[4] ?? null) : null;
}

// ---------------------------------------------------------------------------------------------
// Direction: does the line describe the request, the response, or both (`POST /mcp -> 404`, an
// access-log line)? attrs.direction = 'request' | 'response' | 'exchange'. Explicit arrows win;
// then a status (with a request line or request word: exchange); then the embedded JSON-RPC
// message; then words.

export const DIRECTION_WORDS: readonly { direction: 'request' | 'response'; re: RegExp; why: string; examples: readonly string[] }[] = [
  { direction: 'request', re: /-->|\bLocal→Remote\b|→ ?Remote\b|\bClient→Server\b/, why: 'arrows towards the server', examples: ['--> POST /mcp', '[Local→Remote] tools/call'] },
  { direction: 'response', re: /<--|\bRemote→Local\b|← ?Remote\b|\bServer→Client\b/, why: 'arrows back from the server', examples: ['<-- 200 OK', '[Remote→Local] 7'] },
];
const REQUEST_WORDS =
  /\b(?:Sending|Calling|send_request|Requesting|POSTing|Forwarding|Dispatching)\b|\bReceived (?:an? )?(?:MCP |JSON-RPC |new )?(?:request|POST|GET|DELETE|notification|message)\b/;
// "response" alone is too common a name (`response = await call_next(request)`): only in phrases.
const RESPONSE_WORDS =
  /\bReceived\b|\b[Rr]esponse (?:from|to|for|status|body|headers|code|received|was)\b|\b[Gg]ot (?:an? )?(?:response|reply|result|error|status|HTTP)\b|\breturned\b|(?:->|=>|→) ?(?:result|ok|OK|success|done)\b|\b[Rr]esults?: |\b(?:initialize|ping|[a-z]+\/[a-zA-Z_/]+) (?:result|response|reply)\b|"result"\s{0,4}:\s{0,4}[{[]|\b[a-z]+\/[a-zA-Z_/]+(?: \S{1,60})? (?:done|succeeded|finished|completed)\b/;

function direction(e: Event, text: string, rpc: RpcMembers | null): 'request' | 'response' | 'exchange' | null {
  if (text.includes('→') || text.includes('←') || text.includes('--')) for (const d of DIRECTION_WORDS) if (d.re.test(text)) return d.direction;
  const requestSide = e.httpMethod !== null || REQUEST_WORDS.test(text);
  if (e.httpStatus !== null) return requestSide ? 'exchange' : 'response';
  // (an access line that got no status — HAProxy's -1 for a request cut before any answer — still says how long the
  // exchange took: it was written when the exchange ended, not as the request went out)
  if (e.httpMethod !== null && e.durationMs !== null && e.source === 'proxy') return 'exchange';
  if (rpc && (rpc.result || rpc.error)) return 'response';
  if (rpc && rpc.method !== null) return 'request';
  if (RESPONSE_WORDS.test(text) && !REQUEST_WORDS.test(text)) return 'response';
  if (requestSide || e.rpcMethod !== null) return 'request';
  return null;
}

// ---------------------------------------------------------------------------------------------

/** EXTRACTORS by field, in order, with the field's gate: the per-line loop tests each field once. */
const GROUPS: readonly { field: Field; gate: RegExp | undefined; extractors: Extractor[] }[] = (() => {
  const out: { field: Field; gate: RegExp | undefined; extractors: Extractor[] }[] = [];
  for (const x of EXTRACTORS) {
    const last = out[out.length - 1];
    if (last && last.field === x.field) last.extractors.push(x);
    else out.push({ field: x.field, gate: GATES[x.field], extractors: [x] });
  }
  return out;
})();

/** A loop, not `.some(n => …)`: no closure per line and extractor. */
function hasAny(text: string, needs: readonly string[]): boolean {
  for (let i = 0; i < needs.length; i++) if (text.includes(needs[i]!)) return true;
  return false;
}

/** Run one extractor on a text: the value it would give, or null. */
/**
 * A number read from free text is an HTTP status only if servers send it: the registered 1xx–3xx codes
 * (RFC 9110, 102/103, WebDAV's 207/208, 226) and any 4xx/5xx (vendors use many: nginx 499, Cloudflare 52x,
 * AWS ALB 460/463). `-> 212 hosts` is a count, not a status.
 */
export function statusInUse(n: number): number | null {
  if (n >= 400 && n <= 599) return n;
  if ((n >= 100 && n <= 103) || (n >= 200 && n <= 208) || n === 226 || (n >= 300 && n <= 308)) return n;
  return null;
}

export function extract(x: Extractor, text: string): string | number | null {
  if (x.needs && !hasAny(text, x.needs)) return null;
  const m = x.re.exec(text);
  if (!m) return null;
  if (x.read) return x.read(text, m);
  const v = m[x.group ?? 1];
  if (v === undefined) return null;
  if (x.map) return x.map[v] ?? null;
  if (x.field === 'httpStatus') return statusInUse(Number(v));
  if (x.field === 'rpcId') return v.startsWith('"') ? v.slice(1, -1) : toRpcId(v);
  return v;
}

/** The target attrs a text gives (empty when no URL in a request context). */
export function target(text: string): { targetScheme?: string; targetHost?: string; targetPort?: number } {
  if (!text.includes('://')) return {};
  const m = TARGET.re.exec(text);
  if (!m) return {};
  const scheme = m[1]!.toLowerCase();
  const port = m[3] ? Number(m[3]) : DEFAULT_PORT[scheme]!;
  return port > 0 && port < 65536 ? { targetScheme: scheme, targetHost: m[2]!, targetPort: port } : { targetScheme: scheme, targetHost: m[2]! };
}

/**
 * Fill missing correlation fields from the event's text. Mutates and returns the event.
 * `textSignals`: the signals of e.text when known beforehand (parse-file.ts: from the runners).
 */
export function enrich(e: Event, textSignals?: (e: Event) => readonly string[] | undefined): Event {
  const text = e.kind === 'block' ? e.text.slice(0, 20_000) : e.text;
  // A JSON log line's message is the decoded text: a JSON-RPC message escaped inside it is readable there.
  // So is a message rendered from a template (Serilog's CLEF `@mt` with the record's properties): the raw line
  // holds only the holes (`MCP {Method} id={RpcId}`), the message says which call.
  const alt =
    e.message !== text && ((e.message.includes('"jsonrpc"') && !text.includes('"jsonrpc"')) || (e.format === 'serilog-clef' && !text.includes(e.message))) ? e.message : null;
  const fields = e as unknown as Record<Field, unknown>;
  // key=value / indented `key: value` context first: a named key says more than a phrase
  const multi = e.endLine > e.line;
  if (e.format !== 'json-lines' && e.format !== 'logfmt' && mayHavePairs(text, multi)) {
    const p = pairFields(text, multi);
    for (const k in p) {
      const f = k as Field;
      if (fields[f] === null || fields[f] === undefined) fields[f] = p[f as keyof typeof p];
    }
  }
  for (let gi = 0; gi < GROUPS.length; gi++) {
    const group = GROUPS[gi]!;
    const f = group.field;
    if (fields[f] !== null && fields[f] !== undefined) continue;
    if (group.gate && !group.gate.test(text) && (alt === null || !group.gate.test(alt))) continue;
    for (let k = 0; k < group.extractors.length; k++) {
      const x = group.extractors[k]!;
      let v = extract(x, text);
      if (v === null && alt !== null) v = extract(x, alt);
      if (v === null) continue;
      fields[f] = f === 'httpStatus' || f === 'rpcId' ? v : String(v);
      break;
    }
  }
  const a = e.attrs;
  if (a.targetHost === undefined) Object.assign(a, target(text));
  // a count summary of attempts (`3/5 OK`, `7 ok / 5 failed`): how many of the same requests passed and failed
  // (a folded record's rows too: a probe's table under its heading is one event). Not on an HTTP exchange line:
  // an access log's request and status are no count, so the ingest's bulk pays nothing for it
  if (a.tallyOk === undefined && e.kind !== 'block' && (e.httpStatus === null || e.httpMethod === null)) {
    const t = readTallyRows(e.endLine > e.line ? text : e.message);
    if (t) {
      a.tallyOk = t.ok;
      a.tallyFailed = t.failed;
    }
  }
  if (a.mcpServer === undefined) {
    const n = serverName(text);
    if (n !== null) a.mcpServer = n;
  }
  if (a.clientName === undefined) {
    const c = clientNameOf(text);
    if (c !== null) a.clientName = c;
  }
  if (a.taskId === undefined) {
    const t = taskIdOf(text);
    if (t !== null) a.taskId = t;
  }
  if (a.direction === undefined) {
    const at = text.includes('"jsonrpc"') ? JSONRPC_KEY.exec(text) : null;
    const d = direction(e, text, at ? readJsonRpc(text, at.index) : null);
    if (d) a.direction = d;
  }
  // What the line says happened (parsers/signals), once per event, after the fields it reads.
  const table = signalTable();
  e.signals = table.forEvent(e, textSignals?.(e));
  // A line a failure signal fires on is an error line even when nothing logged a level and its words gave
  // none (`[SSL: WRONG_VERSION_NUMBER] wrong version number`, `Killed`): the timeline's level filter and
  // the histograms count it (issue #17 item 5). Not an exchange line: its status is its outcome.
  if (e.level === null && e.httpStatus === null) {
    // (a tally that counts failures reports them, whatever words it uses for them: `3/5 OK`)
    if (typeof a.tallyFailed === 'number' && a.tallyFailed > 0) {
      e.level = 'error';
      a.levelFrom = 'tally';
    }
    for (const id of e.signals)
      if (table.meaning(id)?.outcome === 'failure') {
        e.level = 'error';
        a.levelFrom = 'signal';
        break;
      }
  }
  return e;
}
