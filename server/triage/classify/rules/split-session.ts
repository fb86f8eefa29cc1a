import type { Rule } from '../rule.ts';

// failure-signatures D18, rows 52, 93: one session's requests land on replicas that keep sessions
// in memory. Proven by the logs (one replica created the session, another rejected it, and the
// first was not restarted), or by `Server not initialized` with several replicas.
export const splitSession: Rule = {
  id: 'split-session-no-affinity',
  decision: 'fix_route_or_config',
  source: 'failure-signatures D18, rows 52, 93 · triage-rules.md §3 (causes from evidence)',
  when(f) {
    if (f.era === 'sessionless') return 'protocol 2026-07-28 has no sessions to split';
    if (!f.sessionSent) return 'the failing request carried no session id';
    if (f.replicaSplit) return true;
    if (/Server not initialized/.test(f.text) && f.replicas.length > 1) return true;
    return f.replicas.length > 1 ? 'several replicas logged the session, but none is shown creating it while another rejects it' : 'the logs show a single server replica for this session';
  },
  rationale: (f) =>
    `Session ${f.session ?? ''} was created on one replica and ${f.method ?? 'the next request'} was rejected by another (${f.replicas.join(' vs ')}) that was not a restart of it: the load balancer spreads one session over replicas that keep sessions in memory. Reinitializing cannot help (every new session splits the same way). Fix the deployment: affinity on Mcp-Session-Id, a shared session store, or stateless mode.`,
  examples: [
    { name: 'notifications/initialized 404 on the other replica', facts: { httpStatus: 404, method: 'notifications/initialized', sessionSent: true, sessionAssignedEarlier: true, session: 'sess_aaaaaaaaaa', era: 'session', replicaSplit: true, replicas: ['orders-mcp-0', 'orders-mcp-1'], bodyKind: 'jsonrpc-error' }, fires: true },
    { name: 'Server not initialized with two replicas', facts: { httpStatus: 400, sessionSent: true, session: 'sess_aaaaaaaaaa', replicas: ['a', 'b'], text: 'Bad Request: Server not initialized' }, fires: true },
    { name: 'restart on the same host', facts: { httpStatus: 404, sessionSent: true, session: 'sess_aaaaaaaaaa', replicas: ['vm'], replicaSplit: false, era: 'session' }, fires: false },
  ],
};
