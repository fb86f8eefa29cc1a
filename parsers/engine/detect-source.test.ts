// Which side wrote a file when no format names it: the client hints an HTTP client library's error gives.
import { describe, expect, it } from 'vitest';
import { resolveSource } from './detect.ts';

const side = (name: string, line: string) => resolveSource(undefined, name, [line]);

describe('resolveSource: an HTTP client error naming the MCP endpoint it called is the client', () => {
  it("Spring's RestTemplate/RestClient and node-fetch, whatever the file's name says", () => {
    expect(
      side('finops-close-app.json', '{"level":"ERROR","message":"tools/call x failed: I/O error on POST request for \\"https://ledger.example.com/mcp\\": Read timed out"}'),
    ).toBe('client');
    expect(side('worker-app.log', 'FetchError: request to https://kb.example.net/mcp failed, reason: connect ECONNREFUSED 192.0.2.4:443')).toBe('client');
  });
  it('near misses: the same words about a URL that is not an MCP endpoint (a server calling its own downstream API)', () => {
    expect(side('billing-app.log', 'ERROR I/O error on POST request for "https://payments.example.com/v1/charges": Read timed out')).toBe('server');
    expect(side('incident-2.log', 'FetchError: request to https://api.example.com/v2/users failed, reason: socket hang up')).toBe('unknown');
  });
  it("Go's net/http error names the request's URL: the MCP endpoint is the client's call, a carrier API a server's dependency", () => {
    expect(side('ops-bot.log', 'level=ERROR msg="call failed" err="Post \\"https://kb.example.net/mcp\\": context deadline exceeded"')).toBe('client');
    expect(
      side(
        'shipments-mcp.log',
        'time=2026-10-06T15:39:05.000+02:00 level=ERROR msg="carrier feed sync failed" err="Get \\"https://api.carrier.example/v2/events?since=x\\": dial tcp: lookup api.carrier.example: i/o timeout"',
      ),
    ).toBe('unknown');
  });
});
