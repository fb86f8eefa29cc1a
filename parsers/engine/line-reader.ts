// The line reader: what the leading tokens of a line say, whatever their order and padding.
// Formats read whole layouts; real logs mix them (a logger before the level, a host and pid before
// it, a compose gutter on some lines only, glog, tornado, syslog, logfmt…). This reads the head of a
// line token by token — timestamps, levels, logger, pid, thread, host, container — and stops at the
// first thing that is not one: the rest is the message. It runs on raw lines and on format lines
// whose format left the time or the level empty (parse-file.ts), and fills only what is empty.
//
// Every token is a sticky regex tried at one position, bounded, so a hostile line costs
// O(tokens × rules × bound). Words that might be a host or a logger (`web-01`, `mcp.client`) are
// held until a strong token (a level, a pid) confirms them; unconfirmed, they are message.
import type { Event, Level } from '../contract/event.ts';
import { toLevel, type CompiledFormat, type Parsed } from './apply.ts';
import { levelFromWording } from './level-wording.ts';
import { parseTimestamp, type YearRef, yearlessUtc } from './timestamp.ts';

export interface LinePrefix {
  /** Epoch ms; a time of day alone gets the date of `clock` (the file's last own time), else stays null. */
  ts: number | null;
  /** A time of day read without a date and without a clock to date it (ts stays null). */
  time: string | null;
  level: Level | null;
  logger: string | null;
  pid: string | null;
  host: string | null;
  thread: string | null;
  /** docker compose service / kubectl pod a per-line gutter named (`api-1  | `, `[pod/x/y] `). */
  container: string | null;
  /** Source location glog writes (`file.go:42`). */
  location: string | null;
  /** Index in the line where the message starts (0 when nothing was read). */
  end: number;
  /** The rest of the line after the tokens (a logfmt `msg=` value unquoted). May be empty. */
  message: string;
}

// ---------------------------------------------------------------------------------------------
// Level words. Longest first in each alternation (WARNING before WARN). Single letters are never
// level words here: only the glog and tornado layouts, where the letter's position is fixed, read them.
export const LEVEL_WORDS = [
  'TRACE',
  'DEBUG',
  'DBUG',
  'DBG',
  'INFORMATION',
  'INFO',
  'INF',
  'NOTICE',
  'WARNING',
  'WARN',
  'WRN',
  'ERROR',
  'EROR',
  'ERR',
  'FATAL',
  'CRITICAL',
  'CRIT',
  'ALERT',
  'EMERGENCY',
  'EMERG',
  'PANIC',
  'SEVERE',
  'FINEST',
  'FINER',
  'FINE',
  'CONFIG',
  'VERBOSE',
  'SUCCESS',
  'LOG', // NestJS Logger, PostgreSQL, console.log in IDE output channels
];
const UPPER = LEVEL_WORDS.join('|');
const LOWER = LEVEL_WORDS.map((w) => w.toLowerCase()).join('|');
const TITLE = LEVEL_WORDS.map((w) => w[0] + w.slice(1).toLowerCase()).join('|');
/** Spellings toLevel does not guess (java.util.logging, loguru, .NET). */
const EXTRA_LEVELS: Record<string, Level> = {
  severe: 'error',
  finest: 'trace',
  finer: 'trace',
  fine: 'debug',
  config: 'info',
  success: 'info',
  inf: 'info',
  emergency: 'fatal',
  information: 'info',
  log: 'info',
};
const NO_LEVELS = new Map<string, Level>();

function levelWord(w: string): Level | null {
  const s = w.toLowerCase();
  return EXTRA_LEVELS[s] ?? toLevel(s, NO_LEVELS);
}

// A docker compose service's or kubectl pod's gutter (`api-1  | `, `[pod/x/y] `): see the `container` token.
const GUTTER = /(?:\[pod\/([\w.-]{1,253}\/[\w.-]{1,253})\]|([A-Za-z0-9][\w.-]{0,63}[-_]\d{1,3}) {1,32}\||([A-Za-z0-9][\w.-]{0,63}) {2,32}\|)(?= )/y;
const gutterName = (m: RegExpExecArray): string | null => {
  const name = m[1] ?? m[2] ?? m[3]!;
  return !m[1] && levelWord(name) ? null : name;
};

/** syslog / systemd `<N>` priority: severity is N mod 8. */
const SYSLOG_SEVERITY: readonly Level[] = ['fatal', 'fatal', 'fatal', 'error', 'warn', 'info', 'info', 'debug'];
const GLOG_LEVEL: Record<string, Level> = { I: 'info', W: 'warn', E: 'error', F: 'fatal' };
const TORNADO_LEVEL: Record<string, Level> = { D: 'debug', I: 'info', W: 'warn', E: 'error', C: 'fatal' };
const MONTHS: Record<string, number> = { Jan: 0, Feb: 1, Mar: 2, Apr: 3, May: 4, Jun: 5, Jul: 6, Aug: 7, Sep: 8, Oct: 9, Nov: 10, Dec: 11 };
const DAY = 86_400_000;

// ---------------------------------------------------------------------------------------------
// State of one read: what was found, and the words held until something confirms them.
interface State {
  line: string;
  clock: YearRef;
  out: LinePrefix;
  /** Index of the token being read (0 = first). */
  token: number;
  /** The previous token was a level (Spring's pid follows it). */
  afterLevel: boolean;
  /** Spring Boot's `---` was read: the next bracket is the thread. */
  dashes: boolean;
  /** A syslog timestamp was read: the next word is the host, then `tag[pid]:`. */
  syslog: boolean;
  /** Held words (host or logger candidates) and brackets (thread or logger), oldest first. */
  held: { kind: 'word' | 'logger' | 'bracket' | 'meta'; value: string; start: number; traced: number }[];
  /** logfmt `msg=`: the message starts here (the value, unquoted) and reading stops. */
  msgAt: number;
  /** Rules traced so far (tests): held tokens that nothing confirms are taken back off the trace. */
  traced: number;
  /** A logfmt key was read (other `key=value` pairs may then be passed over to find `msg=`). */
  kv: boolean;
  /** The first `key=value` passed over: the message starts there when no `msg=` follows. */
  kvSkipAt: number;
}

