// Facts about one failing request, derived from its correlated span. Rules read only these.
import type { Event, RpcId, Source } from '../../../parsers/contract/event.ts';
import type { Evidence, Stage } from '../../contract/analysis.ts';
import { chooseRoot, inferStage, matchKnownDefects, parseExceptionText } from '../exceptions/index.ts';
import type { SpanBuild } from '../correlate/spans.ts';
import { STREAM_NOISE } from '../correlate/spans.ts';
import { classifyTool, type ToolClass, type ToolPolicy } from './policy.ts';

export type BodyKind = 'html' | 'jsonrpc-error' | 'empty' | 'text' | 'unknown';
/** What the proxy's error log says about the upstream hop (nginx wording; Envoy flags map onto it). */
export type ProxyPhrase = 'connecting' | 'reading-response-header' | 'reading-upstream' | null;
/** How a request was interrupted, when it was (stages C/H/B/E of failure-signatures (c)). */
export type Interruption =
  | 'connect'
  | 'proxy-closed-before-headers'
  | 'proxy-timeout-before-headers'
  | 'stream-cut'
  | 'client-timeout'
  | 'connection-closed'
  | 'client-gave-up'
  | null;
export type Era = 'legacy-sse' | 'session' | 'sessionless' | 'unknown';

export interface Facts {
  rpcId: RpcId | null;
  method: string | null;
  tool: string | null;
  session: string | null;
  httpStatus: number | null;
  /** HTTP method of the failing exchange (GET = the optional standalone SSE stream). */
  httpMethod: string | null;
  stage: Stage;
  stageEvidence: string | null;
  rootException: { type: string; message: string } | null;
  exceptionChain: string[];
  protocolVersion: string | null;
  era: Era;
  /** The failing request carried a session id. */
  sessionSent: boolean;
  /** That session id had been assigned by the server before the failure (seen working or announced). */
  sessionAssignedEarlier: boolean;
  /** The failing request is the very first exchange (initialize, or nothing earlier on that connection). */
  firstRequest: boolean;
  bodyKind: BodyKind;
  jsonRpcCode: number | null;
  sources: Source[];
  /** All text of the span, for signature rules (redacted). */
  text: string;
  /** A later exchange on a new session succeeded (the client recovered on its own). */
  recoveredLater: boolean;
  /**
   * The client said it falls back to another transport, in this request's lines or right after
   * them (mcp-remote logs the 404 and then "Recursively reconnecting for reason:
   * falling-back-to-alternate-transport" as the next line, outside the request).
   */
  transportFallback: boolean;
  /** Which sources logged something about this request. */
  seenBy: { client: boolean; proxy: boolean; server: boolean };
  /** The proxy error-log phrase for this request. */
  proxyPhrase: ProxyPhrase;
  /** How the request was interrupted (null: it got a complete answer, or we cannot tell). */
  interruption: Interruption;
  /** Milliseconds from request start to the failure, when a log says (client "(N ms)", "Waited N seconds", proxy request_time). */
  elapsedMs: number | null;
  /** A client-side timeout setting visible in the text (ms), e.g. "Waited 5.0 seconds", "timeout: 8000". */
  clientTimeoutMs: number | null;
  /** The infrastructure timer the elapsed time matches (15/30/60/100/125/300 s, ±10 %), or null. */
  knownTimerS: number | null;
  /** Distinct server replicas (hostname, else pid, else file) that logged this session. */
  replicas: string[];
  /** The session was created on one replica and rejected by another that was not a restart of it. */
  replicaSplit: boolean;
  /** Side-effect class of the call and where that came from (a tool name never decides it). */
  sideEffect: ToolClass;
  sideEffectSource: 'method' | 'policy' | 'annotations' | 'unknown';
  /** Annotation hints seen in a logged tools/list result, shown as hints (not proof). */
  toolHints: string | null;
  /** A server line in or after the span shows the handler completed / committed / sent its result. */
  writeEvidence: string | null;
  /** A known SDK defect (exceptions/known-defects.ts) matched the exception tree. */
  knownDefect: string | null;
  /** An earlier request in the same session succeeded (so the session worked before). */
  sessionWorkedBefore: boolean;
  /**
   * The client resumed this request's cut SSE stream (failure-signatures D9): file:line of a later GET in the same
   * session that carried Last-Event-ID and was answered 2xx, when no client-side error of this request followed.
   */
  resumedStream: string | null;
}

