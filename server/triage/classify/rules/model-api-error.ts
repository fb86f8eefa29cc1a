import type { Rule } from '../rule.ts';
import { has } from '../rule.ts';

// triage-rules.md §1: the app ⇄ model API path is not the MCP path. A model provider's error (or
// "Invalid schema for function", a tool-schema problem on the model path) is not an MCP failure.
export const modelApiError: Rule = {
  id: 'model-api-not-mcp',
  decision: 'no_action',
  source: 'triage-rules.md §1',
  when(f) {
    if (!has(f, 'model-api-error')) return 'no model-API error signal';
    if (f.method) return `the failing exchange is an MCP ${f.method} request`;
    // (the provider's own refusals — a 5xx, its rate limit — are the model path's too)
    if (f.causes.some((c) => c !== 'model-api-error' && c !== 'server-error' && c !== 'retry-attempt' && c !== 'rate-limited'))
      return 'the failure also shows an MCP transport signal';
    return true;
  },
  rationale: (f) =>
    `The failure is an error from the model API (${f.rootException ? f.rootException.type : 'the provider client'}), on the app ⇄ model path — not the MCP client ⇄ server path this tool diagnoses. Nothing to do for MCP; handle it as a model-provider error (its own retry policy or status page). A tool-schema rejection ("Invalid schema for function") is fixed in the tool's schema, not the transport.`,
  examples: [
    {
      name: 'openai 500 from _base_client',
      facts: { causes: ['model-api-error', 'server-error'], rootException: { type: 'openai.InternalServerError', message: 'Error code: 500' } },
      fires: true,
    },
    { name: 'an MCP tools/call 500', facts: { method: 'tools/call', httpStatus: 500, causes: ['model-api-error'] }, fires: false },
    { name: "the model API's rate limit", facts: { httpStatus: 429, causes: ['model-api-error', 'rate-limited', 'retry-attempt'] }, fires: true },
    { name: 'a model error beside a refused MCP connection', facts: { causes: ['model-api-error', 'conn-refused'] }, fires: false },
  ],
};
