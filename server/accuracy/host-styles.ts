// Decision-invariance matrix (issue #17 kinds 1–2, item 10 "same incident, other log styles"):
// one small client-side incident, stated in our own values from a row of
// ../shared/domain/failure-signatures.md, printed the way a host application or a logging library
// prints its records. The style functions are written from each tool's own formatter or docs (cited
// per style); the incidents from the row they cite. What happened never changes, only the layout.

export type Level = 'debug' | 'info' | 'warn' | 'error';

/** One record a client logged: its level, its message (one line), and its offset in ms from the incident's start. */
export interface Rec {
  level: Level;
  msg: string;
  /** the error the record carries, when the library keeps it apart from the message (an `err` field, an exception) */
  err?: string;
  /** the request the record is about, when the library logs it as fields (pino/winston/slog keys, OTel attributes, tracing spans) */
  call?: Call;
  at: number;
}

export interface Call {
  method: string;
  tool?: string;
  id: number;
}

export interface HostIncident {
  id: string;
  /** the failure-signatures.md row(s) and, where they decide, the D-rule or triage-rules section */
  source: string;
  decision: string;
  recs: Rec[];
}

const r = (at: number, level: Level, msg: string, err?: string): Rec => (err === undefined ? { at, level, msg } : { at, level, msg, err });
/** A record about one request whose identity is logged as fields, not in the message. */
const c = (at: number, level: Level, call: Call, msg: string, err?: string): Rec => ({ ...r(at, level, msg, err), call });