export interface FactsContext {
  protocolVersions: string[];
  /** Incident-wide look-ups over `all` (see factsIndex); built on the fly when absent. Pass one per incident. */
  index?: FactsIndex;
  toolPolicy?: ToolPolicy | null;
  /** Tool annotations read from logged tools/list results (see toolAnnotations). */
  annotations?: ReadonlyMap<string, Record<string, boolean>>;
}

export interface FailureCandidate {
  span: SpanBuild;
  facts: Facts;
  evidence: Evidence[];
  ts: number | null;
}

const HTML = /<html|<title>|<center>nginx|<!doctype html|content-type=text\/html|Content-Type: text\/html/i;

/** Methods that read and can be repeated (failure-signatures D6). */
const READ_METHODS = new Set(['initialize', 'server/discover', 'tools/list', 'resources/list', 'resources/templates/list', 'resources/read', 'prompts/list', 'prompts/get', 'ping', 'completion/complete', 'tasks/get', 'tasks/list', 'logging/setLevel']);
/** Infrastructure timers of failure-signatures (c), in seconds. */
const TIMERS = [15, 30, 60, 100, 125, 300];
/** A handler finished its work (server side): the write happened even if the client never saw it. */
const COMPLETION = /\b(?:committed|commit(?:ted)? (?:ok|succeeded)|completed successfully|handler (?:completed|finished|done)|result sent|response sent|succeeded|created (?:order|record|item)|wrote \d+|imported=\d+)\b/i;
const CLIENT_TIMEOUT = /Request timed out|Timed out while waiting for response|Request '[\w/]{1,80}' timed out|\bReadTimeout\b|TimeoutError|timed out after|UND_ERR_HEADERS_TIMEOUT|UND_ERR_BODY_TIMEOUT/;
const CUT = /Server disconnected without sending a response|incomplete chunked read|without sending complete message body|SSE stream ended without a response|other side closed|UND_ERR_SOCKET|TypeError: terminated|PrematureClose|prematurely closed|Connection reset by peer|ECONNRESET|ASGI callable returned without completing response|upstream_reset|Connection aborted/;
const CONNECT = /while connecting to upstream|no live upstreams|connect\(\) failed|ECONNREFUSED|Connection refused|ConnectError|ConnectTimeout|All connection attempts failed|ENOTFOUND|EAI_AGAIN|Name or service not known|UND_ERR_CONNECT_TIMEOUT|\b503 U[FH]\b|upstream connect error/;

/** Tool annotations from logged tools/list results: {"name":"x",…,"annotations":{"readOnlyHint":true,…}}. */
export function toolAnnotations(events: readonly Event[]): Map<string, Record<string, boolean>> {
  const out = new Map<string, Record<string, boolean>>();
  for (const e of events) {
    if (!e.text.includes('Hint')) continue;
    const re = /"name"\s*:\s*"([^"]{1,120})"[^{}]{0,4000}?"annotations"\s*:\s*\{([^{}]{0,600})\}/g;
    for (let m = re.exec(e.text); m; m = re.exec(e.text)) {
      const hints: Record<string, boolean> = {};
      for (const h of m[2]!.matchAll(/"(\w+Hint)"\s*:\s*(true|false)/g)) hints[h[1]!] = h[2] === 'true';
      if (Object.keys(hints).length) out.set(m[1]!, hints);
    }
  }
  return out;
}

/** A replica's identity from a server line: hostname (pino/logfmt), else pid, else the file. */
function replicaOf(e: Event): { host: string | null; pid: string | null; file: string } {
  const host = (e.attrs.hostname as string | undefined) ?? /"hostname"\s*:\s*"([^"]+)"/.exec(e.text)?.[1] ?? /\bhost(?:name)?=(\S+)/.exec(e.text)?.[1] ?? null;
  const pidRaw = e.attrs.pid ?? /"pid"\s*:\s*(\d+)/.exec(e.text)?.[1] ?? null;
  return { host, pid: pidRaw === null ? null : String(pidRaw), file: e.file };
}

