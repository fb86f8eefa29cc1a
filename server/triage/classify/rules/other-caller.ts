import type { Rule } from '../rule.ts';

// triage-rules.md §1 (the incident is the failing request of the client being triaged) and cli-contract.md
// (optional failures): a shared proxy's or server's log carries every caller's requests — another application's
// expired key, another user's aborted call. When no client line is part of the failure, its access line records a
// caller (address, User-Agent), and a client log that records its own failures covers one of that caller's failures
// with no failure of its own near it (and no failure of that caller lies near one the client logged), the failure
// is someone else's: its owners' to fix, shown beside the incident, never its headline. So is a failure whose caller
// shares neither address nor User-Agent with any request a client logged (another application's long call closed
// after the client's log ends): no coverage is needed to tell a stranger.
export const otherCaller: Rule = {
  id: 'other-caller-failure',
  decision: 'no_action',
  source: 'triage-rules.md §1 · cli-contract.md (optional)',
  role: 'optional',
  when(f) {
    if (f.otherCaller === null) return "nothing shows the failure was another caller's (its caller is unknown, a client's own, or failed while a client did)";
    return true;
  },
  rationale: (f) =>
    `This failure${f.httpStatus ? ` (HTTP ${f.httpStatus}${f.httpPath ? ` on ${f.httpMethod ?? ''} ${f.httpPath}`.replace('  ', ' ') : ''})` : ''} belongs to another caller of the same proxy or server: no line of the client logs here is part of it, and ${
      f.otherCallerStranger
        ? `its caller (${f.otherCaller}) shares neither its address nor its User-Agent with any request the client logs here made`
        : `the same caller failed at ${f.otherCaller} while the client log covering that time logged no failure of its own`
    }. It is that caller's owners' to look at (its credentials, its requests); it does not explain this client's failure.`,
  examples: [
    {
      name: "another application's 401 at a shared gateway",
      facts: { httpStatus: 401, method: 'tools/call', causes: ['auth-rejected'], otherCaller: 'kong-access.log:6' },
      fires: true,
    },
    {
      name: "another application's long call closed by its own client after the client's log ends",
      facts: { httpStatus: 200, method: 'tools/call', causes: ['client-closed-request'], otherCaller: 'haproxy.log:24', otherCallerStranger: true },
      fires: true,
    },
    { name: 'near miss: a 401 whose caller is not shown to be another', facts: { httpStatus: 401, causes: ['auth-rejected'] }, fires: false },
  ],
};
