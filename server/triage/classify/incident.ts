// Incident-wide look-ups the facts of one failing request need — did this path ever work, did
// this call succeed later, did the server log the write — computed once per incident instead of
// once per failing span.
import type { Event } from '../../../parsers/contract/event.ts';
import type { SignalCause } from '../../../parsers/contract/signal.ts';
import { type SignalMeaning, signalTable } from '../../../parsers/engine/signals.ts';
import type { SpanBuild } from '../correlate/spans.ts';
import { BOTH_UP_LINES, BOTH_UP_MS, callKey, failureCauses, isExceptionBlock, isFailureEvent, partOfWhole, replicaOf, servedSide } from './facts.ts';
import { stripQuery } from '../correlate/path.ts';

/** A task id as logged: `taskId=tk_1`, `"taskId":"tk_1"`, `task_id: tk_1`. */

interface SpanInfo {
  span: SpanBuild;
  failing: boolean;
  ok: boolean;
  key: string | null;
  causes: SignalCause[];
  paths: string[];
  files: Set<string>;
  lastLine: Map<string, number>;
  firstLine: Map<string, number>;
  /** host:port the request went to, when a line names it. */
  target: string | null;
  /** The configured name of the MCP server it was for, when a host's line names it (`MCP server "notes"`). */
  server: string | null;
  /** Who sent it, as the proxy or server logged the caller (its User-Agent). */
  caller: string | null;
  /** The client's clientInfo name, as a server logged it on the span's lines or on its session's (attrs.clientName). */
  clientName: string | null;
  /** The first and last time a client logged of this span (null: no timed client line). */
  clientFirst: number | null;
  clientLast: number | null;
}

/**
 * Connect timeouts on every try for this long, on at least this many tries, are a dropped network path (a
 * firewall, a security group, a network policy, a route or a DNS answer to an address this client cannot
 * reach), not a server restarting: a host that is up and not listening refuses at once (row 66), and a
 * restart is over in seconds; a client's own bounded retry (2–3 tries within seconds) is not yet this.
 */
const DROPPED_FOR_MS = 120_000;
const DROPPED_TRIES = 3;

/** A client's connection lost under a call: what closes its transport object (closedBeforeIssued). */
const CONNECTION_LOST: ReadonlySet<SignalCause> = new Set<SignalCause>(['connection-closed', 'stream-cut', 'conn-reset', 'peer-closed-before-response', 'sse-read-failed']);

/** A process start or shutdown line (signal causes process-started, shutdown). */
function isRestartLine(e: Event): boolean {
  const t = signalTable();
  return e.signals.some((id) => {
    const c = t.meaning(id)?.cause;
    return c === 'process-started' || c === 'shutdown';
  });
}

function clientTimes(span: SpanBuild): { clientFirst: number | null; clientLast: number | null } {
  let clientFirst: number | null = null;
  let clientLast: number | null = null;
  for (const e of span.events) {
    if (e.source !== 'client' || e.ts === null) continue;
    if (clientFirst === null || e.ts < clientFirst) clientFirst = e.ts;
    if (clientLast === null || e.ts > clientLast) clientLast = e.ts;
  }
  return { clientFirst, clientLast };
}

/** An httpcore trace line: `<step>.started`, `<step>.complete` or `<step>.failed` (httpcore `_trace.py`). */
const TRACE_STEP = /\b([a-z_]{3,40})\.(started|complete|failed)\b/;

/**
 * A client's line that sends a call: it names the call (tool, method or HTTP request) and is neither its
 * answer nor its failure (`calling tool X`, `--> POST /mcp tools/call`).
 */
function sendsCall(e: Event): boolean {
  // (a failure line names its call too — `tools/call x failed` — but it reports, it does not send; a note that the
  // call is still waiting — `Tool 'x' still running (30s elapsed)` — neither)
  if ((e.source !== 'client' && e.source !== 'unknown') || isFailureEvent(e)) return false;
  if (e.signals.includes('call-still-running')) return false;
  if (e.attrs.direction === 'request') return true;
  return e.attrs.direction !== 'response' && e.attrs.direction !== 'exchange' && e.httpStatus === null && (e.tool !== null || e.rpcMethod !== null);
}

/** The caller's User-Agent as an access log records it (a format's `agent` attr). */
export function callerOf(e: Event): string | null {
  const a = e.attrs.agent;
  if (typeof a === 'string' && a !== '' && a !== '-') return a;
  // (HAProxy's captured request headers, `{host|User-Agent}` in the order of its `capture request header` lines: the
  // one shaped like a User-Agent — a product, a slash, a version — is the caller's)
  const c = e.attrs.captures;
  if (typeof c === 'string') for (const v of c.split('|')) if (USER_AGENT_SHAPE.test(v.trim())) return v.trim();
  return null;
}
const USER_AGENT_SHAPE = /^[A-Za-z][\w.+-]{0,60}\/\d[\w.+-]{0,40}(?:[ ;(].{0,400})?$/;

/** The caller an access line records: the client's address and its User-Agent (either may be missing, not both). */
function callerKeyOf(e: Event): string | null {
  const a = e.attrs.remote ?? e.attrs.client;
  // (the address without its port: HAProxy and uvicorn log `10.60.5.21:49144`, a new port per connection)
  const addr = typeof a === 'string' && a !== '' && a !== '-' ? a.replace(/^(\[[^\]]{1,60}\]|[\d.]{7,15}):\d{1,5}$/, '$1') : null;
  const agent = callerOf(e);
  return addr === null && agent === null ? null : `${addr ?? ''}\u0000${agent ?? ''}`;
}

/** How near a client's own failure a proxy's must be to be possibly that client's (retries and clocks apart). */
const OTHER_CALLER_MS = 10_000;

/** A session was refused this soon after it was created: too soon for an idle expiry (session-not-kept.ts too). */
export const QUICK_LOSS_MS = 10_000;

/**
 * The configured name of the MCP server a host's line is about: named in its words (parsers/engine/enrich.ts
 * SERVER_NAME) or by the host's format (`[notes]` in Claude Desktop's and VS Code's logs; on a proxy's or a
 * server's line `server` is a backend, not this).
 */
function serverOf(e: Event): string | null {
  const n = e.attrs.mcpServer ?? (e.source === 'client' || e.source === 'unknown' ? e.attrs.server : undefined);
  return typeof n === 'string' && n ? n : null;
}

/** The component a line names as its writer (a logger or target), or null. */
function loggerOf(e: Event): string | null {
  const l = e.attrs.logger;
  return typeof l === 'string' && l ? l : null;
}

/** host:port of a line that names a URL (enrich.ts fills targetHost/targetPort). */
export function targetOf(e: Event): string | null {
  const h = e.attrs.targetHost;
  if (typeof h !== 'string' || !h) return null;
  return `${h.toLowerCase()}:${e.attrs.targetPort ?? ''}`;
}

/** A server's call line saying it answered (`tools/call get_ticket id=7 ok 31ms`, `rpc done … status=ok`; not a key such as `ok=false`). */
const CALL_OK = /\b(?:ok|done|completed|succeeded)\b(?![=:])/i;

/** Where something was logged: "file:line" for people, time and place for ordering. */
export interface Point {
  where: string;
  ts: number | null;
  file: string;
  line: number;
}

/** The pid a worker's start line names (`Started server process [4821]`, `Booting worker with pid: 4821`). */
const WORKER_PID = /\bprocess \[(\d{1,9})\]|\bworker with pid:? (\d{1,9})\b/;

/** How late a server may log the result of a call the client gave up on (long tools: minutes). */
const ANSWER_LATE_MS = 600_000;

/**
 * The same tool, allowing for a gateway's namespace: an aggregating proxy exposes a server's
 * `nmap_scan` as `Kali.nmap_scan`, `kali__nmap_scan` or `kali:nmap_scan`.
 */
export function sameTool(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return false;
  if (a === b) return true;
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  if (!long.endsWith(short)) return false;
  const sep = long.slice(0, long.length - short.length);
  return /(?:\.|__|:|\/)$/.test(sep) && sep.length > 1;
}

/** What, logged between a session's creation and its loss, explains the loss (failure-signatures rows 25, 35, 37). */
const LOSS_CAUSES = new Set<SignalCause>([
  'process-started',
  'shutdown',
  'server-exited',
  'proxy-upstream-unavailable',
  'conn-refused',
  'conn-reset',
  'session-deleted',
  'session-evicted',
]);

/** Connect-stage failures that say why the connection could not be made (a bare `fetch failed` names none: row 41). */
export const CONNECT_WHY = [
  'conn-refused',
  // (an HTTP/2 stream the peer refused unprocessed: as undelivered as a refused connection, RFC 9113 §8.7)
  'stream-refused',
  'dns-failure',
  'dns-name-unknown',
  'connect-timeout',
  'tls-failure',
  'tls-certificate',
  'tls-scheme-mismatch',
  'proxy-upstream-unavailable',
] as const satisfies readonly SignalCause[];
/** What names why a connection failed: those, or a forward proxy in the path. */
const NAMED_CONNECT_CAUSES = new Set<string>([...CONNECT_WHY, 'forward-proxy']);

