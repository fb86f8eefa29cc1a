// Episodes and roles (cli-contract.md): failures of one request, session, replica or outage window
// and cause form an episode; within it each failure is primary, a consequence of an earlier one, an
// optional channel, or recovered. The headline reads primary failures only, so the GET stream's
// reconnect noise, a cancellation after a timeout or the second report of one error never bury the
// failure the user cares about.
import type { SignalCause } from '../../../parsers/contract/signal.ts';
import type { Decision, FailureRole } from '../../contract/analysis.ts';
import type { SpanBuild } from '../correlate/spans.ts';
import { callKey, type Facts, failureCauses, isFailureEvent } from './facts.ts';
import type { Rule } from './rule.ts';

export interface Decided {
  span: SpanBuild;
  facts: Facts;
  rule: Rule;
  decision: Decision;
  rationale: string;
}

export interface Placement {
  role: FailureRole;
  episode: number;
  reason: string;
}

/** Same session, same call, or one outage: within these windows failures belong together. */
const SESSION_MS = 60_000;
const CALL_MS = 120_000;
const OUTAGE_MS = 15_000;
const ADJACENT_MS = 3_000;
const ADJACENT_LINES = 6;
const DUPLICATE_MS = 5_000;
/** Two logs' lines of one answer: written within this of each other (after the clocks are aligned). */
const CROSS_FILE_MS = 1_000;
/** Two logs' only failures with one status, within this of each other: one answer (a log whose clock is not the event's). */
const ONLY_ANSWER_MS = 60_000;
/** Attempts of one unidentified failure, repeated in one file. */
const REPEAT_MS = 15 * 60_000;
const RETRY_CAUSES = new Set<string>(['retry-attempt', 'retries-exhausted']);
const AUTH_CAUSES = new Set<SignalCause>(['auth-rejected', 'auth-token-expired', 'oauth-flow-failed', 'auth-challenge']);

/** Decisions a later success of the same call settles (a transient failure, a token that refreshed). */
const SETTLED_BY_SUCCESS = new Set<Decision>(['retry', 'fix_auth', 'escalate', 'no_action', 'reinitialize']);
const STREAM_ONLY = new Set<SignalCause>(['stream-reconnecting', 'reconnect-exhausted', 'stream-disconnected', 'retry-attempt', 'retries-exhausted', 'stream-cut', 'conn-reset']);

const fileLine = (d: Decided) => {
  const e = d.span.events.reduce((a, b) => (a.line <= b.line ? a : b));
  return { file: e.file, line: e.line, end: Math.max(...d.span.events.filter((x) => x.file === e.file).map((x) => x.endLine)) };
};

/** The server went away for this failure: later refusals and closed connections follow from it. */
const serverGone = (f: Facts) =>
  f.interruption === 'stream-cut' ||
  f.interruption === 'closed-before-headers' ||
  f.interruption === 'bad-gateway' ||
  f.neverConnected === true ||
  f.causes.includes('server-exited');
const connectivity = (f: Facts) => serverGone(f) || f.interruption !== null || (f.httpStatus !== null && f.httpStatus >= 500);
/** A host falls back to legacy SSE at once: its attempt fails within seconds of the failure it fell back from. */
const FALLBACK_MS = 10_000;
/** A failure of the legacy SSE transport's own steps (its GET, its content type): what a fallback attempt meets. */
const legacyAttempt = (f: Facts) =>
  !f.causes.includes('transport-fallback') &&
  (f.causes.includes('transport-legacy') || f.causes.includes('sse-connect-rejected') || f.causes.includes('content-type-wrong') || f.httpMethod === 'GET');
/** An answer that says "not this transport here": what a server speaking only the other one gives the probe. */
const transportRefusal = (f: Facts) =>
  (f.httpStatus !== null && TRANSPORT_REFUSALS.has(f.httpStatus)) ||
  f.causes.includes('route-missing') ||
  f.causes.includes('html-response') ||
  f.causes.includes('content-type-wrong');
const TRANSPORT_REFUSALS = new Set([400, 404, 405, 406, 415]);
/** A path an MCP endpoint is served on (Streamable HTTP, legacy SSE and its message URL, a gateway's prefix). */
const MCP_PATH = /mcp|sse|messages?\b/i;
/** An app's answer to its caller follows the MCP failure that caused it within this. */
const APP_ANSWER_MS = 2_000;
/** A failure that is not about the transport: the server failed, or refused the credentials. */
const otherThanTransport = (f: Facts) =>
  (f.httpStatus !== null && (f.httpStatus >= 500 || f.httpStatus === 401 || f.httpStatus === 403)) || f.causes.some((c) => AUTH_CAUSES.has(c));
const quietFollowUp = (f: Facts) =>
  f.neverConnected === true || f.interruption === 'connection-closed' || f.causes.includes('client-object-closed') || f.causes.includes('connection-closed');

/**
 * A failure that closed its client object for good (python-sdk 3522, or any failure after which the same client
 * refused its next call as closed — facts.clientClosedAfter): the calls after it on that object fail locally.
 */
