// Hand-made HTTP transcripts read as requests and answers. When a remote MCP connection breaks, people
// reproduce it by hand and paste the output: `curl -v` (RFC 9112 message heads behind `> ` and `< `, curl's
// own `* ` notes between them), `curl -i`, HTTPie and `wget -S` (the answer's head alone, wget's indented),
// `curl -w '%{http_code}'` (the status alone, `000` when no answer came: CURLINFO_RESPONSE_CODE "zero if no
// server response code has been received"), a browser's devtools copy (`Request URL:`, `Request Method:`,
// `Status Code:`). Each line arrives as an event of its own, read by whichever format took it; here the
// lines of one exchange become one event — method, path, target, the request's session, the status and the
// answer's Location and Content-Type — so facts and rules see an ordinary request/response pair.
import type { Event } from '../../../parsers/contract/event.ts';
import { signalTable } from '../../../parsers/engine/signals.ts';

const METHODS = 'GET|POST|DELETE|PUT|PATCH|HEAD|OPTIONS';
const METHOD_ONLY = new RegExp(`^(?:${METHODS})$`);
/** `> POST /mcp HTTP/1.1` (curl -v), `POST /mcp HTTP/1.1` (HTTPie's printed request, a raw dump). */
const REQUEST_LINE = new RegExp(`^(?:> ?)?(${METHODS}) (\\S{1,8000}) HTTP/\\d(?:\\.\\d)?\\s{0,4}$`);
/** `< HTTP/2 301`, `HTTP/1.1 404 Not Found` (curl -i, HTTPie), `  HTTP/1.1 404 Not Found` (wget -S). */
const STATUS_LINE = /^(?:< ?|\s{0,4})HTTP\/\d(?:\.\d)? ([1-5]\d\d)\b/;
/** A header field of a head (RFC 9112 field-line), behind curl's marker or wget's indent. */
const FIELD = /^(?:[<>] ?|\s{0,4})([A-Za-z][A-Za-z0-9-]{0,60}): ?(.{0,8000})$/;
/** The empty line that ends a head, as curl -v prints it. */
const HEAD_END = /^[<>]\s{0,4}$/;
/** curl -v's own notes (`* Connected to h (ip) port 443`, TLS steps) and data markers between the heads. */
const CURL_NOTE = /^(?:\*|\{ \[|\} \[)/;
const CONNECTED = /^\* Connected to (\S{1,300}) \([^)]{0,100}\) port (\d{1,5})\b/;
/** `curl … -w '%{http_code}'` then its output: the status alone (`000`: no answer at all). */
const WRITE_OUT = /%\{(?:http_code|response_code)\}/;
const lastLine = (t: string) => t.slice(t.lastIndexOf('\n') + 1);
/** A command line continued on the next (a POSIX shell's `\`, PowerShell's backtick, cmd's `^` ending it). */
const CONTINUED = /(?:^|\s)[\\`^]\s*$/;
const STATUS_ALONE = /^\s{0,8}(\d{3})\s{0,8}$/;
/** A command line that sends one request and prints its answer (after the shell's prompt, if the format left it). */
const COMMAND = /^(?:[$%#❯>] |PS [^>\n]{1,200}> ?)?(?:curl|wget|https?|xh|Invoke-WebRequest|Invoke-RestMethod|iwr|irm) /;
/** The first absolute http(s) URL of a command line. */
const COMMAND_URL = /\bhttps?:\/\/[^\s'"`]{1,2000}/i;
/** Chromium/Firefox devtools "Copy" of a request's General section. */
const DEVTOOLS = /^(Request URL|Request Method|Status Code):\s{0,8}(.{1,8000})$/;

type Head = { method: string | null; path: string | null; status: number | null; noAnswer: boolean };
type Target = { scheme: string | null; host: string | null; port: number | null };
/** An exchange being read: the events it took (indexes), its head, its fields by side. */
type Open = {
  at: number;
  parts: number[];
  head: Head;
  req: Record<string, string>;
  res: Record<string, string>;
  target: Target;
  marked: boolean;
  /** Fields a head printed more than once (lower-case names). */
  repeated: Set<string>;
  /** Lines of the request's body taken so far (a raw dump's or HTTPie's: the request head, its body, then the answer). */
  bodyLines: number;
  /** The head's last line, once a body began. */
  bodyFrom?: number;
};
/** How long a request body printed between its head and the answer may be (HTTPie pretty-prints JSON over lines). */
const BODY_MAX_LINES = 60;
/** A body's lines arrive with their head: a collector stamps them within this of it. */
const BODY_WITHIN_MS = 1000;
/** The methods whose requests carry content (RFC 9110 §9.3: a GET's or DELETE's content has no defined meaning). */
const WITH_CONTENT = /^(?:POST|PUT|PATCH)$/;
/** A JSON body's line, pretty-printed or not. */
const JSON_START = /^\s{0,16}[[{}\]"]/;

const firstLine = (e: Event) => {
  const m = e.message;
  const nl = m.indexOf('\n');
  return (nl < 0 ? m : m.slice(0, nl)).replace(/\s+$/, '');
};
/** The message and the raw line: a format may have taken curl's `> ` marker off the message. */
const textLine = (e: Event) => {
  const t = e.text;
  const nl = t.indexOf('\n');
  return (nl < 0 ? t : t.slice(0, nl)).replace(/\s+$/, '');
};

function urlParts(u: string): { scheme: string | null; host: string | null; port: number | null; path: string } | null {
  const m = /^(?:(https?):\/\/([^/\s:?#]{1,300})(?::(\d{1,5}))?)?(\/[^\s#]{0,8000})?$/.exec(u);
  if (!m || (!m[1] && !m[4])) return null;
  return { scheme: m[1] ?? null, host: m[2] ?? null, port: m[3] ? Number(m[3]) : null, path: m[4] ?? '/' };
}

/**
 * Rewrites a file's transcript lines into one event per exchange (the request line's event, its text
 * holding every line it took); other lines pass unchanged. Lines are taken only while they are a head:
 * a request line, its fields, curl's notes, the status line and the answer's fields; the body stays its own event.
 */
export function joinHttpTranscripts(events: readonly Event[]): Event[] {
  const mayHold = (e: Event) => {
    if (e.format === 'http-transcript' || WRITE_OUT.test(e.text)) return true;
    const l = firstLine(e);
    return STATUS_LINE.test(l) || DEVTOOLS.test(l);
  };
  if (!events.some(mayHold)) return [...events];
  const out: Event[] = [];
  const byFile = new Map<string, number[]>();
  events.forEach((e, i) => {
    const l = byFile.get(e.file);
    if (l) l.push(i);
    else byFile.set(e.file, [i]);
  });
  const replaced = new Map<number, Event | null>();
  for (const idx of byFile.values()) {
    idx.sort((a, b) => events[a]!.line - events[b]!.line || a - b);
    joinFile(
      idx.map((i) => events[i]!),
      (k, e) => replaced.set(idx[k]!, e),
    );
  }
  events.forEach((e, i) => {
    const r = replaced.get(i);
    if (r === undefined) out.push(e);
    else if (r !== null) out.push(r);
  });
  return out;
}

function joinFile(evs: readonly Event[], put: (k: number, e: Event | null) => void): void {
  let open = null as Open | null;
  let phase: 'request' | 'response' = 'request';
  /** The last command line that sends a request (curl, wget, http, Invoke-WebRequest): its identity for a head printed without one. */
  let command: number | null = null;
  /** The command's continuation lines (its options and body when written over several lines), and whether one more follows. */
  let commandLines: number[] = [];
  let commandOpen = false;
  const exchanges: Event[] = [];
  const close = () => {
    // (a request head with no answer is taken only behind curl's `> ` marker: a bare request line with fields
    // is one direction of some dump, and what follows it may be another request's)
    if (open && (open.head.status !== null || open.head.noAnswer || (open.parts.length > 1 && open.marked))) exchanges.push(merge(evs, open, put));
    open = null;
  };
  const start = (k: number, head: Head) => {
    const parts = [k];
    const e = evs[k]!;
    let target = { scheme: null as string | null, host: null as string | null, port: null as number | null };
    // a head printed without its request line (curl -i, HTTPie, wget -S, -w) answers the command above it
    if (command !== null && head.method === null) {
      const c = evs[command]!;
      parts.unshift(command, ...commandLines);
      head.method = c.httpMethod;
      head.path = c.httpPath;
    }
    const from = command !== null ? evs[command]! : e;
    if (typeof from.attrs.targetHost === 'string')
      target = { scheme: (from.attrs.targetScheme as string) ?? null, host: from.attrs.targetHost, port: typeof from.attrs.targetPort === 'number' ? from.attrs.targetPort : null };
    else if (from !== e) {
      // (the command's own URL, when no reader took its target: `curl -sI https://host/path`)
      const u = COMMAND_URL.exec(from.text);
      const p = u ? urlParts(u[0]) : null;
      if (p) target = { scheme: p.scheme, host: p.host, port: p.port };
    }
    command = null;
    open = { at: k, parts, head, req: {}, res: {}, target, marked: textLine(e).startsWith('>'), repeated: new Set(), bodyLines: 0 };
    phase = head.status === null && !head.noAnswer ? 'request' : 'response';
  };
  for (let k = 0; k < evs.length; k++) {
    const e = evs[k]!;
    const line = firstLine(e);
    const raw = textLine(e);
    const req = REQUEST_LINE.exec(raw) ?? REQUEST_LINE.exec(line);
    if (req) {
      close();
      start(k, { method: req[1]!, path: req[2]!, status: null, noAnswer: false });
      continue;
    }
    const st = STATUS_LINE.exec(raw) ?? STATUS_LINE.exec(line);
    if (st) {
      const cur = open as Open | null;
      if (cur && cur.head.status === null && !cur.head.noAnswer) {
        cur.head.status = Number(st[1]);
        cur.parts.push(k);
        phase = 'response';
      } else {
        close();
        start(k, { method: null, path: null, status: Number(st[1]), noAnswer: false });
      }
      continue;
    }
    const dev = DEVTOOLS.exec(line);
    if (dev) {
      const cur = open as Open | null;
      if (!cur || !cur.parts.every((p) => DEVTOOLS.test(firstLine(evs[p]!)))) {
        close();
        start(k, { method: null, path: null, status: null, noAnswer: false });
      } else cur.parts.push(k);
      const o = open!;
      if (dev[1] === 'Request URL') {
        const u = urlParts(dev[2]!.trim());
        if (u) {
          o.head.path = u.path;
          o.target = { scheme: u.scheme, host: u.host, port: u.port };
        }
      } else if (dev[1] === 'Request Method' && METHOD_ONLY.test(dev[2]!.trim())) o.head.method = dev[2]!.trim();
      else if (dev[1] === 'Status Code') {
        const s = /^(\d{3})\b/.exec(dev[2]!.trim());
        if (s) o.head.status = Number(s[1]);
      }
      continue;
    }
    const cur = open as Open | null;
    if (cur) {
      if (HEAD_END.test(raw)) {
        cur.parts.push(k);
        // the empty line after the answer's fields ends the exchange's head
        if (phase === 'response') close();
        continue;
      }
      if (CURL_NOTE.test(raw) || CURL_NOTE.test(line)) {
        const c = CONNECTED.exec(raw) ?? CONNECTED.exec(line);
        if (c && cur.target.host === null) cur.target = { scheme: null, host: c[1]!, port: Number(c[2]) };
        // (left as they are: a note may report a failure of its own)
        continue;
      }
      const lastEnd = evs[cur.parts[cur.parts.length - 1]!]!.endLine;
      // a request field behind curl's `> ` while the answer is open: the next request's head, its request line not
      // read (it answers nothing of this exchange)
      if (phase === 'response' && raw.startsWith('>')) {
        close();
        start(k, { method: null, path: null, status: null, noAnswer: false });
        const f = FIELD.exec(raw);
        if (f) open!.req[f[1]!.toLowerCase()] = f[2]!.trim();
        continue;
      }
      const f = phase === 'request' && cur.bodyLines > 0 ? null : (FIELD.exec(raw) ?? FIELD.exec(line));
      // (a field behind curl's marker, one the transcript format read, or the very next line: an unmarked
      // `Error: …` further down is prose, not a field of this head — a head has no blank line inside)
      const field = f !== null && !/^https?$/i.test(f[1]!) && (/^[<>]/.test(raw) || e.format === 'http-transcript' || e.line === lastEnd + 1);
      if (field) {
        const name = f![1]!.toLowerCase();
        if ((phase === 'request' ? cur.req : cur.res)[name] !== undefined) cur.repeated.add(name);
        (phase === 'request' ? cur.req : cur.res)[name] = f![2]!.trim();
        cur.parts.push(k);
        continue;
      }
      // a request printed with its body (a raw dump, HTTPie's `--print=HBhb`: request line, fields, a blank line,
      // the body, then the answer's status line): the body's lines belong to the request, and the status line
      // that follows answers it (RFC 9112 §2.1: on one connection the answer follows its request). Only a method
      // that sends content, only lines printed with the head (untimed as it is, or stamped within a moment of it by a
      // collector: a log line with a time of its own is no body) within BODY_MAX_LINES of it, and no error line
      // unless it is JSON (an `Error: …` under a head is what some program said)
      const headTs = evs[cur.at]!.ts;
      const withHead = e.ts === null ? headTs === null : headTs !== null && Math.abs(e.ts - headTs) <= BODY_WITHIN_MS;
      const bodyLike = e.level !== 'error' && e.level !== 'fatal' && e.level !== 'warn' ? true : JSON_START.test(line);
      if (phase === 'request' && cur.head.method !== null && WITH_CONTENT.test(cur.head.method) && !cur.marked && withHead && bodyLike && !COMMAND.test(line)) {
        cur.bodyFrom ??= lastEnd;
        if (e.endLine - cur.bodyFrom <= BODY_MAX_LINES) {
          cur.bodyLines += e.endLine - e.line + 1;
          cur.parts.push(k);
          continue;
        }
      }
      close();
    }
    // a command written over several lines: its options and body are its own lines, and what it printed
    // (-w's status) comes under the last of them
    if (command !== null && commandOpen) {
      commandLines.push(k);
      commandOpen = CONTINUED.test(lastLine(e.text));
      continue;
    }
    // `curl -w '%{http_code}'` printed the status alone under its command line
    if (command !== null && [command, ...commandLines].some((c) => WRITE_OUT.test(evs[c]!.text))) {
      const s = STATUS_ALONE.exec(line);
      if (s) {
        const code = Number(s[1]);
        start(k, { method: null, path: null, status: code >= 100 ? code : null, noAnswer: code === 0 });
        close();
        continue;
      }
    }
    // (a command no reader gave a method — `curl -sI https://…`, a HEAD — still names the URL its answer is for)
    command = e.httpStatus === null && COMMAND.test(line) && ((e.attrs.direction === 'request' && e.httpMethod !== null) || COMMAND_URL.test(line)) ? k : null;
    commandLines = [];
    // (a format may already have folded the continuation lines into the command's event: its last line says)
    commandOpen = command !== null && CONTINUED.test(lastLine(e.text));
  }
  close();
  markRedirectLoops(exchanges);
}

/**
 * A redirect whose Location was already requested in this transcript and redirected there too — or is the
 * very URL it answered — is a loop (RFC 9110 §15.4: a client SHOULD detect infinite redirection; curl stops
 * with exit 47, browsers with ERR_TOO_MANY_REDIRECTS): following it never reaches the server's answer. The
 * exchange gets the table's `redirect-loop` signal and `attrs.redirectLoop`: `self` when a path-only Location
 * names the path requested (the server's own routing sends it back to itself: no scheme or host rewrite on
 * the way can explain it), `cycle` otherwise (two hops disagreeing on a slash, a scheme or a host). An https
 * request answered with an http:// Location gets `redirect-scheme-downgrade`.
 */
function markRedirectLoops(exchanges: readonly Event[]): void {
  type Url = { host: string | null; path: string };
  // (hosts compared only when both are known: a transcript may print a Location's host and no Host field)
  const same = (a: Url, b: Url) => a.path === b.path && (a.host === null || b.host === null || a.host === b.host);
  const hostOf = (e: Event) => (typeof e.attrs.targetHost === 'string' ? e.attrs.targetHost : null);
  const redirected: Url[] = [];
  for (const e of exchanges) {
    // (an https request sent to http://: the server built its Location from the scheme it saw behind a TLS proxy)
    if (
      e.httpStatus !== null &&
      e.httpStatus >= 300 &&
      e.httpStatus < 400 &&
      e.attrs.targetScheme === 'https' &&
      typeof e.attrs.location === 'string' &&
      /^http:\/\//i.test(e.attrs.location)
    )
      if (!e.signals.includes('redirect-scheme-downgrade')) e.signals.push('redirect-scheme-downgrade');
    if (e.httpStatus === null || e.httpStatus < 300 || e.httpStatus > 399 || e.httpPath === null) continue;
    const here = { host: hostOf(e), path: e.httpPath.replace(/[?#].*$/, '') };
    redirected.push(here);
    const loc = typeof e.attrs.location === 'string' ? urlParts(e.attrs.location) : null;
    if (!loc) continue;
    const there = { host: loc.host ?? here.host, path: loc.path.replace(/[?#].*$/, '') };
    let loop: 'self' | 'cycle' | null = null;
    if (same(there, here)) loop = loc.host === null ? 'self' : 'cycle';
    else if (redirected.some((r) => same(there, r))) loop = 'cycle';
    if (loop === null) continue;
    e.attrs.redirectLoop = loop;
    if (!e.signals.includes('redirect-loop')) e.signals.push('redirect-loop');
  }
}

function merge(evs: readonly Event[], o: Open, put: (k: number, e: Event | null) => void): Event {
  const parts = [...new Set(o.parts)].sort((a, b) => a - b);
  const events = parts.map((p) => evs[p]!);
  const first = events[0]!;
  const host = o.req.host;
  let target = o.target;
  if (target.host === null && host) {
    const m = /^([^\s:/]{1,300})(?::(\d{1,5}))?$/.exec(host);
    if (m) target = { scheme: null, host: m[1]!, port: m[2] ? Number(m[2]) : null };
  }
  // the session the request sent (a command's -H or a request field: lines above the status line), else,
  // when nothing of the request was printed, the one the answer names
  const statusAt = events.find((x) => x.httpStatus !== null && STATUS_LINE.test(textLine(x)))?.line ?? Infinity;
  const requestShown = events.some((e) => e.line < statusAt);
  const session = requestShown ? (events.find((e) => e.line < statusAt && e.session !== null)?.session ?? null) : (events.find((e) => e.session !== null)?.session ?? null);
  const text = events.map((e) => e.text).join('\n');
  const t = signalTable();
  const signals = new Set<string>([...events.flatMap((e) => e.signals), ...t.match(text)]);
  if (o.head.status !== null && (o.head.status < 200 || o.head.status > 299)) signals.add(`http-${o.head.status}`);
  const attrs: Event['attrs'] = { ...first.attrs };
  for (const e of events) for (const [k, v] of Object.entries(e.attrs)) if (attrs[k] === undefined && k !== 'header' && k !== 'value') attrs[k] = v;
  delete attrs.header;
  delete attrs.value;
  attrs.direction = o.head.status !== null || o.head.noAnswer ? 'exchange' : 'request';
  attrs.transcript = true;
  if (target.host !== null) {
    attrs.targetHost = target.host;
    if (target.port !== null) attrs.targetPort = target.port;
    if (target.scheme !== null) attrs.targetScheme = target.scheme;
  }
  if (o.res.location !== undefined) attrs.location = o.res.location;
  if (o.res['content-type'] !== undefined) attrs.contentType = o.res['content-type'];
  if (o.req.accept !== undefined) attrs.accept = o.req.accept;
  if (o.req['content-type'] !== undefined) attrs.requestContentType = o.req['content-type'];
  if (o.res['www-authenticate'] !== undefined) attrs.wwwAuthenticate = o.res['www-authenticate'];
  if (o.req.authorization !== undefined) attrs.authorizationSent = true;
  if (o.req['mcp-protocol-version'] !== undefined) attrs.protocolVersionSent = o.req['mcp-protocol-version'];
  if (o.head.noAnswer) attrs.noAnswer = true;
  // Mcp-Session-Id printed twice in one head: a client's HTTP library sends (or reads) both as one value joined
  // with ", " (httpx Headers, Fetch), which is no session id (spec: one token of visible ASCII); the table's
  // `session-header-repeated` reads the joined value, this the two fields
  if (o.repeated.has('mcp-session-id')) signals.add('session-header-repeated');
  const merged: Event = {
    ...first,
    endLine: Math.max(...events.map((e) => e.endLine)),
    // (not a block: a block is an exception's text to the facts)
    kind: first.kind === 'raw' ? 'line' : first.kind,
    text,
    message: [o.head.method, o.head.path, o.head.status !== null ? `-> ${o.head.status}` : o.head.noAnswer ? '-> no answer' : null].filter(Boolean).join(' ') || first.message,
    ts: events.find((e) => e.ts !== null)?.ts ?? null,
    level: events.find((e) => e.level !== null)?.level ?? null,
    httpMethod: o.head.method ?? first.httpMethod,
    httpPath: o.head.path ?? first.httpPath,
    httpStatus: o.head.status,
    rpcId: events.find((e) => e.rpcId !== null)?.rpcId ?? null,
    rpcMethod: events.find((e) => e.rpcMethod !== null)?.rpcMethod ?? null,
    tool: events.find((e) => e.tool !== null)?.tool ?? null,
    session,
    protocolVersion: events.find((e) => e.protocolVersion !== null)?.protocolVersion ?? null,
    signals: [...signals],
    attrs,
  };
  parts.forEach((p, i) => put(p, i === 0 ? merged : null));
  return merged;
}
