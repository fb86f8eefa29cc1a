// Which lines make one request: the adjacent-lines join keeps an exchange's tail with it, but a call made
// again after its failure is a request of its own.
import { describe, expect, it } from 'vitest';
import { emptyEvent, type Event } from '../../../parsers/contract/event.ts';
import { buildSpans, replicaWriters } from './spans.ts';

const ev = (line: number, text: string, extra: Partial<Event>): Event => ({
  ...emptyEvent({ file: 'host.log', line, source: 'client', format: 'test', kind: 'line', text }),
  ...extra,
});
const groups = (events: Event[]) =>
  buildSpans(events)
    .map((s) => s.events.map((e) => e.line).sort((a, b) => a - b))
    .sort((a, b) => a[0]! - b[0]!);

describe('adjacent lines', () => {
  const failedCall = ev(3, 'search_pages failed: Session not found', { tool: 'search_pages', requestId: 'req_1', level: 'error', signals: ['session-not-found'] });
  const note = ev(4, 'That request failed because the session expired. Retrying.', { level: 'warn', signals: ['session-not-found'] });

  it('a call answered right after the same call failed is the call made again, not its tail', () => {
    const again = ev(6, 'search_pages answered: 2 pages', { tool: 'search_pages', signals: ['host-tool-answered'] });
    expect(groups([failedCall, note, again])).toEqual([[3, 4], [6]]);
  });

  it('near miss: the answer under an exchange that has not failed is its tail', () => {
    const asked = ev(3, 'POST /mcp tools/call search_pages', { tool: 'search_pages', requestId: 'req_1' });
    const answered = ev(4, 'search_pages answered: 2 pages', { tool: 'search_pages', signals: ['host-tool-answered'] });
    expect(groups([asked, answered])).toEqual([[3, 4]]);
  });

  it('near miss: a failure after the failure stays with it', () => {
    const more = ev(6, 'search_pages: giving up', { tool: 'search_pages', level: 'error', signals: ['retries-exhausted'] });
    expect(groups([failedCall, note, more])).toEqual([[3, 4, 6]]);
  });
});

describe('one id and tool in one file, minutes apart', () => {
  const T = Date.UTC(2026, 11, 2, 9, 0, 0);
  const start = ev(1, 'tools/call archive id=4 start', { rpcId: 4, tool: 'archive', rpcMethod: 'tools/call', ts: T });
  const done = ev(9, 'tools/call archive id=4 done (240000 ms)', { rpcId: 4, tool: 'archive', ts: T + 240_000 });

  it("a long call's start and end lines are one call", () => {
    expect(groups([start, done])).toEqual([[1, 9]]);
  });

  it('a cancellation naming the id minutes later joins the call it cancels', () => {
    const cancel = ev(5, 'notifications/cancelled requestId=4', { rpcId: 4, rpcMethod: 'notifications/cancelled', ts: T + 60_000 });
    expect(groups([start, cancel])).toEqual([[1, 5]]);
  });

  it('near miss: after a new initialize the same id and tool is the call made again', () => {
    const init = ev(5, 'initialize', { rpcId: 0, rpcMethod: 'initialize', ts: T + 120_000 });
    expect(groups([start, init, done])).toEqual([[1], [5], [9]]);
  });

  it('near miss: the same id without the tool, minutes apart, is not joined', () => {
    const other = ev(9, 'request id=4 answered', { rpcId: 4, ts: T + 240_000 });
    expect(groups([start, other])).toEqual([[1], [9]]);
  });
});

