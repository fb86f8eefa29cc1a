import type { Rule } from '../rule.ts';
import { describe, has, signalWords } from '../rule.ts';

// triage-rules.md §1 (the client's configuration decides where it connects) and failure-signatures D12 (fix
// the route or config; re-sending cannot help): many hosts guard the MCP server URLs they are given against
// SSRF and refuse, before sending anything, a URL that resolves to a loopback, private or internal address
// (zeph validate_url_ssrf, onyx mcp_client, docker sbx, LM Studio's dynamic connections). The server is never
// asked; the same settings are refused every time. A tool that refuses a URL *argument* for the same reason
// is the tool's own result, not the connection.
export const clientPolicyBlocksTarget: Rule = {
  id: 'client-policy-blocks-target',
  decision: 'fix_route_or_config',
  source: 'triage-rules.md §1 · failure-signatures D12',
  when(f) {
    if (!has(f, 'target-blocked-by-policy')) return "no address policy of the client's refused the server's URL";
    if (has(f, 'tool-error') || f.method === 'tools/call') return "a tool refusing a URL argument is the tool's result, not the client's connection";
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was never sent: the client's own address policy refused the server's URL (${signalWords(f, ['target-blocked-by-policy'], 'it resolves to a private or loopback address')}). Nothing is wrong with the server. Allow that host in the client (its allow-list, private-network or skip-SSRF-check setting, or the way it takes statically configured servers), or reach the server at an address the policy accepts; retrying the same settings is refused the same way.`,
  examples: [
    { name: 'SSRF guard refuses a localhost server URL', facts: { causes: ['target-blocked-by-policy'], interruption: 'connect' }, fires: true },
    { name: 'a private address refused while listing tools', facts: { method: 'tools/list', causes: ['target-blocked-by-policy'] }, fires: true },
    {
      name: "near miss: a tool's URL guard refusing its argument",
      facts: { method: 'tools/call', tool: 'capture_page', causes: ['tool-error', 'target-blocked-by-policy'] },
      fires: false,
    },
    { name: 'near miss: connection refused at a loopback address', facts: { causes: ['conn-refused'], neverConnected: true }, fires: false },
  ],
};
