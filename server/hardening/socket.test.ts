// The cross-site guards on a listening server (real sockets, raw Host headers): DNS rebinding,
// CSRF, CORS, the token mode of a non-loopback `serve` (spawned for real), and two uploads at once.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { connect } from 'node:net';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../cli/main.ts';
import { buildApp } from '../http/app.ts';
import { openContext, type Context } from '../incidents.ts';
import { REPO, tempWorkspace } from '../testing/helpers.ts';
import { multipart } from './fixtures.ts';

interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function call(port: number, opts: { method?: string; path?: string; headers?: Record<string, string>; body?: Buffer }): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path ?? '/api/health', headers: opts.headers, setHost: !opts.headers?.host }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** A raw HTTP/1.0 request without any Host header (http.request always adds one). */
function rawNoHost(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => s.write('GET /api/health HTTP/1.0\r\n\r\n'));
    let out = '';
    s.on('data', (d) => (out += d.toString()));
    s.on('end', () => resolve(out));
    s.on('error', reject);
  });
}

const ws = tempWorkspace();
const SAMPLE = join(REPO, 'samples', 'restart-stale-session');
const sampleFiles = () =>
  readdirSync(SAMPLE)
    .filter((f) => f.endsWith('.log'))
    .map((f) => ({ name: f, data: readFileSync(join(SAMPLE, f)) }));

describe('loopback server (127.0.0.1)', () => {
  let ctx: Context;
  let app: FastifyInstance;
  let port = 0;
  beforeAll(async () => {
    ctx = await openContext({ env: ws.env, db: join(ws.dir, 'sock.duckdb'), keyFile: ws.keyFile });
    app = await buildApp({ ctx, uploadDir: join(ws.dir, 'up') });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await app.close();
    await ctx.store.close();
  });

  it('accepts localhost, 127.0.0.1 and [::1] as Host; refuses any other name, and a missing Host', async () => {
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'LOCALHOST']) expect((await call(port, { headers: { host } })).status, host).toBe(200);
    for (const host of [`attacker.example:${port}`, `127.0.0.1.nip.io:${port}`, `localhost.attacker.example`, `192.168.1.10:${port}`]) {
      const r = await call(port, { headers: { host } });
      expect(r.status, host).toBe(403);
      expect(JSON.parse(r.body).error.message).toMatch(/DNS rebinding/);
    }
    expect(await rawNoHost(port)).toMatch(/^HTTP\/1\.[01] (400|403)/);
  });

  it('refuses state changes without X-Requested-With, from a foreign Origin, cross-site or opaque origins', async () => {
    const { payload, headers } = multipart([{ name: 'a.log', data: '2026-07-28 10:00:00,000 INFO mcp.client: hello\n' }]);
    const ct = headers['content-type']!;
    const cases: [string, Record<string, string>][] = [
      ['no X-Requested-With', { 'content-type': ct }],
      ['wrong X-Requested-With', { 'content-type': ct, 'x-requested-with': 'XMLHttpRequest' }],
      ['foreign Origin', { ...headers, origin: 'https://evil.example' }],
      ['other port on localhost', { ...headers, origin: `http://localhost:${port + 1}` }],
      ['opaque origin', { ...headers, origin: 'null' }],
      ['Sec-Fetch-Site cross-site', { ...headers, 'sec-fetch-site': 'cross-site' }],
      ['Sec-Fetch-Site same-site', { ...headers, 'sec-fetch-site': 'same-site' }],
    ];
    for (const [what, h] of cases) {
      const r = await call(port, { method: 'POST', path: '/api/incidents', headers: h, body: payload });
      expect(r.status, what).toBe(403);
      expect(JSON.parse(r.body).error.code).toBe('TRIAGE_ERR_FORBIDDEN');
    }
    const del = await call(port, { method: 'DELETE', path: '/api/incidents/inc_aaaaaaaa', headers: { origin: 'https://evil.example', 'x-requested-with': 'mcp-triage' } });
    expect(del.status).toBe(403);
    const ok = await call(port, {
      method: 'POST',
      path: '/api/incidents',
      headers: { ...headers, origin: `http://127.0.0.1:${port}`, 'sec-fetch-site': 'same-origin' },
      body: payload,
    });
    expect(ok.status, ok.body).toBe(201);
  });

  it('sends strict headers and no CORS grant, even to a preflight', async () => {
    const r = await call(port, { headers: { origin: 'https://evil.example' } });
    expect(r.headers['content-security-policy']).toMatch(/default-src 'self'.*object-src 'none'.*base-uri 'none'.*frame-ancestors 'none'/);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['x-frame-options']).toBe('DENY');
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
    const pre = await call(port, {
      method: 'OPTIONS',
      path: '/api/incidents',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-requested-with' },
    });
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    expect(pre.headers['access-control-allow-headers']).toBeUndefined();
  });

  it('two uploads at once do not corrupt each other', async () => {
    const files = sampleFiles();
    const a = multipart(files);
    const b = multipart([{ name: 'other.log', data: '2026-07-28 10:00:00,000 INFO other: only line\n'.repeat(2000) }]);
    const [ra, rb] = await Promise.all([
      call(port, { method: 'POST', path: '/api/incidents', headers: a.headers, body: a.payload }),
      call(port, { method: 'POST', path: '/api/incidents', headers: b.headers, body: b.payload }),
    ]);
    expect([ra.status, rb.status], ra.body + rb.body).toEqual([201, 201]);
    const ia = JSON.parse(ra.body).id;
    const ib = JSON.parse(rb.body).id;
    expect(ia).not.toBe(ib);
    const fa = await ctx.store.files(ia);
    const fb = await ctx.store.files(ib);
    expect(fa.map((f) => f.path).sort()).toEqual(files.map((f) => f.name).sort());
    expect(fb.map((f) => f.path)).toEqual(['other.log']);
    expect(fb[0]!.lines).toBe(2000);
    // Every event belongs to a file of its own incident, and the sequence numbers have no holes.
    for (const [id, fs] of [
      [ia, fa],
      [ib, fb],
    ] as const) {
      const [row] = await ctx.store.query<{ n: number; files: number; maxseq: number; bad: number }>(
        `SELECT count(*)::INTEGER AS n, count(DISTINCT file)::INTEGER AS files, max(seq)::INTEGER AS maxseq,
                count(*) FILTER (WHERE file NOT IN (SELECT path FROM files WHERE incident_id = $id))::INTEGER AS bad
         FROM events WHERE incident_id = $id`,
        { id },
      );
      expect(row!.n).toBe(fs.reduce((s, f) => s + f.events, 0));
      expect(row!.maxseq).toBe(row!.n - 1);
      expect(row!.bad).toBe(0);
    }
    // The sample's analysis is the one it gives alone.
    const aa = await ctx.store.analysis(ia);
    expect(aa!.decision).toBe('reinitialize');
  });

  it('re-uploading the same files to an incident is idempotent', async () => {
    const files = sampleFiles();
    const m = multipart(files);
    const first = JSON.parse((await call(port, { method: 'POST', path: '/api/incidents', headers: m.headers, body: m.payload })).body).id as string;
    const before = await ctx.store.query<{ n: number }>('SELECT count(*)::INTEGER AS n FROM events WHERE incident_id = $id', { id: first });
    for (let i = 0; i < 2; i++) {
      const again = multipart(files);
      const r = await call(port, { method: 'POST', path: `/api/incidents/${first}/files`, headers: again.headers, body: again.payload });
      expect(r.status, r.body).toBe(200);
      expect(JSON.parse(r.body)).toEqual({ id: first, added: 0, skipped: files.length, skippedFiles: [] });
    }
    const after = await ctx.store.query<{ n: number }>('SELECT count(*)::INTEGER AS n FROM events WHERE incident_id = $id', { id: first });
    expect(after).toEqual(before);
    expect((await ctx.store.files(first)).length).toBe(files.length);
  });
});

