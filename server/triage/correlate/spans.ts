// Join events into logical requests. Every join records the key that made it; time alone
// joins only together with status (and session/path when both sides have them), and says so.
import type { Event, RpcId, Source } from '../../../parsers/contract/event.ts';
import { CANCELLED } from '../../../parsers/engine/enrich.ts';
import { signalTable } from '../../../parsers/engine/signals.ts';
import { isFailureEvent } from '../classify/facts.ts';
import { stripQuery } from './path.ts';

/**
 * A notification about a request, not a method of its own: one logged with an id (the id is the request it is about —
 * a cancellation's, a progress report's), and any progress report (spec basic/utilities/progress: it carries the
 * progressToken of the request it reports on, and comes while that request runs).
 */
const aboutRequest = (e: Event) => e.rpcMethod !== null && (e.rpcMethod === 'notifications/progress' || (e.rpcId !== null && e.rpcMethod.startsWith('notifications/')));

const JOIN_KEYS = [
  'session+rpcId',
  'x-request-id',
  'rpcId',
  'method+path+status+time',
  'adjacent-lines',
  'proxy-error+access+time',
  'proxy-error+client+time',
  'method+path+status+bytes+time',
  'tool-name+order',
  'method+path+status+order',
  'task-id',
  'method+time',
  'proxy-start+server-call',
  'worker-pid',
  'proxy-named-call+time',
  'in-flight',
  'stream-cut+time',
] as const;
/** A call's lines in the client's and the server's log: two clocks apart by up to this. */
const CROSS_FILE_CALL_MS = 60_000;
/** The methods that poll or end a task by its handle (spec basic/utilities/tasks). */
const TASK_METHODS = new Set(['tasks/get', 'tasks/result', 'tasks/cancel']);
/** A task's polls come at its poll interval, for as long as the task runs (its ttl): within this of the last line naming it. */
const TASK_POLL_MS = 3_600_000;
/** The only call with one JSON-RPC id and tool in each of two logs: one call, if their clocks put them within this. */
const ONE_CALL_MS = 3_600_000;
export type JoinKey = (typeof JOIN_KEYS)[number];
/** One bit per join key: which keys joined an event, in one small number per event. */
const JOIN_BIT = new Map<JoinKey, number>(JOIN_KEYS.map((k, b) => [k, 1 << b]));

/**
 * Lines about the optional channels — the standalone GET stream, the session DELETE on close (the Python
 * SDK's `Session termination failed: 405`): they never belong to a POST exchange logged just before them.
 */
export const STREAM_NOISE =
  /SSE stream disconnected|Failed to open SSE stream|Failed to reconnect SSE stream|Maximum reconnection attempts|GET stream (?:disconnected|error)|Failed to reconnect:|Session termination failed|Error reading from async stream/;

/**
 * The process that wrote an event, where its file interleaves several and its gutter named it: a pod or compose
 * service (`[pod/x/app] `, `api-1  | `: attrs.container) or a collector's writer (attrs.origin); null otherwise.
 */
export const writerOf = (e: Event): string | null =>
  typeof e.attrs.origin === 'string' && e.attrs.origin !== '' ? e.attrs.origin : typeof e.attrs.container === 'string' && e.attrs.container !== '' ? e.attrs.container : null;

// A replica's own suffix on its workload's name: a Deployment's pod (`-<pod-template-hash>-<5>`), a DaemonSet's or
// bare ReplicaSet's (`-<5>`), both from Kubernetes' vowel-free alphabet (apimachinery rand.SafeEncodeString:
// `bcdfghjklmnpqrstvwxz2456789`), a StatefulSet's ordinal or a compose replica (`-0`, `-1`, `_2`), a dyno (`web.2`).
const REPLICA_SUFFIX = /^(.+?)(?:-[bcdfghjklmnpqrstvwxz2456789]{6,10}-[bcdfghjklmnpqrstvwxz2456789]{5}|-[bcdfghjklmnpqrstvwxz2456789]{5}|[-_.]\d{1,3})$/;
const workloadOf = (writer: string): string => {
  const slash = writer.indexOf('/');
  const name = slash < 0 ? writer : writer.slice(0, slash);
  return (REPLICA_SUFFIX.exec(name)?.[1] ?? name) + (slash < 0 ? '' : writer.slice(slash));
};
/**
 * Two writers that are replicas of one workload (two pods of a Deployment, `app-1` and `app-2`): parallel
 * processes doing the same job, so a line of one is never the other's request or outcome. Two different services
 * in one file (a proxy's container and the app's) may well be the two ends of one exchange: not replicas.
 */
export const replicaWriters = (a: string | null, b: string | null): boolean => a !== null && b !== null && a !== b && workloadOf(a) === workloadOf(b);

/** The exchange such a note may join: the DELETE for a termination note, the GET stream for the others. */
export const noteJoins = (message: string, httpMethod: string | null): boolean => httpMethod === (message.includes('Session termination failed') ? 'DELETE' : 'GET');

/** A host-app line about one tool call ("Error calling tool create_order: …"); group 1 is the tool. */
/** A JSON-RPC response as a line quotes it: the Python SDK's repr, or the object with its result or error member. */
const JSONRPC_RESPONSE = /\bJSONRPC(?:Response|Error)\(|"jsonrpc"\s?:\s?"2\.0"[^\n]{0,200}?"(?:result|error)"\s?:|"(?:result|error)"\s?:[^\n]{0,4000}?"jsonrpc"\s?:\s?"2\.0"/;
const TOOL_CALL_ERROR = /\b(?:calling|call(?:ing)? to|invoking|executing) tool[: ]+["'`]?([\w.-]+)/i;

export interface SpanBuild {
  id: number;
  events: Event[];
  joinedBy: Set<JoinKey>;
  rpcId: RpcId | null;
  method: string | null;
  tool: string | null;
  session: string | null;
  sources: Source[];
  start: number | null;
  end: number | null;
  /** The line saying the client process shut down while this call still waited for its answer. */
  stoppedBy?: Event;
  /** The last line of a client log that ends with this call still waiting, when nothing else failed. */
  endedWaiting?: Event;
  /** Progress events of this call that the client logged all at once, long after sending it (row 72). */
  heldBurst?: { count: number; spreadMs: number; waitedMs: number; first: Event };
  /** This call's event-stream headers reached the client only after this long, while the same client's other streams opened at once (row 72). */
  lateHeaders?: { ms: number; usualMs: number; line: Event };
}

export interface CorrelateOptions {
  /** How far apart two lines of one exchange may be logged (after skew). */
  windowMs?: number;
}

/**
 * Union-find with a cannot-link guard: two groups never merge when they hold different request
 * ids, different RPC methods or different tools — they are then two exchanges, whatever a weaker
 * key (a reused rpc id, a time window) says. So a group holds one request id, one method and one
 * tool at most (each event has at most one, and only groups that agree merge): one string or null each.
 */
class UnionFind {
  parent: number[];
  private reqIds: (string | null)[];
  /** Every request id of a group's lines, by file: two different ids in one log are two exchanges. */
  private localReqIds: (Set<string> | null)[];
  private methods: (string | null)[];
  private tools: (string | null)[];
  /** A client's exchange line says how its request ended: two different endings are two requests. */
  private outcomes: (Set<string> | null)[];
  /**
   * The JSON-RPC ids a group's lines carry, by file: two different ids in one log are two requests (a host's own
   * request id — a web framework's per-turn id — is on every line of a turn that made several calls). Across
   * files an id may be renumbered (a gateway), so only ids of the same file clash.
   */
  private rpcIds: (Set<string> | null)[];
  constructor(events: readonly Event[], sharedId: (e: Event) => string | null) {
    const n = events.length;
    this.parent = Array.from({ length: n }, (_, i) => i);
    // (only an id more than one log carries names one exchange across logs; one that a single log keeps — a web
    // framework's id for its own inbound request — still parts that log's lines, by file, below)
    this.reqIds = events.map(sharedId);
    this.localReqIds = events.map((e) => (e.requestId ? new Set([`${e.file}\u0000${e.requestId}`]) : null));
    // a cancellation that names the request it cancels (enrich gives it that id) belongs to that request's span
    // (and a task's polls belong to the call that created the task: tasks/get is no method of its own there)
    // (any notification logged with an id names the request it is about — JSON-RPC notifications have no id of
    // their own: `notifications/progress id=42 progress=1` is call 42's progress, not a method of its own)
    this.methods = events.map((e) => (aboutRequest(e) || TASK_METHODS.has(e.rpcMethod ?? '') ? null : e.rpcMethod || null));
    this.tools = events.map((e) => e.tool || null);
    this.outcomes = events.map((e) =>
      e.source === 'client' && e.httpMethod !== null && e.httpStatus !== null ? new Set([`${e.file}\u0000${e.httpMethod} ${e.httpStatus}`]) : null,
    );
    // (only a line that names the call it is about — its method or tool — asserts its id: a bare `"id"` may be the
    // log record's own; a cancellation carries the id of the request it cancels, and a task's polls have ids of their
    // own while belonging to the call that created the task)
    this.rpcIds = events.map((e) =>
      e.rpcId !== null && (e.tool !== null || (e.rpcMethod !== null && e.rpcMethod !== CANCELLED && !TASK_METHODS.has(e.rpcMethod)))
        ? new Set([`${e.file}\u0000${JSON.stringify(e.rpcId)}`])
        : null,
    );
  }
  canJoin(a: number, b: number): boolean {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra === rb) return true;
    return this.rootsCompatible(ra, rb);
  }
  /** The request id of root `r`'s group, or null. */
  requestIdOf(r: number): string | null {
    return this.reqIds[r]!;
  }
  /** canJoin for two distinct roots. */
  rootsCompatible(ra: number, rb: number): boolean {
    return (
      !clash(this.reqIds[ra]!, this.reqIds[rb]!) &&
      !clashInFile(this.localReqIds[ra]!, this.localReqIds[rb]!) &&
      !clash(this.methods[ra]!, this.methods[rb]!) &&
      !clash(this.tools[ra]!, this.tools[rb]!) &&
      !clashInFile(this.outcomes[ra]!, this.outcomes[rb]!) &&
      !clashInFile(this.rpcIds[ra]!, this.rpcIds[rb]!)
    );
  }
  find(i: number): number {
    while (this.parent[i] !== i) {
      this.parent[i] = this.parent[this.parent[i]!]!;
      i = this.parent[i]!;
    }
    return i;
  }
  /** Joins and returns true, or refuses (cannot-link) and returns false. */
  union(a: number, b: number): boolean {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra === rb) return true;
    if (!this.canJoin(ra, rb)) return false;
    const [lo, hi] = ra < rb ? [ra, rb] : [rb, ra];
    this.parent[hi] = lo;
    this.reqIds[lo] ??= this.reqIds[hi]!;
    this.methods[lo] ??= this.methods[hi]!;
    this.tools[lo] ??= this.tools[hi]!;
    merge(this.outcomes, lo, hi);
    merge(this.rpcIds, lo, hi);
    merge(this.localReqIds, lo, hi);
    return true;
  }
}