/** How far apart two hosts' clocks may be for a line logged elsewhere to still count as "in between". */
const CLOCK_SLACK_MS = 5_000;
/** The legacy HTTP+SSE transport's message endpoint, its session in the query (`/messages/?session_id=…`). */
const LEGACY_MESSAGE_URL = /\/messages?\/?\?(?:[^#\s]*&)?session_?[iI]d=/;
/** The handle a handle-unknown line names (`unknown context ctx_4be1c0d2a97f`). */
const HANDLE_NAMED = /\b(?:context|handle|sandbox|workspace|kernel|cursor|tab|page|snapshot)(?:[ _]id)?:? ['"`]?([A-Za-z]{2,16}[_-][A-Za-z0-9]{6,64})\b/i;
/** The path of a URL a line names (`https://h:8080/v1/mcp?x=1` → `/v1/mcp`). */
const MCP_URL = /\bhttps?:\/\/[^\s/"'<>()]{1,300}(\/[^\s"'<>()?#]{0,300})/;

/** How far after a failure a recovery line still speaks for it. */
const RECOVERY_WINDOW_MS = 120_000;
const RECOVERY_LINES = 40;

/** A path's 2xx served lines in order (IncidentIndex.findDisagreeing), column by column: the replica and file as ids. */
interface OkLines {
  events: Event[];
  who: number[];
  file: number[];
  up: boolean[];
  ts: (number | null)[];
  line: number[];
}

export class IncidentIndex {
  readonly handshake: boolean;
  readonly legacy: boolean;
  /** Some exchange used Streamable HTTP (a POST to an MCP endpoint answered with a session or an event stream). */
  readonly streamable: boolean;
  /** Some exchange with the MCP endpoint succeeded: a 2xx answer, a handshake or an assigned session. */
  readonly endpointWorked: boolean;
  /** The incident includes the MCP server's own log (a call it does not mention may still have reached it). */
  readonly serverLogged: boolean;
  /** A proxy's or gateway's own lines (access or error lines) are in the incident. */
  readonly proxyLogged: boolean;
  /** A client received a legacy HTTP+SSE `endpoint` event (and failed to read it): the server does serve the old transport there. */
  readonly legacyEndpointEventReached: boolean;
  private readonly position = new Map<Event, number>();
  private readonly bySession = new Map<string, Event[]>();
  private readonly info: SpanInfo[];
  private readonly infoOf = new Map<SpanBuild, SpanInfo>();
  /** Spans by call (method+tool), and the failing ones: the per-failure look-ups scan these, not every span. */
  private readonly byKey = new Map<string, SpanInfo[]>();
  /** sendsByFile's answers, per call key. */
  private readonly sendsMemo = new Map<string, { sends: Map<string, Set<string>>; clientFiles: Set<string> }>();
  private readonly failingInfo: SpanInfo[] = [];
  /** byKey's failing spans only, in the same order. */
  private readonly failingByKey = new Map<string, SpanInfo[]>();
  private readonly clientish: Event[] = [];
  /** When a server (or gateway) logged a start or a shutdown, in time order, and its last start (built on first use). */
  private lifecycle: { times: number[]; lastStart: number; starts: number[]; stops: number[] } | null = null;
  /** The server's lines, in order (serverReceived). */
  private readonly serverLines: Event[] = [];
  /** dependencyBackAfter's answers by the failure lines it started from. */
  private readonly dependencyMemo = new Map<string, string | null>();
  /**
   * Subsets of clientish (in its order) that the per-failure look-ups below can take; each
   * look-up skips every other line before anything else, so scanning only these answers the same.
   */
  private recoveries: { e: Event; resumed: boolean }[] | null = null;
  private legacyPosts: Event[] | null = null;
  /** The server's lines by the tool they name, in order (serverReceived). */
  private serverByTool: Map<string, Event[]> | null = null;
  /** Lines of the server's (or an unknown side's) log that say a session it got was unknown (serverSaidSessionUnknown). */
  private unknownSessionLines: Event[] | null = null;
  /** Restarts logged after a session in such logs (serverRestartsAfterSession). */
  private restartsAfterSession: { ts: number | null; file: string; server: boolean }[] | null = null;
  /** concurrentWorkers' answer per file (it depends on the file alone). */
  private readonly workersOf = new Map<string, string[]>();
  /** laterSessionKept's per-session summaries (see there). */
  private keptIndex: KeptSession[] | null = null;
  private fallbacks: Event[] | null = null;
  private establishing: Event[] | null = null;
  private readonly establishingBySession = new Map<string, Event[]>();
  /** Per client file, the targets its lines name, in line order. */
  private readonly targets = new Map<string, { line: number; target: string; logger: string | null }[]>();
  /** Per client file, the configured server names its lines name, in line order. */
  private readonly servers = new Map<string, { line: number; target: string }[]>();
  /** Per session, its 2xx lines other than GET streams and DELETEs (sessionAcceptedAfter). */
  private readonly servedBySession = new Map<string, Event[]>();

  constructor(
    readonly all: readonly Event[],
    spans: readonly SpanBuild[],
  ) {
    const t = signalTable();
    const causeOf = (id: string) => t.meaning(id)?.cause;
    let handshake = false;
    let legacy = false;
    let streamable = false;
    let legacyEndpointEventReached = false;
    all.forEach((e, i) => {
      this.position.set(e, i);
      if (e.session !== null) (this.bySession.get(e.session) ?? this.bySession.set(e.session, []).get(e.session)!).push(e);
      if (e.source === 'client' || e.source === 'unknown') this.clientish.push(e);
      else if (e.source === 'server') this.serverLines.push(e);
      for (const id of e.signals) {
        const c = causeOf(id);
        if (c === 'handshake-ok' || c === 'session-created') handshake = true;
        // (a client that fell back from Streamable HTTP runs on the legacy transport from then on, unless it says
        // it connected over Streamable HTTP after all: `streamable` below wins in the era)
        if (c === 'transport-legacy' || c === 'transport-fallback') legacy = true;
        if (c === 'endpoint-event-misread') legacyEndpointEventReached = true;
        // a client that says it connected over Streamable HTTP (after an SSE fallback attempt, say)
        if (c === 'transport-streamable') streamable = true;
      }
      if (e.rpcMethod === 'initialize' && e.httpStatus !== null && e.httpStatus < 300) handshake = true;
      if (e.httpMethod === 'POST' && e.httpStatus !== null && e.httpStatus < 300 && e.session !== null && !(e.httpPath ?? '').includes('/messages')) streamable = true;
    });
    this.handshake = handshake;
    this.legacy = legacy;
    this.streamable = streamable;
    this.legacyEndpointEventReached = legacyEndpointEventReached;
    this.serverLogged = all.some((e) => e.source === 'server');
    // (a proxy's own lines: an access line — method, path and status together — or a line a proxy writes, not a
    // file that only its name calls a proxy's)
    this.proxyLogged = all.some(
      (e) => e.source === 'proxy' && ((e.httpMethod !== null && e.httpPath !== null && e.httpStatus !== null) || e.signals.some((id) => t.meaning(id)?.side === 'proxy')),
    );
    this.endpointWorked = handshake || all.some((e) => e.httpStatus !== null && e.httpStatus >= 200 && e.httpStatus < 300 && e.httpMethod !== null);
    this.info = spans.map((span) => {
      const failing = span.events.some(isFailureEvent);
      const ok =
        !failing &&
        span.events.some(
          (e) =>
            (e.httpStatus !== null && e.httpStatus >= 200 && e.httpStatus < 300) ||
            e.signals.some((id) => {
              const o = t.meaning(id)?.outcome;
              return o === 'completion' || o === 'recovery';
            }),
        );
      const lastLine = new Map<string, number>();
      const firstLine = new Map<string, number>();
      for (const e of span.events) {
        lastLine.set(e.file, Math.max(lastLine.get(e.file) ?? 0, e.endLine));
        firstLine.set(e.file, Math.min(firstLine.get(e.file) ?? Infinity, e.line));
      }
      return {
        span,
        failing,
        ok,
        key: callKey(span.method, span.tool),
        causes: [...new Set(span.events.flatMap(failureCauses))],
        paths: [...new Set(span.events.map((e) => (e.httpPath ? stripQuery(e.httpPath) : null)).filter((p): p is string => p !== null))],
        files: new Set(span.events.map((e) => e.file)),
        lastLine,
        firstLine,
        target: span.events.map(targetOf).find((t) => t !== null) ?? null,
        server: span.events.map(serverOf).find((t) => t !== null) ?? null,
        caller: span.events.map(callerOf).find((t) => t !== null) ?? null,
        clientName: this.clientNameOf(span),
        ...clientTimes(span),
      };
    });
    for (const e of this.clientish) {
      const t = targetOf(e);
      if (t) (this.targets.get(e.file) ?? this.targets.set(e.file, []).get(e.file)!).push({ line: e.line, target: t, logger: loggerOf(e) });
      const n = serverOf(e);
      if (n) (this.servers.get(e.file) ?? this.servers.set(e.file, []).get(e.file)!).push({ line: e.line, target: n });
    }
    for (const i of this.info) {
      this.infoOf.set(i.span, i);
      if (i.key !== null) (this.byKey.get(i.key) ?? this.byKey.set(i.key, []).get(i.key)!).push(i);
      if (i.failing) this.failingInfo.push(i);
      if (i.failing && i.key !== null) (this.failingByKey.get(i.key) ?? this.failingByKey.set(i.key, []).get(i.key)!).push(i);
    }
  }

  sessionEvents(session: string): readonly Event[] {
    return this.bySession.get(session) ?? [];
  }

  /** `b` comes after span `a`: later in time, or (without times) later in one of its files. */
  private after(a: SpanInfo, b: SpanInfo): boolean {
    // the client's own clock when both were logged by a client (proxy logs often have whole seconds,
    // and another host's clock may run ahead)
    // (the same instant — a log with whole-second stamps — is decided by the order of their lines)
    const tie = a.clientLast !== null && a.clientLast === b.clientFirst;
    if (a.clientLast !== null && b.clientFirst !== null && !tie) return b.clientFirst > a.clientLast;
    // a log both were written to orders them by its lines: a proxy's whole-second stamps joined to a span
    // can make it seem to start before a failure that it followed
    if (a.clientLast === null || tie)
      for (const [f, last] of a.lastLine) {
        const first = b.firstLine.get(f);
        if (first !== undefined && (a.span.events.some((e) => e.file === f && e.source !== 'server' && e.source !== 'proxy') || tie)) return first > last;
      }
    const end = a.span.end;
    if (!tie && end !== null && b.span.start !== null && b.span.start !== end) return b.span.start > end;
    for (const [f, last] of a.lastLine) {
      const first = b.firstLine.get(f);
      if (first !== undefined && first > last) return true;
    }
    return false;
  }

  /**
   * Another method of the capability `family` (`prompts/`, `resources/`, `tools/`) was answered without
   * error in this incident: the server serves that capability (spec server/prompts, server/resources,
   * server/tools — a server that declares one implements its list and get/read/call methods).
   */
  familyServed(method: string, family: string): boolean {
    return this.info.some((i) => i.ok && !i.failing && i.span.method !== null && i.span.method !== method && i.span.method.startsWith(family));
  }

  /** A complete 2xx answer on this path somewhere in the incident: true; exchanges on it that all failed: false. */
  pathWorked(path: string | null): boolean | null {
    if (path === null) return null;
    for (const i of this.info) if (i.paths.includes(path) && i.ok) return true;
    // every exchange logged on it failed (the failing one at least): it never worked in this incident
    return false;
  }

  /** A POST exchange logged before this span in one of its files. */
  earlierPostInFile(span: SpanBuild): boolean {
    return this.earlierInFile(span, (e) => e.httpMethod === 'POST');
  }

  /**
   * A line before this span in one of its files sent or answered any request (an exchange or a method), or
   * says a connection worked (a host's `Discovered 7 tools`, `connected`): then this span is not the first.
   */
  earlierRequestInFile(span: SpanBuild): boolean {
    const t = signalTable();
    return this.earlierInFile(
      span,
      (e) =>
        e.httpMethod !== null ||
        e.httpStatus !== null ||
        e.rpcMethod !== null ||
        // a host calling a tool by name (Spring AI `Executing tool call: x`): the tools were listed, so it had connected
        e.tool !== null ||
        e.signals.some((id) => {
          const c = t.meaning(id)?.cause;
          return c === 'call-succeeded' || c === 'connected' || c === 'handshake-ok' || c === 'session-created';
        }),
    );
  }

  /** Earlier in one of the span's files, a stream or connection was cut (the legacy SSE connection, when that is the transport). */
  streamCutEarlierInFile(span: SpanBuild): boolean {
    const t = signalTable();
    return this.earlierInFile(span, (e) =>
      e.signals.some((id) => {
        const c = t.meaning(id)?.cause;
        return c === 'stream-cut' || c === 'stream-disconnected' || c === 'peer-closed-before-response' || c === 'conn-reset';
      }),
    );
  }
  /**
   * The lengths at which GET event streams (no call named on them) ended in a failure at least twice: two
   * failed streams whose durations, both at least `minMs`, agree within 2 % and which are separate streams
   * (one began after the other ended, so not one request seen by two logs). A timer on the path cuts every
   * stream at the same age (failure-signatures D19, section (c) timing fingerprints). Empty when none.
   */
  repeatedStreamCuts(minMs: number): number[] {
    const memo = this.streamCutsMemo.get(minMs);
    if (memo) return memo;
    // sorted by length, each cut is compared with the ones within 2 % of it only (once per incident, then
    // remembered: a proxy log of a busy day holds thousands of stream lines, and every failing span asks)
    const cuts = this.all
      .filter((e) => e.httpMethod === 'GET' && e.rpcMethod === null && e.tool === null && e.durationMs !== null && e.durationMs >= minMs && e.ts !== null && isFailureEvent(e))
      .sort((a, b) => a.durationMs! - b.durationMs!);
    const lengths = new Set<number>();
    for (let i = 0; i < cuts.length; i++) {
      const a = cuts[i]!;
      const da = a.durationMs!;
      // b ≥ a in length; they agree within 2 % of a or of b, so b is at most a / 0.98
      for (let j = i + 1; j < cuts.length && cuts[j]!.durationMs! * 0.98 <= da; j++) {
        const b = cuts[j]!;
        const db = b.durationMs!;
        const apart = Math.abs(a.ts! - b.ts!);
        // (a proxy's line is written at the end or the start of its request: either way two streams of one length
        // that follow each other are that length apart, one line of one stream seen twice is not)
        if (db - da <= da * 0.02 && apart >= da * 0.9) lengths.add(da);
        if (db - da <= db * 0.02 && apart >= db * 0.9) lengths.add(db);
      }
    }
    const out = [...lengths];
    this.streamCutsMemo.set(minMs, out);
    return out;
  }
  private readonly streamCutsMemo = new Map<number, number[]>();

  /**
   * 2026-07-28's listen streams (subscriptions/listen: the standalone GET stream's successor) that failed, by how long
   * each lived — from its first line to its last — when another failed listen stream lived as long (within 2 %) and
   * at least `minMs`: the lengths a timer on the path cuts them at.
   */
  repeatedListenCuts(minMs: number): number[] {
    if (this.listenCutsMemo) return this.listenCutsMemo;
    const ages = this.info
      .filter((i) => i.failing && i.span.method === 'subscriptions/listen' && i.span.start !== null && i.span.end !== null)
      .map((i) => i.span.end! - i.span.start!)
      .filter((ms) => ms >= minMs)
      .sort((a, b) => a - b);
    const lengths = new Set<number>();
    for (let i = 0; i + 1 < ages.length; i++) if (ages[i + 1]! - ages[i]! <= ages[i + 1]! * 0.02) lengths.add(ages[i]!).add(ages[i + 1]!);
    this.listenCutsMemo = [...lengths];
    return this.listenCutsMemo;
  }
  private listenCutsMemo: number[] | null = null;

  /** Earlier in one of the span's files, the client fell back from Streamable HTTP to the legacy SSE transport. */
  fellBackEarlierInFile(span: SpanBuild): boolean {
    const t = signalTable();
    return this.earlierInFile(span, (e) => e.signals.some((id) => t.meaning(id)?.cause === 'transport-fallback'));
  }
  /**
   * A client line of the span's file, up to the span, says the client speaks the legacy HTTP+SSE transport and
   * names the URL it connects to, whose path is the Streamable HTTP convention (`…/mcp`): the path it was given
   * (failure-signatures (a.1) "Endpoints": GET `/sse` + POST `/messages` for the legacy transport, one MCP
   * endpoint such as `/mcp` for Streamable HTTP). Null when no line says both.
   */
  legacyClientOnMcpPath(span: SpanBuild): string | null {
    const first = this.infoOf.get(span)?.firstLine;
    if (!first) return null;
    const t = signalTable();
    const legacy = (e: Event) => e.signals.some((id) => t.meaning(id)?.cause === 'transport-legacy');
    for (const e of [...span.events, ...this.all.filter((x) => (first.get(x.file) ?? -1) > x.line)]) {
      if (e.source === 'server' || e.source === 'proxy' || !legacy(e)) continue;
      const path = e.httpPath ?? MCP_URL.exec(e.text)?.[1] ?? null;
      if (path !== null && /\/mcp\/?$/.test(stripQuery(path))) return stripQuery(path);
    }
    return null;
  }
  /**
   * A handle a tool said it does not know (a browser context, a sandbox, a cursor: signal handle-unknown), named by a
   * served-side line of one replica, that a line of another replica had handed out moments before (within
   * BOTH_UP_MS, no restart logged between): the two replicas each keep such state in memory. Null otherwise.
   */
  handleMadeElsewhere(span: SpanBuild): string | null {
    // (a line of the served side, or any line but a proxy's, that names its host, as pino's do — a log whose side its
    // words misread: one client's lines name one host, so two hosts that disagree about a handle are two replicas)
    const hostOf = (e: Event) => ((servedSide(e) || e.source !== 'proxy') && replicaOf(e).host) || null;
    for (const r of span.events) {
      const me = r.signals.includes('handle-unknown') ? hostOf(r) : null;
      const token = me ? HANDLE_NAMED.exec(r.text)?.[1] : undefined;
      const at = r.ts;
      if (!me || !token || at === null) continue;
      const maker = this.all.find(
        (e) =>
          e !== r &&
          e.ts !== null &&
          e.ts <= at &&
          at - e.ts <= BOTH_UP_MS &&
          // (a client's line is never one of the replicas — unless both lines are of one log naming two hosts)
          ((e.source !== 'client' && r.source !== 'client') || e.file === r.file) &&
          !e.signals.includes('handle-unknown') &&
          e.text.includes(token) &&
          hostOf(e) !== null &&
          hostOf(e) !== me &&
          !this.restartedWithin(e.ts, at),
      );
      if (maker) return `${token} handed out by ${replicaOf(maker).host} (${maker.file}:${maker.line}) and unknown to ${me} (${r.file}:${r.line})`;
    }
    return null;
  }
  /**
   * A handle this span's tool said it does not know (signal handle-unknown) that a line named before the refusal —
   * the call that made it, or a later one that used it. `restarted`: the server started again or shut down in
   * between, so in-memory state (a kernel, a snapshot, a browser context) went with the old process. Null: no line
   * shows the handle before (the client made it up, or the logs start later).
   */
  handleKnownBefore(span: SpanBuild): { where: string; restarted: boolean } | null {
    let known: { where: string; restarted: boolean } | null = null;
    for (const r of span.events) {
      if (r.ts === null || !r.signals.includes('handle-unknown')) continue;
      const token = HANDLE_NAMED.exec(r.text)?.[1];
      if (!token) continue;
      const at = r.ts;
      // (the earliest line naming it: a restart after any mention is after the earliest one too)
      const first = this.firstMention(token);
      if (first === null || first.ts! >= at) continue;
      if (this.restartedWithin(first.ts!, at))
        return { where: `${token} named before the server restarted (${first.file}:${first.line}) and unknown after it (${r.file}:${r.line})`, restarted: true };
      known ??= { where: `${token} named earlier (${first.file}:${first.line}) and unknown now (${r.file}:${r.line})`, restarted: false };
    }
    return known;
  }
  /** The earliest timed line naming a token that is not itself a refusal of it (once per token: a day of refusals names few). */
  private firstMention(token: string): Event | null {
    const hit = this.mentions.get(token);
    if (hit !== undefined) return hit;
    let first: Event | null = null;
    for (const e of this.all) if (e.ts !== null && (first === null || e.ts < first.ts!) && !e.signals.includes('handle-unknown') && e.text.includes(token)) first = e;
    this.mentions.set(token, first);
    return first;
  }
  private readonly mentions = new Map<string, Event | null>();

  /**
   * The client's own last listing of what this call names (tools/list before a tools/call, prompts/list before a
   * prompts/get, resources/list before a resources/read), in the client's files, when the server started again or
   * shut down between that listing and the call: the client called from a list the server has since replaced. Where
   * the listing was, or null (a listing after the restart, or none in the client's log).
   */
  listedBeforeRestart(span: SpanBuild, method: string | null): string | null {
    const family = method === 'tools/call' ? 'tools/list' : method === 'prompts/get' ? 'prompts/list' : method === 'resources/read' ? 'resources/list' : null;
    if (family === null || span.start === null) return null;
    const files = new Set(span.events.filter((e) => e.source === 'client').map((e) => e.file));
    if (!files.size) return null;
    if (!this.listings) {
      this.listings = new Map();
      for (const e of this.all)
        if (e.ts !== null && (e.rpcMethod === 'tools/list' || e.rpcMethod === 'prompts/list' || e.rpcMethod === 'resources/list')) {
          const k = `${e.file}\n${e.rpcMethod}`;
          (this.listings.get(k) ?? this.listings.set(k, []).get(k)!).push(e);
        }
    }
    let last: Event | null = null;
    for (const f of files) for (const e of this.listings.get(`${f}\n${family}`) ?? []) if (e.ts! < span.start && (last === null || e.ts! > last.ts!)) last = e;
    if (last === null || !this.restartedWithin(last.ts!, span.start)) return null;
    return `${last.file}:${last.line}`;
  }
  private listings: Map<string, Event[]> | null = null;

  /** Earlier in one of the span's files, a line showed the client going through a forward HTTP(S) proxy (an agent created from HTTP(S)_PROXY, a proxy frame). */
  forwardProxyEarlierInFile(span: SpanBuild): boolean {
    const first = this.infoOf.get(span)?.firstLine;
    if (!first) return false;
    // (the first such line of each file, found once: asked for every failing span)
    if (!this.forwardProxyFrom) {
      const t = signalTable();
      this.forwardProxyFrom = new Map();
      for (const e of this.all)
        if (!this.forwardProxyFrom.has(e.file) && e.signals.some((id) => t.meaning(id)?.cause === 'forward-proxy')) this.forwardProxyFrom.set(e.file, e.line);
    }
    for (const [file, line] of first) {
      const p = this.forwardProxyFrom.get(file);
      if (p !== undefined && p < line) return true;
    }
    return false;
  }
  private forwardProxyFrom: Map<string, number> | null = null;
  /**
   * In one of the span's files, the nearest earlier line that reports anything (a method, an HTTP exchange or a
   * signal) is the client logging the server's InitializeResult (`handshake-ok`, the Java SDK's `Server response
   * with Protocol: …`): the handshake was answered just before this failure, with nothing sent in between.
   */
  handshakeAnsweredJustBefore(span: SpanBuild): boolean {
    const first = this.infoOf.get(span)?.firstLine;
    if (!first) return false;
    const t = signalTable();
    // (per file, the lines that report anything, in line order: built once, then a binary search per failure)
    this.reportingByFile ??= (() => {
      const m = new Map<string, Event[]>();
      for (const e of this.all) {
        if (e.rpcMethod === null && e.httpMethod === null && e.httpStatus === null && e.signals.length === 0) continue;
        (m.get(e.file) ?? m.set(e.file, []).get(e.file)!).push(e);
      }
      for (const l of m.values()) l.sort((a, b) => a.line - b.line);
      return m;
    })();
    for (const [file, f] of first) {
      const l = this.reportingByFile.get(file);
      if (!l) continue;
      let lo = 0;
      let hi = l.length; // first index with line >= f
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (l[mid]!.line < f) lo = mid + 1;
        else hi = mid;
      }
      // (the first event of that nearest line, as a walk over every event in order would find it)
      let k = lo - 1;
      while (k > 0 && l[k - 1]!.line === l[k]!.line) k--;
      const e = k >= 0 ? l[k] : undefined;
      if (e?.signals.some((id) => t.meaning(id)?.cause === 'handshake-ok')) return true;
    }
    return false;
  }
  private reportingByFile: Map<string, Event[]> | null = null;

  /**
   * How long the span's files were quiet before it: from the last timed line above the span's first line in the
   * same file to the span's start (the smallest such gap over its files); null when either is untimed.
   */
  quietBefore(span: SpanBuild): number | null {
    const first = this.infoOf.get(span)?.firstLine;
    if (!first || span.start === null) return null;
    const last = new Map<string, number>();
    for (const e of this.all) {
      const f = first.get(e.file);
      if (f !== undefined && e.line < f && e.ts !== null && e.ts > (last.get(e.file) ?? Number.NEGATIVE_INFINITY)) last.set(e.file, e.ts);
    }
    let quiet: number | null = null;
    for (const ts of last.values()) if (span.start >= ts && (quiet === null || span.start - ts < quiet)) quiet = span.start - ts;
    return quiet;
  }

  private earlierInFile(span: SpanBuild, test: (e: Event) => boolean): boolean {
    const first = this.infoOf.get(span)?.firstLine;
    if (!first) return false;
    for (const e of this.all) {
      const f = first.get(e.file);
      if (f !== undefined && e.line < f && test(e)) return true;
    }
    return false;
  }

  /**
   * The server's side said, at this span's time (within CLOCK_SLACK_MS; a server log without times: anywhere in
   * it), that a session id it received was unknown to it: the client's ambiguous "no valid session id"
   * then had an id, and not one the server knew (failure-signatures row 51 read from the other side).
   */
  serverSaidSessionUnknown(span: SpanBuild): boolean {
    const t = signalTable();
    // (the server's log, or a log of unknown side other than the span's own: a client quoting the answer is not the server)
    this.unknownSessionLines ??= this.all.filter((e) => (e.source === 'server' || e.source === 'unknown') && e.signals.some((id) => t.meaning(id)?.cause === 'session-unknown'));
    const files = this.infoOf.get(span)?.files;
    if (
      this.unknownSessionLines.some(
        (e) => (e.source === 'server' || !files?.has(e.file)) && (e.ts === null || span.start === null || Math.abs(e.ts - span.start) <= CLOCK_SLACK_MS),
      )
    )
      return true;
    // or the server's log shows a session in use, then the process starting again (or shutting down)
    // before the failure: every session it held is gone (sessions live in the process, row 25)
    this.restartsAfterSession ??= this.serverRestartsAfterSession();
    return this.restartsAfterSession.some((r) => (r.server || !files?.has(r.file)) && (r.ts === null || span.start === null || r.ts <= span.start + CLOCK_SLACK_MS));
  }

  /**
   * A line outside this span, in any log (the same file too: a pasted bundle puts the client's block and the
   * server's in one; a client quoting the server's answer is that answer too), that says a session was unknown to
   * the server, at the span's time or untimed: a bare 404 of this incident has that explanation in the logs
   * (sessionUnknown).
   */
  sessionUnknownStatedBeside(span: SpanBuild): Event | null {
    const t = signalTable();
    this.unknownSessionAnywhere ??= this.all.filter((e) => e.rpcMethod !== 'initialize' && e.signals.some((id) => t.meaning(id)?.cause === 'session-unknown'));
    if (this.unknownSessionAnywhere.length === 0) return null;
    const own = new Set(span.events);
    return this.unknownSessionAnywhere.find((e) => !own.has(e) && (e.ts === null || span.start === null || Math.abs(e.ts - span.start) <= CLOCK_SLACK_MS)) ?? null;
  }
  private unknownSessionAnywhere: Event[] | null = null;

  /** The last line of `e`'s file before it (within 40 lines) that named `tool` and did not fail: where that call started. */
  toolNamedBefore(e: Event, tool: string): Event | null {
    const at = this.position.get(e);
    if (at === undefined) return null;
    for (let i = at - 1; i >= 0; i--) {
      const x = this.all[i]!;
      if (x.file !== e.file) continue;
      if (e.line - x.line > 40) return null;
      if (x.tool === tool && !isFailureEvent(x)) return x;
    }
    return null;
  }

  /**
   * Per file of the server's log (or of a log of unknown side), the restarts (start or shutdown lines)
   * logged after a line that carried a session: when (null untimed), in which file, and whether it is the server's.
   */
  private serverRestartsAfterSession(): { ts: number | null; file: string; server: boolean }[] {
    const out: { ts: number | null; file: string; server: boolean }[] = [];
    const sawSession = new Set<string>();
    for (const e of this.all) {
      if (e.source !== 'server' && e.source !== 'unknown') continue;
      if (e.session !== null) sawSession.add(e.file);
      else if (sawSession.has(e.file) && isRestartLine(e)) out.push({ ts: e.ts, file: e.file, server: e.source === 'server' });
    }
    return out;
  }

  /** A client line before this span in one of its files answered below 400. */
  private cimdFailure: string | null | undefined;
  /**
   * Where an authorization server logged that fetching a client's metadata document (the client_id URL of
   * Client ID Metadata Documents) got a non-2xx answer (`client-metadata-unreachable`), or null.
   */
  clientMetadataUnreachable(): string | null {
    if (this.cimdFailure === undefined) {
      const t = signalTable();
      const e = this.all.find((x) => x.signals.some((id) => t.meaning(id)?.cause === 'client-metadata-unreachable'));
      this.cimdFailure = e ? `${e.file}:${e.line}` : null;
    }
    return this.cimdFailure;
  }

  earlierSuccessInFile(span: SpanBuild): boolean {
    const first = this.infoOf.get(span)?.firstLine;
    if (!first) return false;
    for (const e of this.clientish) {
      const f = first.get(e.file);
      if (f === undefined || e.line >= f) continue;
      if (e.httpStatus !== null && e.httpStatus < 400) return true;
    }
    return false;
  }

  /** How many failing spans are this call (by method+tool), or — unidentified — share this failure's causes. */
  failedAttempts(span: SpanBuild, key: string | null, causes: readonly SignalCause[]): number {
    let n = 0;
    const failCauses = causes.filter((c) => signalCauseIsFailure(c) && c !== 'retry-attempt' && c !== 'retries-exhausted');
    let lastTs: number | null = null;
    if (key !== null) {
      // attempts as one log saw them: the client's failed call and the server's note of the same request,
      // left in two spans when nothing joined them, are one attempt, not two
      // (the caller's own log counts what it sent: a server or proxy may log one request twice, a start and
      // a cut, so their count stands only when no client log has this call)
      const clientFiles = new Set<string>();
      const startsByFile = new Map<string, (number | null)[]>();
      for (const i of this.failingByKey.get(key) ?? []) {
        if (i.key !== key) continue;
        for (const f of i.files) (startsByFile.get(f) ?? startsByFile.set(f, []).get(f)!).push(i.span.start);
        for (const e of i.span.events) if (e.source === 'client' || e.source === 'unknown') clientFiles.add(e.file);
      }
      if (clientFiles.size) for (const f of [...startsByFile.keys()]) if (!clientFiles.has(f)) startsByFile.delete(f);
      // (one failure reported twice within a second — a transport error, then the call's own failure — is
      // one attempt, as for unidentified errors below)
      const perFile = new Map<string, number>();
      for (const [f, starts] of startsByFile) {
        const timed = starts.filter((t): t is number => t !== null).sort((a, b) => a - b);
        let n = starts.length - timed.length;
        for (let k = 0; k < timed.length; k++) if (k === 0 || timed[k]! - timed[k - 1]! >= 1000) n++;
        perFile.set(f, n);
      }
      // and never more than the times that log shows the call sent (`calling tool X` once, then a transport
      // error and a failure line split in two spans, is one attempt)
      const sent = this.sendsByFile(key).sends;
      return Math.max(1, ...[...perFile].map(([f, n]) => Math.min(n, sent.get(f)?.size || n)));
    }
    // (an attempt of the same request: not another HTTP method's — a GET stream closed is no try of a POST — nor, where
    // the lines name their caller, another caller's)
    const methodOf = (s: SpanBuild) => s.events.find((e) => e.httpMethod !== null)?.httpMethod ?? null;
    const callerIn = (s: SpanBuild) => {
      for (const e of s.events) if (callerKeyOf(e) !== null) return callerKeyOf(e);
      return null;
    };
    const myMethod = methodOf(span);
    const myCaller = callerIn(span);
    for (const i of this.failingInfo) {
      if (!(i.key === null && failCauses.length > 0 && failCauses.every((c) => i.causes.includes(c)))) continue;
      if (i.span !== span) {
        const m = methodOf(i.span);
        const c = callerIn(i.span);
        if ((myMethod !== null && m !== null && m !== myMethod) || (myCaller !== null && c !== null && c !== myCaller)) continue;
      }
      // an unidentified error reported twice within a second is one attempt, not two
      if (key === null && lastTs !== null && i.span.start !== null && Math.abs(i.span.start - lastTs) < 1000) continue;
      lastTs = i.span.start;
      n++;
    }
    return Math.max(n, 1);
  }

  /**
   * How many times a client's own log shows it sending this call (its request lines: `calling tool X`,
   * `POST … tools/call`), the most any one client file shows; 0 when no client line sends it.
   */
  sentByClient(key: string | null): number {
    if (key === null) return 0;
    // (a file the client is known to have written speaks before one whose side is not known)
    const { sends, clientFiles } = this.sendsByFile(key);
    return Math.max(0, ...[...sends].filter(([f]) => !clientFiles.size || clientFiles.has(f)).map(([, l]) => l.size));
  }

  /** Per file, the unanswered requests of this call its client lines send (sendsCall): lines of one JSON-RPC id are one request — a handler's lines all carry its id. */
  private sendsByFile(key: string): { sends: Map<string, Set<string>>; clientFiles: Set<string> } {
    // (memoised: every failure of a call asks, and a busy call has thousands of spans)
    const known = this.sendsMemo.get(key);
    if (known) return known;
    const sends = new Map<string, Set<string>>();
    const clientFiles = new Set<string>();
    for (const i of this.byKey.get(key) ?? []) {
      // (a call of the same tool that was answered is another call — the same tool for other input, earlier in a run —
      // not an attempt of one that never was)
      if (i.key !== key || i.ok) continue;
      // (a request's lines without its id beside one with it — a host's `-> POST /mcp  Mcp-Name: x` over the body
      // `{"id":41,…}` — are that one request, when the span's lines in that file send one id only)
      const idsIn = new Map<string, Set<string>>();
      for (const e of i.span.events) if (e.rpcId !== null && sendsCall(e)) (idsIn.get(e.file) ?? idsIn.set(e.file, new Set()).get(e.file)!).add(`id ${JSON.stringify(e.rpcId)}`);
      for (const e of i.span.events) {
        if (!sendsCall(e)) continue;
        const one = idsIn.get(e.file);
        const req = e.rpcId !== null ? `id ${JSON.stringify(e.rpcId)}` : one?.size === 1 ? [...one][0]! : `line ${e.line}`;
        (sends.get(e.file) ?? sends.set(e.file, new Set()).get(e.file)!).add(req);
        if (e.source === 'client') clientFiles.add(e.file);
      }
    }
    const out = { sends, clientFiles };
    this.sendsMemo.set(key, out);
    return out;
  }

  /** A later span of the same call, sent by a client (whatever its answer). */
  sentAgainAfter(span: SpanBuild, key: string): boolean {
    const me = this.infoOf.get(span);
    if (!me) return false;
    return (this.byKey.get(key) ?? []).some((i) => i !== me && this.after(me, i) && i.span.events.some((e) => e.source !== 'server' && e.source !== 'proxy'));
  }

  /**
   * After this span, in one of its files or later in time, a request was sent or answered (a JSON-RPC method
   * other than a cancellation, a POST, or an answered exchange other than a DELETE or the GET stream).
   */
  requestedAfter(span: SpanBuild): boolean {
    const me = this.infoOf.get(span);
    if (!me) return false;
    return this.info.some(
      (i) =>
        i !== me &&
        this.after(me, i) &&
        i.span.events.some(
          (e) => (e.rpcMethod !== null && e.rpcMethod !== 'notifications/cancelled') || e.httpMethod === 'POST' || (i.ok && e.httpMethod !== 'DELETE' && e.httpMethod !== 'GET'),
        ),
    );
  }

  /**
   * After this span, in one of its files or later in time, the client sent (or was answered) another request
   * other than a session DELETE or the GET stream's own retries: it did not stop there.
   */
  wentOnAfter(span: SpanBuild): boolean {
    const me = this.infoOf.get(span);
    if (!me) return false;
    if (this.requestedAfter(span)) return true;
    // or a later line of its own log that is neither a failure, a warning nor the client closing down ("Found 9 tools")
    const t = signalTable();
    const closing = (e: Event) =>
      e.signals.some((id) => {
        const c = t.meaning(id)?.cause;
        return c === 'shutdown' || c === 'connection-closed' || c === 'session-deleted' || c === 'client-object-closed' || c === 'server-exited';
      });
    // (after its last failure line: the client's next lines may have been joined to the span)
    const lastFail = new Map<string, number>();
    for (const e of span.events) if (isFailureEvent(e)) lastFail.set(e.file, Math.max(lastFail.get(e.file) ?? 0, e.endLine));
    return this.all.some((e) => {
      const last = lastFail.get(e.file);
      // (a warning is no sign of progress: `[warning] connected -> error` is the host giving the connection up)
      return last !== undefined && e.line > last && e.httpMethod !== 'DELETE' && e.level !== 'warn' && !isFailureEvent(e) && !closing(e);
    });
  }

  /**
   * The record an exception block was printed under: the line just above it in its file (at most one blank
   * line between), when that line logged a level. Logback and Python's logging print the stack after
   * the record's message, which a blank line can leave unfolded.
   */
  recordAbove(e: Event): Event | null {
    const at = this.position.get(e);
    if (at === undefined) return null;
    for (let i = at - 1; i >= 0 && i >= at - 50; i--) {
      const p = this.all[i]!;
      if (p.file !== e.file || p.line >= e.line) continue;
      return e.line - p.endLine <= 2 && p.level !== null ? p : null;
    }
    return null;
  }

  /**
   * httpcore's trace (httpcore `_trace.py`) logs each step as `<step>.started` and then `<step>.complete` or
   * `<step>.failed`: the started line of this failed step, the last one above it in its file with no end of
   * that step between (within 200 lines), or null.
   */
  traceStarted(e: Event): Event | null {
    const m = TRACE_STEP.exec(e.text);
    if (!m || m[2] !== 'failed') return null;
    const at = this.position.get(e);
    if (at === undefined) return null;
    for (let i = at - 1, seen = 0; i >= 0 && seen < 200; i--) {
      const p = this.all[i]!;
      if (p.file !== e.file) continue;
      seen++;
      const q = TRACE_STEP.exec(p.text);
      if (!q || q[1] !== m[1]) continue;
      return q[2] === 'started' ? p : null;
    }
    return null;
  }

  /** A connection was established (a handshake, an assigned session, "connected") in `file` between lines `from` and `to`. */
  establishedBetween(file: string, from: number, to: number): boolean {
    return this.all.some((e) => e.file === file && e.line > from && e.line < to && establishes(e));
  }

  /** The clientInfo name a span's lines name, or that its session's lines name (a server logs it at initialize). */
  private clientNameOf(span: SpanBuild): string | null {
    for (const e of span.events) if (typeof e.attrs.clientName === 'string') return e.attrs.clientName;
    for (const e of span.events) {
      if (e.session === null) continue;
      // (once per session: a busy session's spans would each walk all its lines)
      let n = this.sessionClient.get(e.session);
      if (n === undefined) {
        n = null;
        for (const o of this.bySession.get(e.session) ?? [])
          if (typeof o.attrs.clientName === 'string') {
            n = o.attrs.clientName;
            break;
          }
        this.sessionClient.set(e.session, n);
      }
      if (n !== null) return n;
    }
    return null;
  }
  private readonly sessionClient = new Map<string, string | null>();

  /** A later span of the same call that succeeded. */
  laterSuccess(span: SpanBuild, key: string | null): Point | null {
    // (a tool call whose tool no line names: another unnamed call's success may be any other tool's, or the same
    // tool's with other input — it does not show this call re-issued)
    if (key === null || key === callKey('tools/call', null)) return null;
    const me = this.infoOf.get(span);
    if (!me) return null;
    const requestFiles = new Set(
      span.events.filter((e) => (e.source === 'client' || e.source === 'unknown') && (e.attrs.direction === 'request' || e.attrs.direction === 'exchange')).map((e) => e.file),
    );
    for (const i of this.byKey.get(key) ?? []) {
      if (i === me || !i.ok || i.key !== key || !this.after(me, i)) continue;
      // the same call to another server (a host talking to several) is not this one succeeding
      if (me.target !== null && i.target !== null && me.target !== i.target) continue;
      // nor another client's success (another User-Agent at the proxy): the caller that failed did not recover
      if (me.caller !== null && i.caller !== null && me.caller !== i.caller) continue;
      // (or another clientInfo name, as the server logged the two: `client="legacy-sync"` failed, `client="crm"` passed)
      if (me.clientName !== null && i.clientName !== null && me.clientName !== i.clientName) continue;
      // a notification refused, then the same method sent with an id, is another message: JSON-RPC 2.0 §4.1 (a
      // notification is a request without an id) — the one that passed is not the one that failed
      if (key.startsWith('notifications/') && me.span.rpcId === null && i.span.rpcId !== null) continue;
      // a caller's log that wrote this call's request would have written its re-issue too: a success it does not
      // show was another client's (or came after this one gave up)
      if ([...requestFiles].some((f) => !i.files.has(f))) continue;
      const e = i.span.events[0]!;
      return { where: `${e.file}:${e.line}`, ts: i.span.start, file: e.file, line: e.line };
    }
    return null;
  }

  /**
   * The same failure again after `p` (a later failing span of this call, or — unidentified — with these
   * causes): what looked like a recovery was another client's success, or it broke again.
   */
  failsAgainAfter(span: SpanBuild, key: string | null, causes: readonly SignalCause[], p: Point): boolean {
    const fail = causes.filter((c) => signalCauseIsFailure(c) && c !== 'retry-attempt' && c !== 'retries-exhausted');
    for (const i of key !== null ? (this.byKey.get(key) ?? []) : this.failingInfo) {
      if (i.span === span || !i.failing) continue;
      if (key !== null ? i.key !== key : !(fail.length > 0 && fail.every((c) => i.causes.includes(c)))) continue;
      const later = p.ts !== null && i.span.start !== null ? i.span.start > p.ts : (i.firstLine.get(p.file) ?? -1) > p.line;
      if (later) return true;
    }
    return false;
  }

  /** The client said it falls back to another transport in its next lines (mcp-remote logs the 404, then the fallback). */
  fallbackAfter(span: SpanBuild): boolean {
    const me = this.infoOf.get(span);
    if (!me) return false;
    if (!this.fallbacks) {
      const t = signalTable();
      this.fallbacks = this.clientish.filter((e) => e.signals.some((id) => t.meaning(id)?.cause === 'transport-fallback'));
    }
    for (const e of this.fallbacks) {
      const last = me.lastLine.get(e.file);
      if (last === undefined || e.line <= last || e.line - last > 5) continue;
      if (!span.events.includes(e)) return true;
    }
    return false;
  }

  /**
   * The span's client went on to a successful initialize (a 2xx answer to it, or the handshake or a
   * session logged) in one of its files, after it: within the recovery window, or 200 lines untimed.
   */
  initializedAfter(span: SpanBuild): boolean {
    const me = this.infoOf.get(span);
    if (!me) return false;
    const t = signalTable();
    const end = span.end ?? span.start;
    const handshakeWord = (e: Event) =>
      e.signals.some((id) => {
        const c = t.meaning(id)?.cause;
        return c === 'handshake-ok' || c === 'session-created';
      });
    const answered = (e: Event) => (e.httpStatus !== null && e.httpStatus >= 200 && e.httpStatus < 300) || handshakeWord(e);
    const after = (e: Event) => {
      const last = me.lastLine.get(e.file);
      if (last === undefined || e.line <= last) return false;
      return end !== null && e.ts !== null ? e.ts - end <= RECOVERY_WINDOW_MS : e.line - last <= 200;
    };
    const viaInitialize = (this.byKey.get(callKey('initialize', null)!) ?? []).some((i) => i !== me && i.span.events.some((e) => answered(e) && after(e)));
    if (viaInitialize) return true;
    // a client that logs the handshake's outcome rather than the request (`Received session ID: …`,
    // `negotiated protocol 2025-11-25`) on the lines after the refusal, in the same log — or on a line that
    // joined the refusal's own span after it (a structured `initialized protocol=…` record with no id)
    const refusals = span.events.filter(isFailureEvent);
    const afterRefusal = (e: Event) => refusals.some((f) => (f.file === e.file ? e.line > f.line : f.ts !== null && e.ts !== null && e.ts > f.ts));
    if (span.events.some((e) => handshakeWord(e) && !isFailureEvent(e) && afterRefusal(e))) return true;
    return this.all.some((e) => me.lastLine.has(e.file) && handshakeWord(e) && after(e));
  }
  /** The server's log that holds this span's lines answered or took in another request after them (it kept serving). */
  serverServedAfter(span: SpanBuild): boolean {
    const me = this.infoOf.get(span);
    if (!me) return false;
    const t = signalTable();
    // after the span's last failure line in that log (what follows may have been joined to the span)
    const lastFail = new Map<string, number>();
    for (const e of span.events) if (e.source === 'server' && isFailureEvent(e)) lastFail.set(e.file, Math.max(lastFail.get(e.file) ?? 0, e.endLine));
    let ownAccessSkipped = false;
    return this.serverLines.some((e) => {
      const last = lastFail.get(e.file);
      if (last === undefined || e.line <= last) return false;
      const served = (e.httpStatus !== null && e.httpStatus >= 200 && e.httpStatus < 300) || e.signals.some((id) => t.meaning(id)?.cause === 'request-received');
      // (uvicorn writes the crashed request's own access line right after its traceback: the next one counts)
      if (served && !ownAccessSkipped && e.httpStatus !== null && e.line - last <= 1) {
        ownAccessSkipped = true;
        return false;
      }
      return served;
    });
  }
  /**
   * The server whose own backend failed this call (dependency-unavailable) is seen using it again: after the span's
   * last failure line in that log, a later call the same log answered (a 2xx, a completion signal, or its call line
   * saying `ok`/`done`) after the last line of that log reporting the backend unavailable. Where, or null.
   */
  dependencyBackAfter(span: SpanBuild): string | null {
    // (the server's log, or a log whose side is not known: only a server reports its own backend this way)
    const own = (e: Event) => e.source === 'server' || e.source === 'unknown';
    const lastFail = new Map<string, number>();
    for (const e of span.events) if (own(e) && isFailureEvent(e)) lastFail.set(e.file, Math.max(lastFail.get(e.file) ?? 0, e.endLine));
    if (!lastFail.size) return null;
    // (memoised: a burst's failures of one backend ask with the same last lines)
    const key = [...lastFail].sort().join('|');
    const known = this.dependencyMemo.get(key);
    if (known !== undefined) return known;
    const t = signalTable();
    let back: Event | null = null;
    const mine = new Set(span.events);
    for (const e of this.all) {
      if (!own(e)) continue;
      const last = lastFail.get(e.file);
      if (last === undefined || e.line <= last || mine.has(e)) continue;
      // (the burst's other calls failing the same way meanwhile: the backend is back only after the last of them)
      if (failureCauses(e).includes('dependency-unavailable')) {
        back = null;
        continue;
      }
      if (back !== null || isFailureEvent(e) || (e.rpcMethod === null && e.tool === null)) continue;
      const answered =
        (e.httpStatus !== null && e.httpStatus >= 200 && e.httpStatus < 300) || e.signals.some((id) => t.meaning(id)?.outcome === 'completion') || CALL_OK.test(e.message);
      if (answered) back = e;
    }
    const where = back ? `${back.file}:${back.line}` : null;
    this.dependencyMemo.set(key, where);
    return where;
  }
  /**
   * Seen from the server or the proxy: after this failed POST, a legacy HTTP+SSE message POST was
   * answered 2xx within the recovery window — the client fell back to the older transport and it
   * worked (spec 2025-03-26 backward compatibility, row 61), though no client log says so.
   */
  legacyConnectedAfter(span: SpanBuild): Point | null {
    const end = span.end ?? span.start;
    if (end === null) return null;
    if (!this.legacyPosts) {
      // (the lines the loop below can take at all, in order: the per-failure tests are the cheap ones)
      const t = signalTable();
      this.legacyPosts = this.all.filter(
        (e) =>
          e.source !== 'client' &&
          e.ts !== null &&
          e.httpMethod === 'POST' &&
          e.httpStatus !== null &&
          e.httpStatus >= 200 &&
          e.httpStatus < 300 &&
          e.signals.some((id) => t.meaning(id)?.cause === 'transport-legacy'),
      );
    }
    for (const e of this.legacyPosts) {
      if (e.ts! < end || e.ts! - end > RECOVERY_WINDOW_MS || span.events.includes(e)) continue;
      return { where: `${e.file}:${e.line}`, ts: e.ts, file: e.file, line: e.line };
    }
    return null;
  }

  /**
   * `endpointWorked`, for this span's target: a success logged against another host:port (a direct curl to the
   * upstream, beside requests that fail through the proxy) says nothing of this one. Unknown targets count.
   */
  endpointWorkedFor(span: SpanBuild): boolean {
    if (!this.endpointWorked) return false;
    const me = this.infoOf.get(span);
    if (!me || me.target === null) return true;
    if (!this.workedTargets) {
      const t = signalTable();
      this.workedTargets = new Set();
      for (const e of this.all) {
        const ok = (e.httpStatus !== null && e.httpStatus >= 200 && e.httpStatus < 300 && e.httpMethod !== null) || e.signals.some((id) => t.meaning(id)?.cause === 'handshake-ok');
        if (ok) this.workedTargets.add(targetOf(e) ?? this.targetBefore(e));
      }
    }
    return this.workedTargets.has(null) || this.workedTargets.has(me.target);
  }
  private workedTargets: Set<string | null> | null = null;

  /** The client lines one of whose signals means what `test` asks. */
  private clientLinesWith(test: (m: SignalMeaning) => boolean): Event[] {
    const t = signalTable();
    return this.clientish.filter((e) =>
      e.signals.some((id) => {
        const m = t.meaning(id);
        return m !== null && test(m);
      }),
    );
  }

  /** A client line speaks for this span's connection: it names (or follows) no other target and no other server. */
  private speaksFor(me: SpanInfo, e: Event): boolean {
    const before = this.targetBefore(e);
    if (me.target !== null && before !== null && before !== me.target) return false;
    // (one host log, several servers: the server it names, or the one it last named before)
    const named = serverOf(e) ?? this.lastBefore(this.servers, e);
    return me.server === null || named === null || named === me.server;
  }

  /**
   * A client line showing the request carried a credential (an Authorization header sent: curl's `> Authorization:
   * Bearer …`, a request-header dump, a transcript's request head) for this span's request: in the span, else the
   * nearest before it in one of the span's files, for the same target and server. Null: nothing shows one was sent.
   */
  credentialShown(span: SpanBuild): Point | null {
    const me = this.infoOf.get(span);
    const sent = (e: Event) => (e.source === 'client' || e.source === 'unknown') && (e.attrs.authorizationSent === true || e.signals.includes('credential-sent'));
    // (a request's credential is printed before the answer that refused it: a line after the refusal in its file,
    // joined by time alone, is the next request's)
    const refusedAt = new Map<string, number>();
    for (const e of span.events) if (e.httpStatus !== null && e.httpStatus >= 400 && !((refusedAt.get(e.file) ?? Infinity) < e.line)) refusedAt.set(e.file, e.line);
    const own = span.events.find((e) => sent(e) && e.line <= (refusedAt.get(e.file) ?? Infinity));
    if (own) return { where: `${own.file}:${own.line}`, ts: own.ts, file: own.file, line: own.line };
    if (!me) return null;
    this.credentialLines ??= this.all.filter(sent);
    let best: Event | null = null;
    for (const e of this.credentialLines) {
      const first = me.firstLine.get(e.file);
      if (first === undefined || e.line >= first || !this.speaksFor(me, e)) continue;
      if (best === null || e.line > best.line) best = e;
    }
    return best ? { where: `${best.file}:${best.line}`, ts: best.ts, file: best.file, line: best.line } : null;
  }
  private credentialLines: Event[] | null = null;

  /**
   * A client line before this span saying the connection worked — it connected, the handshake or a call was
   * answered — for the same target and server: the address was right then (an outage, not a misroute).
   */
  earlierConnected(span: SpanBuild): Point | null {
    return this.connectedBeside(span, (e, me) => {
      const first = me.firstLine.get(e.file);
      return span.start !== null && e.ts !== null ? e.ts < span.start : first !== undefined && e.line < first;
    });
  }
  /** The client connected to this span's server (or a call of it was answered) after the span: where, or null. */
  laterConnected(span: SpanBuild): Point | null {
    return this.connectedBeside(span, (e, me) => {
      const last = me.lastLine.get(e.file);
      const end = span.end ?? span.start;
      return end !== null && e.ts !== null ? e.ts > end : last !== undefined && e.line > last;
    });
  }
  /** The first client line saying the connection to this span's target and server worked, on the side `where` keeps. */
  private connectedBeside(span: SpanBuild, where: (e: Event, me: SpanInfo) => boolean): Point | null {
    const me = this.infoOf.get(span);
    if (!me) return null;
    for (const e of this.connectLines()) {
      if (span.events.includes(e) || !this.speaksFor(me, e)) continue;
      if (where(e, me)) return { where: `${e.file}:${e.line}`, ts: e.ts, file: e.file, line: e.line };
    }
    return null;
  }
  /** Client lines saying a connection was made or a call answered (asked by several look-ups: found once). */
  private connectLines(): Event[] {
    this.connects ??= this.clientLinesWith((m) => m.outcome === 'recovery' || m.cause === 'connected' || m.cause === 'handshake-ok' || m.cause === 'call-succeeded');
    return this.connects;
  }
  private connects: Event[] | null = null;

  /**
   * Every try to this span's target (the same host:port and server name) timed out at connect — packets dropped,
   * never refused — on at least DROPPED_TRIES tries spread over at least DROPPED_FOR_MS, and nothing of that target answered
   * since the first: where the first try was, or null. Tries are the timed lines with a connect-timeout signal,
   * a new one after a gap of more than 2 s (one failure's message, cause and stack are one try).
   */
  droppedSince(span: SpanBuild): Point | null {
    const me = this.infoOf.get(span);
    if (!me || !me.causes.includes('connect-timeout')) return null;
    // (the answer is the target's, not the span's: asked for each of a day's failed tries, computed once per target)
    const key = `${me.target}\n${me.server}\n${[...me.files].sort().join('\n')}`;
    if (this.droppedBy.has(key)) return this.droppedBy.get(key)!;
    const out = this.droppedFor(me);
    this.droppedBy.set(key, out);
    return out;
  }
  private readonly droppedBy = new Map<string, Point | null>();
  private droppedFor(me: SpanInfo): Point | null {
    this.dropped ??= this.clientLinesWith((m) => m.cause === 'connect-timeout').filter((e) => e.ts !== null);
    this.refused ??= this.clientLinesWith((m) => m.cause === 'conn-refused').filter((e) => e.ts !== null);
    const connects = this.connectLines();
    // (a try's own lines may name the address its host name resolved to: the request they belong to names the target)
    const ours = (e: Event) => {
      const other = this.spanInfoOf(e);
      if (other !== undefined && other.target !== null && other.target === me.target) return other.server === me.server;
      // (nor does a request that names no target of its own, logged by the same client for the same server)
      if (other !== undefined && other.target === null && other.server === me.server && me.files.has(e.file)) return true;
      return this.speaksFor(me, e);
    };
    const mine = this.dropped.filter(ours).sort((a, b) => a.ts! - b.ts!);
    if (!mine.length) return null;
    let tries = 0;
    let last = -Infinity;
    for (const e of mine) {
      if (e.ts! - last > 2000) tries++;
      last = e.ts!;
    }
    const first = mine[0]!;
    if (tries < DROPPED_TRIES || last - first.ts! < DROPPED_FOR_MS) return null;
    // (a refusal among them is a host that answers: something listens or rejects — not a dropped path)
    if (this.refused.some((e) => e.ts! >= first.ts! && e.ts! <= last && ours(e))) return null;
    // (an answer from that target after the first try: the path works again — a host's "connected" state line
    // only after the last try, since VS Code's `Connection state: Running` comes before anything is sent)
    this.answers ??= this.clientLinesWith((m) => m.cause === 'handshake-ok' || m.cause === 'call-succeeded');
    const since = (e: Event, from: number) => e.ts !== null && e.ts > from && !me.span.events.includes(e) && ours(e);
    if (this.answers.some((e) => since(e, first.ts!)) || connects.some((e) => since(e, last))) return null;
    return { where: `${first.file}:${first.line}`, ts: first.ts, file: first.file, line: first.line };
  }
  private dropped: Event[] | null = null;
  private refused: Event[] | null = null;
  private answers: Event[] | null = null;

  /**
   * A line before this span — in the span's own log (a gateway's too: it is the client of its upstream), or a
   * client's line for the same target and server — showing a request other than initialize answered: a call or
   * a listing that returned, a 2xx to a named method other than initialize. A server that keeps sessions refuses
   * every such request without the id, so this client held one then. `connected`: a line saying it connected
   * (or completed initialize) counts too.
   */
  earlierSessionUse(span: SpanBuild, connected = false): Point | null {
    const me = this.infoOf.get(span);
    if (!me) return null;
    const t = signalTable();
    for (const e of this.all) {
      if (span.events.includes(e)) continue;
      const first = me.firstLine.get(e.file);
      const own = first !== undefined;
      if (!own && !((e.source === 'client' || e.source === 'unknown') && this.speaksFor(me, e))) continue;
      const earlier = own ? e.line < first : span.start !== null && e.ts !== null && e.ts < span.start;
      if (!earlier) continue;
      const answered =
        (e.httpStatus !== null && e.httpStatus >= 200 && e.httpStatus < 300 && e.rpcMethod !== null && e.rpcMethod !== 'initialize') ||
        e.signals.some((id) => {
          const c = t.meaning(id)?.cause;
          return c === 'call-succeeded' || (connected && (c === 'connected' || c === 'handshake-ok'));
        });
      if (answered) return { where: `${e.file}:${e.line}`, ts: e.ts, file: e.file, line: e.line };
    }
    return null;
  }

  /** The client said, after this span and within the recovery window, that it gave up reconnecting or retrying (same target and server). */
  laterGaveUp(span: SpanBuild): Event | null {
    const me = this.infoOf.get(span);
    if (!me) return null;
    for (const e of this.giveUpLines()) {
      if (span.events.includes(e)) return e;
      if (!this.speaksFor(me, e)) continue;
      const last = me.lastLine.get(e.file);
      const ok =
        span.end !== null && e.ts !== null ? e.ts >= span.end && e.ts - span.end <= RECOVERY_WINDOW_MS : last !== undefined && e.line > last && e.line - last <= RECOVERY_LINES;
      if (ok) return e;
    }
    return null;
  }
  private giveUps: Event[] | null = null;
  /** The client's lines saying it gave up reconnecting or retrying, found once. */
  private giveUpLines(): Event[] {
    this.giveUps ??= this.clientLinesWith((m) => m.cause === 'reconnect-exhausted' || m.cause === 'retries-exhausted');
    return this.giveUps;
  }
  /**
   * An earlier answer (2xx) to a call of this key that took at most `atMostMs` by its logged duration: where, and how
   * long. The answers of each key are found once (a day of logs asks this for many failures).
   */
  quickAnswerBefore(span: SpanBuild, key: string | null, atMostMs: number): (Point & { ms: number }) | null {
    if (key === null || span.start === null) return null;
    if (!this.timedAnswers) {
      this.timedAnswers = new Map();
      for (const e of this.all) {
        if (e.ts === null || e.durationMs === null || e.httpStatus === null || e.httpStatus < 200 || e.httpStatus >= 300) continue;
        const k = callKey(e.rpcMethod ?? (e.tool !== null ? 'tools/call' : null), e.tool);
        if (k === null) continue;
        const list = this.timedAnswers.get(k);
        if (list) list.push(e);
        else this.timedAnswers.set(k, [e]);
      }
    }
    for (const e of this.timedAnswers.get(key) ?? []) {
      if (e.ts! >= span.start || span.events.includes(e) || e.durationMs! > atMostMs) continue;
      return { where: `${e.file}:${e.line}`, ts: e.ts, file: e.file, line: e.line, ms: e.durationMs! };
    }
    return null;
  }
  private timedAnswers: Map<string, Event[]> | null = null;
  /**
   * This failure is another caller's: no client line is part of it, the proxy or server line records its caller
   * (address, User-Agent), and that caller is shown not to be a client whose log is here — a client log that records
   * its failures covers the time of one of that caller's failures and logged no failure near it, no failure of that
   * caller lies near a failure a client logged, and no line of that caller is part of a request a client logged.
   * Where it was shown, or null. A shared proxy's or server's log carries every tenant's requests: another
   * application's expired key or aborted request is its owners' to fix, not this incident's headline.
   */
  otherCaller(span: SpanBuild): string | null {
    const key = this.failingCaller(span);
    if (key === null) return null;
    this.callers ??= this.otherCallers();
    return this.callers.get(key) ?? null;
  }
  /** otherCaller was shown by the caller alone (a stranger: neither address nor User-Agent is a client's). */
  otherCallerStranger(span: SpanBuild): boolean {
    return this.otherCaller(span) !== null && this.strangers.has(this.failingCaller(span)!);
  }
  /** The caller a failing proxy or server line of this span records, when no client line is part of it. */
  private failingCaller(span: SpanBuild): string | null {
    if (span.events.some((e) => e.source === 'client')) return null;
    for (const e of span.events) {
      const key = isFailureEvent(e) ? callerKeyOf(e) : null;
      if (key !== null) return key;
    }
    return null;
  }
  private callers: Map<string, string> | null = null;
  private readonly strangers = new Set<string>();
  private otherCallers(): Map<string, string> {
    const out = new Map<string, string>();
    // the callers of the requests a client's own lines are part of
    const ours = new Set<string>();
    for (const { span } of this.info)
      if (span.events.some((e) => e.source === 'client'))
        for (const e of span.events) {
          const key = e.source === 'client' ? null : callerKeyOf(e);
          if (key !== null) ours.add(key);
        }
    // A caller that shares neither its address nor its User-Agent with any of those is not a client whose log is
    // here, whether or not a client log covers its failure (another application behind the same proxy, logging
    // after the client's log ends): both must be logged, and the client's own callers must be known.
    const ourAddrs = new Set<string>();
    const ourAgents = new Set<string>();
    for (const k of ours) {
      const [addr, agent] = k.split('\u0000') as [string, string];
      if (addr !== '') ourAddrs.add(addr);
      if (agent !== '') ourAgents.add(agent);
    }
    const stranger = (key: string) => {
      const [addr, agent] = key.split('\u0000') as [string, string];
      return ours.size > 0 && addr !== '' && agent !== '' && !ourAddrs.has(addr) && !ourAgents.has(agent);
    };
    // each client log that records failures: its time span and its failures' times
    const files = new Map<string, { first: number; last: number; failures: number[] }>();
    for (const e of this.all) {
      if (e.source !== 'client' || e.ts === null) continue;
      const f = files.get(e.file) ?? files.set(e.file, { first: e.ts, last: e.ts, failures: [] }).get(e.file)!;
      f.first = Math.min(f.first, e.ts);
      f.last = Math.max(f.last, e.ts);
      if (isFailureEvent(e)) f.failures.push(e.ts);
    }
    const logs = [...files.values()].filter((f) => f.failures.length > 0);
    const nearOurs = (ts: number) => logs.some((f) => f.failures.some((t) => Math.abs(t - ts) <= OTHER_CALLER_MS));
    // (a line's moments: its stamp, and its stamp plus its duration — HAProxy stamps when the request came in)
    const moments = (e: Event) => (e.durationMs !== null && e.durationMs > 0 ? [e.ts!, e.ts! + e.durationMs] : [e.ts!]);
    const possiblyOurs = new Set<string>();
    const shown = new Map<string, string>();
    for (const e of this.all) {
      if (e.source === 'client' || e.ts === null || !isFailureEvent(e)) continue;
      const key = callerKeyOf(e);
      if (key === null || ours.has(key)) continue;
      if (moments(e).some(nearOurs)) possiblyOurs.add(key);
      else if (shown.has(key)) continue;
      else if (moments(e).some((t) => logs.some((f) => f.first <= t && t <= f.last))) shown.set(key, `${e.file}:${e.line}`);
      else if (stranger(key)) {
        shown.set(key, `${e.file}:${e.line}`);
        this.strangers.add(key);
      }
    }
    for (const [key, where] of shown) if (!possiblyOurs.has(key)) out.set(key, where);
    return out;
  }

  /** A line of the client's giving this span's call up, after the span began and before `at` in `at`'s file. */
  gaveUpBefore(span: SpanBuild, at: Event): Event | null {
    const me = this.infoOf.get(span);
    if (!me) return null;
    const first = me.firstLine.get(at.file);
    for (const e of this.giveUpLines()) {
      if (e.file !== at.file || e.line >= at.line || (first !== undefined && e.line < first)) continue;
      if (span.events.includes(e) || this.speaksFor(me, e)) return e;
    }
    return null;
  }

  /** A client line after this span saying it connected or resumed, close enough to speak for it. */
  laterRecovery(span: SpanBuild): (Point & { resumed: boolean }) | null {
    const me = this.infoOf.get(span);
    if (!me) return null;
    if (!this.recoveries) {
      const t = signalTable();
      this.recoveries = [];
      for (const e of this.clientish) {
        const rec = e.signals.map((id) => t.meaning(id)).find((m) => m?.outcome === 'recovery');
        if (rec) this.recoveries.push({ e, resumed: rec.cause === 'stream-resumed' });
      }
    }
    // (after the failure: the request's own answer, joined to it when it came on the resumed stream, may end the span later)
    let failedAt: number | null = null;
    for (const x of span.events) if (x.ts !== null && isFailureEvent(x)) failedAt = Math.max(failedAt ?? x.ts, x.ts);
    const end = failedAt ?? span.end;
    for (const { e, resumed } of this.recoveries) {
      // a line saying "connected" speaks for the server the client was last connecting to, and the one it names
      if (span.events.includes(e) || !this.speaksFor(me, e)) continue;
      const last = me.lastLine.get(e.file);
      const timed = end !== null && e.ts !== null;
      // the same millisecond is common (a prefix stamp, a fast client): then the file's order says after
      const ok = timed
        ? (e.ts! > end! || (e.ts === end && last !== undefined && e.line > last)) && e.ts! - end! <= RECOVERY_WINDOW_MS
        : last !== undefined && e.line > last && e.line - last <= RECOVERY_LINES;
      if (!ok) continue;
      return { where: `${e.file}:${e.line}`, ts: e.ts, file: e.file, line: e.line, resumed };
    }
    return null;
  }

  /** A process logged that it was shutting down within `ms` of `ts` (a deploy, the end of a run). */
  shutdownNear(ts: number | null, ms = 2000): boolean {
    if (ts === null) return false;
    return this.shutdownLines().some((x) => Math.abs(x.ts! - ts) <= ms);
  }
  /** The timed lines saying a process is shutting down (cause `shutdown`: SIGTERM received, draining, graceful stop). */
  shutdownLines(): readonly Event[] {
    if (!this.shutdowns) {
      const t = signalTable();
      this.shutdowns = this.all.filter((e) => e.ts !== null && e.signals.some((id) => t.meaning(id)?.cause === 'shutdown'));
    }
    return this.shutdowns;
  }
  private shutdowns: Event[] | null = null;

  /**
   * A server-side process died of an error it did not handle (`server-crashed`: Node's uncaught-exception
   * report, a Go panic) while this request was open: from `from` to `ms` after `to`. Its line if so.
   */
  crashDuring(from: number | null, to: number | null, ms = 2000): Event | null {
    if (from === null) return null;
    if (!this.crashes) {
      const t = signalTable();
      this.crashes = this.all.filter((e) => e.ts !== null && e.source !== 'client' && e.signals.some((id) => t.meaning(id)?.cause === 'server-crashed'));
    }
    // (a crash before the request started refused it rather than cut it: a quarter second for two clocks)
    return this.crashes.find((e) => e.ts! >= from - 250 && e.ts! <= (to ?? from) + ms) ?? null;
  }
  private crashes: Event[] | null = null;

  /**
   * The balancer's health probe asks for a path the server does not serve (signal health-check-path-not-found:
   * a probe answered 404/405), and no probe of that path was answered 2xx after it, by time `ts`: the server is
   * up, the balancer marks it unhealthy. Its line if so.
   */
  healthPathMissingBy(ts: number | null): Event | null {
    if (ts === null) return null;
    // (in time order: per-file clock corrections may leave the incident's events slightly out of it)
    if (!this.healthProbes)
      this.healthProbes = this.all
        .filter((e) => e.ts !== null && (e.signals.includes('health-check-path-not-found') || e.signals.includes('health-check-probe')))
        .sort((a, b) => a.ts! - b.ts!);
    let missing: Event | null = null;
    for (const e of this.healthProbes) {
      if (e.ts! > ts) break;
      if (e.signals.includes('health-check-path-not-found')) missing = e;
      // (the same path answered again: the probe works now)
      else if (missing !== null && e.httpPath !== null && e.httpPath === missing.httpPath && e.httpStatus !== null && e.httpStatus < 300) missing = null;
    }
    return missing;
  }
  private healthProbes: Event[] | null = null;

  /**
   * A forward proxy's refusal to tunnel (signal forward-proxy-tunnel-refused: Squid `TCP_DENIED/403 … CONNECT host:443`)
   * that names `host` — at any time when the proxy never tunnelled to that host, else within `ms` of `ts` (any host
   * when null): a client's bare 403 then is the proxy's.
   */
  tunnelRefusedNear(ts: number | null, host: string | null, ms = 5000): Event | null {
    if (ts === null) return null;
    if (!this.tunnelRefusals) {
      this.tunnelRefusals = this.all.filter((e) => e.signals.includes('forward-proxy-tunnel-refused'));
      this.tunnelled = this.tunnelRefusals.length ? this.all.filter((e) => /\bTCP_TUNNEL\/2\d\d\b/.test(e.text)).map((e) => e.text.toLowerCase()) : [];
    }
    const h = host?.toLowerCase() ?? null;
    // (the host named: a proxy that refuses it and never tunnels to it refuses it whenever it was asked — two logs'
    // clocks need not agree for that)
    if (h !== null && !this.tunnelled.some((t) => t.includes(h))) {
      const any = this.tunnelRefusals.find((e) => e.text.toLowerCase().includes(h));
      if (any) return any;
    }
    return this.tunnelRefusals.find((e) => e.ts !== null && Math.abs(e.ts - ts) <= ms && (h === null || e.text.toLowerCase().includes(h))) ?? null;
  }
  private tunnelRefusals: Event[] | null = null;
  private tunnelled: string[] = [];

  /**
   * A redirect answered for the same request just before `refusal` (within `ms`): a line of its files (the
   * client narrating `redirecting to …`, the server logging its 307) or one naming `tool`, with a redirect signal or
   * a 3xx status. HTTP clients drop Authorization when they follow a redirect to another origin (Fetch, httpx,
   * requests), so a 401 right after it is the credential lost on the way. Its line if so.
   */
  redirectBefore(refusal: Event, files: ReadonlySet<string>, tool: string | null, ms = 2000): Event | null {
    const ts = refusal.ts;
    if (ts === null) return null;
    if (!this.redirects) {
      const t = signalTable();
      this.redirects = this.all.filter(
        (e) => e.ts !== null && ((e.httpStatus !== null && e.httpStatus >= 300 && e.httpStatus < 400) || e.signals.some((id) => t.meaning(id)?.cause === 'redirect')),
      );
    }
    // (before the refusal: in its own file, an earlier line; in another log, an earlier time and the same tool)
    return (
      this.redirects.find(
        (e) => e.ts! >= ts - ms && (refusal.file === e.file ? e.line < refusal.line && e.ts! <= ts : e.ts! < ts && (files.has(e.file) || (tool !== null && e.tool === tool))),
      ) ?? null
    );
  }
  private redirects: Event[] | null = null;

  /** A line saying invalid_token (RFC 6750: the token arrived and was refused for itself) from `from` to `to`. */
  saysInvalidTokenWithin(from: number, to: number): boolean {
    this.invalidTokens ??= this.all.filter((e) => e.ts !== null && /\binvalid_token\b/.test(e.text)).map((e) => e.ts!);
    return this.invalidTokens.some((t) => t >= from && t <= to);
  }
  private invalidTokens: number[] | null = null;

  /** The host the last target a client line of `e`'s file named at or before it (`mcp server … at https://host/mcp`). */
  hostNamedBefore(e: Event): string | null {
    const t = this.targetBefore(e);
    return t === null ? null : t.replace(/:\d*$/, '');
  }

  /** The last target a client line of this file named at or before `e`. */
  private targetBefore(e: Event): string | null {
    // (in a host's log of several components — Zed's agent thread, its collab client, its model provider — a line
    // follows the last target its own component named, when it named one: the collab client's connection is not
    // the MCP server's)
    const logger = loggerOf(e);
    if (logger !== null) {
      let own: string | null = null;
      for (const t of this.targets.get(e.file) ?? []) {
        if (t.line > e.line) break;
        if (t.logger === logger) own = t.target;
      }
      if (own !== null) return own;
    }
    return this.lastBefore(this.targets, e);
  }

  private lastBefore(map: ReadonlyMap<string, readonly { line: number; target: string }[]>, e: Event): string | null {
    const list = map.get(e.file);
    if (!list) return null;
    let found: string | null = null;
    for (const t of list) {
      if (t.line > e.line) break;
      found = t.target;
    }
    return found;
  }

  /** byKey's spans that hold a server's duplicate-write refusal, with that line, in byKey's order (built once). */
  private duplicateRefusals(key: string): readonly [SpanInfo, Event][] {
    if (!this.refusedByKey) {
      this.refusedByKey = new Map();
      for (const [k, list] of this.byKey)
        for (const i of list) {
          const d = i.span.events.find((e) => e.signals.includes('duplicate-write-refused'));
          if (d) (this.refusedByKey.get(k) ?? this.refusedByKey.set(k, []).get(k)!).push([i, d]);
        }
    }
    return this.refusedByKey.get(key) ?? [];
  }
  private refusedByKey: Map<string, [SpanInfo, Event][]> | null = null;
  /** The timed lines that name a tool or a JSON-RPC id (what writeEvidence looks through per call, built once). */
  private toolOrIdLines(): readonly Event[] {
    this.toolOrId ??= this.all.filter((e) => e.ts !== null && (e.tool !== null || e.rpcId !== null));
    return this.toolOrId;
  }
  private toolOrId: Event[] | null = null;
  /** The spans whose JSON-RPC id, JSON-encoded, is `rpc` (built once). */
  private spansWithRpc(rpc: string): readonly SpanInfo[] {
    if (!this.infoByRpc) {
      this.infoByRpc = new Map();
      for (const i of this.info) {
        if (i.span.rpcId === null) continue;
        const k = JSON.stringify(i.span.rpcId);
        (this.infoByRpc.get(k) ?? this.infoByRpc.set(k, []).get(k)!).push(i);
      }
    }
    return this.infoByRpc.get(rpc) ?? [];
  }
  private infoByRpc: Map<string, SpanInfo[]> | null = null;

  /**
   * A server line whose JSON-RPC id no other file ever names, while other files do log ids: something between them
   * renumbered the calls (a gateway that forwards each call under its own id — `envoy-<request id>` — since the spec
   * only requires ids unique per sender), so that id says nothing about which caller's call the line serves; its
   * tool and time still do. (Other files, not the client's: a file's side may be unknown, and its name says nothing.)
   */
  private renumbered(e: Event): boolean {
    if (e.rpcId === null || e.source === 'client') return false;
    if (!this.idFiles) {
      this.idFiles = new Map();
      for (const x of this.all) {
        if (x.rpcId === null) continue;
        const k = JSON.stringify(x.rpcId);
        (this.idFiles.get(k) ?? this.idFiles.set(k, new Set()).get(k)!).add(x.file);
        this.filesWithIds.add(x.file);
      }
    }
    // (e's own id names e's file at least: only that file, while another file logs ids)
    const named = this.idFiles.get(JSON.stringify(e.rpcId));
    const othersLogIds = this.filesWithIds.size > 1 || !this.filesWithIds.has(e.file);
    return othersLogIds && (named === undefined || (named.size === 1 && named.has(e.file)));
  }
  private idFiles: Map<string, Set<string>> | null = null;
  private readonly filesWithIds = new Set<string>();

  /** A server line of this request (its span, or its session + rpc id / tool after it started) showing the write committed. */
  writeEvidence(span: SpanBuild, inSpan: ReadonlySet<Event>): string | null {
    const t = signalTable();
    // (a part of the work committed — `batch 3/12 committed` — is not the call's write done: the rest is as open)
    const committed = (e: Event) => e.signals.some((id) => t.meaning(id)?.cause === 'write-committed') && !partOfWhole(e.message);
    const rpc = span.rpcId === null ? null : JSON.stringify(span.rpcId);
    // (a log of unknown side joined to a client's call is the other end of it: the server's)
    // (and a log of unknown side that names the targets it called — `POST https://host/mcp "504"` — is the caller's)
    const clientFiles = new Set(span.events.filter((e) => e.source === 'client' || (e.source === 'unknown' && this.targets.has(e.file))).map((e) => e.file));
    const serverSideFiles = new Set(span.events.filter((e) => e.source === 'unknown' && clientFiles.size > 0 && !clientFiles.has(e.file)).map((e) => e.file));
    // (and any other log of unknown side that names no target it called: not a caller's, so the served side's)
    // (and a log of unknown side joined to a proxy's line with no caller's line in the span: the proxy's upstream)
    const behindProxy = clientFiles.size === 0 && span.events.some((x) => x.source === 'proxy');
    const serverSide = (e: Event) =>
      e.source === 'server' ||
      (e.source === 'unknown' &&
        (serverSideFiles.has(e.file) || (clientFiles.size > 0 && !clientFiles.has(e.file) && !this.targets.has(e.file)) || (behindProxy && !this.targets.has(e.file))));
    const candidates: Event[] = span.events.filter(serverSide);
    if (span.session !== null) for (const e of this.sessionEvents(span.session)) if (e.source === 'server' && !inSpan.has(e)) candidates.push(e);
    candidates.sort((a, b) => (this.position.get(a) ?? 0) - (this.position.get(b) ?? 0));
    // no session to tie server lines to this call: the same tool's lines from the call's start to the
    // next call of that tool, one that began after this one ended (a client line naming the tool, then the server logging the commit), and
    // lines naming this call's JSON-RPC id and its tool (or no tool) however late (a rerun in between
    // does not make the first call's own result someone else's)
    if (span.session === null && (span.tool !== null || rpc !== null) && span.start !== null) {
      // another caller's call with the same id and tool (ids restart per client): the id no longer says whose lines they are
      const idShared =
        rpc !== null &&
        this.spansWithRpc(rpc).some(
          (i) =>
            i.span !== span &&
            sameTool(i.span.tool, span.tool) &&
            // (a caller's line: a log of unknown side that reads as this call's served side is the server's own record)
            i.span.events.some((e) => !serverSide(e) && !inSpan.has(e) && !span.events.some((x) => x.file === e.file)),
        );
      const next =
        span.tool === null
          ? span.start
          : this.info
              .map((i) => i.span)
              .filter((x) => x !== span && sameTool(x.tool, span.tool) && x.start !== null && x.start > (span.end ?? span.start!) && x.events.some((e) => e.source !== 'server'))
              .reduce((m, x) => Math.min(m, x.start!), Infinity);
      for (const e of this.toolOrIdLines()) {
        if (!serverSide(e) || e.ts === null || e.ts < span.start - 2000 || inSpan.has(e)) continue;
        const byTool = (span.rpcId === null || this.renumbered(e)) && sameTool(e.tool, span.tool) && e.ts < next;
        const byId =
          !idShared &&
          rpc !== null &&
          e.session === null &&
          JSON.stringify(e.rpcId) === rpc &&
          (e.tool === null || sameTool(e.tool, span.tool)) &&
          e.ts - span.start <= ANSWER_LATE_MS;
        if (byTool || byId) candidates.push(e);
      }
      candidates.sort((a, b) => (this.position.get(a) ?? 0) - (this.position.get(b) ?? 0));
    }
    // a task-augmented call (spec 2025-11-25 tasks): its task id, then a later line of any side saying
    // that task completed (the client's tasks/get relays the server's word)
    // a later attempt of the same call refused by the server as a duplicate of a write that exists (a duplicate or
    // idempotency guard, triage-rules §6): this attempt's write is that one
    const me = this.infoOf.get(span);
    if (me && me.key !== null)
      for (const [i, d] of this.duplicateRefusals(me.key)) {
        if (i === me || !this.after(me, i)) continue;
        return `${d.file}:${d.line} ${d.message.slice(0, 160)}`;
      }
    // (the handle as enrich.ts TASK_ID reads it: attrs.taskId)
    const taskIds = new Set<string>();
    for (const e of span.events) if (typeof e.attrs.taskId === 'string') taskIds.add(e.attrs.taskId);
    if (taskIds.size) {
      for (const e of this.all) {
        // (in the span or not: a task's lines join its call by the task handle, spans.ts 'task-id')
        if (!e.signals.includes('task-completed') || (span.start !== null && e.ts !== null && e.ts < span.start)) continue;
        if (typeof e.attrs.taskId === 'string' && taskIds.has(e.attrs.taskId)) return `${e.file}:${e.line} ${e.message.slice(0, 160)}`;
      }
    }
    const ours: Event[] = [];
    for (const e of candidates) {
      const mine =
        inSpan.has(e) ||
        (rpc !== null && JSON.stringify(e.rpcId) === rpc) ||
        (span.tool !== null && sameTool(e.tool, span.tool) && (e.rpcId === null || (span.session === null && (rpc === null || this.renumbered(e)))));
      if (!mine || (span.start !== null && e.ts !== null && e.ts < span.start)) continue;
      ours.push(e);
      if (committed(e)) return `${e.file}:${e.line} ${e.message.slice(0, 160)}`;
      if (/request completed/i.test(e.message) && e.httpStatus !== null && e.httpStatus < 300 && !/abort/i.test(e.text))
        return `${e.file}:${e.line} the server completed the request with HTTP ${e.httpStatus}`;
    }
    // a commit the server logged in its own words with no id at all (`ledger: committed entry #5001`), in a
    // file that logged this call, after the call began and before that file logged any other call: the
    // handler's word about this call's write (a handler that ignores the cut finishes it — sdk-behaviour 10)
    if (span.start !== null && (span.tool !== null || rpc !== null)) {
      const mineSet = new Set(ours);
      // a handler that names itself at the head of its lines (`rebuild_index: start processing`) names itself on
      // its commit too: a commit under another such name is another handler's
      const head = (m: string) => /^([A-Za-z_][\w.-]{2,80}): /.exec(m)?.[1] ?? null;
      for (const f of new Set(ours.filter(serverSide).map((e) => e.file))) {
        const from = Math.min(...ours.filter((e) => e.file === f).map((e) => this.position.get(e) ?? Infinity));
        const named = new Set(
          ours
            .filter((e) => e.file === f)
            .map((e) => head(e.message))
            .filter((h) => h !== null),
        );
        // (a server that runs each request on its own thread — a servlet container's `[nio-8080-exec-9]`, named on
        // the call's first and last line alike — logs the handler's lines on that thread: another thread's lines are
        // other requests', and a call on another thread does not end this one)
        const own = ours.filter((e) => e.file === f && typeof e.attrs.thread === 'string');
        const thread = own.length >= 2 && own[0]!.attrs.thread === own.at(-1)!.attrs.thread ? own[0]!.attrs.thread : null;
        for (let i = from + 1; i < this.all.length; i++) {
          const e = this.all[i]!;
          if (e.file !== f) break; // (events come in file order: the file's lines end here)
          if (mineSet.has(e)) continue;
          if (e.ts !== null && e.ts - span.start > ANSWER_LATE_MS) break;
          if (thread !== null && typeof e.attrs.thread === 'string' && e.attrs.thread !== thread) continue;
          if (e.rpcMethod !== null || e.tool !== null || e.rpcId !== null) break; // another call began
          if (named.size > 0 && !named.has(head(e.message) ?? '')) continue;
          if (e.session === null && e.requestId === null && committed(e)) return `${e.file}:${e.line} ${e.message.slice(0, 160)}`;
        }
      }
    }
    return null;
  }

  /**
   * The last time before this span that its client established a connection: a handshake or connected line, a session
   * the server assigned, an initialize answered 2xx — in one of the span's files or the span's session.
   */
  establishedBefore(span: SpanBuild): Point | null {
    const me = this.infoOf.get(span);
    if (!me || span.start === null) return null;
    let best: Event | null = null;
    // (the lines are already those that establish a connection)
    const consider = (e: Event) => {
      if (e.ts === null || e.ts >= span.start! || span.events.includes(e)) return;
      if (best === null || e.ts > best.ts!) best = e;
    };
    this.establishing ??= this.clientish.filter(establishes);
    for (const e of this.establishing) if (me.files.has(e.file)) consider(e);
    if (span.session !== null) {
      let list = this.establishingBySession.get(span.session);
      if (!list) this.establishingBySession.set(span.session, (list = this.sessionEvents(span.session).filter(establishes)));
      for (const e of list) consider(e);
    }
    const b = best as Event | null;
    return b ? { where: `${b.file}:${b.line}`, ts: b.ts, file: b.file, line: b.line } : null;
  }

  /**
   * When the clock cannot say (no times, or the same instant): how many lines above the failure (same file) the session was created or the
   * handshake succeeded, with nothing in between that explains a loss (restart, exit, 5xx, DELETE,
   * eviction). The order of one file stands in for the clock; null past `within` lines.
   */
  establishedLinesBefore(span: SpanBuild, within: number): number | null {
    const t = signalTable();
    // from the failure itself (a span may also hold lines logged before it)
    const failure = span.events.find(isFailureEvent);
    const at = failure ? this.position.get(failure) : undefined;
    if (!failure || at === undefined) return null;
    // the legacy HTTP+SSE transport: a message POST with a session id seen nowhere before it got that id
    // from the endpoint event of an SSE GET — the GET just above that the server answered is its creation
    // (spec 2024-11-05 transports: the server sends the message URL, with the session, on the stream)
    const legacyFresh =
      failure.httpMethod === 'POST' && failure.session !== null && LEGACY_MESSAGE_URL.test(failure.httpPath ?? '') && this.sessionEvents(failure.session)[0] === failure;
    for (let i = at - 1; i >= 0; i--) {
      const e = this.all[i]!;
      if (e.file !== failure.file) continue;
      if (failure.line - e.line > within) return null;
      const causes = e.signals.map((id) => t.meaning(id)?.cause);
      if (causes.some((c) => c !== undefined && LOSS_CAUSES.has(c as SignalCause)) || e.httpMethod === 'DELETE') return null;
      // another call answered on the way: between one call and the next a host waits on the model or the
      // user, so from here line distance says nothing about seconds (D10 fixture untimed-session-lost-after-a-call-answered)
      if (causes.includes('call-succeeded')) return null;
      if (causes.some((c) => c === 'session-created' || c === 'handshake-ok')) return failure.line - e.line;
      if (legacyFresh && e.httpMethod === 'GET' && e.httpStatus !== null && e.httpStatus >= 200 && e.httpStatus < 300 && !LEGACY_MESSAGE_URL.test(e.httpPath ?? ''))
        return failure.line - e.line;
    }
    return null;
  }

  /**
   * A line between two moments that explains a lost session: a process start, exit or shutdown, the
   * upstream unreachable or answering 5xx, a connection refused or reset, a DELETE, an eviction.
   */
  lossExplainedBetween(from: number, to: number, span?: SpanBuild): string | null {
    const t = signalTable();
    const own = new Set(span?.events.map((e) => e.file) ?? []);
    const why = (e: Event): string | null => {
      const c = e.signals.map((id) => t.meaning(id)?.cause).find((x) => x !== undefined && LOSS_CAUSES.has(x as SignalCause));
      return c ? c : e.httpMethod === 'DELETE' ? 'DELETE' : e.httpStatus !== null && e.httpStatus >= 500 ? `HTTP ${e.httpStatus}` : null;
    };
    let late: string | null = null;
    for (const e of this.all) {
      if (e.ts === null || e.ts <= from) continue;
      const w = why(e);
      if (!w) continue;
      if (e.ts < to) return `${e.file}:${e.line} ${w}`;
      // another host's clock may run seconds apart: its line just after the failure may be from before it
      // (the failing client's own lines after the failure are its reaction, not a cause)
      if (late === null && e.ts < to + CLOCK_SLACK_MS && !own.has(e.file)) late = `${e.file}:${e.line} ${w}`;
    }
    return late;
  }

  // (built on first use: each file's events in order, an event's place in its file, the eviction lines)
  private fileEvents: Map<string, Event[]> | null = null;
  private inFile: Map<Event, number> | null = null;
  private evictionLines: Event[] | null = null;

  /**
   * triage-rules.md §4-5 (a closed client object must be re-created): the next failure the same client's log
   * reports after this one — with no answer in between — says its client object is closed or closing
   * (`client is closing`, `Not connected`). The failure broke the client: every later call on it fails
   * until the host re-creates it. Where that line is, or null.
   */
  clientClosedAfter(span: SpanBuild): string | null {
    let last = -1;
    let file: string | null = null;
    for (const e of span.events) {
      if (e.source === 'server' || e.source === 'proxy' || !isFailureEvent(e)) continue;
      const p = this.position.get(e);
      if (p !== undefined && p > last) {
        last = p;
        file = e.file;
      }
    }
    if (file === null) return null;
    const own = new Set(span.events);
    const list = this.eventsOfFile(file);
    const at = this.inFile!.get(this.all[last]!) ?? -1;
    for (let i = at + 1, seen = 0; at >= 0 && i < list.length && seen < 40; i++) {
      const e = list[i]!;
      if (own.has(e)) continue;
      seen++;
      if (e.httpStatus !== null && e.httpStatus >= 200 && e.httpStatus < 300) return null;
      if (!isFailureEvent(e)) continue;
      // (the stack printed right under this record is this failure's own report, not the next call)
      if (isExceptionBlock(e) && e.line - this.all[last]!.endLine <= 2) return null;
      if (failureCauses(e).includes('client-object-closed')) return `${e.file}:${e.line}`;
      // ("Connection closed" for a call issued after this failure is the client refusing it (closedBeforeIssued);
      // for a call that was already waiting when the connection went, it is the same closure cancelling it:
      // python-sdk 3522, "concurrent calls on the same connection are cancelled" — read on)
      if (!failureCauses(e).includes('connection-closed')) return null;
      const other = this.spanInfoOf(e);
      if (other === undefined || other.span.events.some((x) => x.source === 'proxy' || x.source === 'server')) return null;
      const first = this.firstInFile(other.span, file);
      if (first > at) return `${e.file}:${e.line}`;
    }
    return null;
  }

  /**
   * triage-rules.md §4 (python-sdk issue 3522: after one interrupted response "later calls on it fail with
   * `Connection closed`") and §5 step 2 (a closed transport object must be re-created): this call was issued
   * after an earlier exchange of the same client had failed on its connection, then failed with the closed
   * connection's words at once, and no proxy or server line shows it — the client refused it itself, nothing
   * was sent. The line of the earlier failure, or null. A call already waiting when the connection went is
   * not one (it was cancelled by the closure: an interruption), nor one after the client was answered again.
   */
  closedBeforeIssued(span: SpanBuild): string | null {
    if (span.events.some((e) => e.source === 'proxy' || e.source === 'server')) return null;
    const closedLine = span.events.find((e) => e.source !== 'server' && e.source !== 'proxy' && isFailureEvent(e) && failureCauses(e).includes('connection-closed'));
    if (closedLine === undefined) return null;
    const list = this.eventsOfFile(closedLine.file);
    const first = this.firstInFile(span, closedLine.file);
    if (first < 0) return null;
    const own = new Set(span.events);
    // (walk back from the call's first line: the nearest failure of another call, with no answer in between)
    for (let i = first - 1, seen = 0; i >= 0 && seen < 60; i--) {
      const e = list[i]!;
      if (own.has(e)) continue;
      seen++;
      if (e.httpStatus !== null && e.httpStatus >= 200 && e.httpStatus < 300) return null;
      if (!isFailureEvent(e)) continue;
      return failureCauses(e).some((c) => CONNECTION_LOST.has(c)) ? `${e.file}:${e.line}` : null;
    }
    return null;
  }

  /** The file's own events in order (one list per file, built once, so a walk never crosses other files). */
  private eventsOfFile(file: string): Event[] {
    if (!this.fileEvents) {
      this.fileEvents = new Map();
      this.inFile = new Map();
      for (const e of this.all) {
        const l = this.fileEvents.get(e.file) ?? this.fileEvents.set(e.file, []).get(e.file)!;
        this.inFile.set(e, l.length);
        l.push(e);
      }
    }
    return this.fileEvents.get(file) ?? [];
  }

  /** Where the span's first line of this file stands in the file's list (-1: none). */
  private firstInFile(span: SpanBuild, file: string): number {
    this.eventsOfFile(file);
    let first = -1;
    for (const e of span.events) {
      if (e.file !== file) continue;
      const p = this.inFile!.get(e);
      if (p !== undefined && (first < 0 || p < first)) first = p;
    }
    return first;
  }

  private spanOfEvent: Map<Event, SpanInfo> | null = null;
  /** The span an event belongs to (built on first use). */
  private spanInfoOf(e: Event): SpanInfo | undefined {
    if (!this.spanOfEvent) {
      this.spanOfEvent = new Map();
      for (const i of this.info) for (const x of i.span.events) this.spanOfEvent.set(x, i);
    }
    return this.spanOfEvent.get(e);
  }

  /**
   * The idle timeout a server states when it closes an idle session (failure-signatures rows 25, 35): the
   * C# SDK's `IdleTimeout of 00:02:00 exceeded. Closing idle session …`, rmcp's `keep alive timeout after
   * 300000ms`, `IdleTimeout(120s)`, `session expired after 1800 s`. The shortest one logged at or before
   * `to` (or untimed), with where; null when no eviction line states one.
   */
  idleTimeoutStated(to: number | null): { ms: number; at: string } | null {
    const t = signalTable();
    this.evictionLines ??= this.all.filter((e) => e.signals.some((id) => t.meaning(id)?.cause === 'session-evicted'));
    let best: { ms: number; at: string } | null = null;
    for (const e of this.evictionLines) {
      if (to !== null && e.ts !== null && e.ts > to + CLOCK_SLACK_MS) continue;
      const ms = statedIdleMs(e.text);
      if (ms !== null && ms > 0 && (best === null || ms < best.ms)) best = { ms, at: `${e.file}:${e.line}` };
    }
    return best;
  }

  /**
   * failure-signatures D18 ("same session failing on alternate calls"): after this request — or an
   * earlier one of the same session refused with the same status — was refused for an unknown session,
   * the same session id got a 2xx answer (not to its DELETE). Something still holds the session the
   * server "did not know": another replica or worker answered. A restart, an eviction or an idle timeout
   * forgets a session for good; none of them is followed by its success.
   */
  sessionAcceptedAfter(span: SpanBuild, status: number | null): string | null {
    if (span.session === null) return null;
    const evs = this.sessionEvents(span.session);
    const own = new Set(span.events);
    // the refusals: this request's own failing lines, and lines of the session refused the same way
    // (a handful: the evidence is the first success after any of them)
    const refusals = evs.filter((e) => (own.has(e) ? e.httpStatus !== null && e.httpStatus >= 400 : status !== null && e.httpStatus === status)).slice(0, 16);
    // an access log writes a GET stream's 200 when the stream ends: it may have been opened long before
    // (once per session: several failing requests of one session ask the same)
    let served = this.servedBySession.get(span.session);
    if (!served)
      this.servedBySession.set(
        span.session,
        (served = evs.filter((e) => e.httpStatus !== null && e.httpStatus >= 200 && e.httpStatus < 300 && e.httpMethod !== 'DELETE' && e.httpMethod !== 'GET')),
      );
    for (const r of refusals) {
      // after it: later in the same log, or in another log later by more than two clocks may disagree
      // (the lines of several files are not in time order here)
      const ok = served.find((e) => (e.file === r.file ? e.line > r.endLine : r.ts !== null && e.ts !== null && e.ts > r.ts + CLOCK_SLACK_MS));
      if (ok) return `${ok.file}:${ok.line}`;
    }
    return null;
  }

  /**
   * Row 93 in one client's own log, when its lines name no session id: this refusal of the session, then a
   * call of the same log answered, then the session refused again — with no handshake, new session or
   * connect between them, and the log naming at most one session (several conversations share some hosts'
   * logs). A lost session stays lost, and a silent reconnect would not be refused again at once: the
   * session lives on some of the backends and not on others. Where the answer in between is, or null.
   */
  servedBetweenRefusals(span: SpanBuild): string | null {
    const t = signalTable();
    const refusal = (e: Event) =>
      e.signals.some((id) => {
        const c = t.meaning(id)?.cause;
        return c === 'session-unknown' || c === 'session-invalid' || c === 'session-terminated-client';
      });
    const first = span.events.find((e) => (e.source === 'client' || e.source === 'unknown') && refusal(e));
    if (!first) return null;
    const lines = this.all.filter((e) => e.file === first.file);
    if (new Set(lines.map((e) => e.session).filter((x) => x !== null)).size > 1) return null;
    // (the server this client was talking to: the span's, else the last one its log named before the refusal)
    const mine = this.infoOf.get(span)?.target ?? this.targetBefore(first);
    let answered: Event | null = null;
    for (const e of lines) {
      if (e.line <= first.endLine) continue;
      if (establishes(e)) return null;
      if (answered === null) {
        const ok =
          !isFailureEvent(e) &&
          ((e.httpStatus !== null && e.httpStatus >= 200 && e.httpStatus < 300 && e.httpMethod !== 'GET' && e.httpMethod !== 'DELETE') ||
            e.signals.some((id) => t.meaning(id)?.outcome === 'completion') ||
            // (a client's line about a call's answer that reports nothing wrong: `resources/read returned 2 contents`)
            (e.attrs.direction === 'response' && (e.rpcMethod !== null || e.tool !== null)));
        // (an answer from another host — the app's model provider between two tool calls — is not this server serving)
        if (ok && (mine === null || (this.targetBefore(e) ?? mine) === mine)) answered = e;
      } else if (refusal(e)) return `${answered.file}:${answered.line}`;
    }
    return null;
  }

  /**
   * A count summary a host or probe printed (`3/5 OK`, `7 ok / 5 failed`, `200: 7  400: 13`, enrich.ts
   * attrs.tallyOk/tallyFailed) that speaks for this failure: on its own lines first, else in one of its
   * files, about no other call (a summary naming another tool or method counts those). `mixed`: where one
   * counts the same requests both passing and failing — intermittent (row 93, D1's "transient");
   * `failedOnly`: its own line counts failures and no success — how many (every attempt failed).
   */
  tallyFor(span: SpanBuild, key: string | null): { mixed: string | null; failedOnly: number; at: Event | null } {
    const count = (e: Event) => (typeof e.attrs.tallyOk === 'number' && typeof e.attrs.tallyFailed === 'number' ? { ok: e.attrs.tallyOk, failed: e.attrs.tallyFailed } : null);
    const mixedAt = (e: Event) => {
      const t = count(e);
      return t !== null && t.ok >= 1 && t.failed >= 1 ? `${e.file}:${e.line} (${t.ok} passed, ${t.failed} failed)` : null;
    };
    let failedOnly = 0;
    for (const e of span.events) {
      const m = mixedAt(e);
      if (m) return { mixed: m, failedOnly: 0, at: e };
      const t = count(e);
      if (t && t.ok === 0) failedOnly = Math.max(failedOnly, t.failed);
    }
    if (failedOnly > 0) return { mixed: null, failedOnly, at: null };
    const files = new Set(span.events.map((e) => e.file));
    for (const e of this.tallyLines()) {
      if (!files.has(e.file)) continue;
      const other = callKey(e.rpcMethod ?? (e.tool !== null ? 'tools/call' : null), e.tool);
      if (other !== null && key !== null && other !== key) continue;
      const m = mixedAt(e);
      if (m) return { mixed: m, failedOnly: 0, at: e };
    }
    return { mixed: null, failedOnly: 0, at: null };
  }
  private tallyLines(): Event[] {
    return (this.tallied ??= this.all.filter((e) => typeof e.attrs.tallyFailed === 'number'));
  }
  private tallied: Event[] | null = null;

  /**
   * A session first seen after `from` (so issued after the failure) that then got at least three 2xx
   * answers in one log and no 4xx/5xx: the deployment keeps the sessions it issues, so a session lost
   * soon after its handshake before it was a one-off (an unlogged restart or eviction), not replicas
   * without affinity — those lose the new session the same way (row 25: "repeated on every call").
   */
  laterSessionKept(from: number, lost: string | null): string | null {
    // What the scan of every line in order (laterSessionKeptByScan, the definition) finds, from each
    // session's lines alone: a session counts the lines it logged (in order) before its first line at
    // or before `from` (or without a time), and the sessions are tried in the order of their first 2xx.
    this.keptIndex ??= [...this.bySession].map(([session, evs]) => keptSession(session, evs, this.position));
    let best: KeptSession | null = null;
    let bestK = 0;
    for (const k of this.keptIndex) {
      if (k.session === lost || k.third === Infinity || (best !== null && k.firstOkAt >= best.firstOkAt)) continue;
      const counted = k.countedBefore(from);
      if (k.third < counted && k.firstFail >= counted) {
        best = k;
        bestK = counted;
      }
    }
    if (best === null) return null;
    const byFile = new Map<string, Event[]>();
    for (let i = 0; i < bestK; i++) {
      const e = best.evs[i]!;
      if (e.httpStatus !== null && e.httpStatus >= 200 && e.httpStatus < 300) (byFile.get(e.file) ?? byFile.set(e.file, []).get(e.file)!).push(e);
    }
    for (const [file, list] of byFile) if (list.length >= 3) return `${file}:${list[0]!.line}-${list[list.length - 1]!.line}`;
    return null;
  }

  /**
   * A server line showing it received this call although correlation did not join it: the same tool (or
   * the same JSON-RPC id in the same session) logged by the server in the two minutes before the failure
   * (without times: the tool's only call in the incident).
   */
  serverReceived(span: SpanBuild): string | null {
    const end = span.end ?? span.start;
    if (span.tool === null && span.rpcId === null) return null;
    // a client log without times (a console transcript): the tool's only call in the incident
    if (end === null && (span.tool === null || this.info.filter((i) => i.span.tool === span.tool && i.span.events.some((e) => e.source !== 'server')).length > 1)) return null;
    const rpc = span.rpcId === null ? null : JSON.stringify(span.rpcId);
    const inWindow = (e: Event) => end === null || !(e.ts === null || e.ts > end + CLOCK_SLACK_MS || e.ts < end - RECOVERY_WINDOW_MS);
    // The first server line (in order) of the same tool, or of the same session and JSON-RPC id: the
    // first of each kind, from the server's lines by tool and the session's lines, whichever comes first.
    let first: Event | null = null;
    if (span.tool !== null) {
      if (!this.serverByTool) {
        this.serverByTool = new Map();
        for (const e of this.serverLines) if (e.tool !== null) (this.serverByTool.get(e.tool) ?? this.serverByTool.set(e.tool, []).get(e.tool)!).push(e);
      }
      first = this.serverByTool.get(span.tool)?.find(inWindow) ?? null;
    }
    if (rpc !== null && span.session !== null) {
      const before = first === null ? Infinity : this.position.get(first)!;
      for (const e of this.sessionEvents(span.session)) {
        if (this.position.get(e)! >= before) break;
        if (e.source === 'server' && inWindow(e) && JSON.stringify(e.rpcId) === rpc) {
          first = e;
          break;
        }
      }
    }
    return first === null ? null : `${first.file}:${first.line}`;
  }

  /**
   * The server restarted (a process start or shutdown line) after the last 2xx on this path and before
   * this span: whatever state the earlier exchanges built (a session) is gone.
   */
  restartSinceWorked(span: SpanBuild, path: string): boolean {
    const w = this.lastWorkedBefore(span, path);
    return w !== null && this.restartedBetween(w.worked, w.first);
  }

  /**
   * The last complete 2xx on this path before this span, when no process start or shutdown lies between
   * them: the process that fails now is the one that served it (where, or null).
   */
  workedEarlierSameProcess(span: SpanBuild, path: string): string | null {
    const w = this.lastWorkedBefore(span, path);
    return w === null || this.restartedBetween(w.worked, w.first) ? null : `${w.worked.file}:${w.worked.line}`;
  }

  /**
   * The last complete 2xx to the same HTTP method on this path before this span (where), else null: the
   * endpoint routes that request, whatever the failure says about the route.
   */
  sameRequestWorkedBefore(span: SpanBuild, path: string, httpMethod: string): string | null {
    const w = this.lastWorkedBefore(span, path, httpMethod);
    return w === null ? null : `${w.worked.file}:${w.worked.line}`;
  }

  /**
   * A line beside this span's answer says the method is unknown (JSON-RPC -32601, `Method not found`): within
   * three lines of it in its own file, or within a second in another file. A client logs the status line and
   * then the error it read from the body; a server its handler's answer and then the access line.
   */
  methodNotFoundBeside(span: SpanBuild): boolean {
    const t = signalTable();
    const info = this.infoOf.get(span);
    if (!info) return false;
    return this.all.some((e) => {
      if (span.events.includes(e) || !e.signals.some((id) => t.meaning(id)?.cause === 'method-not-found')) return false;
      const first = info.firstLine.get(e.file);
      const last = info.lastLine.get(e.file);
      if (first !== undefined && last !== undefined) return e.line >= first - 3 && e.line <= last + 3;
      return e.ts !== null && span.start !== null && Math.abs(e.ts - span.start) <= 1000;
    });
  }

  /** The span's first line in incident order and the last 2xx answer on this path (to this HTTP method, when given) above it. */
  private lastWorkedBefore(span: SpanBuild, path: string, httpMethod: string | null = null): { worked: Event; first: Event } | null {
    let first = Infinity;
    let firstEvent: Event | null = null;
    for (const e of span.events) {
      const p = this.position.get(e);
      if (p !== undefined && p < first) {
        first = p;
        firstEvent = e;
      }
    }
    if (!firstEvent) return null;
    for (let i = first - 1; i >= 0; i--) {
      const e = this.all[i]!;
      if (e.httpPath === path && e.httpStatus !== null && e.httpStatus >= 200 && e.httpStatus < 300 && (httpMethod === null || e.httpMethod === httpMethod))
        return { worked: e, first: firstEvent };
    }
    return null;
  }

  /** A start or shutdown between two lines: by time when both are timed (whichever file logged it), else by position. */
  private restartedBetween(worked: Event, firstEvent: Event): boolean {
    // both timed: a start or shutdown between the two times, whichever file logged it (the lines are in file
    // order, so a server log read after the client's is never between them by position)
    if (worked.ts !== null && firstEvent.ts !== null && this.restartedWithin(Math.min(worked.ts, firstEvent.ts), Math.max(worked.ts, firstEvent.ts))) return true;
    return this.restartBetween(worked, firstEvent);
  }

  /**
   * Some line of the incident names why a connection could not be made — refused, a DNS answer or failure, a
   * connect timeout, TLS, a proxy's upstream connect error — so a bare `fetch failed` beside it is that cause,
   * not a hidden one (failure-signatures row 41: undici's `fetch failed` means what its `cause` says).
   */
  connectCauseNamed(): boolean {
    if (this.connectCause === null) {
      const t = signalTable();
      this.connectCause = this.all.some((e) => e.signals.some((id) => NAMED_CONNECT_CAUSES.has(t.meaning(id)?.cause ?? '')));
    }
    return this.connectCause;
  }
  private connectCause: boolean | null = null;

  /**
   * Some line of the incident shows a server (or a proxy before it) answering: an HTTP status, an initialize
   * answered or a session assigned, a call that completed, or a response or stream that was cut after it had
   * started (its headers had come). A host's own "connected" state line is not one.
   */
  anyAnswer(): boolean {
    if (this.answered === null) {
      const t = signalTable();
      const past = new Set(['mid_body', 'between_sse_events', 'after_response', 'http_status']);
      this.answered =
        this.handshake ||
        this.endpointWorked ||
        this.all.some(
          (e) =>
            e.httpStatus !== null ||
            e.signals.some((id) => {
              const m = t.meaning(id);
              return m !== null && (m.outcome === 'completion' || m.cause === 'call-succeeded' || (m.stage !== undefined && past.has(m.stage)));
            }),
        );
    }
    return this.answered;
  }
  private answered: boolean | null = null;

  /**
   * How many times a session was refused as unknown within QUICK_LOSS_MS of being created (same file): once
   * can be a restart that was not logged; again and again is sessions that one process keeps and another
   * answers (D18).
   */
  quickSessionLosses(): number {
    if (this.quickLosses !== null) return this.quickLosses;
    const t = signalTable();
    const born = new Map<string, number>();
    let n = 0;
    const lastLoss = new Map<string, number>();
    for (const e of this.all) {
      if (e.ts === null) continue;
      if (establishes(e)) {
        born.set(e.file, e.ts);
        continue;
      }
      const lost = e.signals.some((id) => {
        const c = t.meaning(id)?.cause;
        return c === 'session-unknown' || c === 'session-terminated-client';
      });
      const b = born.get(e.file);
      if (!lost || b === undefined || e.ts - b > QUICK_LOSS_MS) continue;
      // one loss per session (its status line and the client's error are one refusal)
      if (lastLoss.get(e.file) === b) continue;
      lastLoss.set(e.file, b);
      n++;
    }
    this.quickLosses = n;
    return n;
  }
  private quickLosses: number | null = null;

  /**
   * Where a client log (one of this span's files) recorded receiving a session id before the span's
   * first line there (`Received session ID: …`): the client had a session, though this span's own
   * lines do not name it.
   */
  sessionCreatedEarlierIn(span: SpanBuild): string | null {
    const t = signalTable();
    const first = span.events.find((e) => e.source === 'client');
    const at = first ? this.position.get(first) : undefined;
    if (!first || at === undefined) return null;
    for (let i = at - 1; i >= 0; i--) {
      const e = this.all[i]!;
      if (e.file === first.file && e.signals.some((id) => t.meaning(id)?.cause === 'session-created')) return `${e.file}:${e.line}`;
    }
    return null;
  }

  /**
   * Worker processes of one server log that ran side by side: a burst of start lines with different
   * pids (uvicorn --workers: `Started server process [pid]` per worker; gunicorn `Booting worker with
   * pid: N`) with no request and no shutdown between them. A restart is a start after traffic or a
   * shutdown, so it never counts. Each worker keeps its own sessions in memory (row 37, D18).
   */
  concurrentWorkers(file: string): string[] {
    let known = this.workersOf.get(file);
    if (!known) this.workersOf.set(file, (known = this.workersIn(file)));
    return [...known];
  }
  /**
   * A line saying the server runs several worker processes side by side where no burst of per-worker start
   * lines shows them: uvicorn's multiprocess supervisor starting (`Started parent process [pid]`, only with
   * --workers ≥ 2), a command line or setting with a worker count ≥ 2, PM2 cluster mode (signal
   * server-workers-several). Each worker keeps its own sessions in memory (row 37, D18). Null when a server
   * log shows a restart after it served traffic.
   */
  workersStated(): Point | null {
    if (this.statedWorkers === undefined) {
      const t = signalTable();
      let stated: Event | null = null;
      // (a server that started or stopped after it had served traffic restarted: that loses every session too,
      // and untimed logs cannot place it against the refusal — then the workers explain nothing for sure)
      let restarted = false;
      const served = new Set<string>();
      for (const e of this.all) {
        const causes = e.signals.map((id) => t.meaning(id)?.cause);
        if (causes.includes('workers-several')) stated ??= e;
        if (e.source !== 'server' && e.source !== 'unknown') continue;
        if ((causes.includes('process-started') || causes.includes('shutdown')) && served.has(e.file)) restarted = true;
        if (e.httpStatus !== null || e.httpMethod !== null) served.add(e.file);
      }
      this.statedWorkers = stated && !restarted ? { where: `${stated.file}:${stated.line}`, ts: stated.ts, file: stated.file, line: stated.line } : null;
    }
    return this.statedWorkers;
  }
  private statedWorkers: Point | null | undefined = undefined;
  private workersIn(file: string): string[] {
    const t = signalTable();
    let burst = new Set<string>();
    let most: string[] = [];
    for (const e of this.all) {
      if (e.file !== file) continue;
      const causes = e.signals.map((id) => t.meaning(id)?.cause);
      if (causes.includes('process-started')) {
        const pid =
          replicaOf(e).pid ??
          WORKER_PID.exec(e.message)
            ?.slice(1)
            .find((x) => x !== undefined) ??
          null;
        if (pid === null) continue;
        burst.add(pid);
        if (burst.size > most.length) most = [...burst];
      } else if (causes.includes('shutdown') || e.httpStatus !== null || e.httpMethod !== null) burst = new Set();
    }
    return most.length >= 2 ? most : [];
  }

  /**
   * Served-side rejections (400, 401, 404) that one named replica gave while another named replica
   * answered the same path 2xx moments before or after (≤ 10 s, or ≤ 12 lines of one untimed file with
   * no restart between), and that the rejecting replica never answered 2xx: the replicas disagree about
   * the same traffic at the same time (failure-signatures D18, rows 52, 93). Whether per-replica
   * sessions or a replica configured differently, the deployment is at fault — and it is proven even
   * when the access lines carry no session id. Maps each such rejection to the two replicas.
   */
  replicaRejection(e: Event): [string, string] | null {
    if (!this.disagreeing) this.disagreeing = this.findDisagreeing();
    return this.disagreeing.get(e) ?? null;
  }
  /** The disagreeing rejections with this status (and path, when both name one): for a client line of the same answer. */
  replicaRejectionLike(status: number, path: string | null): [string, string] | null {
    if (!this.disagreeing) this.disagreeing = this.findDisagreeing();
    for (const [r, pair] of this.disagreeing) if (r.httpStatus === status && (path === null || stripQuery(r.httpPath!) === path)) return pair;
    return null;
  }
  private disagreeing: Map<Event, [string, string]> | null = null;
  /**
   * Server files that each logged their process starting and never stopping, when there are two or more:
   * one log per replica (kubectl logs per pod), all up through the incident.
   */
  private filesUpThroughout(): Set<string> {
    const t = signalTable();
    const started = new Set<string>();
    const stopped = new Set<string>();
    const served = new Set<string>();
    for (const e of this.serverLines) {
      for (const id of e.signals) {
        const c = t.meaning(id)?.cause;
        // (start lines after the file served traffic are a restart; the start-up lines' burst is one start)
        if (c === 'process-started') (served.has(e.file) ? stopped : started).add(e.file);
        else if (c === 'shutdown') stopped.add(e.file);
      }
      if (e.httpStatus !== null) served.add(e.file);
    }
    const up = new Set([...started].filter((f) => !stopped.has(f)));
    return up.size >= 2 ? up : new Set();
  }
  private findDisagreeing(): Map<Event, [string, string]> {
    const out = new Map<Event, [string, string]>();
    // a replica named by its line (host, pod, origin) — or, when the server's logs are one file per
    // process and each file logged its own start and no stop, by its file: both were up throughout
    const upFiles = this.filesUpThroughout();
    // a proxy's access line names the upstream address that answered (nginx $upstream_addr, Envoy's upstream_host)
    const who = (e: Event): string | null => {
      const r = replicaOf(e);
      if (e.source === 'proxy') return r.upstream === null ? null : `upstream ${r.upstream}`;
      return r.host ?? (upFiles.has(e.file) ? e.file : null);
    };
    const whoOf = new Map<Event, string>();
    const served: Event[] = [];
    for (const e of this.all) {
      if (e.httpStatus === null || e.httpPath === null || !(servedSide(e) || e.source === 'proxy')) continue;
      const w = who(e);
      if (w === null) continue;
      served.push(e);
      whoOf.set(e, w);
    }
    // Each path's 2xx lines, in order, as columns: a rejection below looks for the first of them that
    // another replica answered at the same time, and on a busy path that search visits thousands
    // (the 64 MiB bench corpus: ~0.5 s as objects, each replica name made again per visit).
    const ids = new Map<string, number>(); // replica names and files → small numbers
    const idOf = (s: string) => ids.get(s) ?? (ids.set(s, ids.size), ids.size - 1);
    const okBy = new Map<string, OkLines>();
    const okHosts = new Map<string, Set<string>>();
    for (const e of served) {
      if (e.httpStatus! < 200 || e.httpStatus! >= 300) continue;
      const p = stripQuery(e.httpPath!);
      let ok = okBy.get(p);
      if (!ok) okBy.set(p, (ok = { events: [], who: [], file: [], up: [], ts: [], line: [] }));
      ok.events.push(e);
      ok.who.push(idOf(whoOf.get(e)!));
      ok.file.push(idOf(e.file));
      ok.up.push(upFiles.has(e.file));
      ok.ts.push(e.ts);
      ok.line.push(e.line);
      (okHosts.get(p) ?? okHosts.set(p, new Set()).get(p)!).add(whoOf.get(e)!);
    }
    for (const r of served) {
      if (r.httpStatus !== 400 && r.httpStatus !== 401 && r.httpStatus !== 404) continue;
      const p = stripQuery(r.httpPath!);
      const b = whoOf.get(r)!;
      if (okHosts.get(p)?.has(b)) continue;
      const ok = okBy.get(p);
      if (!ok) continue;
      // (b never answered this path 2xx, so its id may be new: then no line is its)
      const bId = ids.get(b) ?? -1;
      const rFile = idOf(r.file);
      const rUp = upFiles.has(r.file);
      const rTs = r.ts;
      let found = -1;
      for (let k = 0; k < ok.events.length; k++) {
        if (ok.who[k] === bId) continue;
        // (two per-replica files that each started and never stopped were both up, whatever their
        // stamps say: an access line without a time of its own carries the start line's)
        if (ok.file[k] !== rFile && rUp && ok.up[k]) {
          found = k;
          break;
        }
        const ts = ok.ts[k]!;
        if (ts !== null && rTs !== null) {
          if (Math.abs(ts - rTs) <= BOTH_UP_MS) {
            found = k;
            break;
          }
          continue;
        }
        if (ok.file[k] !== rFile) continue;
        if (Math.abs(ok.line[k]! - r.line) <= BOTH_UP_LINES && !this.restartBetween(ok.events[k]!, r)) {
          found = k;
          break;
        }
      }
      if (found >= 0) out.set(r, [whoOf.get(ok.events[found]!)!, b]);
    }
    return out;
  }

  /**
   * Server starts and shutdowns, whichever file logged them. A gateway that holds the sessions
   * (supergateway, mcp-proxy) is detected as a proxy: its start counts too; a log of unknown side that
   * names no target it called is not a client's.
   */
  private lifecycleTimes(): { times: number[]; lastStart: number; starts: number[]; stops: number[] } {
    if (this.lifecycle) return this.lifecycle;
    const t = signalTable();
    const serverish = (e: Event) => e.source === 'server' || (e.source === 'unknown' && !this.targets.has(e.file));
    const times: number[] = [];
    const starts: number[] = [];
    const stops: number[] = [];
    let lastStart = -Infinity;
    for (const e of this.all) {
      if (e.ts === null || !(serverish(e) || e.source === 'proxy')) continue;
      for (const id of e.signals) {
        const c = t.meaning(id)?.cause;
        if (c === 'process-started') {
          lastStart = Math.max(lastStart, e.ts);
          starts.push(e.ts);
        }
        if (serverish(e) && (c === 'shutdown' || c === 'server-exited' || c === 'server-crashed')) stops.push(e.ts);
        if (c === 'process-started' || (c === 'shutdown' && serverish(e))) {
          times.push(e.ts);
          break;
        }
      }
    }
    return (this.lifecycle = { times: times.sort((x, y) => x - y), lastStart, starts, stops });
  }

  /**
   * The server logged that it stopped (a shutdown, an exit, a crash) before `ts` and no start since: it was
   * down at `ts` (failure-signatures row 66, "backend down"), whatever the address. A quarter second of slack
   * for two clocks.
   */
  stoppedBefore(ts: number): boolean {
    const { starts, stops } = this.lifecycleTimes();
    return stops.some((s) => s <= ts + 250 && !starts.some((x) => x > s && x <= ts));
  }

  /** A server (or gateway) logged that it started after this time: it came up (again) later. */
  startedAfter(ts: number): boolean {
    return this.lifecycleTimes().lastStart > ts;
  }

  /** A server (or a session-holding gateway) started or shut down strictly between two times. */
  restartedWithin(from: number, to: number): boolean {
    const rt = this.lifecycleTimes().times;
    let lo = 0;
    let hi = rt.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (rt[mid]! <= from) lo = mid + 1;
      else hi = mid;
    }
    return lo < rt.length && rt[lo]! < to;
  }

  /** A server start or shutdown logged between two lines' times (any file): lines of two logs, ordered by their clocks. */
  restartWithin(a: Event, b: Event): boolean {
    if (a.ts === null || b.ts === null) return this.restartBetween(a, b);
    const lo = Math.min(a.ts, b.ts);
    const hi = Math.max(a.ts, b.ts);
    return this.serverLines.some((e) => e.ts !== null && e.ts > lo && e.ts < hi && isRestartLine(e));
  }

  /** A process start or shutdown line between two server lines of the same file: a restart, not a second replica. */
  restartBetween(a: Event, b: Event): boolean {
    const lo = Math.min(this.position.get(a) ?? 0, this.position.get(b) ?? 0);
    const hi = Math.max(this.position.get(a) ?? 0, this.position.get(b) ?? 0);
    for (let i = lo + 1; i < hi; i++) {
      const e = this.all[i]!;
      if (e.source === 'server' && isRestartLine(e)) return true;
    }
    return false;
  }

  /** What the client logged after this span (for known-defect follow-ups such as "Connection closed"). */
  laterClientMessages(span: SpanBuild): string {
    const me = this.infoOf.get(span);
    const out: string[] = [];
    for (const e of this.clientish) {
      if (span.end !== null && e.ts !== null) {
        if (e.ts <= span.end) continue;
      } else {
        const last = me?.lastLine.get(e.file);
        if (last === undefined || e.line <= last) continue;
      }
      if (span.events.includes(e)) continue;
      out.push(e.message);
      if (out.length > 200) break;
    }
    return out.join('\n');
  }
}

/** One session's lines as laterSessionKept reads them. */
interface KeptSession {
  session: string;
  evs: readonly Event[];
  /** Index of its first line answered 4xx/5xx, of the line that makes some file's third 2xx (Infinity: none). */
  firstFail: number;
  third: number;
  /** Position in the incident of its first 2xx line. */
  firstOkAt: number;
  /** How many of its first lines come before one logged at or before `from`, or without a time. */
  countedBefore(from: number): number;
}

function keptSession(session: string, evs: readonly Event[], position: ReadonlyMap<Event, number>): KeptSession {
  // lowest[i]: the earliest time among lines 0..i (-Infinity once one has no time): non-increasing
  const lowest = new Float64Array(evs.length);
  let low = Infinity;
  let firstFail = Infinity;
  let third = Infinity;
  let firstOkAt = Infinity;
  const oks = new Map<string, number>();
  evs.forEach((e, i) => {
    if (e.ts === null) low = -Infinity;
    else if (e.ts < low) low = e.ts;
    lowest[i] = low;
    if (e.httpStatus === null) return;
    if (e.httpStatus >= 400) firstFail = Math.min(firstFail, i);
    else if (e.httpStatus >= 200 && e.httpStatus < 300) {
      if (firstOkAt === Infinity) firstOkAt = position.get(e)!;
      const n = (oks.get(e.file) ?? 0) + 1;
      oks.set(e.file, n);
      if (n === 3) third = Math.min(third, i);
    }
  });
  return {
    session,
    evs,
    firstFail,
    third,
    firstOkAt,
    countedBefore(from) {
      let lo = 0;
      let hi = evs.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (lowest[mid]! <= from) hi = mid;
        else lo = mid + 1;
      }
      return lo;
    },
  };
}

/** A line saying a connection was established: an initialize answered 2xx, a handshake, an assigned session, "connected". */
function establishes(e: Event): boolean {
  const t = signalTable();
  return (
    (e.rpcMethod === 'initialize' && e.httpStatus !== null && e.httpStatus < 300) ||
    e.signals.some((id) => {
      const c = t.meaning(id)?.cause;
      return c === 'handshake-ok' || c === 'session-created' || c === 'connected';
    })
  );
}

function signalCauseIsFailure(c: SignalCause): boolean {
  return signalTable().signals.some((s) => s.spec.meaning.cause === c && s.spec.meaning.outcome === 'failure');
}

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  sec: 1000,
  secs: 1000,
  second: 1000,
  seconds: 1000,
  m: 60_000,
  min: 60_000,
  mins: 60_000,
  minute: 60_000,
  minutes: 60_000,
};