// Each incident: 1–6 client lines; ids, hosts, tools and sessions are our own values.
export const HOST_INCIDENTS: readonly HostIncident[] = [
  {
    id: 'refused-connect',
    source: 'row 41 (undici fetch failed, cause ECONNREFUSED; stage C) → D1 send normally',
    decision: 'retry',
    recs: [
      r(0, 'info', 'Connecting to MCP server at http://127.0.0.1:8931/mcp'),
      r(12, 'error', 'Failed to connect to MCP server', 'TypeError: fetch failed (cause: Error: connect ECONNREFUSED 127.0.0.1:8931)'),
    ],
  },
  {
    id: 'httpx-connect-error',
    source: 'row 6 (httpx.ConnectError: All connection attempts failed; stage C) → D1',
    decision: 'retry',
    recs: [
      r(0, 'info', 'Opening streamable HTTP connection to http://10.20.0.7:9100/mcp'),
      r(30, 'error', 'Error in post_writer', 'httpx.ConnectError: All connection attempts failed'),
    ],
  },
  {
    id: 'auth-401-www-authenticate',
    source: 'row 49 (401, WWW-Authenticate, invalid_token) → fix_auth',
    decision: 'fix_auth',
    recs: [
      r(0, 'info', 'POST https://tasks.example.net/mcp method=initialize id=0'),
      r(40, 'error', 'Error POSTing to endpoint (HTTP 401): {"error":"invalid_token","error_description":"token expired"}'),
      r(41, 'error', 'WWW-Authenticate: Bearer realm="tasks", error="invalid_token"'),
    ],
  },
  {
    id: 'route-404-first-initialize',
    source: 'rows 38 + 73 (HTML 404 page from nginx on the first initialize) → D12 / triage-rules §3: fix the route',
    decision: 'fix_route_or_config',
    recs: [
      r(0, 'info', 'POST https://gw.example.net/tasks/mcp method=initialize id=0'),
      r(
        25,
        'error',
        'Error POSTing to endpoint (HTTP 404): <html><head><title>404 Not Found</title></head><body><center><h1>404 Not Found</h1></center><hr><center>nginx</center></body></html>',
      ),
    ],
  },
  {
    id: 'session-400-no-valid-id',
    source: 'rows 24/51 (400 "No valid session ID provided" on a call that carried the session) + finding 5 → reinitialize',
    decision: 'reinitialize',
    recs: [
      r(0, 'info', 'Received session ID: 5c0ffee1d2e3'),
      r(200, 'info', 'tools/list id=1 ok: 4 tools'),
      r(90_000, 'info', 'POST http://127.0.0.1:8200/mcp method=tools/call tool=list_tasks id=2 mcp-session-id=5c0ffee1d2e3'),
      r(
        90_030,
        'error',
        'MCP request failed',
        'Error POSTing to endpoint (HTTP 400): {"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"},"id":null}',
      ),
    ],
  },
  {
    id: 'session-404-after-work',
    source: 'row 50 (404 {"code":-32001,"message":"Session not found"} after the session worked) → D10 reinitialize',
    decision: 'reinitialize',
    recs: [
      r(0, 'info', 'Received session ID: 0a1b2c3d4e5f'),
      r(300, 'info', 'tools/call list_tasks id=3 returned 2 items'),
      r(600_000, 'info', 'POST http://127.0.0.1:8200/mcp method=tools/call tool=list_tasks id=4 mcp-session-id=0a1b2c3d4e5f'),
      r(600_020, 'error', 'MCP request failed', 'Error POSTing to endpoint (HTTP 404): {"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}'),
    ],
  },
  {
    id: 'py-session-terminated',
    source: 'row 2 (Python 2.x "Session terminated", -32600, while a session id is held) → REINIT',
    decision: 'reinitialize',
    recs: [
      r(0, 'info', 'Received session ID: 7f00aa11bb22'),
      r(150, 'info', 'Got 2 tools for server tasks'),
      c(300_000, 'error', { method: 'tools/call', tool: 'search_notes', id: 2 }, 'tool call failed', 'McpError: Session terminated (code -32600)'),
    ],
  },
  {
    id: 'request-timeout-short-setting',
    source: 'row 46 (McpError -32001 Request timed out, a local timeout) under a stated 5 s setting, nothing broken before it → D19 raise the timeout',
    decision: 'fix_route_or_config',
    recs: [
      c(0, 'info', { method: 'tools/list', id: 5 }, 'sending request, timeout 5000 ms'),
      c(5_000, 'error', { method: 'tools/list', id: 5 }, 'request failed', 'McpError: MCP error -32001: Request timed out'),
    ],
  },
  {
    id: 'sse-ended-write',
    source: 'row 14 ("SSE stream ended without a response" on a tools/call; stage B) → D7 check the write',
    decision: 'check_write_then_escalate',
    recs: [
      c(0, 'info', { method: 'tools/call', tool: 'create_invoice', id: 9 }, 'calling tool'),
      c(8_000, 'error', { method: 'tools/call', tool: 'create_invoice', id: 9 }, 'tool call failed', 'SSE stream ended without a response'),
    ],
  },
  {
    id: 'not-acceptable-406',
    source: 'row 29 (406 Not Acceptable: Client must accept both application/json and text/event-stream) → FIX client/proxy',
    decision: 'fix_route_or_config',
    recs: [
      r(0, 'info', 'POST http://127.0.0.1:8300/mcp method=initialize id=0'),
      r(8, 'error', 'MCP request failed', 'Error POSTing to endpoint (HTTP 406): Not Acceptable: Client must accept both application/json and text/event-stream'),
    ],
  },
  {
    id: 'invalid-host-421',
    source: 'row 31 (421 Invalid Host header behind a proxy; DNS-rebinding protection) → FIX server/proxy config',
    decision: 'fix_route_or_config',
    recs: [r(0, 'info', 'POST https://notes.example.net/mcp method=initialize id=0'), r(15, 'error', 'Error POSTing to endpoint (HTTP 421): Invalid Host header')],
  },
  {
    id: 'invalid-origin-403',
    source: 'row 57 (403 Invalid Origin header, -32000) → FIX config',
    decision: 'fix_route_or_config',
    recs: [
      r(0, 'info', 'POST https://notes.example.net/mcp method=initialize id=0'),
      r(
        15,
        'error',
        'MCP request failed',
        'Error POSTing to endpoint (HTTP 403): {"jsonrpc":"2.0","error":{"code":-32000,"message":"Invalid Origin header: https://app.example.org"},"id":null}',
      ),
    ],
  },
  {
    id: 'proxy-502-read',
    source: 'rows 4 + 73 (proxy 502 page on a read) → D6 retry',
    decision: 'retry',
    recs: [
      r(0, 'info', 'Received session ID: 3e3e3e3e3e3e'),
      r(60_000, 'info', 'POST https://gw.example.net/mcp method=tools/list id=6 mcp-session-id=3e3e3e3e3e3e'),
      r(
        60_010,
        'error',
        'MCP request failed',
        'Error POSTing to endpoint (HTTP 502): <html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>',
      ),
    ],
  },
  {
    id: 'proxy-504-write',
    source: 'rows 69 + 81 (504 gateway timeout on a tools/call that writes; delivered, outcome unknown) → D7',
    decision: 'check_write_then_escalate',
    recs: [
      c(0, 'info', { method: 'tools/call', tool: 'send_payment', id: 11 }, 'calling tool'),
      c(
        60_000,
        'error',
        { method: 'tools/call', tool: 'send_payment', id: 11 },
        'tool call failed',
        'Error POSTing to endpoint (HTTP 504): <html><head><title>504 Gateway Time-out</title></head></html>',
      ),
    ],
  },
  {
    id: 'html-content-type',
    source: 'row 48 (Unexpected content type: text/html — an HTML page instead of MCP) → FIX route',
    decision: 'fix_route_or_config',
    recs: [r(0, 'info', 'POST https://app.example.net/mcp method=initialize id=0'), r(30, 'error', 'Streamable HTTP error: Unexpected content type: text/html; charset=utf-8')],
  },
  {
    id: 'protocol-version-400',
    source: 'row 56 (400 Bad Request: Unsupported protocol version) → FIX client header, not REINIT',
    decision: 'fix_route_or_config',
    recs: [
      r(0, 'info', 'Received session ID: 9d9d9d9d9d9d'),
      r(100, 'info', 'POST http://127.0.0.1:8400/mcp method=tools/list id=1 mcp-protocol-version=2031-01-01'),
      r(
        104,
        'error',
        'MCP request failed',
        'Error POSTing to endpoint (HTTP 400): {"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Unsupported protocol version: 2031-01-01 (supported versions: 2025-06-18, 2025-03-26)"},"id":null}',
      ),
    ],
  },
  {
    id: 'server-version-unsupported',
    source: 'row 94 (RuntimeError: Unsupported protocol version from the server) → FIX: upgrade, no retry',
    decision: 'fix_route_or_config',
    recs: [r(0, 'info', 'POST http://127.0.0.1:8500/mcp method=initialize id=0'), r(20, 'error', 'RuntimeError: Unsupported protocol version from the server: 2023-01-01')],
  },
  {
    id: 'server-disconnected-write',
    source: 'row 8 (RemoteProtocolError: Server disconnected without sending a response; stage H) on a write → D7',
    decision: 'check_write_then_escalate',
    recs: [
      c(0, 'info', { method: 'tools/call', tool: 'delete_record', id: 14 }, 'calling tool'),
      c(2_000, 'error', { method: 'tools/call', tool: 'delete_record', id: 14 }, 'tool call failed', 'httpx.RemoteProtocolError: Server disconnected without sending a response.'),
    ],
  },
  {
    id: 'read-timeout-read',
    source: 'row 10 (httpx.ReadTimeout; stage H) on resources/read → D6 retry',
    decision: 'retry',
    recs: [
      r(0, 'info', 'Sending request resources/read (id=4) uri=file:///srv/notes/today.md'),
      r(30_000, 'error', 'resources/read (id=4) failed', 'httpx.ReadTimeout: timed out'),
    ],
  },
  {
    id: 'wrapped-session-404',
    source: 'row 59 (mcp-remote "Error from remote server:" wraps the SDK error; classify the inner) + row 50 → D20, D10 reinitialize',
    decision: 'reinitialize',
    recs: [
      r(0, 'info', 'Received session ID: 6a6b6c6d6e6f'),
      r(400, 'info', 'tools/list id=1 ok: 3 tools'),
      c(
        900_000,
        'error',
        { method: 'tools/call', tool: 'open_ticket', id: 7 },
        'Error from remote server',
        'Error POSTing to endpoint (HTTP 404): {"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}',
      ),
    ],
  },
  {
    id: 'cloudflare-524-write',
    source: 'row 84 (Cloudflare 524: origin connected, no answer in ~100 s; delivered) on a write → D7',
    decision: 'check_write_then_escalate',
    recs: [
      c(0, 'info', { method: 'tools/call', tool: 'import_contacts', id: 21 }, 'calling tool'),
      c(
        100_000,
        'error',
        { method: 'tools/call', tool: 'import_contacts', id: 21 },
        'tool call failed',
        'Error POSTing to endpoint (HTTP 524): <!DOCTYPE html><title>mcp.example.net | 524: A timeout occurred</title> Cloudflare Ray ID: 8f1e2d3c4b5a6978',
      ),
    ],
  },
  {
    id: 'envoy-503-connect-read',
    source: 'row 75 (Envoy 503 "upstream connect error or disconnect/reset before headers. reset reason: connection failure"; not delivered) → D1',
    decision: 'retry',
    recs: [
      c(0, 'info', { method: 'tools/list', id: 3 }, 'sending request'),
      c(
        40,
        'error',
        { method: 'tools/list', id: 3 },
        'request failed',
        'Error POSTing to endpoint (HTTP 503): upstream connect error or disconnect/reset before headers. reset reason: connection failure',
      ),
    ],
  },
  {
    id: 'py1x-terminated-first-initialize',
    source: 'rows 1 + 3 (Python 1.x says "Session terminated" for any 404, also on the first initialize with no session) → D12 / triage-rules §3: fix the route',
    decision: 'fix_route_or_config',
    recs: [r(0, 'info', 'Connecting to http://127.0.0.1:8600/api/mcp'), c(30, 'error', { method: 'initialize', id: 0 }, 'initialize failed', 'McpError: Session terminated')],
  },
  {
    id: 'get-405-then-ok',
    source: 'rows 17 + 91 (the optional GET stream refused with 405: no standalone stream offered) → NONE; the calls worked',
    decision: 'no_action',
    recs: [
      r(0, 'info', 'Received session ID: 1a2b3c4d5e6f'),
      r(20, 'debug', "GET stream error (non-fatal): Client error '405 Method Not Allowed' for url 'http://127.0.0.1:8200/mcp'"),
      r(200, 'info', 'tools/call list_tasks id=2 returned 3 items'),
    ],
  },
];

