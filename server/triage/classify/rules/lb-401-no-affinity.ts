import type { Rule } from '../rule.ts';

// failure-signatures D18 / row 93 (sessions split across replicas) — the 401 variant: a replica
// that does not know the session answers 401 behind a round-robin load balancer. Not an auth
// problem: the same credentials work on the replica that holds the session.
const LB = /affinity|sticky|load.?balanc|round.?robin|replica|\bLB\b|multiple (?:instances|pods)|scale[ds]? (?:out|to \d)/i;

export const lb401NoAffinity: Rule = {
  id: 'lb-401-no-affinity',
  decision: 'fix_route_or_config',
  source: 'failure-signatures D18, row 93 (401 from a replica without the session)',
  when(f) {
    if (f.httpStatus !== 401) return 'status is not 401';
    if (!f.sessionSent) return 'no session id was sent: a plain auth failure';
    if (f.replicaSplit || f.replicas.length > 1) return true;
    if (LB.test(f.text)) return true;
    return 'no evidence of several replicas or a load balancer';
  },
  rationale: (f) =>
    `${f.method ?? 'The request'} carried session ${f.session ?? '(id)'} and got 401 from ${f.replicas.length > 1 ? `one of ${f.replicas.length} replicas (${f.replicas.join(', ')})` : 'a load-balanced deployment'}: a replica that does not hold the session rejects it, while the same credentials work on the replica that does. Fix the deployment — affinity on Mcp-Session-Id, a shared session store, or stateless mode — not the credentials.`,
  examples: [
    { name: '401 with a session behind round-robin', facts: { httpStatus: 401, sessionSent: true, session: 'sess_aaaaaaaaaa', text: 'only happens behind the round-robin load balancer' }, fires: true },
    { name: '401 without a session', facts: { httpStatus: 401, sessionSent: false }, fires: false },
  ],
};
