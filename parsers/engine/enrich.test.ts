// The identity scanner proves itself: each extractor reads its examples alone and does not fire on
// its near-misses; the target and direction tables likewise. Then whole lines in the phrasings real
// clients write, the never-overwrite rule, and hostile input.
import { describe, expect, it } from 'vitest';
import { emptyEvent, type Event } from '../contract/event.ts';
import {
  CLIENT_NAME,
  clientNameOf,
  DIRECTION_WORDS,
  enrich,
  extract,
  EXTRACTORS,
  GATES,
  readJsonRpc,
  SERVER_NAME,
  serverName,
  TASK_ID,
  taskIdOf,
  target,
  TARGET,
} from './enrich.ts';

describe('extractors: examples read, near-misses do not', () => {
  EXTRACTORS.forEach((x, i) => {
    const name = `#${i} ${x.field} (${x.why.slice(0, 50)})`;
    it(`${name} has examples and near-misses`, () => {
      expect(x.examples.length).toBeGreaterThan(0);
      expect(x.nearMisses.length).toBeGreaterThan(0);
    });
    for (const [line, want] of x.examples)
      it(`${name} reads ${JSON.stringify(line)}`, () => {
        expect(extract(x, line)).toEqual(want);
        expect(GATES[x.field]?.test(line) ?? true, `the ${x.field} gate lets it through`).toBe(true);
      });
    for (const line of x.nearMisses) it(`${name} does not fire on ${JSON.stringify(line)}`, () => expect(extract(x, line)).toBeNull());
  });
  for (const [line, want] of TARGET.examples) it(`target of ${JSON.stringify(line)}`, () => expect(target(line)).toEqual(want));
  for (const line of TARGET.nearMisses) it(`no target in ${JSON.stringify(line)}`, () => expect(target(line)).toEqual({}));
  for (const [line, want] of SERVER_NAME.examples) it(`server name of ${JSON.stringify(line)}`, () => expect(serverName(line)).toBe(want));
  for (const line of SERVER_NAME.nearMisses) it(`no server name in ${JSON.stringify(line)}`, () => expect(serverName(line)).toBeNull());
  for (const [line, want] of CLIENT_NAME.examples) it(`client name of ${JSON.stringify(line)}`, () => expect(clientNameOf(line)).toBe(want));
  for (const line of CLIENT_NAME.nearMisses) it(`no client name in ${JSON.stringify(line)}`, () => expect(clientNameOf(line)).toBeNull());
  for (const [line, want] of TASK_ID.examples) it(`task handle of ${JSON.stringify(line)}`, () => expect(taskIdOf(line)).toBe(want));
  for (const line of TASK_ID.nearMisses) it(`no task handle in ${JSON.stringify(line)}`, () => expect(taskIdOf(line)).toBeNull());
});

function ev(text: string, partial: Partial<Event> = {}): Event {
  return Object.assign(emptyEvent({ file: 'f', line: 1, source: 'client', format: 'unknown', kind: 'raw', text }), partial);
}
const pick = (e: Event) => ({
  rpcMethod: e.rpcMethod,
  rpcId: e.rpcId,
  tool: e.tool,
  httpMethod: e.httpMethod,
  httpPath: e.httpPath,
  httpStatus: e.httpStatus,
  session: e.session,
  direction: e.attrs.direction,
});