/** The idle timeout an eviction line states, in ms (see IncidentIndex.idleTimeoutStated), or null. */
export function statedIdleMs(text: string): number | null {
  // C# TimeSpan: [d.]hh:mm:ss[.fffffff]
  const ts = /IdleTimeout of (?:(\d{1,4})\.)?(\d{1,2}):(\d{2}):(\d{2})(?:\.\d+)? exceeded/.exec(text);
  if (ts) return (((Number(ts[1] ?? 0) * 24 + Number(ts[2])) * 60 + Number(ts[3])) * 60 + Number(ts[4])) * 1000;
  const ka = /keep[ -]?alive timeout after (\d{1,12}) ?ms/i.exec(text);
  if (ka) return Number(ka[1]);
  const it = /idle ?timeout ?\((\d{1,9}(?:\.\d+)?) ?(ms|s)?\)/i.exec(text);
  if (it) return Number(it[1]) * (it[2] === 'ms' ? 1 : 1000);
  const after = /(?:idle timeout|expired|timed out) after (\d{1,9}(?:\.\d+)?) ?(ms|s|secs?|seconds?|m|mins?|minutes?)\b/i.exec(text);
  if (after) return Number(after[1]) * UNIT_MS[after[2]!.toLowerCase()]!;
  return null;
}
