// Apply one compiled format to one (cleaned, redacted) line: the declarative half of parsing.
import type { Event, Level, MappableField, RpcId } from '../contract/event.ts';
import type { FormatSpec } from '../contract/format.ts';
import { parseTimestamp, type YearRef } from './timestamp.ts';

export interface CompiledFormat {
  spec: FormatSpec;
  /** Where the spec came from (built-in file or user folder), for error messages. */
  origin: string;
  patterns: RegExp[];
  prefix: RegExp | null;
  levelMap: Map<string, Level>;
  /** FormatSpec.sourceWhen compiled (null: the format's source always stands). */
  sourceWhen: RegExp[] | null;
}

export type Parsed = Partial<Omit<Event, 'file' | 'line' | 'endLine' | 'source' | 'format' | 'kind' | 'text'>>;

const PINO_LEVELS: Record<number, Level> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
const GUESS: Record<string, Level> = {
  trace: 'trace',
  verbose: 'trace',
  debug: 'debug',
  dbug: 'debug',
  dbg: 'debug',
  d: 'debug',
  info: 'info',
  information: 'info',
  informational: 'info',
  notice: 'info',
  i: 'info',
  warn: 'warn',
  warning: 'warn',
  wrn: 'warn',
  w: 'warn',
  error: 'error',
  err: 'error',
  eror: 'error',
  e: 'error',
  exception: 'error',
  fatal: 'fatal',
  critical: 'fatal',
  crit: 'fatal',
  alert: 'fatal',
  emerg: 'fatal',
  emergency: 'fatal',
  panic: 'fatal',
  f: 'fatal',
  c: 'fatal',
};

export function compileFormat(spec: FormatSpec, origin: string): CompiledFormat {
  const levelMap = new Map<string, Level>();
  for (const [level, spellings] of Object.entries(spec.levels)) for (const s of spellings ?? []) levelMap.set(s.toLowerCase(), level as Level);
  const patterns = spec.match.kind === 'regex' ? spec.match.patterns.map((p) => new RegExp(p)) : [];
  const prefix = spec.match.kind === 'json' && spec.match.prefix ? new RegExp(spec.match.prefix) : null;
  const sourceWhen = spec.sourceWhen ? spec.sourceWhen.map((p) => new RegExp(p)) : null;
  return { spec, origin, patterns, prefix, levelMap, sourceWhen };
}

export function toLevel(value: unknown, map: Map<string, Level>): Level | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') return PINO_LEVELS[value] ?? (value >= 50 ? 'error' : value >= 40 ? 'warn' : value >= 30 ? 'info' : 'debug');
  const s = String(value).trim().toLowerCase();
  return map.get(s) ?? GUESS[s] ?? (/^\d+$/.test(s) ? toLevel(Number(s), map) : null);
}

export function toRpcId(value: unknown): RpcId | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  const s = String(value);
  return /^-?\d{1,15}$/.test(s) ? Number(s) : s.slice(0, 200);
}

/**
 * A JSON key path: dots for nesting, digits index arrays (`request.headers.Mcp-Session-Id.0`).
 * `has:KEY` yields the literal KEY when that key is present (formats whose level is the key name,
 * such as Claude Code's `{"error": "…", "timestamp": …}`).
 */
const SPLIT = new Map<string, string[]>();