describe('enrich: whole lines', () => {
  const cases: [string, Partial<ReturnType<typeof pick>>][] = [
    ['[526630] [Local→Remote] tools/call create_order', { rpcMethod: 'tools/call', tool: 'create_order', direction: 'request' }],
    ['[526630] [Remote→Local] 7', { rpcId: 7, direction: 'response' }],
    ['Calling tools/list', { rpcMethod: 'tools/list', direction: 'request' }],
    ['Sending request initialize', { rpcMethod: 'initialize', direction: 'request' }],
    // a call line that already says how it ended describes the answer (never "still waiting")
    ['tools/call id=5 name=get_status -> ok', { rpcMethod: 'tools/call', rpcId: 5, direction: 'response' }],
    ['tools/list done', { rpcMethod: 'tools/list', direction: 'response' }],
    ['tools/list result: [{"name":"purge_cache"}]', { rpcMethod: 'tools/list', direction: 'response' }],
    // a structured log line carrying the call's result member is its answer, jsonrpc member or not
    ['{"level":"info","msg":"tools/list","result":{"tools":[]}}', { rpcMethod: 'tools/list', direction: 'response' }],
    ['<- initialize result protocolVersion=2025-06-18', { direction: 'response' }],
    ['tools/call purge_cache id=5 -> waiting', { rpcMethod: 'tools/call', direction: 'request' }],
    [
      "Sending client request: ClientRequest(method='tools/call', params=CallToolRequestParams(name='get_order', arguments={}))",
      { rpcMethod: 'tools/call', tool: 'get_order', direction: 'request' },
    ],
    ["received root=JSONRPCRequest(method='initialize', params={'protocolVersion': '2025-06-18'}, jsonrpc='2.0', id=0)", { rpcMethod: 'initialize', rpcId: 0 }],
    [
      'send {"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{"id":99},"name":"create_order"},"id":7}',
      { rpcMethod: 'tools/call', rpcId: 7, tool: 'create_order', direction: 'request' },
    ],
    ['Error POSTing to endpoint (HTTP 404): {"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":3}', { rpcId: 3, httpStatus: 404, direction: 'exchange' }],
    [
      'POST http://ip-abc:8080/mcp rpc=3 method=tools/call tool=create_order mcp-session-id=sess_abcdefghijk -> 404 (3 ms)',
      { rpcMethod: 'tools/call', rpcId: 3, tool: 'create_order', httpMethod: 'POST', httpPath: '/mcp', httpStatus: 404, session: 'sess_abcdefghijk', direction: 'exchange' },
    ],
    ['14:21:07  "POST /mcp  HTTP/2"   307   Java-http-client/17.0.9', { httpMethod: 'POST', httpPath: '/mcp', httpStatus: 307, direction: 'exchange' }],
    ["Client error '404 Not Found' for url 'http://ip-abc:8000/mcp'", { httpStatus: 404, httpPath: '/mcp', direction: 'response' }],
    ['Calling MCP tool: createConfluencePage', { tool: 'createConfluencePage', direction: 'request' }],
    ["MCP tool 'scheduled_task_create' timed out (attempt 3/3)", { tool: 'scheduled_task_create' }],
    ['Error invoking MCP tool get_order: Session terminated', { tool: 'get_order' }],
    ['MCP request timed out for tools/call', { rpcMethod: 'tools/call' }],
    ['Received response for tools/call rpc id 7: status 200', { rpcId: 7, httpStatus: 200, direction: 'response' }],
    ['Processing request of type CallToolRequest', { rpcMethod: 'tools/call' }],
    ['Response status code does not indicate success: 400 (Bad Request).', { httpStatus: 400, direction: 'response' }],
    ['HTTP status client error (401 Unauthorized) for url (http://x.example/mcp)', { httpStatus: 401 }],
    ['[MCP][CIMD] rejected: non-200 status {"client_id":"x","status":403}', { httpStatus: 403 }],
    ['MCP finished with failures. Failed: sentry: HTTP 401: {"error":"invalid_token"}', { httpStatus: 401 }],
    ['upstream returned 502 while reading response header', { httpStatus: 502, direction: 'response' }],
    // near-misses as whole lines: no id from an unrelated "id"
    ['{"user":{"id":7},"order":{"id":8}}', { rpcId: null }],
    ['user id=7 logged in', { rpcId: null }],
    ['x-request-id: 4242 request id 42', { rpcId: null }],
    ['{"jsonrpc":"2.0","result":{"items":[{"id":5}]}}', { rpcId: null, direction: 'response' }],
    ['Connected to remote server using StreamableHTTPClientTransport', { direction: undefined }],
  ];
  for (const [line, want] of cases) it(JSON.stringify(line), () => expect(pick(enrich(ev(line)))).toMatchObject(want));

  it('reads a JSON-RPC message escaped inside a JSON log line through its message', () => {
    const text = '{"level":"debug","msg":"send {\\"jsonrpc\\":\\"2.0\\",\\"id\\":4,\\"method\\":\\"tools/list\\"}"}';
    const e = enrich(ev(text, { kind: 'line', format: 'json-lines', message: 'send {"jsonrpc":"2.0","id":4,"method":"tools/list"}' }));
    expect(pick(e)).toMatchObject({ rpcId: 4, rpcMethod: 'tools/list' });
  });

  it('never overwrites a field the format set', () => {
    const e = enrich(ev('rpc=3 method=tools/call -> 404', { rpcId: 9, rpcMethod: 'ping', httpStatus: 200, attrs: { direction: 'request', targetHost: 'h' } }));
    expect(pick(e)).toMatchObject({ rpcId: 9, rpcMethod: 'ping', httpStatus: 200, direction: 'request' });
    expect(e.attrs.targetHost).toBe('h');
  });

  it('sets target attrs from a URL in a request context', () => {
    expect(enrich(ev('Connecting to remote server: https://mcp.atlassian.com/v1/sse')).attrs).toMatchObject({
      targetScheme: 'https',
      targetHost: 'mcp.atlassian.com',
      targetPort: 443,
    });
  });

  for (const d of DIRECTION_WORDS) for (const line of d.examples) it(`direction ${d.direction}: ${line}`, () => expect(enrich(ev(line)).attrs.direction).toBe(d.direction));
});

describe('JSON-RPC scanner', () => {
  it('reads top-level members in any key order and ignores nested ids', () => {
    const t = 'x {"params":{"arguments":{"id":1,"q":"}\\"{"},"name":"search"},"id":"r-2","method":"tools/call","jsonrpc":"2.0"} y';
    expect(readJsonRpc(t, t.indexOf('"jsonrpc"'))).toEqual({ id: 'r-2', method: 'tools/call', result: false, error: false, tool: 'search' });
  });
  it('a cut line gives what it holds', () => {
    const t = '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"x","argu';
    expect(readJsonRpc(t, 1)).toMatchObject({ id: 5, method: 'tools/call' });
  });
});

describe('enrich on hostile input', () => {
  const hostile = [
    '{"jsonrpc":"2.0",' + '"a":{'.repeat(50_000),
    '"jsonrpc":"2.0"'.repeat(20_000),
    '{'.repeat(100_000) + '"jsonrpc":"2.0"',
    'tools/call '.repeat(20_000),
    'MCP ' + 'x'.repeat(200_000) + ' request id 7',
    'JSONRPCRequest(' + 'a'.repeat(200_000),
    'for url http://' + 'a'.repeat(200_000),
    'status '.repeat(30_000),
    '"params":{' + '"a":1,'.repeat(40_000),
    'method=tools/call '.repeat(10_000),
    'Calling MCP tool '.repeat(10_000),
    '\\'.repeat(200_000) + '"jsonrpc":"2.0"',
  ];
  for (const line of hostile) {
    it(`stays fast on ${JSON.stringify(line.slice(0, 24))}… (${line.length} chars)`, () => {
      const t = performance.now();
      for (let k = 0; k < 5; k++) enrich(ev(line + String(k)));
      // a ReDoS guard on 100–300k characters, not a speed test: quadratic work here takes minutes, a quiet run
      // 20–60 ms, and a loaded 2-core box must never trip it
      expect(performance.now() - t).toBeLessThan(5_000);
    });
  }
});
