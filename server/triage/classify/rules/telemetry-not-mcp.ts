import type { Rule } from '../rule.ts';
import { has } from '../rule.ts';

// triage-rules.md §1: two paths can fail and only one is ours. A host's telemetry, usage or tracing exporter
// talks to its own collector; its failure (a DNS blip, a 503 from the collector) says nothing of the MCP path,
// even when it is the loudest line beside a call that worked.
export const telemetryNotMcp: Rule = {
  id: 'telemetry-not-mcp',
  decision: 'no_action',
  source: 'triage-rules.md §1',
  when(f) {
    if (!has(f, 'telemetry-error')) return 'no telemetry-exporter signal';
    if (f.method) return `the failing exchange is an MCP ${f.method} request`;
    if (f.tool) return `the failure names the tool ${f.tool}`;
    return true;
  },
  rationale: () =>
    'The failure is a telemetry, usage or tracing exporter failing to reach its own collector — a path beside MCP, not the MCP client ⇄ server path this tool diagnoses. Nothing to do for MCP; fix the exporter (its endpoint, DNS or collector) on its own if the data matters.',
  examples: [
    { name: 'a usage upload that could not resolve its host', facts: { causes: ['telemetry-error', 'dns-failure'] }, fires: true },
    { name: 'an OTLP exporter timing out', facts: { causes: ['telemetry-error', 'client-timeout'] }, fires: true },
    { name: 'an MCP tools/call that failed', facts: { method: 'tools/call', causes: ['telemetry-error', 'dns-failure'] }, fires: false },
    { name: 'no exporter wording', facts: { causes: ['dns-failure'] }, fires: false },
  ],
};
