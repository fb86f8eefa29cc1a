// Java/Kotlin stack traces ("Caused by:", "\tat", "... N more"), Go error chains
// ("op: inner: innermost"), and a message-level fallback for one-line reports
// ("… failed with cause: reactor.netty…PrematureCloseException: …").
import { rawExc, type RawExc } from './types.ts';
import type { ParseResult } from './python.ts';

const JAVA_TYPE = String.raw`[a-zA-Z_$][\w$]{0,200}(?:\.[a-zA-Z_$][\w$]{0,200}){0,30}`;
const JAVA_HEADER = new RegExp(String.raw`^\s{0,8}(?:Exception in thread "[^"]{0,200}" |Caused by: |Suppressed: )?(${JAVA_TYPE})(?:: (.*))?$`);
const JAVA_FRAME = /^\s{1,40}at ([\w$.<>/]{1,500})\.([\w$<>]{1,200})\(([^()]{0,500})\)/;
const JAVA_MORE = /^\s{1,40}\.\.\. \d{1,9} (?:more|common frames omitted)$/;
const THROWABLE = /(?:Exception|Error|Throwable)$/;

export function looksJava(lines: readonly string[]): boolean {
  return lines.some((l) => JAVA_FRAME.test(l)) || lines.some((l) => /^\s*Caused by: /.test(l));
}

export function parseJava(lines: readonly string[]): ParseResult | null {
  const ctx: ParseResult = { roots: [], truncated: false, notes: [], cut: null };
  let current: RawExc | null = null;
  let top: RawExc | null = null;
  for (const l of lines) {
    const f = JAVA_FRAME.exec(l);
    if (f && current) {
      const loc = f[3]!.split(':');
      current.frames.push({ function: `${f[1]}.${f[2]}`, file: loc[0] ?? null, line: loc[1] ? Number(loc[1]) : null });
      continue;
    }
    if (JAVA_MORE.test(l)) continue;
    const h = JAVA_HEADER.exec(l);
    if (!h || !THROWABLE.test(h[1]!.split(/[.$]/).pop()!)) continue;
    const labelled = /^\s*(?:Exception in thread|Caused by:|Suppressed:)/.test(l);
    if (!labelled && !/[.$]/.test(h[1]!)) continue;
    const exc = rawExc(h[1]!, h[2] ?? '');
    inlineCauses(exc);
    if (/^\s*Caused by: /.test(l) && current) {
      deepest(current).cause = exc;
      exc.causeKind = 'cause';
    } else if (/^\s*Suppressed: /.test(l) && current) {
      current.children.push(exc);
    } else {
      if (top) ctx.roots.push(top);
      top = exc;
    }
    current = exc;
  }
  if (top) ctx.roots.push(top);
  return ctx.roots.length ? ctx : null;
}

function deepest(e: RawExc): RawExc {
  let d = e;
  for (let k = 0; d.cause && k < 200; k++) d = d.cause;
  return d;
}

// Types named inside a message ("…: cause: x.y.FooException: msg") become its causes.
const INLINE = /(?:^|[\s:([])((?:[a-z_$][\w$]{0,100}\.){1,30}[A-Z][\w$]{0,200}(?:Exception|Error)|[A-Z][\w$]{0,200}(?:Exception|Error))(?::\s|$)/;

function inlineCauses(exc: RawExc): void {
  let cur = exc;
  for (let k = 0; k < 20; k++) {
    const m = INLINE.exec(cur.message);
    if (!m) return;
    const start = m.index + m[0].indexOf(m[1]!);
    const rest = cur.message.slice(start + m[1]!.length).replace(/^:\s?/, '');
    const inner = rawExc(m[1]!, rest);
    cur.message = cur.message.slice(0, start).replace(/[\s:,]+$/, '');
    cur.cause = inner;
    cur.causeKind = 'cause';
    cur = inner;
  }
}

/**
 * One-line reports: the first line naming an exception type starts a message-level chain
 * (later types in the same message are its causes). Used when no traceback shape is present.
 */
export function parseMessageLevel(lines: readonly string[]): ParseResult | null {
  for (const raw of lines) {
    const l = raw.length > 4000 ? raw.slice(0, 4000) : raw;
    const m = INLINE.exec(l);
    if (!m) continue;
    const start = m.index + m[0].indexOf(m[1]!);
    const exc = rawExc(m[1]!, l.slice(start + m[1]!.length).replace(/^:\s?/, ''));
    inlineCauses(exc);
    return { roots: [exc], truncated: false, notes: [], cut: null };
  }
  return null;
}

// Go: errors are wrapped by prefixing ("Post \"url\": dial tcp 1.2.3.4:80: connect: connection refused").
const GO_MARKERS =
  /(?:dial tcp|dial udp|read tcp|write tcp|context deadline exceeded|Client\.Timeout exceeded|no such host|connection refused|connection reset by peer|broken pipe|i\/o timeout|unexpected EOF|(?:^|: )EOF$|^(?:Post|Get|Delete) "[^"]{1,2000}": )/;
const GO_SENTINELS: readonly [RegExp, string][] = [
  [/connection refused$/, 'syscall.ECONNREFUSED'],
  [/connection reset by peer$/, 'syscall.ECONNRESET'],
  [/broken pipe$/, 'syscall.EPIPE'],
  [/no such host$/, 'net.DNSError'],
  [/i\/o timeout$/, 'net.OpError(timeout)'],
  [/context deadline exceeded(?: \(Client\.Timeout exceeded while awaiting headers\))?$/, 'context.DeadlineExceeded'],
  [/^unexpected EOF$/, 'io.ErrUnexpectedEOF'],
  [/^EOF$/, 'io.EOF'],
];

export function looksGo(lines: readonly string[]): boolean {
  return lines.some((l) => GO_MARKERS.test(l) && l.split(': ').length >= 3);
}

export function parseGo(lines: readonly string[]): ParseResult | null {
  const line = lines.find((l) => GO_MARKERS.test(l) && l.split(': ').length >= 3);
  if (!line) return null;
  // logfmt / JSON carry the error in a quoted field: take its value.
  const field = /\berr(?:or)?[=:]\s?"((?:[^"\\]|\\.){1,4000})"/.exec(line);
  const text = (field ? field[1]!.replace(/\\"/g, '"') : line).replace(/^\s*(?:panic|error|Error|err|fatal):\s/, '');
  const parts = splitGo(text.length > 4000 ? text.slice(0, 4000) : text);
  let outer: RawExc | null = null;
  let cur: RawExc | null = null;
  for (let k = 0; k < parts.length; k++) {
    const isLast = k === parts.length - 1;
    const msg = parts[k]!;
    const sentinel = isLast ? GO_SENTINELS.find(([re]) => re.test(msg))?.[1] : undefined;
    const e = rawExc(sentinel ?? 'error', msg);
    if (cur) {
      cur.cause = e;
      cur.causeKind = 'cause';
    } else outer = e;
    cur = e;
  }
  return outer ? { roots: [outer], truncated: false, notes: [], cut: null } : null;
}

// Split on ": " but keep "connect: connection refused" and "read: connection reset" together
// with their operation, the way Go's net.OpError prints them.
function splitGo(text: string): string[] {
  const raw = text.split(': ');
  const out: string[] = [];
  for (const p of raw) {
    const prev = out[out.length - 1];
    if (prev !== undefined && /^(?:connect|read|write|dial|lookup [^\s]{1,300})$/.test(prev)) out[out.length - 1] = `${prev}: ${p}`;
    else out.push(p);
  }
  return out;
}
