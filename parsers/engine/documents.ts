// Whole-file JSON documents (HAR exports, OpenTelemetry OTLP/JSON log exports): not one event per
// line, so a table cannot describe them. A small streaming scanner walks the JSON text line by
// line, keeps only the current item (one HAR entry, one OTLP log record) in memory, and turns each
// item into one event spanning the physical lines it occupied. Memory is bounded by MAX_ITEM_CHARS,
// not by the file size; an item over the cap is emitted as a raw event with the cut counted.
import type { Level, RpcId, Source } from '../contract/event.ts';
import { toLevel, toRpcId, type Parsed } from './apply.ts';
import { parseTimestamp } from './timestamp.ts';

export const MAX_ITEM_CHARS = 8 * 1024 * 1024;
/** Bodies shown in an event's text are cut here (the file keeps the rest; evidence points at its lines). */
const BODY_PREVIEW = 2000;

export interface DocumentItem {
  fields: Parsed;
  /** Summary lines for the event's text (redacted again by the caller). */
  lines: string[];
}

export interface DocumentReader {
  id: string;
  title: string;
  source: Source;
  /** Does the start of the file (cleaned first lines joined) look like this document? */
  sniff(head: string): boolean;
  /** Key path of the objects that become events; '[]' stands for "any element of an array". */
  itemPath: readonly string[];
  /** Objects read before the items that give them context (OTLP resource attributes). */
  contextPath?: readonly string[];
  /** The side the start of the file shows, when the reader's own source is unknown (OTLP: the semantic conventions' attribute names). */
  sideOf?(head: string): Source | undefined;
  toItem(obj: Record<string, unknown>, context: Record<string, unknown> | null): DocumentItem;
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const s = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);

function header(list: unknown, name: string): string | null {
  if (!Array.isArray(list)) return null;
  for (const h of list) if (isObj(h) && typeof h.name === 'string' && h.name.toLowerCase() === name) return s(h.value);
  return null;
}

/** Methods a cross-origin request may use without the preflight allowing them (Fetch standard: CORS-safelisted methods). */
const SAFELISTED_METHODS = new Set(['GET', 'HEAD', 'POST']);

/**
 * A CORS preflight (OPTIONS with Access-Control-Request-*) whose answer does not allow what the request will carry:
 * the browser's own console words for it, or null (Fetch standard, CORS-preflight fetch: each requested header must
 * be listed in Access-Control-Allow-Headers, where `*` covers all but Authorization; a method not safelisted must be
 * in Access-Control-Allow-Methods). A HAR keeps the preflight but not the console line, so the reason the next request
 * shows status 0 is only here. Not judged when the preflight itself failed (no answer, or not 2xx).
 */
function preflightRefusal(method: string | null, status: number | null, reqHeaders: unknown, resHeaders: unknown): string | null {
  if (method !== 'OPTIONS' || status === null || status < 200 || status > 299) return null;
  const asked = header(reqHeaders, 'access-control-request-headers');
  const askedMethod = header(reqHeaders, 'access-control-request-method');
  if (asked === null && askedMethod === null) return null;
  const list = (v: string | null) =>
    new Set(
      (v ?? '')
        .split(',')
        .map((x) => x.trim().toLowerCase())
        .filter(Boolean),
    );
  const allowed = list(header(resHeaders, 'access-control-allow-headers'));
  const missing = [...list(asked)].filter((h) => !allowed.has(h) && !(allowed.has('*') && h !== 'authorization'));
  if (missing.length)
    return `Request header field ${missing[0]} is not allowed by Access-Control-Allow-Headers in preflight response.${missing.length > 1 ? ` (Also not allowed: ${missing.slice(1).join(', ')}.)` : ''}`;
  const m = askedMethod?.trim().toUpperCase() ?? null;
  const methods = new Set([...list(header(resHeaders, 'access-control-allow-methods'))].map((x) => x.toUpperCase()));
  if (m && !SAFELISTED_METHODS.has(m) && !methods.has(m) && !methods.has('*')) return `Method ${m} is not allowed by Access-Control-Allow-Methods in preflight response.`;
  return null;
}

/** The first JSON-RPC message in a body: plain JSON, a batch, or SSE `data:` lines. */
function rpcOf(body: string | null): { id: RpcId | null; method: string | null; tool: string | null; error: string | null } | null {
  if (!body) return null;
  const candidates: string[] = [];
  const t = body.trim();
  if (t.startsWith('{') || t.startsWith('[')) candidates.push(t);
  else for (const m of t.slice(0, 200_000).split('\n')) if (m.startsWith('data:')) candidates.push(m.slice(5).trim());
  for (const c of candidates) {
    let v: unknown;
    try {
      v = JSON.parse(c);
    } catch {
      continue;
    }
    if (Array.isArray(v)) v = v[0];
    if (!isObj(v) || v.jsonrpc !== '2.0') continue;
    const params = isObj(v.params) ? v.params : null;
    const err = isObj(v.error) ? `${String(v.error.code)} ${String(v.error.message ?? '')}`.trim() : null;
    return { id: toRpcId(v.id), method: s(v.method), tool: v.method === 'tools/call' && params ? s(params.name) : null, error: err };
  }
  return null;
}

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