/** A line and what reading it must give (`ts` as ISO text; clock 2026-01-30T09:00:00Z). */
export type ReaderExample = readonly [string, Partial<Record<keyof LinePrefix, string>>];

interface Rule {
  id: string;
  /** Lines this rule must fire on, and a subset of what the whole reading gives (tests check both). */
  examples: readonly ReaderExample[];
  /** Lines this rule must not fire on. */
  nearMisses: readonly string[];
  /** Sticky (`y`), bounded. */
  re: RegExp;
  /** Cheap pre-check on the first character code, before the regex. */
  first: (c: number) => boolean;
  /** Take the match into the state; false declines it (the next rule is tried). */
  take: (m: RegExpExecArray, st: State) => boolean;
}

const isDigit = (c: number) => c >= 48 && c <= 57;
const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;
const isAlpha = (c: number) => isUpper(c) || isLower(c);
const isWordStart = (c: number) => isAlpha(c) || c === 95 /* _ */;
const OPEN_BRACKET = 91; // [

function strong(st: State): boolean {
  const o = st.out;
  return o.ts !== null || o.time !== null || o.level !== null || o.pid !== null || o.container !== null;
}

function setLevel(st: State, l: Level | null): boolean {
  if (!l || st.out.level !== null) return false;
  st.out.level = l;
  st.afterLevel = true;
  confirmHeld(st, true);
  return true;
}

function setTs(st: State, ts: number | null): boolean {
  if (ts === null || st.out.ts !== null || st.out.time !== null) return false;
  st.out.ts = ts;
  return true;
}

/**
 * A strong token confirms the held words: before a level, a bracket is the thread (`[main] INFO`);
 * a word with a pid after it is the host; a lone word is the logger when it looks like one
 * (dots, underscores: `mcp.client`) and the host otherwise (`web-01`).
 */
function confirmHeld(st: State, byLevel: boolean): void {
  const o = st.out;
  for (const h of st.held) {
    // (metadata pairs before the level say nothing of the line's time, level or origin: passed over)
    if (h.kind === 'meta') continue;
    if (h.kind === 'bracket') {
      if (byLevel) o.thread ??= h.value;
      else o.logger ??= h.value;
    } else if (h.kind === 'logger') o.logger ??= h.value;
    else if (!byLevel || /[._:]/.test(h.value) === false || /^\d{1,3}(?:\.\d{1,3}){3}$/.test(h.value)) o.host ??= h.value;
    else o.logger ??= h.value;
  }
  st.held.length = 0;
}

/** A time of day, dated by the clock (the next day when it went back more than 12 h: midnight passed). */
function timeOfDay(st: State, text: string, h: string, mi: string, s: string, frac: string | undefined): boolean {
  if (st.out.ts !== null || st.out.time !== null) return false;
  const tod = ((+h * 60 + +mi) * 60 + +s) * 1000 + (frac ? Number((frac + '00').slice(0, 3)) : 0);
  if (+h > 23 || +mi > 59 || +s > 60) return false;
  if (st.clock === null || st.clock === 'none') {
    st.out.time = text;
    return true;
  }
  let ts = Math.floor(st.clock / DAY) * DAY + tod;
  if (ts < st.clock - DAY / 2) ts += DAY;
  st.out.ts = ts;
  return true;
}

/** A date logged without its year (syslog, glog): the year the clock gives it (timestamp.ts YearRef). */
function yearless(st: State, mon: number, day: number, h: number, mi: number, s: number, msec: number): number | null {
  return yearlessUtc(mon, day, h, mi, s, msec, st.clock);
}

function ms(frac: string | undefined): number {
  return frac ? Number((frac + '00').slice(0, 3)) : 0;
}

const LEVEL_ALT_ANY = `${UPPER}|${LOWER}|${TITLE}`;