const closedObject = (d: Decided) => d.facts.knownDefect === 'python-sdk-3522' || d.facts.clientClosedAfter !== null;
/** The DNS resolver's own record of a lookup it failed (CoreDNS SERVFAIL): the far side of a client's DNS failure, no request of its own. */
const resolverSide = (f: Facts) => f.signals.includes('resolver-lookup-failed') && !f.identified;
/** A client's own DNS failure (EAI_AGAIN, `server misbehaving`). */
const clientDns = (f: Facts) => f.causes.includes('dns-failure') && !f.signals.includes('resolver-lookup-failed');

export function placeFailures(items: readonly Decided[]): Placement[] {
  const n = items.length;
  const at = items.map((d) => ({ ts: d.span.start, ...fileLine(d) }));
  // union-find over failures
  const parent = items.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const link = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  const gap = (i: number, j: number): number | null => (at[i]!.ts !== null && at[j]!.ts !== null ? Math.abs(at[i]!.ts! - at[j]!.ts!) : null);
  /** How far failure i is from the nearest failing line of k (null: either untimed). */
  const failureGap = (i: number, k: number): number | null => {
    const t = at[i]!.ts;
    if (t === null) return null;
    let best: number | null = null;
    for (const e of items[k]!.span.events) if (e.ts !== null && isFailureEvent(e) && (best === null || Math.abs(e.ts - t) < best)) best = Math.abs(e.ts - t);
    return best ?? gap(i, k);
  };
  const crossGap = (i: number, j: number): number | null => {
    const gs = [gap(i, j), failureGap(i, j), failureGap(j, i)].filter((x): x is number => x !== null);
    return gs.length > 0 ? Math.min(...gs) : null;
  };
  /**
   * Failure k is failure i's answer as another log recorded it: k names no call, i does, in another file, within a
   * moment (CROSS_FILE_MS), and i's lines say all that k's do — its status too (Tyk's `Certificate has expired` from
   * its certificate check, the client's `403 … Certificate has expired`). Not when k knows more: a server's 503 for
   * a session unknown on its replica is not repeated by the client's message that names no status.
   */
  const farSideOf = (k: number, i: number): boolean => {
    const e = items[k]!.facts;
    const f = items[i]!.facts;
    return (
      !e.identified &&
      f.identified &&
      e.causes.length > 0 &&
      at[k]!.file !== at[i]!.file &&
      (e.httpStatus === null || e.httpStatus === f.httpStatus) &&
      subset(e.causes, f.causes) &&
      (crossGap(i, k) ?? Infinity) <= CROSS_FILE_MS
    );
  };
  const describeAt = (k: number) =>
    `${items[k]!.facts.method ?? (items[k]!.facts.httpMethod ? `${items[k]!.facts.httpMethod} exchange` : 'the failure')} at ${at[k]!.file}:${at[k]!.line}`;
  const nearInFile = (i: number, j: number, lines: number) =>
    at[i]!.file === at[j]!.file && Math.abs(at[i]!.line - at[j]!.line) <= lines + Math.max(at[i]!.end - at[i]!.line, at[j]!.end - at[j]!.line);
  // the server's crash report and the request it cut (facts.serverCrashedAt): one episode, the report its consequence
  const holdsLine = (k: number, where: string) => items[k]!.span.events.some((e) => `${e.file}:${e.line}` === where);
  const crashCut = items.map((_, k) => {
    for (let i = 0; i < n; i++) {
      const w = items[i]!.facts.serverCrashedAt;
      if (i !== k && w !== null && items[k]!.facts.serverCrashedAt === null && holdsLine(k, w)) return i;
    }
    return -1;
  });
  for (let k = 0; k < n; k++) if (crashCut[k]! >= 0) link(k, crashCut[k]!);
  /** Failure j, a quiet "Connection closed" after failure i in i's file. */
  const laterOnClosed = (i: number, j: number) =>
    quietFollowUp(items[j]!.facts) && (at[i]!.ts !== null && at[j]!.ts !== null ? at[j]!.ts! > at[i]!.ts! : at[j]!.line > at[i]!.line);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const a = items[i]!.facts;
      const b = items[j]!.facts;
      const g = gap(i, j);
      const within = (ms: number, lines: number) => (g !== null ? g <= ms : nearInFile(i, j, lines));
      if (a.session !== null && a.session === b.session && within(SESSION_MS, 200)) link(i, j);
      // the later calls on a client object that a cut closed (python-sdk 3522: every later call fails with
      // "Connection closed"), however much later, in the same client's log
      else if (at[i]!.file === at[j]!.file && (closedObject(items[i]!) ? laterOnClosed(i, j) : closedObject(items[j]!) && laterOnClosed(j, i))) link(i, j);
      // the resolver's log of the lookups a client's DNS failure reports (a resolver's log often keeps no date)
      else if (at[i]!.file !== at[j]!.file && ((resolverSide(a) && clientDns(b)) || (resolverSide(b) && clientDns(a))) && (g === null || g <= CALL_MS)) link(i, j);
      else if (callKey(a.method, a.tool) !== null && callKey(a.method, a.tool) === callKey(b.method, b.tool) && within(CALL_MS, 200)) link(i, j);
      else if (connectivity(a) && connectivity(b) && within(OUTAGE_MS, 40)) link(i, j);
      else if (at[i]!.file === at[j]!.file && (g !== null ? g <= ADJACENT_MS : nearInFile(i, j, ADJACENT_LINES))) link(i, j);
      // one answer seen from two logs (a proxy's access line, the client's error): an unidentified failure
      // within a moment of another file's failure, when their statuses do not disagree
      // (from either one's failing lines: a long call's client error and the proxy's access line are written when
      // it ends, long after the call started)
      else if (at[i]!.file !== at[j]!.file && (!a.identified || !b.identified) && compatibleStatus(a, b) && (crossGap(i, j) ?? Infinity) <= CROSS_FILE_MS) link(i, j);
      else if (at[i]!.file === at[j]!.file && (waitsForRefused(a, b, g) || waitsForRefused(b, a, g))) link(i, j);
      // the same unidentified failure again in the same file: attempts of one thing
      else if (at[i]!.file === at[j]!.file && !a.identified && !b.identified && sameFailure(a, b) && (g === null || g <= REPEAT_MS)) link(i, j);
    }
  }
  // episodes numbered by their first failure
  const order = items.map((_, i) => i).sort((x, y) => (at[x]!.ts ?? Infinity) - (at[y]!.ts ?? Infinity) || x - y);
  const number = new Map<number, number>();
  for (const i of order) {
    const r = find(i);
    if (!number.has(r)) number.set(r, number.size + 1);
  }
  const out: Placement[] = items.map((d, i) => ({ role: 'primary', episode: number.get(find(i))!, reason: '' }));
  const dupOf = new Map<number, number>(); // a repeated report → the failure it repeats
  // how many kinds of failure each one's lines report (a context signal — a session assigned, a credential sent —
  // tells about the request, not what went wrong: it does not make a report fuller than its repeat)
  const failed = items.map((d) => new Set(d.span.events.flatMap(failureCauses)).size);
  // roles, walking each episode in time order
  const seen = new Map<number, number[]>(); // episode → earlier failures (indexes), in order
  for (const i of order) {
    const d = items[i]!;
    const f = d.facts;
    const ep = out[i]!.episode;
    // (the resolver's lines are the far side of the client's failure: they never make it a consequence)
    const before = seen.get(ep) ?? [];
    seen.set(ep, [...before, i]);
    const earlier = resolverSide(f) ? before : before.filter((k) => !resolverSide(items[k]!.facts));
    const earlierPrimary = earlier.filter((k) => out[k]!.role === 'primary');
    const first = earlier[0];
    if (d.rule.role) {
      out[i] = { ...out[i]!, role: d.rule.role, reason: firstSentence(d.rationale) };
      continue;
    }
    const lookup = resolverSide(f) ? items.findIndex((x, k) => k !== i && out[k]!.episode === ep && clientDns(x.facts)) : -1;
    if (lookup >= 0) {
      out[i] = { ...out[i]!, role: 'consequence', reason: `the resolver's own record of the lookup that failed at ${describeAt(lookup)}` };
      continue;
    }
    if (crashCut[i]! >= 0) {
      out[i] = { ...out[i]!, role: 'consequence', reason: `the server's crash that cut ${describeAt(crashCut[i]!)}` };
      continue;
    }
    if (f.recovered === true && (SETTLED_BY_SUCCESS.has(d.decision) || d.rule.settledBySuccess)) {
      out[i] = { ...out[i]!, role: 'recovered', reason: f.recoveredBy ?? 'a later success of the same call' };
      continue;
    }
    if (first !== undefined) {
      const streamOnly = !f.identified && f.causes.length > 0 && f.causes.every((c) => STREAM_ONLY.has(c));
      if (streamOnly) {
        out[i] = { ...out[i]!, role: 'consequence', reason: `reconnect attempts after ${describeAt(first)}` };
        continue;
      }
      // the client's summary that it gave up on a call (`giving up after 2 attempts tool=x`), after that call's
      // failed attempts: those attempts are the failure, the summary reports them again
      const countersOnly = f.causes.length > 0 && f.causes.every((c) => RETRY_CAUSES.has(c)) && f.httpStatus === null && f.rootException === null;
      const attempt = countersOnly ? earlier.find((k) => sameCall(items[k]!.facts, f) && !items[k]!.facts.causes.every((c) => RETRY_CAUSES.has(c))) : undefined;
      if (attempt !== undefined) {
        out[i] = { ...out[i]!, role: 'consequence', reason: `the client giving up after the attempts of ${describeAt(attempt)}` };
        continue;
      }
      const dup = earlier.find((k) => {
        const e = items[k]!;
        const g = gap(i, k);
        // the same status, call and causes (a truncated repeat may have lost some of them; a repeat that lost
        // the call's name may be decided differently, knowing less)
        const near = g !== null ? g <= DUPLICATE_MS : nearInFile(i, k, ADJACENT_LINES);
        const again = !f.identified && !e.facts.identified && at[i]!.file === at[k]!.file && sameFailure(e.facts, f);
        // another log's line of the same answer that names no call does not make the call's own report a repeat
        if (f.identified && !e.facts.identified && at[i]!.file !== at[k]!.file) return false;
        // (a report that knows less of the same call — no status, no failure words: a host passing the error
        // on, `returning tool error to model`, right after the call's own failure in the same log — repeats it)
        const lessOfIt = f.httpStatus === null && failed[i] === 0 && e.span.events.some((x) => x.file === at[i]!.file);
        return (
          (e.facts.httpStatus === f.httpStatus || lessOfIt) &&
          (e.facts.tool === f.tool || f.tool === null) &&
          (e.facts.method === f.method || f.method === null || e.facts.method === null) &&
          ((near && subset(f.causes, e.facts.causes) && (e.decision === d.decision || failed[i]! < failed[k]! || (!f.identified && e.facts.identified && f.httpStatus !== null))) ||
            again)
        );
      });
      if (dup !== undefined) {
        dupOf.set(i, dupOf.get(dup) ?? dup);
        out[i] = { ...out[i]!, role: 'consequence', reason: `the same error again (first at ${at[dup]!.file}:${at[dup]!.line})` };
        continue;
      }
      // the client's fallback to the legacy SSE transport after a Streamable HTTP failure it announced ("falling
      // back to SSE", "will attempt to fall back to legacy SSE"): that attempt failing against a server that
      // speaks only Streamable HTTP is expected (spec 2025-03-26 backward compatibility) — the failure it fell
      // back from is the finding
      const fellBackFrom = legacyAttempt(f)
        ? earlier.find((k) => {
            if (!items[k]!.facts.causes.includes('transport-fallback') || at[k]!.file !== at[i]!.file) return false;
            const g = gap(i, k);
            return g !== null ? g <= FALLBACK_MS : nearInFile(i, k, ADJACENT_LINES * 2);
          })
        : undefined;
      if (fellBackFrom !== undefined) {
        out[i] = { ...out[i]!, role: 'consequence', reason: `the client's fallback to legacy SSE after ${describeAt(fellBackFrom)}` };
        continue;
      }
      const closedBy = earlierPrimary.find((k) => closedObject(items[k]!) && at[k]!.file === at[i]!.file);
      if (closedBy !== undefined && quietFollowUp(f)) {
        out[i] = { ...out[i]!, role: 'consequence', reason: `a later call on the client object closed at ${describeAt(closedBy)}` };
        continue;
      }
      // (not this answer's own record in another log: a gateway's whole-second line of the refusal it sent can
      // sort before the client's report of it)
      const gone = earlierPrimary.find((k) => serverGone(items[k]!.facts) && !farSideOf(k, i));
      if (gone !== undefined && quietFollowUp(f)) {
        out[i] = { ...out[i]!, role: 'consequence', reason: `refused after the server went away (${describeAt(gone)})` };
        continue;
      }
      if (f.interruption === 'client-timeout' && earlier.some((k) => sameRequest(items[k]!.facts, f) && serverGone(items[k]!.facts))) {
        out[i] = { ...out[i]!, role: 'consequence', reason: `the client's timeout after ${describeAt(first)}` };
        continue;
      }
      // a host that times out a call the server had already refused (a relay such as mcp-remote logs the
      // error and never passes it on): the refusal is the failure, the wait for it a consequence
      const refused = earlier.find((k) => waitsForRefused(items[k]!.facts, f, gap(i, k)));
      if (refused !== undefined) {
        out[i] = { ...out[i]!, role: 'consequence', reason: `the host's wait for a call already refused (${describeAt(refused)})` };
        continue;
      }
      // a client's timeout after the server refused its session as unknown (restart, eviction): a client that
      // does not handle the refusal (a non-compliant 400 it raises in a background task, failure-signatures row 5;
      // a relay that keeps it, row 60) waits out its timer on the dead session — the lost session is the failure
      const lostBefore = earlierPrimary.find((k) => waitsOnLostSession(items[k]!, f, gap(i, k)));
      if (lostBefore !== undefined) {
        out[i] = { ...out[i]!, role: 'consequence', reason: `the client's wait on a session the server had refused (${describeAt(lostBefore)})` };
        continue;
      }
    }
    out[i] = { ...out[i]!, role: 'primary', reason: first === undefined ? 'starts its episode' : f.identified ? 'a request that failed' : 'not explained by an earlier failure' };
  }
  // A line naming no call that heads an episode only because its log's whole-second stamp sorts it before the
  // identified failure whose answer it records (farSideOf): that failure is the finding, the line its other side.
  for (const k of order) {
    if (out[k]!.role !== 'primary') continue;
    const i = order.find((i) => i !== k && out[i]!.role === 'primary' && out[i]!.episode === out[k]!.episode && farSideOf(k, i));
    if (i !== undefined) out[k] = { ...out[k]!, role: 'consequence', reason: `the other side's record of the answer at ${describeAt(i)}` };
  }
  // The first transport's refusal that the client fell back from (spec 2025-03-26 backwards compatibility:
  // POST first, then the legacy GET on 400/404/405), when the fallback then failed for another reason — a
  // 5xx, an auth refusal: the refusal was the probe a server speaking only the other transport answers,
  // and the fallback's own failure is the finding (mcp-remote `falling-back-to-alternate-transport`).
  for (const i of order) {
    const f = items[i]!.facts;
    const onLegacy = f.causes.includes('transport-legacy') || f.causes.includes('sse-connect-rejected') || f.httpMethod === 'GET';
    if (out[i]!.role !== 'primary' || !onLegacy || !otherThanTransport(f)) continue;
    for (const k of order) {
      const e = items[k]!.facts;
      if (k === i || out[k]!.role !== 'primary' || !e.transportFallback || !transportRefusal(e) || at[k]!.file !== at[i]!.file) continue;
      const g = gap(i, k);
      const before = g !== null ? at[k]!.ts! <= at[i]!.ts! && g <= FALLBACK_MS : at[k]!.line < at[i]!.line && nearInFile(i, k, ADJACENT_LINES * 2);
      if (before)
        out[k] = {
          ...out[k]!,
          role: 'consequence',
          reason: `the first transport's refusal, after which the client fell back; the fallback's own failure (${at[i]!.file}:${at[i]!.line}) is the finding`,
        };
    }
  }
  // An application that calls MCP for its own callers (mcpo, an API in front of an agent) logs its own answer
  // to them right after its MCP call failed: a 5xx access line on a path that is no MCP endpoint, in the
  // same file, moments later. That answer is what the MCP failure did to the app's caller, not a second
  // server failing.
  for (const i of order) {
    const f = items[i]!.facts;
    if (out[i]!.role !== 'primary' || f.identified || f.httpStatus === null || f.httpStatus < 500 || f.httpPath === null || MCP_PATH.test(f.httpPath)) continue;
    const k = order.find((k) => {
      if (k === i || out[k]!.role === 'optional' || at[k]!.file !== at[i]!.file || !items[k]!.facts.identified) return false;
      // (from the MCP failure's own failing lines: its span may have begun long before)
      const g = failureGap(i, k);
      // (uvicorn under Starlette logs the 500 first and then `Exception in ASGI application` with the
      // traceback of what failed: the exception printed just under the access line is that answer's cause)
      const printedUnder = items[k]!.facts.rootException !== null && at[k]!.line > at[i]!.end && at[k]!.line - at[i]!.end <= 3 && (g === null || g <= APP_ANSWER_MS);
      return printedUnder || (g !== null ? at[k]!.line < at[i]!.line && g <= APP_ANSWER_MS : at[k]!.line < at[i]!.line && nearInFile(i, k, ADJACENT_LINES * 4));
    });
    if (k !== undefined) out[i] = { ...out[i]!, role: 'consequence', reason: `the application's own ${f.httpStatus} to its caller after ${describeAt(k)} failed` };
  }
  // A client's own reading of an auth refusal ("token has expired", "authentication failed") with no
  // status of its own (its host may name the tool; the server's access line does not), beside a 401/403
  // the other side logged at that time (or untimed): that refusal reported again. The status-bearing
  // failure carries what is known of it (a 401 from a replica without the session is not the token).
  for (const i of order) {
    const f = items[i]!.facts;
    if (out[i]!.role !== 'primary' || f.httpStatus !== null || !f.causes.length || !f.causes.every((c) => AUTH_CAUSES.has(c))) continue;
    const k = order.find((k) => {
      const e = items[k]!.facts;
      const g = gap(i, k);
      return k !== i && out[k]!.role === 'primary' && (e.httpStatus === 401 || e.httpStatus === 403) && at[k]!.file !== at[i]!.file && (g === null || g <= SESSION_MS);
    });
    if (k !== undefined) out[i] = { ...out[i]!, role: 'consequence', reason: `the client's report of the ${items[k]!.facts.httpStatus} at ${at[k]!.file}:${at[k]!.line}` };
  }
  // An unexplained failure whose answer (status) another log explains — logged at the same time, or with
  // no time to tell — is that answer seen from another side (the host's view of the gateway's 404): it
  // folds under the explained one instead of heading the incident as an unknown.
  // (the Python SDK's "Session terminated" is its report of a 404 whose status line it does not log)
  const statusOf = (f: Facts): number | null => f.httpStatus ?? (f.causes.includes('session-terminated-client') ? 404 : null);
  for (const i of order) {
    const f = items[i]!.facts;
    const status = statusOf(f);
    // (so is a 401/403 read as auth by its number alone — an access line's 403 — when another log says,
    // within seconds, what that same answer was: `Invalid Host: …`)
    const bare = items[i]!.rule.id === 'auth-failure' && f.causes.length === 0 && f.method === null && f.tool === null;
    if (out[i]!.role !== 'primary' || (items[i]!.rule.id !== 'unclassified-failure' && !bare) || status === null) continue;
    const k = order.find((k) => {
      // (from the explained failure's own failing lines: a long call fails well after it started)
      const g = failureGap(i, k);
      return (
        k !== i &&
        out[k]!.role === 'primary' &&
        items[k]!.rule.id !== 'unclassified-failure' &&
        items[k]!.facts.httpStatus === status &&
        at[k]!.file !== at[i]!.file &&
        (items[i]!.rule.id === 'unclassified-failure' ? g === null || g <= SESSION_MS : items[k]!.facts.causes.length > 0 && (g === null || g <= DUPLICATE_MS))
      );
    });
    if (k !== undefined) out[i] = { ...out[i]!, role: 'consequence', reason: `the same ${status} as ${at[k]!.file}:${at[k]!.line} explains` };
  }
  // A status-only line that names no call (a proxy's access line) and another log's identified failure with the
  // same status and HTTP method at the same moment are one answer seen from two sides. When the identified one
  // is not primary — an optional stream's 502 that the client re-sent, a call re-issued and answered — the
  // proxy's view takes its role instead of heading the incident as an unidentified failure of its own. A proxy's
  // "client closed the request" (nginx 499, ALB 460: failure-signatures rows 71, 82) is the proxy's view of the
  // client ending the call itself, whatever status the client's own line shows (none, for a stop or a timeout).
  // When the identified one's log keeps no clock of its own (a pasted CLI transcript; a collector's stamps say when
  // it read the lines), the two are still one answer if each is the only failure with that status in its own log.
  // A proxy that logs the call's MCP method and tool (Kong's, Envoy's or a gateway's `mcp-method`/`mcp-name`
  // headers) names the call it saw the client close: with the same call the client's own lines ended on purpose
  // (a stop, its timeout) within one call's time, it is that ending too — the call's name, not the moment, joins
  // them (the proxy logs when the request started, the client when it gave up). And a failure naming its call is
  // the same answer as another log's failure of that call with the same status at the same moment — or, one log
  // keeping no clock (uvicorn's access lines), each the only failure with that status in its own log: when that
  // view recovered (re-sent and answered), so did this one. (Not a repeat's role: the first report of a failure
  // another log reports twice is still the failure.)
  const withStatus = (status: number, file: string) => items.filter((_, x) => items[x]!.facts.httpStatus === status && at[x]!.file === file).length;
  for (const i of order) {
    const f = items[i]!.facts;
    const named = f.identified && callKey(f.method, f.tool) !== null;
    if (out[i]!.role !== 'primary' || (f.identified && !named) || f.httpStatus === null) continue;
    const k = order.find((k) => {
      const e = items[k]!.facts;
      const g = failureGap(i, k);
      if (named) {
        const oneCall =
          k !== i && out[k]!.role !== 'primary' && callKey(e.method, e.tool) === callKey(f.method, f.tool) && (f.rpcId === null || e.rpcId === null || f.rpcId === e.rpcId);
        if (!oneCall) return false;
        // (the client's own failing lines are in another log than the proxy's record: two views, not one line twice)
        const otherLog = items[k]!.span.events.some((x) => isFailureEvent(x) && x.file !== at[i]!.file);
        if (f.interruption === 'client-gave-up' && clientEnded(e) && otherLog && (g === null || g <= CALL_MS)) return true;
        return (
          out[k]!.role === 'recovered' &&
          e.httpStatus === f.httpStatus &&
          at[k]!.file !== at[i]!.file &&
          g === null &&
          withStatus(f.httpStatus!, at[i]!.file) === 1 &&
          withStatus(f.httpStatus!, at[k]!.file) === 1
        );
      }
      return (
        k !== i &&
        out[k]!.role !== 'primary' &&
        e.identified &&
        (e.httpStatus === f.httpStatus || (f.interruption === 'client-gave-up' && clientEnded(e))) &&
        (e.httpMethod === null || f.httpMethod === null || e.httpMethod === f.httpMethod) &&
        at[k]!.file !== at[i]!.file &&
        ((g !== null && g <= CROSS_FILE_MS) ||
          ((g === null || g <= ONLY_ANSWER_MS) && e.httpStatus === f.httpStatus && withStatus(f.httpStatus!, at[i]!.file) === 1 && withStatus(f.httpStatus!, at[k]!.file) === 1))
      );
    });
    if (k === undefined) continue;
    const same = items[k]!.facts.httpStatus === f.httpStatus;
    out[i] = {
      ...out[i]!,
      role: out[k]!.role,
      reason: same
        ? `the same ${f.httpStatus} answer as ${describeAt(k)}, seen from another log (${out[k]!.role} there)`
        : `the client ending ${describeAt(k)} itself, seen from the proxy as ${f.httpStatus} (${out[k]!.role} there)`,
    };
  }
  // An unexplained error record whose exception was printed on the next lines (Python's logging.exception,
  // a host's formatter putting the type first: `ERROR error executing tool` then `anyio.ClosedResourceError:`
  // and its traceback) is the header of that report when the exception is explained: the stack says what
  // the record only announces (failure-signatures (e): the first exception, not the wrapper). It says
  // nothing of its own (no signal, no status) and names no other call.
  for (const i of order) {
    const f = items[i]!.facts;
    if (out[i]!.role !== 'primary' || items[i]!.rule.id !== 'unclassified-failure' || f.httpStatus !== null) continue;
    if (items[i]!.span.events.some((e) => failureCauses(e).length > 0)) continue;
    const k = order.find((k) => {
      const e = items[k]!.facts;
      const below = at[k]!.line - at[i]!.end;
      return (
        k !== i &&
        out[k]!.role === 'primary' &&
        items[k]!.rule.id !== 'unclassified-failure' &&
        e.rootException !== null &&
        at[k]!.file === at[i]!.file &&
        below >= 1 &&
        below <= 2 &&
        (f.tool === null || e.tool === null || f.tool === e.tool) &&
        (f.method === null || e.method === null || f.method === e.method)
      );
    });
    if (k !== undefined) out[i] = { ...out[i]!, role: 'consequence', reason: `the record the exception at ${at[k]!.file}:${at[k]!.line} was printed under` };
  }
  // A wrapper's message that ends in a colon with its cause on the next line (a JVM `RuntimeException: Tool execution
  // failed:` and below it `Sending message failed with a non-OK HTTP code: 404`; a host's `Error:` then the SDK's
  // words) announces the failure the next line explains: one failure, its cause below (failure-signatures (e): the
  // first exception, not the wrapper). Only an unexplained or unidentified wrapper with no status of its own.
  for (const i of order) {
    const f = items[i]!.facts;
    const id = items[i]!.rule.id;
    if (out[i]!.role !== 'primary' || (id !== 'unclassified-failure' && id !== 'tool-error-unidentified') || f.httpStatus !== null) continue;
    const last = items[i]!.span.events.filter((e) => e.file === at[i]!.file && e.endLine === at[i]!.end).at(-1);
    if (!last || !/:\s*$/.test(last.text)) continue;
    const k = order.find(
      (k) =>
        k !== i &&
        out[k]!.role === 'primary' &&
        items[k]!.rule.id !== 'unclassified-failure' &&
        items[k]!.rule.id !== 'tool-error-unidentified' &&
        at[k]!.file === at[i]!.file &&
        at[k]!.line === at[i]!.end + 1,
    );
    if (k !== undefined) out[i] = { ...out[i]!, role: 'consequence', reason: `the wrapper whose cause is on the next line (${at[k]!.file}:${at[k]!.line})` };
  }
  // A host's count summary (`7 ok / 5 failed`, `200: 7  400: 13`) beside the failures it counts, in the same
  // log: it reports their attempts again (and is the evidence facts.mixedTally quotes), in their episode.
  const tallyOnly = (k: number) => {
    const failing = items[k]!.span.events.filter(isFailureEvent);
    return failing.length > 0 && failing.every((e) => typeof e.attrs.tallyFailed === 'number' && e.attrs.tallyFailed > 0);
  };
  for (const i of order) {
    if (out[i]!.role !== 'primary' || (items[i]!.rule.id !== 'intermittent-retry' && items[i]!.rule.id !== 'unclassified-failure') || !tallyOnly(i)) continue;
    const f = items[i]!.facts;
    const k = order.find(
      (k) =>
        k !== i &&
        out[k]!.role === 'primary' &&
        !tallyOnly(k) &&
        at[k]!.file === at[i]!.file &&
        (callKey(f.method, f.tool) === null || callKey(items[k]!.facts.method, items[k]!.facts.tool) === null || sameRequest(items[k]!.facts, f)),
    );
    if (k !== undefined) out[i] = { role: 'consequence', episode: out[k]!.episode, reason: `the count of the attempts of ${describeAt(k)}` };
  }
  // An unexplained, unidentified failure is primary only when nothing else in its episode is: beside an
  // explained or identified failure it is folded; when all of an episode's failures are unexplained, the
  // first stays primary (every visible error is accounted for).
  const unexplained = (k: number) => items[k]!.rule.id === 'unclassified-failure' && !items[k]!.facts.identified;
  // (a bare 404 read as a lost session only because the same request had worked before — an access line with
  // no method, header or body — says no more than that beside a failure that says why: the same answer seen
  // from the proxy's or server's side; unless it names the replica that answered and replicas disagree)
  const inferredOnly = (k: number) => {
    const f = items[k]!.facts;
    return !!f.sameRequestWorkedAt && !f.identified && f.causes.length === 0 && f.replicaSplit !== true;
  };
  for (const i of order) {
    if (!(unexplained(i) || inferredOnly(i)) || out[i]!.role !== 'primary') continue;
    // (beside a failure the client recovered from, too: a header line of that error's report, a wrapper
    // around it, is not a second failure once the explained one is settled)
    const others = order.filter((k) => k !== i && out[k]!.episode === out[i]!.episode && (out[k]!.role === 'primary' || out[k]!.role === 'recovered'));
    if (others.some((k) => !unexplained(k) && !inferredOnly(k)))
      out[i] = {
        ...out[i]!,
        role: 'consequence',
        reason: unexplained(i)
          ? 'an unexplained error beside the failures of its episode'
          : 'the same answer, seen from another side, beside the failures of its episode that say why',
      };
  }
  // Of an episode's unexplained errors the one that says most stands for it — the line with the status the
  // answer carried, then one a signal read — not just the first: a wrapper line ("connect failed") above the
  // exception that names the 405 is the header of that report.
  const says = (k: number) => (items[k]!.facts.httpStatus !== null ? 2 : 0) + (items[k]!.facts.causes.length > 0 ? 1 : 0);
  const standsFor = new Map<number, number>();
  for (const k of order) {
    if (!unexplained(k) || out[k]!.role !== 'primary') continue;
    const ep = out[k]!.episode;
    const best = standsFor.get(ep);
    if (best === undefined || says(k) > says(best)) standsFor.set(ep, k);
  }
  for (const i of order) {
    if (!unexplained(i) || out[i]!.role !== 'primary') continue;
    if (standsFor.get(out[i]!.episode) !== i) out[i] = { ...out[i]!, role: 'consequence', reason: 'another unexplained error of the same episode' };
  }
  return out;
}

