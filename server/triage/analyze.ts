// From stored facts to the Analysis document: correlate, pick failures, classify, summarise.
// Pure: no fastify, no DuckDB — the CLI, the server and the tests share it.
import type { Event } from '../../parsers/contract/event.ts';
import { signalTable } from '../../parsers/engine/signals.ts';
import { Analysis, type Evidence, type Failure, type InputSummary, type SessionSummary, type Span, headlineOf } from '../contract/analysis.ts';
import { classify } from './classify/engine.ts';
import { placeFailures, type Decided } from './classify/episodes.ts';
import { deriveFacts, isFailureEvent, toolAnnotations } from './classify/facts.ts';
import { IncidentIndex } from './classify/incident.ts';
import { isPolicyFile, type ToolPolicy } from './classify/policy.ts';
import { enrichEvents } from './correlate/enrich.ts';
import { buildSpans, noteJoins, replicaWriters, STREAM_NOISE, type JoinKey, writerOf, type SpanBuild } from './correlate/spans.ts';
import { estimateOffsets, type ClockOffset } from './skew/estimate.ts';
import { applyZoneShifts, estimateZoneShifts, type ZoneShift } from './skew/zones.ts';

export interface AnalyzeInput {
  inputs: InputSummary[];
  /** Triage-relevant events in file order (see Store.triageEvents). */
  events: Event[];
  /** The user's tool policy (classify/policy.ts loadToolPolicy), when one was found. */
  toolPolicy?: ToolPolicy | null;
  /**
   * Incident-wide aggregates, when `events` is only a focus set (store/focus.ts): sessions, protocol
   * versions and the request and exchange lines seen are then read from these instead of from `events`.
   */
  whole?: { sessions: SessionStat[]; protocolVersions: string[]; triageEvents: number; seen?: { requests: number; exchanges: number } };
  /** Each file's last line and latest time over all its events, not only the triage ones (Store.fileEnds). */
  fileEnds?: FileEnd[];
}

/** Where a file's events end: its last line and its latest time. */
export interface FileEnd {
  file: string;
  lastTs: number | null;
  lastLine: number;
}

/** One session's first and last time, and when a DELETE of it succeeded. */
export interface SessionStat {
  session: string;
  first: number | null;
  last: number | null;
  deleted: number | null;
}

/** A line that only marks when an HTTP client began waiting (signal cause `wait-started`), nothing else. */
function isWaitMark(e: Event): boolean {
  if (e.signals.length === 0 || e.kind === 'block' || e.level === 'warn' || e.level === 'error' || e.level === 'fatal') return false;
  if (e.httpStatus !== null || e.rpcId !== null || e.rpcMethod !== null || e.tool !== null || e.session !== null || e.requestId !== null || e.httpMethod !== null) return false;
  const t = signalTable();
  return e.signals.every((id) => t.meaning(id)?.cause === 'wait-started');
}

/**
 * The clock offsets as readers apply them to stored timestamps: those measured on shifted times carry the zone
 * shifts of both files, and a shifted file nothing else measured is reported by its zone alone.
 */
function withZones(offsets: ClockOffset[], zones: readonly ZoneShift[]): ClockOffset[] {
  if (zones.length === 0) return offsets;
  const shift = (file: string) => zones.find((z) => z.file === file)?.shiftMs ?? 0;
  const out = offsets.map((o) => ({ ...o, offsetMs: o.offsetMs + shift(o.file) - shift(o.reference) }));
  for (const z of zones) if (!out.some((o) => o.file === z.file)) out.push({ file: z.file, offsetMs: z.shiftMs, reference: z.reference, pairs: z.votes, spreadMs: 0 });
  return out.sort((a, b) => a.file.localeCompare(b.file));
}

const MAX_FAILURES = 200;
const MAX_SPANS = 2000;

export function analyze({ inputs: given, events: stored, toolPolicy = null, whole, fileEnds }: AnalyzeInput): Analysis {
  const inputs = given.filter((i) => !isPolicyFile(i.file));
  const enriched = enrichEvents(stored.filter((e) => !isPolicyFile(e.file)));
  // (a file logged in another time zone is read on the reference clock, or nothing in it joins by time)
  const zones = estimateZoneShifts(enriched);
  const events = applyZoneShifts(enriched, zones);
  const annotations = toolAnnotations(events);
  const protocolVersions = whole ? [...whole.protocolVersions].sort() : [...new Set(events.map((e) => e.protocolVersion).filter((v): v is string => !!v))].sort();
  // (an HTTP client's trace mark that it began waiting is a time, not a line of any request: it times a
  // timeout that names no call — incident.ts traceStarted — and joins no span)
  const spans = buildSpans(events.filter((e) => !isWaitMark(e)));
  const clockOffsets = withZones(estimateOffsets(spans), zones);
  attachOrphans(spans);
  // (after the orphans found their calls: a client's cut report under a call is that call's, with the proxy's end)
  joinProxyCuts(spans);
  markStoppedWhileWaiting(spans);
  markHeldBursts(spans);
  markLateHeaders(spans);
  let failing = spans.filter((s) => s.stoppedBy !== undefined || s.heldBurst !== undefined || s.lateHeaders !== undefined || s.events.some(isFailureEvent));
  if (failing.length === 0) {
    const shiftOf = new Map(zones.map((z) => [z.file, z.shiftMs]));
    const ends = (fileEnds ?? []).map((f) => (shiftOf.has(f.file) && f.lastTs !== null ? { ...f, lastTs: f.lastTs + shiftOf.get(f.file)! } : f));
    failing = markEndedWaiting(spans, new Map(ends.map((f) => [f.file, f])));
  }
  failing.sort((a, b) => (a.start ?? Infinity) - (b.start ?? Infinity));
  const index = new IncidentIndex(events, spans); // incident-wide look-ups, once
  const decided: Decided[] = [];
  const rejectedOf: { rule: string; why: string }[][] = [];
  const rationales: string[] = [];
  for (const span of failing.slice(0, MAX_FAILURES)) {
    const facts = deriveFacts(span, { protocolVersions, toolPolicy, annotations, index });
    const c = classify(facts);
    decided.push({ span, facts, rule: c.rule, decision: c.decision, rationale: c.rationale });
    rejectedOf.push(c.rejected);
    rationales.push(c.rationale);
  }
  const placed = placeFailures(decided);
  const failures: Failure[] = decided.map(({ span, facts, rule, decision }, i) => ({
    rpcId: facts.rpcId,
    method: facts.method,
    tool: facts.tool,
    session: facts.session && /^sess_[a-z2-7]{10,}$/.test(facts.session) ? facts.session : null,
    httpStatus: facts.answerStatus,
    stage: facts.stage,
    rootException: facts.rootException,
    exceptionChain: facts.exceptionChain,
    decision,
    rule: rule.id,
    rationale: rationales[i]!,
    evidence: uniqueEvidence(span.events.filter((e) => isFailureEvent(e) || e.source !== 'client' || e.rpcMethod || e.signals.length)),
    rejected: rejectedOf[i],
    ts: span.start,
    role: placed[i]!.role,
    episode: placed[i]!.episode,
    signals: facts.signals,
    roleReason: placed[i]!.reason,
  }));
  const doc: Analysis = {
    schemaVersion: 1,
    inputs,
    protocolVersions,
    failures,
    sessions: summariseSessions(whole ? whole.sessions : sessionStats(events), failures),
    spans: spans
      .filter((s) => s.joinedBy.size > 0)
      .sort((a, b) => (a.start ?? 0) - (b.start ?? 0))
      .slice(0, MAX_SPANS)
      .map(
        (s): Span => ({
          rpcId: s.rpcId,
          method: s.method,
          session: s.session && /^sess_[a-z2-7]{10,}$/.test(s.session) ? s.session : null,
          sources: s.sources,
          joinedBy: [...s.joinedBy].sort(),
        }),
      ),
    decision: headlineOf(failures),
    clockOffsets,
    // (a focus set holds only part of the incident: its counts come from the whole, counted in SQL)
    seen: {
      requests: whole?.seen ? whole.seen.requests : events.filter((e) => e.rpcMethod !== null || e.rpcId !== null || e.tool !== null).length,
      exchanges: whole?.seen ? whole.seen.exchanges : events.filter((e) => e.httpMethod !== null || e.httpStatus !== null).length,
      sessions: whole ? whole.sessions.length : new Set(events.map((e) => e.session).filter((s) => s !== null)).size,
      // (error lines as the analysis reads them: a focus set holds every failure line up to its cap)
      errors: events.filter(isFailureEvent).length,
    },
    ...(whole ? { coverage: { triageEvents: whole.triageEvents, analysedEvents: stored.length, focused: true } } : {}),
  };
  return Analysis.parse(doc);
}

