import type { Rule } from '../rule.ts';
import { describe } from '../rule.ts';

// python-sdk src/mcp/server/streamable_http_manager.py: handle_request raises "Task group is not initialized"
// whenever the manager's task group is unset — before run() was ever entered (a mounted app whose lifespan
// never ran: deployment-broken, fix the wiring) and again after run() has exited, whose `finally` unsets it.
// When the same process answered this path 2xx before (no start or shutdown line between), run() had been
// entered — the wiring is right — and it has since ended without a shutdown: an error escaped the manager's
// task group and took every session with it. Configuration cannot fix that (triage-rules.md decision table:
// escalate, a defect in the server or the SDK); a restart only buys time until the same error comes back.
export const sessionManagerStopped: Rule = {
  id: 'session-manager-stopped',
  decision: 'escalate',
  source: 'triage-rules.md decision table (escalate) · python-sdk streamable_http_manager.py (run() unsets the task group when it exits)',
  when(f) {
    if (!f.signals.includes('session-manager-not-running')) return 'no "task group is not initialized" from the session manager';
    if (f.managerServedEarlier === null) return 'the path is not shown answering before, in the same process: the lifespan may never have run';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} failed because the server's MCP session manager is no longer running ("task group is not initialized"), yet the same process answered this path before (${f.managerServedEarlier}) with no restart or shutdown logged in between. So the lifespan did start the manager, and its task group has since ended: an error escaped it (look above for an ExceptionGroup from the manager's run loop), taking every session with it. Configuration cannot fix this — restart the server to restore service, and report the error that ended the task group to the server's or SDK's maintainers (upgrade if a release handles it).`,
  examples: [
    {
      name: 'served 2xx, then "Task group is not initialized" on the same path',
      facts: { httpStatus: 500, httpPath: '/mcp', signals: ['session-manager-not-running'], causes: ['deployment-broken', 'server-error'], managerServedEarlier: 'server.log:4' },
      fires: true,
    },
    {
      name: 'near miss: the first request after startup gets it (the lifespan never ran)',
      facts: { httpStatus: 500, httpPath: '/mcp', signals: ['session-manager-not-running'], causes: ['deployment-broken', 'server-error'], managerServedEarlier: null },
      fires: false,
    },
    {
      name: 'near miss: a missing module after the path had served',
      facts: { httpStatus: 500, httpPath: '/mcp', signals: ['runtime-dependency-missing'], causes: ['deployment-broken'], managerServedEarlier: null },
      fires: false,
    },
  ],
};