export const RULES: readonly Rule[] = [
  {
    // `<3>msg` (systemd, kernel, syslog PRI): first token only.
    id: 'syslog-priority',
    examples: [
      ['<3>disk failed', { level: 'error', message: 'disk failed' }],
      ['<134>GET /health', { level: 'info' }],
    ],
    nearMisses: ['<html> page', 'a <3> b'],
    re: /<(\d{1,3})>/y,
    first: (c) => c === 60,
    take: (m, st) => st.token === 0 && +m[1]! < 192 && setLevel(st, SYSLOG_SEVERITY[+m[1]! % 8]!),
  },
  {
    // glog: `E1201 12:00:01.123456 123 file.go:42] msg` (level letter, MMDD, time, thread id, location).
    id: 'glog',
    examples: [
      [
        'E1201 12:00:01.123456 4242 server.go:42] connection refused',
        { ts: '2025-12-01T12:00:01.123Z', level: 'error', thread: '4242', location: 'server.go:42', message: 'connection refused' },
      ],
      ['I0130 08:59:59.000001 7 main.go:9] serving', { level: 'info', ts: '2026-01-30T08:59:59.000Z' }],
    ],
    nearMisses: ['E1301 12:00:01.123 1 a.go:1] month 13', 'Error 12:00:01 1 a.go:1] x'],
    re: /([IWEF])(\d{2})(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))? {1,8}(\d{1,10}) ([^\s\]]{1,300}:\d{1,7})\]/y,
    first: (c) => c === 73 || c === 87 || c === 69 || c === 70,
    take: (m, st) => {
      if (st.token !== 0 || +m[2]! < 1 || +m[2]! > 12) return false;
      st.out.ts = yearless(st, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, ms(m[7]));
      st.out.level = GLOG_LEVEL[m[1]!]!;
      st.out.thread = m[8]!;
      st.out.location = m[9]!;
      return true;
    },
  },
  {
    // Ruby's Logger::Formatter (stdlib, the Ruby MCP SDK and Rails): `E, [2026-01-30T08:53:44.123456 #4242] ERROR -- progname: msg`.
    id: 'ruby-logger',
    examples: [
      [
        'E, [2026-01-30T08:53:44.123456 #4242] ERROR -- mcp: POST /mcp -> 404',
        { ts: '2026-01-30T08:53:44.123Z', level: 'error', pid: '4242', logger: 'mcp', message: 'POST /mcp -> 404' },
      ],
      ['I, [2026-01-30T08:53:44.000001 #7]  INFO -- : serving', { level: 'info', pid: '7', message: 'serving' }],
    ],
    nearMisses: ['E, [not a time #1] ERROR -- : x', 'X, [2026-01-30T08:53:44.1 #1] ERROR -- : x'],
    re: /([DIWEFA]), \[(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?) #(\d{1,10})\] {1,8}([A-Z]{3,7}) -- ([^\s:]{0,200}): ?/y,
    first: (c) => c === 68 || c === 73 || c === 87 || c === 69 || c === 70 || c === 65,
    take: (m, st) => {
      if (st.token !== 0) return false;
      const level = levelWord(m[4]!) ?? (m[4] === 'ANY' ? 'info' : null);
      const ts = parseTimestamp(`${m[2]!}Z`);
      if (level === null || ts === null) return false;
      st.out.ts = ts;
      st.out.level = level;
      st.out.pid = m[3]!;
      if (m[5]) st.out.logger = m[5];
      return true;
    },
  },
  {
    // tornado: `[E 250520 23:53:44 web:2250] msg`; mcp-proxy: `[D 2025-05-20 23:53:44,060.060 mcp_proxy.__main__] msg`.
    id: 'tornado',
    examples: [
      ['[E 260130 08:53:44 web:2250] 500 POST /mcp (ip-abc) 2.10ms', { ts: '2026-01-30T08:53:44.000Z', level: 'error', logger: 'web', message: '500 POST /mcp (ip-abc) 2.10ms' }],
      ['[D 2026-01-30 08:53:44,060.060 mcp_proxy.__main__] Starting', { ts: '2026-01-30T08:53:44.060Z', level: 'debug', logger: 'mcp_proxy.__main__', message: 'Starting' }],
    ],
    nearMisses: ['[X 260130 08:53:44 web:1] not a level letter', '[E] boom'],
    re: /\[([DIWEC]) (\d{6}|\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,6}))?(?:[.,]\d{1,6})? ([^\s\]]{1,200})\]/y,
    first: (c) => c === OPEN_BRACKET,
    take: (m, st) => {
      if (st.out.level !== null || st.out.ts !== null) return false;
      const d = m[2]!;
      const [y, mo, da] = d.length === 6 ? [2000 + +d.slice(0, 2), +d.slice(2, 4), +d.slice(4, 6)] : [+d.slice(0, 4), +d.slice(5, 7), +d.slice(8, 10)];
      st.out.ts = Date.UTC(y, mo - 1, da, +m[3]!, +m[4]!, +m[5]!, ms(m[6]));
      st.out.level = TORNADO_LEVEL[m[1]!]!;
      st.out.logger = m[7]!.replace(/:\d{1,7}$/, '');
      return true;
    },
  },
  {
    // logfmt and friends: `level=error`, `lvl=warn`, `severity=ERROR`, `level=50` (pino), `pid=123`,
    // `time=…`, `host=…`, `logger=…`; `msg=` ends the prefix (its value is the message).
    id: 'key-value',
    examples: [
      ['level=error msg="tool call failed" tool=create_order', { level: 'error', message: 'tool call failed tool=create_order' }],
      ['time=2026-01-30T08:00:00Z lvl=warn pid=42 msg=retrying', { ts: '2026-01-30T08:00:00.000Z', level: 'warn', pid: '42', message: 'retrying' }],
      ['level=50 msg=boom', { level: 'error', message: 'boom' }],
    ],
    nearMisses: ['status=500 upstream failed', 'levels=3 configured'],
    re: /(time|ts|t|timestamp|level|lvl|severity|loglevel|log_level|pid|host|hostname|logger|thread|tid|caller|msg|message)=("[^"\n]{0,200}"|[^\s"]{1,200})/y,
    first: (c) => c === 116 || c === 108 || c === 115 || c === 112 || c === 104 || c === 109 || c === 99,
    take: (m, st) => {
      const k = m[1]!;
      st.kv = true;
      const raw = m[2]!;
      const v = raw.startsWith('"') ? raw.slice(1, -1) : raw;
      const o = st.out;
      if (k === 'msg' || k === 'message') {
        st.msgAt = m.index + k.length + 1;
        return true;
      }
      if (k === 'level' || k === 'lvl' || k === 'severity' || k === 'loglevel' || k === 'log_level')
        return setLevel(st, /^\d{1,3}$/.test(v) ? toLevel(Number(v), NO_LEVELS) : levelWord(v));
      if (k === 'time' || k === 'ts' || k === 't' || k === 'timestamp') return setTs(st, parseTimestamp(v, st.clock));
      if (k === 'pid') return o.pid === null && /^\d{1,10}$/.test(v) && !!(o.pid = v);
      if (k === 'host' || k === 'hostname') return o.host === null && !!(o.host = v);
      if (k === 'logger') return o.logger === null && !!(o.logger = v);
      if (k === 'caller') return o.location === null && !!(o.location = v);
      return o.thread === null && !!(o.thread = v);
    },
  },
  {
    // Elixir's Logger (`$time $metadata[$level] $message`) and others print `key=value` metadata between the time
    // and the level: after a time, before any level, held until a level confirms them (unconfirmed, message).
    id: 'metadata-before-level',
    examples: [
      ['14:05:10.403 request_id=GI2m7c1pX0oQb rpc_id=7 [info] tools/call get_invoice', { level: 'info', message: 'tools/call get_invoice' }],
      ['2026-12-09 14:05:10.403 module=Billing.Refunds line=88 [error] refund failed', { level: 'error', message: 'refund failed' }],
    ],
    nearMisses: ['request_id=abc [info] no time before it'],
    re: /[A-Za-z_][\w.-]{0,40}=(?:"[^"\n]{0,400}"|[^\s"\[]{1,400})(?= )/y,
    first: isWordStart,
    take: (m, st) => {
      if (st.kv || st.out.level !== null || (st.out.ts === null && st.out.time === null)) return false;
      if (st.held.length >= 8 || st.held.some((h) => h.kind !== 'meta')) return false;
      st.held.push({ kind: 'meta', value: m[0], start: m.index, traced: st.traced });
      return true;
    },
  },
  {
    // Other logfmt pairs (`component=x`, `request_id=…`) once a logfmt key was read: passed over to find `msg=`.
    id: 'key-value-other',
    examples: [
      ['level=info component=proxy request_id=abc msg=ok', { level: 'info', message: 'ok' }],
      ['level=warn component=proxy slow', { level: 'warn', message: 'component=proxy slow' }],
    ],
    nearMisses: ['component=proxy msg=ok'],
    re: /[A-Za-z_][\w.-]{0,40}=(?:"[^"\n]{0,400}"|[^\s"]{0,400})(?= |$)/y,
    first: isWordStart,
    take: (m, st) => {
      if (!st.kv) return false;
      if (st.kvSkipAt < 0) st.kvSkipAt = m.index;
      return true;
    },
  },
  {
    // ISO-like date and time, optionally bracketed: `2026-01-30 14:17:19`, `[2026-01-30T14:17:19.123Z]`,
    // `2026-03-19T21:33:47.310-06:00`, `2025-05-20 23:53:44,060.060` (asctime + msecs).
    id: 'iso-time',
    examples: [
      ['2026-01-30 14:17:19 [ERROR]', { ts: '2026-01-30T14:17:19.000Z', level: 'error', message: '' }],
      ['[2026-01-30T14:17:19.123Z] [info] [mcp-client] connected', { ts: '2026-01-30T14:17:19.123Z', level: 'info', logger: 'mcp-client', message: 'connected' }],
      ['2026-01-30 08:53:44,060.060 INFO x', { ts: '2026-01-30T08:53:44.060Z' }],
    ],
    nearMisses: ['2026-01-30 is the date of the release', '2026-01-30T14:17:19Zulu time'],
    re: /\[?(\d{4}[-/]\d{2}[-/]\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?)(?:[.,]\d{1,9})?(\s?(?:Z|[+-]\d{2}:?\d{2}|UTC))?\]?(?![\w:])/y,
    first: (c) => isDigit(c) || c === OPEN_BRACKET,
    take: (m, st) => setTs(st, parseTimestamp(m[1]! + (m[2] ?? ''), st.clock)),
  },
  {
    // `06-02-2025 03:41:05 PM` (ECS console), `11/29/26 10:00:01` (Rich): month first, as timestamp.ts reads them.
    id: 'us-date-time',
    examples: [
      ['06-02-2025 03:41:05 PM INFO started', { ts: '2025-06-02T15:41:05.000Z', level: 'info', message: 'started' }],
      ['[11/29/25 10:00:01] WARNING slow', { ts: '2025-11-29T10:00:01.000Z', level: 'warn' }],
    ],
    nearMisses: ['06-02-2025 03:41:05 P', '13-02-2025 03:41:05 INFO month 13'],
    // A meridian cut off (`03:41:05 P`, a truncated copy) leaves the hour unknown: not read.
    re: /\[?(\d{2})[-/](\d{2})[-/](\d{4}|\d{2}),? (\d{1,2}):(\d{2}):(\d{2})(?:[.,](\d{1,6}))?(?: ([AP]M))?\]?(?![\w:]| [AP](?![^\s.]))/y,
    first: (c) => isDigit(c) || c === OPEN_BRACKET,
    take: (m, st) => {
      const mo = +m[1]!;
      let h = +m[4]!;
      if (mo < 1 || mo > 12 || h > 23) return false;
      if (m[8] === 'PM' && h < 12) h += 12;
      if (m[8] === 'AM' && h === 12) h = 0;
      const y = m[3]!.length === 2 ? 2000 + +m[3]! : +m[3]!;
      return setTs(st, Date.UTC(y, mo - 1, +m[2]!, h, +m[5]!, +m[6]!, ms(m[7])));
    },
  },
  {
    // Epoch seconds with a fraction (journalctl -o short-unix) or milliseconds, as the first token.
    id: 'epoch',
    examples: [['1716200000.123 web-01 app[1]: hi', { ts: '2024-05-20T10:13:20.123Z', host: 'web-01', logger: 'app', pid: '1', message: 'hi' }]],
    nearMisses: ['1716200000 items processed'],
    re: /(\d{10}\.\d{3,9}|\d{13})(?!\S)/y,
    first: isDigit,
    take: (m, st) => st.token === 0 && setTs(st, parseTimestamp(m[1]!, st.clock)),
  },
  {
    // A time of day alone: `14:21:07`, `12:00:01.123`, `[10:00:00]`.
    id: 'time-of-day',
    examples: [
      ['14:21:07  "POST /mcp HTTP/2" 307', { ts: '2026-01-30T14:21:07.000Z', message: '"POST /mcp HTTP/2" 307' }],
      ['12:00:01.123 [main] INFO  c.e.App - started', { ts: '2026-01-30T12:00:01.123Z' }],
      ['01:00:00 INFO earlier the same day', { ts: '2026-01-30T01:00:00.000Z' }],
    ],
    nearMisses: ['12:61:00 not a time', '10:00:01:02 a counter'],
    re: /\[?((\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?)\]?(?![\w:])/y,
    first: (c) => isDigit(c) || c === OPEN_BRACKET,
    take: (m, st) => timeOfDay(st, m[1]!, m[2]!, m[3]!, m[4]!, m[5]),
  },
  {
    // java.util.logging's SimpleFormatter (the JDK default, `%1$tb %1$td, %1$tY %1$tl:%1$tM:%1$tS %1$Tp %2$s%n%4$s: %5$s`):
    // `Nov 26, 2026 1:39:58 PM com.example.Client send` heads each record; the level and message are the next line
    // (`SEVERE: …`), which takes this time as the line above's; the source class and method stay its message.
    id: 'jul-simple',
    examples: [
      ['Nov 26, 2026 1:39:58 PM com.example.legal.mcp.McpClient send', { ts: '2026-11-26T13:39:58.000Z', message: 'com.example.legal.mcp.McpClient send' }],
      ['Dec 5, 2026 12:02:03 AM org.acme.Sync run', { ts: '2026-12-05T00:02:03.000Z' }],
    ],
    nearMisses: ['Nov 26, 2026 13:39:58 PM hour 13', 'Nov 26 2026 1:39:58 PM no comma'],
    re: /([A-Z][a-z]{2}) (\d{1,2}), (\d{4}) (\d{1,2}):(\d{2}):(\d{2}) ([AP]M)(?!\S)/y,
    first: isUpper,
    take: (m, st) => {
      const mon = MONTHS[m[1]!];
      let h = +m[4]!;
      if (mon === undefined || h < 1 || h > 12) return false;
      if (m[7] === 'PM' && h < 12) h += 12;
      if (m[7] === 'AM' && h === 12) h = 0;
      return setTs(st, Date.UTC(+m[3]!, mon, +m[2]!, h, +m[5]!, +m[6]!));
    },
  },
  {
    // syslog: `Dec  1 10:00:00` (no year: the clock's, else this year); the host and `tag[pid]:` follow.
    id: 'syslog-time',
    examples: [
      ['Dec  1 10:00:00 myhost sshd[42]: accepted', { ts: '2025-12-01T10:00:00.000Z', host: 'myhost', logger: 'sshd', pid: '42', message: 'accepted' }],
      ['Jan 30 08:00:00 host-k3jd8a7q2x app: ready', { ts: '2026-01-30T08:00:00.000Z', host: 'host-k3jd8a7q2x', logger: 'app' }],
    ],
    nearMisses: ['Foo  1 10:00:00 not a month', 'Dec 1st 10:00:00'],
    re: /([A-Z][a-z]{2}) {1,2}(\d{1,2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(?!\S)/y,
    first: isUpper,
    take: (m, st) => {
      const mon = MONTHS[m[1]!];
      if (mon === undefined || !setTs(st, yearless(st, mon, +m[2]!, +m[3]!, +m[4]!, +m[5]!, ms(m[6])))) return false;
      st.syslog = true;
      return true;
    },
  },
  {
    // `[error]`, `[WARNING]`, `[ Info ]`, `<ERROR>`.
    id: 'level-bracketed',
    examples: [
      ['[WARNING] src.infra.tool.mcp_client - MCP tool timed out', { level: 'warn', logger: 'src.infra.tool.mcp_client', message: 'MCP tool timed out' }],
      ['<ERROR> boom', { level: 'error', message: 'boom' }],
      ['[ Info ] ready', { level: 'info' }],
    ],
    nearMisses: ['[Errors] were found', '[Local→Remote] initialize'],
    re: new RegExp(`[\\[<] {0,8}(${LEVEL_ALT_ANY}) {0,8}[\\]>]:?(?!\\w)`, 'y'),
    first: (c) => c === OPEN_BRACKET || c === 60,
    take: (m, st) => setLevel(st, levelWord(m[1]!)),
  },
  {
    // A tool's name and level in one bracket: wrangler / miniflare `[wrangler:inf] GET /mcp 200 OK (3ms)`,
    // `[mf:wrn]` (miniflare's Log: `[${prefix}:${LEVEL_PREFIX}]`, err/wrn/inf/dbg/vrb), and the
    // spelled-out `[wrangler:info]` of later wrangler releases. The name is the logger.
    id: 'name-level-bracketed',
    examples: [
      ['[wrangler:inf] GET /mcp 405 Method Not Allowed (0ms)', { level: 'info', logger: 'wrangler', message: 'GET /mcp 405 Method Not Allowed (0ms)' }],
      ['[wrangler:info] Ready on http://localhost:8787', { level: 'info', logger: 'wrangler', message: 'Ready on http://localhost:8787' }],
      ['[mf:wrn] Port 8787 in use', { level: 'warn', logger: 'mf' }],
      ['[wrangler:err] Error: Network connection lost.', { level: 'error', logger: 'wrangler' }],
    ],
    nearMisses: ['[mcp:tool] search called', '[db:config] loaded', '[localhost:8787] up', '[::1]:8080 refused', '[wrangler:info GET /', '[MCP][search-es] Connection failed'],
    // miniflare's five and their spelled-out forms only (`[db:config]`, `[app:log]` are not levels)
    re: /\[([A-Za-z][\w.-]{0,40}):(trace|debug|dbg|verbose|vrb|info|inf|warning|warn|wrn|error|err|fatal)\](?!\w)/y,
    first: (c) => c === OPEN_BRACKET,
    take: (m, st) => {
      if (!setLevel(st, m[2] === 'vrb' || m[2] === 'verbose' ? 'trace' : levelWord(m[2]!))) return false;
      st.out.logger ??= m[1]!;
      return true;
    },
  },
  {
    // Python's basicConfig layout `ERROR:mcp.client.sse:msg` (level, logger, no spaces).
    id: 'level-colon-logger',
    examples: [['ERROR:mcp.client.sse:Error in sse_reader', { level: 'error', logger: 'mcp.client.sse', message: 'Error in sse_reader' }]],
    nearMisses: ['ERROR::x'],
    re: new RegExp(`(${UPPER}):([A-Za-z_][\\w.<>-]{0,200}):`, 'y'),
    first: isUpper,
    take: (m, st) => {
      if (!setLevel(st, levelWord(m[1]!))) return false;
      st.out.logger ??= m[2]!;
      return true;
    },
  },
  {
    // The logger before the level, joined by colons: `%(asctime)s - %(name)s:%(levelname)s: %(filename)s:%(lineno)s - %(message)s`
    // (OpenHands' file and console formatters, copied into LiteLLM debug handlers and others): `openhands:INFO: utils.py:88 - msg`.
    id: 'logger-colon-level',
    examples: [
      [
        '10:41:02 - openhands:INFO: utils.py:88 - Successfully connected to 1 MCP servers',
        { ts: '2026-01-30T10:41:02.000Z', logger: 'openhands', level: 'info', location: 'utils.py:88', message: 'Successfully connected to 1 MCP servers' },
      ],
      ['openhands:ERROR: loop.py:24 - ClosedResourceError:', { logger: 'openhands', level: 'error', message: 'ClosedResourceError:' }],
      ['2026-01-30 08:00:00 - mcp.client:WARNING: retrying', { logger: 'mcp.client', level: 'warn', message: 'retrying' }],
    ],
    nearMisses: ['key:VALUE: not a level', 'mcp:Info: title case is prose', 'https://host:ERROR: x', 'std::ERROR::x'],
    re: new RegExp(`([A-Za-z_][\\w.-]{0,200}):(${UPPER}):(?: ([\\w.-]{1,200}:\\d{1,7}) -(?= ))?(?=\\s|$)`, 'y'),
    first: isWordStart,
    take: (m, st) => {
      if (!setLevel(st, levelWord(m[2]!))) return false;
      st.out.logger ??= m[1]!;
      if (m[3]) st.out.location ??= m[3];
      return true;
    },
  },
  {
    // `ERROR:`, `error:`, `WARN:` (Rust CLIs, winston, uvicorn `INFO:     …`). Title case (`Error:`) is an
    // exception's type, not a level: the wording fallback reads it and the message keeps it.
    id: 'level-colon',
    examples: [
      ['error: could not connect', { level: 'error', message: 'could not connect' }],
      ['INFO:     ip-abc:5000 - "GET / HTTP/1.1" 200', { level: 'info', message: 'ip-abc:5000 - "GET / HTTP/1.1" 200' }],
    ],
    nearMisses: ['Error: connect ECONNREFUSED', 'ERROR:x'],
    re: new RegExp(`(${UPPER}|${LOWER}):(?=\\s|$)`, 'y'),
    first: isAlpha,
    take: (m, st) => setLevel(st, levelWord(m[1]!)),
  },
  {
    // A bare upper-case level word: `ERROR msg`, `WARN 114327 ---`, `INFO serve_inner: …`, `ERROR | fn - msg`.
    id: 'level-word',
    examples: [
      ['ERROR | call_tool - tool failed', { level: 'error', logger: 'call_tool', message: 'tool failed' }],
      ['WARN something odd', { level: 'warn', message: 'something odd' }],
      ['DEBUG rmcp::transport::worker: worker quit', { level: 'debug', logger: 'rmcp::transport::worker', message: 'worker quit' }],
      ['LOG   StreamableHTTP reconnect succeeded for "inventory-api"', { level: 'info', message: 'StreamableHTTP reconnect succeeded for "inventory-api"' }],
    ],
    nearMisses: ['ERRORS found: 3', 'INFORMATIONAL text', 'LOGIN failed for user'],
    re: new RegExp(`(${UPPER})(?=[\\s|]|$)`, 'y'),
    first: isUpper,
    take: (m, st) => setLevel(st, levelWord(m[1]!)),
  },
  {
    // A bare lower-case level word only after a time (`2026-… error msg`); at the start it is prose.
    id: 'level-word-lower',
    examples: [['2026-01-30 14:17:19 error something broke', { level: 'error', message: 'something broke' }]],
    nearMisses: ['error something broke'],
    re: new RegExp(`(${LOWER})(?=\\s)`, 'y'),
    first: isLower,
    take: (m, st) => (st.out.ts !== null || st.out.time !== null) && setLevel(st, levelWord(m[1]!)),
  },
  {
    // docker compose gutter on this line only (`api-1  | `; a whole file's gutter is stripped in clean.ts); kubectl --prefix.
    id: 'container',
    examples: [
      ['api-1  | 2026-01-30T10:00:00Z ERROR boom', { container: 'api-1', level: 'error', message: 'boom' }],
      ['fortianalyzer-mcp  | INFO:     ip-abc:47430 - "GET /mcp HTTP/1.1" 421', { container: 'fortianalyzer-mcp', level: 'info' }],
      ['[pod/api-7f9c/app] ERROR boom', { container: 'api-7f9c/app', level: 'error' }],
    ],
    nearMisses: ['a | b', 'api | one space, no replica number'],
    // A name with a replica number (`api-1`, `api_1`) or padded (`fortianalyzer-mcp  |`): `a | b` in prose is not one.
    re: GUTTER,
    first: (c) => c === OPEN_BRACKET || isAlpha(c) || isDigit(c),
    take: (m, st) => {
      if (st.token !== 0 || st.out.container !== null) return false;
      const name = gutterName(m);
      if (name === null) return false;
      st.out.container = name;
      return true;
    },
  },
  {
    // `[12345]` (mcp-remote, gunicorn), repeated as mcp-remote sometimes does.
    id: 'pid-bracketed',
    examples: [
      ['[12345] msg', { pid: '12345', message: 'msg' }],
      ['  [81278] [81278] Connecting to remote server', { pid: '81278', message: 'Connecting to remote server' }],
    ],
    nearMisses: ['[12345 msg', '[v1.2.3] release notes'],
    re: /\[(\d{1,10})\]/y,
    first: (c) => c === OPEN_BRACKET,
    take: (m, st) => {
      if (st.out.pid !== null && st.out.pid !== m[1]) return false;
      st.out.pid = m[1]!;
      confirmHeld(st, false);
      return true;
    },
  },
  {
    // Spring Boot puts the pid after the level: `WARN 114327 --- [main] …`; also `host 4242 ERROR`. Only
    // where a layout puts one (before `---`, or between a host and the level): `ERROR 404 …` is a status.
    id: 'pid-number',
    examples: [
      [
        '2026-03-19T21:33:47.310-06:00  WARN 114327 --- [nio-8080-exec-1] o.s.a.m.c.ToolCallback  : Tool failed',
        { ts: '2026-03-20T03:33:47.310Z', level: 'warn', pid: '114327', thread: 'nio-8080-exec-1', logger: 'o.s.a.m.c.ToolCallback', message: 'Tool failed' },
      ],
      ['web-01 4242 ERROR upstream closed', { host: 'web-01', pid: '4242', level: 'error', message: 'upstream closed' }],
    ],
    nearMisses: ['ERROR 404 page not found', '2026-01-30 10:00:00 12 items'],
    re: new RegExp(`(\\d{1,10})(?= {1,8}(?:---(?= )|(?:${UPPER})(?=[\\s|:]|$)))`, 'y'),
    first: isDigit,
    take: (m, st) => {
      if (st.out.pid !== null || !(st.afterLevel || (st.held.length === 1 && st.held[0]!.kind === 'word'))) return false;
      st.out.pid = m[1]!;
      confirmHeld(st, false);
      return true;
    },
  },
  {
    // syslog tag: `app[123]:` (anywhere), `app:` only right after `<syslog time> <host>`.
    id: 'syslog-tag',
    examples: [
      ['Dec  1 10:00:00 myhost sshd: msg here', { host: 'myhost', logger: 'sshd', message: 'msg here' }],
      ['app[123]: ERROR boom', { logger: 'app', pid: '123', level: 'error' }],
    ],
    nearMisses: ['2026-01-30 10:00:00 Note: no tag without syslog', 'Note: prose'],
    re: /([A-Za-z_][\w./-]{0,63})(?:\[(\d{1,10})\])?:(?= )/y,
    first: isWordStart,
    take: (m, st) => {
      if (!m[2] && !(st.syslog && st.held.length === 1 && st.held[0]!.kind === 'word')) return false;
      if (m[2] && st.out.pid !== null && st.out.pid !== m[2]) return false;
      confirmHeld(st, false);
      st.out.logger ??= m[1]!;
      if (m[2]) st.out.pid = m[2];
      return true;
    },
  },
  {
    // Spring Boot's separator between pid and thread.
    id: 'spring-dashes',
    examples: [['2026-03-19T21:33:47.310-06:00  INFO 114327 --- [myapp] [           main] o.s.b.Start : started', { thread: 'main', logger: 'o.s.b.Start', message: 'started' }]],
    nearMisses: ['--- section ---'],
    re: /---(?= )/y,
    first: (c) => c === 45,
    take: (_m, st) => {
      if (st.out.level === null && st.out.pid === null) return false;
      st.dashes = true;
      return true;
    },
  },
  {
    // Rust tracing: `INFO serve_inner: rmcp::service: msg` (spans, then the target), after the level.
    id: 'rust-target',
    examples: [
      ['INFO serve_inner: rmcp::service: connection closed by peer', { level: 'info', logger: 'rmcp::service', message: 'connection closed by peer' }],
      ['2026-01-30T08:00:00.000000Z TRACE axum::serve: connection accepted', { level: 'trace', logger: 'axum::serve' }],
    ],
    nearMisses: ['std::io::Error: broken pipe'],
    re: /(?:[a-z_]\w{0,60}(?:\{[^{}\n]{0,200}\})?: ){0,4}([A-Za-z_]\w{0,60}(?:::[A-Za-z_]\w{0,60}){1,10}):(?= )/y,
    first: isWordStart,
    take: (m, st) => {
      if (st.out.level === null || st.out.logger !== null) return false;
      st.out.logger = m[1]!;
      return true;
    },
  },
  {
    // A logger before its separator: `a.b.c - msg`, `fn - msg`, `o.s.b.w.e.TomcatWebServer   : msg`,
    // `mcp.server.transport_security - WARNING - …`. Undotted names must start lower-case (`asyncio`,
    // `root`): `Failed - retrying` is a message. Before the level it waits for one to confirm it.
    id: 'logger-separator',
    examples: [
      [
        'mcp.server.transport_security - WARNING - Invalid Host header: ip-abc:8001',
        { logger: 'mcp.server.transport_security', level: 'warn', message: 'Invalid Host header: ip-abc:8001' },
      ],
      ['[ERROR] asyncio - Task exception was never retrieved', { level: 'error', logger: 'asyncio', message: 'Task exception was never retrieved' }],
    ],
    nearMisses: ['ERROR Failed - retrying', 'Failed - retrying', 'mcp.client - no level follows'],
    re: /([A-Za-z_<][\w.$<>-]{0,200}) {1,40}[-:](?= )/y,
    first: (c) => isWordStart(c) || c === 60,
    take: (m, st) => {
      const name = m[1]!;
      if (st.out.logger !== null) return false;
      const dotted = /[A-Za-z_]\.[A-Za-z_]/.test(name);
      if (!dotted && !/^[a-z_<]/.test(name)) return false;
      if (st.out.level !== null) {
        st.out.logger = name;
        return true;
      }
      if (st.held.length >= 2) return false;
      st.held.push({ kind: 'logger', value: name, start: m.index, traced: st.traced });
      return true;
    },
  },
  {
    // `[main]`, `[           main]` (Spring pads), `[mcp-client]`: a thread before the level (or after
    // Spring's `---`), a logger after it; before anything strong, held.
    id: 'bracketed-name',
    examples: [
      ['12:00:01.123 [main] INFO  c.e.App - started', { thread: 'main', level: 'info', logger: 'c.e.App', message: 'started' }],
      ['2026-01-30T08:00:00Z [mcp-client] connected', { logger: 'mcp-client', message: 'connected' }],
    ],
    nearMisses: ['[MCP][CIMD] rejected: non-200 status'],
    re: /\[ {0,40}([A-Za-z_][\w.:/@$-]{0,120}) {0,8}\]/y,
    first: (c) => c === OPEN_BRACKET,
    take: (m, st) => {
      const name = m[1]!;
      if (levelWord(name) && name.length > 2) return false;
      if (st.dashes) st.out.thread = name;
      else if (st.out.level !== null) {
        if (st.out.logger !== null) return false;
        st.out.logger = name;
      } else {
        if (st.held.length >= 2) return false;
        st.held.push({ kind: 'bracket', value: name, start: m.index, traced: st.traced });
      }
      return true;
    },
  },
  {
    // A lower-case word before the level: a host (`web-01`, `host-k3j…` pseudonyms, an IP) or a
    // logger (`mcp.client`), decided when a pid or level confirms it. Never after the level.
    id: 'host-or-logger-word',
    examples: [
      ['web-01 ERROR upstream closed', { host: 'web-01', level: 'error' }],
      ['2026-01-01 12:00:00,123 mcp.client.sse ERROR boom', { logger: 'mcp.client.sse', level: 'error', message: 'boom' }],
    ],
    nearMisses: ['connecting to server ERROR now', 'using transport: sse', 'response = await call_next(request)'],
    re: /([a-z0-9_][\w.-]{0,252})(?= )/y,
    first: (c) => isLower(c) || isDigit(c) || c === 95,
    take: (m, st) => {
      if (st.out.level !== null || st.held.length >= 2) return false;
      st.held.push({ kind: 'word', value: m[1]!, start: m.index, traced: st.traced });
      return true;
    },
  },
];

/** Spaces, and one separator between tokens: ` - `, ` | `, ` : `, ` > `, ` » ` (Spring's `---` is a token). */
const SEPARATOR = /[ \t]{0,64}(?:[-|:>»](?=[ \t]|$)[ \t]{0,64})?/y;
/**
 * The writer's gutter a line opens with, where the file's own prefix rule did not strip it (clean.ts strips a
 * gutter most of the head's lines share; a pasted `docker compose up` under the command that ran it, or two
 * lines of it, has none): the writer and the line after it, for a format to read (parse-file.ts).
 */
export function containerGutter(line: string): { name: string; rest: string } | null {
  GUTTER.lastIndex = 0;
  const m = GUTTER.exec(line);
  if (!m) return null;
  const name = gutterName(m);
  return name === null ? null : { name, rest: line.slice(m[0].length + 1) };
}

/** How far into a line prefix tokens are looked for, and how many. */
const MAX_PREFIX = 400;
const MAX_TOKENS = 14;

function skip(line: string, i: number): number {
  SEPARATOR.lastIndex = i;
  return SEPARATOR.exec(line) ? SEPARATOR.lastIndex : i;
}

/**
 * Read the leading tokens of one line. `clock`: the file's last own time (epoch ms), which dates a
 * time of day and gives syslog/glog their year. Returns null when nothing was read.
 */
export function readLinePrefix(line: string, clock: YearRef = null, trace?: string[]): LinePrefix | null {
  const out: LinePrefix = { ts: null, time: null, level: null, logger: null, pid: null, host: null, thread: null, container: null, location: null, end: 0, message: line };
  const st: State = { line, clock, out, token: 0, afterLevel: false, dashes: false, syslog: false, held: [], msgAt: -1, kv: false, kvSkipAt: -1, traced: 0 };
  let i = 0;
  while (i < line.length && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
  let end = i;
  const limit = Math.min(line.length, MAX_PREFIX);
  while (i < limit && st.token < MAX_TOKENS && st.msgAt < 0) {
    const c = line.charCodeAt(i);
    const wasLevel = out.level;
    let hit = false;
    for (const r of RULES) {
      if (!r.first(c)) continue;
      r.re.lastIndex = i;
      const m = r.re.exec(line);
      if (!m || !r.take(m, st)) continue;
      i = r.re.lastIndex;
      if (trace) st.traced = trace.push(r.id);
      hit = true;
      break;
    }
    if (!hit) break;
    if (out.level === wasLevel) st.afterLevel = false;
    st.token++;
    i = skip(line, i);
    if (!st.held.length) end = i;
  }
  // Held words nothing confirmed are the message's first words; a bracket after a time is a logger.
  if (st.held.length) {
    if (st.held.every((h) => h.kind === 'bracket') && (out.ts !== null || out.time !== null)) {
      confirmHeld(st, false);
      end = i;
    } else {
      end = st.held[0]!.start;
      if (trace) trace.length = st.held[0]!.traced;
      st.held.length = 0;
    }
  }
  if (!strong(st) && st.msgAt < 0) return null;
  if (st.msgAt >= 0) {
    // logfmt: the message is msg's value (unquoted) and what follows it.
    end = st.msgAt;
    const rest = line.slice(end);
    const q = rest.startsWith('"') ? rest.indexOf('"', 1) : -1;
    out.message = q > 0 ? (rest.slice(1, q) + rest.slice(q + 1)).trim() : rest.trim();
  } else out.message = line.slice(st.kvSkipAt >= 0 ? st.kvSkipAt : end).trim();
  out.end = end;
  return out;
}

/** The prefix's pid, host, logger, thread, container and source location, each where the event has none. */
export function writerAttrs(e: Event, p: LinePrefix): void {
  const a = e.attrs;
  if (p.pid !== null && a.pid === undefined) a.pid = p.pid;
  if (p.host !== null && a.hostname === undefined) a.hostname = p.host;
  if (p.logger !== null && a.logger === undefined) a.logger = p.logger;
  if (p.thread !== null && a.thread === undefined) a.thread = p.thread;
  if (p.container !== null && a.container === undefined) a.container = p.container;
  if (p.location !== null && a.location === undefined) a.location = p.location;
}

/**
 * Fill an event from its line: for a raw event (no format read it) or a format event whose format
 * left the time or the level empty. Fills only what is null; attrs `pid`, `hostname`, `logger`,
 * `thread`, `container`, `location` only where absent. A format event takes the reader's word only
 * when it filled its time or level (otherwise the format's reading stands). Returns whether it did.
 */
export function fillFromLine(e: Event, clock: number | null): boolean {
  const nl = e.text.indexOf('\n');
  const first = nl < 0 ? e.text : e.text.slice(0, nl);
  const p = readLinePrefix(first, clock);
  if (!p) return false;
  const raw = e.kind === 'raw';
  const fillTs = e.ts === null && p.ts !== null;
  const fillLevel = e.level === null && p.level !== null;
  if (!raw && !fillTs && !fillLevel) return false;
  if (fillTs) e.ts = p.ts;
  if (fillLevel) e.level = p.level;
  const a = e.attrs;
  if (p.time !== null && e.ts === null && a.time === undefined) a.time = p.time;
  writerAttrs(e, p);
  // The message loses the prefix only where no format chose it (raw) or the format's is the whole line.
  if (p.message !== '' && (raw || e.message === first)) e.message = p.message;
  return true;
}

/**
 * An access-log record: its format read an HTTP status of its own. Such a line logs no level by
 * design (the status is its outcome) and its path may say `/errors`: neither the reader (for the
 * level) nor the wording runs on it.
 */
function isRecord(parsed: Parsed | null): boolean {
  return parsed !== null && parsed.httpStatus !== undefined && parsed.httpStatus !== null;
}

/**
 * What every line event goes through before enrich (parse-file.ts, and format samples): the line
 * reader where the time or the level is missing, then the wording where the level still is (not
 * for a format that says `levelFromWording: false`, e.g. shell commands). `f`/`parsed`: the format
 * that read the line and what it read (null for a raw line). `clock`: the file's last own time.
 */
export function readLine(e: Event, f: CompiledFormat | null, parsed: Parsed | null, clock: number | null): void {
  const record = isRecord(parsed);
  if (e.ts === null || (e.level === null && !record)) fillFromLine(e, clock);
  if (e.level !== null || record || (f !== null && !f.spec.levelFromWording)) return;
  const nl = e.text.indexOf('\n');
  const l = levelFromWording(nl < 0 ? e.text : e.text.slice(0, nl));
  if (l) {
    e.level = l;
    e.attrs.levelFrom = 'wording';
  }
}
