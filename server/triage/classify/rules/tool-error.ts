import type { SignalCause } from '../../../../parsers/contract/signal.ts';
import type { Facts } from '../facts.ts';
import type { Rule } from '../rule.ts';
import { describe, has, sideEffectWords } from '../rule.ts';

// failure-signatures row 64 and D4: the tool returned a result with isError (FastMCP ToolError): the
// transport worked and the tool ran. A read needs nothing from the transport side; a write (or an
// unknown tool) may have partly happened: check what it did before any repeat.
// What a tool's isError answer may carry beside itself without the exchange having failed (a missing module
// named in the result text is the tool's own trouble: its answer, not this exchange's).
const TOOL_RESULT_CAUSES = new Set<SignalCause>(['tool-error', 'write-started', 'request-received', 'deployment-broken']);

/** Why the failure is not a tool's isError answer over a working exchange, or null when it is. */
function notAToolResult(f: Facts): string | null {
  if (!has(f, 'tool-error')) return 'no isError result';
  if (f.causes.some((c) => !TOOL_RESULT_CAUSES.has(c))) return 'the exchange also shows a transport failure';
  if (f.httpStatus !== null && f.httpStatus >= 400) return `HTTP ${f.httpStatus}: a transport answer, not a tool result`;
  return null;
}

export const toolError: Rule = {
  id: 'tool-returned-error',
  decision: 'check_write_then_escalate',
  source: 'failure-signatures D4, row 64',
  when(f) {
    const notResult = notAToolResult(f);
    if (notResult) return notResult;
    if (f.sideEffect === 'read') return 'a read-only tool: its error is its answer (see tool-error-read)';
    // (write safety is judged for an identified call only: an isError result that no line ties to a call —
    // no tool, no method — says nothing about what was written; issue 17 kind 6)
    if (f.tool === null && f.method === null) return 'no line ties the result to a call (tool-error-unidentified)';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} reached the tool, which returned an error result (isError): the transport and session worked. ${sideEffectWords(f)}: the tool may have done part of its work before failing. Check what it did in the target system before repeating it, and read the error text (it is the tool's answer, not a connection problem).`,
  examples: [
    { name: 'create_order returned isError', facts: { method: 'tools/call', tool: 'create_order', causes: ['tool-error'] }, fires: true },
    { name: 'read-only tool', facts: { method: 'tools/call', tool: 'get_order', causes: ['tool-error'], sideEffect: 'read', sideEffectSource: 'policy' }, fires: false },
    { name: 'near miss: an isError result with no tool named (tool-error-unidentified)', facts: { causes: ['tool-error'] }, fires: false },
  ],
};

// failure-signatures D4, row 64, with README "write-safety rules apply only to an identified call": an isError
// result that no line ties to a call (no tool, no method: a bare result a local proxy relayed). The tool ran and answered; what it might have changed cannot be checked
// without knowing which it was, so this is not check_write: the error text is the evidence to hand on.
export const toolErrorUnidentified: Rule = {
  id: 'tool-error-unidentified',
  decision: 'escalate',
  source: 'failure-signatures D4, row 64 · classify README (write safety for identified calls only)',
  when(f) {
    const notResult = notAToolResult(f);
    if (notResult) return notResult;
    if (f.tool !== null || f.method !== null) return 'the result is tied to a call (tool-returned-error / tool-error-read)';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} reached a tool, which returned an error result (isError): the transport and session worked, but no line ties it to a call (no tool, no method), so whether it changed anything cannot be judged from these logs. Read the error text — it is the tool's (or its upstream's) answer, not a connection problem — and escalate to the server's owners with it; find the call in the host's own log before repeating anything.`,
  examples: [
    { name: 'isError result, no tool named', facts: { causes: ['tool-error'], stage: 'after_response' }, fires: true },
    { name: 'near miss: create_order returned isError', facts: { method: 'tools/call', tool: 'create_order', causes: ['tool-error'] }, fires: false },
    { name: 'near miss: a tools/call traceback, tool not read', facts: { method: 'tools/call', causes: ['tool-error'] }, fires: false },
    { name: 'near miss: isError beside a cut stream', facts: { causes: ['tool-error', 'stream-cut'] }, fires: false },
  ],
};

export const toolErrorRead: Rule = {
  id: 'tool-error-read',
  decision: 'no_action',
  source: 'failure-signatures D4, row 64',
  when(f) {
    const notResult = notAToolResult(f);
    if (notResult) return notResult;
    if (f.sideEffect !== 'read') return 'not shown to be read-only';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} reached the tool, which answered with an error result (isError): the MCP connection is healthy and ${sideEffectWords(f)}. Nothing to fix in the transport; the error text is the tool's answer (a missing record, a bad argument).`,
  examples: [
    {
      name: 'get_order isError (unknown id)',
      facts: { method: 'tools/call', tool: 'get_order', causes: ['tool-error'], sideEffect: 'read', sideEffectSource: 'policy' },
      fires: true,
    },
    { name: 'isError beside a cut stream', facts: { causes: ['tool-error', 'stream-cut'] }, fires: false },
  ],
};
