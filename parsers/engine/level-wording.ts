// A level from the wording, for lines that log none: `Connection refused`, `Traceback …`,
// `Error POSTing to endpoint`, `Reconnecting in 2s`. Without it an error printed by a bare
// console.error or a prefix-less tool is invisible to everything that filters by level.
// The event says where its level came from (attrs.levelFrom = 'wording'); a logged level always wins,
// and this never runs on a line whose format or prefix gave one.
// A line these words miss but a failure signal fires on (`Killed`, `[SSL: WRONG_VERSION_NUMBER] …`) gets
// its level from the signal after enrich (enrich.ts, attrs.levelFrom = 'signal'): a process death or a
// TLS code is a signal's wording, kept once, in parsers/signals.
//
// Tables, not code: each entry is a regex, the level it gives, why, and examples (tests check
// that each example matches and each near-miss does not). Phrases in NEAR_MISSES are masked
// first: "0 errors", "errors=0", "error_log", "without error" say nothing went wrong.
import type { Level } from '../contract/event.ts';

export interface WordingRule {
  level: 'error' | 'warn';
  re: RegExp;
  why: string;
  examples: readonly string[];
  /** Also read inside a successful JSON-RPC result (only the result's own isError flag is). */
  inRpcResult?: boolean;
}

/** Word edges that also refuse paths, file names and compounds (`/errors`, `error.log`, `error-prone`). */
const L = '(?<![\\w/.\\\\-])';
const R = '(?![\\w]|[/.\\\\-]\\w)';

