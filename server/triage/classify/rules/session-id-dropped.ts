import type { Rule } from '../rule.ts';
import { describe, has } from '../rule.ts';

// Spec transports, session management (a client MUST send the id it was given on every later request; after a
// 404 it MUST start a new session with initialize) · failure-signatures D10/D14 · mcp-go client/transport/
// streamable_http.go: sendHTTP clears the stored session id on any 404 (ErrSessionTerminated, "need to
// re-initialize") and later requests — its listener's GETs too — go out without one. "Missing session id" to a
// client shown holding a session is that dropped id: the session it had is gone and only a new initialize helps.
// D14 keeps the fix for a client that never sent one (request-rejected-at-validation).
export const sessionIdDropped: Rule = {
  id: 'session-id-dropped',
  decision: 'reinitialize',
  source: 'spec basic/transports (session management) · failure-signatures D10, D14 · mcp-go client/transport/streamable_http.go',
  when(f) {
    if (f.era === 'sessionless') return 'protocol 2026-07-28 has no sessions';
    if (!has(f, 'session-missing')) return 'the request was not refused for a missing session id';
    if (f.sessionSent === true) return 'the request carried a session id';
    if (!f.sessionHeldBefore) return 'nothing shows this client held a session before (a first request, or a header never kept: request-rejected-at-validation)';
    if (f.replicaSplit === true) return 'replicas disagree: the id is lost between them (split-session / affinity)';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was refused for carrying no session id, yet this client had held one (${f.sessionHeldBefore}). A client drops its id when its session ends under it: mcp-go clears the id when a request gets 404 (the server terminated the session — a restart or redeploy, an eviction) and keeps sending without it instead of initializing again. Adding the header back cannot help (that session no longer exists): close the transport, open a new one and initialize again; make the client re-initialize on 404 (or restart it) so it does not loop.`,
  examples: [
    {
      name: "mcp-go's listener GET without the id it dropped",
      facts: {
        httpStatus: 400,
        causes: ['session-missing', 'initialized-before'],
        sessionHeldBefore: 'client.log:3: a listener that runs only after initialize succeeded',
      },
      fires: true,
    },
    {
      name: 'a host that listed tools, then a tools/call without the id',
      facts: { method: 'tools/call', causes: ['session-missing'], sessionHeldBefore: 'host.log:2: a request after initialize was answered' },
      fires: true,
    },
    {
      name: 'near miss: the very first request after initialize, no id ever kept',
      facts: { method: 'tools/list', httpStatus: 400, causes: ['session-missing'], sessionSent: false },
      fires: false,
    },
    {
      name: 'near miss: replicas without affinity',
      facts: { method: 'tools/call', httpStatus: 400, causes: ['session-missing'], sessionHeldBefore: 'x.log:1: a request after initialize was answered', replicaSplit: true },
      fires: false,
    },
  ],
};