export function isFailureEvent(e: Event): boolean {
  return (e.httpStatus !== null && e.httpStatus >= 400) || e.level === 'error' || e.level === 'fatal' || e.kind === 'block';
}

/** A block folded under a log line starts with that line's prefix: start at the first exception type on it. */
export function exceptionText(e: Event): string {
  if (e.format === 'python-traceback' || e.format === 'node-error' || e.kind !== 'block') return e.text;
  const nl = e.text.indexOf('\n');
  const first = nl < 0 ? e.text : e.text.slice(0, nl);
  const m = /\b(?:[a-z_][\w]*\.)*[A-Z][\w$]*(?:Error|Exception|Group)\b(?: \[[A-Z_]+\])?:/.exec(first);
  return m ? first.slice(m.index) + (nl < 0 ? '' : e.text.slice(nl)) : e.text;
}

/** Also run by DuckDB (store/focus.ts): keep both patterns in the syntax RE2 and JS share. */
export const HANDSHAKE = /Received session ID|Created new (?:transport|session)|Negotiated protocol version: 20(?:24|25)/;
export const LEGACY = /\/messages\/?\?session_?[iI]d=|event: endpoint|SSEClientTransport|sse_client/;
/**
 * Text every match of each pattern holds (one literal per alternative): SQL tests these with
 * contains() before running the regex over millions of rows. facts.test.ts checks each
 * alternative of the pattern begins with its literal.
 */
export const HANDSHAKE_LITERALS = ['Received session ID', 'Created new ', 'Negotiated protocol version: 20'];
export const LEGACY_LITERALS = ['/messages', 'event: endpoint', 'SSEClientTransport', 'sse_client'];

/**
 * A client saying it recovered: a new transport connected, or a dropped stream resumed. Such
 * lines often carry no level, status or id, so analysis reads them by these words (store/focus.ts
 * TRIAGE_WHERE). No flags: SQL runs the same pattern; the casings logs use are spelled out.
 */
export const RECOVERED = /Connected to remote server using \w+|Proxy established successfully|Reconnected to SSE stream|Resum(?:ed|ing) (?:the )?(?:SSE )?stream|resum(?:ed|ing) (?:the )?(?:SSE )?stream|Successfully connected|successfully connected|Connection established|connection established/;
export const RECOVERED_LITERALS = ['Connected to remote server using ', 'Proxy established successfully', 'Reconnected to SSE stream', 'Resum', 'resum', 'Successfully connected', 'successfully connected', 'Connection established', 'connection established'];
/** A client's words for giving up on Streamable HTTP for the legacy SSE transport (spec 2025-03-26 backward compatibility). */
export const FALLBACK = /falling-back-to-alternate-transport|fall(?:ing)? ?back to (?:the )?(?:SSE|sse|legacy)|Fall(?:ing)? ?back to (?:the )?(?:SSE|sse|legacy)|trying (?:the )?SSE transport|Trying (?:the )?(?:SSE|legacy) transport|sse-only/;
export const FALLBACK_LITERALS = ['falling-back-to-alternate-transport', 'fall', 'Fall', 'trying ', 'Trying ', 'sse-only'];

/**
 * What deriveFacts needs from the whole incident, computed once instead of once per failing
 * span (each was a scan of every event). Every field answers exactly the question the
 * per-span scan asked.
 */
export interface FactsIndex {
  all: readonly Event[];
  /** Position of each event in `all`. */
  position: Map<Event, number>;
  /** Positions of the events of each session, in `all` order. */
  bySession: Map<string, number[]>;
  /** Positions of client and unknown-source events, in `all` order. */
  clientish: number[];
  /** Some event shows a session handshake (initialize, an assigned session id, a negotiated version). */
  handshake: boolean;
  /** Some event shows the legacy HTTP+SSE transport. */
  legacy: boolean;
  /** Client exchanges answered below 400: whether any exists, and the earliest time among those with one. */
  okClient: { any: boolean; minTs: number };
  /** Client successes on a session after its initialize: the latest, and the latest on a different session. */
  recovered: { top: { ts: number; session: string } | null; other: number };
}