function getPath(obj: Record<string, unknown>, path: string): unknown {
  const direct = obj[path];
  if (direct !== undefined) return direct;
  if (path.startsWith('has:')) {
    const key = path.slice(4);
    return getPath(obj, key) !== undefined ? key : undefined;
  }
  if (!path.includes('.')) return undefined;
  let parts = SPLIT.get(path);
  if (!parts) SPLIT.set(path, (parts = path.split('.')));
  let cur: unknown = obj;
  for (const part of parts) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/**
 * log4j2's JsonLayout writes its time as an object, `"instant":{"epochSecond":1789567082,"nanoOfSecond":114000000}`
 * (log4j2 manual, JsonLayout: `includeTimeMillis=false`, the default since 2.11): epoch milliseconds, or null.
 */
function instantMs(v: unknown): number | null {
  if (v === null || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  if (typeof o.epochSecond !== 'number') return null;
  return o.epochSecond * 1000 + Math.floor((typeof o.nanoOfSecond === 'number' ? o.nanoOfSecond : 0) / 1e6);
}

function str(v: unknown): string | null {
  if (v === null || v === undefined || v === '' || v === '-') return null;
  return typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

function num(v: unknown): number | null {
  if (v === null || v === undefined || v === '' || v === '-') return null;
  const n = typeof v === 'number' ? v : Number(String(v).split(/[ ,]/)[0]);
  return Number.isFinite(n) ? n : null;
}

const STRING_FIELDS = ['httpMethod', 'httpPath', 'requestId', 'rpcMethod', 'tool', 'session', 'protocolVersion'] as const;

/** The first present value of a field's references (capture names or JSON paths). */
function pickField(f: CompiledFormat, lookup: (ref: string) => unknown, field: MappableField): unknown {
  const ref = f.spec.fields[field];
  if (!ref) return undefined;
  if (!Array.isArray(ref)) {
    const v = lookup(ref);
    return v !== undefined && v !== null && v !== '' && v !== '-' ? v : undefined;
  }
  for (const r of ref) {
    const v = lookup(r);
    if (v !== undefined && v !== null && v !== '' && v !== '-') return v;
  }
  return undefined;
}

/** Fill event fields from a lookup (capture name or JSON path → value). Once per parsed line: no closures. */
function mapFields(f: CompiledFormat, lookup: (ref: string) => unknown, clock: YearRef): Parsed {
  const out: Parsed = {};
  const ts = pickField(f, lookup, 'ts');
  if (ts !== undefined) out.ts = parseTimestamp(instantMs(ts) ?? ts, clock);
  const level = pickField(f, lookup, 'level');
  if (level !== undefined) out.level = toLevel(level, f.levelMap);
  const msg = pickField(f, lookup, 'message');
  if (msg !== undefined) out.message = str(msg) ?? '';
  for (const k of STRING_FIELDS) {
    const v = pickField(f, lookup, k);
    if (v !== undefined) out[k] = str(v);
  }
  // a generic `method` member holds an HTTP verb in access logs and the MCP method in MCP servers' own
  // logs ({"method":"tools/call"}): the value says which
  if (out.httpMethod != null && !HTTP_VERB.test(out.httpMethod)) {
    if (MCP_METHOD_VALUE.test(out.httpMethod)) out.rpcMethod ??= out.httpMethod;
    out.httpMethod = null;
  }
  const status = num(pickField(f, lookup, 'httpStatus'));
  if (status !== null && status >= 100 && status <= 999) out.httpStatus = Math.trunc(status);
  const dur = pickField(f, lookup, 'durationMs');
  if (dur !== undefined) {
    const v = num(dur);
    out.durationMs = v === null ? null : v * (f.spec.scale.durationMs ?? 1);
  }
  const rpc = pickField(f, lookup, 'rpcId');
  if (rpc !== undefined) out.rpcId = toRpcId(rpc);
  if (f.spec.attrs.length) {
    const attrs: Record<string, string | number | boolean | null> = {};
    for (const a of f.spec.attrs) {
      // `name=ref` keeps a capture or JSON path under the name the rest reads (`agent=ClientRequestUserAgent`)
      const eq = a.indexOf('=');
      const name = eq > 0 ? a.slice(0, eq) : a;
      const v = lookup(eq > 0 ? a.slice(eq + 1) : a);
      if (v !== undefined) attrs[name] = v === null || typeof v === 'number' || typeof v === 'boolean' ? v : (str(v) ?? null);
    }
    out.attrs = attrs;
  }
  return out;
}

const HTTP_VERB = /^(?:GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS|CONNECT|TRACE)$/i;
/** An MCP method name: `initialize`, `ping`, or a slash-separated `family/verb` (`tools/call`, `notifications/initialized`). */
const MCP_METHOD_VALUE = /^(?:initialize|ping|[a-z]{2,20}(?:\/[A-Za-z_]{1,40}){1,2})$/;

/**
 * JSON.parse with two repairs seen in real uploads: nginx `log_format` without `escape=json`
 * writes `\x22` for a quote (invalid JSON), and JSON-array dumps carry a trailing `,` or `]`.
 */
export function parseJsonObject(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    /* repaired below */
  }
  let t = text.trimEnd();
  if (t.endsWith(',') || t.endsWith(']')) t = t.slice(0, -1).trimEnd();
  if (t.includes('\\x')) t = t.replace(/\\x([0-9A-Fa-f]{2})/g, '\\u00$1');
  if (t === text) return null;
  try {
    return JSON.parse(t);
  } catch {
    return null;
  }
}

let lastJson: { text: string | null; obj: unknown } = { text: null, obj: null };

/** Returns the parsed fields, or null when the line is not in this format. */
export function applyFormat(f: CompiledFormat, line: string, clock: YearRef = null): Parsed | null {
  if (f.spec.match.kind === 'regex') {
    for (const re of f.patterns) {
      const m = re.exec(line);
      if (m) {
        const g = m.groups ?? {};
        return mapFields(f, (ref) => g[ref], clock);
      }
    }
    return null;
  }
  if (f.spec.match.kind === 'logfmt') {
    const rec = parseLogfmt(line, f.spec.match.minPairs);
    if (!rec) return null;
    for (const group of f.spec.match.require) if (!group.some((k) => rec[k] !== undefined)) return null;
    return mapFields(f, (ref) => (ref.startsWith('has:') ? (rec[ref.slice(4)] !== undefined ? ref.slice(4) : undefined) : rec[ref]), clock);
  }
  let body = line;
  if (f.prefix) {
    const m = f.prefix.exec(line);
    if (!m) return null;
    body = line.slice(m.index + m[0].length);
  }
  const start = body.indexOf('{');
  if (start < 0 || (start > 0 && !f.prefix)) return null;
  const text = body.slice(start);
  // Several JSON formats are tried on the same line: parse it once.
  let obj: unknown;
  if (text === lastJson.text) obj = lastJson.obj;
  else {
    obj = parseJsonObject(text);
    lastJson = { text, obj };
  }
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return null;
  const rec = obj as Record<string, unknown>;
  for (const group of f.spec.match.require) if (!group.some((k) => getPath(rec, k) !== undefined)) return null;
  const out = mapFields(f, (ref) => getPath(rec, ref), clock);
  const template = f.spec.messageTemplate !== undefined ? rec[f.spec.messageTemplate] : undefined;
  if (typeof template === 'string' && !out.message) out.message = renderTemplate(template, rec);
  return out;
}

/** A template's holes: `{Name}`, `{@Name}` / `{$Name}` (capture, stringify), `{Name:format}`, `{Name,width}`. */
const HOLE = /\{[@$]?([A-Za-z_][\w.]{0,100})(?:,-?\d{1,4})?(?::[^{}]{0,40})?\}/g;

/**
 * A message template rendered the way Serilog's text output reads, for the readers after it: each hole
 * replaced by the record's property of that name (a string bare, anything else as JSON); a hole the record
 * does not carry is left as written, `{{` and `}}` are literal braces.
 */
export function renderTemplate(template: string, rec: Record<string, unknown>): string {
  return template
    .slice(0, 8000)
    .replace(HOLE, (hole, name: string) => {
      const v = rec[name];
      if (v === undefined) return hole;
      return typeof v === 'string' ? v : JSON.stringify(v);
    })
    .replaceAll('{{', '{')
    .replaceAll('}}', '}');
}

const LOGFMT_KEY = /[A-Za-z_@][\w.\-/@]{0,100}/y;

/**
 * A logfmt line (Go slog/logrus/zerolog console, Heroku router, Grafana/Loki tools, Python structlog's key=value
 * renderer): nothing but `key=value` pairs, values bare or quoted (double, or single as Python's repr writes them)
 * with backslash escapes. Null when any token is not
 * a pair or there are fewer than `minPairs`. One left-to-right pass, no backtracking.
 */
export function parseLogfmt(line: string, minPairs = 3): Record<string, string> | null {
  const out: Record<string, string> = {};
  let n = 0;
  let i = 0;
  const len = line.length;
  while (i < len) {
    while (i < len && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
    if (i >= len) break;
    LOGFMT_KEY.lastIndex = i;
    const km = LOGFMT_KEY.exec(line);
    if (!km || line.charCodeAt(i + km[0].length) !== 61 /* = */) return null;
    const key = km[0];
    i += key.length + 1;
    let value: string;
    // (double quotes, or single ones: structlog's KeyValueRenderer writes each value's Python repr, `event='tool call
    // completed' duration_ms=58 read_only=True`)
    const quote = line.charCodeAt(i);
    if (quote === 34 /* " */ || quote === 39 /* ' */) {
      let j = i + 1;
      let v = '';
      let closed = false;
      while (j < len) {
        const c = line.charCodeAt(j);
        if (c === 92 /* \\ */ && j + 1 < len) {
          const nx = line[j + 1]!;
          v += nx === 'n' ? '\n' : nx === 't' ? '\t' : nx;
          j += 2;
        } else if (c === quote) {
          closed = true;
          j++;
          break;
        } else {
          v += line[j];
          j++;
        }
      }
      if (!closed) return null;
      value = v;
      i = j;
    } else {
      let j = i;
      while (j < len && line.charCodeAt(j) !== 32 && line.charCodeAt(j) !== 9) j++;
      value = line.slice(i, j);
      if (value.includes('"')) return null;
      i = j;
    }
    if (i < len && line.charCodeAt(i) !== 32 && line.charCodeAt(i) !== 9) return null;
    if (!(key in out)) n++;
    out[key] = value;
  }
  return n >= minPairs ? out : null;
}