// Module-level (not closures in the hot path): two groups clash when both hold a value and they differ.
function clash(x: string | null, y: string | null): boolean {
  return x !== null && y !== null && x !== y;
}

/** Two groups each holding a client exchange line of the same file with different endings. */
function clashInFile(x: Set<string> | null, y: Set<string> | null): boolean {
  if (!x || !y) return false;
  for (const a of x) {
    const file = a.slice(0, a.indexOf('\u0000'));
    for (const b of y) if (b.startsWith(file + '\u0000') && b !== a) return true;
  }
  return false;
}

function merge(arr: (Set<string> | null)[], lo: number, hi: number): void {
  const x = arr[lo]!;
  const y = arr[hi]!;
  if (!x || !y) arr[lo] = x ?? y;
  else if (x.size >= y.size) for (const v of y) x.add(v);
  else {
    for (const v of x) y.add(v);
    arr[lo] = y;
  }
}

export function buildSpans(events: readonly Event[], opts: CorrelateOptions = {}): SpanBuild[] {
  const windowMs = opts.windowMs ?? 2000;
  /** The longest a call may run (hosts allow tools up to 10 minutes) before its cancellation or its end is logged. */
  const LONG_CALL_MS = 15 * 60_000;
  // request ids carried by more than one log: the ones that name an exchange across logs
  const filesOfId = new Map<string, string>(); // id → its first file, or '' once a second file carries it
  for (const e of events) {
    if (!e.requestId) continue;
    const f = filesOfId.get(e.requestId);
    if (f === undefined) filesOfId.set(e.requestId, e.file);
    else if (f !== '' && f !== e.file) filesOfId.set(e.requestId, '');
  }
  const sharedId = (e: Event): string | null => (e.requestId && filesOfId.get(e.requestId) === '' ? e.requestId : null);
  const uf = new UnionFind(events, sharedId);
  const edges = new Uint16Array(events.length); // event index → keys that joined it (JOIN_BIT)
  const X_REQUEST_ID = JOIN_BIT.get('x-request-id')!;
  const mark = (i: number, k: JoinKey) => {
    edges[i]! |= JOIN_BIT.get(k)!;
  };
  const join = (i: number, j: number, k: JoinKey): boolean => {
    if (!uf.union(i, j)) return false;
    mark(i, k);
    mark(j, k);
    return true;
  };
  const byKey = (keyOf: (e: Event) => string | null, key: JoinKey) => {
    const seen = new Map<string, number[]>();
    events.forEach((e, i) => {
      const k = keyOf(e);
      if (k === null) return;
      const prev = seen.get(k);
      if (!prev) {
        seen.set(k, [i]);
        return;
      }
      // join the latest earlier event of that key that is compatible (ids can be reused by a new client)
      for (let p = prev.length - 1; p >= 0; p--) if (join(i, prev[p]!, key)) break;
      prev.push(i);
    });
  };
  // Strongest first: the proxy's request id is unique per HTTP exchange.
  byKey((e) => e.requestId, 'x-request-id');
  // A task-augmented call, its tasks/get polls and the server's lines about the task: one piece of work, by its handle
  // (enrich.ts TASK_ID; the polls are separate HTTP exchanges and JSON-RPC requests)
  byKey((e) => (typeof e.attrs.taskId === 'string' ? `task\u0000${e.attrs.taskId}` : null), 'task-id');
  // Ids restart per session (and per client object), so the session is part of the key and the guard keeps methods apart.
  byKey((e) => (e.session && e.rpcId !== null ? `${e.session}\u0000${JSON.stringify(e.rpcId)}` : null), 'session+rpcId');
  // Before a session exists (initialize) or in sessionless eras: the same rpc id in the same file, close in time.
  const lastByFileRpc = new Map<string, number>();
  const toolByFileRpc = new Map<string, string>();
  const initializedAt = new Map<string, number>(); // per file, the latest initialize: ids restart after it
  events.forEach((e, i) => {
    if (e.rpcMethod === 'initialize') initializedAt.set(e.file, i);
    if (e.rpcId === null || e.session) return;
    const k = `${e.file}\u0000${JSON.stringify(e.rpcId)}`;
    const j = lastByFileRpc.get(k);
    // (a cancellation comes when the client gives up — after its timeout, minutes later — and names the id it gives
    // up; a long call's start and end lines name the same id and tool minutes apart — unless a new initialize came
    // between them: a reconnected client counts its ids again, and the same id and tool is the call made again)
    // (a progress line naming the id comes while the call runs, however long: spec basic/utilities/progress)
    // (nor is a string id a client minted — `db-5532`, `obs-5`, UUIDs — counted again within a file: the line that
    // answers it minutes later, a proxy's 524 after 100 s, is the same call's; spec basic: ids are the client's to choose
    // and must not repeat within a session, and 2026-07-28 has no sessions to restart them)
    const minted = typeof e.rpcId === 'string' && /[A-Za-z]/.test(e.rpcId) && /\d/.test(e.rpcId);
    // (nor a failure naming only the id, after a request of that id: the call's failing answer, which names its request
    // by the id alone — spec basic: a response carries its request's id — however long the call took: `<- id=88
    // isError=true …` 30 s on; a line that only says an id was answered, minutes on, may be another client object's)
    const prev = j === undefined ? null : events[j]!;
    // (or the JSON-RPC response itself, its result or error object: `SSE message: root=JSONRPCResponse(…, id=8, result={…})`)
    const answer =
      prev !== null &&
      e.rpcMethod === null &&
      e.tool === null &&
      (isFailureEvent(e) || JSONRPC_RESPONSE.test(e.message)) &&
      prev.rpcMethod !== null &&
      !prev.rpcMethod.startsWith('notifications/');
    const long =
      (e.rpcMethod === CANCELLED || (e.tool !== null && e.tool === toolByFileRpc.get(k)) || e.signals.includes('progress-notification') || minted || answer) &&
      (j === undefined || (initializedAt.get(e.file) ?? -1) < j);
    if (j !== undefined && near(events[j]!, e, long ? LONG_CALL_MS : windowMs * 5)) join(i, j, 'rpcId');
    lastByFileRpc.set(k, i);
    if (e.tool !== null) toolByFileRpc.set(k, e.tool);
  });
  const indexed = events.map((e, i) => [e, i] as const);
  oneIdTwoNames(events, indexed, uf, join);
  // One call in the client's log and the server's, with no session to key it (2026-07-28, or logs that
  // print none): the same JSON-RPC id and the same tool, within a minute (two clocks), and no other file
  // on either side with that pair in that window. Ids restart per client: the tool and the uniqueness
  // make it one call. Untimed, only a pair that occurs once on each side.
  const byRpcTool = new Map<string, (readonly [Event, number])[]>();
  // (an MCP gateway's own log names the JSON-RPC ids and tools it forwards: a proxy's line with both is one of them;
  // an HTTP proxy's access line names neither)
  // (a call with no tool — resources/read, prompts/get, tasks — pairs by its method in the tool's place; never
  // initialize, whose id every client starts from, nor a notification, which has no id of its own)
  for (const [e, i] of indexed) {
    if (e.rpcId === null) continue;
    const what =
      e.tool ??
      (e.rpcMethod !== null && e.rpcMethod !== 'initialize' && e.rpcMethod !== 'tools/call' && !e.rpcMethod.startsWith('notifications/') ? `method:${e.rpcMethod}` : null);
    if (what === null) continue;
    const k = `${JSON.stringify(e.rpcId)}\u0000${what}`;
    (byRpcTool.get(k) ?? byRpcTool.set(k, []).get(k)!).push([e, i]);
  }
  // (two files, whatever sides were detected: a renamed log may be of unknown side)
  for (const list of byRpcTool.values()) {
    const files = new Set(list.map(([e]) => e.file));
    if (files.size < 2) continue;
    // one call in each of exactly two files (its lines there already one exchange: a host's `Calling tool x (request
    // 17)` and its `failed (request 17)`), not both the server's: one call, whatever the clocks say within the hour
    // (untimed, or a clock that is not the event's: a collector's stamps on a pasted console log)
    const byFile = [...files].map((f) => list.filter(([e]) => e.file === f));
    const oneCall = files.size === 2 && byFile.every((l) => new Set(l.map(([, i]) => uf.find(i))).size === 1);
    if (oneCall && list.some(([e]) => e.source !== 'server')) {
      const [a, b] = byFile.map((l) => l[0]!);
      const apart = a![0].ts !== null && b![0].ts !== null ? Math.abs(a![0].ts - b![0].ts) : null;
      if ((a![0].session === null || b![0].session === null) && (apart === null || apart <= ONE_CALL_MS)) {
        join(a![1], b![1], 'rpcId');
        continue;
      }
    }
    if (list.some(([e]) => e.ts === null)) continue;
    // timed: the lines within the window of each, found by binary search over the list in time order
    const byTime = [...list].sort((x, y) => x[0].ts! - y[0].ts!);
    const near = (e: Event) => {
      let lo = 0;
      let hi = byTime.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (byTime[mid]![0].ts! < e.ts! - CROSS_FILE_CALL_MS) lo = mid + 1;
        else hi = mid;
      }
      const out: (readonly [Event, number])[] = [];
      for (let k = lo; k < byTime.length && byTime[k]![0].ts! <= e.ts! + CROSS_FILE_CALL_MS; k++) if (byTime[k]![0].file !== e.file) out.push(byTime[k]!);
      return out;
    };
    for (const [c, ci] of list) {
      if (c.source === 'server') continue; // (from the client's or an unknown side's line towards the other file)
      const cand = near(c);
      if (new Set(cand.map(([x]) => x.file)).size !== 1) continue;
      // a session on one side only (a host that logs none, a server that does): one session among the candidates,
      // and never two different sessions (the session+rpcId key joins what both sides logged with their session)
      const sessions = new Set(cand.map(([x]) => x.session).filter((x) => x !== null));
      if (sessions.size > 1 || (c.session !== null && sessions.size > 0)) continue;
      const [sv, si] = cand.reduce((a, b) => (Math.abs(a[0].ts! - c.ts!) <= Math.abs(b[0].ts! - c.ts!) ? a : b));
      if (new Set(near(sv).map(([x]) => x.file)).size !== 1) continue;
      join(ci, si, 'rpcId');
    }
  }
  // One request in two access logs of the same proxy (nginx `combined` and a JSON log_format): same method,
  // path, status and body bytes, logged within the combined format's one-second resolution.
  const accessLines = indexed.filter(([e]) => e.source === 'proxy' && e.httpStatus !== null && e.ts !== null && e.httpMethod !== null);
  const accessFiles = [...new Set(accessLines.map(([e]) => e.file))];
  if (accessFiles.length > 1) {
    const paired = new Set<number>();
    const byShape = new TimeBuckets(accessLines, (e) => `${e.httpStatus}|${e.httpMethod}|${e.httpPath ? stripQuery(e.httpPath) : ''}`);
    for (const [a, ai] of accessLines) {
      if (a.requestId || paired.has(ai)) continue; // the file without request ids pairs to the one with them
      // The nearest compatible line of the other file (ties: the earlier one). secondGap(a, b) <= 1000
      // implies |a - b| <= 1000, so a ±1 s window sees every candidate.
      const best = byShape.nearest(byShape.keyOf(a), a.ts!, a.ts! - 1000, a.ts! + 1000, (bi) => {
        const b = events[bi]!;
        if (b.file === a.file || paired.has(bi)) return false;
        if (a.attrs.bytes !== undefined && b.attrs.bytes !== undefined && String(a.attrs.bytes) !== String(b.attrs.bytes)) return false;
        return secondGap(a.ts!, b.ts!) <= 1000 && uf.canJoin(ai, bi);
      });
      if (best >= 0 && join(ai, best, 'method+path+status+bytes+time')) {
        paired.add(ai);
        paired.add(best);
      }
    }
  }
  // Proxy access lines without a request id: pair each with the nearest client (or server) exchange of the same status.
  const proxyLines = accessLines;
  const strippedPath = events.map((e) => (e.httpPath ? stripQuery(e.httpPath) : null));
  const used = new Map<string, Set<number>>(); // proxy file → target events: each access log pairs a target at most once
  for (const target of ['client', 'server'] as const) {
    // only real exchange lines (with an HTTP method, or naming the MCP method that got the status:
    // `resources/subscribe failed: 404 {…}`): a bare "code: 502" under an error is not an exchange
    const exchanges = indexed.filter(([e]) => e.source === target && e.httpStatus !== null && e.ts !== null && (e.httpMethod !== null || e.rpcMethod !== null || e.tool !== null));
    let all: TimeBuckets | null = null; // built on first need: for a proxy line whose group has no request id
    // The same lines split by their own request id. A line's group holds its own request id and no
    // other (UnionFind.requestIdOf), so when the proxy line's group has request id R, a line with an
    // id other than R can never be taken: only the lines with id R, or with none, need a visit.
    const withId = new Map<string, number[]>(); // request id → its exchange lines (a handful)
    for (const [e, i] of exchanges) {
      const id = sharedId(e);
      if (!id) continue;
      const list = withId.get(id);
      if (list) list.push(i);
      else withId.set(id, [i]);
    }
    const withoutId = new TimeBuckets(
      exchanges.filter(([e]) => !sharedId(e)),
      (e) => String(e.httpStatus),
    );
    for (const [p, pi] of proxyLines) {
      if (edges[pi]! & X_REQUEST_ID || (p.requestId && target === 'server')) continue;
      const usedHere = used.get(p.file);
      const pPath = p.httpPath ? stripQuery(p.httpPath) : null;
      const rp = uf.find(pi); // no join happens during the search
      // The nearest compatible exchange (ties: the earlier one). Access logs in `combined` format
      // have one-second resolution.
      const accept = (ci: number) => {
        const c = events[ci]!;
        if (usedHere?.has(ci)) return false;
        if (p.session && c.session && p.session !== c.session) return false;
        if (pPath !== null && c.httpPath && pPath !== strippedPath[ci]) return false;
        if (p.httpMethod && c.httpMethod && p.httpMethod !== c.httpMethod) return false;
        if (p.rpcMethod && c.rpcMethod && p.rpcMethod !== c.rpcMethod) return false;
        // a line naming only the MCP method was a POST (the GET stream and DELETE carry no method)
        if (c.httpMethod === null && p.httpMethod !== null && p.httpMethod !== 'POST') return false;
        const rc = uf.find(ci);
        return rc !== rp && uf.rootsCompatible(rc, rp);
      };
      const status = String(p.httpStatus);
      const from = p.ts! - windowMs - 1000;
      const to = p.ts! + windowMs + 1000;
      const id = uf.requestIdOf(rp);
      // With an id, the nearest of the two admissible subsets is the nearest of all (same visiting order).
      const best =
        typeof id === 'string'
          ? TimeBuckets.nearer(events, p.ts!, nearestOf(events, withId.get(id), p.httpStatus!, p.ts!, from, to, accept), withoutId.nearest(status, p.ts!, from, to, accept))
          : (all ??= new TimeBuckets(exchanges, (e) => String(e.httpStatus))).nearest(status, p.ts!, from, to, accept);
      if (best >= 0 && join(pi, best, 'method+path+status+time')) {
        if (usedHere) usedHere.add(best);
        else used.set(p.file, new Set([best]));
      }
    }
  }
  serverRefusalOfOneCall(events, indexed, uf, windowMs, join);
  proxyNamedCallOfClientFailure(events, indexed, uf, join);
  proxyCutOfServerCall(events, indexed, uf, join);
  // No proxy in between (a client talking to the server directly): the server's access line and the
  // client's exchange line of one request have the same method, path and status, within the window.
  if (!events.some((e) => e.source === 'proxy' && e.httpStatus !== null)) {
    const clientLines = new TimeBuckets(
      indexed.filter(([e]) => e.source === 'client' && e.httpStatus !== null && e.ts !== null && e.httpMethod !== null),
      (e) => `${e.httpStatus}|${e.httpMethod}`,
    );
    const taken = new Set<number>();
    for (const [e, i] of indexed) {
      if (e.source !== 'server' || e.httpStatus === null || e.httpMethod === null || e.ts === null || edges[i]! & X_REQUEST_ID) continue;
      const path = e.httpPath ? stripQuery(e.httpPath) : null;
      const best = clientLines.nearest(`${e.httpStatus}|${e.httpMethod}`, e.ts, e.ts - windowMs - 1000, e.ts + windowMs + 1000, (ci) => {
        const c = events[ci]!;
        if (taken.has(ci) || (path !== null && c.httpPath !== null && stripQuery(c.httpPath) !== path)) return false;
        if (e.session && c.session && e.session !== c.session) return false;
        return uf.canJoin(i, ci);
      });
      if (best >= 0 && join(i, best, 'method+path+status+time')) taken.add(best);
    }
  }
  // A client log without times (a console transcript) cannot be joined by time: pair its exchange lines
  // with a proxy's by order instead — the k-th `POST /mcp → 502` of one with the k-th of the other — and
  // only when both have the same number of such lines (otherwise nothing is paired).
  const timeless = new Set<string>();
  const timed = new Set<string>();
  for (const e of events) (e.ts === null ? timeless : timed).add(e.file);
  const shapeOf = (e: Event) => `${e.httpStatus}|${e.httpMethod}|${e.httpPath ? stripQuery(e.httpPath) : ''}`;
  const exchangesByFile = (pick: (e: Event) => boolean) => {
    const m = new Map<string, Map<string, number[]>>(); // file → shape → indexes in order
    events.forEach((e, i) => {
      if (!pick(e) || e.httpStatus === null || e.httpMethod === null) return;
      const byShape = m.get(e.file) ?? m.set(e.file, new Map()).get(e.file)!;
      (byShape.get(shapeOf(e)) ?? byShape.set(shapeOf(e), []).get(shapeOf(e))!).push(i);
    });
    return m;
  };
  const loose = exchangesByFile((e) => e.source === 'client' && timeless.has(e.file) && !timed.has(e.file));
  if (loose.size) {
    // the proxy's lines; with no proxy in between, the server's
    const anyProxy = events.some((e) => e.source === 'proxy' && e.httpStatus !== null);
    const proxies = exchangesByFile((e) => e.source === (anyProxy ? 'proxy' : 'server'));
    for (const byShape of loose.values())
      for (const [shape, mine] of byShape)
        for (const theirs of proxies.values()) {
          const other = theirs.get(shape);
          if (!other || other.length !== mine.length) continue;
          mine.forEach((ci, k) => join(ci, other[k]!, 'method+path+status+order'));
        }
  }
  // A proxy error-log line ("… while connecting to upstream, request: "POST /mcp …"") belongs to the
  // access line of the same request: same method and path, logged within the same second or two. The
  // phrase says which status to expect: a connect or header failure is the proxy's own 502/504; a cut
  // "while reading upstream" comes after the headers, so the access line shows the upstream's status
  // (usually 200) with a short body — among equals, the fewest bytes.
  const errUsed = new Set<number>();
  let client5xx: TimeBuckets | null = null;
  const accessByMethod = new TimeBuckets(proxyLines, (e) => e.httpMethod ?? '');
  for (const [e, i] of indexed) {
    if (e.source !== 'proxy' || e.httpStatus !== null || !e.httpMethod || e.ts === null || (e.level !== 'error' && e.level !== 'warn' && e.level !== 'fatal')) continue;
    const midStream = /while reading upstream|while sending to client/.test(e.text);
    // an upstream failure before any header makes the proxy answer 5xx itself; other errors
    // (open() failed for a static path, access forbidden) go with a 4xx
    const upstreamFailure = /upstream|no live upstreams/.test(e.text);
    let best = -1;
    let bestScore = Infinity;
    for (const pi of accessByMethod.within(e.httpMethod, e.ts - 1000, e.ts + 2000)) {
      const p = events[pi]!;
      if (errUsed.has(pi) || (p.httpPath && e.httpPath && stripQuery(p.httpPath) !== stripQuery(e.httpPath))) continue;
      if (midStream ? p.httpStatus! >= 500 : upstreamFailure ? p.httpStatus! < 500 : p.httpStatus! < 400) continue;
      // a cut stream had a body to cut: never a 202/204/304 (a notification's 5-byte 202 is not the cut POST)
      if (midStream && (p.httpStatus === 202 || p.httpStatus === 204 || p.httpStatus === 304)) continue;
      const gap = secondGap(p.ts!, e.ts);
      if (gap > 1000 || p.ts! < e.ts - 1000) continue;
      const bytes = Number(p.attrs.bytes ?? NaN);
      const score = Math.abs(p.ts! - e.ts) + (midStream ? (Number.isFinite(bytes) ? bytes * 10 : 100_000) : 0);
      if (score < bestScore && uf.canJoin(i, pi)) {
        best = pi;
        bestScore = score;
      }
    }
    if (best >= 0 && join(i, best, 'proxy-error+access+time')) {
      errUsed.add(best);
      continue;
    }
    // No access line for it (only the error log was given): the client's own line of the answer the
    // proxy made (`Error POSTing to endpoint (HTTP 504)`) within the same second or two, when the phrase
    // says the proxy answered 5xx itself (a connect or header failure, not a mid-stream cut)
    if (midStream || !upstreamFailure || accessFiles.length) continue;
    client5xx ??= new TimeBuckets(
      indexed.filter(([c]) => c.source === 'client' && c.ts !== null && c.httpStatus !== null && c.httpStatus >= 500),
      () => '5xx',
    );
    let near5xx = -1;
    let nearGap = Infinity;
    for (const ci of client5xx.within('5xx', e.ts - 1000, e.ts + 2000)) {
      const c = events[ci]!;
      if (errUsed.has(ci) || (c.httpMethod !== null && c.httpMethod !== e.httpMethod)) continue;
      const gap = secondGap(e.ts, c.ts!);
      if (gap > 1000 || c.ts! < e.ts - 1000) continue;
      if (gap < nearGap && uf.canJoin(i, ci)) {
        near5xx = ci;
        nearGap = gap;
      }
    }
    if (near5xx >= 0 && join(i, near5xx, 'proxy-error+client+time')) errUsed.add(near5xx);
  }
  // (one file, one replica: where a file interleaves replicas of one workload — `kubectl logs --prefix` over two pods
  // of a Deployment — the next line of another pod is another process's record, not this exchange's tail)
  const sameStream = (a: Event, b: Event) => a.file === b.file && !replicaWriters(writerOf(a), writerOf(b));
  // Lines that follow an exchange in the same file and carry no id of their own (the response
  // body, the thrown error, its traceback) belong to that exchange — except notes about the
  // optional GET stream, which belong to a GET exchange only.
  let anchor = -1;
  let reach = 0; // last line attached to the current anchor: a chain of adjacent lines stays together
  let reachGap = 3; // how far below `reach` a line may still continue the chain
  let chainFailed = false; // a line of the current anchor's chain reported a failure
  const signals = signalTable();
  const failed = isFailureEvent;
  // how a line tells that its request ended: it reports a failure (a signal beyond the status), or it
  // records the answer (a status alone); null: it does not (a request line)
  const ending = (x: Event): 'report' | 'record' | null =>
    x.signals.some((id) => !id.startsWith('http-') && signals.meaning(id)?.outcome === 'failure') ? 'report' : x.httpStatus !== null ? 'record' : null;
  // a line that names a tool and reports its call answered, under an exchange that already failed, is the
  // call made again (a host re-issuing it after a new session), not the failed call's tail: joined to it,
  // the re-issue's success would hide the failure and the failure would hide the recovery (D6/D9)
  const reissued = (e: Event) => chainFailed && e.tool !== null && e.signals.some((id) => signals.meaning(id)?.outcome === 'completion') && !failed(e);
  events.forEach((e, i) => {
    // an exchange line (a request id, a JSON-RPC id, or an HTTP method with its path) starts what follows it
    // (or a client's note that it sends its session with the next request: `Using existing session ID …`)
    // (or a line naming a task handle, the polls and progress logged under it that task's — unless it comes right
    // under the call that created the task: then it is that call's answer, and what follows is the call's too)
    const exchange = e.rpcId !== null || e.requestId !== null || (e.httpMethod !== null && e.httpPath !== null) || e.signals.includes('session-attached');
    const underCall = anchor >= 0 && sameStream(events[anchor]!, e) && e.line - reach <= reachGap;
    const isAnchor = exchange || (typeof e.attrs.taskId === 'string' && !underCall);
    if (
      isAnchor &&
      anchor >= 0 &&
      sameStream(events[anchor]!, e) &&
      e.rpcId === null &&
      e.requestId === null &&
      e.line - reach <= 3 &&
      // (each such note opens a request of its own)
      !e.signals.includes('session-attached') &&
      (sameExchange(events[anchor]!, e) || sentThenPosted(events[anchor]!, e)) &&
      // (nor two lines that each tell how a request ended, the same way: an access log's records, a client's
      // `POST /mcp -> 502` per attempt, a proxy error line per refused connect — each is a request; a
      // proxy's error line beside its own access line (one reports, one records) stays one)
      !(ending(events[anchor]!) !== null && ending(events[anchor]!) === ending(e)) &&
      // (nor two requests from two client connections: uvicorn's access lines name `host:port`)
      !otherPeer(events[anchor]!, e) &&
      // (logged as it started and as it ended: as far apart as it took, no further)
      near(events[anchor]!, e, Math.max(windowMs * 5, (e.durationMs ?? 0) + windowMs))
    ) {
      // the same exchange logged twice in a row (request, then its answer): keep one anchor
      if (join(i, anchor, 'adjacent-lines')) {
        reach = e.endLine;
        reachGap = gapAfter(e, reachGap);
        chainFailed ||= failed(e);
      }
      return;
    }
    // the client's error about the answer it just logged (`POST … -> 404`, then `SdkHttpError: … {"id":3,
    // "error":…}`): the error's body gives the JSON-RPC id the request line did not have
    // the body under a raw status line and its headers (`curl -i`): it may carry the request's JSON-RPC id
    const bodyOfRaw =
      reachGap === HEADERS_MAX && e.httpMethod === null && e.requestId === null && (e.rpcId === null || JSON.stringify(e.rpcId) === JSON.stringify(events[anchor]?.rpcId ?? null));
    if (isAnchor && anchor >= 0 && sameStream(events[anchor]!, e) && e.line - reach <= reachGap && (answersExchange(events[anchor]!, e) || bodyOfRaw)) {
      if (join(i, anchor, 'adjacent-lines')) {
        reach = e.endLine;
        reachGap = gapAfter(e, reachGap);
        chainFailed ||= failed(e);
      }
      return;
    }
    if (isAnchor || (anchor >= 0 && reissued(e))) {
      anchor = i;
      reach = e.endLine;
      reachGap = gapAfter(e, 3); // (a new exchange starts outside any header block)
      chainFailed = failed(e);
      return;
    }
    if (anchor < 0) return;
    const a = events[anchor]!;
    if (!sameStream(a, e) || e.line - reach > reachGap || e.line < a.line) return;
    // a server's access line is written when its request ends: what the server logs after it is about
    // the next request (uvicorn's `Rejected … session` warning comes before its own 404 line)
    // (an access line without ids: a line keyed by request id is joined by its id, not by order)
    if (a.source === 'server' && e.source === 'server' && a.httpStatus !== null && a.httpMethod !== null && a.requestId === null && a.rpcId === null) return;
    if (e.ts !== null && a.ts !== null && Math.abs(e.ts - a.ts) > 1000) return;
    if (e.session && a.session && e.session !== a.session) return;
    // a line that is an exchange of its own (method and status) is another request, not this one's tail
    if (e.httpMethod !== null && (e.httpStatus !== null || e.httpPath !== null) && a.httpMethod !== null && (a.httpStatus !== null || a.httpPath !== null)) return;
    // a line naming another call (`Calling tool get_order` under a resources/subscribe exchange) starts it;
    // but an error naming a tool right under a bare refused exchange (httpx's `POST /mcp "404 Not Found"`,
    // then `tool search_kb failed: Session terminated`) is that exchange's outcome
    const outcomeOfBare =
      a.tool === null &&
      a.rpcMethod === null &&
      a.httpStatus !== null &&
      a.httpStatus >= 400 &&
      (e.level === 'error' || e.level === 'fatal') &&
      e.rpcId === null &&
      near(a, e, 1000);
    if (((e.tool !== null && e.tool !== a.tool) || (e.rpcMethod !== null && a.rpcMethod !== null && e.rpcMethod !== a.rpcMethod)) && !outcomeOfBare) return;
    // an error naming a tool call belongs to that call: never to a GET stream, nor to another tool's exchange
    // (the tool-name+order join below takes it)
    const named = TOOL_CALL_ERROR.exec(e.message)?.[1];
    if (named && (a.httpMethod === 'GET' || (a.tool !== null && a.tool !== named))) return;
    // a balancer's health-check verdict on a backend (HAProxy's `Server be/x is DOWN, reason: Layer4 …`) is about the
    // backend, not the request logged above it
    if (e.httpPath === null && a.httpPath !== null && e.signals.includes('health-check-probe')) return;
    // an exporter's failure to reach its own collector (`… encountered while exporting traces to …`) is about that
    // path, not the call logged above it (triage-rules §1)
    // (the same for the model provider's answer to the host — `model API rate limited`, a 429 from the LLM gateway: the
    // model path, not the MCP call's)
    if (e.signals.includes('telemetry-export-failed') || e.signals.includes('model-api-error')) return;
    if (STREAM_NOISE.test(e.message) && !noteJoins(e.message, a.httpMethod)) {
      anchor = -1;
      return;
    }
    if (join(i, anchor, 'adjacent-lines')) {
      reach = e.endLine;
      reachGap = gapAfter(e, reachGap);
      chainFailed ||= failed(e);
      // the client said the call returned: it is complete, what follows is about something else
      if (e.signals.includes('call-returned')) anchor = -1;
    }
  });
  // A server that logs what its handler answered (`Method not found: prompts/list -> 404 (-32601)`) and then
  // its access line (`"POST /mcp HTTP/1.1" 404`, uvicorn writes it as the request ends): one request, when
  // the access line comes right under it with the status the handler named, in the same second.
  for (let i = 1; i < events.length; i++) {
    const e = events[i]!;
    const p = events[i - 1]!;
    if (e.file !== p.file || e.source !== 'server' || e.httpMethod === null || e.httpStatus === null || e.requestId !== null || e.rpcId !== null) continue;
    if (p.httpMethod !== null || p.httpStatus !== e.httpStatus || e.line - p.endLine > 2 || !near(p, e, 1000) || edges[i] !== 0) continue;
    join(i, i - 1, 'adjacent-lines');
  }
  // A host-app error naming the tool ("Error calling tool create_order: …") with no id of its own
  // belongs to the latest earlier exchange of that tool in the same file.
  const byFileTool = new Map<string, number[]>(); // exchanges per file and tool, in file order
  for (const [c, ci] of indexed) {
    if (!c.tool || (c.rpcId === null && c.requestId === null)) continue;
    const k = `${c.file}\u0000${c.tool}`;
    const list = byFileTool.get(k);
    if (list) list.push(ci);
    else byFileTool.set(k, [ci]);
  }
  // (or any failure line naming the tool, a warning too: hosts report a failed call at warning level — `tool
  // create_refund failed (ReadTimeout); planner suggests: retry` right under the call's own `id=917 … ReadTimeout`)
  for (const [e, i] of indexed) {
    if (e.rpcId !== null || e.requestId !== null) continue;
    if (e.level !== 'error' && e.level !== 'fatal' && e.kind !== 'block' && !(e.level === 'warn' && e.tool !== null && isFailureEvent(e))) continue;
    if (edges[i] !== 0) continue;
    const name = TOOL_CALL_ERROR.exec(e.message)?.[1] ?? (isFailureEvent(e) ? e.tool : null);
    if (!name) continue;
    const list = byFileTool.get(`${e.file}\u0000${name}`) ?? [];
    let best = -1;
    for (let k = list.length - 1; k >= 0; k--) {
      const c = events[list[k]!]!;
      if (c.line >= e.line) continue;
      if (c.ts === null || e.ts === null || e.ts - c.ts <= 600_000) best = list[k]!;
      break;
    }
    if (best >= 0) join(i, best, 'tool-name+order');
  }
  // A poll that names no task (`[00:50] tasks/get failed: read ECONNRESET`) is of the task the same file named last
  // above it (`task created: tsk_…`, `polling tasks/get tsk_…`): a client polls the task it holds (spec tasks:
  // tasks/get by taskId), with its progress lines in between.
  const lastTask = new Map<string, number>(); // file → the latest event naming a task handle
  for (const [e, i] of indexed) {
    if (typeof e.attrs.taskId === 'string') {
      lastTask.set(e.file, i);
      continue;
    }
    if (e.rpcMethod === null || !TASK_METHODS.has(e.rpcMethod) || e.rpcId !== null || e.requestId !== null) continue;
    const t = lastTask.get(e.file);
    if (t === undefined) continue;
    const c = events[t]!;
    if (c.ts !== null && e.ts !== null ? e.ts - c.ts <= TASK_POLL_MS : e.line - c.endLine <= 200) join(i, t, 'task-id');
  }
  inFlightCut(events, indexed, uf, join);
  const groups = new Map<number, number[]>();
  events.forEach((_, i) => {
    const r = uf.find(i);
    const g = groups.get(r);
    if (g) g.push(i);
    else groups.set(r, [i]);
  });
  const spans: SpanBuild[] = [];
  for (const idx of groups.values()) {
    const evs = idx.map((i) => events[i]!);
    let bits = 0;
    for (const i of idx) bits |= edges[i]!;
    const joinedBy = new Set<JoinKey>(bits ? JOIN_KEYS.filter((k) => bits & JOIN_BIT.get(k)!) : []);
    const ts = evs.map((e) => e.ts).filter((t): t is number => t !== null);
    spans.push({
      id: spans.length,
      events: evs,
      joinedBy,
      rpcId: evs.find((e) => e.rpcId !== null)?.rpcId ?? null,
      // (the cancelled request's method, not its cancellation's)
      method: (evs.find((e) => e.rpcMethod && !aboutRequest(e)) ?? evs.find((e) => e.rpcMethod))?.rpcMethod ?? null,
      tool: evs.find((e) => e.tool)?.tool ?? null,
      session: evs.find((e) => e.session)?.session ?? null,
      sources: [...new Set(evs.map((e) => e.source))].sort(),
      start: ts.length ? Math.min(...ts) : null,
      end: ts.length ? Math.max(...ts) : null,
    });
  }
  return spans;
}

