import { describe, expect, it } from 'vitest';
import { emptyEvent, type Event } from '../../../parsers/contract/event.ts';
import { toolsNamedByServer } from './enrich.ts';

function event(over: Partial<Event>): Event {
  return { ...emptyEvent({ file: 'server.log', line: 1, source: 'server', format: 'test', kind: 'line', text: '' }), level: 'info', ...over };
}

const client = (tool: string) => event({ file: 'client.log', source: 'client', tool, message: `calling tool ${tool}` });
const named = (tools: string[], message: string) => toolsNamedByServer([...tools.map(client), event({ message, text: message })]).at(-1)!.tool;

describe('toolsNamedByServer: a server line in prose that names a called tool', () => {
  it('takes the tool a server line names as a whole word', () => {
    expect(named(['rebuild_ledger_index'], 'rebuild_ledger_index: processing done batch=b1')).toBe('rebuild_ledger_index');
    expect(named(['start_render_job'], 'INFO [mcp] start_render_job received project=atlas')).toBe('start_render_job');
    expect(named(['exportReport'], 'handler exportReport finished.')).toBe('exportReport');
    // a gateway's namespaced name: the server logs the bare one
    expect(named(['billing.issue_credit'], 'issue_credit started for acct=7')).toBe('billing.issue_credit');
  });
  it('near-misses: another word that contains it, a plain word, a line that already has a tool, a client line', () => {
    expect(named(['rebuild_ledger_index'], 'rebuild_ledger_index_v2: processing done')).toBeNull();
    expect(named(['rebuild_ledger_index'], 'old.rebuild_ledger_index.done')).toBeNull();
    expect(named(['search'], 'search finished in 3 ms')).toBeNull();
    expect(named(['list'], 'list of jobs: 0')).toBeNull();
    const own = toolsNamedByServer([client('start_render_job'), event({ tool: 'other_tool', message: 'start_render_job received' })]);
    expect(own.at(-1)!.tool).toBe('other_tool');
    const fromClient = toolsNamedByServer([client('start_render_job'), event({ source: 'client', message: 'start_render_job retry' })]);
    expect(fromClient.at(-1)!.tool).toBeNull();
  });
  it('leaves events alone when no client line names a tool', () => {
    const evs = [event({ message: 'rebuild_ledger_index: processing done' })];
    expect(toolsNamedByServer(evs)).toBe(evs);
  });
});
