// Is this input a log at all? Decided by content, never by the file's name, for every input of
// every ingest (CLI paths, folders, archives, uploads): what is not a log is named and skipped,
// never diagnosed. Pass 1 (pipeline.ts) hands each entry's first bytes here.
//
//   empty      0 bytes, or only whitespace
//   binary     a known magic number (ELF, PNG, JPEG, PDF, zip, gzip inside an entry, …), or too many
//              bytes that are not text (NUL, control characters, invalid UTF-8) in the first 64 KiB
//   damaged    a compressed stream or archive that cannot be read (set by the reader, pass 1)
//   not-a-log  text with no log in it: our own analysis or report output, a Markdown document, a
//              JSON document with no log field or error text, prose, or text with no line that
//              has a timestamp, a level, a known log format, an HTTP or JSON-RPC line or an error
//
// The rule leans towards keeping: a real excerpt is often one or two lines (a bare traceback, one
// "Error POSTing to endpoint (HTTP 404)" line, a JSON dump holding an error string), so a short
// text is kept on any weak evidence; only documents (Markdown, prose paragraphs, our own output,
// data JSON) are skipped whatever error words they quote. screen.test.ts holds every real shape
// of samples/real-world and the shared real-dev corpus to that.
import type { Event } from '../../parsers/contract/event.ts';
import type { CompiledFormat } from '../../parsers/engine/apply.ts';
import { stripAnsi, stripPrefix } from '../../parsers/engine/clean.ts';
import { readLines, type RawLine } from '../../parsers/engine/lines.ts';
import { LEVEL_WORDS } from '../../parsers/engine/line-reader.ts';
import { signalTable } from '../../parsers/engine/signals.ts';
import { newStats, parseFile, planLines } from '../../parsers/engine/parse-file.ts';
import { SAMPLE_LINES } from '../../parsers/engine/detect.ts';
import { blockFolders } from '../../parsers/special/index.ts';
import type { SkippedFile, SkipReason } from '../contract/analysis.ts';

export type { SkippedFile, SkipReason } from '../contract/analysis.ts';

/** Bytes of an entry the binary test reads. */
export const SNIFF_BYTES = 64 * 1024;
/** Bytes of an entry the text test reads (its lines are parsed once more, without redaction, and dropped). */
export const SCREEN_BYTES = 1024 * 1024;
/** Lines (not blank) of those the document tests (Markdown, prose) look at. */
export const SCREEN_LINES = 2000;
/** Above this share of non-text characters (ignoring runs of NUL padding) a file is binary. */
export const BINARY_RATIO = 0.1;

export type Verdict = { log: true } | { log: false; reason: SkipReason; detail: string };

const LOG: Verdict = { log: true };
const skip = (reason: SkipReason, detail: string): Verdict => ({ log: false, reason, detail });

// ---------------------------------------------------------------------------------------------
// Binary

interface Magic {
  what: string;
  test(b: Buffer): boolean;
}