describe('lines that each tell how a request ended', () => {
  const T = Date.UTC(2026, 11, 2, 9, 0, 0);
  const access = (line: number, status: number, dt: number) =>
    ({
      ...ev(line, `10.1.0.7 - - "POST /mcp HTTP/1.1" ${status} 157`, { httpMethod: 'POST', httpPath: '/mcp', httpStatus: status, ts: T + dt, signals: [`http-${status}`] }),
      file: 'edge-access.log',
      source: 'proxy',
    }) as Event;

  it("an access log's records in a row are one request each (three refused attempts are three)", () => {
    expect(groups([access(1, 502, 0), access(2, 502, 1000), access(3, 502, 2000)])).toEqual([[1], [2], [3]]);
  });

  it('a proxy error line in a row: each refused connect is its own request', () => {
    const refused = (line: number, dt: number) =>
      ({
        ...ev(line, 'connect() failed (111: Connection refused) while connecting to upstream, request: "POST /mcp HTTP/1.1"', {
          httpMethod: 'POST',
          httpPath: '/mcp',
          level: 'error',
          ts: T + dt,
          signals: ['connection-refused', 'proxy-upstream-connect-failed'],
        }),
        file: 'edge-error.log',
        source: 'proxy',
      }) as Event;
    expect(groups([refused(1, 0), refused(2, 1000)])).toEqual([[1], [2]]);
  });

  it('near miss: an error line and its own access record (one reports, one records) stay one request', () => {
    const error = {
      ...ev(1, '{"logger":"http.log.error","msg":"dial tcp 10.1.0.9:7000: connect: connection refused","status":502}', {
        httpMethod: 'POST',
        httpPath: '/mcp',
        httpStatus: 502,
        level: 'error',
        ts: T,
        signals: ['connection-refused', 'http-502'],
      }),
      file: 'edge.json',
      source: 'proxy',
    } as Event;
    const record = { ...access(2, 502, 1), file: 'edge.json' } as Event;
    expect(groups([error, record])).toEqual([[1, 2]]);
  });

  it('near miss: a request line and its answer stay one request', () => {
    const asked = ev(1, 'POST /mcp tools/call', { httpMethod: 'POST', httpPath: '/mcp', ts: T });
    const answered = ev(2, 'POST /mcp -> 200', { httpMethod: 'POST', httpPath: '/mcp', httpStatus: 200, ts: T + 40 });
    expect(groups([asked, answered])).toEqual([[1, 2]]);
  });
});

describe("one call without a tool in two logs: the method stands in the tool's place", () => {
  const T = Date.UTC(2026, 7, 14, 9, 30, 0);
  const at = (file: string, line: number, text: string, extra: Partial<Event>): Event => ({
    ...emptyEvent({ file, line, source: 'unknown', format: 'test', kind: 'line', text }),
    ...extra,
  });
  it("a client's and a server's resources/read with one string id are one call", () => {
    const c = at('reader.log', 1, 'POST /mcp Mcp-Method=resources/read id=rd-7', { rpcId: 'rd-7', rpcMethod: 'resources/read', ts: T });
    const s = at('docs-pod.log', 1, 'resources/read docs://h/42 id=rd-7', { rpcId: 'rd-7', rpcMethod: 'resources/read', ts: T + 20 });
    expect(buildSpans([c, s]).length).toBe(1);
  });
  it('near miss: initialize with the same id in two logs stays two (every client starts from that id)', () => {
    const c = at('a.log', 1, 'initialize id=0', { rpcId: 0, rpcMethod: 'initialize', ts: T });
    const s = at('b.log', 1, 'initialize id=0', { rpcId: 0, rpcMethod: 'initialize', ts: T + 20 });
    expect(buildSpans([c, s]).length).toBe(2);
  });
  it('near miss: the same id on two different methods stays two', () => {
    const c = at('a.log', 1, 'resources/read id=rd-7', { rpcId: 'rd-7', rpcMethod: 'resources/read', ts: T });
    const s = at('b.log', 1, 'prompts/get id=rd-7', { rpcId: 'rd-7', rpcMethod: 'prompts/get', ts: T + 20 });
    expect(buildSpans([c, s]).length).toBe(2);
  });
});

describe("a server's refusal naming only the method: the one call of that name near it", () => {
  const T = Date.UTC(2026, 10, 2, 10, 4, 11);
  const probe = (line: number, id: string, at: number) => ev(line, `probe method=server/discover id=${id}`, { rpcId: id, rpcMethod: 'server/discover', ts: T + at });
  const refusal = {
    ...ev(2, 'dispatcher: unknown method server/discover -> -32601', { rpcMethod: 'server/discover', ts: T + 170, level: 'warn', signals: ['method-not-found'] }),
    file: 'wiki.log',
    source: 'server' as const,
  };
  const fileLines = (events: Event[]) => buildSpans(events).map((s) => s.events.map((e) => `${e.file}:${e.line}`).sort());
  it('joins the server line to the one probe within the window', () => {
    expect(fileLines([probe(2, 'd-1', 0), refusal])).toEqual([['host.log:2', 'wiki.log:2']]);
  });
  it('near miss: two probes of that method near it — which one is a guess, so neither', () => {
    expect(fileLines([probe(2, 'd-1', 0), probe(3, 'd-2', 300), refusal])).toHaveLength(3);
  });
  it('near miss: a probe outside the window stays apart', () => {
    expect(fileLines([probe(2, 'd-1', -5000), refusal])).toHaveLength(2);
  });
});

