import type { Rule } from '../rule.ts';
import { describe, has } from '../rule.ts';

// A gateway or aggregator that federates several MCP servers behind one endpoint routes each call by the
// tool name or resource URI it names; when two of its upstream servers offer the same one it refuses the
// call before anything runs (IBM/mcp-context-forge: resources on its generic /mcp endpoint are not
// namespaced; callmux and other multiplexers: "specify the server or use a qualified name"). That is a
// routing problem of the call, answered completely (failure-signatures (c) stage P: rejected before
// execution), so retries get the same answer: address the call to one server.
export const nameAmbiguous: Rule = {
  id: 'name-ambiguous-across-servers',
  decision: 'fix_route_or_config',
  source: 'failure-signatures (c) stage P · IBM/mcp-context-forge per-server endpoints (/servers/{id}/mcp) · gateway resolvers (signal gateway-name-ambiguous)',
  when(f) {
    if (!has(f, 'route-ambiguous')) return 'no gateway refused the call as ambiguous across its servers';
    return true;
  },
  rationale: (f) =>
    `The gateway in front of several MCP servers refused ${describe(f)}: the tool name or resource URI it names is offered by more than one of its upstream servers, so it cannot tell which one is meant. The call was rejected before it ran on any server. Address it to one server — the gateway's per-server endpoint, or a name qualified with the server — or remove the duplicate from the gateway's catalogue; sending it again unchanged gets the same answer.`,
  examples: [
    {
      name: 'ContextForge: a resource URI on the generic /mcp endpoint offered by two servers',
      facts: { method: 'resources/read', causes: ['route-ambiguous'], signals: ['gateway-name-ambiguous'] },
      fires: true,
    },
    {
      name: 'a multiplexer refusing an unqualified tool name, as an error result',
      facts: { method: 'tools/call', tool: 'lookup_order', causes: ['route-ambiguous', 'tool-error'], signals: ['gateway-name-ambiguous'] },
      fires: true,
    },
    { name: 'near miss: an unknown resource (-32602, not found)', facts: { method: 'resources/read', jsonRpcCode: -32602, causes: ['invalid-params'] }, fires: false },
    { name: 'near miss: a tool error result of the tool itself', facts: { method: 'tools/call', tool: 'lookup_order', causes: ['tool-error'] }, fires: false },
  ],
};