const starts = (b: Buffer, bytes: readonly number[], at = 0) => b.length >= at + bytes.length && bytes.every((x, i) => b[at + i] === x);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** File signatures that are never text, first match wins. The hint says what to do instead. */
const MAGIC: readonly Magic[] = [
  { what: 'an ELF executable or library', test: (b) => starts(b, [0x7f, 0x45, 0x4c, 0x46]) },
  { what: 'a PNG image', test: (b) => starts(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { what: 'a JPEG image', test: (b) => starts(b, [0xff, 0xd8, 0xff]) },
  { what: 'a GIF image', test: (b) => starts(b, ascii('GIF87a')) || starts(b, ascii('GIF89a')) },
  { what: 'a WebP image', test: (b) => starts(b, ascii('RIFF')) && starts(b, ascii('WEBP'), 8) },
  { what: 'a TIFF image', test: (b) => starts(b, [0x49, 0x49, 0x2a, 0x00]) || starts(b, [0x4d, 0x4d, 0x00, 0x2a]) },
  { what: 'a PDF document', test: (b) => starts(b, ascii('%PDF-')) },
  {
    what: 'a zip archive (or a zip-based file such as .docx or .jar) that was not opened as one — archives inside archives are not read',
    test: (b) => starts(b, [0x50, 0x4b, 0x03, 0x04]) || starts(b, [0x50, 0x4b, 0x05, 0x06]) || starts(b, [0x50, 0x4b, 0x07, 0x08]),
  },
  { what: 'gzip-compressed data that was not unpacked (name it .gz, or unpack it first)', test: (b) => starts(b, [0x1f, 0x8b]) },
  {
    what: 'bzip2-compressed data (unpack it, or re-pack it as .gz)',
    test: (b) => b.length >= 10 && b.subarray(0, 3).toString('latin1') === 'BZh' && /^[1-9]1AY&SY$/.test(b.subarray(3, 10).toString('latin1')),
  },
  { what: 'xz-compressed data (unpack it, or re-pack it as .gz)', test: (b) => starts(b, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]) },
  { what: 'zstd-compressed data (unpack it, or re-pack it as .gz)', test: (b) => starts(b, [0x28, 0xb5, 0x2f, 0xfd]) },
  { what: 'a 7-Zip archive (use .zip or .tar.gz)', test: (b) => starts(b, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]) },
  { what: 'a RAR archive (use .zip or .tar.gz)', test: (b) => starts(b, ascii('Rar!\x1a\x07')) },
  { what: 'a tar archive that was not opened as one (use .tar.gz)', test: (b) => starts(b, ascii('ustar'), 257) },
  { what: 'a Windows executable', test: (b) => starts(b, ascii('MZ')) && b.subarray(0, 256).includes(0) },
  {
    what: 'a Mach-O executable',
    test: (b) =>
      [
        [0xfe, 0xed, 0xfa, 0xce],
        [0xfe, 0xed, 0xfa, 0xcf],
        [0xce, 0xfa, 0xed, 0xfe],
        [0xcf, 0xfa, 0xed, 0xfe],
      ].some((m) => starts(b, m)),
  },
  { what: 'a Java class file or a universal Mach-O binary', test: (b) => starts(b, [0xca, 0xfe, 0xba, 0xbe]) },
  { what: 'a WebAssembly module', test: (b) => starts(b, [0x00, 0x61, 0x73, 0x6d]) },
  { what: 'an SQLite database', test: (b) => starts(b, ascii('SQLite format 3\0')) },
  { what: 'a DuckDB database', test: (b) => starts(b, ascii('DUCK'), 8) },
  { what: 'a Parquet file', test: (b) => starts(b, ascii('PAR1')) },
  { what: 'an Arrow file', test: (b) => starts(b, ascii('ARROW1')) },
  {
    what: 'a packet capture (export the requests as a HAR file instead)',
    test: (b) =>
      [
        [0xd4, 0xc3, 0xb2, 0xa1],
        [0xa1, 0xb2, 0xc3, 0xd4],
        [0x0a, 0x0d, 0x0d, 0x0a],
      ].some((m) => starts(b, m)),
  },
  {
    what: 'audio or video',
    test: (b) =>
      starts(b, ascii('ftyp'), 4) || starts(b, ascii('OggS')) || starts(b, ascii('fLaC')) || starts(b, ascii('ID3')) || (starts(b, ascii('RIFF')) && starts(b, ascii('WAVE'), 8)),
  },
];

/** How readLines (parsers/engine/lines.ts) will decode these bytes; the test must agree with it. */
function encodingOf(b: Buffer): 'utf-8' | 'utf-16le' | 'utf-16be' {
  if (b[0] === 0xff && b[1] === 0xfe) return 'utf-16le';
  if (b[0] === 0xfe && b[1] === 0xff) return 'utf-16be';
  if (b.length >= 4 && b[0] !== 0 && b[1] === 0 && b[2] !== 0 && b[3] === 0) return 'utf-16le';
  return 'utf-8';
}

/** Runs of at least this many NUL bytes are padding (a log truncated in place, preallocated space), not binary content. */
const NUL_RUN = 8;

