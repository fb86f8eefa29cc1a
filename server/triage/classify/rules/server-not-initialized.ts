import type { Rule } from '../rule.ts';
import { describe } from '../rule.ts';

// failure-signatures row 52 and D18: "Server not initialized" — the transport instance that got the
// request never saw initialize: a new transport per request in stateful mode, or another replica/worker.
export const serverNotInitialized: Rule = {
  id: 'server-not-initialized',
  decision: 'fix_route_or_config',
  source: 'failure-signatures row 52, D18',
  when(f) {
    if (!f.causes.includes('server-not-initialized')) return 'no "Server not initialized" answer';
    if (f.era === 'sessionless') return 'protocol 2026-07-28 has no initialize';
    if (f.replicas.length < 2) return 'one server instance in the logs: a restart lost the session (session rules)';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} reached a server transport that never saw this session's initialize ("Server not initialized"): the server builds a new transport per request while keeping state, or a balancer sends the session to another replica or worker. Fix the deployment (one transport per session, affinity on Mcp-Session-Id, or stateless mode); reinitializing repeats it.`,
  examples: [
    {
      name: '400 Server not initialized, two workers',
      facts: { httpStatus: 400, causes: ['server-not-initialized'], era: 'session', replicas: ['pid 10', 'pid 11'] },
      fires: true,
    },
    {
      name: 'Server not initialized after a restart (one instance)',
      facts: { httpStatus: 400, causes: ['server-not-initialized'], era: 'session', replicas: ['vm'] },
      fires: false,
    },
    { name: 'a 400 session unknown', facts: { httpStatus: 400, causes: ['session-unknown'] }, fires: false },
  ],
};
