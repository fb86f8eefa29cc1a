// The transcript reader on each layout it reads (curl -v, curl -i, HTTPie, wget -S, curl -w, devtools), the
// redirect loops it marks, and the look-alikes it must leave alone. Lines written here, in our own values.
import { describe, expect, it } from 'vitest';
import type { Event } from '../../../parsers/contract/event.ts';
import { emptyEvent } from '../../../parsers/contract/event.ts';
import { joinHttpTranscripts } from './transcript.ts';

/** One event per line, as the formats leave them (the fields a test needs set by hand). */
function lines(rows: (string | [string, Partial<Event>])[]): Event[] {
  return rows.map((r, i) => {
    const [text, extra] = typeof r === 'string' ? [r, {}] : r;
    const e = emptyEvent({ file: 't.log', line: i + 1, source: 'unknown', format: 'unknown', kind: 'line', text });
    e.message = text;
    return { ...e, ...extra, attrs: { ...e.attrs, ...(extra.attrs ?? {}) } };
  });
}
const exchanges = (evs: Event[]) => joinHttpTranscripts(evs).filter((e) => e.attrs.transcript === true);

describe('joinHttpTranscripts', () => {
  it('curl -v: the request head, curl notes and the answer head become one exchange', () => {
    const got = exchanges(
      lines([
        '* Connected to tools.example.net (192.0.2.4) port 8443',
        ['> POST /mcp HTTP/1.1', { httpMethod: 'POST', httpPath: '/mcp' }],
        '> Host: tools.example.net:8443',
        '> Accept: application/json, text/event-stream',
        '>',
        '* Request completely sent off',
        ['< HTTP/1.1 404 Not Found', { httpStatus: 404, format: 'http-transcript' }],
        ['< Content-Type: text/html', { format: 'http-transcript' }],
        '<',
      ]),
    );
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ httpMethod: 'POST', httpPath: '/mcp', httpStatus: 404, line: 2, endLine: 9 });
    expect(got[0]!.attrs).toMatchObject({
      direction: 'exchange',
      targetHost: 'tools.example.net',
      targetPort: 8443,
      contentType: 'text/html',
      accept: 'application/json, text/event-stream',
    });
    expect(got[0]!.signals).toContain('http-404');
  });

  it('curl -i: an answer head printed under its command takes the command as its request', () => {
    const got = exchanges(
      lines([
        [
          '$ curl -i -X POST http://10.1.0.9:7000/mcp -d @call.json',
          { httpMethod: 'POST', httpPath: '/mcp', attrs: { direction: 'request', targetHost: '10.1.0.9', targetPort: 7000 } },
        ],
        ['HTTP/1.1 401 Unauthorized', { httpStatus: 401 }],
        ['WWW-Authenticate: Bearer error="invalid_token"', { format: 'http-transcript' }],
      ]),
    );
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ httpMethod: 'POST', httpPath: '/mcp', httpStatus: 401, line: 1, endLine: 3 });
    expect(got[0]!.attrs).toMatchObject({ wwwAuthenticate: 'Bearer error="invalid_token"', targetHost: '10.1.0.9' });
  });

  it('wget -S: the indented answer head', () => {
    const got = exchanges(lines(['  HTTP/1.1 502 Bad Gateway', '  Content-Type: text/html', '  Server: nginx']));
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ httpStatus: 502, endLine: 3 });
  });

  it("curl -w '%{http_code}': 000 is no answer at all, another code is the status", () => {
    const cmd = (u: string) =>
      [`$ curl -s -o /dev/null -w '%{http_code}\\n' ${u}`, { httpMethod: 'GET', httpPath: '/mcp', attrs: { direction: 'request' } }] as [string, Partial<Event>];
    const none = exchanges(lines([cmd('https://a.example.dev/mcp'), '000']));
    expect(none).toHaveLength(1);
    expect(none[0]).toMatchObject({ httpStatus: null, httpMethod: 'GET' });
    expect(none[0]!.attrs.noAnswer).toBe(true);
    expect(none[0]!.signals).toContain('no-http-answer');
    const some = exchanges(lines([cmd('https://a.example.dev/mcp'), '503']));
    expect(some[0]).toMatchObject({ httpStatus: 503 });
    expect(some[0]!.signals).not.toContain('no-http-answer');
  });

  it('a browser devtools copy: Request URL, Request Method, Status Code', () => {
    const got = exchanges(lines(['Request URL: https://gw.example.org/v2/mcp', 'Request Method: POST', 'Status Code: 504 Gateway Timeout', 'Remote Address: 198.51.100.9:443']));
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ httpMethod: 'POST', httpPath: '/v2/mcp', httpStatus: 504 });
    expect(got[0]!.attrs.targetHost).toBe('gw.example.org');
  });

  it('a path-only Location naming the path requested is a loop to itself; a slash ping-pong is a cycle', () => {
    const self = exchanges(
      lines([
        ['> GET /x/mcp/ HTTP/2', { httpMethod: 'GET', httpPath: '/x/mcp/' }],
        ['< HTTP/2 301', { httpStatus: 301 }],
        ['< location: /x/mcp', { format: 'http-transcript' }],
        ['> GET /x/mcp HTTP/2', { httpMethod: 'GET', httpPath: '/x/mcp' }],
        ['< HTTP/2 301', { httpStatus: 301 }],
        ['< location: /x/mcp', { format: 'http-transcript' }],
      ]),
    );
    expect(self.map((e) => e.attrs.redirectLoop ?? null)).toEqual([null, 'self']);
    expect(self[1]!.signals).toContain('redirect-loop');
    const cycle = exchanges(
      lines([
        ['> POST /mcp HTTP/1.1', { httpMethod: 'POST', httpPath: '/mcp' }],
        ['< HTTP/1.1 308 Permanent Redirect', { httpStatus: 308 }],
        ['< Location: https://h.example.net/mcp/', { format: 'http-transcript' }],
        ['> POST /mcp/ HTTP/1.1', { httpMethod: 'POST', httpPath: '/mcp/' }],
        ['< HTTP/1.1 301 Moved Permanently', { httpStatus: 301 }],
        ['< Location: https://h.example.net/mcp', { format: 'http-transcript' }],
      ]),
    );
    expect(cycle.map((e) => e.attrs.redirectLoop ?? null)).toEqual([null, 'cycle']);
  });

  it('near miss: a redirect followed to a new path is no loop', () => {
    const got = exchanges(
      lines([
        ['> POST /mcp HTTP/1.1', { httpMethod: 'POST', httpPath: '/mcp' }],
        ['< HTTP/1.1 307 Temporary Redirect', { httpStatus: 307 }],
        ['< location: http://127.0.0.1:9100/mcp/', { format: 'http-transcript' }],
        ['> POST /mcp/ HTTP/1.1', { httpMethod: 'POST', httpPath: '/mcp/' }],
        ['< HTTP/1.1 200 OK', { httpStatus: 200 }],
      ]),
    );
    expect(got.map((e) => e.httpStatus)).toEqual([307, 200]);
    expect(got.some((e) => e.attrs.redirectLoop !== undefined || e.signals.includes('redirect-loop'))).toBe(false);
  });

  it('near miss: an unmarked request line whose next lines are prose takes no field and joins no later answer', () => {
    const evs = lines([
      ['GET /mcp HTTP/1.1', { httpMethod: 'GET', httpPath: '/mcp' }],
      'Host: a.example.net',
      '',
      '',
      ['Error: readRequest from client: i/o timeout', { level: 'error' }],
      ['HTTP/1.1 200 OK', { httpStatus: 200 }],
    ]);
    const out = joinHttpTranscripts(evs);
    // the request stays as it was; the later status line is a head of its own
    expect(out.find((e) => e.line === 1)).toEqual(evs[0]);
    expect(out.find((e) => e.line === 5)).toEqual(evs[4]);
  });

  it('a raw dump or HTTPie --print=HBhb: request head, its (pretty-printed) body, then the answer are one exchange', () => {
    const evs = lines([
      ['POST /rpc HTTP/1.1', { httpMethod: 'POST', httpPath: '/rpc' }],
      ['Content-Type: application/json', { format: 'http-transcript' }],
      ['Mcp-Session-Id: sess_qwertyuiop', { format: 'http-transcript', session: 'sess_qwertyuiop' }],
      '',
      '{',
      ['    "method": "resources/list",', { rpcMethod: 'resources/list' }],
      ['    "id": 12', { rpcId: 12 }],
      '}',
      '',
      ['HTTP/1.1 404 Not Found', { httpStatus: 404 }],
      ['Content-Type: application/json', { format: 'http-transcript' }],
      '',
      ['{"error": "unknown session"}', { level: 'error' }],
    ]);
    const got = exchanges(evs);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ httpMethod: 'POST', httpStatus: 404, rpcMethod: 'resources/list', rpcId: 12, session: 'sess_qwertyuiop', line: 1, endLine: 11 });
    expect(got[0]!.attrs).toMatchObject({ contentType: 'application/json', direction: 'exchange' });
    // the answer's body stays its own line
    expect(joinHttpTranscripts(evs).some((e) => e.line === 13)).toBe(true);
  });

  it('near miss: a request head, its body and then a timed log line take no answer', () => {
    const evs = lines([
      ['POST /rpc HTTP/1.1', { httpMethod: 'POST', httpPath: '/rpc' }],
      ['Content-Type: application/json', { format: 'http-transcript' }],
      '',
      ['{"jsonrpc":"2.0","id":3,"method":"tools/list"}', { rpcMethod: 'tools/list', rpcId: 3 }],
      ['2026-10-02T08:00:01Z handler done', { ts: 1_790_000_000_000 }],
      ['HTTP/1.1 200 OK', { httpStatus: 200 }],
    ]);
    const out = joinHttpTranscripts(evs);
    expect(out.find((e) => e.line === 1)).toEqual(evs[0]);
    expect(out.find((e) => e.line === 4)).toEqual(evs[3]);
  });

  it('Mcp-Session-Id printed twice in a request head is read as one header holding two ids', () => {
    const head = (second: string | null) =>
      lines([
        ['> POST /mcp HTTP/1.1', { httpMethod: 'POST', httpPath: '/mcp' }],
        ['> Mcp-Session-Id: sess_asdfghjklz', { session: 'sess_asdfghjklz' }],
        ...(second === null ? [] : [[second, { session: 'sess_asdfghjklz' }] as [string, Partial<Event>]]),
        '>',
        ['< HTTP/1.1 400 Bad Request', { httpStatus: 400, format: 'http-transcript' }],
        '<',
      ]);
    expect(exchanges(head('> mcp-session-id: sess_asdfghjklz'))[0]!.signals).toContain('session-header-repeated');
    // near miss: the field once
    expect(exchanges(head(null))[0]!.signals).not.toContain('session-header-repeated');
  });

  it("curl -v: a request field behind `> ` while an answer is open starts the next request, not the answer's field", () => {
    const got = exchanges(
      lines([
        ['> POST /mcp HTTP/2', { httpMethod: 'POST', httpPath: '/mcp' }],
        '>',
        ['< HTTP/2 202', { httpStatus: 202, format: 'http-transcript' }],
        ['> mcp-session-id: sess_zxcvbnmasd', { session: 'sess_zxcvbnmasd' }],
        '>',
        ['< HTTP/2 404', { httpStatus: 404, format: 'http-transcript' }],
        '<',
      ]),
    );
    expect(got.map((e) => [e.line, e.httpStatus, e.session])).toEqual([
      [1, 202, null],
      [4, 404, 'sess_zxcvbnmasd'],
    ]);
  });

  it('near miss: a number alone under a command without -w, and lines with no transcript at all, pass unchanged', () => {
    const evs = lines([['$ curl -s https://a.example.dev/count', { httpMethod: 'GET', httpPath: '/count', attrs: { direction: 'request' } }], '404', 'done']);
    expect(joinHttpTranscripts(evs)).toEqual(evs);
  });
});
