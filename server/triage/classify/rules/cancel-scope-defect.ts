import type { Rule } from '../rule.ts';

// failure-signatures row 22 and section (e) step 2: "Attempted to exit cancel scope in a
// different task" with no earlier causal error in the trace IS the root: the calling application
// entered and exited the client context in different tasks — a defect, not configuration.
const CANCEL_SCOPE = /Attempted to exit cancel scope in a different task|isn't the current tasks?'s current cancel scope/;

export const cancelScopeDefect: Rule = {
  id: 'cancel-scope-defect',
  decision: 'escalate',
  source: 'failure-signatures row 22, section (e) · triage-rules.md decision table (escalate)',
  when(f) {
    if (!CANCEL_SCOPE.test(f.text)) return 'no cancel-scope RuntimeError';
    if (f.rootException && !/RuntimeError|CancelScope/.test(f.rootException.type) && !CANCEL_SCOPE.test(f.rootException.message)) return `an earlier cause is in the trace (${f.rootException.type})`;
    if (f.httpStatus !== null && f.httpStatus >= 400) return `an HTTP ${f.httpStatus} came first`;
    return true;
  },
  rationale: () =>
    'The only failure is anyio\'s "Attempted to exit cancel scope in a different task than it was entered in", with no earlier cause in the trace: the MCP client context was entered in one task and exited in another (ClientSessionGroup / AsyncExitStack / a proxy). Configuration cannot fix it; escalate to the owners of the calling application (or the SDK) with this trace.',
  examples: [
    { name: 'empty ExceptionGroup over a cancel-scope RuntimeError', facts: { rootException: { type: 'RuntimeError', message: 'Attempted to exit cancel scope in a different task than it was entered in' }, text: 'RuntimeError: Attempted to exit cancel scope in a different task than it was entered in' }, fires: true },
    { name: 'cancel scope after a ConnectError', facts: { rootException: { type: 'httpx.ConnectError', message: 'All connection attempts failed' }, interruption: 'connect', text: 'httpx.ConnectError\nRuntimeError: Attempted to exit cancel scope in a different task than it was entered in' }, fires: false },
  ],
};
