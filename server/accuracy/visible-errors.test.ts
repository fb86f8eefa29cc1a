// Visible errors: one-line error reports in the shapes SDKs, hosts, proxies, runtimes, shells and
// init systems print — written from general knowledge of those tools, not from any corpus — each
// analysed alone must be a failure (issue #17 item 5: an error-worded line, an error status or a
// process death is never "nothing failed"). Which decision each gets is the rules' business (their
// own fixtures); this list holds the reading. Lines that look alike but report nothing wrong must
// stay quiet.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCase } from './analyze-case.ts';

const FAILURES: readonly string[] = [
  "curl: (7) Failed to connect to localhost port 8080 after 0 ms: Couldn't connect to server",
  'curl: (52) Empty reply from server',
  'curl: (56) Recv failure: Connection reset by peer',
  'HTTP/1.1 502 Bad Gateway',
  '< HTTP/2 500',
  'Error: connect ECONNREFUSED 127.0.0.1:3000',
  'java.net.ConnectException: Connection refused',
  'Caused by: java.net.SocketTimeoutException: Read timed out',
  'panic: runtime error: invalid memory address or nil pointer dereference',
  "thread 'main' panicked at src/main.rs:42:10:",
  'Exception in thread "main" java.lang.IllegalStateException: MCP client not initialized',
  'E1203 10:15:32.123456    4711 client.go:88] mcp call failed: context deadline exceeded',
  'time="2026-03-01T10:00:00Z" level=error msg="tool call failed" err="EOF"',
  '{"level":"error","msg":"mcp request failed","status":500}',
  '{"severity":"ERROR","message":"upstream connect error or disconnect/reset before headers"}',
  '❌ Failed to connect to MCP server',
  '✖ MCP server "notes" failed to start',
  '[FAIL] mcp-notes: connection closed',
  'CRITICAL: MCP bridge crashed',
  'FATAL: cannot reach https://mcp.example.com/mcp',
  'Unhandled exception: System.Net.Http.HttpRequestException: Connection refused (localhost:5000)',
  'Uncaught (in promise) Error: Request timed out',
  'AxiosError: Request failed with status code 404',
  'Request failed with status code 500',
  "requests.exceptions.ConnectionError: HTTPConnectionPool(host='localhost', port=8000): Max retries exceeded with url: /mcp",
  "aiohttp.client_exceptions.ClientConnectorError: Cannot connect to host localhost:8000 ssl:default [Connect call failed ('127.0.0.1', 8000)]",
  'SyntaxError: Unexpected token \'<\', "<!DOCTYPE "... is not valid JSON',
  'TypeError: fetch failed',
  'Error: spawn npx ENOENT',
  'MCP error -32603: Internal error',
  'io.grpc.StatusRuntimeException: UNAVAILABLE: io exception',
  '连接 MCP 服务器失败: Connection refused',
  '错误: 请求超时',
  'MCP サーバーへの接続に失敗しました',
  'Fehler beim Verbinden mit dem MCP-Server: Zeitüberschreitung',
  'Erreur de connexion au serveur MCP : délai dépassé',
  '2026-03-01 10:00:00 WARN  mcp: tools/call get_weather failed: upstream returned 503',
  '2026-03-01 10:00:00 INFO  mcp: tools/call get_weather -> status=500',
  "[2026-03-01 10:00:00] mcp-server: Error handling request: KeyError: 'arguments'",
  'mcp_1  | Traceback (most recent call last):',
  'Process exited with code 1',
  'Connection closed',
  'Could not connect to MCP server notes',
  'Failed to load tools from server "notes"',
  'MCP server "github" is unhealthy',
  'tool "create_issue" returned an error: 403 Forbidden',
  'Status: 401 Unauthorized',
  'HTTP 429 Too Many Requests',
  'net::ERR_CONNECTION_REFUSED',
  'getaddrinfo ENOTFOUND mcp.internal',
  'SSL: CERTIFICATE_VERIFY_FAILED',
  'x509: certificate signed by unknown authority',
  'dial tcp 10.0.0.5:8080: connect: connection refused',
  '{"level":"info","msg":"call finished","tool":"search","error":"context deadline exceeded"}',
  '{"type":"error","message":"MCP server disconnected"}',
  '{"level":30,"msg":"request done","statusCode":502,"url":"/mcp"}',
  '{"err":{"type":"Error","message":"socket hang up","code":"ECONNRESET"},"msg":"request errored"}',
  'level=info msg="tools/call done" status=503 duration=2.1s',
  '2026-03-01T10:00:00Z INFO  tool call search -> 500 Internal Server Error',
  '[10:00:00] POST /mcp → 502',
  'DEBUG: response status 401 for https://mcp.example.com/mcp',
  '2026-03-01 10:00:00 [DEBUG] mcp.client: received HTTP 400 Bad Request',
  'Error: socket hang up',
  'Error: read ECONNRESET',
  'Error: write EPIPE',
  'Error: Premature close',
  'SocketError: other side closed',
  'UND_ERR_SOCKET',
  'HeadersTimeoutError: Headers Timeout Error',
  'BodyTimeoutError: Body Timeout Error',
  'AbortError: This operation was aborted',
  'DOMException [TimeoutError]: The operation was aborted due to timeout',
  'httpcore.RemoteProtocolError: Server disconnected without sending a response.',
  'anyio.EndOfStream',
  'h11._util.LocalProtocolError: Too much data for declared Content-Length',
  'OSError: [Errno 24] Too many open files',
  'MemoryError',
  'Killed',
  'Segmentation fault (core dumped)',
  'npm ERR! code ELIFECYCLE',
  'exit status 137',
  'OOMKilled',
  'Back-off restarting failed container mcp-server in pod mcp-7d9f',
  'Readiness probe failed: HTTP probe failed with statuscode: 503',
  'upstream connect error or disconnect/reset before headers. reset reason: connection termination',
  'no healthy upstream',
  'Bad Gateway',
  'Gateway Timeout',
  'Service Unavailable',
  '504 Gateway Time-out',
  'The request timed out.',
  'Operation timed out after 30000 milliseconds with 0 bytes received',
  'stream ended unexpectedly',
  'unexpected EOF',
  'broken pipe',
  'i/o timeout',
  'Connection aborted.',
  "RemoteDisconnected('Remote end closed connection without response')",
  'Remote end closed connection without response',
  'ssl.SSLError: [SSL: WRONG_VERSION_NUMBER] wrong version number',
  'MCP error -32000: Connection closed',
  'McpError: MCP error -32602: Invalid params',
  'Tool execution failed',
  'Connection Error - Check if your MCP server is running and proxy token is correct',
  'MCP server "notes": Server disconnected. For troubleshooting guidance, please visit our debugging documentation',
  'Could not attach to MCP server notes',
  'Failed to create client',
  '2026-03-01 10:00:00.000 [info] Connection state: Error Process exited with code 1',
  '2026-03-01 10:00:00.000 [info] Connection state: Error 404 status sending message to https://x.example/mcp: Not Found',
  'MCP server notes: Request timed out',
  '✗ notes (disconnected)',
  'notes: ✘ failed',
  'Status: ✘ failed',
  'Caused by: java.io.IOException: HTTP/1.1 header parser received no bytes',
  '[ERROR] MCP server connection failed',
  'err: transport closed',
  // a TLS client at a plain-HTTP port, a peer's name not on its certificate, a URL scheme no client speaks
  '[SSL: WRONG_VERSION_NUMBER] wrong version number (_ssl.c:1000)',
  'Post "https://127.0.0.1:8080/mcp": http: server gave HTTP response to HTTPS client',
  "Error: Hostname/IP does not match certificate's altnames: Host: localhost. is not in the cert's altnames: DNS:mcp.example.com",
  'Post "localhost:8080/mcp": unsupported protocol scheme "localhost"',
  'unsupported protocol scheme ""',
  // a warning that says the connection to the server failed, naming no call: hosts log connect failures at warn
  '2026-03-01T10:00:00Z WARN notes: could not reach https://notes.example.org/mcp',
  '2026-03-01 10:00:00 WARN  [mcp] Server notes disconnected unexpectedly',
  '2026-03-01 10:00:00 WARNING host.mcp: handshake with notes failed',
  'W0301 10:00:00.000000   311 bridge.go:57] could not initialize MCP session: EOF',
  // a client that gave up following redirects (a loop between proxy and app, http and https), in each library's words
  'Post "https://mcp.example.org/mcp": stopped after 10 redirects',
  'TypeError: fetch failed [cause]: Error: redirect count exceeded',
  'httpx.TooManyRedirects: Exceeded maximum allowed redirects.',
  'requests.exceptions.TooManyRedirects: Exceeded 30 redirects.',
  'curl: (47) Maximum (50) redirects followed',
  'net::ERR_TOO_MANY_REDIRECTS',
  // a count of attempts that says some failed, in no failure word (parsers/engine/tally.ts)
  'docs-index   3/5   OK',
  'status counts for POST /mcp: 200: 9  503: 3',
];