/**
 * A raw HTTP status line (`HTTP/1.1 401 Unauthorized`, as `curl -i` and HTTP dumps print it) is followed by
 * its headers and a blank line, none of them analysed, before the body that says why: the body still
 * continues the exchange that far below (RFC 9112 message format: status line, fields, empty line, body).
 */
/** An id a client minted (`fo-7d03`, `sc-208`, a UUID): letters and digits, long enough not to recur by chance. */
const mintedId = (v: unknown): v is string => typeof v === 'string' && v.length >= 4 && /[A-Za-z]/.test(v) && /\d/.test(v);

/**
 * One id under two names: a client's JSON-RPC id that another log keeps as its request id (a proxy's x-request-id set
 * to the JSON-RPC id, a server's `rid`). A minted string id is one request wherever it is logged (spec basic: the
 * client chooses it, and 2026-07-28 calls it the request id); numbers restart per client and never join this way.
 * Each request-id line joins the line of that JSON-RPC id in another file nearest in time — within an hour when several
 * files log it, whatever the clocks say when one does.
 */
function oneIdTwoNames(events: readonly Event[], indexed: readonly (readonly [Event, number])[], uf: UnionFind, join: (i: number, j: number, k: JoinKey) => boolean): void {
  const asRpc = new Map<string, number[]>();
  for (const [e, i] of indexed) if (mintedId(e.rpcId)) (asRpc.get(e.rpcId) ?? asRpc.set(e.rpcId, []).get(e.rpcId)!).push(i);
  if (!asRpc.size) return;
  for (const [e, i] of indexed) {
    if (!mintedId(e.requestId) || e.rpcId !== null) continue;
    const list = asRpc.get(e.requestId);
    if (!list) continue;
    let best = -1;
    let gap = Infinity;
    // (one other file logs it: the id says which call whatever the two clocks say; several: the nearest within the hour)
    const files = new Set(list.map((j) => events[j]!.file).filter((f) => f !== e.file));
    const bound = files.size === 1 ? Infinity : ONE_CALL_MS;
    for (const j of list) {
      const o = events[j]!;
      if (o.file === e.file) continue;
      const d = o.ts !== null && e.ts !== null ? Math.abs(o.ts - e.ts) : 0;
      if (d > bound || d >= gap || !uf.canJoin(i, j)) continue;
      best = j;
      gap = d;
    }
    if (best >= 0) join(i, best, 'rpcId');
  }
}