describe('serve on a non-loopback address', () => {
  it('refuses to start without --token-file, or with a short token', async () => {
    const out: string[] = [];
    const io = { stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => out.push(s) }, stdin: process.stdin, cwd: ws.dir, env: ws.env } as never;
    expect(await main(['serve', '--host', '0.0.0.0', '--port', '0', '--db', join(ws.dir, 'x.duckdb')], io)).toBe(1);
    expect(out.join('')).toMatch(/--token-file/);
    writeFileSync(join(ws.dir, 'short.token'), 'abc\n');
    out.length = 0;
    expect(await main(['serve', '--host', '0.0.0.0', '--port', '0', '--db', join(ws.dir, 'y.duckdb'), '--token-file', join(ws.dir, 'short.token')], io)).toBe(1);
    expect(out.join('')).toMatch(/shorter than 16/);
  });

  let child: ChildProcess | null = null;
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    ws.cleanup();
  });

  it('with --token-file: every request needs the bearer token, and the Host check still holds', async () => {
    const token = 'k'.repeat(8) + Math.random().toString(36).slice(2) + 'Z'.repeat(8);
    writeFileSync(join(ws.dir, 'serve.token'), token + '\n', { mode: 0o600 });
    child = spawn(
      process.execPath,
      [join(REPO, 'server/cli/bin.mjs'), 'serve', '--host', '0.0.0.0', '--port', '0', '--db', join(ws.dir, 'serve.duckdb'), '--token-file', join(ws.dir, 'serve.token')],
      {
        env: { ...ws.env },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    const port = await new Promise<number>((resolve, reject) => {
      let err = '';
      child!.stderr!.on('data', (d: Buffer) => {
        err += d.toString();
        const m = /serving http:\/\/[^:]+:(\d+)\//.exec(err);
        if (m) resolve(Number(m[1]));
      });
      child!.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
    });
    const auth = { authorization: `Bearer ${token}` };
    expect((await call(port, {})).status).toBe(403);
    expect((await call(port, { headers: { authorization: `Bearer ${token}x` } })).status).toBe(403);
    expect((await call(port, { headers: { authorization: token } })).status).toBe(403);
    expect((await call(port, { headers: auth })).status).toBe(200);
    expect((await call(port, { headers: { ...auth, host: `rebind.attacker.example:${port}` } })).status).toBe(403);
    const m = multipart([{ name: 'a.log', data: '2026-07-28 10:00:00,000 INFO mcp.client: hello\n' }]);
    expect((await call(port, { method: 'POST', path: '/api/incidents', headers: { ...auth, 'content-type': m.headers['content-type']! }, body: m.payload })).status).toBe(403);
    expect((await call(port, { method: 'POST', path: '/api/incidents', headers: { ...m.headers }, body: m.payload })).status).toBe(403);
    const ok = await call(port, { method: 'POST', path: '/api/incidents', headers: { ...m.headers, ...auth }, body: m.payload });
    expect(ok.status, ok.body).toBe(201);
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((r) => child!.on('exit', r));
    expect(code).toBe(0);
  });
});
