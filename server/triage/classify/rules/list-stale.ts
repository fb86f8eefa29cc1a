import type { Rule } from '../rule.ts';
import { describe, has } from '../rule.ts';

// triage-rules.md decision table (REINIT: state the client holds that the server no longer matches) and the spec's
// list_changed notifications (server/tools, server/prompts, server/resources: a server that changes its lists tells
// its clients, who list again — 2026-07-28 has no session to carry them to a client that is not listening): the client
// called with the arguments or names of a listing it took before the server restarted, and the server refused what it
// named (-32602 invalid params, an unknown tool or prompt). The call is not wrong for the server that answers now and
// the server is not broken: the client's copy is stale. List again (or restart the client's connection) and call with
// what the new listing says. Near misses: the client listed after the restart (then the call itself is wrong); no
// restart between (a client's mistake or a server defect); two versions answering side by side (a canary: the route).
export const listStaleAfterRestart: Rule = {
  id: 'list-stale-after-restart',
  decision: 'reinitialize',
  source: 'triage-rules.md decision table (REINIT) · MCP spec server/tools, server/prompts (list_changed)',
  when(f) {
    if (!has(f, 'invalid-params', 'object-not-found')) return 'the server did not refuse what the call named';
    if (!f.listedBeforeRestart) return "the client's last listing is not shown before a server restart";
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was refused for what it named (${has(f, 'invalid-params') ? 'invalid params' : 'not found'}), and the client built it from a listing it took before the server restarted (${f.listedBeforeRestart}): the server that answers now may define it differently, and a client that was not listening never heard its list_changed. Nothing is broken on either side; the client's copy is stale. List again (or restart the client's connection to the server) and call with what the new listing says; re-sending the same call repeats the refusal.`,
  examples: [
    {
      name: 'prompts/get with the old arguments after the server was replaced',
      facts: { method: 'prompts/get', jsonRpcCode: -32602, causes: ['invalid-params'], listedBeforeRestart: 'inspector.txt:4' },
      fires: true,
    },
    { name: 'near miss: -32602 and the client listed after the restart', facts: { method: 'prompts/get', jsonRpcCode: -32602, causes: ['invalid-params'] }, fires: false },
    { name: 'near miss: a listing before a restart, but the call answered', facts: { method: 'tools/call', tool: 'search', listedBeforeRestart: 'host.log:2' }, fires: false },
  ],
};
