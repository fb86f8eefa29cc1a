// `mcp-triage probe` through the CLI dispatcher: exit codes, the --json contract shape, stdout vs
// stderr, credentials, a real Debian nginx in front of a real SDK server, and a --log file that
// `analyze` recognises as a client log.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestIncident, openContext } from '../../incidents.ts';
import { entriesFromPaths } from '../../ingest/inputs.ts';
import { startServer, type TestMcpServer } from '../../probe/testing/servers.ts';
import { TestNginx } from '../../probe/testing/nginx.ts';
import { tempWorkspace } from '../../testing/helpers.ts';
import { main } from '../main.ts';

const ws = tempWorkspace();
afterAll(() => ws.cleanup());

async function cli(args: string[], o: { env?: NodeJS.ProcessEnv; stdin?: string } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (c: Buffer) => (stdout += c.toString()));
  err.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await main(['probe', ...args, '--key-file', ws.keyFile], {
    stdout: out,
    stderr: err,
    stdin: Readable.from(o.stdin !== undefined ? [o.stdin] : []),
    cwd: ws.dir,
    env: { ...ws.env, ...(o.env ?? {}) },
  });
  return { code, stdout, stderr };
}

describe('probe CLI', () => {
  let s: TestMcpServer;
  beforeAll(async () => {
    s = await startServer({ mode: 'stateful' });
  });
  afterAll(async () => s.stop());

  it('--json prints exactly the contract shape on stdout; exit 0 with the protocol version', async () => {
    const r = await cli([s.url, '--tool', 'get_order', '--args', '{"order_id":"ORD-1001"}', '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j).slice(0, 6)).toEqual(['ok', 'url', 'protocolVersion', 'sessionAssigned', 'transport', 'steps']);
    expect(j).toMatchObject({ ok: true, url: s.url, protocolVersion: '2025-11-25', sessionAssigned: true, transport: 'streamable-http' });
    expect(j.steps.map((x: { name: string }) => x.name)).toEqual(['reach', 'initialize', 'tools/list', 'tools/call', 'second-connection', 'close']);
    for (const st of j.steps) {
      expect(typeof st.ok).toBe('boolean');
      expect(Number.isInteger(st.ms)).toBe(true);
      expect(typeof st.evidence).toBe('string');
    }
    expect(j).not.toHaveProperty('exitCode');
    expect(r.stderr).toBe('');
  });

  it('the human checklist has one ✔ line per step with ms and evidence', async () => {
    const r = await cli([s.url]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`mcp-triage probe ${s.url}`);
    expect(lines.filter((l) => /^ {2}✔ /.test(l)).map((l) => l.slice(4).split(/\s+/)[0])).toEqual(['reach', 'initialize', 'tools/list', 'second-connection', 'close']);
    expect(lines.find((l) => l.includes('✔ initialize'))).toMatch(/✔ initialize\s+\d+ ms {2}POST \/mcp \(initialize\) → 200 text\/event-stream; protocol 2025-11-25/);
    expect(lines.at(-1)).toBe('OK: every step passed (streamable-http, protocol 2025-11-25, session assigned)');
    expect(r.stdout).not.toMatch(/\x1b\[/);
  });

  it('a tool answering isError: true is exit 0: the checklist shows it as a warning with the error text, --json adds isError and errorText', async () => {
    const r = await cli([s.url, '--tool', 'get_order', '--args', '{"order_id":"ORD-9999"}']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.find((l) => /^ {2}! tools\/call /.test(l))).toMatch(/isError=true/);
    expect(lines.find((l) => /^ {2}! second-connection #2 /.test(l))).toBeDefined();
    expect(lines.filter((l) => l.includes('→ warning: the tool reported an application error'))).toEqual([
      expect.stringMatching(/→ warning: the tool reported an application error: "order ORD-9999 not found"$/),
      expect.stringMatching(/→ warning: the tool reported an application error$/),
    ]);
    expect(lines.some((l) => /^ {2}✘ /.test(l))).toBe(false);
    expect(lines.at(-1)).toMatch(
      /^OK with a warning: transport and session work \(streamable-http, protocol 2025-11-25, session assigned\), but the tool answered isError=true; check --args/,
    );

    const j = await cli([s.url, '--tool', 'get_order', '--args', '{"order_id":"ORD-9999"}', '--json']);
    expect(j.code).toBe(0);
    const doc = JSON.parse(j.stdout);
    expect(Object.keys(doc).slice(0, 6)).toEqual(['ok', 'url', 'protocolVersion', 'sessionAssigned', 'transport', 'steps']);
    expect(doc).toMatchObject({ ok: true, failedStep: null, isError: true, errorText: 'order ORD-9999 not found' });
    expect(doc.steps.find((x: { name: string }) => x.name === 'tools/call')).toMatchObject({ ok: true, warning: 'the tool reported an application error' });
  });

  it('a destructive or writing tool is refused with exit 1 (a usage decision) unless --i-know-it-writes', async () => {
    const before = s.calls.length;
    const r = await cli([s.url, '--tool', 'delete_order', '--args', '{"order_id":"ORD-1001"}', '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, refused: { tool: 'delete_order' }, failedStep: 'tools/call' });
    expect(r.stderr).toMatch(/probe refused to call delete_order: delete_order is annotated destructiveHint=true/);
    expect(s.calls.length).toBe(before);
    const w = await cli([s.url, '--tool', 'delete_order', '--args', '{"order_id":"ORD-1001"}', '--i-know-it-writes', '--connections', '2']);
    expect(w.code, w.stdout).toBe(0);
    expect(s.calls.slice(before).map((c) => c.tool)).toEqual(['delete_order']);
  });

  it('unusable input exits 1 with a message on stderr and nothing on stdout', async () => {
    const cases: [string[], RegExp][] = [
      [['not-a-url'], /is not a URL/],
      [['ftp://127.0.0.1/x'], /only http:\/\/ and https:\/\//],
      [[s.url, '--tool', 'get_order', '--args', '{bad'], /--args is not valid JSON/],
      [[s.url, '--tool', 'get_order', '--args', '[1,2]'], /--args must be a JSON object, got an array/],
      [[s.url, '--args', '{}'], /--args needs --tool/],
      [[s.url, '--frobnicate'], /unknown option --frobnicate/],
      [[s.url, '--connections', '0'], /--connections takes a whole number/],
      [[s.url, '--bearer', 'xyz'], /credentials never go on the command line/],
      [[s.url, '--bearer-stdin'], /--bearer-stdin got nothing on stdin/],
      [[], /give the MCP endpoint URL/],
    ];
    for (const [args, msg] of cases) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toMatch(msg);
      expect(r.stdout, args.join(' ')).toBe('');
    }
  });

  it('server stopped: exit 3 naming the failing step', async () => {
    const t = await startServer({ mode: 'stateless' });
    const url = t.url;
    await t.stop();
    const r = await cli([url]);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/✘ reach .*ECONNREFUSED/);
    expect(r.stdout).toMatch(/→ connection refused: nothing listens/);
    expect(r.stdout).toMatch(/FAILED at reach/);
    expect(r.stderr).toMatch(/probe failed at reach/);
  });

  it('credentials come from MCP_TRIAGE_BEARER or --bearer-stdin and are never printed', async () => {
    const token = 'tok_live_ab12cd34ef56ab12cd34ef56ab12cd34';
    const a = await startServer({ mode: 'stateless', bearer: token });
    try {
      const none = await cli([a.url, '--json']);
      expect(none.code).toBe(3);
      expect(JSON.parse(none.stdout).steps[1].diagnosis).toMatch(/^401: credentials/);
      const env = await cli([a.url, '--json'], { env: { MCP_TRIAGE_BEARER: token } });
      expect(env.code, env.stdout).toBe(0);
      const stdin = await cli([a.url, '--bearer-stdin', '--log', 'probe-client.log'], { stdin: `${token}\n` });
      expect(stdin.code, stdin.stdout).toBe(0);
      expect(stdin.stdout).toContain('authorization="Bearer [REDACTED:authorization]"');
      for (const o of [env.stdout, env.stderr, stdin.stdout, stdin.stderr, readFileSync(join(ws.dir, 'probe-client.log'), 'utf8')]) expect(o).not.toContain(token);
    } finally {
      await a.stop();
    }
  });
});

describe('probe CLI behind Debian nginx', () => {
  let backend: TestMcpServer;
  let nginx: TestNginx;
  let base: string;
  // nginx missing (or failing to start) must FAIL every test here with the reason, never skip.
  let startError: unknown;
  beforeAll(async () => {
    backend = await startServer({ mode: 'stateful' });
    nginx = new TestNginx(`127.0.0.1:${backend.port}`, '/mcp');
    try {
      base = `http://127.0.0.1:${await nginx.start()}`;
    } catch (e) {
      startError = e;
    }
  });
  const needNginx = () => {
    if (startError) throw startError;
  };
  afterAll(async () => {
    await nginx?.stop();
    await backend?.stop();
  });

  it('healthy through the proxy: exit 0, sessions and DELETE pass through', async () => {
    needNginx();
    const r = await cli([`${base}/mcp`, '--tool', 'get_order', '--args', '{"order_id":"ORD-1001"}', '--json']);
    expect(r.code, r.stdout + nginx.errorLog()).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ ok: true, protocolVersion: '2025-11-25', sessionAssigned: true });
    expect(j.steps.find((x: { name: string }) => x.name === 'initialize').evidence).toMatch(/→ 200 text\/event-stream \(nginx\/[\d.]+\)/);
  });

  it('wrong path: the initialize step fails with an HTML-404-from-a-proxy diagnosis (exit 3)', async () => {
    needNginx();
    const r = await cli([`${base}/api/mcp`, '--json']);
    expect(r.code).toBe(3);
    const j = JSON.parse(r.stdout);
    expect(j.ok).toBe(false);
    expect(j.failedStep).toBe('initialize');
    const init = j.steps.find((x: { name: string }) => x.name === 'initialize');
    expect(init.ok).toBe(false);
    expect(init.evidence).toMatch(/^POST \/api\/mcp \(initialize\) → 404 text\/html \(nginx\/[\d.]+\)/);
    expect(init.diagnosis).toMatch(/^HTML 404 from nginx: the path or proxy route is wrong/);
  });

  it('upstream down behind the proxy: 502 from nginx, not "connection refused"', async () => {
    needNginx();
    const down = await startServer({ mode: 'stateful' });
    const port = down.port;
    await down.stop();
    const ng = new TestNginx(`127.0.0.1:${port}`, '/mcp');
    try {
      const p = await ng.start();
      const r = await cli([`http://127.0.0.1:${p}/mcp`, '--json']);
      expect(r.code).toBe(3);
      const init = JSON.parse(r.stdout).steps.find((x: { name: string }) => x.name === 'initialize');
      expect(init.diagnosis).toMatch(/^502 from nginx: the proxy could not reach the upstream MCP server/);
    } finally {
      await ng.stop();
    }
  });
});

describe('probe CLI behind nginx round-robin over two stateful workers (no affinity)', () => {
  it('the session assigned by one worker is unknown to the other: a lost session, not a wrong path', async () => {
    const a = await startServer({ mode: 'stateful' });
    const b = await startServer({ mode: 'stateful' });
    const ng = new TestNginx([`127.0.0.1:${a.port}`, `127.0.0.1:${b.port}`], '/mcp');
    try {
      const p = await ng.start();
      const r = await cli([`http://127.0.0.1:${p}/mcp`, '--json']);
      expect(r.code, r.stdout).toBe(3);
      const j = JSON.parse(r.stdout);
      expect(j.fallback).toBeNull(); // the initialize itself worked: no legacy fallback for a lost session
      const failed = j.steps.find((x: { ok: boolean }) => !x.ok);
      expect(failed.diagnosis).toMatch(/lost the session between requests \(another worker without it/);
      expect(failed.diagnosis).not.toMatch(/path/);
    } finally {
      await ng.stop();
      await a.stop();
      await b.stop();
    }
  });
});

describe('probe --log is read by analyze as a client log', () => {
  it('json-lines, source client, probe events on the timeline with the session joined', async () => {
    const s = await startServer({ mode: 'stateful' });
    const log = join(ws.dir, 'probe-client.log');
    try {
      const r = await cli([s.url, '--tool', 'get_order', '--args', '{"order_id":"ORD-1001"}', '--log', log]);
      expect(r.code, r.stdout).toBe(0);
    } finally {
      await s.stop();
    }
    const lines = readFileSync(log, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ probe: true, step: 'start' });
    expect(lines.every((l) => typeof l.time === 'number' && l.probe === true && typeof l.msg === 'string')).toBe(true);
    const init = lines.find((l) => l.rpcMethod === 'initialize');
    expect(init).toMatchObject({ method: 'POST', url: '/mcp', statusCode: 200, step: 'initialize' });
    expect(init.mcpSessionId).toMatch(/^[0-9a-f-]{36}$/); // raw: the analyzer pseudonymises it at ingest
    expect(lines.find((l) => l.rpcMethod === 'tools/call')).toMatchObject({ tool: 'get_order', statusCode: 200, mcpProtocolVersion: '2025-11-25' });
    expect(lines.at(-1)).toMatchObject({ step: 'done', ok: true });

    const ctx = await openContext({ env: ws.env, db: ':memory:', keyFile: ws.keyFile });
    try {
      const { id, analysis } = await ingestIncident(ctx, entriesFromPaths([log]), { name: 'probe' });
      expect(analysis.inputs).toEqual([expect.objectContaining({ file: 'probe-client.log', source: 'client', format: 'json-lines', unparsed: 0 })]);
      expect(analysis.inputs[0]!.events).toBe(lines.length);
      expect(analysis.decision).toBe('no_action');
      const events = await ctx.store.triageEvents(id);
      expect(events.length).toBeGreaterThan(5);
      expect(new Set(events.map((e) => (e as { source?: string }).source))).toEqual(new Set(['client']));
      expect(JSON.stringify(events)).not.toContain(init.mcpSessionId);
      expect(events.some((e) => /^sess_[a-z2-7]{10,}$/.test(String((e as { session?: unknown }).session)))).toBe(true);
    } finally {
      await ctx.store.close();
    }
  });
});