/** A proxy stamps a request when it starts; the server logs the call it dispatches within this after (same hosts' clocks). */
const DISPATCH_MS = 1_000;

/**
 * A proxy's record of a POST it saw cut (an upstream that died mid-stream, a request the proxy killed) that names no call,
 * and the server's log of the one call it began within a second of the request's start and wrote no access line for
 * (the process died with it): one request. Envoy and HAProxy stamp the request's start (START_TIME, the accept date)
 * and log it when it ends; nginx stamps the end, which less the logged duration is the start. The server that was
 * killed writes no access line to join on status and path. Only when the pairing is mutual: the one such call near that cut, the one such cut
 * near that call.
 */
function proxyCutOfServerCall(events: readonly Event[], indexed: readonly (readonly [Event, number])[], uf: UnionFind, join: (i: number, j: number, k: JoinKey) => boolean): void {
  const t = signalTable();
  const cut = (e: Event) =>
    e.signals.some((id) => {
      const m = t.meaning(id);
      return m?.outcome === 'failure' && (m.cause === 'stream-cut' || m.cause === 'peer-closed-before-response');
    });
  const cuts = indexed.filter(([e]) => e.source === 'proxy' && e.ts !== null && e.httpMethod === 'POST' && e.rpcId === null && e.tool === null && e.rpcMethod === null && cut(e));
  if (!cuts.length) return;
  // the server's calls, by group: where each began, and whether the server logged its access line
  const groups = new Map<number, { first: number; ended: boolean; named: boolean; files: Set<string> }>();
  for (const [e, i] of indexed) {
    const r = uf.find(i);
    const g = groups.get(r) ?? { first: i, ended: false, named: false, files: new Set<string>() };
    g.files.add(e.file);
    // (a log of unknown side that names calls it began is the server's or the caller's: either way the same request)
    if (e.source === 'server' || e.source === 'unknown') {
      if (e.ts !== null && (events[g.first]!.ts === null || e.ts < events[g.first]!.ts!)) g.first = i;
      // (its access line: joined on status and path when the server wrote one)
      if (e.httpStatus !== null) g.ended = true;
      if (e.rpcId !== null || e.tool !== null || (e.rpcMethod !== null && !e.rpcMethod.startsWith('notifications/'))) g.named = true;
    }
    groups.set(r, g);
  }
  const calls = [...groups.entries()].filter(([, g]) => {
    const f = events[g.first]!;
    return (f.source === 'server' || f.source === 'unknown') && f.ts !== null && g.named && !g.ended && [...g.files].every((x) => f.file === x);
  });
  // (Envoy and HAProxy stamp the start; nginx and most others the end, which with the duration gives the start too)
  const starts = (p: Event) => (p.durationMs !== null && p.durationMs > 0 ? [p.ts!, p.ts! - p.durationMs] : [p.ts!]);
  // sorted by time, looked up by range: a day of logs has many cuts and many calls
  const callStarts = calls.map(([root, g]) => ({ t: events[g.first]!.ts!, root })).sort((a, b) => a.t - b.t);
  const cutStarts = cuts.flatMap(([p], k) => starts(p).map((t) => ({ t, k }))).sort((a, b) => a.t - b.t);
  const from = <T extends { t: number }>(list: readonly T[], t: number) => {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]!.t < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const within = <T extends { t: number }>(list: readonly T[], lo: number, hi: number): T[] => {
    const out: T[] = [];
    for (let x = from(list, lo); x < list.length && list[x]!.t <= hi; x++) out.push(list[x]!);
    return out;
  };
  cuts.forEach(([p, pi], k) => {
    const mine = new Set(starts(p).flatMap((s) => within(callStarts, s - 100, s + DISPATCH_MS).map((c) => c.root)));
    if (mine.size !== 1) return;
    const root = [...mine][0]!;
    const c = events[groups.get(root)!.first]!.ts!;
    // (the call's start is near one start of this cut and of no other)
    const theirs = new Set(within(cutStarts, c - DISPATCH_MS, c + 100).map((q) => q.k));
    if (theirs.size !== 1 || !theirs.has(k)) return;
    join(pi, root, 'proxy-start+server-call');
  });
}

