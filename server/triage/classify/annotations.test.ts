// Tool annotations wherever a log carries them (issue: "read wherever they are logged"): a tools/list
// result, a host's note, a pydantic repr — and a host's record about one call with the hints as its own
// fields. Near misses: hints beside two different tools, hints with no tool, look-alike keys.
import { describe, expect, it } from 'vitest';
import { emptyEvent } from '../../../parsers/contract/event.ts';
import { toolAnnotations } from './facts.ts';
import { classifyTool } from './policy.ts';

const ev = (text: string) => emptyEvent({ file: 'a.log', line: 1, source: 'client', format: 'unknown', kind: 'line', text });
const read = (...texts: string[]) => Object.fromEntries(toolAnnotations(texts.map(ev)));

describe('tool annotations in logs', () => {
  it('reads a tools/list result, SDK key order', () => {
    expect(read('{"tools":[{"name":"search_docs","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}]}')).toEqual({ search_docs: { readOnlyHint: true } });
  });
  it('reads a JSON record about one call with the hints as its own fields', () => {
    expect(read('{"level":40,"msg":"re-issuing read-only call","tool":"search_archive","attempt":2,"readOnlyHint":true}')).toEqual({
      search_archive: { readOnlyHint: true },
    });
  });
  it('reads the same as logfmt', () => {
    expect(read('level=info msg="calling tool" tool=create_invoice destructiveHint=true idempotentHint=false')).toEqual({
      create_invoice: { destructiveHint: true, idempotentHint: false },
    });
  });
  it("reads a host's sentence naming the tool and its hint", () => {
    expect(read('↻ lookup_invoice is marked readOnlyHint=true by server billing; re-issuing as request 9')).toEqual({ lookup_invoice: { readOnlyHint: true } });
    expect(read("WARN 'close_account' annotated destructiveHint: true, not retrying")).toEqual({ close_account: { destructiveHint: true } });
  });
  it("reads a tool's name right before its hints (a host's one-line summary after tools/list)", () => {
    expect(read('[INFO auditbot::mcp] audit-mcp 0.9.0; tool export_audit_events readOnlyHint=true')).toEqual({ export_audit_events: { readOnlyHint: true } });
    expect(read('2026-10-14T09:30:02Z INFO mcp: tools/list -> 4 tools; fetch_invoices readOnlyHint=true destructiveHint=false')).toEqual({
      fetch_invoices: { readOnlyHint: true, destructiveHint: false },
    });
  });
  it("reads a host's listing of several tools, each name followed by its own hints", () => {
    expect(
      read(
        'INFO c.e.host.McpClient - tools/list id=7 -> 3 tools; fetch_report readOnlyHint=true, delete_report destructiveHint=true readOnlyHint=false, tagReport readOnlyHint=false',
      ),
    ).toEqual({
      fetch_report: { readOnlyHint: true },
      delete_report: { destructiveHint: true, readOnlyHint: false },
      tagReport: { readOnlyHint: false },
    });
  });
  it('near miss: a listing where one tool is named twice says nothing of either', () => {
    expect(read('fetch_report readOnlyHint=true, fetch_report readOnlyHint=false, other_tool readOnlyHint=true')).toEqual({});
  });
  it('reads hints in parentheses after the tool a host calls', () => {
    expect(read('  mcp:client call id=9 tools/call lookup_route (annotations readOnlyHint=true idempotentHint=true) +0ms')).toEqual({
      lookup_route: { readOnlyHint: true, idempotentHint: true },
    });
  });
  it('near miss: a plain word before a hint is no tool name', () => {
    expect(read('server policy: default readOnlyHint=true for unknown tools')).toEqual({});
  });
  it('near miss: a sentence naming two tools with hints says nothing', () => {
    expect(read('lookup_invoice is marked readOnlyHint=true, tool=close_account')).toEqual({});
  });
  it('near miss: hints beside two different tools say nothing', () => {
    expect(read('{"tool":"a_tool","next_tool":"b","readOnlyHint":true}')).toEqual({ a_tool: { readOnlyHint: true } });
    expect(read('tool=a_tool readOnlyHint=true tool=b_tool')).toEqual({});
  });
  it('near miss: hints with no tool, or keys that only look like hints', () => {
    expect(read('{"msg":"cache policy","readOnlyHint":true}')).toEqual({});
    expect(read('{"tool":"x_tool","myreadOnlyHint":true}')).toEqual({});
  });
  it("reads a host's summary naming the tools per hint as a list", () => {
    expect(read('INFO host::tools: tools/list ok count=7 read_only="search_incidents,get_incident,list_oncall"')).toEqual({
      search_incidents: { readOnlyHint: true },
      get_incident: { readOnlyHint: true },
      list_oncall: { readOnlyHint: true },
    });
    expect(read('{"msg":"tools discovered","readOnlyTools":["get_rate"],"destructive":["purge_cache"]}')).toEqual({
      get_rate: { readOnlyHint: true },
      purge_cache: { destructiveHint: true },
    });
  });
  it('near miss: a read-only mode or a sentence is no list of tools', () => {
    expect(read('mount /data read_only=true', 'db opened readonly="yes"', '{"read_only":"true"}', 'readOnly: [all tools]')).toEqual({});
  });
  it('reads the hint a host gives, bare, as its reason to re-issue one call', () => {
    const e = ev('tools/call lookup_shipment id=83 -> 503 Service Unavailable in 36.2ms (text/html); re-issuing once (readOnlyHint)');
    e.tool = 'lookup_shipment';
    expect(Object.fromEntries(toolAnnotations([e]))).toEqual({ lookup_shipment: { readOnlyHint: true } });
  });
  it('near miss: a bare hint the host says is missing, or one with no call named', () => {
    const e = ev('tools/call create_label id=9 -> 503; not re-issuing (no readOnlyHint)');
    e.tool = 'create_label';
    const f = ev('re-issuing once (readOnlyHint)');
    const g = ev('tools/call create_label id=9 -> 503; readOnlyHint missing, not re-issuing');
    g.tool = 'create_label';
    expect(Object.fromEntries(toolAnnotations([e, f, g]))).toEqual({});
  });
  it("reads hints after a tool's annotations, bare", () => {
    expect(read('2026-09-16 02:00:04,602 DEBUG finance_reports.mcp: build_margin_report annotations: readOnlyHint=True idempotentHint=True')).toEqual({
      build_margin_report: { readOnlyHint: true, idempotentHint: true },
    });
  });
  it("reads a Python host printing each tool's pydantic annotations object after its name", () => {
    expect(
      read(
        "2026-11-03 08:14:22,510 DEBUG [host.tools] ledger: tools/list -> list_entries annotations=ToolAnnotations(title='List (recent) entries', readOnlyHint=True, idempotentHint=True), post_entry annotations=ToolAnnotations(title=None, readOnlyHint=False, destructiveHint=True)",
      ),
    ).toEqual({ list_entries: { readOnlyHint: true, idempotentHint: true }, post_entry: { readOnlyHint: false, destructiveHint: true } });
  });
  it("reads a tool's name printed before its object, or a map keyed by tool", () => {
    expect(
      read('2026-11-02 10:00:01.330 [debug] [mcp] crm: get_account {"annotations":{"readOnlyHint":true},"inputSchema":{"type":"object","properties":{"id":{"type":"string"}}}}'),
    ).toEqual({ get_account: { readOnlyHint: true } });
    expect(read('{"tools":{"close-case":{"annotations":{"destructiveHint":true}},"caseNotes":{"annotations":{"readOnlyHint":true}}}}')).toEqual({
      'close-case': { destructiveHint: true },
      caseNotes: { readOnlyHint: true },
    });
  });
  it('near miss: a plain word before the object is its container, not a tool', () => {
    expect(read('DEBUG result {"annotations":{"readOnlyHint":true}}', '{"tools":{"search":{"annotations":{"readOnlyHint":true}}}}')).toEqual({});
  });
  it('near miss: a pydantic annotations object with no hints, or none at all', () => {
    expect(read("report annotations=ToolAnnotations(title='Report')", 'export annotations=None readOnlyHint=True')).toEqual({});
  });
  it('near miss: a word before annotations that are not hints', () => {
    expect(read('DEBUG loaded annotations: 4 files', 'INFO server annotations: none readOnlyHint=later')).toEqual({});
  });
  it("reads each tool's annotations written as its member (`tool.annotations={…}`)", () => {
    expect(
      read(
        'debug outage-briefing mcp <- id=55 tools=6 search_outage_tickets.annotations={"readOnlyHint":true,"idempotentHint":true} dispatch_crew.annotations={"destructiveHint":true}',
      ),
    ).toEqual({ search_outage_tickets: { readOnlyHint: true, idempotentHint: true }, dispatch_crew: { destructiveHint: true } });
  });
  it("reads each tool's hints in braces right after its name", () => {
    expect(
      read(
        "DEBUG | kestrel_assist.mcp_pool:refresh_tools:84 - tools/list from 'shipments' (trusted=internal): track_shipment{readOnlyHint=True, idempotentHint=True, openWorldHint=False}, create_claim{readOnlyHint=False, idempotentHint=False}",
      ),
    ).toEqual({ track_shipment: { readOnlyHint: true, idempotentHint: true, openWorldHint: false }, create_claim: { readOnlyHint: false, idempotentHint: false } });
  });
  it('near miss: braces after a name holding more than hints', () => {
    expect(read('payload{readOnlyHint=True, body=...}', 'dict{"readOnlyHint": true}')).toEqual({});
  });
  it('near miss: a member that is not the annotations object', () => {
    expect(read('config.annotations_path={"readOnlyHint":true}', 'search.annotations=none')).toEqual({});
  });
});

