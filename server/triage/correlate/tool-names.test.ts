import { describe, expect, it } from 'vitest';
import { emptyEvent, type Event } from '../../../parsers/contract/event.ts';
import { oneNameForEachTool } from './tool-names.ts';

function event(file: string, tool: string | null, text = ''): Event {
  return { ...emptyEvent({ file, line: 1, source: file.startsWith('host') ? 'client' : 'server', format: 'test', kind: 'line', text }), tool, message: text };
}

/** The host's tool names after the pass, given the host's and the server's lines. */
function hostTools(host: [string | null, string?][], server: string[]): (string | null)[] {
  const evs = [...host.map(([t, text]) => event('host.log', t, text)), ...server.map((t) => event('server.log', t))];
  return oneNameForEachTool(evs)
    .filter((e) => e.file === 'host.log')
    .map((e) => e.tool);
}

describe('oneNameForEachTool: a host namespacing a server tool', () => {
  it('takes the server name for namespaces no tool name holds by chance', () => {
    expect(hostTools([['mcp__crm__lookup_account']], ['lookup_account'])).toEqual(['lookup_account']); // Claude Code
    expect(hostTools([['lookup_account_mcp_crm']], ['lookup_account'])).toEqual(['lookup_account']); // LibreChat
    expect(hostTools([['crm.lookup_account'], ['crm:lookup_account']], ['lookup_account'])).toEqual(['lookup_account', 'lookup_account']);
    expect(hostTools([['crm/lookup_account']], ['lookup_account'])).toEqual(['lookup_account']);
  });
  it('an underscore or dash prefix only when the host log names a server by it', () => {
    expect(hostTools([[null, 'POST https://mcp-crm.internal.example.com/mcp 200'], ['crm_lookup_account']], ['lookup_account'])).toEqual([null, 'lookup_account']);
    expect(hostTools([[null, 'connected url=http://crm:8080/mcp'], ['crm-lookup_account']], ['lookup_account'])).toEqual([null, 'lookup_account']);
  });
  it('near misses: an ordinary snake-case name, a prefix the host never connects to, the mcp label', () => {
    expect(hostTools([['get_order']], ['order'])).toEqual(['get_order']);
    expect(hostTools([[null, 'POST https://mcp.example.org/mcp 200'], ['inv_check_stock']], ['check_stock'])).toEqual([null, 'inv_check_stock']);
    expect(hostTools([[null, 'POST https://mcp.example.org/mcp 200'], ['mcp_check_stock']], ['check_stock'])).toEqual([null, 'mcp_check_stock']);
    // a one-letter namespace
    expect(hostTools([['a.check_stock']], ['check_stock'])).toEqual(['a.check_stock']);
  });
  it('near misses: both names in one log, or two short names that fit', () => {
    const both = oneNameForEachTool([event('host.log', 'crm.lookup_account'), event('server.log', 'lookup_account'), event('server.log', 'crm.lookup_account')]);
    expect(both[0]!.tool).toBe('crm.lookup_account');
    const shared = oneNameForEachTool([event('host.log', 'crm.lookup_account'), event('host.log', 'lookup_account'), event('server.log', 'lookup_account')]);
    expect(shared[0]!.tool).toBe('crm.lookup_account');
    expect(hostTools([['mcp__crm__lookup_account']], ['lookup_account', 'crm__lookup_account'])).toEqual(['mcp__crm__lookup_account']);
  });
  it('leaves the events as they are when nothing is renamed', () => {
    const evs = [event('host.log', 'lookup_account'), event('server.log', 'lookup_account')];
    expect(oneNameForEachTool(evs)).toBe(evs);
  });
});