/**
 * A server's line refusing a call it names by method or tool and nothing else (`dispatcher: unknown method
 * server/discover -> -32601`: no id, no status) is its side of the one call of that name another log shows within
 * the window — the same failure told twice is one failure (issue #17 kind 4), not two primaries. Joined only when the
 * pairing is mutual: the one such server line near that call, and the one call of that name near the line.
 */
function serverRefusalOfOneCall(
  events: readonly Event[],
  indexed: readonly (readonly [Event, number])[],
  uf: UnionFind,
  windowMs: number,
  join: (i: number, j: number, k: JoinKey) => boolean,
): void {
  const nameOf = (e: Event) => e.tool ?? (e.rpcMethod !== null && !e.rpcMethod.startsWith('notifications/') ? e.rpcMethod : null);
  // the files each group spans: a line already joined across files is someone's already
  const filesOf = new Map<number, Set<string>>();
  for (const [e, i] of indexed) {
    const r = uf.find(i);
    (filesOf.get(r) ?? filesOf.set(r, new Set()).get(r)!).add(e.file);
  }
  const refusals = indexed.filter(
    ([e, i]) =>
      e.source === 'server' &&
      e.ts !== null &&
      e.rpcId === null &&
      e.requestId === null &&
      e.httpStatus === null &&
      nameOf(e) !== null &&
      isFailureEvent(e) &&
      filesOf.get(uf.find(i))!.size === 1,
  );
  if (!refusals.length) return;
  // the lines of each name in time order: a day of logs has thousands of calls of one name
  const byName = new TimeBuckets(
    indexed.filter(([e]) => nameOf(e) !== null),
    (e) => nameOf(e)!,
  );
  for (const [e, i] of refusals) {
    const name = nameOf(e)!;
    // the calls of that name in other files near the line, by group
    // (the request itself when it was logged as one — its JSON-RPC id or HTTP exchange — beside the host's later words
    // about it)
    const calls = new Map<number, number>();
    const exchanges = new Map<number, number>();
    for (const ci of byName.within(name, e.ts! - windowMs, e.ts! + windowMs)) {
      const c = events[ci]!;
      if (c.file === e.file || c.source === 'server') continue;
      // a group's last line in the log's order stands for it
      const r = uf.find(ci);
      if ((calls.get(r) ?? -1) < ci) calls.set(r, ci);
      if ((c.rpcId !== null || c.requestId !== null || c.httpMethod !== null) && (exchanges.get(r) ?? -1) < ci) exchanges.set(r, ci);
    }
    const pick = exchanges.size ? exchanges : calls;
    if (pick.size !== 1) continue;
    const [root, ci] = [...pick][0]!;
    // and the server lines of that name near the call, by group: only this one
    const mine = new Set<number>();
    const ct = events[ci]!.ts!;
    for (const si of byName.within(name, ct - windowMs, ct + windowMs)) if (events[si]!.file === e.file && uf.find(si) !== root) mine.add(uf.find(si));
    if (mine.size !== 1 || !mine.has(uf.find(i))) continue;
    join(i, ci, 'method+time');
  }
}