function firstSentence(s: string): string {
  const m = /^(.{20,160}?[.:;])(?:\s|$)/.exec(s);
  return (m ? m[1]! : s.slice(0, 160)).replace(/[:;]$/, '');
}

/**
 * `w` is a host's timeout of a call whose request `r` had been refused with a status (a relay kept the error from
 * it): logged its own timeout after the refused request (`g` apart, within two seconds), the same call or one
 * whose tool the refusal does not name.
 */
function waitsForRefused(r: Facts, w: Facts, g: number | null): boolean {
  return (
    g !== null &&
    w.clientTimeoutMs !== null &&
    Math.abs(g - w.clientTimeoutMs) <= 2000 &&
    w.interruption === 'client-timeout' &&
    w.httpStatus === null &&
    r.httpStatus !== null &&
    r.httpStatus >= 400 &&
    (r.tool === null || r.tool === w.tool) &&
    (r.method === null || w.method === null || r.method === w.method) &&
    // (the standalone GET stream refused as the client opened it is not the POST of a call made beside it)
    (r.httpMethod === null || w.httpMethod === null || r.httpMethod === w.httpMethod)
  );
}

/**
 * `w` is a client's own timeout (no answer of its own) after `r`, a refusal of its session the server no longer
 * knew (decided reinitialize): the same session or call, or one side naming none, and not long after (a later
 * timeout on another session is its own failure).
 */