describe("a tool's hints under its other name (a gateway's namespace)", () => {
  const reads = new Set(['resources/read']);
  const ann = new Map<string, Record<string, boolean>>([
    ['search_pages', { readOnlyHint: true, idempotentHint: true }],
    ['update_page', { readOnlyHint: false, destructiveHint: true }],
  ]);
  it('the gateway catalog names the upstream tool, the client calls it namespaced (and the other way round)', () => {
    expect(classifyTool('tools/call', 'wiki__search_pages', null, ann, reads)).toMatchObject({ class: 'read', source: 'annotations' });
    expect(classifyTool('tools/call', 'wiki.update_page', null, ann, reads)).toMatchObject({ class: 'write', source: 'annotations' });
    expect(classifyTool('tools/call', 'search_pages', null, new Map<string, Record<string, boolean>>([['wiki__search_pages', { readOnlyHint: true }]]), reads)).toMatchObject({
      class: 'read',
    });
  });
  it('near misses: a name that only ends the same, or two annotated names that both fit', () => {
    expect(classifyTool('tools/call', 'research_pages', null, ann, reads).class).toBe('unknown');
    expect(classifyTool('tools/call', 'wiki_search_pages', null, ann, reads).class).toBe('unknown');
    const two = new Map<string, Record<string, boolean>>([
      ['a__search', { readOnlyHint: true }],
      ['b__search', { readOnlyHint: false }],
    ]);
    expect(classifyTool('tools/call', 'search', null, two, reads).class).toBe('unknown');
  });
});
