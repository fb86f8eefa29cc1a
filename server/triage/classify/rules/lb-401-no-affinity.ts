import type { Rule } from '../rule.ts';

// failure-signatures D18 / row 93 (sessions split across replicas) — the 401 variant: a replica that
// does not know the session answers 401 behind a round-robin balancer. The same credentials work on
// the replica that holds the session, so it is not an auth problem.
export const lb401NoAffinity: Rule = {
  id: 'lb-401-no-affinity',
  decision: 'fix_route_or_config',
  source: 'failure-signatures D18, row 93 (401 from a replica without the session)',
  when(f) {
    if (f.httpStatus !== 401) return 'status is not 401';
    if (f.sessionSent !== true) return 'no session id is shown sent: a plain auth failure';
    if (f.replicaSplit === true) return true;
    return 'no evidence that another replica served this session';
  },
  rationale: (f) =>
    `${f.method ?? 'The request'} carried session ${f.session ?? ''} and got 401 from a replica other than the one that served the session (${f.replicas.join(' vs ')}): behind a balancer without session affinity, a replica that does not hold the session rejects it. Fix the deployment (affinity on Mcp-Session-Id, shared session store, or stateless mode); re-authenticating does not help.`,
  examples: [
    {
      name: '401 on another replica',
      facts: { httpStatus: 401, sessionSent: true, session: 'sess_aaaaaaaaaa', replicaSplit: true, replicas: ['upstream 10.0.0.1:80', 'upstream 10.0.0.2:80'] },
      fires: true,
    },
    { name: 'a plain 401', facts: { httpStatus: 401, causes: ['auth-rejected'] }, fires: false },
  ],
};
