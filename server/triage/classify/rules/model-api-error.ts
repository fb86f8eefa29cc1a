import type { Rule } from '../rule.ts';

// triage-rules.md §1: the app ⇄ model API path is not the MCP path. A model provider's error is
// not an MCP failure (failure-signatures (h) scope; corpus shape: openai.InternalServerError from _base_client).
const MODEL_API = /\b(?:openai|anthropic|litellm|google\.genai|mistralai|cohere)\.(?:\w+\.)*\w*(?:Error|Exception)\b|\/_base_client\.py|api\.openai\.com|api\.anthropic\.com|generativelanguage\.googleapis\.com|Invalid schema for function/;
const MCP_SIGN = /\bmcp[._/]|streamable_?http|sse_client|StreamableHTTP|ClientSession|tools\/call|Mcp-Session-Id|JSONRPC/i;

export const modelApiError: Rule = {
  id: 'model-api-not-mcp',
  decision: 'no_action',
  source: 'triage-rules.md §1',
  when(f) {
    if (f.method) return `the failing exchange is an MCP ${f.method} request`;
    if (!MODEL_API.test(f.text)) return 'no model-API error (openai/anthropic client, _base_client) in the failure';
    if (MCP_SIGN.test(f.text.replace(MODEL_API, ''))) return 'the failure also shows MCP transport frames or methods';
    return true;
  },
  rationale: (f) =>
    `The failure is an error from the model API (${f.rootException ? `${f.rootException.type}` : 'the provider client'}), on the app ⇄ model path — not the MCP client ⇄ server path this tool diagnoses. Nothing to do for MCP; handle it as a model-provider error (its own retry policy or status page).${/Invalid schema for function/.test(f.text) ? ' "Invalid schema for function" is a tool-schema problem on the model path, not a transport failure.' : ''}`,
  examples: [
    { name: 'openai 500 from _base_client', facts: { text: 'File "/x/openai/_base_client.py", line 1, in request\nopenai.InternalServerError: Error code: 500', rootException: { type: 'openai.InternalServerError', message: 'Error code: 500' } }, fires: true },
    { name: 'an MCP tools/call 500', facts: { method: 'tools/call', httpStatus: 500, text: 'openai.InternalServerError' }, fires: false },
    { name: 'httpx error inside the mcp client', facts: { text: 'File "/x/mcp/client/streamable_http.py"\nhttpx.ConnectError: All connection attempts failed' }, fires: false },
  ],
};
