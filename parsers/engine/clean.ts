import type { Level, Source } from '../contract/event.ts';
import { toLevel } from './apply.ts';
import { W3C_ID, w3cFieldsIn, w3cRule } from './w3c.ts';

// Text hygiene before detection and parsing: terminal escapes and log-viewer/container
// prefixes are removed for parsing (the stored text is the cleaned line; counts are kept).

// CSI (ESC [ … final), OSC (ESC ] … BEL | ESC \), other two-byte ESC sequences, and C1 CSI (\x9b).
// Bounded repetition keeps this linear on hostile input.
const ANSI = /\x1b\[[0-?]{0,64}[ -/]{0,8}[@-~]|\x1b\][^\x07\x1b]{0,4096}(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|\x9b[0-?]{0,64}[ -/]{0,8}[@-~]/g;

export function stripAnsi(line: string): { text: string; stripped: boolean } {
  if (!line.includes('\x1b') && !line.includes('\x9b')) return { text: line, stripped: false };
  return { text: line.replace(ANSI, ''), stripped: true };
}

/**
 * A prefix that wraps every line of a file: `docker compose` service gutters (`api-1  | `),
 * log-viewer line numbers (`  42 | `, `42: `), kubectl/CloudWatch/ECS timestamps before the real line.
 * Detected once per file on a sample of lines; stripped from every line that carries it.
 */
export interface PrefixRule {
  id: string;
  /** What a rule bound to one file was bound with (w3c.ts: the file's `#Fields:`), so a worker can bind it again (prefixRule). */
  arg?: string;
  re: RegExp;
  /** The prefix carries the line's time (capture group 1, RFC 3339): lines whose own text has none take it. */
  stamp?: boolean;
  /** Specific enough to trust on a file of one or two lines (a pasted excerpt). */
  strong?: boolean;
  /** The side whose stream this wrapper is (Heroku's log stream is the app's: its dynos and its router), when nothing in the lines says. */
  source?: Source;
  /**
   * The file's own layout when most lines match it too: then the "prefix" is the application's own
   * first column, not a wrapper (Rust tracing's `<stamp>  INFO target: …`, a gateway's `<stamp>     info
   * request …` pad a level column after the stamp; `docker logs -t` puts one space before the
   * application's line, and an indented line under it — a traceback frame — is not a level column).
   */
  ownLayout?: RegExp;
  /**
   * The layout behind `ownLayout` writes nothing else after this prefix but the bare prefix (curl -v puts `> ` only
   * before its request head, and `>` alone after it; its answer is `< `, its body unprefixed): one line behind the
   * prefix that is neither — a quoted answer, body or log line — shows a wrapper, however many request heads it quotes.
   */
  ownLayoutOnly?: boolean;
  /**
   * A wrapper that is the whole line (a collector's JSON record around the application's line): the line
   * inside and the record's time, or null when this line is no such record. `re` is its cheap first test.
   */
  unwrap?: (line: string) => { text: string; stamp: number | null; level?: Level | null } | null;
  /**
   * A syslog-style header that names the line's writer (`journalctl`'s, RFC 3164's, RFC 5424's): unlike other
   * prefixes it stays on the line through redaction (its host is redacted with the line) and is read when the
   * line is parsed (parse-file.ts): its time, host, identifier and pid go to the event, the application's own
   * line behind it to the formats. Null when this line has no such header.
   */
  header?: (line: string) => LineHeader | null;
  /** A line of the wrapper's own that is no record (a W3C log's `#Fields:` directive): skipped and counted, as a layout's gutter is. */
  skip?: (line: string) => boolean;
}

/** What a syslog-style header says of its line (PrefixRule.header). */
export interface LineHeader {
  /** Where the application's own line starts. */
  end: number;
  /** The header's time as written (a syslog stamp has no year: the line reader dates it by the file's clock). */
  time: string | null;
  host: string | null;
  /** The program that wrote the line (journald's SYSLOG_IDENTIFIER, RFC 3164's TAG, RFC 5424's APP-NAME). */
  ident: string | null;
  pid: string | null;
}

/** A Deployment's pod name: `<name>-<ReplicaSet hash>-<5-character suffix>` (Kubernetes naming). */
const POD = '[a-z0-9](?:[a-z0-9-]{0,200}[a-z0-9])?-[a-z0-9]{6,10}-[a-z0-9]{5}';

const LEVEL_WORD = '(?!(?:TRACE|DEBUG|INFO|SUCCESS|NOTICE|WARNING|WARN|ERROR|CRITICAL|FATAL)\\s)';
// (journalctl writes the month as the locale's %b: `12月` in Japanese and Chinese, `Dez`/`Mär` in German, `déc.` in
// French, `dic` in Spanish — the English ones first; the time behind it is read by the line reader where it can)
const SYSLOG_MONTH =
  '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|1[0-2]月|[1-9]月|Mär|Mai|Okt|Dez|[Jj]anv\\.|[Ff]évr\\.|[Mm]ars|[Aa]vr\\.|[Jj]uin|[Jj]uil\\.|[Aa]oût|[Ss]ept\\.|[Dd]éc\\.|[Ee]ne|[Aa]br|[Aa]go|[Dd]ic)';

/** A line that is one JSON object, parsed; null otherwise (only lines that open with `{"` are tried). */
function jsonRecord(line: string): Record<string, unknown> | null {
  if (!line.startsWith('{"')) return null;
  try {
    const v: unknown = JSON.parse(line);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A collector's time field: RFC 3339 text, or epoch milliseconds (CloudWatch) or seconds. */
function recordTime(v: unknown): number | null {
  const t = typeof v === 'string' ? Date.parse(v) : typeof v === 'number' ? (v > 1e11 ? v : v * 1000) : Number.NaN;
  return Number.isFinite(t) ? t : null;
}

/** One line's reading remembered: the text, the stamp and the origin of a line each ask, one JSON parse serves all three. */
function lastOnly<T>(f: (line: string) => T): (line: string) => T {
  let line: string | null = null;
  let out: T;
  return (l) => {
    if (l !== line) {
      out = f(l);
      line = l;
    }
    return out;
  };
}

/** The application's line inside a collector's record: one line end (the driver keeps the app's `\n`) and colours off. */
const innerLine = (s: string) => stripAnsi(s.replace(/\r?\n$/, '')).text;

/**
 * The docker json-file driver's record (docs.docker.com/engine/logging/drivers/json-file):
 * `{"log":"<line>\n","stream":"stdout|stderr","time":"<RFC 3339 ns>"}` (an `attrs` object may follow).
 */
function dockerJson(line: string): { text: string; stamp: number | null } | null {
  const o = jsonRecord(line);
  if (!o || typeof o.log !== 'string' || (o.stream !== 'stdout' && o.stream !== 'stderr')) return null;
  return { text: innerLine(o.log), stamp: recordTime(o.time) };
}

/** syslog(3) priorities, journald's PRIORITY field: 0 emerg … 7 debug. */
const SYSLOG_PRIORITY: readonly Level[] = ['fatal', 'fatal', 'fatal', 'error', 'warn', 'info', 'info', 'debug'];

/**
 * `journalctl -o json` (and `-o json-seq` without its RS byte), one entry per line (systemd.journal-fields(7)):
 * the line in `MESSAGE`, its time in `__REALTIME_TIMESTAMP` (microseconds since the epoch), its syslog priority in
 * `PRIORITY` — a string, as journalctl writes every field. A MESSAGE journald stored as bytes (an array) is not text.
 */
function journalJson(line: string): { text: string; stamp: number | null; level: Level | null } | null {
  const o = jsonRecord(line);
  if (!o || typeof o.MESSAGE !== 'string' || typeof o.__REALTIME_TIMESTAMP !== 'string') return null;
  const us = Number(o.__REALTIME_TIMESTAMP);
  const p = typeof o.PRIORITY === 'string' ? Number(o.PRIORITY) : Number.NaN;
  return { text: innerLine(o.MESSAGE), stamp: Number.isFinite(us) ? Math.floor(us / 1000) : null, level: SYSLOG_PRIORITY[p] ?? null };
}

// the fields a log shipper's record has around the line (Datadog's reserved attributes, CloudWatch's
// filter-log-events event, Logstash/Vector/Fluent Bit's usual ones): a record with nothing else is an envelope
const ENVELOPE_KEYS = new Set([
  'message',
  'timestamp',
  '@timestamp',
  'date',
  'time',
  'host',
  'hostname',
  'service',
  'status',
  'ddsource',
  'ddtags',
  'source',
  'tags',
  'logStreamName',
  'logGroupName',
  'ingestionTime',
  'eventId',
  'stream',
  'container_name',
  'container_id',
  'pod',
  'namespace',
]);
const ENVELOPE_TIME = ['timestamp', '@timestamp', 'date', 'time'];

/**
 * A cloud logging export's entry, one per line: GCP's LogEntry with the line in `textPayload`
 * (cloud.google.com/logging/docs/reference/v2/rest/v2/LogEntry), or a shipper's record whose only
 * fields are the envelope's and the line in `message` (Datadog-style, CloudWatch's filter-log-events
 * events). A logger's own JSON (a `level`, an `msg`, an HTTP `status` number, request fields) is no envelope.
 */
function cloudEntry(line: string): { text: string; stamp: number | null; level: Level | null } | null {
  if (!line.includes('"textPayload"') && !line.includes('"message"')) return null;
  const o = jsonRecord(line);
  if (!o) return null;
  if (typeof o.textPayload === 'string') return { text: innerLine(o.textPayload), stamp: recordTime(o.timestamp), level: recordLevel(o.severity, o.logName) };
  if (typeof o.message !== 'string' || (o.status !== undefined && typeof o.status !== 'string')) return null;
  for (const k in o) if (!ENVELOPE_KEYS.has(k)) return null;
  const key = ENVELOPE_TIME.find((k) => o[k] !== undefined);
  return key === undefined ? null : { text: innerLine(o.message), stamp: recordTime(o[key]), level: recordLevel(o.status, o.stream ?? o.logStreamName) };
}

const NO_LEVEL_MAP = new Map<string, Level>();
/**
 * A collector's level for the line (LogEntry.severity — DEFAULT is none —, Datadog's `status`), unless the stream alone
 * explains it: GKE's agent gives a line it cannot parse INFO on stdout and ERROR on stderr (logName `…/stdout`,
 * `…/stderr`), Datadog's agent likewise — an INFO line printed to stderr is no error.
 */
function recordLevel(v: unknown, stream: unknown): Level | null {
  const level = typeof v === 'string' ? toLevel(v, NO_LEVEL_MAP) : null;
  if (level === null) return null;
  const s = typeof stream === 'string' ? /(?:^|\/|%2F)(stdout|stderr)$/.exec(stream)?.[1] : undefined;
  return (s === 'stdout' && level === 'info') || (s === 'stderr' && level === 'error') ? null : level;
}

// The syslog-style headers (journalctl(1) OUTPUT MODES; RFC 3164 §4.1; RFC 5424 §6). The time: `short` (and
// RFC 3164) `Mmm dd hh:mm:ss` — journalctl pads the day with 0, RFC 3164 with a space —, `short-precise` with
// microseconds, `short-iso(-precise)` ISO 8601 with an offset (`+0200`, `+02:00` since systemd 254), `short-unix`
// epoch seconds with microseconds. Then `HOSTNAME IDENT[PID]: ` (`IDENT: ` for the kernel and for a sender that
// gave no pid). The host is no level word: `2026-…Z ERROR app: …` is an application's own layout
const SYSLOG_TIME = `${SYSLOG_MONTH} [ 0-3]\\d \\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,6})?`;
const ISO_TIME = '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,9})?(?:Z|[+-]\\d{2}:?\\d{2})';
const UNIX_TIME = '\\d{10}\\.\\d{6}';
const SYSLOG_HEAD = `${LEVEL_WORD}(?<host>[A-Za-z0-9][\\w.:-]{0,254}) ${LEVEL_WORD}(?<ident>[^\\s\\[\\]:]{1,64})`;
// (an ISO or epoch stamp before `host ident: ` without a pid is too close to an application's `<stamp> <level> <logger>: `)
const JOURNAL_HEADER = new RegExp(
  `^(?:<\\d{1,3}>)?(?:(?<time>${SYSLOG_TIME}) ${SYSLOG_HEAD}(?:\\[(?<pid>\\d{1,10})\\])?|(?<time2>${ISO_TIME}|${UNIX_TIME}) ${SYSLOG_HEAD.replace('<host>', '<host2>').replace('<ident>', '<ident2>')}\\[(?<pid2>\\d{1,10})\\]):(?: |$)`,
);
// RFC 5424 §6: `<PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID STRUCTURED-DATA ` (nil values `-`), then MSG. An
// SD-ELEMENT is `[SD-ID PARAM="VALUE" …]`, a value escaping `"`, `\` and `]` with a backslash (§6.3.3)
const SD_ELEMENT = '\\[[^\\s\\]"=]{1,32}(?: [^\\s\\]"=]{1,32}="(?:[^"\\\\]|\\\\.){0,1000}"){0,32}\\]';
const RFC5424_HEADER = new RegExp(
  `^<\\d{1,3}>1 (?<time>\\S{1,64}) (?<host>\\S{1,255}) (?<ident>\\S{1,48}) (?<pid>\\S{1,128}) \\S{1,32} (?:-|(?:${SD_ELEMENT}){1,16})(?: |$)\\uFEFF?`,
);
const nil = (v: string | undefined) => (v === undefined || v === '-' ? null : v);

function journalHeader(line: string): LineHeader | null {
  const m = JOURNAL_HEADER.exec(line);
  if (!m) return null;
  const g = m.groups!;
  return { end: m[0].length, time: g.time ?? g.time2 ?? null, host: g.host ?? g.host2 ?? null, ident: g.ident ?? g.ident2 ?? null, pid: g.pid ?? g.pid2 ?? null };
}

function rfc5424Header(line: string): LineHeader | null {
  const m = RFC5424_HEADER.exec(line);
  if (!m) return null;
  const g = m.groups!;
  return { end: m[0].length, time: nil(g.time), host: nil(g.host), ident: nil(g.ident), pid: nil(g.pid) };
}

export const PREFIX_RULES: readonly PrefixRule[] = [
  // a collector's JSON record around each line (docker's json-file driver; a GCP / Datadog / CloudWatch export):
  // the application's own line is read, the record's time only where that line has none
  { id: 'docker-json', re: /^\{"log":"/, unwrap: lastOnly(dockerJson), stamp: true, strong: true },
  { id: 'journal-json', re: /^\{"(?:__CURSOR|__REALTIME_TIMESTAMP)"/, unwrap: lastOnly(journalJson), stamp: true, strong: true },
  { id: 'cloud-json', re: /^\{"/, unwrap: lastOnly(cloudEntry), stamp: true, strong: true },
  // syslog-style headers: `journalctl`'s (and RFC 3164's, a collector's `<PRI>` before it) and RFC 5424's. A PRI is the
  // sender's facility and severity, not the line's level (systemd forwards a unit's stdout at info)
  { id: 'syslog-5424', re: RFC5424_HEADER, header: rfc5424Header, strong: true },
  { id: 'syslog-header', re: JOURNAL_HEADER, header: journalHeader, strong: true },
  // a GitHub issue paste quoted in markdown (GFM §5.1 block quotes): `> ` before each line, `>` alone for a blank one.
  // curl -v's `> POST /mcp HTTP/1.1` and `> Accept: …` request lines are that file's own layout (and nothing else
  // is: a quoted `> HTTP/1.1 404 Not Found` answer or `> {"jsonrpc"…` body is the quote's)
  {
    id: 'markdown-quote',
    re: /^>(?: |$)/,
    strong: true,
    ownLayoutOnly: true,
    ownLayout:
      /^> (?:[A-Z]{3,10} \S{1,8000} HTTP\/|(?:Host|User-Agent|Accept(?:-[\w]{1,20})?|Content-(?:Type|Length)|Authorization|Connection|Cookie|Origin|Mcp-[\w-]{1,40}|Last-Event-ID|X-[\w-]{1,60}): )/i,
  },
  // Kubernetes CRI container logs (/var/log/containers/*.log): RFC 3339 stamp, stream, partial flag.
  { id: 'cri-container', re: /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})) (?:stdout|stderr) [FP] /, stamp: true, strong: true },
  // Heroku's log stream (`heroku logs`, a Logplex drain; devcenter.heroku.com/articles/logging): the stamp, then the
  // writer — `heroku[router]` (the platform's router: the proxy), `app[web.2]` (a dyno of the app), `heroku[web.1]`
  // (the platform about that dyno) — and `: ` before the line. Each writer stays apart (a dyno is a replica)
  {
    id: 'heroku-logplex',
    source: 'server',
    re: /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})) (?<origin>(?:heroku|app)\[[\w.-]{1,40}\]): /,
    stamp: true,
    strong: true,
  },
  // kubectl logs --prefix
  { id: 'kubectl-prefix', re: /^\[pod\/(?<origin>[\w.-]{1,253})\/[\w.-]{1,253}\] /, strong: true },
  // a Deployment's pod named in brackets by a log shipper or script (`[api-7d9c6b8f4-kq2xw] `, `[pod api-7d9c6b8f4-kq2xw] `):
  // the pod name's shape (ReplicaSet hash, 5-character suffix) is no message's own words
  { id: 'pod-bracket', re: new RegExp(`^\\[(?:pod[ /])?(?<origin>${POD})(?:/[\\w.-]{1,63})?\\] `), strong: true },
  // stern's `pod container message` (one line per pod, all replicas interleaved)
  { id: 'stern', re: new RegExp(`^(?<origin>${POD}) [a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])? (?=\\S)`), strong: true },
  // ECS / CloudWatch console copy: `06-02-2025 03:41:05 PM ` before the application's line.
  { id: 'console-ampm', re: /^\d{2}[-/]\d{2}[-/]\d{4},? \d{1,2}:\d{2}:\d{2}(?:\.\d{1,3})? [AP]M / },
  // CloudWatch Logs export / `aws logs tail`: stamp, tab (or stream name) before the line.
  // (its stamp is the line's time: zap's console encoder writes the same `<stamp>\t` first)
  { id: 'cloudwatch-tab', re: /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2}))\t/, stamp: true },
  // `docker service logs` (swarm): `<service>.<slot>[.<task id>]@<node>` padded, then `    | ` (docker/cli
  // cli/command/service/logs.go taskFormatter: the task id is cut to 12 characters, 25 with --no-trunc).
  // The task id is required (`--no-task-ids` output, `name.1@node`, is too close to an e-mail address
  // before a table's `|`); `.slot.<12 or 25 base-36>@node` is no message's own words; each task stays apart.
  { id: 'swarm-task', re: /^(?<origin>[A-Za-z0-9][\w.-]{0,63}\.\d{1,4}\.[a-z0-9]{12}(?:[a-z0-9]{13})?@[A-Za-z0-9][\w.-]{0,63}) {1,40}\| ?/, strong: true },
  { id: 'compose-service', re: new RegExp(`^${LEVEL_WORD}(?<origin>[A-Za-z0-9][\\w.-]{0,63}(?:[-_]\\d{1,3})?)\\s{1,32}\\| ?`) },
  // the same gutter with compose v2's replica index (`api-1  | `): specific enough for a one-line excerpt
  { id: 'compose-replica', re: new RegExp(`^${LEVEL_WORD}(?<origin>[A-Za-z0-9][\\w.-]{0,63}[-_]\\d{1,3})\\s{1,32}\\| ?`), strong: true },
  // The separator must not be followed by a digit, so `12:00:01 …` is a time, not a gutter.
  { id: 'line-number-gutter', re: /^\s{0,8}\d{1,7}\s{0,4}[|│:](?!\d)\s?/ },
  { id: 'line-number-tab', re: /^\s{0,8}\d{1,7}\t/ },
  // CloudWatch / ECS / kubectl --timestamps: an RFC 3339 stamp followed by the application's own line.
  // Only when the application's own line follows (JSON, or a second date), so a file whose own
  // format starts with an RFC 3339 stamp keeps it.
  { id: 'rfc3339-wrapper', re: /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z)\s(?=\{|\d{4}-\d{2}-\d{2}[ T]|\[\d{4}-\d{2}-\d{2})/, stamp: true, strong: true },
  // `docker logs -t` / `kubectl logs --timestamps`: RFC 3339 with nanoseconds (6–9 digits) and Z before any
  // application line. The stamp is kept as the line's time where the application's line has none, so a
  // format whose own lines start with such a stamp loses nothing.
  {
    id: 'container-timestamps',
    re: /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6,9}Z) (?=.)/,
    stamp: true,
    strong: true,
    ownLayout: /^\S{20,40} {2,}(?:TRACE|DEBUG|INFO|WARN|ERROR|trace|debug|info|warn|error)\s/,
  },
];

