import type { Facts } from '../facts.ts';
import type { Rule } from '../rule.ts';
import { describe, identifiedCall, interruptionWords, sideEffectWords } from '../rule.ts';

// failure-signatures D19 ("repeated cuts at a fixed interval or buffered SSE → fix the config") and the
// timing fingerprints of section (c): the same call ended by the same timer (a proxy's read/idle timeout,
// or the client's own request timeout) on every attempt, with nothing else broken and never answered.
// Re-sending cannot succeed until the timer or the buffering changes, so that is the next step. A call
// shown to write, or a server line showing the work committed, is judged by the write rules after this
// one (D7); a call whose side effect is unknown is not assumed to write here: the client has already
// sent it on every attempt, and the rationale says to check what those attempts did before the next.
/** The times the call is shown sent: the client's own count, or for a worker timeout the killed requests of the call. */
function sendsShown(f: Facts): number {
  return f.workerTimerCut === true && f.persistent === true && identifiedCall(f) ? Math.max(f.clientSends, f.attempts) : f.clientSends;
}

export const timerEveryAttempt: Rule = {
  id: 'timer-cut-every-attempt',
  decision: 'fix_route_or_config',
  source: 'failure-signatures D19, section (c) timing fingerprints, rows 46, 69, 70, 78, 81, 84',
  when(f) {
    // (the client's own timeout counts when the server is shown taking the call: it is up and working,
    // not hung or gone, which a client timeout alone cannot tell apart — server-did-not-answer)
    const timer = f.proxyTimerCut === true || f.workerTimerCut === true || (f.interruption === 'client-timeout' && f.delivered === true);
    if (!timer) return "no timer ended the exchange (a proxy read/idle timeout, the server's worker timeout, or the client request timeout on a call the server took)";
    // (the client's own log must show it sending the call again — its numbered attempts or its request
    // lines — not one request that a client, proxy and server each reported; counted from the client's
    // lines, so how the logs' clocks line up does not change it)
    // (or, for a worker timeout, the server's own log: each kill is one supervisor line about one request, so
    // failed attempts that were each killed are requests the client sent again, whatever logs it kept)
    if (sendsShown(f) < 2) return 'the client is not shown sending this call more than once';
    if (f.answeredQuicklyBefore !== null) return `the same call was answered in a tenth of the timer before (${f.answeredQuicklyBefore}): the server stopped answering it`;
    if (f.recovered === true || f.persistent === false) return 'an attempt got through';
    if (f.sideEffect === 'write') return `a call that writes (${sideEffectWords(f)}): its outcome comes first (write-outcome-unknown)`;
    if (f.writeEvidence !== null) return 'the server shows the work completed: the result comes first (write-committed-not-delivered)';
    if (f.heldInTransit === true) return 'the server finished before the client gave up: the answer was held on the way (response-held)';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was ended the same way on all ${Math.max(f.attempts, f.clientSends)} attempts (${interruptionWords(f)})${f.knownTimerS ? `, at about ${f.knownTimerS} s` : f.clientTimeoutMs !== null ? `, at the client's ${f.clientTimeoutMs} ms timeout` : ''}, and never answered: the work outlasts a timer on the way, or a proxy holds the stream's events back until it ends. Re-sending cannot succeed until that changes: raise the timeout for the MCP route or the client's timeout for this call (proxy_read_timeout, load balancer idle timeout, the client's request timeout${f.workerTimerCut === true ? ", the server's worker timeout: gunicorn --timeout, uWSGI harakiri" : ''}), turn response buffering off for the event stream (proxy_buffering off, X-Accel-Buffering: no, no gzip of text/event-stream), or move long work to tasks. The client already sent it ${sendsShown(f)} times${f.sideEffect === 'read' ? '' : ': if this call changes state, check what those attempts did before sending it again'}.`,
  examples: [
    {
      name: 'a tools/call cut by nginx at 3 s on both attempts, side effect unknown',
      facts: {
        method: 'tools/call',
        tool: 'stock_report',
        httpStatus: 504,
        interruption: 'proxy-timeout-before-headers',
        proxyTimerCut: true,
        attempts: 2,
        persistent: true,
        clientSends: 2,
        causes: ['proxy-timeout-before-headers'],
      },
      fires: true,
    },
    {
      name: 'the client timeout on every attempt, events held by a buffering proxy',
      facts: {
        method: 'tools/call',
        tool: 'stock_report',
        interruption: 'client-timeout',
        clientTimeoutMs: 4000,
        attempts: 2,
        persistent: true,
        clientSends: 2,
        delivered: true,
        serverLogged: true,
      },
      fires: true,
    },
    {
      name: 'two failure lines of one call the client sent once',
      facts: {
        method: 'tools/call',
        tool: 'ledger_append',
        httpStatus: 504,
        interruption: 'proxy-timeout-before-headers',
        proxyTimerCut: true,
        attempts: 2,
        persistent: true,
        clientSends: 1,
      },
      fires: false,
    },
    {
      name: 'the client timeout on every attempt, nothing shows the server took them',
      facts: { interruption: 'client-timeout', clientTimeoutMs: 60000, attempts: 3, persistent: true, causes: ['client-timeout'] },
      fires: false,
    },
    {
      name: 'one attempt cut by the proxy timer',
      facts: { method: 'tools/call', tool: 'ledger_append', httpStatus: 504, interruption: 'proxy-timeout-before-headers', proxyTimerCut: true, attempts: 1, persistent: null },
      fires: false,
    },
    {
      name: 'every attempt cut, a tool annotated destructive',
      facts: {
        method: 'tools/call',
        tool: 'delete_rows',
        interruption: 'proxy-timeout-before-headers',
        proxyTimerCut: true,
        attempts: 2,
        persistent: true,
        sideEffect: 'write',
        sideEffectSource: 'annotations',
        toolHints: 'destructiveHint: true',
      },
      fires: false,
    },
    {
      name: 'every attempt cut, the server logged the commit',
      facts: {
        method: 'tools/call',
        tool: 'ledger_append',
        interruption: 'proxy-timeout-before-headers',
        proxyTimerCut: true,
        attempts: 2,
        persistent: true,
        writeEvidence: 'server.log:12',
      },
      fires: false,
    },
    {
      name: "three calls each killed by the server's worker timeout, no client log",
      facts: { method: 'tools/call', tool: 'build_graph', interruption: 'connection-closed', workerTimerCut: true, attempts: 3, persistent: true, clientSends: 0 },
      fires: true,
    },
    {
      name: "near miss: one call killed by the server's worker timeout",
      facts: { method: 'tools/call', tool: 'build_graph', interruption: 'connection-closed', workerTimerCut: true, attempts: 1, persistent: true, clientSends: 0 },
      fires: false,
    },
    {
      name: 'every attempt answered 502 by a proxy (no timer)',
      facts: { method: 'tools/call', tool: 'stock_report', httpStatus: 502, interruption: 'bad-gateway', attempts: 3, persistent: true },
      fires: false,
    },
  ],
};