describe('one id under two names: a JSON-RPC id another log keeps as its request id', () => {
  const T = Date.UTC(2026, 9, 27, 9, 30, 5);
  const sent = ev(3, 'tools/call post_journal_entry id=fo-7d03 sent', { rpcId: 'fo-7d03', tool: 'post_journal_entry', rpcMethod: 'tools/call', ts: T });
  const at = (over: Partial<Event>) => ({
    ...ev(7, 'journal entry committed', { ts: T + 22_000, signals: ['write-committed'], ...over }),
    file: 'ledger.jsonl',
    source: 'server' as const,
  });
  const fileLines = (events: Event[]) => buildSpans(events).map((s) => s.events.map((e) => `${e.file}:${e.line}`).sort());
  it("a minted id: the client's JSON-RPC id and the server's rid are one call", () => {
    expect(fileLines([sent, at({ requestId: 'fo-7d03' })])).toEqual([['host.log:3', 'ledger.jsonl:7']]);
    // (one other file logs the id: a server clock a month off does not part them)
    expect(fileLines([sent, at({ requestId: 'fo-7d03', ts: T + 36 * 86_400_000 })])).toEqual([['host.log:3', 'ledger.jsonl:7']]);
  });
  it('near misses: a number (ids restart per client), another id, the same file', () => {
    const numbered = ev(3, 'tools/call x id=7 sent', { rpcId: 7, tool: 'x', ts: T });
    expect(fileLines([numbered, at({ requestId: '7' })])).toHaveLength(2);
    expect(fileLines([sent, at({ requestId: 'fo-7d04' })])).toHaveLength(2);
    expect(fileLines([sent, { ...at({ requestId: 'fo-7d03' }), file: 'host.log', source: 'client', line: 9 }])).toHaveLength(2);
  });
});

describe('replicas in one file', () => {
  it('tells replicas of one workload from different services', () => {
    const pairs: [string, string, boolean][] = [
      ['billing-agent-6d8f7c5b9-x4kzp/agent', 'billing-agent-6d8f7c5b9-m2w7q/agent', true], // two pods of a Deployment
      ['ingest-daemon-x7q2z/collector', 'ingest-daemon-b9k4d/collector', true], // a DaemonSet's pods
      ['api-0', 'api-1', true], // a StatefulSet's ordinals
      ['app-1', 'app-2', true], // compose replicas
      ['web.1', 'web.2', true], // dynos
      // near misses: another service, another container of the pod, the same writer, a name that only looks suffixed
      ['nginx-1', 'app-1', false],
      ['billing-agent-6d8f7c5b9-x4kzp/agent', 'billing-agent-6d8f7c5b9-x4kzp/envoy', false],
      ['billing-agent-6d8f7c5b9-x4kzp/agent', 'billing-agent-6d8f7c5b9-x4kzp/agent', false],
      ['nginx-proxy', 'nginx-cache', false],
    ];
    for (const [a, b, want] of pairs) expect([a, b, replicaWriters(a, b)]).toEqual([a, b, want]);
  });

  it('a line of another pod under a call is not its tail; the same pod after it is', () => {
    const pod = (line: number, writer: string, text: string, extra: Partial<Event>) => {
      const e = ev(line, text, extra);
      return { ...e, attrs: { ...e.attrs, container: writer } };
    };
    const a = 'agent-6d8f7c5b9-x4kzp/agent';
    const b = 'agent-6d8f7c5b9-m2w7q/agent';
    const events = [
      pod(1, a, 'POST https://mcp.example.net/mcp', { httpMethod: 'POST', httpPath: '/mcp', rpcId: 7, rpcMethod: 'tools/call', tool: 'issue_credit' }),
      pod(2, b, 'shutting down', { signals: ['shutdown'] }),
      pod(3, a, 'stream error: peer closed connection', { level: 'error', signals: ['connection-reset'] }),
    ];
    expect(groups(events)).toEqual([[1, 3], [2]]);
  });
});