/** A proxy's access line and the client's line of the answer it carried: the same second or two (each logs the answer's own moment). */
const ANSWER_SAME_MS = 2000;

/**
 * A proxy's access line that names the MCP call it carried — the 2026-07-28 `Mcp-Method`/`Mcp-Name` headers logged
 * as fields (`"mcp_method":"tools/call","mcp_name":"build_report"`) — and answered it with an error status is the
 * proxy's side of the failure of that call the client logged in the same second or two (the access log writes its
 * line as the answer goes out, the client its failure as the answer comes in), when the client's words carry no status
 * (`tools/call build_report id=5 failed after 60015ms: MCPError(-32603)`) or the same one, and no method or path, to
 * join by. So is a proxy's 5xx to a POST whose line names no call, near the one failed call in the client's logs.
 * Joined only when the pairing is mutual: the one failed call (of that name) in the client's logs near the line, and
 * the one such proxy line near it.
 */
function proxyNamedCallOfClientFailure(
  events: readonly Event[],
  indexed: readonly (readonly [Event, number])[],
  uf: UnionFind,
  join: (i: number, j: number, k: JoinKey) => boolean,
): void {
  const nameOf = (e: Event) => e.tool ?? (e.rpcMethod !== null && !e.rpcMethod.startsWith('notifications/') ? e.rpcMethod : null);
  // (a proxy line that names no call — a default access log format — is the one 5xx of a POST near the client's failure:
  // the proxy answered it itself, and the client wrapped that answer in words without the status)
  const UNNAMED = '\u0000';
  const proxyKey = (e: Event) => (e.rpcMethod !== null ? nameOf(e) : e.httpMethod === 'POST' && e.httpStatus! >= 500 && e.tool === null ? UNNAMED : null);
  const proxies = indexed.filter(([e]) => e.source === 'proxy' && e.ts !== null && e.httpStatus !== null && e.httpStatus >= 400 && proxyKey(e) !== null);
  if (!proxies.length) return;
  const failed = indexed.filter(([e]) => (e.source === 'client' || e.source === 'unknown') && e.ts !== null && nameOf(e) !== null && isFailureEvent(e));
  const failures = new TimeBuckets(failed, (e) => nameOf(e)!);
  const anyFailure = new TimeBuckets(failed, () => UNNAMED);
  // (an access line is stamped when the answer went out — nginx — or when the request came in, its duration beside —
  // HAProxy's accept date: the answer's moment is then the stamp plus the duration; both are tried, as for the cuts)
  const ends = proxies.filter(([e]) => e.durationMs !== null && e.durationMs > 0).map(([e, i]) => [{ ...e, ts: e.ts! + e.durationMs! }, i] as const);
  const byName = new TimeBuckets([...proxies, ...ends], (e) => proxyKey(e)!);
  const answerTimes = (e: Event) => (e.durationMs !== null && e.durationMs > 0 ? [e.ts!, e.ts! + e.durationMs] : [e.ts!]);
  const groups = (list: Iterable<number>) => {
    const last = new Map<number, number>();
    for (const i of list) last.set(uf.find(i), Math.max(last.get(uf.find(i)) ?? -1, i));
    return last;
  };
  for (const [p, pi] of proxies) {
    const name = proxyKey(p)!;
    const near = groups(answerTimes(p).flatMap((t) => [...(name === UNNAMED ? anyFailure : failures).within(name, t - ANSWER_SAME_MS, t + ANSWER_SAME_MS)]));
    if (near.size !== 1) continue;
    const ci = [...near.values()][0]!;
    const c = events[ci]!;
    // (the client's words name the status the proxy logged, or none)
    if (c.httpStatus !== null && c.httpStatus !== p.httpStatus) continue;
    const back = groups(byName.within(name, c.ts! - ANSWER_SAME_MS, c.ts! + ANSWER_SAME_MS));
    if (back.size !== 1 || !back.has(uf.find(pi))) continue;
    if (uf.canJoin(pi, ci)) join(pi, ci, 'proxy-named-call+time');
  }
}

