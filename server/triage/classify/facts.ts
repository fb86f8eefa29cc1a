// Facts about one failing request, derived from its correlated span, the signals its lines
// carried (parsers/signals) and the rest of the incident. Rules read only these: facts are
// true, false or unknown (null), each read from the line that actually describes it, and an
// unknown never counts as false.
import { statedTimeoutMs } from './stated-timeout.ts';
import { SPEC_METHODS } from './spec-methods.ts';
import type { Event, RpcId, Source } from '../../../parsers/contract/event.ts';
import type { SignalCause } from '../../../parsers/contract/signal.ts';
import { levelFromWording } from '../../../parsers/engine/level-wording.ts';
import { signalTable } from '../../../parsers/engine/signals.ts';
import type { Evidence, Stage } from '../../contract/analysis.ts';
import { chooseRoot, inferStage, matchKnownDefects, parseExceptionText } from '../exceptions/index.ts';
import type { SpanBuild } from '../correlate/spans.ts';
import { stripQuery } from '../correlate/path.ts';
import { endpointMisresolutions } from './endpoint-resolution.ts';
import { classifyTool, type ToolClass, type ToolPolicy } from './policy.ts';
import type { IncidentIndex, Point } from './incident.ts';

/** Known, known not, or unknown. */
export type Tri = boolean | null;
export type BodyKind = 'html' | 'jsonrpc-error' | 'empty' | 'text' | 'unknown';
/** How a request was interrupted, when it was (stages C/H/B/E of failure-signatures (c)). */
export type Interruption =
  | 'connect'
  | 'closed-before-headers'
  | 'proxy-timeout-before-headers'
  | 'bad-gateway'
  | 'stream-cut'
  | 'client-timeout'
  | 'connection-closed'
  | 'client-gave-up'
  /** the client process shut down with the call still waiting for its answer (no error logged) */
  | 'stopped-while-waiting'
  /** the client's log ends with the call still waiting for its answer, and nothing else failed */
  | 'log-ended-waiting'
  /** a task-augmented call whose task the server no longer had when the client polled for it (expired or unknown): its result was never delivered */
  | 'task-lost'
  /** the caller (a user, the host) cancelled the call on purpose, with no timeout of its own behind it */
  | 'caller-cancelled'
  | null;
export type Era = 'legacy-sse' | 'session' | 'sessionless' | 'unknown';

export interface Facts {
  rpcId: RpcId | null;
  method: string | null;
  tool: string | null;
  session: string | null;
  httpStatus: number | null;
  /** The status the request got: the failing one, else the 2xx/3xx it was answered with (the report shows it). */
  answerStatus: number | null;
  /** HTTP method of the failing exchange (GET = the standalone SSE stream in Streamable HTTP, the connection in legacy SSE). */
  httpMethod: string | null;
  httpPath: string | null;
  /** The exchange is a step of the OAuth flow (authorize, token, register, callback), not MCP traffic. */
  authFlowPath: boolean;
  /** The URL the client aimed at, when a line names it. */
  target: { scheme: string | null; host: string; port: number | null } | null;
  /** The target is this machine (localhost, 127.0.0.1, ::1). */
  localTarget: Tri;
  /** The request went through a forward HTTP(S) proxy (the span's lines, or an earlier line of its file, show one). */
  viaForwardProxy: Tri;
  /** The target is one a forward proxy cannot or should not reach (this machine, a private or link-local address, a .local/.internal/docker host); null when no line names it. */
  proxyBypassExpected: Tri;
  stage: Stage;
  stageEvidence: string | null;
  rootException: { type: string; message: string } | null;
  exceptionChain: string[];
  protocolVersion: string | null;
  era: Era;
  /** Ids of the signals on the request's lines (parsers/signals; `http-NNN`). */
  signals: string[];
  /** Their causes, for rules that ask what kind of thing happened. */
  causes: SignalCause[];
  sources: Source[];
  seenBy: { client: boolean; proxy: boolean; server: boolean };
  /** The request is identified: its JSON-RPC method, id or tool is known. */
  identified: boolean;
  /** The failing request carried a session id (read from a line describing the request, never the response). */
  sessionSent: Tri;
  /** That session id had been assigned by the server before the failure. */
  sessionAssignedEarlier: Tri;
  /** The server did not know the session it got (restart, eviction, other replica, DELETE). */
  sessionUnknown: Tri;
  /** Milliseconds from the client's last handshake (or assigned session) to this failure, when both are timed. */
  sessionAgeMs: number | null;
  /** What logged between that handshake and the failure explains a lost session (restart, 5xx, DELETE, eviction); null: nothing does. */
  sessionLossExplained: string | null;
  /** A log without times: lines from the session's creation (or handshake) to this failure in one file, nothing in between explaining a loss nor another call answered. */
  sessionAgeLines: number | null;
  /** A session issued after this failure then served three or more requests without loss (where): the server keeps sessions. */
  laterSessionKept: string | null;
  /**
   * Asked for a session the server did not know: the idle timeout the server stated when it closed idle
   * sessions (rows 25, 35: C# `IdleTimeout of 00:02:00 exceeded`, rmcp `keep alive timeout after Nms`), the
   * shortest logged up to this failure, in ms, with where; null when no eviction line states one.
   */
  idleTimeoutMs: number | null;
  idleTimeoutAt: string | null;
  /**
   * The same client's next failure after this one (no answer between) reports its client object closed
   * (`client is closing`): this failure broke the client object (where that line is), or null.
   */
  clientClosedAfter: string | null;
  /**
   * triage-rules.md §4 (python-sdk 3522): this call was issued after the same client's connection had failed under
   * an earlier call, failed with "Connection closed" at once, and reached no proxy or server — the client refused
   * it itself (that earlier failure's line), or null.
   */
  closedBeforeIssued: string | null;
  /** D18: the same session id answered 2xx after this refusal for an unknown session (where): another holder still has it. */
  sessionAcceptedAfter: string | null;
  /** The same path got a complete 2xx answer somewhere in the incident. */
  pathWorked: Tri;
  /** Any exchange with the MCP endpoint succeeded anywhere in the incident (a 2xx, a handshake, a session). */
  endpointWorked: boolean;
  /**
   * A POST refused 400/404/405 — the spec's legacy-detection probe (2025-03-26 backward compatibility) — in an
   * incident where a client then received the server's legacy `endpoint` event: the fallback reached the old
   * transport, so the refusal was the detection working, not a wrong transport or route.
   */
  probeFoundLegacy: boolean;
  /** Evidence that the route itself is wrong (nothing MCP is mounted there). */
  routeWrong: Tri;
  /** The failing request is the first exchange of its connection (initialize, or nothing earlier). */
  firstRequest: Tri;
  /** The method is one the MCP specification defines (spec-methods.ts); null when no method is known. */
  methodInSpec: Tri;
  /** Client and server speak different transports (legacy HTTP+SSE vs Streamable HTTP). */
  transportMismatch: Tri;
  /** A tool's handle that one replica handed out and another did not know moments later (IncidentIndex.handleMadeElsewhere). */
  handleSplit?: string | null;
  /**
   * A tool's handle named earlier in the incident and unknown to the server now (IncidentIndex.handleKnownBefore):
   * where, and whether the server restarted in between. Null: nothing shows the handle before.
   */
  handleLost?: { where: string; restarted: boolean } | null;
  /**
   * A call refused for what it named (invalid params, an unknown tool or prompt) that the client made from a listing
   * it took before the server restarted (IncidentIndex.listedBeforeRestart): where that listing was, or null.
   */
  listedBeforeRestart?: string | null;
  /** The Streamable HTTP endpoint's path (`/mcp`) a legacy HTTP+SSE client was given, when that is how the transports differ. */
  legacyClientPath?: string | null;
  /** The request never reached the next hop: refused, DNS, connect timeout, TLS, proxy could not connect. */
  neverConnected: Tri;
  /** The request reached the MCP server. */
  delivered: Tri;
  /** The incident includes the server's own log: a call it does not mention is unknown, not undelivered. */
  serverLogged: boolean;
  /** The incident includes a proxy's or gateway's own log (access or error lines). */
  proxyLogged: boolean;
  interruption: Interruption;
  /** A proxy's timer ended the exchange (read/idle timeout, 504/524). */
  proxyTimerCut: Tri;
  /** The server's supervisor killed the worker serving the call when it outran the worker timeout (gunicorn WORKER TIMEOUT, uWSGI harakiri). */
  workerTimerCut: Tri;
  bodyKind: BodyKind;
  jsonRpcCode: number | null;
  /** Milliseconds from request start to the failure, when a log says. */
  elapsedMs: number | null;
  /** A client-side timeout setting visible in the text (ms). */
  clientTimeoutMs: number | null;
  /**
   * On an initialize that failed: the client had logged the server's InitializeResult just before (its own line,
   * nothing sent in between) — the handshake was answered, so what failed is the client finishing it.
   */
  handshakeAnswered: boolean;
  /** The infrastructure timer the elapsed time matches (15/30/60/100/125/300 s, ±10 %). */
  knownTimerS: number | null;
  /**
   * An earlier answer to the same call (method and tool) that took a tenth of the timer that cut this one or less:
   * where and how long — the timer did not clip slow work, the server stopped answering a call it answers quickly.
   */
  answeredQuicklyBefore: string | null;
  /**
   * Another caller's failure, not a request of a client whose log is here (IncidentIndex.otherCaller): where that
   * caller was shown failing while a client log recording its own failures logged none, or where a caller that shares
   * neither address nor User-Agent with any request a client logged failed. null: nothing shows it.
   */
  otherCaller: string | null;
  /** otherCaller was shown by the caller alone: neither its address nor its User-Agent is a client's (no log covered it). */
  otherCallerStranger: boolean;
  /** Distinct server replicas (host, pod, instance, pid or upstream address) that served this session. */
  replicas: string[];
  /** The session was created on one replica and rejected by another that was not a restart of it. */
  replicaSplit: Tri;
  /**
   * For a session the server did not know, with no replica shown: where a line says the server runs several
   * worker processes side by side (uvicorn's multiprocess supervisor, a --workers/-w count ≥ 2, PM2 cluster
   * mode — signal server-workers-several). Each worker keeps its own sessions (row 37, D18).
   */
  workersStated: string | null;
  /** How many times this call (or this failure, for unidentified ones) failed in the incident. */
  attempts: number;
  /** It failed on every attempt, with no success of it in between or after. */
  persistent: Tri;
  /**
   * A count summary the host or a probe printed shows these requests both passing and failing (where, with the
   * counts: `3/5 OK`, `7 ok / 5 failed`, `200: 7  400: 13`): intermittent, not failing every time (row 93, D1).
   */
  mixedTally: string | null;
  /** The times the client itself is shown sending this call: its numbered attempts (`attempt 2/3`) or its own request lines, whichever is more (0: not shown). */
  clientSends: number;
  /**
   * The server answered a repeated write with the stored result of the first (an idempotency-key replay) and the
   * client logged the call returned at or after that line: the write ran once and the client has its result (where).
   */
  duplicateAnswered: string | null;
  /** A later success of the same call: re-issued and answered, resumed, a fallback transport that connected. */
  recovered: Tri;
  recoveredBy: string | null;
  /** The recovery was this request's own stream resumed (GET + Last-Event-ID answered, `Reconnected to SSE stream`): D9. */
  streamResumed: boolean;
  /**
   * A hand-made transcript showed this redirect's Location already requested and redirected (correlate/
   * transcript.ts): `self` — a path-only Location naming the path it answered, the server's own routing;
   * `cycle` — hops that disagree (slash, scheme, host). Null: no loop shown.
   */
  redirectLoop: 'self' | 'cycle' | null;
  /**
   * The legacy transport's message URL was not the one the server announced: the endpoint event named one path
   * and the client POSTed this request to another, glued onto its stream's path or resolved against the wrong
   * base (RFC 3986 §5.2; endpoint-resolution.ts). Where, with both paths; null: not shown.
   */
  endpointMisresolved: string | null;
  /** The client sent this call again later (asked only for subscriptions/listen: false elsewhere). */
  sentAgain: boolean;
  /**
   * Anything after this failure: another request sent or answered, in its files or later in time (asked
   * only for a refused standalone GET stream: true elsewhere). false: the log ends with the client giving up.
   */
  wentOn: boolean;
  /**
   * A request was sent or answered after this failure, in its files or later in time (asked only for a server's
   * note that it closed an idle session: null elsewhere). false: the logs end with the session closed.
   */
  requestedAfter: Tri;
  /**
   * The level the client logged this failure at (a logged level, not one guessed from its words): true for
   * error or fatal, false for warn, info or debug (the client says it carried on: "GET stream error
   * (non-fatal)"), null when no client line has a logged level. Asked only where wentOn is.
   */
  loggedAsError: Tri;
  /** Asked for a -32601 on a method a capability requires (prompts/get, resources/read, tools/call…): another method of that capability was answered, so the server serves it. */
  capabilityServed: boolean;
  /** A server logged its start after this failure's last line (asked only for a connect failure or a proxy's 502/503 that failed every attempt). */
  serverStartedAfter: boolean;
  /** Failed on every attempt at the connect or proxy stage after the server logged that it stopped (and no start since): it was down, not misrouted (row 66). */
  serverStoppedBefore: boolean;
  /**
   * Asked for a 401: a redirect of the same request was answered just before it (the client's `redirecting to …`, the
   * server's 307 for the same tool) — the credential dropped when the client followed it. Where, or null.
   */
  redirectBeforeRefusal: string | null;
  /**
   * The forward proxy refused to tunnel to the MCP host (cause forward-proxy-denied on this failure's lines, or — asked
   * for a 403/407 or a connect failure — a proxy log's refusal naming the target within seconds of it). Where, or null.
   */
  tunnelRefused: string | null;
  /**
   * Asked for a proxy that found no upstream to send to (cause proxy-upstream-unavailable): by this failure, the
   * balancer's health probe was being answered 404/405 by the server (signal health-check-path-not-found) — the
   * server is up, the probe's path is wrong. Where, or null.
   */
  healthPathMissing: string | null;
  /** A connect failure after the client had connected to this server (same target and name) earlier in the logs: where it last worked, or null. The address was right. */
  connectedBefore: string | null;
  /** A connect failure after which the client connected to this server (same target and name) again: where, or null. */
  connectedAfter: string | null;
  /**
   * A connect failure whose every try to this target timed out (packets dropped, never refused) on at least three
   * tries over at least two minutes, nothing of that target answering since (incident.ts droppedSince): where the
   * first try was, or null. A network path that drops, not a server restarting.
   */
  connectDropped: string | null;
  /** The client gave up reconnecting or retrying (on this failure's line or soon after it, for the same server). */
  gaveUp: boolean;
  /**
   * A connect failure known only as undici's bare `TypeError: fetch failed`: no line of the incident names its
   * cause (refused, DNS, connect timeout, TLS, a proxy's upstream error). Row 41: the wrapper means what its
   * cause says, and the host did not log it.
   */
  connectCauseHidden: boolean;
  /** No line of the incident shows a server answering at all: no HTTP status, no InitializeResult or session, no completed call, no response or stream cut after it started (a host's "connected" state line alone is not an answer). */
  serverNeverAnswered: boolean;
  /** How often in the incident a session was refused as unknown within seconds of its creation (incident.ts quickSessionLosses). */
  quickSessionLosses: number;
  /**
   * The server's process died of an unhandled error (`server-crashed`) while this request was open, and
   * the request was cut by it (closed before its answer, a 502, a cut stream): where, or null.
   */
  serverCrashedAt: string | null;
  /**
   * Asked for an OAuth or credential failure: an authorization server in the incident logged that fetching a
   * client's metadata document (its client_id URL, Client ID Metadata Documents) got a non-2xx answer (where),
   * or null. The client registration failed on the server's way out, not on the user's credentials.
   */
  clientMetadataUnreachableAt: string | null;
  /** The client said it falls back to another transport. */
  transportFallback: boolean;
  /** The same client initialized successfully after this failure (a version probe that fell back, D15; a reconnect that dropped a stale session). */
  initializedAfter: boolean;
  /** The server whose log holds this failure answered other requests 2xx after it: it kept serving. */
  serverServedAfter: boolean;
  /** Where the server whose own backend failed this call is seen answering a later call, with no backend failure after (asked only for dependency-unavailable). */
  dependencyBackAt: string | null;
  /**
   * Asked only for a Python session manager that is not running ("Task group is not initialized"): this path
   * answered 2xx earlier and no process started or stopped since (where). Its run() had been entered — it
   * served — and has since exited, so the lifespan was wired; an error ended it. null: not shown.
   */
  managerServedEarlier: string | null;
  /** The innermost exception is anyio's Closed/BrokenResourceError: a write to a stream whose other side had gone (row 23). */
  rootIsClosedStream: boolean;
  sideEffect: ToolClass;
  sideEffectSource: 'method' | 'policy' | 'annotations' | 'unknown';
  toolHints: string | null;
  /** A server line of this request shows the handler completed / committed. */
  writeEvidence: string | null;
  /**
   * The same request committed on two or more replicas (its lines, joined by one request id, log the commit from
   * different hosts or processes): a proxy or mesh re-sent it after the first attempt (failure-signatures row 76, D8).
   * Where the commits were logged, else null.
   */
  writeDuplicated: string | null;
  /**
   * Every failure of this task-augmented call was a poll of its task (tasks/get), and a later poll of the same task was
   * answered (spec 2026-07-28 tasks): where, or null. The task went on; only a read of its state failed.
   */
  taskPollRecovered: string | null;
  /** A known SDK defect (exceptions/known-defects.ts) matched the exception tree. */
  knownDefect: string | null;
  /** An earlier request in the same session succeeded. */
  sessionWorkedBefore: Tri;
  /** The client resumed this request's cut SSE stream (GET + Last-Event-ID answered 2xx). */
  resumedStream: string | null;
  /** A process logged it was shutting down within two seconds of this failure. */
  nearShutdown: boolean;
  /**
   * Every line of this failure is a server's, written while that same process was shutting down: its own
   * `received SIGTERM; draining` (same file and replica) at most DRAIN_MS before. Where the shutdown began, or null.
   */
  drainingSince: string | null;
  /**
   * The legacy SSE connection's quiet time before it failed: ms from the last timed line above it in its file(s).
   * Read only for a legacy-transport failure of no identified call (the connection itself); else null.
   */
  quietBeforeMs: number | null;
  /** Read with quietBeforeMs: the client had fallen back from Streamable HTTP to legacy SSE earlier in its log. */
  fellBackEarlier: boolean;
  /**
   * This failure is a GET event stream (no call on it) that ended after the same long time (≥ 30 s) as another
   * failed stream of the incident: that length in ms (incident.ts repeatedStreamCuts). null otherwise.
   */
  streamCutEveryMs: number | null;
  /**
   * The server finished this call (completed or committed it) more than two seconds before the client
   * gave up waiting: the answer existed and was held on the way (row 72: a buffering proxy). null: one of
   * the two times is not in the logs.
   */
  heldInTransit: Tri;
  /** Where the server logged it finished, when heldInTransit is true. */
  heldEvidence: string | null;
  /** The server restarted after this path last answered 2xx and before this request (session-loss evidence without a session id). */
  restartedSinceWorked?: boolean;
  /**
   * Where the same HTTP method on this path was answered 2xx before this 404, when that (with no page, no
   * -32601 body, no 2026 or legacy transport) is what shows the session was lost: no header or body says so.
   */
  sameRequestWorkedAt?: string | null;
  /**
   * A request refused for carrying no session id came from a client shown holding one before (what shows it):
   * the line is client code that runs only after initialize succeeded (mcp-go's listener), an earlier request
   * other than initialize was answered, or it said it was connected and now calls a tool it had listed. null:
   * nothing shows it (a client that never had an id — a first request, a header stripped — stays a fix).
   */
  sessionHeldBefore?: string | null;
  /**
   * The server said the request carried no credential (`Missing Authorization header`) while a client line shows
   * one sent with it (where): the header was lost on the way (a proxy or a redirect dropped it). null: nothing
   * shows a credential sent — the client may have none.
   */
  credentialSentAt?: string | null;
  /** What showed it held: events in one late burst, event-stream headers that came late, the server finishing before the client gave up. */
  heldKind?: 'burst' | 'late-headers' | 'finished-first' | 'events-not-delivered' | null;
}

