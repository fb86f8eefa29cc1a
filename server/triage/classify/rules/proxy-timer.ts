import type { Rule } from '../rule.ts';
import { describe, interruptionWords } from '../rule.ts';

// failure-signatures D19 and rows 69, 70, 78, 81, 83, 84: a proxy's read/idle/route timer ended a call
// that was read-only or not identified (writes were judged before this by D5/D7). Re-sending hits the
// same timer: raise it for the MCP location, keep the stream alive with comments, or use tasks.
export const proxyTimer: Rule = {
  id: 'proxy-timer-cut',
  decision: 'fix_route_or_config',
  source: 'failure-signatures D19, rows 69, 70, 78, 81, 83, 84',
  when(f) {
    if (f.proxyTimerCut !== true) return 'no proxy timer ended the exchange';
    // (a timer clips work that takes long; a call the server answered in a tenth of it before did not grow tenfold —
    // the server stopped answering it: a hang to escalate, not a timeout to raise)
    if (f.answeredQuicklyBefore !== null) return `the same call was answered in a tenth of the timer before (${f.answeredQuicklyBefore}): the server stopped answering it`;
    // (failure-signatures D9: a 2025-11-25 stream cut after an event id and resumed — the response came on the resumed
    // stream — needs nothing; cuts at the same age again and again are the timer to fix: stream-cut-at-fixed-interval)
    if (f.streamResumed && f.recovered === true) return `the client resumed the stream and the call went on (${f.recoveredBy}): nothing was lost (D9)`;
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was ended by a proxy timer (${interruptionWords(f)}): the operation or the quiet stream outlasts the proxy's read/idle timeout${f.knownTimerS ? ` (about ${f.knownTimerS} s)` : ''}. Re-sending hits the same timer. Raise the timeout for the MCP route (proxy_read_timeout, Envoy route/idle timeout, load balancer idle timeout, the web container's async request timeout such as spring.mvc.async.request-timeout), send SSE keep-alive comments inside it, or move long work to tasks.`,
  examples: [
    {
      name: 'tools/list cut at 60 s by nginx',
      facts: { method: 'tools/list', proxyTimerCut: true, interruption: 'proxy-timeout-before-headers', sideEffect: 'read', sideEffectSource: 'method', knownTimerS: 60 },
      fires: true,
    },
    { name: 'a 502 without a timer', facts: { httpStatus: 502, interruption: 'bad-gateway' }, fires: false },
    {
      name: 'near miss: the POST stream cut at 30 s, then resumed with Last-Event-ID (D9)',
      facts: {
        method: 'tools/call',
        proxyTimerCut: true,
        interruption: 'stream-cut',
        recovered: true,
        streamResumed: true,
        recoveredBy: 'the client resumed its stream (bot.log:26)',
      },
      fires: false,
    },
    {
      name: 'near miss: the same call answered in 110 ms before the 30 s cut',
      facts: {
        method: 'tools/call',
        tool: 'get_eta',
        proxyTimerCut: true,
        interruption: 'proxy-timeout-before-headers',
        knownTimerS: 30,
        answeredQuicklyBefore: 'app.log:8 (110 ms)',
      },
      fires: false,
    },
  ],
};
