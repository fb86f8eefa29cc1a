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

// triage-rules.md §6 ("write completed in the target system" → read that result and go on; do not write again)
// before the defect: the result refused for its schema is the result of a call that ran, and the server logged
// the work done. A host that treats the refused result as "the call failed" (and offers to run it again) would
// repeat a write that exists. The schema defect is escalated too, but what the user must do first is not repeat.
// Near miss: the same refusal with no server line showing the work done stays output-schema-mismatch.
export const resultRefusedAfterWrite: Rule = {
  id: 'result-refused-after-write',
  decision: 'read_result_no_repeat',
  source: 'triage-rules.md §6 · spec server/tools (outputSchema, structuredContent) · failure-signatures D5',
  when(f) {
    if (!has(f, 'output-schema-mismatch')) return 'no result refused for its output schema';
    if (!identifiedCall(f)) return 'the call is not identified';
    if (f.sideEffect === 'read') return 'a read-only call: nothing to reconcile (output-schema-mismatch)';
    if (!f.writeEvidence) return 'no server line shows the work done (output-schema-mismatch)';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} ran and the server logged the work done (${f.writeEvidence}), but its result was refused because it does not match the output schema the tool declares. The effect exists: do not run the call again — read the result in the target system and go on. Then escalate the schema defect to the owners of the tool (or of the layer that validated it): every call of this tool will be refused the same way.`,
  examples: [
    {
      name: 'a refund created, its result refused for its schema',
      facts: { method: 'tools/call', tool: 'issue_credit', causes: ['output-schema-mismatch'], writeEvidence: 'server.log:12 credit created cr_1' },
      fires: true,
    },
    { name: 'near miss: no line shows the work done', facts: { method: 'tools/call', tool: 'issue_credit', causes: ['output-schema-mismatch'] }, fires: false },
    {
      name: 'near miss: a read-only tool',
      facts: { method: 'tools/call', tool: 'list_invoices', causes: ['output-schema-mismatch'], sideEffect: 'read', sideEffectSource: 'policy', writeEvidence: 'x' },
      fires: false,
    },
  ],
};
