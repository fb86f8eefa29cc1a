// The client's own handling of a node's answers: a read that failed between the nodes of a cluster is asked once
// more; a query's own error is not (asking again would fail the same way), nor a write.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ClickHouseClient } from './client.ts';
import { parseStoreUrl } from './target.ts';

let server: Server | null = null;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

/** A node that answers each request with the next of `answers` (status, body), the last one from then on. */
async function node(answers: [number, string][]): Promise<{ client: ClickHouseClient; asked: () => number }> {
  let n = 0;
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const [status, body] = answers[Math.min(n++, answers.length - 1)]!;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(body);
    });
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  const port = (server.address() as AddressInfo).port;
  return { client: new ClickHouseClient(parseStoreUrl(`clickhouse://127.0.0.1:${port}/db`, 'flag')), asked: () => n };
}

const NET = 'Code: 101. DB::NetException: Received from 127.0.0.1:9001. DB::NetException: Unexpected packet from server. (UNEXPECTED_PACKET_FROM_SERVER)';
const SYNTAX = 'Code: 62. DB::Exception: Syntax error: failed at position 8. (SYNTAX_ERROR)';

describe('ClickHouse client: retries', () => {
  it('a read that failed between two nodes is asked again, once', async () => {
    const { client, asked } = await node([
      [500, NET],
      [200, '{"n":"1"}\n'],
    ]);
    expect(await client.rows('SELECT 1 AS n')).toEqual([{ n: '1' }]);
    expect(asked()).toBe(2);
  });
  it('near misses: a query error is not retried, nor a second inter-node failure, nor a statement', async () => {
    const syntax = await node([[500, SYNTAX]]);
    await expect(syntax.client.rows('SELEC 1')).rejects.toThrow(/code 62/);
    expect(syntax.asked()).toBe(1);
    await new Promise<void>((done) => server!.close(() => done()));
    const twice = await node([[500, NET]]);
    await expect(twice.client.rows('SELECT 1')).rejects.toThrow(/code 101/);
    expect(twice.asked()).toBe(2);
    await new Promise<void>((done) => server!.close(() => done()));
    const ddl = await node([[500, NET]]);
    await expect(ddl.client.run('CREATE TABLE t (x UInt8) ENGINE = Memory')).rejects.toThrow(/code 101/);
    expect(ddl.asked()).toBe(1);
    server = null;
  });
});