/** How long a request may be in flight (hosts allow tools up to 10 minutes) for a cut naming no request to be its. */
const IN_FLIGHT_MS = 10 * 60_000;
/** The causes of a report that a request's stream or connection broke under it. */
const CUT_CAUSES = new Set(['stream-cut', 'sse-read-failed', 'conn-reset', 'peer-closed-before-response', 'connection-closed']);

/**
 * A client's report that a stream or connection broke, naming no request (httpx's `RemoteProtocolError: peer closed
 * connection without sending complete message body` under a host's `run failed`), is the request that client log had
 * in flight: the one JSON-RPC request it logged sending and no answer to yet, when there is exactly one (spec
 * transports: one response stream per POST; two in flight and the report could be either's). Requests whose log
 * shows no answers at all are all "open": then there are several, and nothing is joined.
 */
function inFlightCut(events: readonly Event[], indexed: readonly (readonly [Event, number])[], uf: UnionFind, join: (i: number, j: number, k: JoinKey) => boolean): void {
  const t = signalTable();
  const clientish = (e: Event) => e.source === 'client' || e.source === 'unknown';
  const sent = new Map<string, number[]>(); // file → its request lines, in order
  const answers = new Map<string, number[]>(); // file + id → the lines that end it
  const named = new Set<number>(); // groups that already name a call
  for (const [e, i] of indexed) {
    if (e.rpcId !== null || e.tool !== null) named.add(uf.find(i));
    if (!clientish(e) || e.rpcId === null) continue;
    const key = `${e.file}\u0000${JSON.stringify(e.rpcId)}`;
    if (e.rpcMethod !== null && !e.rpcMethod.startsWith('notifications/') && e.attrs.direction === 'request') {
      const list = sent.get(e.file);
      if (list) list.push(i);
      else sent.set(e.file, [i]);
    } else if (e.rpcMethod === null || !e.rpcMethod.startsWith('notifications/')) {
      // (any later line of that id that is not itself a request nor a notification about it — its result, its error,
      // the host's word that it returned — ends it)
      const list = answers.get(key);
      if (list) list.push(i);
      else answers.set(key, [i]);
    }
  }
  if (!sent.size) return;
  for (const [e, i] of indexed) {
    if (!clientish(e) || e.rpcId !== null || e.requestId !== null || e.tool !== null || e.ts === null || named.has(uf.find(i))) continue;
    if (!e.signals.some((id) => CUT_CAUSES.has(t.meaning(id)?.cause ?? '')) || !isFailureEvent(e)) continue;
    const open: number[] = [];
    for (const k of sent.get(e.file) ?? []) {
      const q = events[k]!;
      if (q.line >= e.line || q.ts === null || e.ts - q.ts > IN_FLIGHT_MS || e.ts < q.ts) continue;
      const answered = (answers.get(`${q.file}\u0000${JSON.stringify(q.rpcId)}`) ?? []).some((a) => events[a]!.line > q.line && events[a]!.line < e.line);
      if (!answered) open.push(k);
    }
    if (open.length === 1 && uf.canJoin(i, open[0]!)) join(i, open[0]!, 'in-flight');
  }
}