/**
 * Whole-file layouts that are not per-line prefixes:
 * - numberLines: a log viewer copied its line numbers onto lines of their own (`2239` between lines);
 * - doubledBlank: every line is followed by a blank one (copied from a web page or a terminal);
 * - fences: the log was pasted inside a markdown code fence (GFM §4.5: a line of three or more backticks or
 *   tildes, maybe an info string such as `log`), as in a GitHub issue; the fence lines are no log lines.
 * Lines that only carry the layout are skipped (counted in FileStats.skippedLines), so they do not
 * break tracebacks or wrapped messages apart.
 */
export interface Layout {
  numberLines: boolean;
  doubledBlank: boolean;
  fences?: boolean;
}

export const NUMBER_LINE = /^\s{0,8}\d{1,7}\s{0,4}$/;
/** A markdown code fence line (GFM §4.5: up to 3 spaces of indent, ``` or ~~~, an info string without backticks). */
export const FENCE_LINE = /^ {0,3}(?:`{3,16}|~{3,16})[\w+.-]{0,32}\s{0,8}$/;

export function detectLayout(sample: readonly string[]): Layout {
  let numbers = 0;
  let sequential = 0;
  let prev: number | null = null;
  let nonBlank = 0;
  let blank = 0;
  let adjacent = 0;
  let lastBlank = true;
  let fences = 0;
  for (const l of sample) {
    if (FENCE_LINE.test(l)) fences++;
    if (l.trim() === '') {
      blank++;
      lastBlank = true;
      continue;
    }
    nonBlank++;
    if (!lastBlank) adjacent++;
    lastBlank = false;
    if (NUMBER_LINE.test(l)) {
      const n = Number(l.trim());
      numbers++;
      if (prev !== null && n === prev + 1) sequential++;
      prev = n;
    }
  }
  return {
    numberLines: numbers >= 3 && numbers / Math.max(1, nonBlank) >= 0.25 && sequential >= (numbers - 1) * 0.8,
    doubledBlank: nonBlank >= 4 && blank >= nonBlank * 0.8 && adjacent <= nonBlank * 0.1,
    // (a fence is opened before the log: the head shows it, the closing one may come past the head)
    fences: fences > 0,
  };
}

/**
 * A whole file indented by the same run of spaces (a log pasted into a list item or a terminal's
 * indented output): every line of the sample carries it, so it is no line's own layout — a traceback
 * or a wrapped message indents some lines, never its first. Stripped like a prefix.
 */
function commonIndent(lines: readonly string[]): PrefixRule | null {
  let indent: string | null = null;
  for (const l of lines) {
    const n = l.length - l.trimStart().length;
    const own = l.slice(0, n);
    if (n < 2 || n > 16 || own.includes('\t')) return null;
    indent = indent === null || own.length < indent.length ? own : indent;
  }
  return indent === null ? null : { id: 'indented', re: new RegExp(`^ {${indent.length}}`), strong: true };
}

export function detectPrefix(sample: readonly string[]): PrefixRule | null {
  // (a markdown fence around a pasted log is the paste's layout, not a line of the log: in a short paste its two
  // lines would outweigh the prefix every log line carries)
  const lines = sample.filter((l) => l.trim() !== '' && !FENCE_LINE.test(l));
  if (!lines.length) return null;
  // one or two lines (a pasted excerpt): only a prefix specific enough to be no message's own words, on every line
  const short = lines.length < 3;
  // (a W3C extended log names its own columns: a wrapper bound to its `#Fields:` directive)
  const w3c = w3cFieldsIn(lines.slice(0, 50));
  const rules = w3c === null ? PREFIX_RULES : [w3cRule(w3c), ...PREFIX_RULES];
  for (const rule of rules) {
    if (short && !rule.strong) continue;
    let hits = 0;
    let own = 0;
    let other = 0;
    for (const l of lines)
      if (rule.re.test(l) && (!rule.unwrap || rule.unwrap(l) !== null)) {
        hits++;
        if (rule.ownLayout?.test(l)) own++;
        else if (rule.ownLayoutOnly && stripPrefix(l, rule).trim() !== '') other++;
      }
    if (own > hits / 2 && other === 0) continue;
    if (short ? hits === lines.length : hits / lines.length >= 0.8) return rule;
  }
  // (after the rules: a line-number gutter pads its numbers, and is stripped whole by its own rule)
  return commonIndent(lines);
}

