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
    "The first real error is anyio's \"Attempted to exit cancel scope in a different task than it was entered in\": the MCP client's context managers were entered in one task and exited in another (ClientSessionGroup, AsyncExitStack, a proxy's concurrency). A defect in the calling application or library, not the network: escalate to its owners with this trace; retries do not help.",
  examples: [
    {
      name: 'cancel scope leaf only',
      facts: { causes: ['cancel-scope-defect'], rootException: { type: 'RuntimeError', message: 'Attempted to exit cancel scope in a different task than it was entered in' } },
      fires: true,
    },
    {
      name: 'cancel scope after a ConnectError',
      facts: { causes: ['cancel-scope-defect', 'conn-refused'], rootException: { type: 'httpx.ConnectError', message: 'All connection attempts failed' } },
      fires: false,
    },
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

// triage-rules.md section 1: "Invalid schema for function" is a tool schema problem on the model path,
// not a transport failure: the MCP server publishes a tool definition the model API refuses. Nothing in
// the connection to fix; the server's owners fix the schema.
export const toolSchemaRejected: Rule = {
  id: 'tool-schema-rejected',
  decision: 'escalate',
  source: 'triage-rules.md §1',
  when(f) {
    if (!has(f, 'tool-schema-invalid')) return 'no tool-schema rejection';
    return true;
  },
  rationale: () =>
    'The model API refused a tool\'s input schema ("Invalid schema for function"): the MCP server publishes a tool definition the model cannot take. Not a transport failure — the MCP connection works. Escalate to the server\'s owners to fix the schema (or filter that tool out in the host until then).',
  examples: [
    { name: 'openai invalid schema', facts: { causes: ['tool-schema-invalid', 'model-api-error'] }, fires: true },
    { name: 'a model 500', facts: { causes: ['model-api-error'] }, fires: false },
  ],
};

// failure-signatures rows 10–12, 46 and section (c): the client gave up waiting, nothing broke before,
// nothing shows the timeout was short, and the logs do not say which call it was: the server (or what is
// behind it) did not answer in time — a hung handler, a slow dependency, a cold start. Retrying unchanged
// waits the same; the owners of the server look at why it was silent.
export const serverSilent: Rule = {
  id: 'server-did-not-answer',
  decision: 'escalate',
  source: 'failure-signatures rows 10–12, 46, section (c)',
  when(f) {
    if (f.interruption !== 'client-timeout') return 'not a client timeout';
    if (f.tool !== null || (f.method !== null && f.method !== 'tools/call' && f.sideEffect !== 'read')) return 'an identified call: its side effect decides';
    return true;
  },
  rationale: (f) =>
    `The client gave up waiting${f.clientTimeoutMs !== null ? ` after ${f.clientTimeoutMs} ms` : ''}${f.method ? ` on ${f.method}` : ''} with nothing broken before it, and nothing shows the timeout was unusually short: the server did not answer in time (a hung handler, a slow dependency, a cold start). Escalate to the server's owners with the timing; raise the timeout only if the work legitimately takes that long${f.attempts > 1 ? `. It happened on ${f.attempts} attempts` : ''}.`,
  examples: [
    { name: 'Request timed out, 60 s, call unknown', facts: { interruption: 'client-timeout', clientTimeoutMs: 60000, causes: ['client-timeout'] }, fires: true },
    { name: 'a named tool timed out', facts: { interruption: 'client-timeout', tool: 'create_order', method: 'tools/call' }, fires: false },
  ],
};
