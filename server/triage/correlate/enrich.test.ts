import { describe, expect, it } from 'vitest';
import { emptyEvent, type Event } from '../../../parsers/contract/event.ts';
import { inferUnknownSides, toolsNamedByServer } from './enrich.ts';

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

describe('inferUnknownSides: a log no name told the side of', () => {
  const line = (file: string, signals: string[], n = 1) => event({ file, line: n, source: 'unknown', signals, message: signals.join(' ') });
  const sideOf = (evs: Event[], file: string) => inferUnknownSides(evs).find((e) => e.file === file)!.source;
  it('a process that says it listens, and nothing either side does: the one that was called', () => {
    expect(sideOf([line('payouts.log', []), line('payouts.log', ['server-started'], 2), line('payouts.log', ['write-committed'], 3)], 'payouts.log')).toBe('server');
  });
  it("near misses: a listen line beside a client-side line (a local OAuth callback server) is the client's; a file with no signal stays unknown", () => {
    expect(sideOf([line('host.log', ['server-started']), line('host.log', ['call-returned'], 2)], 'host.log')).toBe('client');
    expect(sideOf([line('h.log', ['server-started']), line('h.log', ['session-idle-evicted'], 2), line('h.log', ['call-returned'], 3)], 'h.log')).toBe('unknown');
    expect(sideOf([line('quiet.log', []), line('quiet.log', ['write-committed'], 2)], 'quiet.log')).toBe('unknown');
    // a file whose name or format told its side keeps it
    expect(inferUnknownSides([event({ file: 'agent.log', source: 'client', signals: ['server-started'] })])[0]!.source).toBe('client');
  });
});