// —— styles ————————————————————————————————————————————————————————————————
const T0 = Date.UTC(2026, 2, 4, 9, 12, 0, 250);
const iso = (at: number) => new Date(T0 + at).toISOString();
const spaced = (at: number) => iso(at).replace('T', ' ').replace('Z', '');
const hms = (at: number) => iso(at).slice(11, 19);

export interface Style {
  id: string;
  source: string;
  render: (recs: readonly Rec[]) => string;
}

const lines = (f: (x: Rec) => string) => (recs: readonly Rec[]) => `${recs.map(f).join('\n')}\n`;
const up = (l: Level) => l.toUpperCase();
/** How hosts that keep no error field print one: the message, a colon, the error's text. */
const joined = (x: Rec) => (x.err === undefined ? said(x) : `${said(x)}: ${x.err}`);
/** A text logger's message: the request, when there is one, interpolated by the application. */
const said = (x: Rec) => (x.call ? `${x.msg} (${x.call.method}${x.call.tool ? ` ${x.call.tool}` : ''}, id=${x.call.id})` : x.msg);
/** An exception's head: the error's own `Class: text` when it names one, else the library's class around it. */
const head = (err: string, cls: string) => (/^[\w.]+(Error|Exception|Timeout)\b[^:]*: /.test(err) ? err : `${cls}: ${err}`);
/** Python `logger.exception(msg)`: the message, then the traceback (most recent call last) ending in the exception. */
const pyTraceback = (err: string) =>
  `Traceback (most recent call last):\n  File "/srv/app/.venv/lib/python3.12/site-packages/mcp/client/session.py", line 293, in send_request\n    response_or_error = await response_stream_reader.receive()\n${head(err, 'mcp.shared.exceptions.McpError')}`;