export const WORDING: readonly WordingRule[] = [
  {
    level: 'error',
    re: new RegExp(
      `${L}(?:fail(?:ed|s|ure|ures)?|errors?|exception|refused|timed out|could ?not|couldn't|unable to|cannot connect|denied|rejected|unauthori[sz]ed|forbidden|panic(?:ked)?|fatal|aborted|crashed|unhealthy|unexpectedly|unreachable|econnrefused|econnreset|etimedout|epipe|enotfound|eai_again)${R}`,
      'gi',
    ),
    why: 'words that report a failure',
    examples: [
      'Connection failed',
      'HTTP request error: boom',
      'connect ECONNREFUSED 127.0.0.1:8080',
      'upstream timed out',
      'Could not connect to server',
      'unable to reach host',
      'Permission denied',
      'MCP server "github" is unhealthy',
      'Session 4f1c crashed',
      'Server session was closed unexpectedly',
    ],
  },
  {
    level: 'error',
    // a timeout reported as what happened (`publish_content timeout`, `Request timeout after 5000ms`,
    // `deadline exceeded`), not a setting (`timeout=30`, `timeout: 30s`, `read timeout 300s`)
    re: new RegExp(`${L}(?:time-?out|timeout error)(?:\\s*[.!]?\\s*$|\\s+(?:after|while|waiting|exceeded|occurred|reached|expired)\\b)|${L}deadline exceeded${R}`, 'gi'),
    why: 'a timeout reported as the outcome, at the end of the message or followed by when it struck',
    examples: [
      'publish_content timeout',
      'Request timeout after 5000ms',
      'rpc error: code = DeadlineExceeded desc = context deadline exceeded',
      'upstream timeout while waiting for headers',
    ],
  },
  {
    level: 'error',
    // hosts localise their own messages (a Chinese or German IDE, a Japanese CLI); the words for
    // error, failed, timeout and refused in the languages MCP users most often report in
    re: /错误|錯誤|失败|失敗|超时|超時|异常|異常|无法连接|無法連接|拒绝连接|エラー|タイムアウト|接続できません|오류|에러|실패|시간 초과|(?<![\w])(?:Fehler|fehlgeschlagen|Zeitüberschreitung|erreur|échec|échoué|délai dépassé|falló|fallido|tiempo de espera agotado|falha|falhou|erro|tempo esgotado|ошибка|ошибки|не удалось|сбой|тайм-аут|отказано)(?![\w])/gi,
    why: 'the same words in the languages hosts localise into (Chinese, Japanese, Korean, German, French, Spanish, Portuguese, Russian)',
    examples: [
      '连接 MCP 服务器失败',
      '错误: 请求超时',
      'MCP サーバーへの接続に失敗しました',
      'MCP 서버 연결 실패',
      'Fehler beim Verbinden mit dem MCP-Server',
      'Erreur de connexion au serveur MCP',
      'Error de red: falló la conexión',
      'Ошибка подключения к серверу MCP',
    ],
  },
  {
    level: 'error',
    re: /\b[A-Z]\w{0,60}(?:Error|Exception)\b|^Traceback \(most recent call last\)/g,
    why: 'an exception type or a Python traceback header',
    examples: ['RuntimeError: MCP client not connected', 'McpError: MCP error -32001: Request timed out', 'Traceback (most recent call last):'],
  },
  {
    level: 'error',
    re: /"isError"\s{0,4}:\s{0,4}true|"error"\s{0,4}:\s{0,4}\{\s{0,4}"code"/g,
    why: 'a tool result flagged isError, or a JSON-RPC error object',
    inRpcResult: true,
    examples: ['{"jsonrpc":"2.0","id":1,"result":{"content":[],"isError":true}}', '{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found"}}'],
  },
  {
    level: 'error',
    re: /\b(?:[Ss]ession|[Tt]ransport|[Ee]ndpoint|[Tt]ool|[Mm]ethod|[Rr]oute|[Rr]esource)s? (?:\S{1,80} )?(?:was )?not found\b|\bNot Found\b|\b404\b[^\n]{0,40}\bnot found\b/g,
    why: '"not found" where it is a failure: a session, transport, tool or route, or the HTTP reason phrase',
    examples: ['Session not found', 'Transport not found for sessionId sess_abcdefghij', 'Not Found: Session not found', 'HTTP 404 page not found'],
  },
  {
    level: 'error',
    // a status list's failure mark (Claude Code's `/mcp`: `✘ failed`; CLIs print `✗ notes (disconnected)`),
    // and a host saying the server went away (Claude Desktop: `Server disconnected. For troubleshooting…`)
    re: /^[ \t]{0,8}(?:[✗✘❌✖⨯]|🔴)|\b[Ss]erver disconnected\b/gmu,
    why: 'a failure mark opening the line, or a host reporting the server disconnected',
    examples: [
      '✗ notes (disconnected)',
      '❌ GatewayConnectionError: Failed to initialize gateway',
      'MCP server "notes": Server disconnected. For troubleshooting guidance, please visit our debugging documentation',
    ],
  },
  {
    level: 'error',
    // what hosts and SDKs print when the other side went quiet, answered garbage or went away, in words the
    // list above lacks: `Server "x" is not responding`, `The MCP server returned an invalid response`,
    // `Unexpected content type: text/html` (typescript-sdk client/streamableHttp.ts), `Connection to the
    // server lost` — and a host naming the server it lost (`MCP server "x" disconnected`)
    re: new RegExp(
      `${L}(?:not responding|stopped responding|(?:did not|didn't|never) respond(?:ed)?|no response (?:from|received|was received)|invalid|malformed|unexpected (?:content[- ]type|status(?: code)?|response|reply|end of|eof|token|character|message|error|server response))${R}|${L}(?:connection|session|stream)(?: [^\\n.;,]{1,80}?)? lost${R}|${L}lost (?:the )?connection${R}|\\b[Ss]erver (?:["'\u201c][^"'\u201d\\n]{1,80}["'\u201d] |[\\w.:-]{1,80} )?(?:has |was |got )?disconnected\\b`,
      'gi',
    ),
    why: 'a silent, garbled or lost peer: not responding, an invalid or malformed answer, an unexpected content type or status, a lost connection, a host naming the server that disconnected',
    examples: [
      'Server orders-remote is not responding',
      'The MCP server returned an invalid response',
      'Unexpected content type: text/html',
      'Connection to MCP server lost',
      'lost connection to upstream',
      'MCP server "orders-remote" disconnected',
      'received a malformed JSON-RPC message',
      'Invalid session ID',
    ],
  },
  {
    level: 'error',
    re: /^npm ERR! /gm,
    why: "npm's own error prefix (an npx-launched bridge such as mcp-remote failing to start)",
    examples: ['npm ERR! code ELIFECYCLE', 'npm ERR! 404 Not Found - GET https://registry.npmjs.org/mcp-remot'],
  },
  {
    level: 'warn',
    re: new RegExp(
      `${L}(?:retrying|will retry|retry(?:ing)? (?:in|after)|re-?connecting|reconnect(?:ing)? (?:in|after)|attempting to reconnect|falling[- ]back|backing off|trying again)${R}`,
      'gi',
    ),
    why: 'something went wrong and is being retried: a warning, unless retries ran out',
    examples: ['Retrying in 2s', 'Recursively reconnecting for reason: falling-back-to-alternate-transport', 'connection lost, reconnecting', 'request failed, will retry'],
  },
  {
    level: 'warn',
    re: /\b[A-Z]\w{0,40}Warning\b|\bWarning:/g,
    why: 'a warning labelled as one (Node process warnings, Python warning categories), whatever words follow',
    examples: ['(node:4242) Warning: An error event has already been emitted on the socket.', 'DeprecationWarning: use the new client'],
  },
];

/** Retry wording whose retries ran out is an error again. */
const GAVE_UP = /\b(?:exhausted|exceeded|giving up|gave up|no more retries)\b/i;

/** Masked before WORDING is read: they mention errors that did not happen, or name a setting. */
export const NEAR_MISSES: { re: RegExp; why: string; examples: readonly string[] } = {
  re: new RegExp(
    [
      // counts and empty values: "0 errors", "no errors", "without error", "errors=0", "error: null", "errors: []"
      `\\b(?:0|no|zero|without(?: any)?|not an?|isn't an?)\\s{1,4}(?:errors?|failures?|failed|exceptions?|invalid|malformed)\\b`,
      `"?\\b(?:errors?|failures?|failed)"?\\s{0,4}[=:]\\s{0,4}(?:0|null|none|nil|false|\\[\\]|\\{\\}|"")(?![\\w.])`,
      // settings and handlers: "Error handling disabled", "exception handler", "error reporting", "error page"
      `\\b(?:error|exception|failure)[ _-]?(?:handl(?:ing|ers?)|reporting|page|rate|budget|threshold|codes?|messages?)\\b`,
      `\\bon[ _-]?(?:error|failure)\\b`,
      // a count of the log's own lines by level (macOS `log show`'s closing statistics: `Default: 12, Info: 0, …,
      // Error: 2, Fault: 0`): how many lines had that level, each one read on its own line
      `\\b(?:Default|Info|Debug|Notice|Trace|Verbose|Warn(?:ings?)?)[ \\t]?[:=][ \\t]{0,40}\\d{1,9},[ \\t]{0,4}(?:[A-Z][a-z]{2,8}[ \\t]?[:=][ \\t]{0,40}\\d{1,9},[ \\t]{0,4}){0,4}(?:Errors?|Faults?|Fatal)[ \\t]?[:=][ \\t]{0,40}\\d{1,9}\\b`,
      `\\bif (?:an? )?(?:error|failure)\\b`,
    ].join('|'),
    'gi',
  ),
  why: 'phrases that say no error happened or name an error setting',
  examples: [
    '0 errors',
    'replicas=1: 12 ok / 0 failed',
    'no errors found',
    'some chatter that is not an error',
    'finished without error',
    'errors=0',
    'error: null',
    '"error":null',
    'Error handling disabled',
    'custom exception handler installed',
    'on_error=ignore',
    'skipped 0 invalid entries',
    'Log      - Default:          12, Info:                0, Debug:             0, Error:          2, Fault:          0',
  ],
};

const MAX_SCAN = 2000;

/**
 * One scan before the rules: every WORDING match contains one of these (case-insensitive), so a
 * line without any is done after a single pass (most lines; a test checks every example passes).
 */
export const PREFILTER =
  /fail|err|exce|refus|time|could|unable|cannot|denied|reject|unauthori|forbid|panic|fatal|abort|crashed|unhealthy|unexpected|npm err|disconnected|respon|invalid|malformed|lost|✗|✘|❌|✖|⨯|🔴|unreach|econn|epipe|enotf|eai_|retr|reconn|fall|back|again|warn|traceback|not found|错误|錯誤|失败|失敗|超时|超時|异常|異常|无法|無法|拒绝|エラー|タイムアウト|接続でき|오류|에러|실패|시간 초과|fehler|fehlgeschlagen|zeitüberschreitung|erreur|échec|échoué|délai|falló|fallido|tiempo de espera|falha|erro|tempo esgotado|ошибк|не удалось|сбой|тайм-аут|отказано/i;

/** Whether [a, b) lies inside a near-miss phrase. Near-miss ranges are computed only when a rule hit. */
function masked(text: string, a: number, b: number): boolean {
  const re = NEAR_MISSES.re;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index <= a && b <= m.index + m[0].length) return true;
    if (m.index > a) break;
    if (m[0].length === 0) re.lastIndex++;
  }
  return false;
}

function firstUnmasked(rule: WordingRule, text: string): boolean {
  const re = rule.re;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (!masked(text, m.index, m.index + m[0].length)) return true;
    if (m[0].length === 0) re.lastIndex++;
  }
  return false;
}

/**
 * The level the wording of a message gives, or null. Retry wording makes a warning (a failure
 * being retried), unless the retries ran out. A successful JSON-RPC result is never an error
 * for the words inside it (tool descriptions and outputs say "error" all the time).
 */
export function levelFromWording(message: string): Level | null {
  const text = message.length > MAX_SCAN ? message.slice(0, MAX_SCAN) : message;
  if (!PREFILTER.test(text)) return null;
  const rpcResult = text.includes('"result"') && text.includes('"jsonrpc"');
  let error = false;
  let warn = false;
  for (const rule of WORDING) {
    if (rule.level === 'error' ? error : warn) continue;
    if (rpcResult && rule.level === 'error' && !rule.inRpcResult) continue;
    if (firstUnmasked(rule, text)) {
      if (rule.level === 'error') error = true;
      else warn = true;
    }
  }
  if (warn && !GAVE_UP.test(text)) return 'warn';
  return error ? 'error' : warn ? 'warn' : null;
}