function waitsOnLostSession(r: Decided, w: Facts, g: number | null): boolean {
  const e = r.facts;
  return (
    r.decision === 'reinitialize' &&
    e.sessionUnknown === true &&
    w.interruption === 'client-timeout' &&
    w.httpStatus === null &&
    (g === null || g <= SESSION_MS) &&
    (e.session === null || w.session === null || e.session === w.session) &&
    (e.tool === null || w.tool === null || e.tool === w.tool) &&
    (e.method === null || w.method === null || e.method === w.method)
  );
}

/** Neither status contradicts the other (one unknown, or the same). */
/** The client itself ended the call: it cancelled it, gave up waiting, or closed it first. */
const clientEnded = (f: Facts) => f.interruption === 'caller-cancelled' || f.interruption === 'client-timeout' || f.interruption === 'client-gave-up';
function compatibleStatus(a: Facts, b: Facts): boolean {
  return a.httpStatus === null || b.httpStatus === null || a.httpStatus === b.httpStatus;
}
/** One request: the same session, or the same method and tool. */
function sameRequest(e: Facts, f: Facts): boolean {
  const k = callKey(f.method, f.tool);
  return (f.session !== null && e.session === f.session) || (k !== null && callKey(e.method, e.tool) === k);
}

/** The call `f` summarises: the same request, or — `f` naming none — any call of its episode. */
function sameCall(e: Facts, f: Facts): boolean {
  return callKey(f.method, f.tool) === null || sameRequest(e, f);
}

/** The same failure causes, apart from the attempt counters around them. */
function sameFailure(a: Facts, b: Facts): boolean {
  const x = a.causes.filter((c) => !RETRY_CAUSES.has(c));
  const y = b.causes.filter((c) => !RETRY_CAUSES.has(c));
  return x.length > 0 && subset(x, y) && subset(y, x) && a.httpStatus === b.httpStatus;
}

/** Every cause of `a` is one of `b`'s. */
function subset(a: readonly string[], b: readonly string[]): boolean {
  const s = new Set(b);
  return a.every((x) => s.has(x));
}
