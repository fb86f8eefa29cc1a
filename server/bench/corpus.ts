// A deterministic mixed incident corpus for benchmarks: client (host-app text lines with Node
// errors and Python tracebacks), nginx combined + JSON access and error logs, pino JSON server
// logs. Ids correlate across files; the server clock runs 37 ms ahead. Same seed, same bytes.
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hex = (r: () => number, n: number) => Array.from({ length: n }, () => Math.floor(r() * 16).toString(16)).join('');
const uuid = (r: () => number) => {
  const h = hex(r, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
};
const two = (n: number) => String(n).padStart(2, '0');
const MON = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
function clf(ms: number): string {
  const d = new Date(ms);
  return `${two(d.getUTCDate())}/${MON[d.getUTCMonth()]}/${d.getUTCFullYear()}:${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
}
const nginxErrTime = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ').replace(/-/g, '/');

const PY_TRACE = (id: number) => `Traceback (most recent call last):
  File "/srv/agent/client.py", line 88, in call_tool
    result = await session.call_tool(name, args)
  File "/usr/lib/python3/dist-packages/httpx/_transports/default.py", line 353, in handle_async_request
    raise mapped_exc(message) from exc
httpx.RemoteProtocolError: Server disconnected without sending a response (request ${id})`;

const NODE_ERR = `StreamableHTTPError: Streamable HTTP error: Error POSTing to endpoint: {"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}
    at StreamableHTTPClientTransport.send (/app/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js:590:23)
    at process.processTicksAndRejections (node:internal/process/task_queues:95:5) {
  code: 404
}`;

export interface CorpusStats {
  dir: string;
  bytes: number;
  lines: number;
  files: string[];
}

/** Write about `mib` MiB of correlated logs into dir. */
export async function generateCorpus(dir: string, mib: number, seed = 42): Promise<CorpusStats> {
  mkdirSync(dir, { recursive: true });
  const r = rng(seed);
  const names = ['client.log', 'nginx-access.log', 'nginx-access.json.log', 'nginx-error.log', 'server.log'];
  const streams = Object.fromEntries(names.map((n) => [n, createWriteStream(join(dir, n))]));
  let bytes = 0;
  let lines = 0;
  const write = async (name: string, text: string) => {
    bytes += Buffer.byteLength(text) + 1;
    lines += text.split('\n').length;
    if (!streams[name]!.write(text + '\n')) await new Promise<void>((ok) => streams[name]!.once('drain', () => ok()));
  };
  const target = mib * 1024 * 1024;
  let t = Date.UTC(2026, 10, 29, 8, 0, 0);
  let session = uuid(r);
  let rpc = 0;
  let n = 0;
  while (bytes < target) {
    n++;
    t += 1 + Math.floor(r() * 40);
    if (r() < 0.002) {
      session = uuid(r);
      rpc = 0;
    }
    rpc++;
    const reqId = hex(r, 32);
    const roll = r();
    const status = roll < 0.004 ? 404 : roll < 0.006 ? 502 : 200;
    const method = r() < 0.7 ? 'tools/call' : 'tools/list';
    const tool = r() < 0.5 ? 'get_order' : 'create_order';
    const ms = 2 + Math.floor(r() * 50);
    const iso = new Date(t).toISOString();
    await write(
      'client.log',
      `${iso} DEBUG [mcp-client] POST http://127.0.0.1:8080/mcp rpc=${rpc} method=${method}${method === 'tools/call' ? ` tool=${tool}` : ''} mcp-session-id=${session} mcp-protocol-version=2025-11-25 -> ${status} (${ms} ms) content-type=text/event-stream x-request-id=${reqId}`,
    );
    if (status === 404) await write('client.log', `${iso} ERROR [mcp-client] MCP client error: ${NODE_ERR}`);
    if (status === 502) await write('client.log', `${iso} ERROR [agent] call failed\n${PY_TRACE(n)}`);
    await write('nginx-access.log', `127.0.0.1 - - [${clf(t)}] "POST /mcp HTTP/1.1" ${status} ${100 + Math.floor(r() * 900)} "-" "node"`);
    await write(
      'nginx-access.json.log',
      JSON.stringify({
        time: iso.replace(/\.\d+Z$/, '+00:00'),
        request_id: reqId,
        remote_addr: '127.0.0.1',
        request_method: 'POST',
        uri: '/mcp',
        status,
        request_time: ms / 1000,
        upstream_status: String(status),
        http_mcp_session_id: session,
        http_mcp_protocol_version: '2025-11-25',
      }),
    );
    if (status === 502)
      await write(
        'nginx-error.log',
        `${nginxErrTime(t)} [error] 4242#4242: *${n} upstream prematurely closed connection while reading response header from upstream, client: 127.0.0.1, server: _, request: "POST /mcp HTTP/1.1", upstream: "http://127.0.0.1:3001/mcp", host: "127.0.0.1:8080"`,
      );
    if (status !== 502) {
      const st = t + 37 - ms;
      await write(
        'server.log',
        JSON.stringify({
          level: status === 200 ? 30 : 40,
          time: st,
          pid: 7,
          hostname: 'orders-0',
          reqId,
          mcpSessionId: session,
          rpcId: rpc,
          rpcMethod: method,
          ...(method === 'tools/call' ? { tool } : {}),
          method: 'POST',
          url: '/mcp',
          statusCode: status,
          responseTime: ms,
          msg: status === 200 ? 'request completed' : 'Session not found',
        }),
      );
    }
  }
  await Promise.all(Object.values(streams).map((s) => new Promise((ok) => s.end(ok))));
  return { dir, bytes, lines, files: names.map((n) => join(dir, n)) };
}