const QUIET: readonly string[] = [
  'Connected to remote server using StreamableHTTPClientTransport',
  'Negotiated protocol version: 2025-11-25',
  'processed 120 requests, 0 errors',
  'Killed 3 idle sessions',
  'exit status 0',
  'mcp-bridge.service: Main process exited, code=exited, status=0/SUCCESS',
  'Fehlerbehandlung aktiviert',
  'tests: 12 ✓ 0 ✗',
  'docs-index   5/5   OK',
  'replicas=1: 12 ok / 0 failed',
  'MCP server listening on :8080',
  'crash reporter enabled',
  // a warning about the host's own business, and one about a retry still under way
  '2026-03-01 10:00:00 WARN  failed to load optional theme file',
  '2026-03-01 10:00:00 WARN  MCP server notes: request failed, will retry',
  '2026-03-01 10:00:00 INFO  http client: follow_redirects=True max_redirects=20',
];

let dir = '';
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'visible-errors-'));
  await analyzeCase.open();
});
afterAll(async () => {
  await analyzeCase.close();
  rmSync(dir, { recursive: true, force: true });
});

async function analyzeLine(line: string, n: number) {
  const p = join(dir, `line-${n}.log`);
  writeFileSync(p, `${line}\n`);
  return analyzeCase({ path: p, id: `line-${n}` });
}

describe('visible errors: a one-line error report is a failure', () => {
  FAILURES.forEach((line, n) => {
    it(line.slice(0, 100), async () => {
      const a = await analyzeLine(line, n);
      expect(a.failures.length, `no failure read from: ${line}`).toBeGreaterThan(0);
      expect(a.decision).not.toBe('no_action');
    });
  });
});

describe('visible errors: look-alikes that report nothing wrong stay quiet', () => {
  QUIET.forEach((line, n) => {
    it(line, async () => {
      const a = await analyzeLine(line, 10_000 + n).catch((e: Error) => ({ failures: [], decision: 'no_action', error: e.message }));
      expect(a.failures.length, `a failure read from: ${line}`).toBe(0);
    });
  });
});