export interface FactsContext {
  protocolVersions: string[];
  index: IncidentIndex;
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

/** Methods that read and can be repeated (failure-signatures D6). */
export const READ_METHODS = new Set([
  'initialize',
  'server/discover',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'ping',
  'completion/complete',
  'tasks/get',
  'tasks/list',
  'logging/setLevel',
  'subscriptions/listen',
]);
/** Infrastructure timers of failure-signatures (c), in seconds. */
const TIMERS = [15, 30, 60, 100, 125, 300];
/** The shortest idle timer of failure-signatures (c) read as a timer on a quiet stream (balancers' 30 s); Envoy's 15 s caps whole requests. */
const STREAM_CUT_MIN_MS = 30_000;

/** The level the client's failure lines were logged at (not guessed from their words): see Facts.loggedAsError. */
function clientLoggedAsError(evs: readonly Event[], ix: IncidentIndex): Tri {
  let out: Tri = null;
  for (const f of evs) {
    if (f.source === 'server' || f.source === 'proxy' || !isFailureEvent(f)) continue;
    // a stack printed on its own (its level is its format's, not a logged one) belongs to the record above
    // it ("WARN … Handling exception"), when there is one
    const own = EXCEPTION_BLOCKS.has(f.format);
    const e = own ? ix.recordAbove(f) : f;
    if (e === null || e.level === null || e.attrs.levelFrom === 'wording' || e.attrs.levelFrom === 'signal') continue;
    if (e.level === 'error' || e.level === 'fatal') return true;
    out = false;
  }
  return out;
}
/** httpx's (and httpcore's) read timeout, by class or by its message: no bytes came within the read timeout. */
const READ_TIMEOUT = /\bReadTimeout\b|\bThe read operation timed out\b/;
/** How servers refuse the optional GET stream other than with the 405 the spec asks for (failure-signatures row 44). */
export const STREAM_REFUSALS = new Set([400, 404, 406]);
/**
 * The standalone GET stream neither opened nor was declined with 405: refused with another status, or
 * answered 2xx with a body that is no event stream (the spec: GET → text/event-stream or 405; java-sdk's
 * `Invalid SSE response. Status code: 200`, spring-ai issue 5239).
 */
export function streamDeclinedWrongly(f: Pick<Facts, 'httpStatus' | 'answerStatus' | 'causes'>): boolean {
  if (f.httpStatus !== null) return STREAM_REFUSALS.has(f.httpStatus);
  return f.answerStatus !== null && f.answerStatus >= 200 && f.answerStatus < 300 && f.causes.includes('content-type-wrong');
}
const HTML = /<html|<title>|<center>nginx|<!doctype html|content-type=text\/html|Content-Type: text\/html/i;
const LOCAL_HOSTS = /^(?:localhost|127(?:\.\d{1,3}){3}|\[?::1\]?|0\.0\.0\.0|host\.docker\.internal)$/i;
/** RFC 1918, link-local and unique-local addresses and names only a private network resolves: what a forward proxy on the internet side cannot reach. */
const PRIVATE_HOSTS =
  /^(?:10(?:\.\d{1,3}){3}|192\.168(?:\.\d{1,3}){2}|172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}|169\.254(?:\.\d{1,3}){2}|\[?f[cd][0-9a-f]{2}:[0-9a-f:]*\]?|[\w.-]+\.(?:local|internal|lan|localhost))$/i;

const table = () => signalTable();
/** Causes of the failure-outcome signals of an event. */
export function failureCauses(e: Pick<Event, 'signals'>): SignalCause[] {
  const out: SignalCause[] = [];
  for (const id of e.signals) {
    const m = table().meaning(id);
    if (m && m.outcome === 'failure' && m.cause !== 'http-status') out.push(m.cause);
  }
  return out;
}

