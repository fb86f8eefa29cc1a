import type { Rule } from '../rule.ts';
import { describe } from '../rule.ts';

// triage-rules.md §6 ("request was definitely never sent" → retry); failure-signatures D1,
// rows 6, 7, 41, 66, 67, 75, 85: a connect-stage failure; nothing reached the MCP server.
export const upstreamUnreachable: Rule = {
  id: 'never-reached-server',
  decision: 'retry',
  source: 'failure-signatures D1, rows 6, 41, 66, 67, 75 · triage-rules.md §6',
  when(f) {
    if (f.interruption !== 'connect') return 'the failure is not at the connect stage';
    if (f.writeEvidence) return 'the server logged work for this request, so it was delivered';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} failed while ${f.proxyPhrase === 'connecting' ? 'the proxy was connecting to the upstream MCP server (connect() failed / no live upstream)' : 'connecting (DNS/TCP/TLS)'}: the request never reached the server, so nothing ran — even a write is safe to send. Send it normally once the server is reachable, with bounded retries and backoff; if it persists, check that the server is up and the proxy's upstream address, DNS and TLS.`,
  examples: [
    { name: 'nginx connect() failed (111) on initialize', facts: { httpStatus: 502, method: 'initialize', proxyPhrase: 'connecting', interruption: 'connect', stage: 'connect' }, fires: true },
    { name: 'httpx ConnectError on a write', facts: { method: 'tools/call', tool: 'create_order', interruption: 'connect', stage: 'connect', sideEffect: 'unknown' }, fires: true },
    { name: '502 prematurely closed while reading the header', facts: { httpStatus: 502, method: 'tools/call', proxyPhrase: 'reading-response-header', interruption: 'proxy-closed-before-headers' }, fires: false },
  ],
};
