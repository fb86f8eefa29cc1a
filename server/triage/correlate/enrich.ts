// Fill the join fields of proxy access lines that no format understood. nginx JSON access logs
// (`log_format … escape=json '{"msec":…,"request_id":…,"status":…}'`) arrive as raw lines when
// the format engine does not claim them (or when a redaction pass has broken their JSON); their
// fields are still readable one by one. We read only what correlation needs, never the raw
// session value: a session found here would be a second pseudonym of a mangled string.
import { signalTable } from '../../../parsers/engine/signals.ts';
import type { Event } from '../../../parsers/contract/event.ts';
import { oneNameForEachTool } from './tool-names.ts';
import { joinHttpTranscripts } from './transcript.ts';

const FIELD = (name: string) => new RegExp(`"${name}"\\s*:\\s*"?([^",}]*)"?`);
const F = {
  msec: FIELD('msec'),
  time: FIELD('time(?:_iso8601|_local)?'),
  status: FIELD('status'),
  method: FIELD('request_method'),
  uri: FIELD('uri'),
  request: FIELD('request'),
  requestId: FIELD('request_id'),
  bytes: FIELD('body_bytes_sent'),
  requestTime: FIELD('request_time'),
  upstream: FIELD('upstream_addr'),
  upstreamStatus: FIELD('upstream_status'),
};

function get(re: RegExp, text: string): string | null {
  const m = re.exec(text);
  return m && m[1] !== undefined && m[1] !== '' && m[1] !== '-' ? m[1] : null;
}

/** A raw JSON-ish proxy line → the same event with ts, method, path, status, request id filled (only where empty). */
export function enrichProxyJson(e: Event): Event {
  if (e.source !== 'proxy' || !e.text.startsWith('{')) return e;
  const t = e.text;
  const status = get(F.status, t);
  if (status === null || !/^\d{3}$/.test(status)) return e;
  const msec = get(F.msec, t);
  const time = get(F.time, t);
  let ts = e.ts;
  // `msec` has millisecond resolution; `time` (often what a format maps) only whole seconds
  if ((ts === null || ts % 1000 === 0) && msec && /^\d+(\.\d+)?$/.test(msec)) ts = Math.round(Number(msec) * 1000);
  if (ts === null && time) {
    const p = Date.parse(time);
    if (!Number.isNaN(p)) ts = p;
  }
  let method = get(F.method, t);
  let path = get(F.uri, t);
  const req = get(F.request, t);
  if (req && (!method || !path)) {
    const m = /^([A-Z]+) (\S+)/.exec(req);
    if (m) {
      method ??= m[1]!;
      path ??= m[2]!;
    }
  }
  const attrs = { ...e.attrs };
  const bytes = get(F.bytes, t);
  if (bytes !== null && attrs.bytes === undefined) attrs.bytes = bytes;
  const up = get(F.upstream, t);
  if (up !== null && attrs.upstream === undefined) attrs.upstream = up;
  const ups = get(F.upstreamStatus, t);
  if (ups !== null && attrs.upstreamStatus === undefined) attrs.upstreamStatus = ups;
  const rt = get(F.requestTime, t);
  const durationMs = e.durationMs ?? (rt && /^\d+(\.\d+)?$/.test(rt) ? Math.round(Number(rt) * 1000) : null);
  return {
    ...e,
    ts,
    httpMethod: e.httpMethod ?? method,
    httpPath: e.httpPath ?? path,
    httpStatus: e.httpStatus ?? Number(status),
    requestId: e.requestId ?? get(F.requestId, t),
    durationMs,
    // the session of an unparsed line is unreliable (see the header comment); correlation uses the request id
    session: e.kind === 'raw' ? null : e.session,
    attrs,
  };
}

export function enrichEvents(events: readonly Event[]): Event[] {
  return toolsNamedByServer(oneNameForEachTool(inferUnknownSides(joinHttpTranscripts(events.map((e) => ownBlockTs(enrichProxyJson(e)))))));
}

/** At most this many called tools are looked for in server lines (a bound on the work; incidents name a handful). */
const MAX_NAMED_TOOLS = 64;
/** A name a sentence cannot hold by chance: snake/kebab case, a namespace dot or an inner capital. */
const DISTINCT_TOOL = /^[A-Za-z][\w.-]{3,79}$/;
const toolShaped = (n: string) => DISTINCT_TOOL.test(n) && (/[_.-]/.test(n) || /[a-z][A-Z]/.test(n));

/**
 * A server line that carries no tool field but names, as a whole word, a tool the client called
 * (`chat_with_agent received agent=…`, `run_batch_analysis: processing done`): that call's tool. Many
 * servers log their handler's name and no JSON-RPC fields; this is what ties such a line to the call
 * (failure-signatures "correlation keys": the tool name when no id is logged). Only names no prose holds
 * by chance (`search` or `list` never match), and a gateway's namespaced name (`billing.issue_credit`)
 * is found by its bare part too.
 */