/** A line that reports something went wrong: an error status or level, a traceback, or a failure signal. */
/** Block formats that are an exception itself (a traceback, a Node error, a Java stack). */
const EXCEPTION_BLOCKS = new Set(['python-traceback', 'node-error', 'java-stack']);
/** A stack frame, a traceback header or a chained cause inside a multi-line event. */
const STACK_LINE = /(?:^|\n)\s{0,12}(?:at [\w.<$@[(]|File "|Traceback \(most recent call last\)|Caused by: |\+ Exception Group|\| [A-Za-z_][\w.]*(?:Error|Exception)\b)/;

/**
 * A multi-line event is a visible error when it is an exception: a traceback or stack, or a line with
 * one folded under it. A line with its JSON or HTML body, a wrapped message or a shell command with its
 * output folded under it is not, by that alone (its level, status or signals still say).
 */
export function isExceptionBlock(e: Event): boolean {
  return e.kind === 'block' && (EXCEPTION_BLOCKS.has(e.format) || STACK_LINE.test(e.text)) && !isDeliberateTrace(e);
}

/**
 * A stack printed on purpose, not thrown: Node's console.trace (`Trace: …` then frames) and a debug
 * dump of a message-less `new Error()` to show the caller (mcp-remote --debug logs `Token request stack
 * trace: Error` and frames at every token read, punkpeye/mcp-remote#138). Not a failure by itself.
 */
const DELIBERATE_TRACE = /(?:^|\]\s?|\s)(?:Trace:|[Ss]tack trace: Error\s*$)/;
function isDeliberateTrace(e: Event): boolean {
  const nl = e.text.indexOf('\n');
  return DELIBERATE_TRACE.test(nl < 0 ? e.text : e.text.slice(0, nl));
}

export function isFailureEvent(e: Event): boolean {
  if (isNoise(e)) return false;
  // a stack printed on purpose is not an error, whatever level its format or words gave it
  if (e.kind === 'block' && e.httpStatus === null && isDeliberateTrace(e) && !e.signals.some((id) => table().meaning(id)?.outcome === 'failure')) return false;
  if ((e.httpStatus !== null && e.httpStatus >= 400) || e.level === 'error' || e.level === 'fatal' || isExceptionBlock(e)) return true;
  for (const id of e.signals) if (table().meaning(id)?.outcome === 'failure') return true;
  // a count of attempts with failures in it (`[INFO] probe: 3/5 OK`, enrich.ts attrs.tallyFailed) reports them
  // at whatever level the host logged its summary (issue #17 kind 1)
  if (typeof e.attrs.tallyFailed === 'number' && e.attrs.tallyFailed > 0) return true;
  return errorWordedCall(e);
}

const worded = new WeakMap<Event, boolean>();

/**
 * What a warning names when it is about the MCP connection itself rather than the host's own business:
 * an endpoint URL or address, the MCP server/client/session/transport, the handshake.
 */
const ABOUT_CONNECTION = /\bhttps?:\/\/|\b(?:mcp|handshake|initiali[sz]e|transport|session|server)\b/i;

/**
 * Issue item 1/5: hosts log failures at warn or info ("WARN tools/call id=5 failed: …"). A line about
 * an identified request (method, rpc id or tool), or a warning about the connection itself, whose words
 * report a failure and not a retry (level-wording.ts: retry wording gives a warning) is a visible error,
 * whatever level it was logged at.
 */
function errorWordedCall(e: Event): boolean {
  if (e.level !== 'warn' && e.level !== 'info') return false;
  const identified = e.rpcMethod !== null || e.rpcId !== null || e.tool !== null;
  // a warning that says the connection to the server failed is a failure too (`WARN could not reach
  // https://…/mcp`); an info line about no identified call stays context (hosts narrate at info)
  if (!identified && (e.level !== 'warn' || !ABOUT_CONNECTION.test(e.message))) return false;
  let v = worded.get(e);
  if (v === undefined) worded.set(e, (v = levelFromWording(e.message) === 'error'));
  return v;
}

/**
 * A line a signal marks as benign noise (nginx: "client … closed keepalive connection (104: Connection
 * reset by peer)") is benign whatever else its words match, unless it carries an error status.
 */
function isNoise(e: Event): boolean {
  // an error-level line or a traceback stays a visible error: a rule folds it, with its reason (a level
  // guessed from the line's words is not a logged one: the noise signal read the same words more closely)
  const logged = (e.level === 'error' || e.level === 'fatal') && e.attrs.levelFrom !== 'wording' && e.attrs.levelFrom !== 'signal';
  if (!e.signals.length || (e.httpStatus !== null && e.httpStatus >= 400) || logged || isExceptionBlock(e)) return false;
  return e.signals.some((id) => table().meaning(id)?.outcome === 'noise');
}

/** A block folded under a log line starts with that line's prefix: start at the first exception type on it. */
export function exceptionText(e: Event): string {
  if (e.format === 'python-traceback' || e.format === 'node-error' || e.kind !== 'block') return e.text;
  const nl = e.text.indexOf('\n');
  const first = nl < 0 ? e.text : e.text.slice(0, nl);
  const m = /\b(?:[a-z_][\w]*\.)*[A-Z][\w$]*(?:Error|Exception|Group)\b(?: \[[A-Z_]+\])?:/.exec(first);
  return m ? first.slice(m.index) + (nl < 0 ? '' : e.text.slice(nl)) : e.text;
}

/** The spec's ToolAnnotations hints (spec server/tools): the only *Hint fields read outside an annotations object. */
const SPEC_HINTS = new Set(['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']);

/** The *Hint flags a text sets, in any spelling logs use: `"readOnlyHint": true`, `readOnlyHint: true`, `readOnlyHint=True`. */
function hintsOf(text: string, only?: ReadonlySet<string>): Record<string, boolean> {
  const hints: Record<string, boolean> = {};
  for (const h of text.matchAll(/(?:^|[^\w])["']?(\w{1,40}Hint)["']?\s{0,4}[:=]\s{0,4}(true|false|True|False)\b/g))
    if (!only || only.has(h[1]!)) hints[h[1]!] = h[2]!.toLowerCase() === 'true';
  return hints;
}

/** `readOnlyHint` named bare as the reason a call is re-issued: `(readOnlyHint)`, `per readOnlyHint`, `since readOnlyHint` (not `readOnlyHint=…`). */
const BARE_HINT_REASON = /\b(?:re-?issu|retry|retrie|resend|re-?send|repeat)[^\n]{0,60}(?:\(|\b(?:per|by|on|since|because of|as) )(?:its |the )?readOnlyHint\b(?! ?[=:])/i;
/** …unless the line says the hint is missing, false or not set. */
const NEGATED_HINT = /\b(?:no|not|without|missing|lacks?|absent|unset)\b[^\n]{0,30}\breadOnlyHint\b|\breadOnlyHint\b[^\n]{0,20}\b(?:false|missing|absent|not set|unset)\b/i;
/** A name shaped as tools are named: with `_`, `.`, `-` or camelCase (a plain word such as `result` is not one). */
const TOOL_SHAPED = '[A-Za-z][a-z0-9]{0,40}(?:[_.:-][a-z0-9]{1,40}|[A-Z][a-z0-9]{0,40}){1,8}';
/** A tool's name right before the object that holds its annotations (a plain word there is its container, `tools`). */
const TOOL_BEFORE_OBJECT = new RegExp(`(?:^|[\\s'"\`(\\[,;{])['"\`]?(${TOOL_SHAPED})['"\`]?\\s?[:=]?\\s?$`);
/** A tool named right before its hints: `tool export_audit_events readOnlyHint=true`, `fetch_invoices readOnlyHint=true`. */
const TOOL_BEFORE_HINT = new RegExp(
  `(?:^|[\\s'"\`(;,])(?:tool ['"\`]?([A-Za-z_][\\w.:-]{0,99})|(${TOOL_SHAPED}))['"\`]?:? (?:readOnly|destructive|idempotent|openWorld)Hint ?[=:]`,
  'g',
);
/** A tool name in a list, shaped as tools are named (an identifier, dots, dashes or colons). */
const LISTED_TOOL = /^[A-Za-z_][\w.:-]{0,99}$/;

/**
 * A host's or server's summary of the tools/list naming the tools that carry a hint, as a list under the hint's
 * own name: `read_only="search_incidents,get_incident"`, `"readOnly":["get_incident"]`, `destructive=[drop_table]`
 * (spec server/tools ToolAnnotations, summarised: each named tool has the hint set; a boolean `read_only=true`
 * is a mode, not a list, and names nothing).
 */
function hintLists(text: string): [string, Record<string, boolean>][] {
  const out: [string, Record<string, boolean>][] = [];
  for (const m of text.matchAll(
    /(?:^|[\s{,(;])["']?(read_?only|readOnly|readonly|destructive)(?:_?[Tt]ools)?["']?\s?[:=]\s?(?:"([^"\n]{1,2000})"|'([^'\n]{1,2000})'|\[([^\]\n]{1,2000})\])/g,
  )) {
    const names = (m[2] ?? m[3] ?? m[4]!)
      .split(/[,\s]+/)
      .map((n) => n.replace(/^["'`]|["'`]$/g, ''))
      .filter(Boolean);
    if (!names.length || !names.every((n) => LISTED_TOOL.test(n) && !/^(?:true|false|yes|no|none|null|all)$/i.test(n))) continue;
    const hint: Record<string, boolean> = /^d/i.test(m[1]!) ? { destructiveHint: true } : { readOnlyHint: true };
    for (const n of names) out.push([n, hint]);
  }
  return out;
}

/** Tool annotations from logged tools/list results: {"name":"x",…,"annotations":{"readOnlyHint":true,…}} in any key order. */
export function toolAnnotations(events: readonly Event[]): Map<string, Record<string, boolean>> {
  const out = new Map<string, Record<string, boolean>>();
  const put = (name: string | undefined, hints: Record<string, boolean>) => {
    if (name && Object.keys(hints).length && !out.has(name)) out.set(name, hints);
  };
  for (const e of events) {
    // a host's summary of a tools/list naming the tools per hint: `read_only="search_a,get_b"`, `readOnly: [get_b]`
    if (/[Rr]ead_?[Oo]nly|[Dd]estructive/.test(e.text)) for (const [name, hints] of hintLists(e.text)) put(name, hints);
    if (!e.text.includes('Hint')) continue;
    // a host giving the hint as its reason for what it does with one call, the hint named bare:
    // `tools/call lookup_order id=83 -> 503 …; re-issuing once (readOnlyHint)` (spec server/tools: a client may
    // re-issue a call the server marked read-only; the host says it did so on that hint)
    if (e.tool && BARE_HINT_REASON.test(e.text) && !NEGATED_HINT.test(e.text)) put(e.tool, { readOnlyHint: true });
    let text = e.text.includes('\\"') ? e.text.replace(/\\"/g, '"') : e.text;
    // the Python SDK at DEBUG logs results as a dict repr ('annotations': {'readOnlyHint': True})
    if (text.includes("'annotations'"))
      text = text
        .replace(/'/g, '"')
        .replace(/\bTrue\b/g, 'true')
        .replace(/\bFalse\b/g, 'false')
        .replace(/\bNone\b/g, 'null');
    // each tool object: the innermost {...} holding "annotations"; its name may come before or after
    const re = /\{[^{}]{0,4000}?"annotations"\s*:\s*\{([^{}]{0,600})\}[^{}]{0,4000}?\}|\{[^{}]{0,4000}?"annotations"\s*:\s*\{([^{}]{0,600})\}/g;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const obj = m[0];
      const body = m[1] ?? m[2] ?? '';
      const outer = obj.replace(body, '');
      // (a tool object's "name", or a host's log record about a call: "tool":"kb_search", "annotations":{…})
      const name =
        /"name"\s*:\s*"([^"]{1,120})"/.exec(outer)?.[1] ??
        /"(?:tool|tool_name|toolName)"\s*:\s*"([^"]{1,120})"/.exec(outer)?.[1] ??
        /"name"\s*:\s*"([^"]{1,120})"/.exec(text.slice(Math.max(0, m.index - 400), m.index))?.[1] ??
        // (or a host printing each tool's name, then its object: `list_tickets {"annotations":{…},"inputSchema":…}`,
        // or a map keyed by tool: `{"list_tickets":{"annotations":…}}` — a name shaped as tools are named)
        TOOL_BEFORE_OBJECT.exec(text.slice(Math.max(0, m.index - 120), m.index))?.[1];
      put(name, hintsOf(body));
    }
    // a tool object with nested members before its annotations (inputSchema): the nearest name before them
    for (const m of text.matchAll(/"annotations"\s*:\s*\{([^{}]{0,600})\}/g)) {
      const before = text.slice(Math.max(0, m.index - 4000), m.index);
      const names = [...before.matchAll(/"name"\s*:\s*"([^"]{1,120})"/g)];
      put(names.at(-1)?.[1], hintsOf(m[1]!));
    }
    // …or a host's own note naming the tool, then its hints: `search_code annotations {"readOnlyHint":true}`,
    // `tool=get_order annotations: {readOnlyHint: true}`, or a Python host printing the SDK's pydantic object
    // (`f"{t.name} annotations={t.annotations}"` → `search annotations=ToolAnnotations(title='…', readOnlyHint=True)`)
    for (const m of text.matchAll(
      /(?:^|[\s=\]])['"`]?([A-Za-z_][\w.:-]{0,99})['"`]? (?:tool )?annotations[:=]? ?(?:\{([^{}]{0,600})\}|ToolAnnotations\(((?:[^()'"]|'[^'\n]{0,200}'|"[^"\n]{0,200}"){0,600})\))/g,
    )) {
      put(m[1], hintsOf(m[2] ?? m[3]!));
    }
    // …or its hints in braces right after its name, nothing else in them: `track_shipment{readOnlyHint=True, idempotentHint=True}`
    for (const m of text.matchAll(/(?:^|[\s:,(\[])([A-Za-z_][\w.:-]{0,99})\{((?: ?\w{1,40}Hint ?[=:] ?(?:true|false|True|False),?){1,8})\}/g)) {
      put(m[1], hintsOf(m[2]!, SPEC_HINTS));
    }
    // …or as the tool's member: `search_outage_tickets.annotations={"readOnlyHint":true,"idempotentHint":true}`
    for (const m of text.matchAll(/(?:^|[\s=\]])['"`]?([A-Za-z_][\w:-]{0,99})\.annotations ?[:=] ?\{([^{}]{0,600})\}/g)) {
      put(m[1], hintsOf(m[2]!));
    }
    // …or after it bare, without braces: `build_report annotations: readOnlyHint=True idempotentHint=True`
    for (const m of text.matchAll(
      /(?:^|[\s=\]/])['"`]?([A-Za-z_][\w.:-]{0,99})['"`]? (?:tool )?annotations[:=]? ((?:\w{1,40}Hint ?[=:] ?(?:true|false|True|False)[ ,;]{0,3}){1,8})(?:$|[^\w{(])/g,
    )) {
      put(m[1], hintsOf(m[2]!, SPEC_HINTS));
    }
    // …or in parentheses after the tool, without braces: `tools/call search_archive (annotations readOnlyHint=true idempotentHint=true)`
    for (const m of text.matchAll(/(?:^|[\s=\]/])['"`]?([A-Za-z_][\w.:-]{0,99})['"`]? \(annotations[:=]? ?((?:\w{1,40}Hint ?[=:] ?(?:true|false)[ ,;]{0,3}){1,8})\)/g)) {
      put(m[1], hintsOf(m[2]!, SPEC_HINTS));
    }
    // …or a host's record about one call with the hints as its own fields, no "annotations" wrapper:
    // {"tool":"search_archive",…,"readOnlyHint":true}, `tool=search_archive readOnlyHint=true`
    if (!text.includes('annotations')) {
      const tools = [...text.matchAll(/(?:^|[\s{,])["']?(?:tool|tool_name|toolName)["']?\s?[:=]\s?["']?([A-Za-z_][\w.:-]{0,99})/g)].map((m) => m[1]!);
      // (or a host's sentence about it: `get_order is marked readOnlyHint=true; re-issuing …`)
      for (const m of text.matchAll(
        /(?:^|[\s'"`(])([A-Za-z_][\w.:-]{0,99})['"`]? (?:is |was )?(?:marked|annotated|flagged|declared)(?: as| with)? ["']?(?:readOnly|destructive|idempotent|openWorld)Hint\b/g,
      ))
        tools.push(m[1]!);
      // (or a tool's name right before its hints: `tool export_audit_events readOnlyHint=true`, `fetch_invoices
      // readOnlyHint=true` — a name shaped as tools are named, with `_`, `.`, `-` or camelCase, unless `tool` says so)
      const named: { name: string; at: number }[] = [];
      for (const m of text.matchAll(TOOL_BEFORE_HINT)) {
        tools.push((m[1] ?? m[2])!);
        named.push({ name: (m[1] ?? m[2])!, at: m.index });
      }
      if (tools.length && tools.every((t) => t === tools[0])) {
        put(tools[0], hintsOf(text, SPEC_HINTS));
      } else if (named.length === tools.length && new Set(tools).size === tools.length) {
        // (a host's listing of several tools, each name then its own hints: `query_metrics readOnlyHint=true,
        // annotate_dashboard readOnlyHint=false` — each tool's hints run to the next tool's name)
        named.forEach((n, i) => put(n.name, hintsOf(text.slice(n.at, named[i + 1]?.at ?? text.length), SPEC_HINTS)));
      }
    }
    // …or as pydantic reprs: Tool(name='x', …, annotations=ToolAnnotations(readOnlyHint=True, …))
    if (!text.includes('ToolAnnotations(')) continue;
    for (const m of text.matchAll(/\bTool\(name=["']([^"']{1,120})["'][^()]{0,4000}?annotations=ToolAnnotations\(([^()]{0,600})\)/g)) {
      put(m[1], hintsOf(m[2]!));
    }
  }
  return out;
}

export interface Replica {
  host: string | null;
  pid: string | null;
  upstream: string | null;
  file: string;
}
// (an analysis asks for the same lines' replicas per failure and per pair of lines: up to a few regexes over each
// line's text every time, ~0.2 s of a 64 MiB bench analysis; an event's attrs and text do not change once classifying starts)
const replicas = new WeakMap<Event, Readonly<Replica>>();

/** How long a process may take to drain after it began shutting down (Kubernetes' default grace period is 30 s). */
const DRAIN_MS = 30_000;
function drainingSince(evs: readonly Event[], ix: IncidentIndex): string | null {
  if (evs.length === 0 || evs.some((e) => e.source !== 'server' || e.ts === null)) return null;
  const first = evs[0]!;
  const who = (e: Event) => {
    const r = replicaOf(e);
    return r.host ?? r.pid ?? null;
  };
  const mine = who(first);
  const since = ix.shutdownLines().find((x) => x.file === first.file && who(x) === mine && !evs.includes(x) && x.ts! <= first.ts! && first.ts! - x.ts! <= DRAIN_MS);
  return since ? `${since.file}:${since.line}` : null;
}

/** A replica's identity from a server or proxy line: host, pod, instance, else pid, else upstream address, else file. */
export function replicaOf(e: Event): Readonly<Replica> {
  let r = replicas.get(e);
  if (!r) replicas.set(e, (r = readReplica(e)));
  return r;
}

function readReplica(e: Event): Replica {
  const a = e.attrs;
  const str = (v: unknown) => (v === undefined || v === null || v === '' ? null : String(v));
  const host =
    str(a.hostname) ??
    str(a.pod) ??
    str(a.instance) ??
    str(a.host) ??
    /"(?:hostname|pod|instance)"\s*:\s*"([^"]{1,120})"/.exec(e.text)?.[1] ??
    /\b(?:hostname|pod|instance)=([\w.-]{1,120})/.exec(e.text)?.[1] ??
    // the pod or compose replica a line's prefix named (kubectl logs --prefix, docker compose logs)
    str(a.origin) ??
    null;
  const pid = str(a.pid) ?? /"pid"\s*:\s*(\d{1,9})/.exec(e.text)?.[1] ?? null;
  // nginx `$upstream_addr`, Envoy `%UPSTREAM_HOST%` as a JSON access line names them ("-" when none was picked);
  // an AWS ALB line its `target:port`, Traefik its ServiceAddr/ServiceURL (a proxy's, not a tracing target)
  const proxyTarget = e.source === 'proxy' ? (str(a.target) ?? str(a.ServiceAddr) ?? str(a.ServiceURL)) : null;
  const upstream = str(a.upstream) ?? str(a.upstream_addr) ?? /"upstream_(?:addr|host)"\s*:\s*"([^"\s,-][^"\s,]{0,119})"/.exec(e.text)?.[1] ?? proxyTarget ?? null;
  return { host, pid, upstream, file: e.file };
}

/** The OAuth 2.1 endpoints an MCP authorization flow calls (spec basic/authorization; RFC 6749, 7591): a browser's GET there is no SSE stream. */
const AUTH_FLOW_PATH = /\/(?:authorize|token|register|(?:oauth2?|auth)\/[\w.-]{1,40}|callback|oauth-callback)\/?$/i;

/** The call a span is about: method and tool, for "the same call" across attempts. */
export function callKey(method: string | null, tool: string | null): string | null {
  if (!method && !tool) return null;
  return `${method ?? 'tools/call'}|${tool ?? ''}`;
}

/** A server restarted between this client's last connect (handshake, session) before the span and the span. */
function restartedSinceConnected(ix: IncidentIndex, span: SpanBuild, start: number): boolean {
  const at = ix.establishedBefore(span);
  return at !== null && at.ts !== null && ix.restartedWithin(at.ts, start);
}

/** A line of another file than the failure's is after it when its clock says so by more than this. */
const CROSS_FILE_AFTER_MS = 1_000;

export function deriveFacts(span: SpanBuild, ctx: FactsContext): Facts {
  const ix = ctx.index;
  const evs = span.events;
  const inSpan = new Set(evs);
  const text = evs
    .map((e) => e.text)
    .join('\n')
    .slice(0, 100_000);
  // a benign line grouped into the span (curl's refused first address before it connected) says nothing of the failure
  const signals = [...new Set(evs.flatMap((e) => (isNoise(e) ? [] : e.signals)))];
  const meanings = signals.map((id) => ({ id, m: table().meaning(id) })).filter((x) => x.m !== null) as { id: string; m: NonNullable<ReturnType<SignalTable['meaning']>> }[];
  let causes = [...new Set(meanings.filter((x) => x.m.cause !== 'http-status').map((x) => x.m.cause as SignalCause))];
  // JSON-RPC codes are overloaded (failure-signatures g.7: text and status decide): a -32601 whose message
  // speaks of the session (`{"code":-32601,"message":"Not Found: Invalid session ID"}`) is a session answer
  const sessionWords = causes.includes('session-unknown') || causes.includes('session-invalid');
  if (sessionWords && causes.includes('method-not-found') && !/method not found|METHOD_NOT_FOUND|unknown method|not supported/i.test(text))
    causes = causes.filter((c) => c !== 'method-not-found');
  // a read timeout raised while the client read an SSE stream is that stream's idle timer, not a deadline for
  // the request: httpx's read timeout is the longest wait for the next bytes, and the Python SDK reads its
  // streams with `sse_read_timeout` (300 s by default; failure-signatures row 10 and (c) stage E)
  if (causes.includes('sse-read-failed') && causes.includes('client-timeout') && !causes.includes('client-idle-timeout') && READ_TIMEOUT.test(text))
    causes.push('client-idle-timeout');
  const has = (c: SignalCause) => causes.includes(c);
  const failureMeanings = meanings.filter((x) => x.m.outcome === 'failure');
  // (a status quoted in a tool's error result — `ToolError: HTTP error 401` under a 200 — is the tool's own
  // downstream call, not this exchange's answer)
  const inToolResult = (e: Event) => e.signals.some((id) => table().meaning(id)?.cause === 'tool-error');
  const statusOf = (src: Source) => evs.find((e) => e.source === src && e.httpStatus !== null && e.httpStatus >= 400 && !inToolResult(e))?.httpStatus ?? null;
  const httpStatus = statusOf('proxy') ?? statusOf('server') ?? statusOf('client') ?? statusOf('unknown');
  // what the request got when it did not fail by status (a stream cut after its 200, a -32601 inside a 200)
  const anyStatusOf = (src: Source) => evs.find((e) => e.source === src && e.httpStatus !== null && e.httpMethod !== null)?.httpStatus ?? null;
  // (a status named on a line without its request line — `HTTP/1.1 307`, curl's `HTTP/2 200` above an
  // error in the body — is the answer too; a non-2xx first)
  const answerStatus =
    httpStatus ??
    anyStatusOf('proxy') ??
    anyStatusOf('server') ??
    anyStatusOf('client') ??
    evs.find((e) => e.httpStatus !== null && e.httpStatus >= 300)?.httpStatus ??
    evs.find((e) => e.httpStatus !== null)?.httpStatus ??
    null;
  const start = span.start;
  const end = span.end ?? start;
  const session = span.session;
  const tool = span.tool;
  // a named tool is called with tools/call, whatever line named it
  const method = span.method ?? (tool !== null ? 'tools/call' : null);
  const identified = method !== null || tool !== null || span.rpcId !== null;
  // (some SDK messages name no request line but say the verb: the TS SDK's `Error POSTing to endpoint`,
  // failure-signatures rows 38-40; the Python SDK's `Session termination failed: 405`, its DELETE on close
  // in client/streamable_http.py, stage X)
  const httpMethod =
    evs.find((e) => e.httpMethod && e.httpStatus !== null && e.httpStatus >= 400)?.httpMethod ??
    evs.find((e) => e.httpMethod)?.httpMethod ??
    (evs.some((e) => e.message.includes('POSTing to endpoint')) ? 'POST' : evs.some((e) => e.message.includes('Session termination failed')) ? 'DELETE' : null);
  const pathEvent = evs.find((e) => e.httpPath && e.httpStatus !== null && e.httpStatus >= 400) ?? evs.find((e) => e.httpPath);
  const httpPath = pathEvent?.httpPath ? stripQuery(pathEvent.httpPath) : null;
  const target = targetOf(evs);
  const localTarget: Tri = target ? LOCAL_HOSTS.test(target.host) : null;
  const viaForwardProxy: Tri = has('forward-proxy') || ix.forwardProxyEarlierInFile(span) ? true : null;
  const proxyBypassExpected: Tri = target ? LOCAL_HOSTS.test(target.host) || PRIVATE_HOSTS.test(target.host) : null;

  // --- exceptions and stage
  const blocks = evs.filter((e) => e.kind === 'block');
  let rootException: Facts['rootException'] = null;
  let exceptionChain: string[] = [];
  let stage: Stage = 'unknown';
  let stageEvidence: string | null = null;
  let knownDefect: string | null = null;
  for (const b of blocks) {
    const tree = parseExceptionText(exceptionText(b));
    if (!tree) continue;
    const choice = chooseRoot(tree);
    if (!rootException && choice.root) {
      const guess = inferStage(tree, choice.root);
      rootException = { type: choice.root.type, message: choice.root.message };
      exceptionChain = choice.chain;
      stage = guess.stage;
      stageEvidence = guess.evidence;
    }
    if (!knownDefect) {
      // (later lines of the client that joined this span count too: the calls that failed after the cut)
      const afterBlock = evs.filter((e) => e.file === b.file && e.line > b.endLine && e.source !== 'server' && e.source !== 'proxy').map((e) => e.message);
      const m = matchKnownDefects(tree, { laterMessages: [...afterBlock, ...ix.laterClientMessages(span).split('\n')] });
      if (m.length) knownDefect = m[0]!.id;
    }
  }
  // A signal with a stage is the line saying where it broke; the proxy's word wins over the client's.
  const staged = failureMeanings.filter((x) => x.m.stage && x.m.stage !== 'http_status');
  const stagedProxy = staged.find((x) => x.m.side === 'proxy') ?? staged.find((x) => x.m.stage === 'connect') ?? staged[0];
  if (stagedProxy && (stage === 'unknown' || stage === 'http_status' || stagedProxy.m.side === 'proxy')) {
    stage = stagedProxy.m.stage as Stage;
    stageEvidence = table().signals.find((s) => s.spec.id === stagedProxy.id)?.spec.title ?? stagedProxy.id;
  }
  if (stage === 'unknown' && httpStatus !== null && httpStatus !== 502 && httpStatus !== 504 && httpStatus !== 499) {
    stage = 'http_status';
    stageEvidence = `a complete HTTP ${httpStatus} answer`;
  }

  // --- body and JSON-RPC code
  let bodyKind: BodyKind = 'unknown';
  const unescaped = text.includes('\\"') ? text.replace(/\\"/g, '"') : text;
  const codeMatch =
    /"error"\s*:\s*\{\s*"code"\s*:\s*(-?\d{1,6})/.exec(unescaped) ??
    /\bMCP error (-?\d{1,6})\b/.exec(unescaped) ??
    /"code"\s*:\s*(-?\d{5,6})\b/.exec(unescaped) ??
    /\bcode[=:] ?(-32\d{3})\b/.exec(unescaped);
  const codeNumber = codeMatch ? Number(codeMatch[1]) : null;
  const jsonRpcCode = codeNumber === -32601 && sessionWords && !has('method-not-found') ? null : codeNumber;
  if (HTML.test(text) || has('html-response')) bodyKind = 'html';
  else if (/"jsonrpc"[^\n]{0,400}"error"|"error"\s*:\s*\{\s*"code"/.test(unescaped)) bodyKind = 'jsonrpc-error';

  // --- protocol era: what the exchange did, not what a header claimed
  const pv = evs.find((e) => e.protocolVersion)?.protocolVersion ?? (ctx.protocolVersions.length === 1 ? ctx.protocolVersions[0]! : null);
  let era: Era = pv === null ? 'unknown' : pv >= '2026-07-28' ? 'sessionless' : pv >= '2025-03-26' ? 'session' : 'legacy-sse';
  // A connection that opens with a GET (no POST before it from this client) is a legacy HTTP+SSE client:
  // Streamable HTTP starts with POST initialize, and its standalone GET only follows it.
  const opensWithGet = httpMethod === 'GET' && !has('stream-open-failed') && !ix.endpointWorked && !ix.earlierPostInFile(span);
  // (`/message` is the TypeScript SDK examples' message endpoint, `/messages/` the Python SDK's)
  const legacyHere = has('transport-legacy') || (httpPath !== null && /\/(?:sse|messages?)\/?$/.test(stripQuery(httpPath))) || opensWithGet;
  if (era === 'sessionless' && ix.handshake) era = 'session';
  if (era === 'unknown' && (legacyHere || (ix.legacy && !ix.streamable))) era = 'legacy-sse';
  else if (era === 'unknown' && ix.handshake) era = 'session';
  // (a version only the incident logged — another hop's initialize, a host's stdio message to its relay — does not
  // outweigh a connection this span opened with a GET before any POST, where nothing was ever answered 2xx)
  else if (era === 'session' && opensWithGet && !ix.streamable && !evs.some((e) => e.protocolVersion)) era = 'legacy-sse';

  // the legacy SSE connection itself (no identified call on it) failed
  const legacyConnectionFailed = era === 'legacy-sse' && method === null && tool === null && (httpMethod === null || httpMethod === 'GET');

  // --- sessions
  const before = (e: Event) => start === null || (e.ts !== null && e.ts < start) || (e.ts === null && sameFileBefore(e, span));
  const sessionEvents = session ? ix.sessionEvents(session).filter((e) => !inSpan.has(e)) : [];
  // legacy SSE: a POST whose URL carries the session got that URL from the server's endpoint event
  const legacyPostWithSession = evs.some((e) => e.httpMethod === 'POST' && e.httpPath !== null && /\/messages\/?\?.*session_?[iI]d=/.test(e.httpPath));
  const sessionAssignedEarlier: Tri = legacyPostWithSession
    ? true
    : !session
      ? null
      : sessionEvents.some((e) => before(e) && ((e.httpStatus !== null && e.httpStatus < 400) || e.signals.some((id) => table().meaning(id)?.cause === 'session-created')))
        ? true
        : null;
  const sessionWorkedBefore: Tri = !session
    ? null
    : sessionEvents.some((e) => before(e) && e.httpStatus !== null && e.httpStatus < 400 && e.rpcMethod !== 'initialize')
      ? true
      : null;
  // "No valid session ID provided": the TS SDK example servers answer it (JSON, -32000) for an unknown id
  // AND for a missing one (failure-signatures row 51: it turns on whether the request carried an id);
  // Python <=1.25 answers it in plain text only for an id it does not know (row 24).
  const invalidEither = has('session-invalid') && !has('session-unknown') && (bodyKind === 'jsonrpc-error' || jsonRpcCode !== null);
  const sessionSent = sessionSentFact(evs, method, session, (c) => has(c) || (c === 'session-unknown' && has('session-invalid') && !invalidEither));
  const firstRequest: Tri =
    method === 'initialize' || method === 'server/discover'
      ? true
      : sessionAssignedEarlier === true || sessionWorkedBefore === true || (method !== null && method !== 'initialize')
        ? false
        : ix.earlierSuccessInFile(span)
          ? false
          : null;
  const pathWorked = ix.pathWorked(httpPath);
  // "missing session id" to a client that had held one: the id was dropped, not never kept (mcp-go clears its
  // id when a request gets 404 — the session terminated — and goes on sending without it: client/transport/
  // streamable_http.go sendHTTP; failure-signatures D14 keeps "when the client never sent one" for the fix)
  let sessionHeldBefore: string | null = null;
  if (has('session-missing') && sessionSent !== true && method !== 'initialize') {
    const used = ix.earlierSessionUse(span);
    const connected = used === null && method === 'tools/call' ? ix.earlierSessionUse(span, true) : null;
    const listener = evs.find((e) => e.signals.some((id) => table().meaning(id)?.cause === 'initialized-before'));
    sessionHeldBefore = listener
      ? `${listener.file}:${listener.line}: a listener that runs only after initialize succeeded`
      : used !== null
        ? `${used.where}: a request after initialize was answered`
        : connected !== null
          ? `${connected.where}: connected, and tools/call calls a tool listed since`
          : null;
  }
  // The server did not know the session: it said so (any status, any level), or a 404 that is not a
  // page came back for a request that carried a session on a path that had worked (triage-rules §3).
  let sessionUnknown: Tri = null;
  let restartedSinceWorked = false;
  let sameRequestWorkedAt: string | null = null;
  const htmlAnswer = bodyKind === 'html' || has('route-missing');
  // the server's MCP layer answered about the thing the request names — a tool, prompt or resource it does not
  // have (spec server/tools, prompts, resources error handling; some servers send it with 404): the endpoint
  // routed the request and the session was accepted, so such a 404 is neither a lost session nor a wrong route
  const objectAnswer = has('object-not-found') && !has('session-unknown') && !has('session-invalid') && !htmlAnswer;
  // "Server not initialized": the transport that got the request never saw this session's initialize —
  // a restart or another replica (replicaSplit tells them apart)
  if (has('session-unknown') || (has('server-not-initialized') && sessionSent !== false)) sessionUnknown = true;
  else if (has('session-invalid') && !invalidEither) sessionUnknown = true;
  // the legacy message endpoint's URL (and its session id) came from the server's endpoint event: a 404/400
  // there is the SSE connection behind the id gone (row 37) — once that URL had worked, or the client had
  // sent anything before; refused on its very first POST (the initialize), the announced path itself is
  // unroutable (a mount prefix the endpoint event left out: D12), and the session is not shown lost
  else if (
    has('legacy-message-rejected') &&
    (httpStatus === 404 || httpStatus === 400) &&
    !htmlAnswer &&
    (pathWorked !== false || ix.earlierRequestInFile(span) || ix.streamCutEarlierInFile(span) || (start !== null && restartedSinceConnected(ix, span, start)))
  )
    sessionUnknown = true;
  // the same answer without the server's words, when this client's SSE connection (the GET stream that the
  // session lives on) was cut before it, or a server restarted after this client connected: the session
  // went with the connection or the old process (row 37)
  else if (
    era === 'legacy-sse' &&
    httpMethod !== 'GET' &&
    (httpStatus === 404 || httpStatus === 400) &&
    sessionSent === true &&
    !htmlAnswer &&
    (ix.streamCutEarlierInFile(span) || (start !== null && restartedSinceConnected(ix, span, start)))
  )
    sessionUnknown = true;
  // (a session answer with 404 is the unknown-session answer: the spec answers a missing id with 400 and an
  // unknown one with 404 — transports, session management)
  else if (has('session-invalid') && httpStatus === 404) sessionUnknown = true;
  // (the ambiguous answer, read by what else is known: the id was sent or had worked, or the server's own
  // log says at that time that a session it got was unknown to it — then the id was sent, and not known)
  else if (has('session-invalid'))
    sessionUnknown = sessionSent === true || sessionAssignedEarlier === true || sessionWorkedBefore === true || ix.serverSaidSessionUnknown(span) ? true : null;
  // (the Python SDK says "Session terminated" for any 404, a wrong path's too: only with a session it had —
  // or on a request a client sends only after initialize answered, as for a bare 404 below)
  else if (has('session-terminated-client'))
    sessionUnknown =
      sessionSent === true ||
      sessionAssignedEarlier === true ||
      pathWorked === true ||
      (method !== 'initialize' && ix.sessionCreatedEarlierIn(span) !== null) ||
      // (a line of client code that runs only after initialize succeeded — mcp-go's listener: its 404 is the session's)
      has('initialized-before') ||
      // (the SDK clients that word a 404 so — Python's ClientSession, mcp-go, go-sdk — send initialize first
      // on the same URL and call nothing else before it answered: another method's 404 there is the session's)
      (method !== null && method !== 'initialize' && method !== 'server/discover')
        ? true
        : null;
  else if (
    httpStatus === 404 &&
    era !== 'sessionless' &&
    jsonRpcCode !== -32601 &&
    !objectAnswer &&
    !htmlAnswer &&
    sessionSent === true &&
    (bodyKind === 'jsonrpc-error' || pathWorked === true || sessionAssignedEarlier === true)
  )
    sessionUnknown = true;
  // a 404 on a request a client sends only after initialize (tools/call, resources/read, ping…) came
  // from the endpoint that answered initialize: the session is what went missing
  else if (
    httpStatus === 404 &&
    era !== 'sessionless' &&
    jsonRpcCode !== -32601 &&
    !objectAnswer &&
    !htmlAnswer &&
    sessionSent !== false &&
    pathWorked !== false &&
    method !== null &&
    method !== 'initialize' &&
    method !== 'server/discover'
  )
    sessionUnknown = true;
  // a 404 (no page, not 2026) on a path that answered 2xx before the server restarted between them
  // (an access log that shows neither method nor session): the in-memory session went with the process
  else if (
    (restartedSinceWorked =
      httpStatus === 404 &&
      era !== 'sessionless' &&
      jsonRpcCode !== -32601 &&
      !objectAnswer &&
      !htmlAnswer &&
      sessionSent !== false &&
      httpPath !== null &&
      pathWorked === true &&
      method !== 'initialize' &&
      method !== 'server/discover' &&
      ix.restartSinceWorked(span, httpPath))
  )
    sessionUnknown = true;
  // a 404 (no page, no -32601, not 2026, not the legacy message endpoint) to a request whose HTTP method and
  // path had been answered 2xx before it: the endpoint routes that request, so the 404 is not a wrong route,
  // and on the Streamable HTTP endpoint the spec's one reason for it is a session the server no longer holds
  // (transports, session management: a server that terminated a session answers 404 to requests carrying
  // it) — even where the log (an access log) shows neither the Mcp-Session-Id header nor the body
  else if (
    (sameRequestWorkedAt =
      httpStatus === 404 &&
      era !== 'sessionless' &&
      era !== 'legacy-sse' &&
      !legacyHere &&
      jsonRpcCode !== -32601 &&
      !objectAnswer &&
      !htmlAnswer &&
      !has('method-not-found') &&
      sessionSent !== false &&
      httpPath !== null &&
      httpMethod !== null &&
      method !== 'initialize' &&
      method !== 'server/discover' &&
      !ix.methodNotFoundBeside(span)
        ? ix.sameRequestWorkedBefore(span, httpPath, httpMethod)
        : null) !== null
  )
    sessionUnknown = true;
  // a bare 404 (no page, no -32601, not 2026, no method shown, not shown sent without a session — a gateway's or
  // host's `HTTP error: 404`, an access log's line) in an incident whose server says, at that time, that a request came with a session it did
  // not know: the spec's one reason for that answer on the MCP endpoint (transports, session management), and the
  // server names it. (Read alone, such a 404 on an endpoint never seen working is a wrong route: routeWrong.)
  else if (
    httpStatus === 404 &&
    era !== 'sessionless' &&
    era !== 'legacy-sse' &&
    jsonRpcCode !== -32601 &&
    !objectAnswer &&
    !htmlAnswer &&
    !has('method-not-found') &&
    method === null &&
    sessionSent !== false &&
    ix.sessionUnknownStatedBeside(span) !== null
  )
    sessionUnknown = true;
  // a bare 400 (no page, not 2026) for a session id that had worked, the server restarted in between: the
  // TS SDK example servers and the gateways built on them answer an id they no longer hold with 400 "No valid
  // session ID provided" (row 51, D11), whose body an access log does not show
  else if (
    httpStatus === 400 &&
    era !== 'sessionless' &&
    !htmlAnswer &&
    sessionSent === true &&
    sessionWorkedBefore === true &&
    httpPath !== null &&
    method !== 'initialize' &&
    method !== 'server/discover' &&
    causes.length === 0 &&
    ix.restartSinceWorked(span, httpPath)
  )
    sessionUnknown = true;
  // a 401 for a session that had worked with the same client, the server restarted in between: the
  // server answers 401 for a session it no longer holds (D11's unknown session at another status;
  // mcp-proxy, rmcp) — not credentials that stopped working
  else if (httpStatus === 401 && sessionSent === true && sessionWorkedBefore === true && !has('auth-token-expired') && httpPath !== null && ix.restartSinceWorked(span, httpPath))
    sessionUnknown = true;

  // how long the session lived, and whether anything between its start and its loss explains the loss
  const established = sessionUnknown === true ? ix.establishedBefore(span) : null;
  const sessionAgeMs = established?.ts != null && start !== null ? start - established.ts : null;
  const sessionLossExplained = established?.ts != null && start !== null ? ix.lossExplainedBetween(established.ts, start, span) : null;
  const laterSessionKept = sessionUnknown === true && start !== null ? ix.laterSessionKept(start, session) : null;
  // (the same session answered 2xx after the refusal; or, in a client's log that names no session, a call
  // answered between two refusals with no new session between: the alternation of row 93)
  const sessionAcceptedAfter = sessionUnknown === true && sessionSent !== false ? (ix.sessionAcceptedAfter(span, httpStatus) ?? ix.servedBetweenRefusals(span)) : null;
  const sessionAgeLines = sessionUnknown === true && sessionAgeMs === null ? ix.establishedLinesBefore(span, 12) : null;
  const idleStated = sessionUnknown === true ? ix.idleTimeoutStated(start) : null;

  // --- route and transport: a route verdict needs evidence the route is wrong (item 7 of the issue):
  // a not-found page or no route, an HTML answer where MCP was expected, or a 404 on a path (or, path
  // unknown, an endpoint) that never worked in the incident and no session to lose.
  let routeWrong: Tri = null;
  const serverSide5xx = httpStatus !== null && httpStatus >= 500;
  if (has('route-missing') || (bodyKind === 'html' && (httpStatus === 404 || httpStatus === 405))) routeWrong = true;
  // (a proxy's own HTML page for a body, URI or header limit, a rate limit or a request timeout is about the request, not the route)
  else if (
    has('html-response') &&
    !serverSide5xx &&
    !(httpStatus !== null && [408, 413, 414, 429, 431].includes(httpStatus)) &&
    // (nor a proxy's page saying it gave up waiting — Cloudflare's `524: A timeout occurred`, whose status the client's
    // error may not quote: failure-signatures stage H)
    !['proxy-upstream-unavailable', 'auth-rejected', 'auth-token-expired', 'oauth-flow-failed', 'proxy-timeout-before-headers', 'proxy-timeout-mid-stream'].some((c) =>
      has(c as SignalCause),
    )
  )
    routeWrong = true;
  else if (httpStatus === 404 && !objectAnswer && sessionUnknown !== true && sessionSent !== true && (pathWorked === false || firstRequest === true)) routeWrong = true;
  else if (httpStatus === 404 && !objectAnswer && pathWorked === null && sessionUnknown !== true && sessionSent !== true && session === null && !ix.endpointWorked)
    routeWrong = true;
  // the Python SDK 1.x's "Session terminated" is its word for any 404: on initialize, which carries no
  // session, it is the URL that is wrong (failure-signatures row 1: "also on the very first initialize")
  else if (has('session-terminated-client') && (method === 'initialize' || sessionSent === false) && sessionSent !== true && sessionAssignedEarlier !== true && pathWorked !== true)
    routeWrong = true;
  // the legacy message endpoint refused (404) with nothing before it — no message there answered, nothing sent
  // earlier, the stream not cut, no restart: the announced path itself does not route (a mount prefix the
  // endpoint event left out, D12), not a session lost (row 37 needs the session to have lived)
  else if (has('legacy-message-rejected') && httpStatus === 404 && !htmlAnswer && sessionUnknown !== true && pathWorked !== true && !ix.earlierRequestInFile(span))
    routeWrong = true;
  else if (pathWorked === true) routeWrong = false;
  // (from the server's or proxy's side only: a POST probe refused, then the legacy transport's message POSTs answered)
  const legacyAfter = httpMethod === 'POST' && (httpStatus === 400 || httpStatus === 404 || httpStatus === 405) && !has('transport-legacy') ? ix.legacyConnectedAfter(span) : null;
  const transportFallback = has('transport-fallback') || ix.fallbackAfter(span) || legacyAfter !== null;
  let transportMismatch: Tri = null;
  let legacyClientPath: string | null = null;
  // (an SSE connect that failed because nothing answered at all — refused, DNS, TLS — says nothing about transports)
  const connectStage = failureMeanings.some((x) => x.m.stage === 'connect' && x.m.cause !== 'sse-connect-rejected');
  // the client's own conclusion (mcp-go: its initialize POST refused, "likely a legacy SSE server")
  if (has('transport-mismatch')) transportMismatch = true;
  else if (
    has('sse-connect-rejected') &&
    (httpStatus === 400 || httpStatus === 404 || httpStatus === 405 || (httpStatus === null && !connectStage)) &&
    !has('auth-rejected') &&
    !has('auth-token-expired') &&
    !has('oauth-flow-failed')
  )
    transportMismatch = true;
  // a legacy SSE client whose wait for the endpoint event ran out: its GET was answered, but not with
  // the HTTP+SSE stream (spec 2024-11-05: the endpoint event comes first; failure-signatures row 58)
  else if (has('endpoint-event-missing') && !has('auth-rejected') && !has('auth-token-expired') && !has('oauth-flow-failed')) transportMismatch = true;
  else if (httpStatus === 405 && httpMethod === 'POST') transportMismatch = true;
  else if (httpMethod === 'POST' && httpPath !== null && /\/sse\/?$/.test(httpPath) && (httpStatus === 404 || httpStatus === 405)) transportMismatch = true;
  else if ((has('html-response') || has('content-type-wrong')) && legacyHere && !has('route-missing')) transportMismatch = true;
  else if (transportFallback && has('retries-exhausted')) transportMismatch = true;
  // a legacy SSE client's GET refused by a Streamable HTTP endpoint (400 no session, 404, 405)
  else if ((era === 'legacy-sse' || legacyHere) && httpMethod === 'GET' && (httpStatus === 400 || httpStatus === 404 || httpStatus === 405)) transportMismatch = true;
  // a 405 whose HTTP method no line names (a bare curl, a status echoed by a host), where the legacy transport is
  // all these logs show: its two methods are the GET stream and the POST to the announced endpoint, and an
  // endpoint that refuses either by method serves the other transport (failure-signatures (a.1) "Other statuses":
  // Streamable HTTP answers 405 to a GET it does not offer; row 90). Not in a Streamable HTTP exchange, where a 405
  // on GET or DELETE is the optional channel declined (D16).
  else if (era === 'legacy-sse' && httpMethod === null && httpStatus === 405 && !ix.streamable && method === null && tool === null) transportMismatch = true;
  // a legacy HTTP+SSE client given a Streamable HTTP endpoint's path (`claude mcp add -t sse x https://h/mcp`,
  // `Connecting to SSE endpoint: …/mcp`) whose connection failed with no answer that speaks of anything else
  // — not refused or unresolved, not an auth or rate answer, no server error — and that never worked there
  // (failure-signatures (a.1) "Endpoints"; anthropics/claude-code issue 1960: `-t sse` on `/mcp` gets
  // `SSE error: Non-200 status code (202)`). Near miss: a legacy server mounted at /mcp that answered its stream.
  else if (
    (method === null || method === 'initialize') &&
    tool === null &&
    !connectStage &&
    !has('auth-rejected') &&
    !has('auth-token-expired') &&
    !has('oauth-flow-failed') &&
    !has('rate-limited') &&
    (httpStatus === null || [400, 404, 405, 406, 415].includes(httpStatus)) &&
    !ix.legacyEndpointEventReached &&
    !ix.endpointWorkedFor(span) &&
    (legacyClientPath = ix.legacyClientOnMcpPath(span)) !== null
  )
    transportMismatch = true;

  // --- delivery and interruption
  // undici's bare `fetch failed` is a connect failure (row 41) unless the span shows an answer or a cut (row 42)
  // — or the server logged that it received the call: then the request was sent, and what failed was
  // the wait for its answer (a gateway or body timer), not the connect
  const serverReceivedAt = ix.serverReceived(span);
  const fetchFailedLater =
    httpStatus !== null ||
    has('peer-closed-before-response') ||
    has('stream-cut') ||
    has('conn-reset') ||
    (has('network-error') && (serverReceivedAt !== null || waitedBefore(evs, 'network-error', ix, tool) >= CONNECT_GIVES_UP_MS));
  // undici's own timers (`headersTimeout`, `bodyTimeout`: 300 000 ms by default) end a call whose answer does
  // not come with the same bare `fetch failed`: one logged at that mark after the call, with no status, cut or
  // reset of its own, is that client timer — a long call cut by the client library every time, like the body
  // timer's `Body Timeout Error` (failure-signatures (c) timing fingerprints: ≈300 s Node undici)
  if (has('network-error') && !has('client-idle-timeout') && httpStatus === null && !has('stream-cut') && !has('conn-reset') && !has('peer-closed-before-response')) {
    const waited = waitedBefore(evs, 'network-error', ix, tool);
    if (Math.abs(waited - UNDICI_TIMER_MS) <= UNDICI_TIMER_MS * 0.01) causes.push('client-idle-timeout');
  }
  const connectFailure = failureMeanings.some((x) => x.m.stage === 'connect' && x.m.cause !== 'oauth-flow-failed' && !(x.m.cause === 'network-error' && fetchFailedLater));
  // (a task-augmented call whose task was created — spec tasks: the server answered with a task handle — reached the
  // server: a later poll that could not connect lost contact with the work, it did not keep the work from the server)
  const taskCreated = has('task-created');
  const neverConnected: Tri = connectFailure && !taskCreated ? true : evs.some((e) => e.source === 'server') || taskCreated ? false : null;
  const serverSaw = evs.some((e) => e.source === 'server') || has('request-received') || has('write-started') || has('write-committed') || serverReceivedAt !== null;
  const proxyFailedBeforeHeaders = failureMeanings.some(
    (x) => x.m.side === 'proxy' && (x.m.cause === 'peer-closed-before-response' || x.m.cause === 'proxy-timeout-before-headers'),
  );
  // response headers with a 2xx status came back for the call's POST (an SSE stream opened, stage B of
  // failure-signatures (c)): the server had the request and was handling it
  const headersCame = evs.some(
    (e) => e.httpMethod === 'POST' && e.httpStatus !== null && e.httpStatus >= 200 && e.httpStatus < 300 && e.httpStatus !== 202 && e.httpStatus !== 204,
  );
  const delivered: Tri = neverConnected === true ? false : serverSaw || proxyFailedBeforeHeaders || headersCame ? true : null;
  let interruption: Interruption = null;
  if (neverConnected === true) interruption = 'connect';
  else if (has('proxy-timeout-before-headers') || httpStatus === 504 || httpStatus === 524 || httpStatus === 408) interruption = 'proxy-timeout-before-headers';
  else if (has('proxy-timeout-mid-stream') || has('stream-cut')) interruption = 'stream-cut';
  else if (has('peer-closed-before-response')) interruption = 'closed-before-headers';
  // a cancellation the caller chose (a Stop button, `User requested cancellation`) — not a timeout's own cancel
  // (spec 2026-07-28 cancellation: a timed-out sender cancels too): the proxy's 499 for it is that same choice
  else if (has('caller-cancelled') && !has('client-timeout')) interruption = 'caller-cancelled';
  else if (has('client-closed-request') || httpStatus === 499 || httpStatus === 460) interruption = 'client-gave-up';
  else if (has('conn-reset')) interruption = 'stream-cut';
  else if (has('stream-disconnected') && httpMethod !== 'GET' && identified) interruption = 'stream-cut';
  else if (httpStatus === 502 || httpStatus === 503 || httpStatus === 520) interruption = 'bad-gateway';
  // an answer refused on the way for its size (a client's cap on one SSE event, a proxy's header buffer): the
  // response had started and its reading stopped — the call ran, what it did is the write rules' question
  else if (has('response-too-large')) interruption = 'stream-cut';
  else if (has('client-timeout')) interruption = 'client-timeout';
  else if (has('connection-closed') || (taskCreated && connectFailure)) interruption = 'connection-closed';
  // undici's bare `fetch failed` once the server had the call (above): the wait for its answer was cut
  else if (has('network-error') && fetchFailedLater) interruption = 'connection-closed';
  if (interruption === 'bad-gateway' && has('client-timeout')) interruption = 'client-timeout';
  // the client cancelled this call itself (notifications/cancelled for it, or closing its stream: spec
  // basic/patterns/cancellation) for no reason the logs give — not a user's Stop, not its timer: it gave up waiting
  if (interruption === null && has('cancel-sent') && identified && method !== 'notifications/cancelled') interruption = 'client-gave-up';
  // (spec 2026-07-28 tasks: a task-augmented call answers with a handle and its result is fetched with tasks/get until the
  // task's TTL; a poll answered that the task is unknown or expired — -32602, `Task has expired` — lost the result the
  // server may already have produced)
  const taskWork = taskCreated || evs.some((e) => typeof e.attrs.taskId === 'string');
  if (interruption === null && taskWork && evs.some((e) => (e.rpcMethod ?? '').startsWith('tasks/')) && TASK_LOST.some(has)) interruption = 'task-lost';
  if (interruption === null && span.stoppedBy) interruption = 'stopped-while-waiting';
  if (interruption === null && span.endedWaiting) interruption = 'log-ended-waiting';
  const proxyTimerCut: Tri = has('proxy-timeout-before-headers') || has('proxy-timeout-mid-stream') || httpStatus === 504 || httpStatus === 524 ? true : null;
  const workerTimerCut: Tri = has('worker-timeout') ? true : null;
  // (the call a killed worker served lost its connection with it: the client sees the stream end or a 502)
  if (interruption === null && workerTimerCut === true && identified) interruption = 'connection-closed';

  // --- time
  const durations: number[] = [];
  for (const e of evs) {
    if (e.durationMs !== null) durations.push(e.durationMs);
    const ms = /\((\d+(?:\.\d+)?) ?ms\)/.exec(e.message);
    if (ms && e.source === 'client') durations.push(Number(ms[1]));
  }
  // the setting as the log states it (stated-timeout.ts), else the wait measured from send to give-up
  const clientTimeoutMs = statedTimeoutMs(text) ?? (has('client-timeout') ? measuredWait(evs, ix) : null);
  if (clientTimeoutMs !== null) durations.push(clientTimeoutMs);
  const elapsedMs = durations.length ? Math.max(...durations) : null;
  const knownTimerS = elapsedMs === null ? null : (TIMERS.find((t) => Math.abs(elapsedMs / 1000 - t) <= t * 0.1) ?? null);

  // --- replicas
  let { replicas, replicaSplit } = replicaFacts(span, session, ix, evs);
  // with or without session ids: one replica rejecting what another accepted at the same moment
  if (replicaSplit !== true) {
    let pair: [string, string] | null = null;
    for (const e of evs) if ((pair = ix.replicaRejection(e))) break;
    pair ??=
      // a client line of the same answer, when the failure holds no served-side line of its own
      !evs.some((e) => e.source !== 'client' && e.httpStatus !== null) && httpStatus !== null
        ? ix.replicaRejectionLike(
            httpStatus,
            span.events.map((e) => (e.httpPath ? stripQuery(e.httpPath.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '')) : null)).find((p) => p !== null) ?? null,
          )
        : null;
    if (pair) {
      replicaSplit = true;
      replicas = [...new Set([...replicas, ...pair])].sort();
    }
  }
  // a session the server did not know, rejected by a server log that ran several worker processes side
  // by side (uvicorn --workers, gunicorn): each worker keeps its own sessions (row 37, D18)
  if (replicaSplit === null && sessionUnknown === true) {
    const rejected = evs.find((e) => e.source === 'server' && (e.httpStatus === 404 || e.httpStatus === 400));
    const workers = rejected ? ix.concurrentWorkers(rejected.file) : [];
    if (workers.length >= 2) {
      replicaSplit = true;
      replicas = [...new Set([...replicas, ...workers.map((w) => `pid ${w}`)])].sort();
    }
  }
  // (no start line per worker, but the server is said to run several: a supervisor's line, a worker count)
  const workersStated = replicaSplit === null && sessionUnknown === true ? (ix.workersStated()?.where ?? null) : null;

  // --- attempts, recovery
  const key = callKey(method, tool);
  // (the two facts that walk the rest of the incident are asked only for a refused GET stream)
  const streamRefusal = method === null && tool === null && streamDeclinedWrongly({ httpStatus, answerStatus, causes });
  const attemptsSeen = ix.failedAttempts(span, key, causes);
  // the attempts the client numbered, here or in its give-up line for this connection (`Failed to connect
  // after 3 attempts`: it may have logged fewer of them)
  const gaveUpLine = ix.laterGaveUp(span);
  const counted = Math.max(
    0,
    ...[...`${text}\n${gaveUpLine?.text ?? ''}`.matchAll(/\battempt (\d{1,3}) ?(?:\/|of) ?\d{1,3}|after (\d{1,3}) attempts/gi)].map((m) => Number(m[1] ?? m[2])),
  );
  // (a count summary on the failure's own line counts its attempts too: `0/4 OK` failed four times)
  const counts = ix.tallyFor(span, key);
  // (a count written after the client gave this call up — `report EMEA failed after 3 attempts`, then `job finished:
  // 2 ok, 1 failed` — counts the job's other work, not passes of this call)
  const tally = counts.mixed !== null && counts.at !== null && ix.gaveUpBefore(span, counts.at) !== null ? { ...counts, mixed: null } : counts;
  const attempts = Math.max(attemptsSeen, counted, tally.failedOnly, 1);
  const clientSends = Math.max(counted, ix.sentByClient(key));
  // a later success or recovery counts only if this failure does not come back after it (with several
  // clients in one log, the success may be another client's)
  const holds = <P extends Point>(p: P | null): P | null => (p !== null && !ix.failsAgainAfter(span, key, causes, p) ? p : null);
  // (nor a success after the client said it gave up on this call: what it sent after that was another request,
  // the same tool for other input, not this one answered — a host's `unavailable … after 3 attempts`)
  // (a programming error in the code that ran fails the same input the same way: a later success of the same tool,
  // its input not shown, was other input — not this call recovered)
  const successAfter = has('code-defect') ? null : holds(ix.laterSuccess(span, key));
  const laterSuccess = successAfter !== null && gaveUpLine !== null && gaveUpLine.file === successAfter.file && gaveUpLine.line < successAfter.line ? null : successAfter;
  const laterRecovery = holds(ix.laterRecovery(span));
  // failed on every attempt: nothing of it succeeded, and the client never got going again after
  // (a summary that counts passes beside the failures says not every attempt failed)
  const persistent: Tri = tally.mixed !== null ? false : attempts >= 2 ? !laterSuccess && !laterRecovery : null;
  const resumedStream = session ? resumedAfterCut(span, sessionEvents) : null;
  let recoveredBy: string | null = null;
  // (the recovery was the stream resumed — failure-signatures D9 — not a call made again)
  let resumed = false;
  if (resumedStream && era !== 'sessionless') {
    recoveredBy = `the client resumed the stream (${resumedStream})`;
    resumed = true;
  } else if (laterSuccess) recoveredBy = `the same call succeeded later (${laterSuccess.where})`;
  else {
    // a recovery line inside the request's own lines, after its failure, speaks for it too — after it in the
    // failure's own file, or by the clock in another (a line number of one file says nothing of another's: the
    // server's "completed" line 15 is not after the client's failure on line 7)
    const lastFailIn = new Map<string, number>();
    let lastFailTs: number | null = null;
    for (const e of evs.filter(isFailureEvent)) {
      lastFailIn.set(e.file, Math.max(lastFailIn.get(e.file) ?? -1, e.line));
      if (e.ts !== null) lastFailTs = Math.max(lastFailTs ?? e.ts, e.ts);
    }
    const afterFailure = (e: Event) => {
      const l = lastFailIn.get(e.file);
      // (another file's clock, at a second's grain and a little skewed, must be clearly later)
      return l !== undefined ? e.line > l : e.ts !== null && lastFailTs !== null && e.ts > lastFailTs + CROSS_FILE_AFTER_MS;
    };
    const inside = evs.find((e) => afterFailure(e) && (e.source === 'client' || e.source === 'unknown') && e.signals.some((id) => table().meaning(id)?.outcome === 'recovery'));
    // the client saying this same call returned, after its failure (a token refreshed, a retry answered)
    const returned = evs.find(
      (e) =>
        afterFailure(e) &&
        (e.source === 'client' || e.source === 'unknown') &&
        e.signals.includes('call-returned') &&
        !e.signals.some((id) => table().meaning(id)?.outcome === 'failure'),
    );
    const rec =
      laterRecovery ?? (inside ? { where: `${inside.file}:${inside.line}`, resumed: inside.signals.some((id) => table().meaning(id)?.cause === 'stream-resumed') } : null);
    // (an error tied to no call, logged before this client had ever connected, then the client connected:
    // a start-up error it got past, like a failed first attempt)
    const beforeFirstConnect = !identified && ix.establishedBefore(span) === null;
    if (rec && (transportFallback || has('auth-rejected') || has('auth-token-expired') || interruption !== null || firstRequest === true || rec.resumed || beforeFirstConnect)) {
      recoveredBy = rec.resumed ? `the client resumed its stream (${rec.where})` : `the client connected afterwards (${rec.where})`;
      resumed = rec.resumed;
    }
    // (on a session the server no longer knows, a call can only return on a new one: with no handshake in
    // between, the line is another client's — several conversations share one host's log)
    else if (returned && identified && (sessionUnknown !== true || ix.establishedBetween(returned.file, lastFailIn.get(returned.file) ?? -1, returned.line)))
      recoveredBy = `the same call returned afterwards (${returned.file}:${returned.line})`;
  }
  if (recoveredBy === null && legacyAfter !== null) recoveredBy = `the legacy SSE transport's messages were answered afterwards (${legacyAfter.where})`;
  // a task's poll that failed, then a later poll of the same task answered (spec 2026-07-28 tasks: the client polls
  // tasks/get — a read — until the task ends, and the task runs on the server whatever one poll met): the next poll
  // recovered it, as a read answered on its retry
  let taskPollRecovered: string | null = null;
  if (recoveredBy === null && taskWork) {
    const poll = (e: Event) => e.rpcMethod === 'tasks/get';
    const fails = evs.filter(isFailureEvent);
    const lastFail = fails.length > 0 && fails.every((e) => e.ts !== null) ? Math.max(...fails.map((e) => e.ts!)) : null;
    if (lastFail !== null && fails.every(poll)) {
      const next = evs.find((e) => poll(e) && !isFailureEvent(e) && e.ts !== null && e.ts > lastFail && (e.httpStatus === null || e.httpStatus < 400));
      if (next) recoveredBy = `the task's next poll was answered (${(taskPollRecovered = `${next.file}:${next.line}`)})`;
    }
  }
  // a redirect the client followed: the target path answered
  // (the answer's own Location when a transcript printed it, else the trailing-slash twin of row 36; a loop
  // never reaches an answer)
  const loops = evs.map((e) => e.attrs.redirectLoop).filter((v): v is 'self' | 'cycle' => v === 'self' || v === 'cycle');
  const redirectLoop = loops.includes('self') ? 'self' : loops.length ? 'cycle' : null;
  const location = evs.map((e) => e.attrs.location).find((v): v is string => typeof v === 'string');
  const locationPath = location !== undefined ? (/^(?:https?:\/\/[^/\s]{1,300})?(\/[^\s?#]{0,8000})/.exec(location)?.[1] ?? null) : null;
  if (recoveredBy === null && redirectLoop === null && (has('redirect') || (answerStatus !== null && answerStatus >= 300 && answerStatus < 400)) && httpPath !== null) {
    const alt = locationPath ?? (httpPath.endsWith('/') ? httpPath.slice(0, -1) : `${httpPath}/`);
    if (alt !== httpPath && ix.pathWorked(alt) === true) recoveredBy = `the redirected path ${alt} answered`;
  }
  const recovered: Tri = recoveredBy !== null ? true : null;

  // --- side effect and write evidence
  const writeEvidence = ix.writeEvidence(span, inSpan);
  // (one commit per replica: two processes each logging they committed this request are two writes — not a replica
  // answering a task's poll with the status the worker reached: tasks/get reads the one task's state)
  const commits = new Map<string, Event>();
  for (const e of evs) {
    if (e.source === 'client' || (e.rpcMethod ?? '').startsWith('tasks/') || !e.signals.some((id) => table().meaning(id)?.cause === 'write-committed')) continue;
    const r = replicaOf(e);
    const who = r.host ?? r.pid ?? r.upstream;
    if (who !== null && !commits.has(who)) commits.set(who, e);
  }
  const writeDuplicated = commits.size >= 2 ? [...commits.values()].map((e) => `${e.file}:${e.line}`).join(', ') : null;
  const rootIsClosedStream = rootException !== null && /^(?:anyio\.)?(?:ClosedResourceError|BrokenResourceError)$/.test(rootException.type);

  // Lifecycle (spec basic/lifecycle: initialization MUST be the first interaction): a client's first POST
  // in its log, carrying no session and naming no method, was its initialize — not under 2026-07-28,
  // which has no handshake
  // (also an HTTP error naming only the URL — httpx's `Client error '401 Unauthorized' for url '…/mcp/'` —
  // when nothing before it in the client's log sent or answered anything: its first request)
  const clientLine = (e: Event) => e.source === 'client' || e.source === 'unknown';
  const firstPost =
    method === null &&
    tool === null &&
    span.rpcId === null &&
    era !== 'sessionless' &&
    session === null &&
    sessionSent !== true &&
    firstRequest !== false &&
    // (a probe for OAuth metadata or a browser asset, or a step of the OAuth flow, is no MCP request)
    !has('discovery-probe') &&
    !(httpPath !== null && AUTH_FLOW_PATH.test(stripQuery(httpPath))) &&
    ((httpMethod === 'POST' && evs.some((e) => clientLine(e) && e.httpMethod === 'POST') && !ix.earlierPostInFile(span)) ||
      (httpMethod === null && !legacyHere && evs.some((e) => clientLine(e) && e.httpStatus !== null && /\bhttps?:\/\/\S/.test(e.message)) && !ix.earlierRequestInFile(span)));

  // (by the method the rules see: a client's first POST is the initialize, a read)
  // (a task-augmented call's polls — tasks/get — are reads, but the work they poll is the tool's: judged as its tools/call)
  const taskOfTool = taskWork && tool !== null && (method ?? '').startsWith('tasks/');
  const cls = classifyTool(firstPost ? 'initialize' : taskOfTool ? 'tools/call' : method, tool, ctx.toolPolicy ?? null, ctx.annotations ?? new Map(), READ_METHODS);

  return {
    rpcId: span.rpcId,
    method: firstPost ? 'initialize' : method,
    tool,
    session,
    httpStatus,
    answerStatus,
    httpMethod,
    httpPath,
    authFlowPath: httpPath !== null && AUTH_FLOW_PATH.test(stripQuery(httpPath)),
    target,
    localTarget,
    viaForwardProxy,
    proxyBypassExpected,
    stage,
    stageEvidence,
    rootException,
    exceptionChain,
    protocolVersion: pv,
    era,
    signals,
    causes,
    sources: span.sources,
    seenBy: { client: evs.some((e) => e.source === 'client'), proxy: evs.some((e) => e.source === 'proxy'), server: evs.some((e) => e.source === 'server') },
    identified,
    sessionSent,
    sessionAssignedEarlier,
    sessionUnknown,
    sessionAgeMs,
    sessionLossExplained,
    idleTimeoutMs: idleStated?.ms ?? null,
    idleTimeoutAt: idleStated?.at ?? null,
    clientClosedAfter: causes.includes('client-object-closed') ? null : ix.clientClosedAfter(span),
    closedBeforeIssued: causes.includes('client-object-closed') ? null : ix.closedBeforeIssued(span),
    laterSessionKept,
    sessionAcceptedAfter,
    sessionAgeLines,
    endpointWorked: ix.endpointWorkedFor(span),
    probeFoundLegacy: ix.legacyEndpointEventReached && httpMethod === 'POST' && (httpStatus === 400 || httpStatus === 404 || httpStatus === 405),
    pathWorked,
    routeWrong,
    firstRequest,
    methodInSpec: method === null ? null : SPEC_METHODS.has(method),
    transportMismatch,
    legacyClientPath,
    handleSplit: has('handle-unknown') ? ix.handleMadeElsewhere(span) : null,
    handleLost: has('handle-unknown') ? ix.handleKnownBefore(span) : null,
    listedBeforeRestart: has('invalid-params') || has('object-not-found') ? ix.listedBeforeRestart(span, method) : null,
    neverConnected,
    delivered,
    serverLogged: ix.serverLogged,
    proxyLogged: ix.proxyLogged,
    interruption,
    proxyTimerCut,
    workerTimerCut,
    bodyKind,
    jsonRpcCode,
    elapsedMs,
    clientTimeoutMs,
    handshakeAnswered:
      method === 'initialize' && (evs.some((e) => e.signals.some((id) => signalTable().meaning(id)?.cause === 'handshake-ok')) || ix.handshakeAnsweredJustBefore(span)),
    knownTimerS,
    answeredQuicklyBefore: (() => {
      if (knownTimerS === null || (proxyTimerCut !== true && workerTimerCut !== true)) return null;
      const q = ix.quickAnswerBefore(span, key, knownTimerS * 100);
      return q ? `${q.where} (${q.ms} ms)` : null;
    })(),
    otherCaller: ix.otherCaller(span),
    otherCallerStranger: ix.otherCallerStranger(span),
    replicas,
    replicaSplit,
    workersStated,
    attempts,
    persistent,
    mixedTally: tally.mixed,
    clientSends,
    duplicateAnswered: duplicateAnsweredIn(evs),
    recovered,
    recoveredBy,
    streamResumed: resumed,
    redirectLoop,
    endpointMisresolved: misresolvedEndpoint(ix.all, evs, httpPath, httpStatus),
    sentAgain: method === 'subscriptions/listen' && key !== null ? ix.sentAgainAfter(span, key) : false,
    wentOn: streamRefusal ? ix.wentOnAfter(span) : true,
    requestedAfter: has('session-evicted') ? ix.requestedAfter(span) : null,
    loggedAsError: streamRefusal ? clientLoggedAsError(evs, ix) : null,
    capabilityServed:
      method !== null && CAPABILITY_METHODS.has(method) && (has('method-not-found') || jsonRpcCode === -32601) ? ix.familyServed(method, CAPABILITY_METHODS.get(method)!) : false,
    serverStartedAfter:
      persistent === true && span.end !== null && (interruption === 'connect' || interruption === 'bad-gateway' || interruption === 'closed-before-headers')
        ? ix.startedAfter(span.end)
        : false,
    serverStoppedBefore:
      persistent === true && span.start !== null && (interruption === 'connect' || interruption === 'bad-gateway' || interruption === 'closed-before-headers')
        ? ix.stoppedBefore(span.start)
        : false,
    redirectBeforeRefusal: (() => {
      if (httpStatus !== 401) return null;
      const refusal = evs.find((e) => e.httpStatus === 401 && e.ts !== null);
      if (!refusal) return null;
      // (a refusal that names invalid_token saw the token: it arrived, and was refused for itself)
      if (evs.some((e) => /\binvalid_token\b/.test(e.text)) || ix.saysInvalidTokenWithin(refusal.ts!, refusal.ts! + 1000)) return null;
      const e = ix.redirectBefore(refusal, new Set(evs.map((x) => x.file)), tool);
      return e ? `${e.file}:${e.line}` : null;
    })(),
    tunnelRefused: (() => {
      const own = evs.find((e) => e.signals.includes('forward-proxy-tunnel-refused'));
      if (own) return `${own.file}:${own.line}`;
      if (httpStatus !== 403 && httpStatus !== 407 && neverConnected !== true) return null;
      const e = ix.tunnelRefusedNear(span.end ?? span.start, target?.host ?? (evs[0] ? ix.hostNamedBefore(evs[0]) : null));
      return e ? `${e.file}:${e.line}` : null;
    })(),
    healthPathMissing: (() => {
      if (!has('proxy-upstream-unavailable')) return null;
      const e = ix.healthPathMissingBy(span.end ?? span.start);
      return e ? `${e.file}:${e.line}` : null;
    })(),
    connectedBefore: interruption === 'connect' || neverConnected === true ? (ix.earlierConnected(span)?.where ?? null) : null,
    connectedAfter: interruption === 'connect' || neverConnected === true ? (ix.laterConnected(span)?.where ?? null) : null,
    connectDropped: neverConnected === true ? (ix.droppedSince(span)?.where ?? null) : null,
    gaveUp: has('reconnect-exhausted') || has('retries-exhausted') || (neverConnected === true && gaveUpLine !== null),
    // (the failure's own lines are the incident's: a cause they name is named)
    connectCauseHidden: neverConnected === true && signals.includes('fetch-failed') && !ix.connectCauseNamed(),
    serverNeverAnswered: !ix.anyAnswer(),
    quickSessionLosses: sessionUnknown === true ? ix.quickSessionLosses() : 0,
    serverCrashedAt: (() => {
      if (interruption !== 'closed-before-headers' && interruption !== 'bad-gateway' && interruption !== 'stream-cut' && interruption !== 'connection-closed') return null;
      const c = ix.crashDuring(span.start, span.end);
      return c ? `${c.file}:${c.line}` : null;
    })(),
    clientMetadataUnreachableAt: has('oauth-flow-failed') || has('auth-rejected') || httpStatus === 401 || httpStatus === 403 ? ix.clientMetadataUnreachable() : null,
    transportFallback,
    initializedAfter:
      ((method === 'server/discover' || method === 'initialize') && (httpStatus === 400 || httpStatus === 404 || httpStatus === 405)) ||
      // (a client saying it fell back to initialize says the refusal was that one, its status read or not)
      (method === null && has('version-fallback') && (httpStatus === null || httpStatus === 400 || httpStatus === 404 || httpStatus === 405))
        ? ix.initializedAfter(span)
        : false,
    // (asked only where a rule reads it: it walks the server's lines)
    serverServedAfter: rootIsClosedStream && evs.some((e) => e.source === 'server') ? ix.serverServedAfter(span) : false,
    dependencyBackAt: has('dependency-unavailable') ? ix.dependencyBackAfter(span) : null,
    managerServedEarlier: signals.includes('session-manager-not-running') && httpPath !== null ? ix.workedEarlierSameProcess(span, httpPath) : null,
    rootIsClosedStream,
    sideEffect: cls.class,
    sideEffectSource: cls.source,
    toolHints: cls.hints,
    writeEvidence,
    writeDuplicated,
    taskPollRecovered,
    knownDefect,
    sessionWorkedBefore,
    resumedStream,
    nearShutdown: ix.shutdownNear(start) || ix.shutdownNear(end),
    drainingSince: drainingSince(evs, ix),
    quietBeforeMs: legacyConnectionFailed ? ix.quietBefore(span) : null,
    fellBackEarlier: legacyConnectionFailed && ix.fellBackEarlierInFile(span),
    streamCutEveryMs:
      httpMethod === 'GET' && method === null && tool === null && elapsedMs !== null
        ? (ix.repeatedStreamCuts(STREAM_CUT_MIN_MS).find((ms) => Math.abs(ms - elapsedMs) <= ms * 0.02) ?? null)
        : method === 'subscriptions/listen' && span.start !== null && span.end !== null
          ? (ix.repeatedListenCuts(STREAM_CUT_MIN_MS).find((ms) => Math.abs(ms - (span.end! - span.start!)) <= ms * 0.02) ?? null)
          : null,
    restartedSinceWorked,
    sameRequestWorkedAt,
    sessionHeldBefore,
    credentialSentAt: has('credentials-not-received') ? (ix.credentialShown(span)?.where ?? null) : null,
    ...(span.heldBurst && interruption === null
      ? {
          heldInTransit: true,
          heldKind: 'burst' as const,
          heldEvidence: `${span.heldBurst.count} progress events logged within ${span.heldBurst.spreadMs} ms, ${(span.heldBurst.waitedMs / 1000).toFixed(1)} s after the call was sent (${span.heldBurst.first.file}:${span.heldBurst.first.line})`,
        }
      : span.lateHeaders && (interruption === null || interruption === 'client-timeout')
        ? {
            heldInTransit: true,
            heldKind: 'late-headers' as const,
            heldEvidence: `its event-stream response reached the client after ${(span.lateHeaders.ms / 1000).toFixed(1)} s, where the same client's other streams opened in ${Math.round(span.lateHeaders.usualMs)} ms (${span.lateHeaders.line.file}:${span.lateHeaders.line.line})`,
          }
        : heldFacts(evs, interruption, clientTimeoutMs)),
  };
}

/** What a task poll is answered when the server no longer has the task (spec tasks: -32602 for an unknown or expired task). */
const TASK_LOST: readonly SignalCause[] = ['handle-unknown', 'invalid-params', 'object-not-found'];

type SignalTable = ReturnType<typeof signalTable>;

/**
 * An idempotency replay delivered (failure-signatures D7; triage-rules §6 "a server-supported idempotency key per its
 * contract"; IETF draft-ietf-httpapi-idempotency-key-header: a repeated key gets the first request's stored response):
 * the line where the server matched the repeat to a write that exists, and a client's line at or after it (its clock
 * within HELD_SLACK_MS) saying the call returned. The client line, or null.
 */
function duplicateAnsweredIn(evs: readonly Event[]): string | null {
  const t = table();
  const cause = (e: Event, c: string) => e.signals.some((id) => t.meaning(id)?.cause === c);
  const dup = evs.filter((e) => e.ts !== null && cause(e, 'duplicate-refused'));
  if (!dup.length) return null;
  const first = Math.min(...dup.map((e) => e.ts!));
  const ok = evs.find((e) => e.ts !== null && e.source !== 'server' && e.source !== 'proxy' && cause(e, 'call-succeeded') && e.ts >= first - HELD_SLACK_MS);
  return ok ? `${ok.file}:${ok.line}` : null;
}

/** Slack for two hosts' clocks when comparing a server line's time with a client line's. */
const HELD_SLACK_MS = 2000;
/** A line counting a part of a whole (`batch 3/12`, `chunk 2 of 5`) that is not the last part. */
export function partOfWhole(m: string): boolean {
  const x = /\b(?:batch|chunk|part|page|step|shard|segment)\s#?(\d{1,6})\s?(?:\/|of)\s?(\d{1,6})\b/i.exec(m);
  return x !== null && +x[1]! < +x[2]!;
}
/** A client's give-up that names its idle timer: no events (progress, data) came within it. */
const IDLE_WORDS = /\bidle\b|\bno (?:events?|progress|data|messages?)\b/i;

/**
 * Failure-signatures row 72 / D19: "client times out though server logged the response". The server's
 * own line that it finished this call (a completion or commit signal, or its access line with a 2xx),
 * against the client's timeout line.
 */
function heldFacts(
  evs: readonly Event[],
  interruption: Interruption,
  waitMs: number | null = null,
): { heldInTransit: Tri; heldEvidence: string | null; heldKind?: Facts['heldKind'] } {
  if (interruption !== 'client-timeout') return { heldInTransit: null, heldEvidence: null };
  const t = table();
  const gaveUp = evs
    .filter((e) => e.ts !== null && e.source !== 'server' && e.source !== 'proxy' && e.signals.some((id) => t.meaning(id)?.cause === 'client-timeout'))
    .map((e) => e.ts!);
  const done = evs.filter(
    (e) =>
      e.source === 'server' &&
      e.ts !== null &&
      ((e.signals.some((id) => t.meaning(id)?.outcome === 'completion') && !partOfWhole(e.message)) ||
        (e.httpStatus !== null && e.httpStatus >= 200 && e.httpStatus < 300 && e.httpMethod !== null)),
  );
  // the server wrote the call's events (progress) well inside the wait of a client that gave up for idleness
  // (`idle timeout after 60s (no progress)`, `no events within idle timeout`): what it sent never reached the
  // client, so something between them held the stream (failure-signatures row 72, D19)
  // (the words may be on the give-up's own line or on the line the client wrote just before it raised: `no message for
  // id=10 in 30000ms; aborting request`, then `McpError: … Request timed out`)
  const callerSide = (e: Event) => e.source !== 'server' && e.source !== 'proxy';
  // (the server's lines, or those of a log of unknown side other than the one that gave up: the other end of the call)
  const callerFiles = new Set(evs.filter((e) => e.source === 'client').map((e) => e.file));
  const otherEnd = (e: Event) => e.source === 'server' || (e.source === 'unknown' && !callerFiles.has(e.file));
  const timedOut = evs.filter((e) => callerSide(e) && e.signals.some((id) => t.meaning(id)?.cause === 'client-timeout'));
  const idleGiveUp =
    timedOut.some((e) => IDLE_WORDS.test(e.text.slice(0, 4000))) ||
    (timedOut.length > 0 &&
      evs.some((e) => callerSide(e) && timedOut.some((x) => x.file === e.file && x.line > e.line && x.line - e.endLine <= 3) && IDLE_WORDS.test(e.text.slice(0, 4000))));
  // (a caller whose stamps put its give-up less than half its stated wait after its first line of the call was not
  // stamped as it wrote: a collector that read a buffered log at once, a paste stamped on arrival — its clock says
  // nothing, and the untimed reading below applies)
  const callerStart = Math.min(...evs.filter((e) => e.ts !== null && callerSide(e)).map((e) => e.ts!));
  const clockTrusted = !gaveUp.length || waitMs === null || Math.min(...gaveUp) - callerStart >= waitMs / 2;
  if (idleGiveUp && gaveUp.length && clockTrusted) {
    const start = Math.min(...evs.filter((e) => e.ts !== null).map((e) => e.ts!));
    const sent = evs.find(
      (e) => otherEnd(e) && e.ts !== null && e.ts > start && e.ts < Math.min(...gaveUp) - HELD_SLACK_MS && e.signals.some((id) => t.meaning(id)?.cause === 'progress'),
    );
    if (sent) return { heldInTransit: true, heldEvidence: `${sent.file}:${sent.line}`, heldKind: 'events-not-delivered' };
  }
  // (a caller's log with no clock — a terminal's debug output — that gave up for idleness after the wait it states:
  // the other end's own clock says it wrote the call's progress within that wait from the call's start, so the
  // events existed while the client heard nothing)
  if (idleGiveUp && (!gaveUp.length || !clockTrusted) && waitMs !== null) {
    const theirs = evs.filter((e) => otherEnd(e) && e.ts !== null);
    const start = theirs.length ? Math.min(...theirs.map((e) => e.ts!)) : null;
    const sent =
      start === null ? undefined : theirs.find((e) => e.ts! > start && e.ts! < start + waitMs - HELD_SLACK_MS && e.signals.some((id) => t.meaning(id)?.cause === 'progress'));
    if (sent) return { heldInTransit: true, heldEvidence: `${sent.file}:${sent.line}`, heldKind: 'events-not-delivered' };
  }
  if (!gaveUp.length || !done.length || !clockTrusted) return { heldInTransit: null, heldEvidence: null };
  const first = done.reduce((a, b) => (b.ts! < a.ts! ? b : a));
  const held = Math.min(...gaveUp) - first.ts! > HELD_SLACK_MS;
  return { heldInTransit: held, heldEvidence: held ? `${first.file}:${first.line}` : null, heldKind: held ? 'finished-first' : null };
}

/**
 * The client's own line (timed, one file, one clock) that says `cause`, and the line that started its call:
 * the call's earliest line before it in that file within the span, or (given the index and the tool) the
 * file's last line before it that named the same tool — `Calling MCP tool: x` may stay a span of its own
 * when the failure line names the tool again.
 */
function waitSpan(evs: readonly Event[], cause: SignalCause, ix?: IncidentIndex, tool?: string | null): { out: Event; first: Event } | null {
  const t = table();
  const out = evs.find((e) => e.ts !== null && e.source !== 'server' && e.source !== 'proxy' && e.signals.some((id) => t.meaning(id)?.cause === cause));
  if (!out) return null;
  let first: Event | null = null;
  for (const e of evs)
    if (e.file === out.file && e.ts !== null && e.line < out.line && (e.rpcMethod !== null || e.tool !== null || e.httpMethod !== null) && (first === null || e.line < first.line))
      first = e;
  const opened = ix && tool ? ix.toolNamedBefore(out, tool) : null;
  if (opened && opened.ts !== null && (first === null || opened.line < first.line)) first = opened;
  return first ? { out, first } : null;
}

/**
 * undici gives up connecting after 10 s (its connect timeout); a bare `fetch failed` logged well after
 * the call started came while waiting for the answer (undici's 300 s headers/body timers), not at connect.
 */
const CONNECT_GIVES_UP_MS = 15_000;

/** undici's default `headersTimeout` and `bodyTimeout` (undici docs, Client options): Node's fetch gives up after this. */
const UNDICI_TIMER_MS = 300_000;

/** How long the client waited from the start of its call to its first line with this cause (0 when not timed). */
function waitedBefore(evs: readonly Event[], cause: SignalCause, ix: IncidentIndex, tool: string | null): number {
  const w = waitSpan(evs, cause, ix, tool);
  return w ? Math.max(0, w.out.ts! - w.first.ts!) : 0;
}

/**
 * How long the client waited before its own timeout fired, when no line states the setting: from the
 * first line of the call in the file that timed out to the timeout line (section (c): the elapsed time is
 * the fingerprint of the timer). Only a client's own lines, one file, one clock.
 */
function measuredWait(evs: readonly Event[], ix: IncidentIndex): number | null {
  let w = waitSpan(evs, 'client-timeout');
  if (!w) {
    // httpcore's own trace pair: the step that failed with the timeout started on a line of its own
    // (`receive_response_headers.started` … `.failed exception=ReadTimeout`), which names no call
    const t = table();
    const out = evs.find((e) => e.ts !== null && e.source !== 'server' && e.source !== 'proxy' && e.signals.some((id) => t.meaning(id)?.cause === 'client-timeout'));
    const first = out ? ix.traceStarted(out) : null;
    if (out && first?.ts != null) w = { out, first };
  }
  if (!w) return null;
  const ms = w.out.ts! - w.first.ts!;
  // under 100 ms is not a timer at all (a line logged twice); a day is not one call
  return ms >= 100 && ms <= 86_400_000 ? ms : null;
}

// (a refusal of the credentials or the rate is not about the URL; the failure must be the misrouted request or
// follow it in that file)
function misresolvedEndpoint(incident: readonly Event[], evs: readonly Event[], httpPath: string | null, httpStatus: number | null): string | null {
  if (httpStatus === 401 || httpStatus === 403 || httpStatus === 407 || httpStatus === 429) return null;
  const m = endpointMisresolutions(incident).find((x) => (httpPath !== null && stripQuery(httpPath) === x.usedPath) || evs.some((e) => e.file === x.file && e.line >= x.usedLine));
  return m ? `${m.usedAt}: the request went to ${m.usedPath}, but the endpoint event (${m.announcedAt}) named ${m.announced}, which resolves to ${m.expectedPath}` : null;
}

function sameFileBefore(e: Event, span: SpanBuild): boolean {
  return span.events.some((x) => x.file === e.file && e.line < x.line);
}

/**
 * Whether the request carried a session id, from the lines that describe the request: a client's
 * exchange line, a server's "incoming request", a proxy access line (request headers). A line
 * about the response (a session header the server set) says nothing about it. Unknown when no
 * line shows the request.
 */
function sessionSentFact(evs: readonly Event[], method: string | null, session: string | null, has: (c: SignalCause) => boolean): Tri {
  // a legacy SSE connect (GET of the event stream) never carries a session id: the session comes from it
  if (has('sse-connect-rejected')) return false;
  // the client's own error prints the id it sent as a placeholder or empty: none was sent
  if (has('session-none-sent')) return false;
  // the server looked up a session it received — unless the words are the client's own for any 404 (the
  // Go SDK's `(session ID: ): session not found` says both, and its empty id says none was sent)
  if (has('session-unknown') && !has('session-missing') && !has('session-terminated-client')) return true;
  // an initialize carries no session id — unless the client's own line of the request shows one (a client that
  // re-sends initialize on its old session, failure-signatures row 54); an answer's line is not the request's
  if (method === 'initialize')
    return evs.some(
      (e) => (e.source === 'client' || e.source === 'unknown') && e.attrs.direction !== 'response' && e.httpMethod !== null && e.httpStatus === null && e.session !== null,
    );
  // the client's own word that it sent the session it holds (`Using existing session ID …`)
  if (has('session-attached')) return true;
  if (has('session-missing') && !has('session-unknown')) return false;
  if (has('session-unknown')) return true;
  // (a log whose side is not known reads like a client's when it prints the request it sends)
  const describesRequest = (e: Event) =>
    e.attrs.direction !== 'response' &&
    e.httpMethod !== null &&
    (e.source === 'client' || e.source === 'unknown' || e.source === 'proxy' || (e.source === 'server' && e.httpStatus === null));
  const requestLines = evs.filter(describesRequest);
  if (requestLines.some((e) => e.session !== null)) return true;
  // an exchange line that prints the header and shows it empty (`mcp-session-id=-`)
  if (requestLines.some((e) => /\bmcp-session-id[=:] ?(?:-|""|none|null)(?:\s|$)/i.test(e.text))) return false;
  if (requestLines.some((e) => e.httpPath !== null && /[?&]session_?[iI]d=/.test(e.httpPath))) return true;
  // a URL whose query carries the session (the legacy message endpoint) is the request's, whatever line quotes it
  if (evs.some((e) => e.source !== 'server' && e.session !== null && e.httpPath !== null && /[?&]session_?[iI]d=/.test(e.text))) return true;
  if (!requestLines.length && session !== null && evs.some((e) => e.source === 'server' && e.session !== null && e.signals.length)) return true;
  // the TypeScript SDK's StreamableHTTPClientTransport reporting the answer to its POST (`Error POSTing to
  // endpoint`): it sends the Mcp-Session-Id the server gave it on every request after initialize
  // (client/streamableHttp.ts _commonHeaders), so a server's "no valid session id" there is an id it did not
  // know (sdk-behaviour 13: reinitialize), not a missing one
  if (has('session-invalid') && evs.some((e) => e.source !== 'server' && SDK_CLIENT_POST.test(e.text))) return true;
  return null;
}
/** Methods a server that declares the capability implements (spec server/prompts, server/resources, server/tools), by family. */
const CAPABILITY_METHODS = new Map([
  ['prompts/list', 'prompts/'],
  ['prompts/get', 'prompts/'],
  ['resources/list', 'resources/'],
  ['resources/read', 'resources/'],
  ['tools/list', 'tools/'],
  ['tools/call', 'tools/'],
]);
const SDK_CLIENT_POST = /\bError POSTing to endpoint\b/;

/** The URL the client aimed at: from a line naming scheme://host:port (a client exchange, "connecting to …", "for url '…'"). */
function targetOf(evs: readonly Event[]): Facts['target'] {
  for (const e of evs) {
    const host = e.attrs.targetHost;
    if (typeof host === 'string' && host) {
      const port = e.attrs.targetPort;
      return { scheme: typeof e.attrs.targetScheme === 'string' ? e.attrs.targetScheme : null, host, port: port === undefined || port === null ? null : Number(port) };
    }
  }
  for (const e of evs) {
    if (e.source !== 'client' && e.source !== 'unknown') continue;
    // (an HTML page quoted in the error is the answer: its DOCTYPE and namespace URLs are not where the request went)
    const page = e.text.search(/<!DOCTYPE|<html[\s>]/i);
    const text = page >= 0 ? e.text.slice(0, page) : e.text;
    const m = /\b(https?):\/\/(\[[0-9a-f:]{2,39}\]|[\w.-]{1,253})(?::(\d{1,5}))?/i.exec(text);
    if (m) return { scheme: m[1]!.toLowerCase(), host: m[2]!, port: m[3] ? Number(m[3]) : null };
    const c = /\bconnect (?:ECONNREFUSED|ETIMEDOUT) (\[?[\w.:]{2,60}?\]?):(\d{1,5})\b/.exec(text);
    if (c) return { scheme: null, host: c[1]!, port: Number(c[2]) };
  }
  return null;
}

/** What replicaFacts reads of one session, the same for every failure in it: worked out once per incident. */
interface SessionReplicas {
  serverEvents: readonly Event[];
  /** The replicas the session's server lines name. */
  serverIds: readonly string[];
  creator: Event | undefined;
  /** The session's server lines that reject it, in order. */
  rejecters: readonly Event[];
  /** The session's proxy lines that name their upstream. */
  proxy: readonly Event[];
  /** Those upstreams, as replica ids (`upstream ADDR`). */
  proxyIds: ReadonlySet<string>;
  okUp: ReadonlySet<string>;
}

/**
 * A line of the server's side of a session: the server's log, or a line of a log of another side (a
 * gateway holds sessions too) that a deployment prefix named by pod or replica (kubectl --prefix,
 * compose). A client's replicas are not the server's.
 */
export const servedSide = (e: Event) => e.source === 'server' || (e.source !== 'client' && typeof e.attrs.origin === 'string' && e.attrs.origin !== '');
/** A session used on one replica and rejected by another this soon after: both were up at once, not a rollout. */
export const BOTH_UP_MS = 10_000;
export const BOTH_UP_LINES = 12;
const sessionReplicas = new WeakMap<IncidentIndex, Map<string, SessionReplicas>>();

function replicasOfSession(ix: IncidentIndex, session: string): SessionReplicas {
  let bySession = sessionReplicas.get(ix);
  if (!bySession) sessionReplicas.set(ix, (bySession = new Map()));
  const known = bySession.get(session);
  if (known) return known;
  const sessionEvents = ix.sessionEvents(session);
  const serverEvents = sessionEvents.filter(servedSide);
  const serverIds = new Set<string>();
  for (const e of serverEvents) {
    const r = replicaOf(e);
    serverIds.add(r.host ?? (r.pid ? `pid ${r.pid}` : r.file));
  }
  const isCreate = (e: Event) => e.signals.some((id) => table().meaning(id)?.cause === 'session-created');
  const proxy = sessionEvents.filter((e) => e.source === 'proxy' && replicaOf(e).upstream);
  const out: SessionReplicas = {
    serverEvents,
    serverIds: [...serverIds],
    // (the first by time: a second log's line of the same creation — a gateway's "upstream session established", a
    // log whose side its name does not say — comes after the server's own)
    creator: serverEvents.filter(isCreate).reduce<Event | undefined>((a, e) => (a === undefined || (e.ts !== null && (a.ts === null || e.ts < a.ts)) ? e : a), undefined),
    rejecters: serverEvents.filter(isReject),
    proxy,
    proxyIds: new Set(proxy.map((e) => `upstream ${replicaOf(e).upstream}`)),
    okUp: new Set(proxy.filter((e) => e.httpStatus !== null && e.httpStatus < 400).map((e) => replicaOf(e).upstream!)),
  };
  bySession.set(session, out);
  return out;
}

const isReject = (e: Event) =>
  e.signals.some((id) => {
    const c = table().meaning(id)?.cause;
    return c === 'session-unknown' || c === 'session-invalid' || c === 'server-not-initialized';
  });

function replicaFacts(span: SpanBuild, session: string | null, ix: IncidentIndex, evs: readonly Event[]): { replicas: string[]; replicaSplit: Tri } {
  if (!session) return { replicas: [], replicaSplit: null };
  const { serverEvents, serverIds, creator, rejecters, proxy, proxyIds, okUp } = replicasOfSession(ix, session);
  const ids = new Set<string>(serverIds);
  let split: Tri = null;
  // (the first rejection from the request's start on: a gateway's "upstream error: Session not found" relays what the
  // server said a moment before, and is no second replica; untimed, the request's own line as before)
  const laterThanStart = (e: Event) => span.start === null || e.ts === null || e.ts >= span.start;
  const candidates = [...evs.filter((e) => servedSide(e) && isReject(e)), ...rejecters.filter(laterThanStart)];
  const rejecter = candidates.reduce<Event | undefined>((a, e) => (a === undefined || (e.ts !== null && a.ts !== null && e.ts < a.ts) ? e : a), undefined);
  // the first line of the rejecter's kind (a gateway's pods, the server's) that used the session without rejecting it
  const knower = !creator && rejecter ? serverEvents.find((e) => e.source === rejecter.source && !isReject(e) && !isFailureEvent(e)) : undefined;
  if (knower && rejecter) {
    // no creation logged: a named replica used the session and another named one rejected it moments
    // later (a pod replaced in a rollout takes longer than this to start)
    const a = replicaOf(knower);
    const b = replicaOf(rejecter);
    // (no times: a few lines apart in one log, no start or stop between them)
    const soon =
      knower.ts !== null && rejecter.ts !== null
        ? rejecter.ts >= knower.ts && rejecter.ts - knower.ts <= BOTH_UP_MS
        : knower.file === rejecter.file && rejecter.line > knower.line && rejecter.line - knower.line <= BOTH_UP_LINES && !ix.restartBetween(knower, rejecter);
    if (a.host && b.host && a.host !== b.host && soon) split = true;
  }
  if (creator && rejecter) {
    const a = replicaOf(creator);
    const b = replicaOf(rejecter);
    // a new pid on the same host, or after a start line, is a restart; different hosts (or files
    // without hosts) that both served are replicas
    if (a.host && b.host && a.host !== b.host) split = true;
    // one host (or none named): two processes are replicas unless one is the other restarted — in one
    // file a start or shutdown line between them says restart; two files are two processes at once
    else if (a.pid && b.pid && a.pid !== b.pid) split = a.file !== b.file ? true : !ix.restartBetween(creator, rejecter);
    // (two files naming neither: another process — unless a server restart is logged between the creation and the
    // rejection, which explains the loss without a second replica: the rejection may be a relay's line of it)
    else split = a.file !== b.file && !ix.restartWithin(creator, rejecter);
  }
  // the proxy's upstream address: the session was served by one upstream and rejected by another
  if (split === null && proxy.length) {
    const bad = evs.find((e) => e.source === 'proxy' && e.httpStatus !== null && e.httpStatus >= 400 && replicaOf(e).upstream);
    for (const x of proxyIds) ids.add(x);
    if (bad && okUp.size && !okUp.has(replicaOf(bad).upstream!) && (bad.httpStatus === 404 || bad.httpStatus === 400 || bad.httpStatus === 401)) split = true;
  }
  if (split === null && ids.size > 1 && evs.some((e) => e.signals.some((id) => table().meaning(id)?.cause === 'server-not-initialized'))) split = true;

  return { replicas: [...ids].sort(), replicaSplit: split };
}

/**
 * Evidence that the client resumed a cut POST stream (D9): a GET of the same session, after the request started,
 * that carried Last-Event-ID and got a 2xx — and no client line of this request failed after it (the report of
 * the disconnect comes before the resume; a resumption that did not deliver ends in a later timeout or error).
 */
function resumedAfterCut(span: SpanBuild, sessionEvents: readonly Event[]): string | null {
  if (span.session === null) return null;
  // after the request started: by time, or (a log without times) later in one of its files
  const after = (e: Event) => (e.ts !== null && span.start !== null ? e.ts > span.start : span.events.some((x) => x.file === e.file && x.line < e.line));
  for (const e of sessionEvents) {
    if (e.httpMethod !== 'GET' || !after(e)) continue;
    if (e.httpStatus === null || e.httpStatus < 200 || e.httpStatus >= 300) continue;
    if (!e.signals.some((id) => table().meaning(id)?.cause === 'stream-resumed')) continue;
    const failedAfter = span.events.some(
      (x) => x.source === 'client' && isFailureEvent(x) && (x.ts !== null && e.ts !== null ? x.ts > e.ts : x.file === e.file && x.line > e.line),
    );
    if (failedAfter) return null;
    return `${e.file}:${e.line}, GET with Last-Event-ID → HTTP ${e.httpStatus}`;
  }
  return null;
}