/** A character that never appears in text: C0 controls except tab, newlines, form feed, backspace and ESC (ANSI colours); DEL. */
const isControl = (c: number) => (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c && c !== 0x0b && c !== 0x08 && c !== 0x1b) || c === 0x7f;

/** UTF-8: counts characters, and bad ones (invalid sequences, isolated NULs, controls); NUL runs are left out of both. */
function countUtf8(b: Buffer, complete: boolean): { chars: number; bad: number; nulOnly: boolean } {
  let chars = 0;
  let bad = 0;
  let nonNul = false;
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    if (c === 0) {
      let j = i;
      while (j < b.length && b[j] === 0) j++;
      if (j - i < NUL_RUN) {
        chars += j - i;
        bad += j - i;
      }
      i = j;
      continue;
    }
    nonNul = true;
    chars++;
    if (c < 0x80) {
      if (isControl(c)) bad++;
      i++;
      continue;
    }
    const len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (len === 0) {
      bad++;
      i++;
      continue;
    }
    if (i + len > b.length) {
      // Cut by the end of the head, not by the file: not evidence either way.
      if (!complete) chars--;
      else bad++;
      break;
    }
    let ok = true;
    for (let k = 1; k < len; k++) if ((b[i + k]! & 0xc0) !== 0x80) ok = false;
    // Overlong and surrogate forms (E0 80–9F, ED A0–BF, F0 80–8F, F4 90+) are invalid too.
    const c1 = b[i + 1]!;
    if ((c === 0xe0 && c1 < 0xa0) || (c === 0xed && c1 > 0x9f) || (c === 0xf0 && c1 < 0x90) || (c === 0xf4 && c1 > 0x8f)) ok = false;
    if (ok) i += len;
    else {
      bad++;
      i++;
    }
  }
  return { chars, bad, nulOnly: !nonNul && b.length > 0 };
}

function countUtf16(b: Buffer, enc: 'utf-16le' | 'utf-16be', complete: boolean): { chars: number; bad: number; nulOnly: boolean } {
  const text = new TextDecoder(enc, { fatal: false }).decode(complete ? b : b.subarray(0, b.length - (b.length % 2)));
  let chars = 0;
  let bad = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    chars++;
    if (c === 0xfffd || c === 0 || isControl(c)) bad++;
  }
  return { chars, bad, nulOnly: false };
}

/**
 * Why these first bytes are not text (null: they are text). `complete`: the head is the whole
 * file, so a multi-byte character cut at its end is invalid rather than unfinished.
 */