export const harReader: DocumentReader = {
  id: 'har',
  title: 'HAR (HTTP Archive) export from browser devtools or a proxy',
  source: 'client',
  sniff: (head) => /^\s{0,64}\{/.test(head) && /"log"\s{0,8}:\s{0,8}\{/.test(head) && /"(?:entries|creator|pages)"\s{0,8}:/.test(head),
  itemPath: ['log', 'entries', '[]'],
  toItem(e) {
    const req = isObj(e.request) ? e.request : {};
    const res = isObj(e.response) ? e.response : {};
    const url = s(req.url) ?? '';
    const status = typeof res.status === 'number' && res.status >= 100 && res.status <= 999 ? res.status : null;
    const reqBody = isObj(req.postData) ? s(req.postData.text) : null;
    const resBody = isObj(res.content) ? s(res.content.text) : null;
    const rq = rpcOf(reqBody);
    const rs = rpcOf(resBody);
    const time = typeof e.time === 'number' && e.time >= 0 ? e.time : null;
    const failure = s(res._error) ?? s((e as Json)._error);
    const cors = preflightRefusal(s(req.method), status, req.headers, res.headers);
    const fields: Parsed = {
      ts: parseTimestamp(e.startedDateTime),
      level: status === null || status >= 500 || cors !== null ? 'error' : status >= 400 ? 'warn' : 'info',
      httpMethod: s(req.method),
      httpPath: url ? pathOf(url) : null,
      httpStatus: status,
      requestId: header(req.headers, 'x-request-id') ?? header(res.headers, 'x-request-id'),
      rpcId: rq?.id ?? rs?.id ?? null,
      rpcMethod: rq?.method ?? null,
      tool: rq?.tool ?? null,
      protocolVersion: header(req.headers, 'mcp-protocol-version'),
      durationMs: time,
      attrs: {
        contentType: header(res.headers, 'content-type'),
        ...(rs?.error ? { rpcError: rs.error } : {}),
        ...(failure ? { error: failure } : {}),
      },
    };
    const lines = [
      `${s(req.method) ?? '?'} ${url} -> ${status ?? 'no response'}${time !== null ? ` (${Math.round(time)} ms)` : ''}${rq?.method ? ` ${rq.method}` : ''}${failure ? ` ${failure}` : ''}`,
    ];
    for (const [dir, list] of [
      ['>', req.headers],
      ['<', res.headers],
    ] as const)
      for (const name of ['mcp-session-id', 'mcp-protocol-version', 'content-type', 'x-request-id', 'www-authenticate', 'location']) {
        const v = header(list, name);
        if (v !== null) lines.push(`${dir} ${name}: ${v}`);
      }
    if (cors) lines.push(cors);
    if (reqBody) lines.push(`request body: ${reqBody.slice(0, BODY_PREVIEW)}`);
    if (resBody) lines.push(`response body: ${resBody.slice(0, BODY_PREVIEW)}`);
    fields.message = lines[0]!;
    return { fields, lines };
  },
};

function otlpValue(v: unknown): string | number | boolean | null {
  if (!isObj(v)) return null;
  if ('stringValue' in v) return String(v.stringValue);
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return Number(v.doubleValue);
  if ('boolValue' in v) return Boolean(v.boolValue);
  if ('kvlistValue' in v || 'arrayValue' in v) return JSON.stringify(v.kvlistValue ?? v.arrayValue).slice(0, BODY_PREVIEW);
  return null;
}

function otlpAttrs(list: unknown): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  if (Array.isArray(list)) for (const a of list.slice(0, 200)) if (isObj(a) && typeof a.key === 'string') out[a.key] = otlpValue(a.value);
  return out;
}

function otlpLevel(text: unknown, num: unknown): Level | null {
  const byText = toLevel(text, new Map());
  if (byText) return byText;
  const n = typeof num === 'number' ? num : Number(num);
  if (!Number.isFinite(n) || n <= 0) return null;
  return n <= 4 ? 'trace' : n <= 8 ? 'debug' : n <= 12 ? 'info' : n <= 16 ? 'warn' : n <= 20 ? 'error' : 'fatal';
}

const pickAttr = (a: Record<string, string | number | boolean | null>, keys: string[]) => {
  for (const k of keys) if (a[k] !== undefined && a[k] !== null && a[k] !== '') return a[k]!;
  return null;
};

export const otlpReader: DocumentReader = {
  id: 'otlp-json',
  title: 'OpenTelemetry OTLP/JSON log export (resourceLogs → scopeLogs → logRecords)',
  source: 'unknown',
  sniff: (head) => /^\s{0,64}\{/.test(head) && /"resourceLogs"\s{0,8}:/.test(head),
  itemPath: ['resourceLogs', '[]', 'scopeLogs', '[]', 'logRecords', '[]'],
  contextPath: ['resourceLogs', '[]', 'resource'],
  // OpenTelemetry's HTTP semantic conventions name the peer: a server's records carry the caller's `client.address`
  // and its `http.route`; a client's carry the `url.full` it called and the `server.address` it reached
  sideOf(head) {
    if (/"key"\s{0,8}:\s{0,8}"(?:client\.address|http\.route)"/.test(head)) return 'server';
    if (/"key"\s{0,8}:\s{0,8}"url\.full"/.test(head)) return 'client';
    return undefined;
  },
  toItem(r, resource) {
    const a = otlpAttrs(r.attributes);
    const res = resource ? otlpAttrs(resource.attributes) : {};
    const body = otlpValue(r.body);
    const nano = s(r.timeUnixNano) ?? s(r.observedTimeUnixNano);
    const status = Number(pickAttr(a, ['http.response.status_code', 'http.status_code']));
    const fields: Parsed = {
      ts: nano ? Math.round(Number(nano) / 1e6) || null : null,
      level: otlpLevel(r.severityText, r.severityNumber),
      message: body === null ? '' : String(body),
      httpMethod: s(pickAttr(a, ['http.request.method', 'http.method'])),
      httpPath: s(pickAttr(a, ['url.path', 'http.target', 'http.route'])),
      httpStatus: Number.isInteger(status) && status >= 100 && status <= 999 ? status : null,
      requestId: s(r.traceId),
      rpcId: toRpcId(pickAttr(a, ['jsonrpc.request.id', 'mcp.request.id', 'rpc.jsonrpc.request_id'])),
      rpcMethod: s(pickAttr(a, ['mcp.method.name', 'rpc.method'])),
      tool: s(pickAttr(a, ['gen_ai.tool.name', 'mcp.tool.name'])),
      protocolVersion: s(pickAttr(a, ['mcp.protocol.version'])),
      attrs: { service: s(res['service.name']), spanId: s(r.spanId) },
    };
    const session = s(pickAttr(a, ['mcp.session.id']));
    const lines = [`${r.severityText ?? ''} ${fields.message}`.trim()];
    if (session) lines.push(`mcp-session-id: ${session}`);
    for (const [k, v] of Object.entries(a).slice(0, 40)) if (k !== 'mcp.session.id') lines.push(`${k}=${typeof v === 'string' ? v.slice(0, BODY_PREVIEW) : String(v)}`);
    return { fields, lines };
  },
};

/**
 * A saved tools/list answer — `{"tools":[…]}` (inspector CLI, `probe --log`, a pasted result) or the whole
 * JSON-RPC response `{"jsonrpc":"2.0","id":1,"result":{"tools":[…]}}`: not a log, but each tool's
 * annotations are the side-effect hints the analysis reads (issue #17 item 9). One event per tool,
 * its text the tool's name and annotations as JSON (what classify/facts.ts toolAnnotations reads).
 */
function toolItem(t: Json): DocumentItem {
  const name = s(t.name) ?? '?';
  const hints = isObj(t.annotations) ? t.annotations : null;
  const fields: Parsed = { level: 'info', message: `listed ${name}${hints ? ` with annotations ${JSON.stringify(hints)}` : ' (no annotations)'}` };
  return { fields, lines: [fields.message!, JSON.stringify({ name, ...(hints ? { annotations: hints } : {}) })] };
}
const TOOLS_ARRAY = /"tools"\s{0,8}:\s{0,8}\[/;

export const toolsListReader: DocumentReader = {
  id: 'tools-list',
  title: 'A saved tools/list result ({"tools":[…]})',
  source: 'unknown',
  sniff: (head) => /^\s{0,64}\{\s{0,64}"tools"\s{0,8}:\s{0,8}\[/.test(head),
  itemPath: ['tools', '[]'],
  toItem: toolItem,
};

export const rpcToolsListReader: DocumentReader = {
  id: 'tools-list-rpc',
  title: 'A saved tools/list JSON-RPC response ({"jsonrpc":"2.0","result":{"tools":[…]}})',
  source: 'unknown',
  sniff: (head) => /^\s{0,64}\{/.test(head) && /"jsonrpc"\s{0,8}:\s{0,8}"2\.0"/.test(head) && /"result"\s{0,8}:\s{0,8}\{/.test(head) && TOOLS_ARRAY.test(head),
  itemPath: ['result', 'tools', '[]'],
  toItem: toolItem,
};

export const documentReaders: readonly DocumentReader[] = [harReader, otlpReader, toolsListReader, rpcToolsListReader];

export function sniffDocument(head: readonly string[]): DocumentReader | null {
  const text = head.slice(0, 60).join('\n').slice(0, 20_000);
  return documentReaders.find((r) => r.sniff(text)) ?? null;
}

export interface ScannedItem {
  kind: 'item' | 'oversize' | 'invalid';
  startLine: number;
  endLine: number;
  obj: Json | null;
  context: Json | null;
  cut: number;
}

type Frame = { arr: boolean; key: string | null; expectKey: boolean };

/**
 * Streaming JSON scanner: feed it one physical line at a time; it returns the items that closed on
 * that line. Strings, escapes and nesting are tracked; nothing outside the current item is kept.
 */
export class ItemScanner {
  private stack: Frame[] = [];
  private inString = false;
  private escape = false;
  private stringIsKey = false;
  private keyBuf = '';
  private capture: { depth: number; buf: string[]; size: number; start: number; ctx: boolean; over: boolean } | null = null;
  private context: Json | null = null;
  /** Lines that carried no part of an item (the document's wrapper). */
  wrapperLines = 0;

  constructor(private readonly reader: DocumentReader) {}

  private pathMatches(path: readonly string[]): boolean {
    if (this.stack.length !== path.length) return false;
    for (let i = 0; i < path.length; i++) {
      const f = this.stack[i]!;
      const want = path[i]!;
      if (f.arr ? want !== '[]' : f.key !== want) return false;
    }
    return true;
  }

  push(line: string, n: number): ScannedItem[] {
    const out: ScannedItem[] = [];
    let from = this.capture ? 0 : -1;
    const hadCapture = this.capture !== null;
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      if (this.inString) {
        if (this.escape) this.escape = false;
        else if (c === '\\') this.escape = true;
        else if (c === '"') {
          this.inString = false;
          if (this.stringIsKey) {
            const top = this.stack[this.stack.length - 1];
            if (top) top.key = this.keyBuf;
          }
        } else if (this.stringIsKey && this.keyBuf.length < 200) this.keyBuf += c;
        continue;
      }
      const top = this.stack[this.stack.length - 1];
      if (c === '"') {
        this.inString = true;
        this.stringIsKey = !!top && !top.arr && top.expectKey;
        this.keyBuf = '';
      } else if (c === ':') {
        if (top) top.expectKey = false;
      } else if (c === ',') {
        if (top && !top.arr) top.expectKey = true;
      } else if (c === '{' || c === '[') {
        if (!this.capture && c === '{') {
          const isItem = this.pathMatches(this.reader.itemPath);
          const isCtx = !isItem && !!this.reader.contextPath && this.pathMatches(this.reader.contextPath);
          if (isItem || isCtx) {
            this.capture = { depth: this.stack.length, buf: [], size: 0, start: n, ctx: isCtx, over: false };
            from = i;
          }
        }
        this.stack.push({ arr: c === '[', key: null, expectKey: c === '{' });
        if (this.stack.length > 512) this.stack.pop(); // hostile nesting: stop growing
      } else if (c === '}' || c === ']') {
        this.stack.pop();
        if (this.capture && this.stack.length === this.capture.depth) {
          this.append(line.slice(Math.max(0, from), i + 1));
          const cap = this.capture;
          this.capture = null;
          from = -1;
          const text = cap.buf.join('');
          if (cap.over) out.push({ kind: 'oversize', startLine: cap.start, endLine: n, obj: null, context: this.context, cut: cap.size - MAX_ITEM_CHARS });
          else {
            let obj: unknown = null;
            try {
              obj = JSON.parse(text);
            } catch {
              obj = null;
            }
            if (cap.ctx) this.context = isObj(obj) ? obj : null;
            else out.push({ kind: isObj(obj) ? 'item' : 'invalid', startLine: cap.start, endLine: n, obj: isObj(obj) ? obj : null, context: this.context, cut: 0 });
          }
        }
      }
    }
    if (this.capture && from >= 0) this.append(line.slice(from) + '\n');
    if (!hadCapture && from < 0 && out.length === 0) this.wrapperLines++;
    return out;
  }

  private append(piece: string): void {
    const cap = this.capture!;
    cap.size += piece.length;
    if (cap.over) return;
    if (cap.size > MAX_ITEM_CHARS) {
      cap.over = true;
      cap.buf = [];
      return;
    }
    cap.buf.push(piece);
  }

  /** An item still open at end of file (a truncated export). */
  finish(lastLine: number): ScannedItem[] {
    if (!this.capture || this.capture.ctx) return [];
    const cap = this.capture;
    this.capture = null;
    return [{ kind: 'invalid', startLine: cap.start, endLine: Math.max(cap.start, lastLine), obj: null, context: this.context, cut: 0 }];
  }
}