export function factsIndex(all: readonly Event[]): FactsIndex {
  const position = new Map<Event, number>();
  const bySession = new Map<string, number[]>();
  const clientish: number[] = [];
  let handshake = false;
  let legacy = false;
  const okClient = { any: false, minTs: Infinity };
  const recoveredEvents: Event[] = [];
  for (let i = 0; i < all.length; i++) {
    const e = all[i]!;
    if (!position.has(e)) position.set(e, i);
    if (e.session !== null) {
      const list = bySession.get(e.session);
      if (list) list.push(i);
      else bySession.set(e.session, [i]);
    }
    if (e.source === 'client' || e.source === 'unknown') clientish.push(i);
    if (!handshake && (e.rpcMethod === 'initialize' || HANDSHAKE.test(e.message))) handshake = true;
    if (!legacy && LEGACY.test(e.text)) legacy = true;
    if (e.source === 'client' && e.httpStatus !== null && e.httpStatus < 400) {
      okClient.any = true;
      if (e.ts !== null && e.ts < okClient.minTs) okClient.minTs = e.ts;
    }
    if (e.source === 'client' && e.ts !== null && e.httpStatus !== null && e.httpStatus < 300 && e.session !== null && e.rpcMethod !== 'initialize' && e.rpcMethod !== null) recoveredEvents.push(e);
  }
  let top: { ts: number; session: string } | null = null;
  for (const e of recoveredEvents) if (top === null || e.ts! > top.ts) top = { ts: e.ts!, session: e.session! };
  let other = -Infinity;
  if (top) for (const e of recoveredEvents) if (e.session !== top.session && e.ts! > other) other = e.ts!;
  return { all, position, bySession, clientish, handshake, legacy, okClient, recovered: { top, other } };
}