export function toolsNamedByServer(events: Event[]): Event[] {
  const names = new Map<string, string>();
  for (const e of events) {
    if (e.source === 'server' || e.source === 'proxy' || e.tool === null || names.size >= MAX_NAMED_TOOLS * 2) continue;
    if (!toolShaped(e.tool)) continue;
    names.set(e.tool, e.tool);
    const bare = e.tool.split(/\.|__|:|\//).pop()!;
    if (bare !== e.tool && toolShaped(bare) && !names.has(bare)) names.set(bare, e.tool);
  }
  if (!names.size) return events;
  const list = [...names];
  const word = /[\w.-]/;
  const named = (text: string): string | null => {
    for (const [name, tool] of list) {
      for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
        const before = at > 0 ? text[at - 1]! : ' ';
        const after = text[at + name.length] ?? ' ';
        // a dot may end a sentence after the name, not start a longer one before it
        if (!word.test(before) && !(/[\w-]/.test(after) || (after === '.' && word.test(text[at + name.length + 1] ?? ' ')))) return tool;
      }
    }
    return null;
  };
  // A log whose side no name or signal told, that never makes a call itself (no tool, no method, no
  // client-side signal) but names a tool another log called: the server's log (the client's own files,
  // a second client log with its own `calling tool …` lines, stay as they are).
  const t = signalTable();
  const callsItself = new Set<string>();
  const namesCalled = new Set<string>();
  for (const e of events) {
    if (e.source !== 'unknown') continue;
    if (e.tool !== null || e.rpcMethod !== null || e.signals.some((id) => t.meaning(id)?.side === 'client')) callsItself.add(e.file);
  }
  for (const e of events) if (e.source === 'unknown' && !callsItself.has(e.file) && !namesCalled.has(e.file) && named(e.message) !== null) namesCalled.add(e.file);
  return events.map((e) => {
    const server = e.source === 'server' || (e.source === 'unknown' && namesCalled.has(e.file));
    if (!server) return e;
    const tool = e.tool === null ? named(e.message) : null;
    if (tool === null && e.source === 'server') return e;
    return { ...e, source: 'server', ...(tool === null ? {} : { tool }) };
  });
}

/**
 * A file whose side no name or format told (source `unknown`: `incident-2.log`, a generic layout) is
 * read by what its lines say happened: only server-side signals (a handler started, a request
 * received, a session evicted) or records of MCP requests naming their caller make it the server's
 * log; only client-side ones (a call returned, a request timed out, a fallback) the client's; a
 * process that says it started listening and nothing either side says, the server's. Mixed or
 * none: it stays unknown.
 */
export function inferUnknownSides(events: Event[]): Event[] {
  const votes = new Map<string, { client: number; server: number; started: boolean; known: boolean }>();
  const t = signalTable();
  for (const e of events) {
    const v = votes.get(e.file) ?? votes.set(e.file, { client: 0, server: 0, started: false, known: false }).get(e.file)!;
    if (e.source !== 'unknown') v.known = true;
    // (each line is one witness: a line whose several signals all say client counts once)
    let client = false;
    let server = false;
    for (const id of e.signals) {
      // a process starting says little of its MCP side (a gateway is a server to its users and a client upstream;
      // a client may start a local OAuth callback server): it decides only when no line of the file says anything else
      if (id === 'server-started') {
        v.started = true;
        continue;
      }
      const side = t.meaning(id)?.side;
      if (side === 'client') client = true;
      else if (side === 'server') server = true;
    }
    // (a record of an MCP request that names its caller — `tools/call get_rate client=ops-copilot/0.31.0`,
    // enrich.ts CLIENT_NAME — is the served side's: a client does not name itself on each call)
    if (!server && typeof e.attrs.clientName === 'string' && (e.rpcMethod !== null || e.tool !== null)) server = true;
    if (client) v.client++;
    if (server) v.server++;
  }
  const sideOf = new Map<string, 'client' | 'server'>();
  for (const [file, v] of votes) {
    if (v.known) continue;
    // (one side's words may quote the other's: a server logging the cancel notification a client sent with its
    // reason — a clear majority decides, three to one)
    if (v.server > 0 && v.server >= 3 * v.client) sideOf.set(file, 'server');
    else if (v.client > 0 && v.client >= 3 * v.server) sideOf.set(file, 'client');
    // (a process that listens and whose lines name neither side's doing: the one that was called — a server, or a
    // gateway answering as one)
    else if (v.started && v.client === 0 && v.server === 0) sideOf.set(file, 'server');
  }
  if (!sideOf.size) return events;
  return events.map((e) => {
    const side = sideOf.get(e.file);
    return side && e.source === 'unknown' ? { ...e, source: side } : e;
  });
}

const LEADING_ISO = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d))\s/;

/**
 * A folded block keeps the timestamp of the line that starts it. When the stored ts disagrees with
 * the ISO timestamp written at the start of the block's own text (seen when a fold picks up the
 * time of the block before it), the block's own text wins.
 */
export function ownBlockTs(e: Event): Event {
  if (e.kind !== 'block') return e;
  const m = LEADING_ISO.exec(e.text);
  if (!m) return e;
  const t = Date.parse(m[1]!);
  return Number.isNaN(t) || t === e.ts ? e : { ...e, ts: t };
}
