import type { Rule } from '../rule.ts';
import { describe, has, identifiedCall } from '../rule.ts';

// triage-rules.md decision table ("a defect in the server, the SDK or the calling application that
// configuration cannot fix: … a non-compliant reply" → escalate); spec server/tools (a tool that declares
// an outputSchema MUST return structuredContent conforming to it). The tool's result was refused for not
// matching the schema the tool itself declares: by the server's SDK after the tool ran (python-sdk
// lowlevel server `Output validation error: …`), by a gateway re-validating what it relays, or by the
// client SDK on receipt (`has an output schema but did not return structured content`). Every call of
// that tool fails the same way: nothing in the transport, session or credentials to change, and a retry
// cannot pass it. The check runs on a result, so the tool ran to completion first: a write it makes has
// happened. Unlike an isError answer of the tool (tool-returned-error), the tool did not report a failure.
export const outputSchemaMismatch: Rule = {
  id: 'output-schema-mismatch',
  decision: 'escalate',
  source: 'triage-rules.md decision table (escalate: a non-compliant reply) · spec server/tools (outputSchema, structuredContent)',
  when(f) {
    if (!has(f, 'output-schema-mismatch')) return 'no result refused for its output schema';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} ran, but its result was refused because it does not match the output schema the tool declares (no structuredContent, or structuredContent of another shape): a defect in the tool's definition or in the layer that validated it (the server's SDK, a gateway that rewrites results, the client), not in the connection. Every call of this tool fails the same way and a retry cannot pass it: escalate to the owners of the server (or the gateway) with the tool's declared outputSchema and the result.${identifiedCall(f) && f.sideEffect !== 'read' ? ' The check ran on a finished result, so a change this call makes has already happened: check the target system and do not repeat it.' : ''}`,
  examples: [
    {
      name: 'python-sdk server: outputSchema defined but no structured output (isError result)',
      facts: { method: 'tools/call', tool: 'list_invoices', causes: ['output-schema-mismatch', 'tool-error'] },
      fires: true,
    },
    {
      name: 'TS client: has an output schema but did not return structured content (-32600)',
      facts: { method: 'tools/call', tool: 'quote_fx', jsonRpcCode: -32600, causes: ['output-schema-mismatch'] },
      fires: true,
    },
    { name: "near miss: the tool's own isError answer", facts: { method: 'tools/call', tool: 'list_invoices', causes: ['tool-error'] }, fires: false },
  ],
};