const RAW_STATUS_LINE = /^(?:< )?HTTP\/[\d.]{1,3} [1-5]\d\d\b/;
const HEADERS_MAX = 40;
const HEADER_FIELD = /^(?:< )?[A-Za-z][\w-]{0,60}: /;
/** The gap allowed below a chain's new last line: a status line's, kept through the header fields under it. */
// (a transcript's exchange, its head joined into one event by correlate/transcript.ts, is such a status line too)
const gapAfter = (e: Event, before: number): number =>
  RAW_STATUS_LINE.test(e.message) || (e.attrs.transcript === true && e.httpStatus !== null) || (before === HEADERS_MAX && HEADER_FIELD.test(e.message)) ? HEADERS_MAX : 3;

/** Events bucketed by a shape key and sorted by time, for windowed look-ups instead of all-pairs scans. */
class TimeBuckets {
  private readonly buckets = new Map<string, { ts: number[]; idx: number[] }>();
  constructor(
    items: readonly (readonly [Event, number])[],
    readonly keyOf: (e: Event) => string,
  ) {
    const tmp = new Map<string, [number, number][]>();
    for (const [e, i] of items) {
      if (e.ts === null) continue;
      const k = keyOf(e);
      const list = tmp.get(k);
      if (list) list.push([e.ts, i]);
      else tmp.set(k, [[e.ts, i]]);
    }
    for (const [k, list] of tmp) {
      list.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      this.buckets.set(k, { ts: list.map((x) => x[0]), idx: list.map((x) => x[1]) });
    }
  }
  /**
   * The first index in bucket `key` (from <= ts <= to) that `accept` takes, visiting candidates by
   * distance from t, and among equal distances in bucket order (time, then index): exactly the
   * winner of "scan in time order, keep a candidate only when strictly closer", without visiting
   * every candidate of a dense window.
   */
  nearest(key: string, t: number, from: number, to: number, accept: (i: number) => boolean): number {
    const b = this.buckets.get(key);
    if (!b) return -1;
    const { ts, idx } = b;
    let lo = 0;
    let hi = ts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ts[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    let l = lo - 1; // ts < t, walked down run by run
    let r = lo; // ts >= t, walked up
    for (;;) {
      const dl = l >= 0 && ts[l]! >= from ? t - ts[l]! : Infinity;
      const dr = r < ts.length && ts[r]! <= to ? ts[r]! - t : Infinity;
      if (dl === Infinity && dr === Infinity) return -1;
      if (dl <= dr) {
        let s = l;
        while (s > 0 && ts[s - 1] === ts[l]) s--;
        for (let k = s; k <= l; k++) if (accept(idx[k]!)) return idx[k]!;
        l = s - 1;
      } else {
        if (accept(idx[r]!)) return idx[r]!;
        r++;
      }
    }
  }

  /**
   * Of two `nearest` answers for time t from disjoint buckets (-1: none), the one `nearest` visits
   * first over their union: the closer in time; at equal distance the earlier one (it lies before t);
   * at equal time the lower index.
   */
  static nearer(events: readonly Event[], t: number, a: number, b: number): number {
    if (a < 0) return b;
    if (b < 0) return a;
    const ta = events[a]!.ts!;
    const tb = events[b]!.ts!;
    const da = Math.abs(ta - t);
    const db = Math.abs(tb - t);
    if (da !== db) return da < db ? a : b;
    if (ta !== tb) return ta < tb ? a : b;
    return a < b ? a : b;
  }

  /** Event indexes in bucket `key` with from <= ts <= to, in time order. */
  *within(key: string, from: number, to: number): Generator<number> {
    const b = this.buckets.get(key);
    if (!b) return;
    let lo = 0;
    let hi = b.ts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (b.ts[mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < b.ts.length && b.ts[k]! <= to; k++) yield b.idx[k]!;
  }
}

/**
 * What TimeBuckets.nearest would answer for these few lines (status `status`, from <= ts <= to):
 * the accepted line it visits first. `accept` has no side effects, so the order of the tests
 * does not matter.
 */
function nearestOf(events: readonly Event[], list: readonly number[] | undefined, status: number, t: number, from: number, to: number, accept: (i: number) => boolean): number {
  let best = -1;
  for (const i of list ?? []) {
    const e = events[i]!;
    if (e.httpStatus !== status || e.ts! < from || e.ts! > to) continue;
    const b = TimeBuckets.nearer(events, t, best, i);
    if (b === i && accept(i)) best = i;
  }
  return best;
}

/** Two exchange lines that can be one request: same method and path, and no conflicting status. */
/** `b`, an error line with an id of its own but no request line, is what the client made of exchange `a`'s answer. */
function answersExchange(a: Event, b: Event): boolean {
  if (a.file !== b.file || a.httpMethod === null || a.httpStatus === null || a.rpcId !== null || a.requestId !== null) return false;
  if (b.httpMethod !== null || b.requestId !== null || b.rpcId === null) return false;
  if (b.level !== 'error' && b.level !== 'warn' && b.level !== 'fatal' && b.kind !== 'block') return false;
  if (b.rpcMethod !== null && b.rpcMethod !== a.rpcMethod) return false;
  if (b.httpStatus !== null && b.httpStatus !== a.httpStatus) return false;
  if (b.session !== null && a.session !== null && b.session !== a.session) return false;
  return near(a, b, 2000);
}

/** Two lines that name the connection they came from (an access log's client `host:port`), and not the same one. */
function otherPeer(a: Event, b: Event): boolean {
  const x = a.attrs.client;
  const y = b.attrs.client;
  return typeof x === 'string' && typeof y === 'string' && (x !== y || (a.attrs.port != null && b.attrs.port != null && a.attrs.port !== b.attrs.port));
}

/**
 * A client's note of the JSON-RPC message it is about to send (python-sdk's DEBUG `Sending client message:
 * root=JSONRPCRequest(method='tools/call', …, id=6)`), then its HTTP client's line for the POST that
 * carried it (httpx `HTTP Request: POST …/mcp "HTTP/1.1 503 …"`): one exchange — the POST names no method.
 */
function sentThenPosted(a: Event, b: Event): boolean {
  return a.rpcMethod !== null && a.httpMethod === null && a.httpStatus === null && b.httpMethod === 'POST' && b.rpcMethod === null && b.rpcId === null && b.tool === null;
}
function sameExchange(a: Event, b: Event): boolean {
  return (
    a.httpMethod === b.httpMethod &&
    a.httpPath === b.httpPath &&
    (a.httpStatus === null || b.httpStatus === null || a.httpStatus === b.httpStatus) &&
    // (two lines naming different calls — a proxy logging each call's Mcp-Method/Mcp-Name — are two requests)
    (a.tool === null || b.tool === null || a.tool === b.tool) &&
    (a.rpcMethod === null || b.rpcMethod === null || a.rpcMethod === b.rpcMethod)
  );
}

function near(a: Event, b: Event, ms: number): boolean {
  return a.ts === null || b.ts === null || Math.abs(a.ts - b.ts) <= ms;
}

/** Distance between two times when one side may have one-second resolution (0 inside the same second). */
function secondGap(a: number, b: number): number {
  if (a % 1000 === 0 && b >= a && b < a + 1000) return 0;
  if (b % 1000 === 0 && a >= b && a < b + 1000) return 0;
  return Math.abs(a - b);
}