/** A rule by its id (and what it was bound with), as a worker receives it. */
export function prefixRule(id: string | null, arg: string | null | undefined): PrefixRule | null {
  if (id === null) return null;
  if (id === W3C_ID) return arg ? w3cRule(arg) : null;
  return PREFIX_RULES.find((r) => r.id === id) ?? null;
}

/** The time a stamp-carrying prefix gives this line (ms), or null. */
export function prefixStamp(line: string, rule: PrefixRule | null): number | null {
  if (!rule?.stamp) return null;
  if (rule.unwrap) return rule.unwrap(line)?.stamp ?? null;
  const m = rule.re.exec(line);
  if (!m?.[1]) return null;
  const t = Date.parse(m[1]);
  return Number.isNaN(t) ? null : t;
}

/** The level a collector's record gave this line (cloud-json), or null. */
export function prefixLevel(line: string, rule: PrefixRule | null): Level | null {
  return rule?.unwrap?.(line)?.level ?? null;
}

/**
 * Who wrote this line, when the prefix names it (kubectl --prefix's pod, compose's service and replica
 * index): kept per line as attrs.origin, so replicas stay apart after the prefix is stripped.
 */
export function prefixOrigin(line: string, rule: PrefixRule | null): string | null {
  if (!rule) return null;
  const [outer, rest] = splitPrefix(line, rule);
  if (rest === null) return null;
  // the pod under an outer wrapper names the writer more closely than a compose service around it
  const inner = innerPod(rule, rest);
  return inner?.groups?.origin ?? outer?.groups?.origin ?? null;
}

