import type { Rule } from '../rule.ts';
import { has } from '../rule.ts';

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
    if (f.knownDefect === 'python-sdk-3522') return true;
    if (!has(f, 'client-object-closed')) return 'the client object is not shown closed (no "not connected", no python-sdk 3522 shape)';
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
    return true;
  },
  rationale: (f) =>
    f.knownDefect === 'python-sdk-3522'
      ? 'This is python-sdk issue 3522 (open): one interrupted response closed the whole client object, so every later call on it fails with "Connection closed". Create a NEW client object (new transport, fresh initialize) instead of calling the old one in a loop; then judge the interrupted call on its own (a write needs checking before any repeat). Upgrading or the closed PR 3584 is not a verified fix.'
      : `${f.tool ? `The call to ${f.tool}` : 'The call'} was refused by the client itself: its connection object is closed or never connected, so nothing was sent. Re-create the client (new transport, fresh initialize) instead of calling the old object again; then send the call normally.`,
  examples: [
    { name: 'python-sdk 3522 tree', facts: { knownDefect: 'python-sdk-3522', interruption: 'connection-closed', method: 'tools/call' }, fires: true },
    { name: 'MCP client not connected for tool x', facts: { tool: 'list_issues', causes: ['client-object-closed'] }, fires: true },
    { name: 'a plain Connection closed while a call was pending', facts: { interruption: 'connection-closed', causes: ['connection-closed'] }, fires: false },
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
  ],
};
