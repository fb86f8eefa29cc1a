// A stand-in for the HTTP API (cli-contract.md), for working on the UI before or without
// the real server: `npx tsx ui/e2e/support/mock-api.ts [port]` serves ui/dist and fakes
// /api with crude line heuristics. Not used by the e2e tests, which run the real buildApp.
import { createServer, type IncomingMessage } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { Float64, Int32, Table, Utf8, tableToIPC, vectorFromArray } from 'apache-arrow';

interface Ev {
  ts: number | null; source: string; file: string; line: number; level: string | null; message: string;
  session: string | null; rpcId: string | null; method: string | null; httpStatus: number | null; requestId: string | null;
}
interface Incident { id: string; name: string; createdAt: string; files: { name: string; text: string }[]; events: Ev[] }

const DIST = resolve('ui/dist');
const incidents = new Map<string, Incident>();

function sourceOf(name: string): string {
  if (/client/i.test(name)) return 'client';
  if (/nginx|proxy|access/i.test(name)) return 'proxy';
  if (/server/i.test(name)) return 'server';
  return 'unknown';
}

function parseLine(file: string, line: number, text: string): Ev {
  let j: Record<string, unknown> | null = null;
  try { const v = JSON.parse(text); if (v && typeof v === 'object') j = v; } catch { /* text line */ }
  const iso = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/.exec(text)?.[0];
  let ts: number | null = iso ? Date.parse(iso) : null;
  if (j && typeof j.time === 'number') ts = j.time;
  if (j && typeof j.msec === 'number') ts = Math.round(j.msec * 1000);
  const lvlWord = /\b(TRACE|DEBUG|INFO|WARN(?:ING)?|ERROR|FATAL)\b/i.exec(text)?.[1]?.toLowerCase().replace('warning', 'warn') ?? null;
  const pino: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
  const level = j && typeof j.level === 'number' ? (pino[j.level] ?? null) : lvlWord;
  const status = Number(/-> (\d{3})\b/.exec(text)?.[1] ?? /" (\d{3}) /.exec(text)?.[1] ?? j?.status ?? j?.statusCode ?? NaN);
  const rpc = /rpc=(\d+)/.exec(text)?.[1] ?? (j?.rpcId !== undefined ? String(j.rpcId) : null);
  const method = /method=(\S+)/.exec(text)?.[1] ?? (typeof j?.rpcMethod === 'string' ? j.rpcMethod : null);
  const message = j ? String(j.msg ?? j.message ?? text) : text;
  return {
    ts, source: sourceOf(file), file, line, level, message,
    session: /mcp-session-id=([0-9a-f-]{8,})/.exec(text) ? 'sess_mockmockmock' : null,
    rpcId: rpc, method, httpStatus: Number.isFinite(status) ? status : null,
    requestId: /x-request-id=([0-9a-f]+)/.exec(text)?.[1] ?? (typeof j?.request_id === 'string' ? j.request_id : null),
  };
}

function analysis(inc: Incident) {
  const fails = inc.events.filter((e) => e.httpStatus === 404 || e.level === 'error').slice(0, 4);
  const failures = fails.length
    ? [{
        rpcId: fails[0]!.rpcId ? Number(fails[0]!.rpcId) : null, method: fails[0]!.method ?? 'tools/call', tool: 'create_order',
        session: 'sess_mockmockmock', httpStatus: fails[0]!.httpStatus, stage: 'http_status',
        rootException: { type: 'StreamableHTTPError', message: 'Streamable HTTP error: Error POSTing to endpoint: Session not found' },
        exceptionChain: ['McpError', 'StreamableHTTPError'], decision: 'reinitialize', rule: 'session-expired-404',
        rationale: 'The server answered 404 to a request carrying a session id it no longer knows (mock analysis).',
        evidence: fails.map((e) => ({ file: e.file, line: e.line })), ts: fails[0]!.ts,
      }]
    : [];
  return {
    schemaVersion: 1,
    inputs: inc.files.map((f) => {
      const n = f.text.split('\n').filter(Boolean).length;
      return { file: f.name, source: sourceOf(f.name), format: 'mock', lines: n, events: n, unparsed: f.name.includes('error') ? 2 : 0 };
    }),
    protocolVersions: ['2025-11-25'],
    failures,
    sessions: [{ session: 'sess_mockmockmock', firstSeen: null, lastSeen: null, state: 'expired' }],
    spans: [],
    decision: failures.length ? 'reinitialize' : 'no_action',
  };
}

function arrow(rows: Ev[]): Buffer {
  const s = (k: keyof Ev) => vectorFromArray(rows.map((r) => (r[k] === null ? null : String(r[k]))), new Utf8());
  const t = new Table({
    ts: vectorFromArray(rows.map((r) => r.ts), new Float64()),
    source: s('source'), file: s('file'),
    line: vectorFromArray(rows.map((r) => r.line), new Int32()),
    level: s('level'), message: s('message'), session: s('session'), rpcId: s('rpcId'), method: s('method'),
    httpStatus: vectorFromArray(rows.map((r) => r.httpStatus), new Int32()),
    requestId: s('requestId'),
  });
  return Buffer.from(tableToIPC(t, 'stream'));
}

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html', '.svg': 'image/svg+xml' };

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const json = (status: number, v: unknown) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(v)); };
  const err = (status: number, code: string, message: string) => json(status, { error: { code, message } });
  try {
    if (url.pathname === '/api/health') return json(200, { ok: true, version: 'mock' });
    if (url.pathname === '/api/incidents' && req.method === 'GET')
      return json(200, [...incidents.values()].reverse().map((i) => ({
        id: i.id, createdAt: i.createdAt, name: i.name, files: i.files.length, events: i.events.length,
        decision: analysis(i).decision, state: 'ready',
      })));
    if (url.pathname === '/api/incidents' && req.method === 'POST') {
      if (req.headers['x-requested-with'] !== 'mcp-triage') return err(403, 'TRIAGE_ERR_FORBIDDEN', 'missing X-Requested-With');
      const raw = await body(req);
      const form = await new Request('http://x', { method: 'POST', headers: { 'content-type': String(req.headers['content-type']) }, body: new Uint8Array(raw) }).formData();
      const files: Incident['files'] = [];
      for (const [, v] of form) if (typeof v !== 'string') files.push({ name: v.name, text: await v.text() });
      if (!files.length) return err(400, 'TRIAGE_ERR_EMPTY', 'no input files were found');
      const bad = files.find((f) => f.name.endsWith('.bin'));
      if (bad) return err(415, 'TRIAGE_ERR_UNSUPPORTED_MEDIA', `${bad.name}: not a log, archive or HAR file`);
      const id = Math.random().toString(36).slice(2, 10);
      const events = files.flatMap((f) => f.text.split('\n').map((t, i) => (t.trim() ? parseLine(f.name, i + 1, t) : null)).filter((e): e is Ev => !!e));
      events.sort((a, b) => (a.ts ?? Infinity) - (b.ts ?? Infinity));
      incidents.set(id, { id, name: files.map((f) => f.name).join(', ').slice(0, 60), createdAt: new Date().toISOString(), files, events });
      return json(201, { id });
    }
    const m = /^\/api\/incidents\/([^/]+)(?:\/(analysis|events))?$/.exec(url.pathname);
    if (m) {
      const inc = incidents.get(m[1]!);
      if (!inc) return err(404, 'TRIAGE_ERR_NOT_FOUND', `no incident ${m[1]}`);
      if (req.method === 'DELETE') { incidents.delete(inc.id); res.writeHead(204).end(); return; }
      if (m[2] === 'analysis') return json(200, analysis(inc));
      if (m[2] === 'events') {
        const p = url.searchParams;
        let rows = inc.events;
        if (p.get('source')) rows = rows.filter((r) => r.source === p.get('source'));
        if (p.get('level')) rows = rows.filter((r) => r.level === p.get('level'));
        if (p.get('q')) rows = rows.filter((r) => r.message.toLowerCase().includes(p.get('q')!.toLowerCase()));
        const off = Number(p.get('offset') ?? 0);
        rows = rows.slice(off, off + Number(p.get('limit') ?? 1000));
        res.writeHead(200, { 'content-type': 'application/vnd.apache.arrow.stream' });
        return res.end(arrow(rows));
      }
    }
    if (url.pathname.startsWith('/api/')) return err(404, 'TRIAGE_ERR_NOT_FOUND', 'no such route');
    const file = url.pathname.startsWith('/assets/') ? join(DIST, url.pathname) : join(DIST, 'index.html');
    const data = await readFile(file).catch(() => null);
    if (!data) { res.writeHead(404).end(); return; }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(data);
  } catch (e) {
    err(500, 'TRIAGE_ERR_INTERNAL', String(e));
  }
});

const port = Number(process.argv[2] ?? 8799);
server.listen(port, '127.0.0.1', () => console.log(`mock API + ui/dist on http://127.0.0.1:${port}`));