/** The wrapper's match (none for a whole-line record) and the line inside it, or null when this line has no such wrapper. */
function splitPrefix(line: string, rule: PrefixRule): [RegExpExecArray | null, string | null] {
  if (rule.unwrap) return [null, rule.unwrap(line)?.text ?? null];
  const m = rule.re.exec(line);
  return m ? [m, line.slice(m[0].length)] : [null, null];
}

/** Prefixes that name a pod (kubectl --prefix, a bracketed pod name, stern), also when another wrapper (a shipper's stamp, a compose gutter) comes first. */
const POD_PREFIXES = PREFIX_RULES.filter((r) => r.id === 'kubectl-prefix' || r.id === 'pod-bracket' || r.id === 'stern').map((r) => r.re);
/** …and a compose replica's or swarm task's gutter (`notes-api-2  | `) under a stamp or another service's gutter. */
const INNER_PREFIXES = [...POD_PREFIXES, ...PREFIX_RULES.filter((r) => r.id === 'compose-replica' || r.id === 'swarm-task').map((r) => r.re)];
/**
 * Under a pod's prefix, only a bracketed one names another writer (a collector pod printing the lines it gathered:
 * `[pod/collector/c] [pod/api-…/app] …`); stern's bare `pod container` shape there could be a message's own words.
 */
const UNDER_POD = INNER_PREFIXES.filter((re) => re !== PREFIX_RULES.find((r) => r.id === 'stern')!.re);
function innerPod(outer: PrefixRule, rest: string): RegExpExecArray | null {
  for (const re of POD_PREFIXES.includes(outer.re) ? UNDER_POD : INNER_PREFIXES) {
    const m = re.exec(rest);
    if (m) return m;
  }
  return null;
}

/**
 * A header rule's reading of a line as it comes to be parsed (redacted): the header's fields and the
 * application's own line behind it (a pod's prefix there taken off too), or null when the line has no header.
 */
export function readHeader(line: string, rule: PrefixRule): { header: LineHeader; rest: string } | null {
  const header = rule.header?.(line);
  if (!header) return null;
  const rest = line.slice(header.end);
  const inner = innerPod(rule, rest);
  return { header, rest: inner ? rest.slice(inner[0].length) : rest };
}

export function stripPrefix(line: string, rule: PrefixRule | null): string {
  if (!rule) return line;
  const [, rest] = splitPrefix(line, rule);
  if (rest === null) return line;
  const inner = innerPod(rule, rest);
  return inner ? rest.slice(inner[0].length) : rest;
}
