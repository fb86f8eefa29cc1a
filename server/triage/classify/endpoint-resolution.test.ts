// The announced legacy message URL against the one the client used: what counts as misresolved (RFC 3986 §5.2)
// and the near misses that must not.
import { describe, expect, it } from 'vitest';
import { emptyEvent, type Event } from '../../../parsers/contract/event.ts';
import { endpointMisresolutions } from './endpoint-resolution.ts';

const S = 'sess_k3v9q2m7xa';
function file(name: string, lines: string[], http: Record<number, Partial<Event>> = {}): Event[] {
  return lines.map((text, i) => ({ ...emptyEvent({ file: name, line: i + 1, source: 'client', format: 'raw', kind: 'line', text }), ...(http[i + 1] ?? {}) }));
}
const found = (evs: Event[]) => endpointMisresolutions(evs).map((m) => `${m.usedPath} vs ${m.expectedPath}`);

describe('endpointMisresolutions', () => {
  it('an absolute path glued onto the stream path', () => {
    expect(
      found(file('c.log', ['DEBUG event: endpoint', `DEBUG data: /mcp/message?sessionId=${S}`, `DEBUG Connecting to server: http://h:8093/sse/mcp/message?sessionId=${S}`])),
    ).toEqual(['/sse/mcp/message vs /mcp/message']);
  });
  it('a query-only reference resolved against the root instead of the stream URL', () => {
    expect(found(file('t.log', ['GET /sse HTTP/1.1', 'event: endpoint', `data: ?sessionId=${S}`, `POST /?sessionId=${S} HTTP/1.1`]))).toEqual(['/ vs /sse']);
  });
  it('a relative reference resolved against the wrong base', () => {
    expect(found(file('t.log', ['GET /api/sse HTTP/1.1', `data: messages/?session_id=${S}`, `POST /api/sse/messages/?session_id=${S} HTTP/1.1`]))).toEqual([
      '/api/sse/messages/ vs /api/messages/',
    ]);
  });
  it('the GET stream the event fields name serves as the base', () => {
    expect(found(file('t.log', ['stream opened', `data: ?sessionId=${S}`, `POST /?sessionId=${S} HTTP/1.1`], { 1: { httpMethod: 'GET', httpPath: '/events' } }))).toEqual([
      '/ vs /events',
    ]);
  });
  describe('near misses', () => {
    it('the announced path used as announced (a 404 there is the route: D12)', () => {
      expect(found(file('c.log', [`data: /messages/?session_id=${S}`, `HTTP Request: POST https://h/messages/?session_id=${S} "HTTP/1.1 404 Not Found"`]))).toEqual([]);
    });
    it('a query-only reference resolved against the stream path', () => {
      expect(found(file('t.log', ['GET /sse HTTP/1.1', `data: ?sessionId=${S}`, `POST /sse?sessionId=${S} HTTP/1.1`]))).toEqual([]);
    });
    it('a query-only reference with no stream URL shown: no base to judge by', () => {
      expect(found(file('t.log', [`data: ?sessionId=${S}`, `POST /?sessionId=${S} HTTP/1.1`]))).toEqual([]);
    });
    it('a server log that sees the path shortened by a proxy stripping its prefix', () => {
      expect(found(file('s.log', [`Sending endpoint event: data: /api/messages/?session_id=${S}`, `"POST /messages/?session_id=${S} HTTP/1.1" 202`]))).toEqual([]);
    });
    it('a use in another file (another side saw it): not this client', () => {
      const a = file('client.log', [`data: /mcp/message?sessionId=${S}`]);
      const b = file('proxy.log', [`"POST /sse/mcp/message?sessionId=${S} HTTP/1.1" 404`]);
      expect(found([...a, ...b])).toEqual([]);
    });
    it('the session id without an endpoint event', () => {
      expect(found(file('c.log', [`Received session ID: ${S}`, `POST /sse/mcp/message?sessionId=${S} HTTP/1.1`]))).toEqual([]);
    });
    it('another session id on the other path', () => {
      expect(found(file('c.log', [`data: /mcp/message?sessionId=${S}`, 'POST /sse/mcp/message?sessionId=sess_other00001 HTTP/1.1']))).toEqual([]);
    });
    it('a use before the announcement (an earlier connection)', () => {
      expect(found(file('c.log', [`POST /sse/mcp/message?sessionId=${S} HTTP/1.1`, `data: /mcp/message?sessionId=${S}`]))).toEqual([]);
    });
  });
});
