import type { Rule } from '../rule.ts';
import { describe, has } from '../rule.ts';

// triage-rules.md §4 and its decision table (REINIT: "a closed client object" must be re-created by the
// host, not called again in a loop); python-sdk issue 3522 (one interrupted response closes the whole
// 2.x client, later calls fail with "Connection closed"), recognised by exceptions/known-defects.ts;
// failure-signatures row 63 (fastmcp "Server session was closed unexpectedly").
export const closedClient: Rule = {
  id: 'closed-client-object',
  decision: 'reinitialize',
  // a host that re-created its client on its own (LibreChat reconnects on the next call) and got the same
  // call answered has already done what this decision asks
  settledBySuccess: true,
  source: 'triage-rules.md §4 (python-sdk #3522) · failure-signatures row 63',
  when(f) {
    // (the interrupted call itself, its write logged as done: what it did comes first — the client object is re-created
    // either way, and its later refused calls are this rule's)
    if (f.knownDefect === 'python-sdk-3522' && f.writeEvidence !== null && !has(f, 'client-object-closed'))
      return "the interrupted call's work is logged as done: its result comes first (write-committed-not-delivered)";
    if (f.knownDefect === 'python-sdk-3522') return true;
    if (!has(f, 'client-object-closed') && f.closedBeforeIssued === null) return 'the client object is not shown closed (no "not connected", no python-sdk 3522 shape)';
    // anyio's ClosedResourceError names no side: logged by the server alone, it is the server's own stream
    // (unless its frames show a ClientSession's call writing to it: a web app that is an MCP client logs in a server's format)
    if (
      f.signals.includes('anyio-closed-resource') &&
      !f.signals.includes('client-not-connected') &&
      !f.signals.includes('client-session-send-closed') &&
      f.seenBy.server &&
      !f.seenBy.client
    )
      return "only the server logged a closed stream (anyio ClosedResourceError): the server's own stream, not a client object";
    if (has(f, 'auth-rejected', 'auth-token-expired', 'oauth-flow-failed')) return 'the client is closed because authentication failed';
    // (nor when it closed because it read the legacy endpoint event as a message: a new client object reads it the same way)
    if (has(f, 'endpoint-event-misread')) return "the client closed because it misread the server's endpoint event (client-misread-endpoint-event)";
    return true;
  },
  rationale: (f) =>
    f.knownDefect === 'python-sdk-3522'
      ? 'This is python-sdk issue 3522 (open): one interrupted response closed the whole client object, so every later call on it fails with "Connection closed". Create a NEW client object (new transport, fresh initialize) instead of calling the old one in a loop; then judge the interrupted call on its own (a write needs checking before any repeat). Upgrading or the closed PR 3584 is not a verified fix.'
      : `${f.tool ? `The call to ${f.tool}` : 'The call'} was refused by the client itself: its connection object is closed or never connected${f.closedBeforeIssued ? ` (it was issued after the connection failed under an earlier call, ${f.closedBeforeIssued}, and failed at once with "Connection closed" without reaching any proxy or server)` : ''}, so nothing was sent. Re-create the client (new transport, fresh initialize) instead of calling the old object again; then send the call normally.`,
  examples: [
    { name: 'python-sdk 3522 tree', facts: { knownDefect: 'python-sdk-3522', interruption: 'connection-closed', method: 'tools/call' }, fires: true },
    {
      name: 'near miss: the 3522 tree of a call whose server logged the refund committed',
      facts: { knownDefect: 'python-sdk-3522', interruption: 'stream-cut', method: 'tools/call', tool: 'issue_refund', writeEvidence: 'payments.log:20 refund committed' },
      fires: false,
    },
    { name: 'MCP client not connected for tool x', facts: { tool: 'list_issues', causes: ['client-object-closed'] }, fires: true },
    { name: 'a plain Connection closed while a call was pending', facts: { interruption: 'connection-closed', causes: ['connection-closed'] }, fires: false },
    {
      name: "'Connection closed' for a call issued after an earlier call's connection failed (python-sdk 3522)",
      facts: { method: 'tools/call', tool: 'describe_table', causes: ['connection-closed'], closedBeforeIssued: 'host.log:12' },
      fires: true,
    },
    {
      name: "anyio ClosedResourceError on a client's send (its session context had exited)",
      facts: { method: 'tools/call', causes: ['client-object-closed'], signals: ['anyio-closed-resource'], seenBy: { client: true, proxy: false, server: false } },
      fires: true,
    },
    {
      name: 'near miss: a stateless server session crashed on ClosedResourceError',
      facts: { method: 'tools/call', causes: ['client-object-closed'], signals: ['anyio-closed-resource'], seenBy: { client: false, proxy: false, server: true } },
      fires: false,
    },
    {
      name: "a web app's own log (server format) with a ClientSession call failing on its closed write stream",
      facts: {
        method: 'tools/call',
        httpStatus: 500,
        causes: ['client-object-closed', 'server-error'],
        signals: ['anyio-closed-resource', 'client-session-send-closed'],
        seenBy: { client: false, proxy: false, server: true },
      },
      fires: true,
    },
    { name: 'a closed client object on a tools/call, no side named', facts: { method: 'tools/call', causes: ['client-object-closed'] }, fires: true },
    {
      name: "near miss: the Go SDK closing after it decoded the legacy endpoint event as JSON-RPC (`client is closing: standalone SSE stream: … invalid character '/'`)",
      facts: { method: 'tools/list', causes: ['client-object-closed', 'endpoint-event-misread', 'stream-open-failed'] },
      fires: false,
    },
  ],
};

