import type { Rule } from '../rule.ts';
import { describe, has } from '../rule.ts';

// triage-rules.md §1 and the decision table: the MCP path worked — the request reached the server, the tool ran or
// the server answered — but the server could not reach its own backend (a database, its connection pool, a cache).
// Nothing in the client, the route or the credentials changes that; a tool that could not get its connection did
// not write (failure-signatures D4 asks what the tool did: here it says it did not get that far). The server's
// owners restore the backend; calls are repeated once it is back.
export const dependencyDown: Rule = {
  id: 'server-dependency-down',
  decision: 'escalate',
  source: 'triage-rules.md §1 and decision table · failure-signatures D4',
  when(f) {
    if (!has(f, 'dependency-unavailable')) return "no line says the server's own backend was unreachable";
    return true;
  },
  rationale: (f) =>
    `${describe(f)} reached the server, but the server could not reach its own backend (its database, connection pool or cache) — the MCP connection, the route and the credentials worked. A tool that could not get its connection did not get as far as writing. Escalate to the server's owners to restore the backend; repeat the call once it is back (retrying now meets the same outage).`,
  examples: [
    {
      name: 'a tool error: could not get a database connection',
      facts: { method: 'tools/call', tool: 'lookup_customer', causes: ['tool-error', 'dependency-unavailable'] },
      fires: true,
    },
    { name: "the server's pool refused, logged on its own", facts: { causes: ['dependency-unavailable', 'conn-refused'] }, fires: true },
    { name: 'near miss: the MCP server itself refused the connection', facts: { method: 'tools/call', causes: ['conn-refused'] }, fires: false },
  ],
};

// The same reading, with the backend seen working again: the server's own log answers a later call and reports no
// backend failure after it (a pool exhausted by a burst and drained, a database failed over). The call that could
// not get its connection did not write, and the outage it met is over: send it again, with a new request id. How the
// backend came to fail (a pool too small for the burst) is the owners' follow-up, not what this call needs.
export const dependencyBack: Rule = {
  id: 'server-dependency-back',
  decision: 'retry',
  source: 'triage-rules.md §1 and decision table · failure-signatures D4 (server-dependency-down: "repeat the call once it is back")',
  when(f) {
    if (!has(f, 'dependency-unavailable')) return "no line says the server's own backend was unreachable";
    if (f.dependencyBackAt === null) return "nothing shows the server's backend working again after this failure";
    return true;
  },
  rationale: (f) =>
    `${describe(f)} reached the server, but the server could not reach its own backend (its database, connection pool or cache), so the call did not get as far as writing. The server answered a later call with no backend failure since (${f.dependencyBackAt}): the outage is over. Send the call again with a new request id. If it recurs under load, the server's owners size the pool or throttle the callers.`,
  examples: [
    {
      name: 'a pool timeout, then the server answers later calls',
      facts: { method: 'tools/call', tool: 'update_ticket', causes: ['tool-error', 'dependency-unavailable'], dependencyBackAt: 'server.log:40' },
      fires: true,
    },
    {
      name: 'near miss: the backend is not seen working again',
      facts: { method: 'tools/call', tool: 'update_ticket', causes: ['tool-error', 'dependency-unavailable'] },
      fires: false,
    },
  ],
};