/** A JVM logger's throwable after the message: `Class: text` and its `\tat` frames. */
const jvmThrowable = (err: string) =>
  `io.modelcontextprotocol.spec.McpTransportException: ${err}\n\tat io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport.sendMessage(HttpClientStreamableHttpTransport.java:318)\n\tat reactor.core.publisher.MonoCreate.subscribe(MonoCreate.java:61)`;

/** Local wall time with a UTC offset, as zap's development encoder prints it (ISO8601 with `-0700`). */
const offset = (at: number) => iso(at).replace('Z', '+0000');
/** Go's standard log default flags (LstdFlags): `2009/11/10 23:00:00`. */
const goStd = (at: number) => iso(at).slice(0, 19).replace('T', ' ').replace(/-/g, '/');
/** A call's fields as one JSON object's members (zap, structlog keys). */
const callFields = (x: Rec) => (x.call ? { method: x.call.method, ...(x.call.tool ? { tool: x.call.tool } : {}), id: x.call.id } : {});

export const HOST_STYLES: readonly Style[] = [
  {
    id: 'plain',
    source: 'the reference: ISO time, level, message',
    render: lines((x) => `${iso(x.at)} ${up(x.level)} ${joined(x)}`),
  },
  {
    // `2025-05-25 20:50:28.283 [info] Connection state: …` / `[error] …` — VS Code's MCP output channel
    // (quoted in microsoft/vscode#244629 and Automattic/mcp-wordpress-remote#17)
    id: 'vscode-output',
    source: 'VS Code MCP output channel (LogOutputChannel: `YYYY-MM-DD HH:mm:ss.SSS [level] msg`, level `warning`)',
    render: lines((x) => `${spaced(x.at)} [${x.level === 'warn' ? 'warning' : x.level}] ${joined(x)}`),
  },
  {
    // `2026-…Z [name] [info] Message from server: …` — Claude Desktop's mcp-server-<name>.log
    id: 'claude-desktop',
    source: 'Claude Desktop mcp-server-<name>.log (`ISO [server] [level] msg`; parsers/formats/claude-desktop.json)',
    render: lines((x) => `${iso(x.at)} [tasks] [${x.level}] ${joined(x)}`),
  },
  {
    // `2026-01-12T09:19:33.356Z [ERROR] MCP server "…" …` — Claude Code --debug (anthropics/claude-code#17653)
    id: 'claude-code-debug',
    source: 'Claude Code --debug (`ISO [LEVEL] MCP server "name" msg`, anthropics/claude-code#17653)',
    render: lines((x) => `${iso(x.at)} [${up(x.level)}] MCP server "tasks" ${joined(x)}`),
  },
  {
    // `2025-04-24 16:16:54.058 [error] ster: Error in MCP: …` — Cursor's MCP output (the last four
    // characters of the server's name before the colon; GLips/Figma-Context-MCP#77, exa-labs/exa-mcp-server#14)
    id: 'cursor-output',
    source: 'Cursor MCP output (`YYYY-MM-DD HH:mm:ss.SSS [level] xxxx: msg`, Figma-Context-MCP#77)',
    render: lines((x) => `${spaced(x.at)} [${x.level === 'warn' ? 'warning' : x.level}] asks: ${joined(x)}`),
  },
  {
    // `[40412] msg` — mcp-remote's log(): the pid, then the message, no level, no time (src/lib/utils.ts)
    id: 'mcp-remote',
    source: 'mcp-remote (`[pid] msg` to stderr; failure-signatures row 59)',
    render: lines((x) => `[48213] ${joined(x)}`),
  },
  {
    // `ERROR:mcp.client.streamable_http:msg` — logging.BASIC_FORMAT `%(levelname)s:%(name)s:%(message)s`
    id: 'python-basic',
    source: 'Python logging.basicConfig default (BASIC_FORMAT `%(levelname)s:%(name)s:%(message)s`; no time)',
    render: lines((x) => `${x.level === 'warn' ? 'WARNING' : up(x.level)}:mcp.client.streamable_http:${said(x)}${x.err === undefined ? '' : `\n${pyTraceback(x.err)}`}`),
  },
  {
    // `2022-10-12 07:16:35.085 | DEBUG    | __main__:<module>:1 - msg` — loguru's default sink format (level padded to 8)
    id: 'loguru',
    source: 'loguru default format (`{time:YYYY-MM-DD HH:mm:ss.SSS} | {level: <8} | {name}:{function}:{line} - {message}`)',
    render: lines(
      (x) =>
        `${spaced(x.at)} | ${(x.level === 'warn' ? 'WARNING' : up(x.level)).padEnd(8)} | open_webui.utils.mcp.client:call_tool:118 - ${said(x)}${x.err === undefined ? '' : `\n${pyTraceback(x.err)}`}`,
    ),
  },
  {
    // `10:32:42 - LiteLLM Proxy:DEBUG: proxy_server.py:2555 - msg` — LiteLLM's verbose_proxy_logger (BerriAI/litellm#13574)
    id: 'litellm',
    source: 'LiteLLM proxy logger (`%H:%M:%S - LiteLLM Proxy:LEVEL: file.py:line - msg`, BerriAI/litellm#13574)',
    render: lines(
      (x) => `${hms(x.at)} - LiteLLM Proxy:${x.level === 'warn' ? 'WARNING' : up(x.level)}: mcp_client.py:214 - ${said(x)}${x.err === undefined ? '' : `\n${pyTraceback(x.err)}`}`,
    ),
  },
  {
    // pino's default JSON line: numeric level (30 info, 40 warn, 50 error), epoch ms, pid, hostname, msg
    id: 'pino-json',
    source: 'pino default JSON (`{"level":50,"time":<ms>,"pid":…,"hostname":…,"msg":…}`)',
    render: lines((x) =>
      JSON.stringify({
        level: { debug: 20, info: 30, warn: 40, error: 50 }[x.level],
        time: T0 + x.at,
        pid: 48213,
        hostname: 'devbox',
        // pino's err serializer: type, message, stack
        ...(x.err === undefined
          ? {}
          : {
              err: {
                type: 'Error',
                message: x.err,
                stack: `Error: ${x.err}\n    at StreamableHTTPClientTransport.send (file:///srv/app/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js:301:23)`,
              },
            }),
        // the JSON-RPC request as the client sent it (the tool's name after its arguments)
        ...(x.call ? { rpc: { jsonrpc: '2.0', id: x.call.id, method: x.call.method, ...(x.call.tool ? { params: { arguments: { ref: 'a-1' }, name: x.call.tool } } : {}) } } : {}),
        msg: x.msg,
      }),
    ),
  },
  {
    // winston format.combine(timestamp(), json()): level, message, timestamp
    id: 'winston-json',
    source: 'winston json() with timestamp() (`{"level":"error","message":…,"timestamp":…}`)',
    render: lines((x) =>
      JSON.stringify({
        level: x.level,
        message: x.msg,
        ...(x.call ? { method: x.call.method, ...(x.call.tool ? { tool: x.call.tool } : {}), requestId: x.call.id } : {}),
        ...(x.err === undefined ? {} : { error: x.err }),
        timestamp: iso(x.at),
      }),
    ),
  },
  {
    // Go log/slog TextHandler: logfmt `time=… level=ERROR msg="…"` (quoted when it holds spaces or quotes)
    id: 'go-slog-text',
    source: 'Go log/slog TextHandler (`time=RFC3339 level=ERROR msg="…"`, logfmt quoting)',
    render: lines(
      (x) =>
        `time=${iso(x.at)} level=${up(x.level)} msg=${JSON.stringify(x.msg)}${x.call ? ` method=${x.call.method}${x.call.tool ? ` tool=${x.call.tool}` : ''} request_id=${x.call.id}` : ''}${x.err === undefined ? '' : ` err=${JSON.stringify(x.err)}`}`,
    ),
  },
  {
    // Go log/slog JSONHandler: `{"time":…,"level":"ERROR","msg":…}`
    id: 'go-slog-json',
    source: 'Go log/slog JSONHandler (`{"time":…,"level":"ERROR","msg":…}`)',
    render: lines((x) =>
      JSON.stringify({
        time: iso(x.at),
        level: up(x.level),
        msg: x.msg,
        // OpenTelemetry's MCP attribute names (semantic-conventions-genai docs/gen-ai/mcp.md)
        ...(x.call ? { 'mcp.method.name': x.call.method, ...(x.call.tool ? { 'gen_ai.tool.name': x.call.tool } : {}), 'jsonrpc.request.id': String(x.call.id) } : {}),
        ...(x.err === undefined ? {} : { err: x.err }),
      }),
    ),
  },
  {
    // Spring Boot's default logback console pattern: `ISO  LEVEL pid --- [app] [thread] logger : msg`
    id: 'java-logback',
    source: 'Spring Boot default logback pattern (`ISO LEVEL pid --- [app] [thread] abbreviated.Logger : msg`)',
    render: lines(
      (x) =>
        `${iso(x.at)} ${up(x.level).padStart(5)} 48213 --- [mcp-client] [oundedElastic-1] i.m.c.t.HttpClientStreamableHttpTransport : ${said(x)}${x.err === undefined ? '' : `\n${jvmThrowable(x.err)}`}`,
    ),
  },
  {
    // Microsoft.Extensions.Logging.Console SimpleConsoleFormatter: `fail: Category[0]` then the message on
    // the next line indented by six spaces (dotnet/runtime SimpleConsoleFormatter.cs, _messagePadding)
    id: 'dotnet-console',
    source: '.NET SimpleConsoleFormatter (`fail: Category[eventId]` + message indented six spaces)',
    render: (recs) =>
      `${recs
        .map((x) => {
          const lvl = { debug: 'dbug', info: 'info', warn: 'warn', error: 'fail' }[x.level];
          // the exception follows the message, every line padded like it (Exception.ToString(): `   at` frames)
          const exc =
            x.err === undefined
              ? ''
              : `\n      ${head(x.err, 'System.Net.Http.HttpRequestException')}\n         at ModelContextProtocol.Client.McpClient.SendRequestAsync(JsonRpcRequest request, CancellationToken cancellationToken)`;
          return `${lvl}: ModelContextProtocol.Client.McpClient[0]\n      ${said(x)}${exc}`;
        })
        .join('\n')}\n`,
  },
  {
    // tracing_subscriber fmt Full: `2022-02-15T18:44:24.535324Z  INFO target: msg` (level right-aligned to 5)
    id: 'rust-tracing',
    source: 'Rust tracing_subscriber::fmt Full format (`RFC3339 micros  LEVEL target: msg`)',
    render: lines(
      (x) =>
        `${iso(x.at).replace('Z', '000Z')} ${up(x.level).padStart(5)} ${x.call ? `request{method=${JSON.stringify(x.call.method)}${x.call.tool ? ` tool=${JSON.stringify(x.call.tool)}` : ''} id=${x.call.id}}: ` : ''}rmcp::transport::streamable_http_client: ${x.msg}${x.err === undefined ? '' : ` error=${x.err}`}`,
    ),
  },
  {
    // Ktor's generated logback.xml: `%d{YYYY-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n`
    id: 'kotlin-ktor',
    source: 'Ktor project logback.xml pattern (`yyyy-MM-dd HH:mm:ss.SSS [thread] LEVEL logger - msg`)',
    render: lines(
      (x) =>
        `${spaced(x.at)} [DefaultDispatcher-worker-3] ${up(x.level).padEnd(5)} i.m.kotlin.sdk.client.Client - ${said(x)}${x.err === undefined ? '' : `\n${jvmThrowable(x.err)}`}`,
    ),
  },
  {
    // VS Code logs a connection's failure at info: `[info] Connection state: Error <reason>` (quoted in
    // Automattic/mcp-wordpress-remote#17 and obot-platform/obot#4150); the other records as usual
    id: 'vscode-connection-state',
    source: 'VS Code MCP output, a failure as `[info] Connection state: Error …` (mcp-wordpress-remote#17)',
    render: lines((x) =>
      x.level === 'error' ? `${spaced(x.at)} [info] Connection state: Error ${joined(x)}` : `${spaced(x.at)} [${x.level === 'warn' ? 'warning' : x.level}] ${joined(x)}`,
    ),
  },
  {
    // Go's log package with its default flags: `2009/11/10 23:00:00 msg`, no level at all
    id: 'go-log-std',
    source: 'Go standard library log (LstdFlags: `YYYY/MM/DD HH:MM:SS msg`, no level)',
    render: lines((x) => `${goStd(x.at)} ${joined(x)}`),
  },
  {
    // `%(asctime)s - %(name)s - %(levelname)s - %(message)s`, the format most Python MCP clients configure
    // (routifai/mcp-client api/utils/logger.py), with logger.exception's traceback after the message
    id: 'python-asctime',
    source: 'Python logging `%(asctime)s - %(name)s - %(levelname)s - %(message)s` (asctime `YYYY-MM-DD HH:MM:SS,mmm`)',
    render: lines(
      (x) => `${spaced(x.at).replace('.', ',')} - MCPClient - ${x.level === 'warn' ? 'WARNING' : up(x.level)} - ${said(x)}${x.err === undefined ? '' : `\n${pyTraceback(x.err)}`}`,
    ),
  },
  {
    // structlog's ConsoleRenderer: timestamp, `[level    ]` padded, the event padded to 30, then sorted key=repr(value)
    id: 'structlog-console',
    source: 'structlog ConsoleRenderer (`ISO [level    ] event<pad 30> key=value …`, keys sorted, strings repr-quoted)',
    render: lines((x) => {
      const kv = Object.entries({ ...callFields(x), ...(x.err === undefined ? {} : { error: x.err }) })
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => `${k}=${typeof v === 'number' ? v : `'${String(v).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`}`)
        .join(' ');
      return `${iso(x.at)} [${x.level === 'warn' ? 'warning' : x.level}${' '.repeat(9 - (x.level === 'warn' ? 7 : x.level.length))}] ${x.msg.padEnd(30)}${kv ? ` ${kv}` : ''}`;
    }),
  },
  {
    // zap's production JSON: lowercase level, `ts` in float epoch seconds, caller, msg, fields, `error` from zap.Error
    id: 'go-zap-json',
    source: 'Go zap NewProduction (`{"level":"error","ts":<epoch s float>,"caller":"pkg/file.go:N","msg":…,"error":…}`)',
    render: lines((x) =>
      JSON.stringify({
        level: x.level,
        ts: (T0 + x.at) / 1000,
        caller: 'mcpclient/call.go:88',
        msg: x.msg,
        ...callFields(x),
        ...(x.err === undefined ? {} : { error: x.err, stacktrace: 'main.callTool\n\t/src/mcpclient/call.go:88' }),
      }),
    ),
  },
  {
    // zap's development console encoder: tab-separated time, LEVEL, caller, message, then the fields as JSON
    id: 'go-zap-console',
    source: 'Go zap NewDevelopment (tab-separated `ISO8601-offset LEVEL caller msg {"k": v}`, sandipb/zap-examples)',
    render: lines((x) => {
      const f = { ...callFields(x), ...(x.err === undefined ? {} : { error: x.err }) };
      return `${offset(x.at)}\t${up(x.level)}\tmcpclient/call.go:88\t${x.msg}${Object.keys(f).length ? `\t${JSON.stringify(f)}` : ''}`;
    }),
  },
  {
    // Serilog's console sink default template `[{Timestamp:HH:mm:ss} {Level:u3}] {Message:lj}{NewLine}{Exception}`
    id: 'serilog-console',
    source: 'Serilog.Sinks.Console default output template (`[HH:mm:ss LVL] msg` + exception lines; serilog wiki Formatting-Output)',
    render: lines((x) => {
      const lvl = { debug: 'DBG', info: 'INF', warn: 'WRN', error: 'ERR' }[x.level];
      const exc =
        x.err === undefined
          ? ''
          : `\n${head(x.err, 'System.Net.Http.HttpRequestException')}\n   at ModelContextProtocol.Client.McpClient.SendRequestAsync(JsonRpcRequest request, CancellationToken cancellationToken)`;
      return `[${hms(x.at)} ${lvl}] ${said(x)}${exc}`;
    }),
  },
  {
    // Android logcat -v threadtime: `MM-DD HH:MM:SS.mmm  pid  tid L tag: msg`, a throwable one entry per line
    id: 'android-logcat',
    source: 'Android logcat threadtime format (`MM-DD HH:MM:SS.mmm pid tid L Tag: msg`; Log.e with a throwable prints each stack line as an entry)',
    render: (recs) =>
      `${recs
        .map((x) => {
          const pre = `${iso(x.at).slice(5, 23).replace('T', ' ')}  4821  4833 ${up(x.level)[0]} McpClient:`;
          return x.err === undefined
            ? `${pre} ${said(x)}`
            : `${pre} ${said(x)}\n${jvmThrowable(x.err)
                .split('\n')
                .map((l) => `${pre} ${l}`)
                .join('\n')}`;
        })
        .join('\n')}\n`,
  },
];