// triage-rules.md §4 ("then test a NEW client object: that separates 'server unreachable' from 'the old
// transport object is already closed'") and §5 step 2 (a closed transport object must be re-created by the
// host, not called again): a failure no other rule explains, after which the same client reports its
// object closing or closed on the next call (the Go SDK's streamableClientConn answers any non-2xx POST
// with `broken session: <status>` and its client then refuses calls with `client is closing`,
// modelcontextprotocol/go-sdk mcp/streamable.go Write). Whatever the first answer was, the client did not
// survive it: nothing goes out until the host re-creates it.
export const failureClosedClient: Rule = {
  id: 'failure-closed-the-client',
  decision: 'reinitialize',
  settledBySuccess: true,
  source: 'triage-rules.md §4-5 (a closed client object must be re-created) · go-sdk mcp/streamable.go (broken session)',
  when(f) {
    if (f.clientClosedAfter === null) return "the client's next failure does not say its object is closed";
    if (f.httpStatus === 401 || f.httpStatus === 403 || has(f, 'auth-rejected', 'auth-token-expired', 'oauth-flow-failed', 'auth-challenge'))
      return 'the failure was an authentication refusal: a new client meets the same answer (fix_auth)';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} failed${f.httpStatus ? ` (HTTP ${f.httpStatus})` : ''}, and the same client's next call was refused by the client itself (${f.clientClosedAfter}: its connection object is closing or closed): this failure broke the client object, so every later call fails without being sent. Re-create the client (new transport, fresh initialize) instead of calling the old one again; then send the call again${f.sideEffect === 'read' ? '' : ' once its first attempt is judged (the first answer was an error status, so it was most likely not run)'}. If the first failure recurs on a new client, look at the server for it.`,
  examples: [
    {
      name: 'Go SDK: broken session: 503, then client is closing',
      facts: { method: 'tools/call', tool: 'delay_tool', httpStatus: 503, identified: true, clientClosedAfter: 'client.log:5' },
      fires: true,
    },
    {
      name: 'near miss: a 401 before the client closed (credentials, not the client object)',
      facts: { method: 'tools/call', httpStatus: 401, identified: true, clientClosedAfter: 'client.log:5' },
      fires: false,
    },
    {
      name: 'near miss: a 503 and the next call went out and failed the same way',
      facts: { method: 'tools/call', httpStatus: 503, identified: true, clientClosedAfter: null },
      fires: false,
    },
  ],
};
