import type { Rule } from '../rule.ts';
import { describe, has, interruptionWords } from '../rule.ts';

const PERSISTENT_ATTEMPTS = 3;

// failure-signatures D1's "persistent → fix" at the proxy's hop (rows 66, 68, 76: nginx `prematurely closed
// … while reading response header`, Envoy `UC … reset before headers`, 502/503 from the proxy) with
// triage-rules.md's "FIX … proxy, deployment": one 502 before headers is a blip (D6/D7), but a proxy whose
// upstream fails every request, on at least three attempts, while nothing in the incident ever got an
// answer from the MCP endpoint, is not transient: the upstream the proxy points at is not an MCP server
// that answers (wrong port or protocol, a stdio-only binary, a gateway filter in the way).
export const upstreamNeverAnswered: Rule = {
  id: 'upstream-never-answered',
  decision: 'fix_route_or_config',
  source: 'failure-signatures D1 (persistent → fix), rows 66, 68, 76 · triage-rules.md (FIX proxy, deployment)',
  when(f) {
    const cut = f.interruption === 'closed-before-headers' || f.interruption === 'bad-gateway';
    if (!cut) return 'not a proxy answer before the upstream sent headers (502/503, reset before headers)';
    if (f.endpointWorked) return 'some exchange with the MCP endpoint succeeded in this incident';
    if (f.persistent !== true || f.attempts < PERSISTENT_ATTEMPTS) return 'not shown to fail on every one of at least three attempts';
    // (row 66: "backend down/restarting → SEND/RETRY")
    if (f.serverStartedAfter) return 'the server logged its start after these failures: it was down (a deploy or restart), not misrouted';
    if (f.serverStoppedBefore) return 'the server logged that it stopped before these failures and has not started since: it is down, not misrouted';
    if (f.writeEvidence) return 'the server logged work for this request';
    if (has(f, 'client-timeout')) return "the client's own timer ended it";
    return true;
  },
  rationale: (f) =>
    `${describe(f)} failed before the upstream answered (${interruptionWords(f)}) on all ${f.attempts} attempts, and no request in these logs ever got an answer from the MCP endpoint: not a blip a retry outlasts. The proxy's upstream is not serving MCP over HTTP at that address — check the proxy's upstream host, port and protocol, that the server runs its HTTP transport (not stdio) and is up there, and any gateway filter or plugin on the route; nothing ran, so requests can be sent again once it answers.`,
  examples: [
    {
      name: '502 prematurely closed on every one of 5 requests, nothing ever answered',
      facts: { httpStatus: 502, interruption: 'closed-before-headers', attempts: 5, persistent: true, endpointWorked: false },
      fires: true,
    },
    {
      name: 'Envoy 503 reset before headers on 3 attempts',
      facts: { httpStatus: 503, interruption: 'bad-gateway', attempts: 3, persistent: true, endpointWorked: false },
      fires: true,
    },
    {
      name: '502 on every one of 3 attempts, the server started afterwards',
      facts: { httpStatus: 502, interruption: 'bad-gateway', attempts: 3, persistent: true, endpointWorked: false, serverStartedAfter: true },
      fires: false,
    },
    {
      name: 'the same 502s after the endpoint had answered',
      facts: { httpStatus: 502, interruption: 'closed-before-headers', attempts: 5, persistent: true, endpointWorked: true },
      fires: false,
    },
    { name: 'two tries (the bounded retry)', facts: { httpStatus: 502, interruption: 'bad-gateway', attempts: 2, persistent: true, endpointWorked: false }, fires: false },
    {
      name: 'a proxy timeout (a timer, not a refusal)',
      facts: { httpStatus: 504, interruption: 'proxy-timeout-before-headers', attempts: 4, persistent: true, endpointWorked: false },
      fires: false,
    },
  ],
};
