import type { Rule } from '../rule.ts';
import { describe, identifiedCall } from '../rule.ts';

// failure-signatures stage H and D19's reading of a timer: the server's own supervisor killed the worker that
// served this call because the call outran the worker timeout (gunicorn `WORKER TIMEOUT`, uWSGI harakiri,
// PHP-FPM request_terminate_timeout, Unicorn, Puma: signal worker-request-timeout). Nothing broke on the way and
// the input did not crash the server: the work takes longer than the timer allows, so re-sending is killed at the
// same point. A call shown to write was judged before this (write rules); this one is read-only or not identified.
export const workerTimer: Rule = {
  id: 'worker-timer-cut',
  decision: 'fix_route_or_config',
  source: "failure-signatures stage H, D19 · the supervisors' request timers (parsers/signals/lifecycle.json worker-request-timeout)",
  when(f) {
    if (f.workerTimerCut !== true) return "the server's supervisor did not kill the worker for outrunning its timeout";
    // (a kill with no call shown open in that worker says nothing of how long a call takes: a hung worker is the
    // server's to explain — server-error)
    if (!identifiedCall(f)) return 'no call is shown open in the killed worker';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was ended when the server's supervisor killed the worker serving it for outrunning the worker timeout${f.attempts > 1 ? ` (${f.attempts} times)` : ''}: the work takes longer than that timer allows, and re-sending is killed at the same point. Raise the worker timeout for this server (gunicorn --timeout, uWSGI harakiri, PHP-FPM request_terminate_timeout, Puma worker_timeout), serve long calls from async or threaded workers, or move long work to tasks.`,
  examples: [
    {
      name: 'a read-only call killed by gunicorn WORKER TIMEOUT',
      facts: {
        method: 'tools/call',
        tool: 'build_report',
        workerTimerCut: true,
        interruption: 'connection-closed',
        sideEffect: 'read',
        sideEffectSource: 'annotations',
        causes: ['server-exited', 'worker-timeout'],
      },
      fires: true,
    },
    { name: 'near miss: a worker killed with SIGKILL (memory), no timer', facts: { method: 'tools/call', tool: 'build_report', causes: ['server-exited'] }, fires: false },
    { name: 'near miss: a worker timeout with no call shown open in it', facts: { workerTimerCut: true, causes: ['server-exited', 'worker-timeout'] }, fires: false },
  ],
};
