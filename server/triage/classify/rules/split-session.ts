import type { Rule } from '../rule.ts';
import { has } from '../rule.ts';

// failure-signatures D18, rows 52, 93: one session's requests land on replicas (or workers) that keep
// sessions in memory. Proven by the logs: one replica created or served the session, another rejected
// it and was not a restart of the first (hostname, pod, instance, pid or the proxy's upstream address).
export const splitSession: Rule = {
  id: 'split-session-no-affinity',
  decision: 'fix_route_or_config',
  source: 'failure-signatures D18, rows 52, 93 · triage-rules.md §3 (causes from evidence)',
  when(f) {
    if (f.era === 'sessionless') return 'protocol 2026-07-28 has no sessions to split';
    if (f.replicaSplit !== true)
      return f.replicas.length > 1 ? 'several replicas served the session, but none is shown rejecting what another created' : 'no evidence of a second replica';
    if (f.sessionUnknown !== true && !has(f, 'server-not-initialized') && f.httpStatus !== 404 && f.httpStatus !== 400) return 'the other replica did not reject the session';
    return true;
  },
  rationale: (f) =>
    `${f.session ? `Session ${f.session} was served by one replica` : 'One replica accepted the traffic'} and ${f.method ?? 'the next request'} was rejected by another (${f.replicas.join(' vs ')}) that was not a restart of it: the balancer spreads one session over replicas that keep sessions in memory. Reinitializing cannot help (every new session splits the same way). Fix the deployment: affinity on Mcp-Session-Id, a shared session store, or stateless mode.`,
  examples: [
    {
      name: 'notifications/initialized 404 on the other replica',
      facts: {
        httpStatus: 404,
        method: 'notifications/initialized',
        sessionSent: true,
        sessionUnknown: true,
        session: 'sess_aaaaaaaaaa',
        era: 'session',
        replicaSplit: true,
        replicas: ['orders-mcp-0', 'orders-mcp-1'],
      },
      fires: true,
    },
    {
      name: 'Server not initialized with two replicas',
      facts: { httpStatus: 400, sessionSent: true, replicaSplit: true, replicas: ['a', 'b'], causes: ['server-not-initialized'] },
      fires: true,
    },
    { name: 'restart on the same host', facts: { httpStatus: 404, sessionSent: true, sessionUnknown: true, replicas: ['vm'], replicaSplit: false, era: 'session' }, fires: false },
  ],
};