export function binaryKind(head: Buffer, complete = true): string | null {
  for (const m of MAGIC) if (m.test(head)) return m.what;
  const b = head.subarray(0, SNIFF_BYTES);
  const enc = encodingOf(b);
  const { chars, bad, nulOnly } = enc === 'utf-8' ? countUtf8(b, complete || b.length < head.length) : countUtf16(b, enc, complete || b.length < head.length);
  if (nulOnly) return 'only NUL bytes (a preallocated or wiped file)';
  if (chars === 0) return null;
  const share = bad / chars;
  if (share > BINARY_RATIO) {
    const pct = Math.max(1, Math.round(share * 100));
    return `binary data (${pct}% of its first ${b.length < 1024 ? `${b.length} bytes` : `${Math.round(b.length / 1024)} KiB`} is not text: NUL or control bytes, or invalid UTF-8)`;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Text

/** Our own outputs, recognised by how they begin (the writers put these keys first). */
const OWN_OUTPUT: readonly { re: RegExp; what: string }[] = [
  { re: /^\s*\{\s*"schemaVersion"\s*:\s*\d+\s*,\s*"inputs"\s*:/, what: 'an mcp-triage analysis document (analyze --json output), not a log' },
  { re: /^\s*\{\s*"markdown"\s*:\s*"[^"\n]{0,40}MCP connection failure/, what: 'an mcp-triage report (report --format json output), not a log' },
];

/** Words of a failure (English, as the SDKs and proxies write them): weak evidence. Not inside a flag (`--fail-on-warnings`). */
const FAILURE_WORDS =
  /(?<![\w-])(?:errors?|err|exceptions?|fail(?:s|ed|ure|ing)?|fatal|panic(?:ked)?|crash(?:ed)?|timed? ?out|timeouts?|refused|reset|abort(?:ed)?|denied|unauthori[sz]ed|forbidden|not found|unavailable|disconnect(?:ed)?|dropped|closed|terminated|traceback|invalid|cannot|can't|unable|retry(?:ing)?|rejected|expired|unreachable|bad gateway|bad request)(?![\w-])|[❌✖✗⛔]/i;
/** An HTTP request or status line, a JSON-RPC message, a status column (`OK`, `FAIL`), a level word: weak evidence. */
const RECORD_SHAPES = [
  // (…or a debugging print of the request as a tuple or list: `('REQ', 'POST', 'https://…')`)
  /\b(?:GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS)(?:\s+|['"]?,\s{0,3}['"]?)(?:https?:\/\/\S+|\/\S*)/,
  /\bHTTP\/[123](?:\.\d)?\b/,
  /"jsonrpc"\s*:/,
  /(?:^|\s)(?:OK|FAIL(?:ED)?|ERR(?:OR)?|PASS(?:ED)?|DONE|UP|DOWN|TIMEOUT|WARN(?:ING)?|INFO|DEBUG|TRACE|CRITICAL)(?=\s|$|[:\]])/,
  /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}/,
  // a host's status mark before a name (`🟢 docs - Ready (8 tools)`, `✅ search: connected`)
  /^\s{0,8}(?:🟢|🔴|🟡|🟠|⚪|✅|✓|✔)\s{1,3}\S/,
  // two or more key=value pairs side by side (logfmt and its cousins: `tool=x status=ok ms=12`)
  /(?:^|\s)[A-Za-z_][\w.-]{0,40}=[^\s=]+\s+[A-Za-z_][\w.-]{0,40}=[^\s=]/,
  // a machine-made id (UUID): a program's record, not a sentence someone wrote
  /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i,
  // …or written as 32 hex digits (uuid4().hex: the Python SDK's session ids)
  /(?<![\w-])[0-9a-f]{32}(?![\w-])/,
  // a request's or response's headers printed one per line (`accept: text/event-stream`, `mcp-session-id: …`):
  // a debugging dump of an HTTP exchange, with a media type or an MCP header as the value's key
  /^\s{0,8}(?:[A-Za-z][\w-]{0,40}:\s{0,4}(?:text\/event-stream|application\/(?:json|x-ndjson)|text\/html)\b|(?:mcp-session-id|mcp-protocol-version|last-event-id)\s{0,4}:\s{0,4}\S)/im,
  // a stack frame pasted without its header or final line (an ExceptionGroup's `  |   File …` lines, a
  // Node `at fn (file:line:col)`, a JVM `at pkg.Class.method(File.java:12)`): machine-written by a runtime
  /\bFile "[^"\n]{1,500}", line \d{1,7}, in [\w<>.$-]{1,200}/,
  /^\s{0,40}at (?:[\w$.<>[\] -]{1,200} \()?(?:file:\/\/|node:|\/|[A-Za-z]:\\)[^\s()]{1,500}:\d{1,7}:\d{1,7}\)?\s*$/m,
  /^\s{0,40}at [\w$]{1,100}(?:\.[\w$<>]{1,100}){1,40}\((?:[\w$-]{1,100}\.(?:java|kt|scala|groovy):\d{1,7}|Native Method|Unknown Source)\)/m,
];

// Markdown structure. Each alone also occurs in logs (`# comment`, `- item`), so a document needs several.
const MD_HEADING = /^#{1,6}\s+\S/;
const MD_FENCE = /^\s{0,3}(?:```|~~~)/;
const MD_TABLE_SEP = /^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)+\|?\s*$/;
const MD_TABLE_ROW = /^\s*\|.*\|\s*$/;
const MD_LIST = /^\s*(?:[-*+]|\d{1,3}[.)])\s+\S/;
const MD_INLINE = /`[^`\n]+`|\*\*[^*\n]+\*\*|\[[^\]\n]+\]\([^)\s]+\)/;

/** A sentence of words: at least five tokens, almost all of them words. Inline code and emphasis count as words. */
/** A level word in capitals, as the line reader knows them, opening the line. */
const LEVEL_FIRST = new RegExp(`^(?:${LEVEL_WORDS.join('|')})(?:\\s|:)`);

export function isProse(line: string): boolean {
  const t = line
    .replace(/`[^`\n]*`/g, 'code')
    .replace(/\*\*|__/g, '')
    .trim();
  if (/^[[{<]|^\d{1,4}[-/:.]\d/.test(t)) return false; // brackets, JSON, markup, timestamps start records
  // so does a level in capitals (`ERROR Transport error …`, NestJS/console `LOG   …`, `WARNING:root:…`)
  if (LEVEL_FIRST.test(t)) return false;
  const tokens = t.split(/\s+/);
  if (tokens.length < 5) return false;
  const words = tokens.filter((w) => /^[("'“‘]?[\p{L}][\p{L}\p{M}'’-]*[)"'”’.,;:!?]*$/u.test(w)).length;
  return words / tokens.length >= 0.8;
}

/**
 * Prose needs a paragraph: real excerpts of two or three lines are often one error message
 * wrapped into sentences ("Timed out while waiting for response to ClientRequest. Waited 5.0 seconds.").
 */
const PROSE_MIN_LINES = 5;

interface LineFacts {
  nonBlank: number;
  prose: number;
  headings: number;
  fences: number;
  tableSeps: number;
  tableRows: number;
  lists: number;
  inline: number;
}

function lineFacts(lines: readonly string[]): LineFacts {
  const f: LineFacts = { nonBlank: 0, prose: 0, headings: 0, fences: 0, tableSeps: 0, tableRows: 0, lists: 0, inline: 0 };
  // a fenced block's lines are what the text quotes (a pasted log, a code sample): its own structure is outside them
  let fenced = false;
  for (const l of lines) {
    if (l.trim() === '') continue;
    if (MD_FENCE.test(l)) {
      fenced = !fenced;
      f.nonBlank++;
      f.fences++;
      continue;
    }
    if (fenced) continue;
    f.nonBlank++;
    if (MD_HEADING.test(l)) f.headings++;
    else if (MD_TABLE_SEP.test(l)) f.tableSeps++;
    else if (MD_TABLE_ROW.test(l)) f.tableRows++;
    else if (MD_LIST.test(l)) f.lists++;
    if (MD_INLINE.test(l)) f.inline++;
    // (an error message the signal table knows is a program's wording, however sentence-like:
    // `Maximum reconnection attempts (2) exceeded.`)
    if (isProse(l) && !signalTable().match(l).length) f.prose++;
  }
  return f;
}

/**
 * A Markdown document: an anchor (a heading, a fenced block, a table) and at least one other kind
 * of structure, with most lines being structure or prose. A log that prints a `# comment` or a
 * `- item` has the anchor without the rest.
 */
export function isMarkdown(f: LineFacts): boolean {
  const anchor = f.headings > 0 || f.fences >= 2 || f.tableSeps > 0;
  if (!anchor) return false;
  const kinds = [f.headings > 0, f.fences >= 2, f.tableSeps > 0, f.lists > 0, f.inline > 0].filter(Boolean).length;
  const structured = f.headings + f.fences + f.tableSeps + f.tableRows + f.lists + f.inline + f.prose;
  return kinds >= 2 && structured >= 0.5 * f.nonBlank;
}

/**
 * Key names of a log record, matched on the words of the key (split at camelCase and `_`/`-`), so
 * `last_sync_error`, `statusCode` and `@timestamp` count and `timeoutMs` does not.
 */
const LOG_KEY_PARTS = new Set([
  'error',
  'errors',
  'err',
  'exception',
  'exceptions',
  'stack',
  'stacktrace',
  'traceback',
  'level',
  'severity',
  'timestamp',
  'datetime',
  'msg',
  'message',
  'event',
  'status',
  'jsonrpc',
  'log',
  'logs',
]);
/** Short keys that only count whole (`ts`, `t`), not as a word of a longer key (`allowImportingTsExtensions`). */
const LOG_KEYS_WHOLE = new Set(['ts', 't', 'time', '@t']);
/** Keys named after a level (`{"debug": "Calling MCP tool …"}`) count when their value reads as a message, not as a version. */
const LEVEL_KEYS = new Set(['trace', 'debug', 'info', 'warn', 'warning', 'fatal']);

function keyParts(k: string): string[] {
  return k
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function isLogKey(k: string, value: unknown): boolean {
  const key = k.toLowerCase();
  if (LOG_KEYS_WHOLE.has(key)) return true;
  if (LEVEL_KEYS.has(key)) return typeof value === 'string' && /\s/.test(value.trim());
  return keyParts(k).some((p) => LOG_KEY_PARTS.has(p));
}

/** Does a JSON document hold anything a log holds: a log-like key, or error text in a value? Bounded walk. */
export function jsonHasLogContent(v: unknown): boolean {
  const stack: unknown[] = [v];
  let seen = 0;
  while (stack.length && seen++ < 100_000) {
    const x = stack.pop();
    if (typeof x === 'string') {
      if (FAILURE_WORDS.test(x.slice(0, 10_000))) return true;
    } else if (Array.isArray(x)) stack.push(...x.slice(0, 10_000));
    else if (x && typeof x === 'object') {
      for (const [k, val] of Object.entries(x)) {
        if (isLogKey(k, val)) return true;
        stack.push(val);
      }
    }
  }
  return false;
}

/** A member line of a pretty-printed JSON log (`  "timestamp": "…",`, `"debug": "Calling MCP tool …"`). */
function jsonLogMember(text: string): boolean {
  const m = /^\s*"([^"\n]{1,40})"\s*:\s*(?:"([^"\n]*))?/.exec(text);
  return m !== null && isLogKey(m[1]!, m[2] ?? null);
}

const URL_IN_TEXT = /\bhttps?:\/\/[^\s'"]/;
/** A line about MCP or its transports: with a failure signal on it, a machine-written MCP error (a host transcript's `└ MCP server 'x': Error: Streamable HTTP error: …`). */
const MCP_WORDS = /\bMCP\b|Streamable ?HTTP|JSON-?RPC|jsonrpc|[Mm]cp-[Ss]ession-[Ii]d/;

/**
 * A line naming the protocol or its transports, not in sentences and with a record's punctuation: what an MCP client, server or proxy
 * writes about its own traffic (`Unknown SSE event: keepalive`, `Streamable HTTP transport closed`, a host's `HTTP transport options: {…}`).
 */
const TRANSPORT_WORDS = new RegExp(`${MCP_WORDS.source}|\\bSSE\\b|\\bEventSource\\b|\\b(?:HTTP|stdio|WebSocket) transport\\b`);
/** …in a record's punctuation: a `label: value`, a `key=value`, a bracketed or parenthesised part (`the MCP one` is no record). */
const RECORD_PUNCT = /[:=] ?\S|[([]/;
/** …or a record under a configured name (`docwiki: SSE endpoint not yet discovered`): a lower-case label and a colon, as hosts prefix a server's messages — a sentence starts otherwise. */
const LABELLED = /^[a-z][\w.@-]{1,40}: \S/;

interface Evidence {
  /** Lines a log format read (not a last-resort one), a folded traceback or stack, or a line with its own timestamp. */
  strong: number;
  /** Anything else a log line would have: a signal, a level, an HTTP status, a JSON-RPC field, error words. */
  weak: number;
}

/** A machine's record about MCP traffic: a line naming MCP with a failure signal on it (a host transcript's `└ MCP server 'x': Error: Streamable HTTP error: …`). */
function mcpRecord(e: Event): boolean {
  if (!TRANSPORT_WORDS.test(e.text)) return false;
  const t = signalTable();
  const mcp = MCP_WORDS.test(e.text);
  return e.signals.some((id) => {
    const m = t.meaning(id);
    // …or a client's words about its own transport going down and coming back (a host's debug transcript:
    // `HTTP transport closed/disconnected, attempting automatic reconnection`): a program's record, however chatty
    return (mcp && m?.outcome === 'failure') || (m != null && STREAM_LIFECYCLE.has(m.cause));
  });
}
/** A client's stream and connection lifecycle (signals sdk-stream.json). */
const STREAM_LIFECYCLE: ReadonlySet<string> = new Set(['stream-reconnecting', 'reconnect-exhausted', 'connected', 'stream-resumed']);

/** Parse the head (no redaction: nothing leaves this function but two counts) and count its log evidence. */
async function evidenceOf(head: Buffer, name: string, formats: readonly CompiledFormat[], enough: (e: Evidence) => boolean): Promise<Evidence> {
  const specific = new Set(formats.filter((f) => f.spec.priority >= 0).map((f) => f.spec.id));
  for (const b of blockFolders) specific.add(b.id);
  const stats = newStats(name);
  const ev: Evidence = { strong: 0, weak: 0 };
  let ownTs = 0;
  const weak = (e: Event): boolean => {
    if (e.signals.length > 0 || e.level !== null || e.httpStatus !== null || e.rpcId !== null || e.rpcMethod !== null || e.format !== 'unknown') return true;
    // NUL padding (a log truncated in place) is not text to test.
    const t = e.text.replace(/\0+/g, '').slice(0, 4000);
    return (
      jsonLogMember(t) || FAILURE_WORDS.test(t) || RECORD_SHAPES.some((r) => r.test(t)) || (TRANSPORT_WORDS.test(t) && RECORD_PUNCT.test(t) && (!isProse(t) || LABELLED.test(t)))
    );
  };
  for await (const e of parseFile(readLines(once(head)), { file: name, formats, redact: (t) => t }, stats)) {
    // parseFile counts an event's own timestamp (not one carried from the line above) before yielding it.
    const own = stats.coverage.ts > ownTs;
    ownTs = stats.coverage.ts;
    // an HTTP answer quoted with the URL it came from (`Client error '400 Bad Request' for url 'http://…'`)
    // is a machine's record of a request, however sentence-like the line around it reads
    // …and so is an MCP client's or server's own failure wording, however chatty the transcript around it
    if (specific.has(e.format) || own || (e.httpStatus !== null && URL_IN_TEXT.test(e.text)) || mcpRecord(e)) ev.strong++;
    else if (weak(e)) ev.weak++;
    if (enough(ev)) break;
  }
  return ev;
}

/** The head in read-sized pieces, so a reader that stops early decodes no more than it needs. */
async function* once(b: Buffer): AsyncGenerator<Buffer> {
  for (let i = 0; i < b.length; i += 64 * 1024) yield b.subarray(i, i + 64 * 1024);
}

/** The whole head as text, decoded as the parser decodes it (BOM, UTF-16). */
async function wholeText(head: Buffer): Promise<string> {
  const out: string[] = [];
  for await (const l of readLines(once(head))) out.push(l.text);
  return out.join('\n');
}

/**
 * The head's first lines, at most SCREEN_LINES that are not blank (a document shows what it is
 * well before that); `all`: every line of the head was read.
 */
async function headLines(head: Buffer): Promise<{ lines: RawLine[]; all: boolean }> {
  const out: RawLine[] = [];
  let nonBlank = 0;
  for await (const l of readLines(once(head))) {
    if (nonBlank >= SCREEN_LINES) return { lines: out, all: false };
    out.push(l);
    if (l.text.trim() !== '') nonBlank++;
  }
  return { lines: out, all: true };
}

/**
 * Is this text a log? `head`: the entry's first bytes (at most SCREEN_BYTES); `complete`: it is the
 * whole entry. Binary, empty and damaged are decided before (screenEntry).
 */
export async function screenText(head: Buffer, opts: { name: string; complete: boolean; formats: readonly CompiledFormat[] }): Promise<Verdict> {
  const { lines: raw, all } = await headLines(head);
  // The last line of a cut head may be cut too; leave it out of the line facts.
  const lines = (opts.complete || !all ? raw : raw.slice(0, -1)).map((l) => stripAnsi(l.text).text);
  if (lines.every((l) => l.trim() === ''))
    return opts.complete ? skip('empty', 'holds only whitespace') : skip('not-a-log', `no text in its first ${Math.round(head.length / 1024)} KiB but blank lines`);
  const text = lines.slice(0, 50).join('\n');
  for (const o of OWN_OUTPUT) if (o.re.test(text)) return skip('not-a-log', o.what);
  // HAR, OTLP and other whole-file documents the parsers read.
  const plan = planLines(raw.slice(0, SAMPLE_LINES));
  if (plan.doc) return LOG;
  const first = lines.find((l) => l.trim() !== '')!.trim();
  if (opts.complete && (first.startsWith('{') || first.startsWith('['))) {
    let doc: unknown;
    let parsed = false;
    try {
      doc = JSON.parse(all ? lines.join('\n') : await wholeText(head));
      parsed = true;
    } catch {
      /* JSON lines, a cut dump, or not JSON: read line by line below */
    }
    if (parsed)
      return jsonHasLogContent(doc)
        ? LOG
        : skip('not-a-log', 'one JSON document with no log field (time, level, message, error, status) and no error text: configuration or data, not a log');
  }
  // (read inside a wrapper every line carries — a markdown quote of a pasted log: `> ` is the paste's, not the text's)
  const facts = lineFacts(plan.prefix ? lines.map((l) => stripPrefix(l, plan.prefix)) : lines);
  if (isMarkdown(facts))
    return skip(
      'not-a-log',
      `a Markdown document (${facts.nonBlank} lines of headings, lists, tables or prose), not a log; paste the log lines it quotes into a .log file to analyse them`,
    );
  const proseDoc = facts.nonBlank >= PROSE_MIN_LINES && facts.prose >= 0.6 * facts.nonBlank;
  // Stop parsing as soon as the answer is known: a strong line settles it, and so does a weak one unless it reads as prose.
  const ev = await evidenceOf(
    opts.complete ? head : head.subarray(0, head.lastIndexOf(10) + 1 || head.length),
    opts.name,
    opts.formats,
    (e) => e.strong > 0 || (!proseDoc && e.weak > 0),
  );
  if (ev.strong > 0) return LOG;
  if (proseDoc) return skip('not-a-log', `prose: ${facts.prose} of its ${facts.nonBlank} lines are sentences, and no line has a timestamp or a known log format`);
  if (ev.weak > 0) return LOG;
  return skip('not-a-log', 'no line looks like a log line: no timestamp, level, known log format, HTTP or JSON-RPC line, or error message');
}

/**
 * The whole test for one entry's first bytes. `total`: how many bytes the entry had (0: empty).
 * `complete`: the head holds the whole entry.
 */
export async function screenHead(head: Buffer, opts: { name: string; total: number; complete: boolean; formats: readonly CompiledFormat[] }): Promise<Verdict> {
  if (opts.total === 0) return skip('empty', 'empty file (0 bytes)');
  const bin = binaryKind(head, opts.complete);
  if (bin) return skip('binary', bin);
  return screenText(head, opts);
}

const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g;

/** A file name from a client or an archive, safe on one line of a terminal or a message. */
export function shownName(name: string): string {
  const n = name.replace(UNSAFE, '?');
  return n.length > 160 ? `…${n.slice(-159)}` : n;
}

/** One line per skipped file, for stderr and messages (a detail may quote an archive entry's name: made inert too). */
export function describeSkip(s: SkippedFile): string {
  return `${shownName(s.file)}: ${s.detail.replace(UNSAFE, '?')}`;
}