export function deriveFacts(span: SpanBuild, all: readonly Event[], ctx: FactsContext): Facts {
  const ix = ctx.index && ctx.index.all === all ? ctx.index : factsIndex(all);
  const evs = span.events;
  const inSpan = new Set(evs);
  const sessionList = span.session ? (ix.bySession.get(span.session) ?? []) : [];
  const text = evs.map((e) => e.text).join('\n').slice(0, 100_000);
  const statusOf = (src: Source) => evs.find((e) => e.source === src && e.httpStatus !== null && e.httpStatus >= 400)?.httpStatus ?? null;
  const httpStatus = statusOf('proxy') ?? statusOf('server') ?? statusOf('client') ?? evs.find((e) => e.httpStatus !== null && e.httpStatus >= 400)?.httpStatus ?? null;
  const start = span.start;
  const session = span.session;
  const before = (e: Event) => start === null || (e.ts !== null && e.ts < start);
  const sessionEvents = session ? sessionList.map((i) => all[i]!).filter((e) => !inSpan.has(e)) : [];
  const sessionAssignedEarlier =
    !!session &&
    sessionEvents.some((e) => before(e) && ((e.httpStatus !== null && e.httpStatus < 400) || /Received session ID|Created new (?:transport|session)|session assigned/i.test(e.text)));
  const method = span.method;
  // Whether the request itself carried a session id: read it from the request lines (a client
  // exchange line, a server "incoming request"), not from the response that may assign one.
  const requestLines = evs.filter((e) => (e.source === 'client' && e.httpMethod !== null) || (e.source === 'server' && e.httpMethod !== null && e.httpStatus === null));
  const sessionSent = method === 'initialize' ? false : requestLines.length ? requestLines.some((e) => e.session !== null) : !!session;
  const firstRequest =
    method === 'initialize' || method === 'server/discover' || (!session && !all.some((e) => before(e) && e.source === 'client' && e.httpStatus !== null && e.httpStatus < 400));
  let bodyKind: BodyKind = 'unknown';
  const codeMatch = /"error"\s*:\s*\{\s*"code"\s*:\s*(-?\d{1,6})/.exec(text) ?? /\bMCP error (-?\d{1,6})\b/.exec(text) ?? /"code"\s*:\s*(-?\d{1,6})/.exec(text);
  const jsonRpcCode = codeMatch ? Number(codeMatch[1]) : null;
  if (HTML.test(text)) bodyKind = 'html';
  else if (/"jsonrpc"[^\n]{0,400}"error"|"error"\s*:\s*\{\s*"code"/.test(text)) bodyKind = 'jsonrpc-error';
  const blocks = evs.filter((e) => e.kind === 'block');
  let rootException: Facts['rootException'] = null;
  let exceptionChain: string[] = [];
  let stage: Stage = 'unknown';
  let stageEvidence: string | null = null;
  for (const b of blocks) {
    const tree = parseExceptionText(exceptionText(b));
    if (!tree) continue;
    const choice = chooseRoot(tree);
    const guess = inferStage(tree, choice.root);
    rootException = choice.root ? { type: choice.root.type, message: choice.root.message } : null;
    exceptionChain = choice.chain;
    stage = guess.stage;
    stageEvidence = guess.evidence;
    if (rootException) break;
  }
  if (stage === 'unknown' && httpStatus !== null && httpStatus !== 502 && httpStatus !== 504 && httpStatus !== 499) {
    stage = 'http_status';
    stageEvidence = `a complete HTTP ${httpStatus} answer`;
  }
  const pv = evs.find((e) => e.protocolVersion)?.protocolVersion ?? (ctx.protocolVersions.length === 1 ? ctx.protocolVersions[0]! : null);
  // The era is what the exchange actually did, not what a header claimed: an initialize or an assigned
  // session id means a session-era conversation even when a client pins a newer version header.
  const handshake = ix.handshake;
  const legacy = ix.legacy;
  let era: Era = pv === null ? 'unknown' : pv >= '2026-07-28' ? 'sessionless' : pv >= '2025-03-26' ? 'session' : 'legacy-sse';
  if (era === 'sessionless' && handshake) era = 'session';
  if (era === 'unknown' && handshake) era = 'session';
  if (era === 'unknown' && legacy) era = 'legacy-sse';
  const end = span.end ?? start;
  // a later success on another session: the latest success overall, or (when that one is on
  // this span's session) the latest on any other session, is after the end
  const rec = ix.recovered;
  const laterSuccess = end !== null && rec.top !== null && (rec.top.session !== session ? rec.top.ts > end : rec.other > end);
  let later: string | null = null;
  const laterText = () => (later ??= laterClientText(ix, span, inSpan));
  const recoveredLater = laterSuccess || RECOVERED.test(laterText());
  // Only the client's next few lines: a fallback said much later is about some other attempt.
  const transportFallback = FALLBACK.test(text) || (recoveredLater && FALLBACK.test(laterText().split('\n', 5).join('\n')));
  const seenBy = { client: evs.some((e) => e.source === 'client'), proxy: evs.some((e) => e.source === 'proxy'), server: evs.some((e) => e.source === 'server') };
  const proxyText = evs.filter((e) => e.source === 'proxy').map((e) => e.text).join('\n');
  const proxyPhrase: ProxyPhrase = /while connecting to upstream|no live upstreams/.test(proxyText)
    ? 'connecting'
    : /while reading response header from upstream/.test(proxyText)
      ? 'reading-response-header'
      : /while reading upstream|while sending to client/.test(proxyText)
        ? 'reading-upstream'
        : null;
  if (proxyPhrase === 'connecting') {
    stage = 'connect';
    stageEvidence = 'the proxy failed while connecting to the upstream';
  } else if (proxyPhrase === 'reading-response-header' && (stage === 'unknown' || stage === 'http_status')) {
    stage = 'before_headers';
    stageEvidence = 'the proxy lost the upstream while reading the response header';
  } else if (proxyPhrase === 'reading-upstream' && (stage === 'unknown' || stage === 'http_status' || stage === 'between_sse_events')) {
    stage = 'mid_body';
    stageEvidence = 'the proxy lost the upstream while reading the response body (after the headers)';
  }
  // elapsed time and timers
  const durations: number[] = [];
  for (const e of evs) {
    if (e.durationMs !== null) durations.push(e.durationMs);
    const ms = /\((\d+(?:\.\d+)?) ?ms\)/.exec(e.message);
    if (ms && e.source === 'client') durations.push(Number(ms[1]));
  }
  const waited = /Waited (\d+(?:\.\d+)?) seconds/.exec(text);
  const timeoutProp = /\btimeout:\s*(\d+)\b/.exec(text);
  const clientTimeoutMs = waited ? Number(waited[1]) * 1000 : timeoutProp ? Number(timeoutProp[1]) : null;
  if (clientTimeoutMs !== null) durations.push(clientTimeoutMs);
  const elapsedMs = durations.length ? Math.max(...durations) : null;
  const knownTimerS = elapsedMs === null ? null : (TIMERS.find((t) => Math.abs(elapsedMs / 1000 - t) <= t * 0.1) ?? null);
  // how it was interrupted
  const failText = evs.filter((e) => isFailureEvent(e)).map((e) => e.text).join('\n');
  let interruption: Interruption = null;
  if (proxyPhrase === 'connecting' || (stage === 'connect' && CONNECT.test(failText))) interruption = 'connect';
  else if (proxyPhrase === 'reading-response-header') interruption = /timed out/.test(proxyText) ? 'proxy-timeout-before-headers' : 'proxy-closed-before-headers';
  else if (proxyPhrase === 'reading-upstream') interruption = 'stream-cut';
  else if (httpStatus === 504 || httpStatus === 524 || httpStatus === 408) interruption = 'proxy-timeout-before-headers';
  else if (httpStatus === 499 || httpStatus === 460) interruption = 'client-gave-up';
  else if (CUT.test(failText) && !STREAM_NOISE.test(failText.split('\n')[0] ?? '')) interruption = 'stream-cut';
  else if (CLIENT_TIMEOUT.test(failText)) interruption = 'client-timeout';
  else if (/Connection closed/.test(failText)) interruption = 'connection-closed';
  else if (stage === 'before_headers' || stage === 'mid_body') interruption = 'stream-cut';
  // replicas of this session
  const serverEvents = session ? sessionList.map((i) => all[i]!).filter((e) => e.source === 'server') : [];
  const replicaIds = new Map<string, { host: string | null; first: number | null; last: number | null }>();
  for (const e of serverEvents) {
    const r = replicaOf(e);
    const id = r.host ?? (r.pid ? `pid ${r.pid}` : r.file);
    const x = replicaIds.get(id) ?? { host: r.host, first: null, last: null };
    if (e.ts !== null) {
      x.first = x.first === null ? e.ts : Math.min(x.first, e.ts);
      x.last = x.last === null ? e.ts : Math.max(x.last, e.ts);
    }
    replicaIds.set(id, x);
  }
  const creator = serverEvents.find((e) => /Created new (?:transport|session)|session (?:created|assigned)/i.test(e.text));
  const rejecter = evs.find((e) => e.source === 'server' && (isFailureEvent(e) || /not found|not initialized|unknown session|No valid session/i.test(e.text)));
  let replicaSplit = false;
  if (creator && rejecter) {
    const a = replicaOf(creator);
    const b = replicaOf(rejecter);
    // a new pid on the same host is a restart, not a second replica; different hosts (or two files
    // without hosts) that both served are replicas
    if (a.host && b.host) replicaSplit = a.host !== b.host;
    else if (!a.host && !b.host) replicaSplit = a.file !== b.file;
  }
  if (/Server not initialized/.test(text) && replicaIds.size > 1) replicaSplit = true;
  // side effect of the call
  const cls = classifyTool(method, span.tool, ctx.toolPolicy ?? null, ctx.annotations ?? new Map(), READ_METHODS);
  // write evidence: a server line of this request (same span, or same session + rpc id / tool, at or after the start)
  let writeEvidence: string | null = null;
  // candidates: the span's own events and its session's events, visited in `all` order
  const spanRpc = span.rpcId === null ? null : JSON.stringify(span.rpcId);
  const candidates = new Set<number>();
  for (const e of evs) {
    const i = ix.position.get(e);
    if (i !== undefined && e.source === 'server') candidates.add(i);
  }
  if (session !== null && spanRpc !== null) for (const i of sessionList) if (all[i]!.source === 'server') candidates.add(i);
  const mine = (e: Event) =>
    e.source === 'server' &&
    (inSpan.has(e) || (session !== null && e.session === session && spanRpc !== null && JSON.stringify(e.rpcId) === spanRpc)) &&
    (start === null || e.ts === null || e.ts >= start);
  for (const i of [...candidates].sort((a, b) => a - b)) {
    const e = all[i]!;
    if (!mine(e)) continue;
    if (COMPLETION.test(e.message)) {
      writeEvidence = `${e.file}:${e.line} ${e.message.slice(0, 160)}`;
      break;
    }
    if (/request completed/i.test(e.message) && e.httpStatus !== null && e.httpStatus < 300 && !/abort/i.test(e.text)) {
      writeEvidence = `${e.file}:${e.line} the server completed the request with HTTP ${e.httpStatus}`;
      break;
    }
  }
  // known SDK defects
  let knownDefect: string | null = null;
  for (const b of blocks) {
    const tree = parseExceptionText(exceptionText(b));
    if (!tree) continue;
    const m = matchKnownDefects(tree, { laterMessages: laterText().split('\n') });
    if (m.length) {
      knownDefect = m[0]!.id;
      break;
    }
  }
  const sessionWorkedBefore = sessionEvents.some((e) => before(e) && e.httpStatus !== null && e.httpStatus < 400 && e.rpcMethod !== 'initialize');
  const resumedStream = resumedAfterCut(span, sessionEvents);
  return {
    rpcId: span.rpcId,
    method,
    tool: span.tool,
    session,
    httpStatus,
    httpMethod: evs.find((e) => e.httpMethod && e.httpStatus !== null && e.httpStatus >= 400)?.httpMethod ?? evs.find((e) => e.httpMethod)?.httpMethod ?? null,
    stage,
    stageEvidence,
    rootException,
    exceptionChain,
    protocolVersion: pv,
    era,
    sessionSent,
    sessionAssignedEarlier,
    firstRequest,
    bodyKind,
    jsonRpcCode,
    sources: span.sources,
    text,
    recoveredLater,
    transportFallback,
    seenBy,
    proxyPhrase,
    interruption,
    elapsedMs,
    clientTimeoutMs,
    knownTimerS,
    replicas: [...replicaIds.keys()].sort(),
    replicaSplit,
    sideEffect: cls.class,
    sideEffectSource: cls.source,
    toolHints: cls.hints,
    writeEvidence,
    knownDefect,
    sessionWorkedBefore,
    resumedStream,
  };
}

/** Things a client logs when it got past a failure by itself (fallback transport, resumed stream). */

function laterClientText(ix: FactsIndex, span: SpanBuild, inSpan: Set<Event>): string {
  const end = span.end;
  const out: string[] = [];
  let lastByFile: Map<string, number> | null = null;
  for (const i of ix.clientish) {
    const e = ix.all[i]!;
    if (inSpan.has(e)) continue;
    if (end !== null && e.ts !== null && e.ts <= end) continue;
    if (end === null || e.ts === null) {
      if (!lastByFile) {
        lastByFile = new Map();
        for (const x of span.events) lastByFile.set(x.file, Math.max(lastByFile.get(x.file) ?? -1, x.endLine));
      }
      const last = lastByFile.get(e.file) ?? -1;
      if (last < 0 || e.line <= last) continue;
    }
    out.push(e.message);
    if (out.length > 200) break;
  }
  return out.join('\n');
}

/**
 * Evidence that the client resumed a cut POST stream (D9): a GET of the same session, after the request started,
 * that carried Last-Event-ID (client `last-event-id=…`, server `Last-Event-ID: …`) and got a 2xx — and no client
 * line of this request failed (a resumption that did not deliver ends in a client timeout or error, which joins
 * the request's span by tool name or adjacency).
 */
function resumedAfterCut(span: SpanBuild, sessionEvents: readonly Event[]): string | null {
  if (span.session === null || span.start === null) return null;
  if (span.events.some((e) => e.source === 'client' && isFailureEvent(e))) return null;
  for (const e of sessionEvents) {
    if (e.ts === null || e.ts <= span.start || e.httpMethod !== 'GET') continue;
    if (e.httpStatus === null || e.httpStatus < 200 || e.httpStatus >= 300) continue;
    if (!/last-event-id/i.test(e.text)) continue;
    return `${e.file}:${e.line}, GET with Last-Event-ID → HTTP ${e.httpStatus}`;
  }
  return null;
}
