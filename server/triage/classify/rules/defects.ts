import type { Rule } from '../rule.ts';
import { describe, has } from '../rule.ts';

// failure-signatures row 22 and section (e): "Attempted to exit cancel scope in a different task" with no
// earlier causal error in the trace is the root — a caller-side defect (the client context was entered
// and exited in different tasks) → escalate to the application's owners.
export const cancelScopeDefect: Rule = {
  id: 'cancel-scope-defect',
  decision: 'escalate',
  source: 'failure-signatures row 22, section (e)',
  when(f) {
    if (!has(f, 'cancel-scope-defect')) return 'no cancel-scope teardown error';
    // the teardown artefact is a RuntimeError; a root of another type is an earlier causal error
    if (f.rootException && !f.rootException.type.endsWith('RuntimeError')) return 'an earlier causal error is the root';
    return true;
  },
  rationale: () =>
    'The first real error is anyio\'s "Attempted to exit cancel scope in a different task than it was entered in": the MCP client\'s context managers were entered in one task and exited in another (ClientSessionGroup, AsyncExitStack, a proxy\'s concurrency). A defect in the calling application or library, not the network: escalate to its owners with this trace; retries do not help.',
  examples: [
    { name: 'cancel scope leaf only', facts: { causes: ['cancel-scope-defect'], rootException: { type: 'RuntimeError', message: 'Attempted to exit cancel scope in a different task than it was entered in' } }, fires: true },
    { name: 'cancel scope after a ConnectError', facts: { causes: ['cancel-scope-defect', 'conn-refused'], rootException: { type: 'httpx.ConnectError', message: 'All connection attempts failed' } }, fires: false },
  ],
};

// triage-rules.md decision table ("a defect in the server, the SDK or the calling application that
// configuration cannot fix: … a server crash on valid input, a non-compliant reply" → escalate);
// failure-signatures rows 32–35, 65: a 500 or an unhandled error inside the server or a process that died.
export const serverDefect: Rule = {
  id: 'server-error',
  decision: 'escalate',
  source: 'triage-rules.md decision table (escalate) · failure-signatures rows 32–35',
  when(f) {
    if (has(f, 'server-error', 'server-exited', 'jsonrpc-internal-error') || f.httpStatus === 500) return true;
    return 'no 500, unhandled server error or exited process';
  },
  rationale: (f) =>
    `${describe(f)} failed inside the server or its process${f.httpStatus === 500 ? ' (HTTP 500)' : ''}${f.rootException ? ` (${f.rootException.type}${f.rootException.message ? `: ${f.rootException.message.slice(0, 120)}` : ''})` : ''}: a defect no client setting fixes. Escalate to the server's owners with the trace and the request; retry only a read, and only once they say the cause was transient.`,
  examples: [
    { name: 'Exception in ASGI application, 500', facts: { httpStatus: 500, causes: ['server-error'] }, fires: true },
    { name: 'a 404', facts: { httpStatus: 404 }, fires: false },
  ],
};
