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
    // one replica refusing what another accepts at that moment is the deployment's disagreement,
    // whether or not the access lines show the session id: the client's credentials work on the other
    if (f.replicaSplit === true) return true;
    if (f.sessionSent !== true) return 'no session id is shown sent, nor another replica accepting the same moment: a plain auth failure';
    return 'no evidence that another replica served this session';
  },
  rationale: (f) =>
    `${f.method ?? 'The request'}${f.session ? ` carried session ${f.session} and` : ''} got 401 from a replica other than the one that ${f.session ? 'served the session' : 'accepted the same traffic at that moment'} (${f.replicas.join(' vs ')}): behind a balancer without session affinity, a replica that does not hold the session (or is configured differently) rejects it. Fix the deployment (affinity on Mcp-Session-Id, shared session store, or stateless mode; the same auth settings on every replica); re-authenticating does not help.`,
  examples: [
    {
      name: '401 on another replica',
      facts: { httpStatus: 401, sessionSent: true, session: 'sess_aaaaaaaaaa', replicaSplit: true, replicas: ['upstream 10.0.0.1:80', 'upstream 10.0.0.2:80'] },
      fires: true,
    },
    { name: 'a plain 401', facts: { httpStatus: 401, causes: ['auth-rejected'] }, fires: false },
    {
      name: '401 from one pod while another answered 200 that second, no session ids on the lines',
      facts: { httpStatus: 401, replicaSplit: true, replicas: ['api-6f7d9-a1b2c', 'api-6f7d9-x9y8z'] },
      fires: true,
    },
    { name: 'a plain 401 with two replicas that both refuse', facts: { httpStatus: 401, replicas: ['a', 'b'], replicaSplit: null }, fires: false },
  ],
};
