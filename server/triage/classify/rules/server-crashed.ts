import type { Rule } from '../rule.ts';
import { describe, identifiedCall } from '../rule.ts';

// triage-rules.md decision table: "a defect in the server … that configuration cannot fix (… a server crash
// on valid input …)" → escalate; failure-signatures stage H (crash). The server's own log shows its process
// dying of an error it did not handle (Node's uncaught-exception report, a Go panic) while this request was
// open, and the request was cut by it (the proxy's 502 / "prematurely closed", a cut stream). A kill from
// outside (SIGKILL, OOM, a deploy) is not this: nothing there says the request's input broke the server, and
// the write-outcome rules judge it. A write already shown committed comes first (write-committed).
export const serverCrashed: Rule = {
  id: 'server-crashed-on-request',
  decision: 'escalate',
  source: 'triage-rules.md decision table (escalate: a server crash on valid input) · failure-signatures stage H',
  when(f) {
    if (f.serverCrashedAt === null) return "no unhandled error ended the server's process while this request was open";
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was cut because the server's process died of an error it did not handle (${f.serverCrashedAt}${f.rootException ? `: ${f.rootException.type}` : ''}): a defect in the server, not the network or the client's settings. Escalate to the server's owners with the stack and this request; until it is fixed, the same request can take the server down again, and everything else sent meanwhile is refused.${identifiedCall(f) && f.sideEffect !== 'read' ? ' Whether this call changed anything before the crash is not in the logs: check the target system before running it again.' : ''}`,
  examples: [
    {
      name: 'a tools/call cut with 502 while the server printed an uncaught exception',
      facts: { method: 'tools/call', tool: 'reprice_catalog', httpStatus: 502, interruption: 'closed-before-headers', serverCrashedAt: 'server.log:7' },
      fires: true,
    },
    {
      name: 'near miss: the same cut with no crash in the server log (a kill, a deploy)',
      facts: { method: 'tools/call', tool: 'ledger_append', httpStatus: 502, interruption: 'closed-before-headers' },
      fires: false,
    },
  ],
};
