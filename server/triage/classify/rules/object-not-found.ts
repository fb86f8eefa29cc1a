import type { Facts } from '../facts.ts';
import type { Rule } from '../rule.ts';
import { describe, has } from '../rule.ts';

// spec server/tools, server/prompts, server/resources (error handling: unknown tool or invalid prompt name
// -32602, resource not found -32002); triage-rules.md decision table (a defect configuration cannot fix →
// escalate). The server's MCP layer answered about the thing the request names — a tool, prompt or resource it
// does not have — some servers with HTTP 404. The endpoint routed the request and the session was accepted,
// so the 404 is neither a lost session (D10) nor a wrong route (D12): reinitializing or changing the URL
// sends the same name and gets the same answer.
const what = (f: Facts) =>
  f.method === 'tools/call' ? 'tool' : f.method === 'prompts/get' ? 'prompt' : f.method?.startsWith('resources/') ? 'resource' : 'tool, prompt or resource';

export const objectNotFound: Rule = {
  id: 'object-not-found',
  decision: 'escalate',
  source: 'spec server/tools, server/prompts, server/resources (error handling) · triage-rules.md decision table (escalate)',
  when(f) {
    if (!has(f, 'object-not-found')) return 'the server did not say the named tool, prompt or resource does not exist';
    if (f.sessionUnknown === true) return 'the server says it does not know the session';
    if (f.routeWrong === true) return 'the answer came from something other than the MCP endpoint';
    if (has(f, 'tool-error')) return "a tool's isError result: the tool ran and answered (tool-returned-error)";
    if (f.method === 'initialize' || f.method === 'server/discover' || f.method?.startsWith('notifications/')) return `${f.method} names no tool, prompt or resource`;
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was answered by the server's MCP layer${f.httpStatus && f.httpStatus >= 400 ? ` (HTTP ${f.httpStatus})` : ''}: it does not know the ${what(f)} the request names. The endpoint routed the request and the session was accepted — a JSON-RPC answer came back — so neither a new session nor another URL changes the answer, and retrying sends the same name. Compare the name with what the server lists (tools/list, prompts/list, resources/list): a name the server lists and still refuses (or a resource it advertises and cannot read) is a defect in the server; a name it never listed was asked for by the calling application or the model. Escalate to the owners of that side.`,
  examples: [
    {
      name: 'tools/call answered 404 "Unknown tool" on a session that listed tools',
      facts: {
        method: 'tools/call',
        tool: 'export_report',
        httpStatus: 404,
        jsonRpcCode: -32602,
        bodyKind: 'jsonrpc-error',
        sessionSent: true,
        era: 'session',
        causes: ['invalid-params', 'object-not-found'],
      },
      fires: true,
    },
    {
      name: 'resources/read answered -32002 Resource not found',
      facts: { method: 'resources/read', httpStatus: 404, jsonRpcCode: -32002, bodyKind: 'jsonrpc-error', causes: ['object-not-found'] },
      fires: true,
    },
    {
      name: 'near miss: 404 Session not found (session-expired-404)',
      facts: { method: 'tools/call', httpStatus: 404, sessionSent: true, sessionUnknown: true, causes: ['session-unknown'] },
      fires: false,
    },
    {
      name: "near miss: a tool's isError result saying a file was not found",
      facts: { method: 'tools/call', tool: 'read_file', causes: ['tool-error', 'object-not-found'] },
      fires: false,
    },
  ],
};