/**
 * A traceback, error line or stray fragment with no keys of its own (no rpc id, session, request id
 * or HTTP exchange) belongs to the exchange logged just before it in the same file: the previous
 * triage-relevant event, within two seconds (or three lines when a time is missing). Lines between
 * them were not triage-relevant (stack frames, a response body). Notes about the optional GET
 * stream join only a GET exchange.
 */
function isRecoveryLine(e: Event): boolean {
  return e.signals.some((id) => signalTable().meaning(id)?.outcome === 'recovery');
}

/** Block formats that carry no log line of their own (a bare traceback or stack under some line). */
const BARE_BLOCKS = new Set(['python-traceback', 'node-error', 'java-stack']);
/** A bare block opens with the exception itself, not with a log line's header (time, level, logger, [tag]). */
const BARE_START = /^\s{0,8}(?:Traceback \(most recent|File "|\+ Exception Group|\| |(?:[A-Za-z_$][\w$]*\.)*[A-Z][\w$]*(?:Error|Exception|Group)\b|at [\w.<$])/;

const ANSWER_WAIT_MS = 300_000;
/** The worker a supervisor says it killed: gunicorn, uWSGI, PHP-FPM, Unicorn, the kernel's OOM killer. */
const KILLED_PID = /\(pid:? ?(\d{1,9})[,)]|\bchild (\d{1,9})\b|\bPID:(\d{1,9})\b|\bKilled process (\d{1,9})\b|\bworker with pid:? ?(\d{1,9})\b/;
/** How long before its worker's kill a call may have started (the longest worker timeouts in use: harakiri, request_terminate_timeout). */
const WORKER_KILL_MS = 600_000;
/** A call line saying the call was answered (`rpc done id=3 … status=ok 38ms`). */
const DONE_WORDS = /\b(?:done|completed?|finished|succeeded|status=ok)\b/i;
/** The worker pid a supervisor's line says it killed (only on a line the table reads as a process ending). */
function killedPid(e: Event): string | undefined {
  if (!e.signals.includes('server-exited')) return undefined;
  const m = KILLED_PID.exec(e.message);
  return m ? m.slice(1).find((g) => g !== undefined) : undefined;
}
const answeredLine = (x: Event) => x.signals.includes('call-returned') || (x.httpStatus !== null && x.httpStatus < 400) || x.durationMs !== null || DONE_WORDS.test(x.message);
/**
 * A line that is an exception, or .NET's `---- Inner` / `---> Inner` marker before one (httpx names its
 * timeouts without the suffix: `ReadTimeout`, `ConnectTimeout`, `PoolTimeout`).
 */
const CHAINED_EXCEPTION = /^\s{0,8}(?:-{3,4}>? )?(?:[A-Za-z_][\w]*\.)*[A-Z]\w*(?:Exception|Error|Timeout)\b/;
/** A record whose message ends in a colon: Python's `logger.exception("Error reading SSE stream:")` prints the exception after it. */
const INTRODUCES = /:\s{0,200}$/;
/**
 * A bare `id=9` key of a logfmt line (not `user_id=`, not `x.id=`) — or a string id shaped as clients mint them
 * (`id=qa-88`, `id=close-7f3a-0018`: a word, then dash-joined parts ending in a number), matched only against the
 * ids of calls the same file logged.
 */
/** A string id shaped as clients mint them: a word, then dash-joined parts ending in a number. */
const MINTED_ID = '[A-Za-z][A-Za-z0-9]{0,20}(?:-[A-Za-z0-9]{1,20}){0,3}-\\d{1,12}';
const BARE_ID = new RegExp(`(?<![\\w.-])id=(\\d{1,15}|${MINTED_ID})(?![\\w.])`);
/**
 * A 2xx that opens an event stream (`200 text/event-stream`): the stream's headers, not the call's answer — the
 * answer comes later inside it, or never (spec transports: the server may answer a POST with an SSE stream).
 */
const opensEventStream = (x: Event) => x.httpStatus !== null && x.httpStatus < 300 && x.text.slice(0, 4000).includes('text/event-stream');
/** A JSON record's `"id"` member holding a string id shaped as clients mint them (`"id":"w3-1201"`, `"id":"job-88"`). */
const JSON_MINTED_ID = new RegExp(`"id"\\s{0,3}:\\s{0,3}"(${MINTED_ID})"`);

/**
 * A server's access line is written as its request ends: a 2xx there ended well, and an error under it is
 * about what the server did next (spans.ts's rule for a server's access lines), not that request's outcome.
 */
const servedWell = (e: Event) => e.source === 'server' && e.httpMethod !== null && e.httpStatus !== null && e.httpStatus < 400;

function attachOrphans(spans: SpanBuild[]): void {
  const keyedEvent = (e: Event) => e.rpcId !== null || e.session !== null || e.requestId !== null || e.httpMethod !== null || e.httpStatus !== null;
  const owner = new Map<Event, SpanBuild>();
  for (const s of spans) for (const e of s.events) owner.set(e, s);
  const isKeyed = (s: SpanBuild) => s.events.some(keyedEvent);
  // a line naming only the call it starts (`Action: Panel.listMcpTools`, `calling tool x`) anchors the
  // unidentified error report right under it; one saying the call returned does not
  const namesCall = (s: SpanBuild) =>
    s.events.some((e) => (e.rpcMethod !== null || e.tool !== null) && !e.signals.includes('call-returned') && !(e.httpStatus !== null && e.httpStatus < 400));
  const merge = (into: SpanBuild, from: SpanBuild, how: JoinKey = 'adjacent-lines') => {
    if (into === from) return;
    for (const x of from.events) owner.set(x, into);
    into.events.push(...from.events);
    for (const k of from.joinedBy) into.joinedBy.add(k);
    into.joinedBy.add(how);
    from.events = [];
    refreshSpan(into);
  };
  // an error naming a tool call never joins the standalone GET stream or another tool's exchange
  const otherCall = (s: SpanBuild, into: SpanBuild) => {
    const tool = s.tool;
    if (tool === null) return false;
    if (into.tool !== null && into.tool !== tool) return true;
    return into.method === null && into.tool === null && into.events.some((x) => x.httpMethod === 'GET');
  };
  const answersCall = (s: SpanBuild, call: SpanBuild, e: Event, prev: Event): boolean => {
    if (s === call || owner.get(prev) !== call) return false;
    // an error whose body gives a JSON-RPC id (`request 11 failed: HTTP 400 {"jsonrpc":"2.0","id":11,…}`)
    // under a call line that logged none: what the client made of that call's answer
    const idAnswer =
      call.rpcId === null &&
      s.rpcId !== null &&
      (s.method === null || s.method === call.method) &&
      // (a span naming its own tool is that tool's call, not the answer to a listing or another tool's call)
      (s.tool === null || s.tool === call.tool) &&
      (s.session === null || call.session === null || s.session === call.session) &&
      s.events.every((x) => x.httpMethod === null && x.requestId === null) &&
      s.events.some(isFailureEvent);
    if (!idAnswer && s.events.some((x) => x.rpcId !== null || x.session !== null || x.requestId !== null || (x.httpMethod !== null && x.httpMethod !== 'POST'))) return false;
    // a note about the standalone GET stream (`SSE stream disconnected, reconnecting: Failed to open SSE
    // stream: Service Unavailable`) is never a POST call's answer, whatever status it quotes (tested after
    // the keys above: the same refusal, and most spans have keys, so fewer messages go through the regex)
    if (s.events.some((x) => STREAM_NOISE.test(x.message))) return false;
    // (nor is a supervisor's kill of worker N the answer of a call another worker served)
    const killed = killedPid(e);
    if (killed !== undefined && call.events.some((x) => x.attrs.pid !== undefined) && !call.events.some((x) => String(x.attrs.pid) === killed)) return false;
    // (nor is a status from another path — the model provider's 429, a telemetry collector's refusal — the MCP call's
    // answer: triage-rules §1, keep the model and tool paths apart)
    if (s.events.some((x) => x.signals.includes('model-api-error') || x.signals.includes('telemetry-export-failed'))) return false;
    // keyed only by its status, or naming the same tool as the call (`calling tool x` … `tool x failed: …`)
    const sameTool = s.tool !== null && s.tool === call.tool && (s.method === null || s.method === call.method);
    // or a logfmt error line repeating the call's `id=9` with nothing else to say what id it is
    const bare = call.rpcId !== null && s.method === null && s.tool === null ? BARE_ID.exec(e.message)?.[1] : undefined;
    const sameId = bare !== undefined && bare === String(call.rpcId);
    // or an error with no identity of its own (a traceback under `tool call failed`), the next triage
    // line of the file after the call: the call's outcome, however long it took — never a note about
    // the optional GET stream or a line saying the client recovered
    const bareError =
      !(call.method ?? '').startsWith('notifications/') &&
      s.method === null &&
      s.tool === null &&
      s.events.every(
        (x) =>
          x.rpcId === null &&
          x.session === null &&
          x.requestId === null &&
          x.httpMethod === null &&
          !STREAM_NOISE.test(x.message) &&
          !isRecoveryLine(x) &&
          // (the session's DELETE at close is about the session, not the call before it)
          !x.signals.includes('session-termination-failed') &&
          // (nor is an exporter's failure to reach its collector: another path, triage-rules §1)
          !x.signals.includes('telemetry-export-failed'),
      ) &&
      s.events.some(isFailureEvent);
    // or an error naming only the kind of call (`MCP request timed out for tools/call`) under a call of that
    // kind that named its tool (`tools/call run_call started`): that call's outcome
    const sameMethodBare =
      s.tool === null &&
      s.method !== null &&
      s.method === call.method &&
      call.tool !== null &&
      s.events.every((x) => x.rpcId === null && x.session === null && x.requestId === null && x.httpMethod === null) &&
      s.events.some(isFailureEvent);
    if (!sameTool && !sameId && !idAnswer && !bareError && !sameMethodBare && (s.method !== null || s.tool !== null || !s.events.some((x) => x.httpStatus !== null))) return false;
    // the call: named, from this file, not answered, not a GET stream
    if (call.method === null && call.tool === null) return false;
    // (its own lines after this one — the client's error that ends a long call — came after the answer)
    if (
      call.events.some(
        (x) =>
          (x.file !== e.file || x.line < e.line) &&
          ((x.httpStatus !== null && !opensEventStream(x)) ||
            x.signals.includes('call-returned') ||
            (x.httpMethod !== null && x.httpMethod !== 'POST') ||
            // (a proxy's access record with no status — HAProxy's -1 — is written as the exchange ended: its outcome)
            (x.source === 'proxy' && x.httpMethod !== null && x.durationMs !== null)),
      )
    )
      return false;
    // an answer takes as long as the call did: up to the longest proxy and client timers in use (nginx
    // 60 s, Cloudflare 100 s, load balancers up to ~5 min), with no other triage line in between
    // (untimed: within a few lines — httpcore logs ~7 debug lines between sending and the status)
    return e.ts !== null && prev.ts !== null ? e.ts - prev.ts >= 0 && e.ts - prev.ts <= ANSWER_WAIT_MS : e.line - prev.endLine <= 12;
  };
  const byFile = linesByWriter(owner.keys());
  // Neighbouring triage lines of one file (in different spans) that are one exchange or one error; each
  // pass below says which. Merged spans are re-read from `owner`, so a pass sees the earlier ones.
  const eachNeighbour = (visit: (p: Event, e: Event, a: SpanBuild, b: SpanBuild) => void) => {
    for (const list of byFile.values())
      for (let i = 1; i < list.length; i++) {
        const p = list[i - 1]!;
        const e = list[i]!;
        const a = owner.get(p)!;
        const b = owner.get(e)!;
        if (a !== b) visit(p, e, a, b);
      }
  };
  const identified = (s: SpanBuild, also: (x: Event) => boolean = () => false) =>
    s.events.some((x) => x.rpcId !== null || x.session !== null || x.requestId !== null || x.httpMethod !== null || also(x));
  // One exchange logged twice in a row: a status with nothing else (httpcore's
  // `receive_response_headers.complete return_value=(b'HTTP/1.1', 404, …)`) and, right under it, the
  // summary with method and URL (httpx's `HTTP Request: POST … "HTTP/1.1 404 Not Found"`).
  eachNeighbour((p, e, a, b) => {
    if (p.httpStatus === null || e.httpStatus !== p.httpStatus || e.httpMethod === null || identified(a, (x) => x.rpcMethod !== null || x.tool !== null)) return;
    if (p.ts !== null && e.ts !== null ? Math.abs(e.ts - p.ts) <= 2000 : e.line - p.endLine <= 3) merge(b, a);
  });
  // uvicorn and other servers log the access line after the exception it ended with: in a server's log, a
  // 5xx exchange right under a traceback with no identity of its own (within two lines, at the same
  // moment) is that traceback's answer
  // (and a warning or error line saying why it refused the request, then its 4xx: `Rejected request with
  // unknown or expired session ID`, then `"POST /mcp" 404`)
  const sessionOnly = (s: SpanBuild) => !s.events.some((x) => x.rpcId !== null || x.requestId !== null || x.httpMethod !== null || x.httpStatus !== null);
  eachNeighbour((p, e, a, b) => {
    if (p.source !== 'server' || e.source !== 'server') return;
    if (e.httpStatus === null || e.httpMethod === null || e.line - p.endLine > 2) return;
    if (p.kind === 'block' ? e.httpStatus < 500 : e.httpStatus < 400 || (p.level !== 'warn' && p.level !== 'error')) return;
    if (p.ts !== null && e.ts !== null && Math.abs(e.ts - p.ts) > 1000) return;
    // (the refusal may name the session it refused: that does not make it another request, so long as
    // the access line names no other session)
    const sessionsAgree = !p.session || !e.session || p.session === e.session;
    if (isFailureEvent(p) && (!identified(a, (x) => x.httpStatus !== null) || (p.kind !== 'block' && sessionOnly(a) && sessionsAgree))) merge(b, a);
  });
  // One error printed over several adjacent lines that no format folded (a test runner's `Failed X`,
  // `Error Message:`, the exception, `---- Inner: …`): an exception line (or .NET's inner-exception
  // marker) right under another error line, neither with an identity of its own, logged at the same
  // moment, continues it — one failure, its causes read together.
  const bare = (s: SpanBuild) => !identified(s, (x) => x.rpcMethod !== null || x.tool !== null || x.httpStatus !== null);
  // (or an untimed exception line right under a record whose message ends in a colon, the way Rich's
  // handler prints `[03:52:10] ERROR    Error reading SSE stream:` and then the exception on lines of its own)
  eachNeighbour((p, e, a, b) => {
    const sameRecord = p.ts === e.ts || (e.ts === null && INTRODUCES.test(p.message));
    if (e.line - p.endLine > 2 || !sameRecord || !CHAINED_EXCEPTION.test(e.message)) return;
    if (isFailureEvent(p) && isFailureEvent(e) && bare(a) && bare(b)) merge(a, b);
  });
  // A logged record and the stack printed under it (logback's and log4j's `log.error(msg, ex)`, Python's
  // `logger.exception`: the record's line, then the exception and its frames, which a format leaves as an event
  // of its own when the record's layout is not the stack's) are one report: one failure, whatever identity the
  // record or the stack was joined to — so long as the two do not name different calls (issue #17 kind 4: one
  // error reported twice became two failures, the record first). The stack opens with the exception itself, at
  // the record's time (or untimed), at most a blank line below it.
  eachNeighbour((p, e, a, b) => {
    if (p.kind === 'block' || (p.level !== 'warn' && p.level !== 'error' && p.level !== 'fatal') || e.line - p.endLine > 2) return;
    if (!isPrintedException(e) || !isFailureEvent(e)) return;
    if (e.ts !== null && p.ts !== null && e.ts !== p.ts) return;
    if (!sameCallIfNamed(a, b)) return;
    merge(a, b);
  });
  // A supervisor's line naming the worker it killed (gunicorn `WORKER TIMEOUT (pid:7)`, `Worker (pid:17) was sent
  // SIGKILL!`; uWSGI `HARAKIRI ON WORKER 2 (pid: 9, …)`; PHP-FPM `child 1234 … execution timed out`; Unicorn
  // `PID:1234 timeout`; the kernel's `Killed process 1234`) ended the call that worker had open: the last call the
  // same file logged from that pid before the kill, if nothing says it was answered — whatever line the
  // supervisor's happens to sit under (failure-signatures stage H; lifecycle.json server-exited's sources).
  for (const list of byFile.values())
    for (const e of list) {
      const pid = killedPid(e);
      if (pid === undefined) continue;
      const s = owner.get(e)!;
      if (identified(s, (x) => x.rpcMethod !== null || x.tool !== null)) continue;
      const ofWorker = list.filter((x) => x.line < e.line && x.attrs.pid !== undefined && String(x.attrs.pid) === pid);
      let at = ofWorker.length - 1;
      while (at >= 0 && ofWorker[at]!.rpcMethod === null && ofWorker[at]!.tool === null) at--;
      const call = ofWorker[at];
      if (!call || (call.ts !== null && e.ts !== null && e.ts - call.ts > WORKER_KILL_MS)) continue;
      const c = owner.get(call)!;
      // (answered: its own lines say so, or the worker's next lines do — `response id=41 status=ok`, which may
      // carry no method of its own)
      if (c === s || c.events.some(answeredLine) || ofWorker.slice(at + 1).some(answeredLine)) continue;
      merge(c, s, 'worker-pid');
    }
  // A client line whose only identity is a bare `id=N` (`id=3 stream error: …`, `id=4 200
  // text/event-stream`): its logger prints the JSON-RPC id of the request it is about, and that request is
  // the call the same file logged with id N most recently before it (within the answer wait, or 200 lines
  // untimed). Only client lines, only a call that names its method or tool: never another file's id N. A server's
  // lines too when the id is a string a client minted (`id=qa-88 pulled 412,880 rows`): a bare number there may be
  // any record's id, a minted string is the request's.
  const callsById = new Map<string, Event[]>(); // file|id → the call lines, in line order
  const mayCarryBareId = (e: Event) => e.source === 'client' || e.source === 'unknown' || e.source === 'server';
  for (const list of byFile.values())
    for (const e of list) {
      if (e.rpcId === null || (e.rpcMethod === null && e.tool === null) || !mayCarryBareId(e)) continue;
      const k = `${e.file}|${e.rpcId}`;
      (callsById.get(k) ?? callsById.set(k, []).get(k)!).push(e);
    }
  for (const list of byFile.values())
    for (const e of list) {
      if (!mayCarryBareId(e) || e.rpcId !== null || e.rpcMethod !== null || e.session !== null || e.requestId !== null || e.httpMethod !== null) continue;
      const s = owner.get(e)!;
      if (s.events.some((x) => x !== e && (x.rpcId !== null || x.session !== null || x.requestId !== null || x.httpMethod !== null))) continue;
      // (or a JSON record's own "id" member holding an id a client minted — `"id":"w3-1201"` beside a message that
      // names no method: the structured logger's field for the request it is about)
      const id = BARE_ID.exec(e.message)?.[1] ?? (e.format === 'json-lines' ? JSON_MINTED_ID.exec(e.text)?.[1] : undefined);
      if (id === undefined || (e.source === 'server' && /^\d+$/.test(id))) continue;
      const call = callsById
        .get(`${e.file}|${id}`)
        ?.filter((c) => c.line < e.line && (c.ts !== null && e.ts !== null ? e.ts - c.ts <= ANSWER_WAIT_MS : e.line - c.endLine <= 200))
        .at(-1);
      if (call && owner.get(call) !== s && (s.tool === null || s.tool === owner.get(call)!.tool)) merge(owner.get(call)!, s, 'rpcId');
    }
  for (const list of byFile.values()) {
    let current: SpanBuild | null = null;
    let last: Event | null = null;
    for (const e of list) {
      const s = owner.get(e)!;
      // a traceback right under the line that introduced it ("ERROR - Error in message router", then
      // the trace) belongs to that line, keyed or not
      if (
        e.kind === 'block' &&
        BARE_BLOCKS.has(e.format) &&
        BARE_START.test(e.text) &&
        last &&
        !BARE_BLOCKS.has(last.format) &&
        last.file === e.file &&
        e.line - last.endLine <= 6 &&
        !isKeyed(s) &&
        !servedWell(last)
      ) {
        merge(owner.get(last)!, s);
        last = e;
        continue;
      }
      // an answer keyed only by its HTTP status (`Error POSTing to endpoint (HTTP 504)`, curl's
      // `HTTP/1.1 307`) right under the line that sent a call and saw no answer yet is that call's answer
      if (current && last && answersCall(s, current, e, last)) {
        merge(current, s);
        last = e;
        continue;
      }
      if (isKeyed(s) || namesCall(s) || !last || !current) {
        current = isKeyed(s) || namesCall(s) ? s : current;
        last = e;
        continue;
      }
      const close = e.ts !== null && last.ts !== null ? Math.abs(e.ts - last.ts) <= 2000 : e.line - last.endLine <= 3;
      const noise = STREAM_NOISE.test(e.message) && !current.events.some((x) => noteJoins(e.message, x.httpMethod));
      // a client saying it connected or resumed speaks of what came after, not of this request
      // nor does anything join a call the client already saw return
      const returned = current.events.some((x) => x.signals.includes('call-returned') && (x.file !== e.file || x.line < e.line));
      // nor a balancer's health-check verdict on a backend (HAProxy's `Server be/x is DOWN, reason: Layer4 …`): it is
      // about the backend, not the request logged above it
      const backendVerdict = e.httpPath === null && e.signals.includes('health-check-probe') && current.events.some((x) => x.httpPath !== null);
      // nor an exporter's failure to reach its own collector: another path (triage-rules §1)
      const otherPath = e.signals.includes('telemetry-export-failed');
      if (close && !noise && s !== current && !isRecoveryLine(e) && !otherCall(s, current) && !returned && !servedWell(last) && !backendVerdict && !otherPath) merge(current, s);
      if (noise) current = null;
      last = e;
    }
  }
  // A client's failed call that quotes no status, and a proxy's failure with no client line, logged at the
  // same moment (two clocks' stamps within SAME_MOMENT_MS), each the other's only such partner: the proxy
  // line is why the call failed (Caddy's `read: connection reset by peer` 502 under Claude Code's `Error
  // POSTing to endpoint:`). Nothing else joins them — no shared id is logged — so only a unique pair joins.
  const clientFail = (s: SpanBuild) =>
    (s.method !== null || s.tool !== null) &&
    s.events.some((x) => x.source === 'client' && isFailureEvent(x)) &&
    s.events.every((x) => x.source === 'client' && x.httpStatus === null && x.requestId === null);
  const proxyFail = (s: SpanBuild) =>
    s.events.length > 0 &&
    s.events.every((x) => x.source === 'proxy' && x.rpcMethod === null && x.tool === null) &&
    s.events.some((x) => isFailureEvent(x) && (x.httpStatus === null || x.httpStatus >= 500));
  const failedAt = (s: SpanBuild) =>
    s.events
      .filter(isFailureEvent)
      .map((x) => x.ts)
      .filter((t): t is number => t !== null);
  const near = (a: number[], b: number[]) => a.some((x) => b.some((y) => Math.abs(x - y) <= SAME_MOMENT_MS));
  const calls = spans.filter(clientFail);
  const cuts = spans.filter(proxyFail);
  if (calls.length && cuts.length && calls.length * cuts.length <= 1_000_000) {
    const at = new Map<SpanBuild, number[]>([...calls, ...cuts].map((x) => [x, failedAt(x)]));
    for (const call of calls) {
      const partners = cuts.filter((c) => c.events.length > 0 && near(at.get(call)!, at.get(c)!));
      if (partners.length !== 1) continue;
      const cut = partners[0]!;
      if (calls.filter((c) => c !== call && c.events.length > 0 && near(at.get(c)!, at.get(cut)!)).length) continue;
      merge(call, cut, 'proxy-error+client+time');
    }
  }
  for (let i = spans.length - 1; i >= 0; i--) if (!spans[i]!.events.length) spans.splice(i, 1);
}

/** Two logs' stamps of one moment: a client's error line and the proxy's line for the same cut. */
const SAME_MOMENT_MS = 250;

/** The lines of client logs (and logs whose side is not known), by file in line order, with their span. */
function clientLinesByFile(spans: readonly SpanBuild[]): { owner: Map<Event, SpanBuild>; byFile: Map<string, Event[]> } {
  const owner = new Map<Event, SpanBuild>();
  for (const s of spans)
    for (const e of s.events) {
      if (e.source === 'proxy' || e.source === 'server') continue;
      owner.set(e, s);
    }
  return { owner, byFile: linesByWriter(owner.keys()) };
}

/**
 * Events in line order, one list per file — and one per replica where a file interleaves replicas of one workload
 * (`kubectl logs --prefix` over two pods of a Deployment: the `[pod/x/app]` gutter, attrs.container or attrs.origin).
 * Neighbouring lines of two replicas are two processes' records that happen to interleave, never a call and its
 * outcome (issue #17 kind 4); other writers (a proxy's container beside the app's) stay in the file's list, where a
 * line of one may be the other end of the exchange above it. A line that named no writer (a continuation the gutter
 * did not repeat) belongs to the writer of the line before it.
 */
export function linesByWriter(events: Iterable<Event>): Map<string, Event[]> {
  const byFile = new Map<string, Event[]>();
  for (const e of events) (byFile.get(e.file) ?? byFile.set(e.file, []).get(e.file)!).push(e);
  const out = new Map<string, Event[]>();
  for (const [file, list] of byFile) {
    list.sort((a, b) => a.line - b.line);
    const writers = new Set<string>();
    for (const e of list) {
      const w = writerOf(e);
      if (w !== null) writers.add(w);
    }
    const replicas = new Set([...writers].filter((w) => [...writers].some((o) => replicaWriters(w, o))));
    if (replicas.size === 0) {
      out.set(file, list);
      continue;
    }
    let writer: string | null = null;
    for (const e of list) {
      writer = writerOf(e) ?? writer;
      const key = writer !== null && replicas.has(writer) ? `${file}\u0000${writer}` : file;
      (out.get(key) ?? out.set(key, []).get(key)!).push(e);
    }
  }
  return out;
}

/** How long after a call its process may log that it shuts down for the call to count as cut off by it. */
const STOPPED_WITHIN_MS = 60_000;

/**
 * A call the client sent and never saw answered, when the very next triage line of the same client
 * log says the process is shutting down (mcp-remote's `[Local→Remote] initialize` then `Shutting
 * down...`, a host that exits mid-call): no error line is logged, yet the request was cut off by the
 * stop. Only a call with no answer of any kind (status, result, error, a response line) in its span,
 * and never a notification (those expect no answer).
 */
// (a stop that says nothing was in flight — `draining {"inflight": 0}` — cut no call, whatever was logged before it)
const isStop = (e: Event) => e.signals.includes('shutdown') && !e.signals.includes('idle-at-stop');

/** A client line that answers, or may answer, a call: a status, a response, a result, an error. */
// (a line that says the call finished — `call-returned`, a host's transcript showing its answer — is one;
// so is one that says the client connected or resumed: the answer to a connect)
const answerLike = (e: Event) =>
  e.httpStatus !== null ||
  e.attrs.direction === 'response' ||
  e.signals.some((id) => signalTable().meaning(id)?.outcome === 'completion') ||
  isRecoveryLine(e) ||
  isFailureEvent(e);

/**
 * A call (never a notification: those expect no answer) whose span holds only the client's own
 * lines and no answer of any kind. The stop line may have joined the span (an unkeyed line under it).
 */
// (lines of one file only: a second log that names the same call — a server's line of it, in a file whose side
// the name does not say — is the other side having seen it)
const waitingCall = (s: SpanBuild) =>
  (s.method !== null || s.tool !== null) &&
  !(s.method ?? '').startsWith('notifications/') &&
  s.events.every((e) => isStop(e) || ((e.source === 'client' || e.source === 'unknown') && !answerLike(e))) &&
  new Set(s.events.filter((e) => !isStop(e)).map((e) => e.file)).size <= 1;

function markStoppedWhileWaiting(spans: SpanBuild[]): void {
  const { owner, byFile } = clientLinesByFile(spans);
  for (const list of byFile.values()) {
    for (let i = 0; i < list.length; i++) {
      const s = owner.get(list[i]!)!;
      if (s.stoppedBy || isStop(list[i]!) || !waitingCall(s)) continue;
      let j = i + 1;
      while (j < list.length && owner.get(list[j]!) === s && !isStop(list[j]!)) j++;
      const next = list[j];
      if (!next || !isStop(next)) continue;
      const last = list[j - 1]!;
      const soon = next.ts !== null && last.ts !== null ? next.ts - last.ts >= 0 && next.ts - last.ts <= STOPPED_WITHIN_MS : next.line - last.endLine <= 20;
      if (soon) {
        s.stoppedBy = next;
        if (owner.get(next) !== s) s.events.push(next);
      }
    }
  }
}

/**
 * failure-signatures (c) stage H (sent, no status line came back), when nothing else failed: a
 * client log whose last call is still waiting when the log ends — the call line, then nothing that
 * answers it or anything else (no status, response, result or error later in that file), and no
 * proxy or server line joined to it. The "it just hangs" report: no error is ever logged because the
 * client is still waiting. Only when no other failure is found (an excerpt cut after an error says
 * nothing about the calls after it), only the last call of each client log, only when the log ends
 * within two minutes of it, and never when another log (the server's, the proxy's) names that call after it was sent.
 */
/** How soon after its last call a client log must end for the call to count as left waiting. */
const ENDED_WITHIN_MS = 120_000;
/** …or, untimed, within this many lines. */
const ENDED_WITHIN_LINES = 40;
/** Two hosts' clocks may disagree by this much. */
const HELD_CLOCK_SLACK_MS = 5_000;

function markEndedWaiting(spans: SpanBuild[], ends: ReadonlyMap<string, FileEnd>): SpanBuild[] {
  const { owner, byFile } = clientLinesByFile(spans);
  const marked: SpanBuild[] = [];
  // another log's lines naming a call: the other side of it (a server log that never shares an id with
  // the client's still says the call arrived and was handled; its side may not be known by name)
  const naming = spans.flatMap((s) => s.events).filter((e) => e.tool !== null || e.rpcMethod !== null);
  for (const list of byFile.values()) {
    let call = -1;
    for (let i = list.length - 1; i >= 0; i--) {
      const e = list[i]!;
      // (any stop ends the search: one with a call in flight is markStoppedWhileWaiting's, one with none cut nothing)
      if (answerLike(e) || e.signals.includes('shutdown')) break;
      const m = e.rpcMethod ?? '';
      if ((e.rpcMethod !== null || e.tool !== null) && !m.startsWith('notifications/')) {
        call = i;
        break;
      }
    }
    if (call < 0) continue;
    const c = list[call]!;
    const s = owner.get(c)!;
    if (s.stoppedBy || s.endedWaiting || !waitingCall(s)) continue;
    // the log must end soon after the call: a client that logs on for minutes went on with its work
    // (its last line of any kind, when the store says where the file ends; else its last triage line)
    const last = list[list.length - 1]!;
    const end = ends.get(c.file);
    const lastTs = end?.lastTs ?? last.ts;
    if (c.ts !== null && lastTs !== null ? lastTs - c.ts > ENDED_WITHIN_MS : (end?.lastLine ?? last.endLine) - c.endLine > ENDED_WITHIN_LINES) continue;
    const heard = naming.some(
      (e) => e.file !== c.file && (s.tool !== null ? e.tool === s.tool : e.rpcMethod === s.method) && (e.ts === null || c.ts === null || e.ts >= c.ts - HELD_CLOCK_SLACK_MS),
    );
    if (heard) continue;
    s.endedWaiting = last;
    marked.push(s);
  }
  return marked;
}

/** A client's own measure of how long a response took to start: `-> 200 (48 ms)`, `in 6.02s`, `took 312ms`. */
const CLIENT_MS = /\((\d{1,7}(?:\.\d+)?) ?ms\)|\b(?:in|took|after) (\d{1,7}(?:\.\d+)?) ?(ms|s)\b/;
/** The same client's other event streams opened within this… */
const STREAM_OPENS_MS = 500;
/** …and this one only after at least this long (and ten times the usual). */
const LATE_HEADERS_MS = 2000;

function clientMs(e: Event): number | null {
  const m = CLIENT_MS.exec(e.message);
  if (!m) return e.durationMs;
  return m[1] !== undefined ? Number(m[1]) : m[3] === 's' ? Number(m[2]) * 1000 : Number(m[2]);
}

/**
 * Row 72 / D19 ("time skew between server send and client receive"): a server that answers a POST with
 * an event stream writes the stream's headers at once — the same client's other stream POSTs show it,
 * opening within 500 ms — so a call whose event-stream headers reached the client only seconds later
 * (≥ 2 s and ten times the usual) was held between them: a buffering hop (proxy_buffering on, gzip on
 * text/event-stream, a tunnel) that releases the response only when it completes. Only the client's own
 * exchange lines (POST, 2xx, text/event-stream, a time it measured), at least two fast ones to compare.
 */
function markLateHeaders(spans: SpanBuild[]): void {
  const { owner, byFile } = clientLinesByFile(spans);
  for (const list of byFile.values()) {
    const streams: { e: Event; ms: number }[] = [];
    for (const e of list) {
      if (e.httpMethod !== 'POST' || e.httpStatus === null || e.httpStatus < 200 || e.httpStatus >= 300 || !/text\/event-stream/i.test(e.message)) continue;
      const ms = clientMs(e);
      if (ms !== null) streams.push({ e, ms });
    }
    const fast = streams.filter((x) => x.ms <= STREAM_OPENS_MS).map((x) => x.ms);
    if (fast.length < 2) continue;
    const usual = fast.sort((a, b) => a - b)[Math.floor(fast.length / 2)]!;
    for (const { e, ms } of streams) {
      if (ms < LATE_HEADERS_MS || ms < usual * 10) continue;
      const s = owner.get(e)!;
      if (s.lateHeaders || (s.method === null && s.tool === null) || (s.method ?? '').startsWith('notifications/')) continue;
      s.lateHeaders = { ms, usualMs: usual, line: e };
    }
  }
}

/** Progress events logged this close together arrived in one read (not as the server sent them). */
const BURST_SPREAD_MS = 250;
/** …and this long after the call was sent, with none before them. */
const BURST_WAIT_MS = 2_000;
const BURST_MIN = 3;

/**
 * Row 72 / D19: a buffering hop (nginx proxy_buffering on, gzip on text/event-stream, a tunnel) holds
 * an SSE response's events until the stream ends, so the client logs its progress notifications in
 * one burst, seconds after it sent the call, instead of as they were sent. Three or more progress
 * lines of one client log within 250 ms, the first ≥ 2 s after the call line above them (with no
 * progress between), mark that call: nothing failed, but the events were held on the way.
 */
function markHeldBursts(spans: SpanBuild[]): void {
  const { owner, byFile } = clientLinesByFile(spans);
  const progress = (e: Event) => e.signals.includes('progress-notification');
  const callLine = (e: Event) =>
    !progress(e) &&
    (e.rpcMethod !== null || e.tool !== null) &&
    !(e.rpcMethod ?? '').startsWith('notifications/') &&
    !e.signals.includes('call-returned') &&
    e.attrs.direction !== 'response';
  for (const list of byFile.values()) {
    // several clients may log into one file: a call and its progress are told apart by tool (or rpc
    // id); progress naming neither belongs to the last call line above it
    const lastCall = new Map<string, Event>();
    const runs = new Map<string, { call: Event | null; events: Event[] }>();
    const keyOf = (e: Event) => (e.tool !== null ? `t:${e.tool}` : e.rpcId !== null ? `i:${String(e.rpcId)}` : '');
    const close = (key: string) => {
      const run = runs.get(key);
      runs.delete(key);
      if (!run || !run.call || run.call.ts === null || run.events.length < BURST_MIN) return;
      const first = run.events[0]!.ts!;
      const spreadMs = run.events[run.events.length - 1]!.ts! - first;
      const waitedMs = first - run.call.ts;
      if (spreadMs < 0 || spreadMs > BURST_SPREAD_MS || waitedMs < BURST_WAIT_MS) return;
      const s = owner.get(run.call)!;
      if (s.heldBurst) return;
      s.heldBurst = { count: run.events.length, spreadMs, waitedMs, first: run.events[0]! };
      for (const x of run.events) if (owner.get(x) !== s) s.events.push(x);
    };
    for (const e of list) {
      const key = keyOf(e);
      if (!progress(e)) {
        if (callLine(e)) {
          close(key);
          lastCall.set(key, e);
          lastCall.set('', e);
        }
        continue;
      }
      if (e.ts === null) continue;
      const run = runs.get(key);
      if (run && e.ts - run.events[run.events.length - 1]!.ts! <= BURST_SPREAD_MS) {
        run.events.push(e);
        continue;
      }
      // a new run: only the first run after a call can show how long the client waited for it
      const call = run ? null : (lastCall.get(key) ?? null);
      close(key);
      lastCall.delete(key);
      if (key === '') lastCall.delete('');
      runs.set(key, { call, events: [e] });
    }
    for (const key of [...runs.keys()]) close(key);
  }
}

/** An exception printed on lines of its own: a bare traceback or stack (no log header of its own), opening with the exception. */
function isPrintedException(e: Event): boolean {
  if (e.kind !== 'block' && !EXCEPTION_LINE_FORMATS.has(e.format)) return false;
  if (!BARE_BLOCKS.has(e.format) && !EXCEPTION_LINE_FORMATS.has(e.format)) return false;
  const nl = e.text.indexOf('\n');
  return BARE_START.test(nl < 0 ? e.text : e.text.slice(0, nl));
}
/** Formats that read an exception's own line (`java.lang.IllegalStateException: …`, `anyio.ClosedResourceError:`). */
const EXCEPTION_LINE_FORMATS = new Set(['exception-line']);

/** Two spans that name no different call: rpc id, session, request id, method and tool agree wherever both say one. */
function sameCallIfNamed(a: SpanBuild, b: SpanBuild): boolean {
  const agree = <T>(x: T | null, y: T | null) => x === null || y === null || JSON.stringify(x) === JSON.stringify(y);
  const requestIds = (s: SpanBuild) => new Set(s.events.map((e) => e.requestId).filter((r): r is string => r !== null));
  const ra = requestIds(a);
  const rb = requestIds(b);
  return (
    agree(a.rpcId, b.rpcId) &&
    agree(a.session, b.session) &&
    agree(a.method, b.method) &&
    agree(a.tool, b.tool) &&
    (ra.size === 0 || rb.size === 0 || [...ra].some((r) => rb.has(r)))
  );
}

/** What a proxy logs when it cut a response stream after its headers, and what a client says when its stream broke. */
const PROXY_CUTS = new Set(['proxy-timeout-mid-stream', 'stream-cut']);
const CLIENT_CUTS = new Set(['stream-cut', 'sse-read-failed', 'peer-closed-before-response', 'conn-reset']);
/** A proxy's line and a client's of one moment: a second's grain and a little skew apart. */
const CUT_SAME_MS = 2000;

/**
 * A proxy's line saying it cut a response stream (HAProxy `sD--` after 50 s, Envoy `200 UC`, nginx `upstream
 * prematurely closed … while reading upstream`) and a client's report that its stream broke (`peer closed connection
 * without sending complete message body`, `SSE stream disconnected: TypeError: terminated`), at the same moment — the
 * proxy's answer time, its stamp or its stamp plus the duration — are one stream's two ends (failure-signatures section
 * (b): a mid-stream cut seen from both sides): the proxy's span joins the client's, when each is the only such line
 * near the other. Neither names the call (a default access format, a transport's line): the moment does, and the
 * client's line was first given to the call it came under (attachOrphans).
 */
function joinProxyCuts(spans: SpanBuild[]): void {
  const t = signalTable();
  const cutBy = (e: Event, set: Set<string>) => e.signals.some((id) => set.has(t.meaning(id)?.cause ?? ''));
  const proxyCuts: { e: Event; s: SpanBuild }[] = [];
  const clientCuts: { e: Event; s: SpanBuild }[] = [];
  for (const s of spans) {
    if (s.events.length === 0) continue;
    // (a proxy's cut already beside the client's report of it is joined)
    const clientCut = s.events.some((e) => (e.source === 'client' || e.source === 'unknown') && cutBy(e, CLIENT_CUTS));
    for (const e of s.events) {
      if (e.ts === null) continue;
      if (!clientCut && e.source === 'proxy' && e.httpMethod !== 'GET' && cutBy(e, PROXY_CUTS)) proxyCuts.push({ e, s });
      else if ((e.source === 'client' || e.source === 'unknown') && cutBy(e, CLIENT_CUTS)) clientCuts.push({ e, s });
    }
  }
  if (!proxyCuts.length || !clientCuts.length) return;
  const moments = (e: Event) => (e.durationMs !== null && e.durationMs > 0 ? [e.ts!, e.ts! + e.durationMs] : [e.ts!]);
  const near = (p: Event, c: Event) => moments(p).some((x) => Math.abs(x - c.ts!) <= CUT_SAME_MS);
  for (const p of proxyCuts) {
    if (p.s.events.length === 0) continue;
    const mine = new Set(clientCuts.filter((c) => near(p.e, c.e) && c.s.events.length > 0).map((c) => c.s));
    if (mine.size !== 1) continue;
    const into = [...mine][0]!;
    const back = new Set(proxyCuts.filter((q) => q.s.events.length > 0 && clientCuts.some((c) => c.s === into && near(q.e, c.e))).map((q) => q.s));
    if (back.size !== 1 || !back.has(p.s) || into === p.s) continue;
    into.events.push(...p.s.events);
    for (const k of p.s.joinedBy) into.joinedBy.add(k);
    into.joinedBy.add('stream-cut+time');
    p.s.events = [];
    refreshSpan(into);
  }
}

/** A span's identity and time after lines joined it. */
function refreshSpan(s: SpanBuild): void {
  const evs = s.events;
  s.rpcId ??= evs.find((e) => e.rpcId !== null)?.rpcId ?? null;
  s.method ??= evs.find((e) => e.rpcMethod)?.rpcMethod ?? null;
  s.tool ??= evs.find((e) => e.tool)?.tool ?? null;
  s.session ??= evs.find((e) => e.session)?.session ?? null;
  s.sources = [...new Set(evs.map((e) => e.source))].sort();
  const ts = evs.map((e) => e.ts).filter((t): t is number => t !== null);
  s.start = ts.length ? Math.min(...ts) : null;
  s.end = ts.length ? Math.max(...ts) : null;
}

const MAX_EVIDENCE = 20;

/** At most 20 lines in time order; the failure lines themselves are never the ones left out. */
function uniqueEvidence(events: Event[]): Evidence[] {
  const byTime = [...events].sort((a, b) => (a.ts ?? 0) - (b.ts ?? 0) || a.file.localeCompare(b.file) || a.line - b.line);
  const seen = new Set<string>();
  const picked: Event[] = [];
  const take = (e: Event) => {
    const k = `${e.file}:${e.line}`;
    if (seen.has(k) || picked.length >= MAX_EVIDENCE) return;
    seen.add(k);
    picked.push(e);
  };
  for (const e of byTime) if (isFailureEvent(e)) take(e);
  for (const e of byTime) take(e);
  const order = new Map(byTime.map((e, i) => [e, i]));
  return picked.sort((a, b) => order.get(a)! - order.get(b)!).map((e) => ({ file: e.file, line: e.line }));
}

function sessionStats(events: Event[]): SessionStat[] {
  const m = new Map<string, SessionStat>();
  for (const e of events) {
    if (!e.session) continue;
    const s = m.get(e.session) ?? { session: e.session, first: null, last: null, deleted: null };
    if (e.ts !== null) {
      s.first = s.first === null ? e.ts : Math.min(s.first, e.ts);
      s.last = s.last === null ? e.ts : Math.max(s.last, e.ts);
    }
    if (e.httpMethod === 'DELETE' && e.httpStatus !== null && e.httpStatus < 300 && e.ts !== null) s.deleted = Math.max(s.deleted ?? -Infinity, e.ts);
    m.set(e.session, s);
  }
  return [...m.values()];
}

function summariseSessions(stats: SessionStat[], failures: Failure[]): SessionSummary[] {
  const m = new Map(stats.filter((s) => /^sess_[a-z2-7]{10,}$/.test(s.session)).map((s) => [s.session, s]));
  const expired = new Map<string, number>();
  for (const f of failures) if (f.session && f.decision === 'reinitialize') expired.set(f.session, (expired.get(f.session) ?? 0) + 1);
  return [...m.entries()]
    .sort((a, b) => (a[1].first ?? 0) - (b[1].first ?? 0))
    .map(([session, s]) => ({
      session,
      firstSeen: s.first === null ? null : new Date(s.first).toISOString(),
      lastSeen: s.last === null ? null : new Date(s.last).toISOString(),
      state:
        s.deleted !== null && expired.has(session)
          ? 'reused_after_expiry'
          : (expired.get(session) ?? 0) > 1
            ? 'reused_after_expiry'
            : expired.has(session)
              ? 'expired'
              : s.deleted !== null
                ? 'deleted'
                : 'active',
    }));
}
