import type { Rule } from '../rule.ts';
import { describe } from '../rule.ts';

// failure-signatures D9 (resumed SSE with Last-Event-ID), row 61 / spec 2025-03-26 backward
// compatibility (an http-first probe answered 400/404/405, then the SSE transport connected): failures
// the client recovered from on its own. Other recoveries (a transient failure whose call succeeded when
// re-issued) keep their own rule and get the `recovered` role in episodes.ts.
export const recoveredNoise: Rule = {
  id: 'recovered-on-its-own',
  decision: 'no_action',
  source: 'failure-signatures D9, row 61 · spec 2025-03-26 backward compatibility',
  role: 'recovered',
  when(f) {
    const resumedCut = f.resumedStream !== null && f.era !== 'sessionless' && f.interruption === 'stream-cut';
    if (resumedCut) return true;
    // a reconnect that offered its old session id with initialize, was told the session is gone, and
    // initialized again without it at once (spec 2025-03-26+ session management: start a new session)
    if (f.method === 'initialize' && (f.httpStatus === 404 || f.httpStatus === 400) && (f.sessionUnknown === true || f.sessionSent === true) && f.initializedAfter) return true;
    // (spec 2026-07-28 tasks: the client polls tasks/get until the task ends; one poll failing — a replica draining,
    // a 502 — and the next answered leaves the task running, its result still to be read by the same polling)
    if (f.taskPollRecovered !== null) return true;
    if (f.recovered !== true) return 'nothing shows the client recovered';
    const probe = (f.httpStatus === 404 || f.httpStatus === 405 || f.httpStatus === 400 || f.transportMismatch === true) && f.transportFallback && f.firstRequest !== false;
    if (probe) return true;
    if (f.causes.includes('stream-resumed') && f.interruption === 'stream-cut' && f.era !== 'sessionless') return true;
    // (the client's resumption logged on its own lines after the cut — `Reconnected to SSE stream` — with no session
    // id in the logs to key it: the recovery facts.ts found is that resumption)
    if (f.streamResumed && f.interruption === 'stream-cut' && f.era !== 'sessionless') return true;
    if (f.causes.includes('redirect') && f.causes.every((c) => c === 'redirect')) return true; // row 36: followed, answered
    // D6, then the decision table's NONE: a read-only call (by its method, or a read-only tool) interrupted after it
    // was sent by the client's own timer, re-sent by the client and answered: the bounded retry D6 asks for happened
    if (f.interruption === 'client-timeout' && f.sideEffect === 'read' && f.sideEffectSource === 'method') return true;
    return 'the later success is not a transport fallback, a stream resumption or a read re-sent after its timeout';
  },
  rationale: (f) =>
    f.taskPollRecovered !== null
      ? `A poll of ${describe(f)}'s task (tasks/get) failed${f.httpStatus ? ` (HTTP ${f.httpStatus})` : ''}, and the client's next poll of the same task was answered (${f.taskPollRecovered}): the task kept running on the server, and polling — a read the client repeats until the task ends — went on. Nothing to do; do not call the tool again, the task is the work.`
      : f.resumedStream !== null
        ? `${describe(f)}: its SSE response stream was cut after it had started, and the client resumed it (${f.resumedStream}) with GET + Last-Event-ID in the same session; nothing failed after, so the replay delivered the response. Nothing to do${f.sideEffect === 'read' ? '' : ' — and do not re-send it: it ran once'}.`
        : f.method === 'initialize' && f.initializedAfter
          ? `${describe(f)} carried the previous session's id and was told that session is gone (HTTP ${f.httpStatus}); the client then initialized a new session without it, which succeeded. The reconnect worked; nothing to do.`
          : f.causes.includes('redirect')
            ? `The endpoint redirected ${f.httpPath ?? 'the request'} (HTTP ${f.httpStatus ?? '30x'}, a trailing-slash mount) and the client followed it: ${f.recoveredBy}. Expected; set the exact URL to skip the extra round trip.`
            : f.interruption === 'client-timeout' && f.sideEffect === 'read'
              ? `${describe(f)} timed out on the client's own timer; the client sent it again — a read, repeatable by the protocol — and got its answer (${f.recoveredBy}). The bounded retry such a read needs already happened and worked: nothing to do. If the first attempt keeps timing out (a cold start, a slow first connection), raise that timeout or keep the server warm.`
              : f.transportFallback
                ? `The client's first Streamable HTTP attempt got ${f.httpStatus ?? 'an error'} (the expected answer of an older HTTP+SSE server), it fell back to the SSE transport and that worked (${f.recoveredBy}). Expected probing, not a failure; pin the transport to skip the probe if the noise matters.`
                : `The response stream dropped and the client resumed it (${f.recoveredBy}); replay delivered what was pending. Nothing to do.`,
  examples: [
    {
      name: 'mcp-remote http-first 404, SSE fallback connected',
      facts: { httpStatus: 404, firstRequest: true, recovered: true, recoveredBy: 'x:9', transportFallback: true },
      fires: true,
    },
    {
      name: 'initialize with the stale session id 404, then a fresh initialize succeeded',
      facts: { method: 'initialize', httpStatus: 404, sessionUnknown: true, initializedAfter: true, era: 'session' },
      fires: true,
    },
    { name: 'initialize with the stale session id 404, nothing after', facts: { method: 'initialize', httpStatus: 404, sessionUnknown: true, era: 'session' }, fires: false },
    {
      name: 'server/discover timed out on the client, re-sent with a new id and answered',
      facts: { method: 'server/discover', interruption: 'client-timeout', sideEffect: 'read', sideEffectSource: 'method', recovered: true, recoveredBy: 'cli.txt:6 <- 200' },
      fires: true,
    },
    {
      name: 'near miss: a tool read-only by policy timed out, re-sent and answered (a tool is judged by its own rules)',
      facts: { method: 'tools/call', tool: 'get_forecast', interruption: 'client-timeout', sideEffect: 'read', sideEffectSource: 'policy', recovered: true },
      fires: false,
    },
    {
      name: "a task's poll got 502 from a draining replica, the next poll was answered",
      facts: { method: 'tools/call', tool: 'compile_report', httpStatus: 502, interruption: 'bad-gateway', taskPollRecovered: 'agent.jsonl:38', era: 'sessionless' },
      fires: true,
    },
    {
      name: "near miss: a task's poll got 502 and no poll was answered after",
      facts: { method: 'tools/call', tool: 'compile_report', httpStatus: 502, interruption: 'bad-gateway', era: 'sessionless' },
      fires: false,
    },
    {
      name: 'near miss: server/discover timed out, nothing answered after',
      facts: { method: 'server/discover', interruption: 'client-timeout', sideEffect: 'read', sideEffectSource: 'method' },
      fires: false,
    },
    { name: '307 followed to an answer', facts: { httpStatus: 307, causes: ['redirect'], recovered: true, recoveredBy: 'the redirected path /mcp/ answered' }, fires: true },
    { name: 'a first-request 404, later success, no fallback said', facts: { httpStatus: 404, firstRequest: true, recovered: true }, fires: false },
    {
      name: 'POST stream cut, then GET + Last-Event-ID 200 in the same session',
      facts: { method: 'tools/call', tool: 'import_orders', era: 'session', interruption: 'stream-cut', resumedStream: 'client.log:17 GET … -> 200', sideEffect: 'write' },
      fires: true,
    },
    {
      name: '2026 cut stream: no resumption exists',
      facts: { method: 'tools/call', era: 'sessionless', interruption: 'stream-cut', resumedStream: 'client.log:17 GET … -> 200' },
      fires: false,
    },
    { name: 'expired session, host re-initialized itself', facts: { httpStatus: 404, sessionSent: true, sessionUnknown: true, recovered: true, era: 'session' }, fires: false },
  ],
};
