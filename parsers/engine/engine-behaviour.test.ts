// Engine behaviour beyond single formats: --explain on an almost-matching file, user formats from
// $MCP_TRIAGE_FORMATS, archives (zip, tar.gz, refusals), streaming layouts, and regex linearity on
// hostile input.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { execFileSync } from 'node:child_process';
import { deflateRawSync, gzipSync } from 'node:zlib';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { formatsCommand } from '../../server/cli/commands/formats.ts';
import { entriesFromPaths } from '../../server/ingest/inputs.ts';
import { applyFormat } from './apply.ts';
import { readLines } from './lines.ts';
import { newStats, parseFile } from './parse-file.ts';
import { loadFormats } from './registry.ts';

/** V8's collector, when this process was not started with --expose-gc (v8.setFlagsFromString, then a fresh context sees gc). */
function collector(): () => void {
  if (typeof global.gc === 'function') return global.gc as () => void;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

const tmp = () => mkdtempSync(join(tmpdir(), 'mcp-triage-engine-'));

async function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  let out = '';
  const stdout = new Writable({
    write(c, _e, cb) {
      out += String(c);
      cb();
    },
  });
  const stderr = new Writable({
    write(_c, _e, cb) {
      cb();
    },
  });
  const code = await formatsCommand.run(args, { stdout, stderr, cwd: '/', env } as never);
  return { code, out };
}

async function parseText(text: string | Buffer, file = 'x.log', formats = loadFormats()) {
  const stats = newStats(file);
  const events = [];
  for await (const e of parseFile(
    readLines(
      (async function* () {
        yield typeof text === 'string' ? Buffer.from(text) : text;
      })(),
    ),
    { file, formats, redact: (t) => t },
    stats,
  ))
    events.push(e);
  return { stats, events };
}

describe('formats --explain', () => {
  it('names the chosen format, the first line another misses, and the nearest sample', async () => {
    const dir = tmp();
    const good = '127.0.0.1 - - [29/Nov/2026:10:00:01 +0000] "POST /mcp HTTP/1.1" 404 69 "-" "node"';
    // The request lost its quotes (a hand-edited or re-rendered line).
    const almost = '127.0.0.1 - - [29/Nov/2026:10:00:01 +0000] POST /mcp HTTP/1.1 404 69';
    writeFileSync(join(dir, 'access.log'), [good, good, almost, good].join('\n') + '\n');
    const { code, out } = await cli(['--explain', join(dir, 'access.log')]);
    expect(code).toBe(0);
    expect(out).toMatch(/access\.log: format nginx-combined; source proxy/);
    expect(out).toMatch(/✔ nginx-combined: 3\/4 lines \(75%\)/);
    expect(out).toContain('first line it does not match (#3): "127.0.0.1 - - [29/Nov/2026:10:00:01 +0000] POST /mcp HTTP/1.1 404 69"');
    expect(out).toContain('nearest sample (#0) agrees for 43 characters, then expects "\\"POST /mcp HTTP/1.1\\" 404" where the line has "POST /mcp HTTP/1.1 404 6"');
  });
  it('says when a file is a whole-file document', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'session.har'), '{\n  "log": {\n    "version": "1.2",\n    "entries": []\n  }\n}\n');
    expect((await cli(['--explain', join(dir, 'session.har')])).out).toMatch(/whole-file har document/);
  });
});

describe('user formats ($MCP_TRIAGE_FORMATS)', () => {
  it('loads, lists and uses a user format; a broken one is refused naming file and field', async () => {
    const dir = tmp();
    const spec = {
      id: 'acme-gateway',
      title: 'ACME gateway',
      source: 'proxy',
      priority: 20,
      match: { kind: 'regex', patterns: ['^ACME (?<status>\\d{3}) (?<method>[A-Z]{3,7}) (?<path>\\S{1,2000})$'] },
      fields: { httpStatus: 'status', httpMethod: 'method', httpPath: 'path' },
      samples: [{ line: 'ACME 502 POST /mcp', expect: { httpStatus: 502, httpPath: '/mcp' } }],
    };
    writeFileSync(join(dir, 'acme-gateway.json'), JSON.stringify(spec));
    const { out } = await cli([], { MCP_TRIAGE_FORMATS: dir });
    expect(out).toMatch(/acme-gateway\s+proxy\s+ACME gateway/);
    const formats = loadFormats({ userDir: dir });
    const { stats, events } = await parseText('ACME 502 POST /mcp\nACME 200 GET /sse\n', 'gw.log', formats);
    expect(stats.format).toBe('acme-gateway');
    expect(events.map((e) => e.httpStatus)).toEqual([502, 200]);
    writeFileSync(join(dir, 'acme-gateway.json'), JSON.stringify({ ...spec, samples: [{ line: 'ACME 502 POST /mcp', expect: { httpStatus: 500 } }] }));
    expect(() => loadFormats({ userDir: dir })).toThrow(/acme-gateway\.json: samples disagree.*field "httpStatus"/);
  });
});

/** A minimal zip writer for tests (stored or deflated entries, optional unix mode). */
function zip(entries: { name: string; data: Buffer; deflate?: boolean; mode?: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let off = 0;
  for (const e of entries) {
    const body = e.deflate ? deflateRawSync(e.data) : e.data;
    const name = Buffer.from(e.name);
    const lh = Buffer.alloc(30);
    lh.writeUInt32LE(0x04034b50, 0);
    lh.writeUInt16LE(20, 4);
    lh.writeUInt16LE(e.deflate ? 8 : 0, 8);
    lh.writeUInt32LE(body.length, 18);
    lh.writeUInt32LE(e.data.length, 22);
    lh.writeUInt16LE(name.length, 26);
    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0);
    ch.writeUInt16LE((3 << 8) | 20, 4);
    ch.writeUInt16LE(20, 6);
    ch.writeUInt16LE(e.deflate ? 8 : 0, 10);
    ch.writeUInt32LE(body.length, 20);
    ch.writeUInt32LE(e.data.length, 24);
    ch.writeUInt16LE(name.length, 28);
    ch.writeUInt32LE(((e.mode ?? 0o100644) << 16) >>> 0, 38);
    ch.writeUInt32LE(off, 42);
    locals.push(lh, name, body);
    centrals.push(ch, name);
    off += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(off, 16);
  return Buffer.concat([...locals, cd, end]);
}

async function readAll(it: AsyncIterable<Buffer>) {
  const parts: Buffer[] = [];
  for await (const c of it) parts.push(c);
  return Buffer.concat(parts).toString('utf8');
}

describe('archives', () => {
  it('zip: stored, deflated and gzipped members, non-logs skipped, read twice', async () => {
    const dir = tmp();
    const p = join(dir, 'bundle.zip');
    writeFileSync(
      p,
      zip([
        { name: 'client.log', data: Buffer.from('a\nb\n') },
        { name: 'proxy/nginx.log', data: Buffer.from('x'.repeat(5000)), deflate: true },
        { name: 'server.log.gz', data: gzipSync('s\n'), deflate: true },
        { name: 'notes.md', data: Buffer.from('no') },
        { name: 'dir/', data: Buffer.alloc(0) },
      ]),
    );
    const entries = entriesFromPaths([p]);
    expect(entries.map((e) => e.name)).toEqual(['bundle.zip/client.log', 'bundle.zip/proxy/nginx.log', 'bundle.zip/server.log']);
    expect(await readAll(entries[1]!.open())).toBe('x'.repeat(5000));
    expect(await readAll(entries[1]!.open())).toBe('x'.repeat(5000));
    expect(await readAll(entries[2]!.open())).toBe('s\n');
  });
  it('zip: refuses absolute paths, "..", symlinks and bombs', () => {
    const dir = tmp();
    const cases: [string, Parameters<typeof zip>[0], RegExp][] = [
      ['abs.zip', [{ name: '/etc/x.log', data: Buffer.from('a') }], /absolute path/],
      ['dots.zip', [{ name: 'a/../../x.log', data: Buffer.from('a') }], /"\.\."/],
      ['link.zip', [{ name: 'x.log', data: Buffer.from('/etc/passwd'), mode: 0o120777 }], /link or device/],
      ['bomb.zip', [{ name: 'x.log', data: Buffer.alloc(20 * 1024 * 1024), deflate: true }], /likely zip bomb/],
    ];
    for (const [name, entries, re] of cases) {
      writeFileSync(join(dir, name), zip(entries));
      expect(() => entriesFromPaths([join(dir, name)]), name).toThrow(re);
    }
  });
  it('tar.gz: members listed and streamed; links refused', async () => {
    const dir = tmp();
    mkdirSync(join(dir, 'src/sub'), { recursive: true });
    writeFileSync(join(dir, 'src/a.log'), 'alpha\n');
    writeFileSync(join(dir, 'src/sub/b.jsonl'), '{"msg":"b"}\n'.repeat(1000));
    execFileSync('tar', ['-czf', join(dir, 'ok.tar.gz'), '-C', join(dir, 'src'), '.']);
    const entries = entriesFromPaths([join(dir, 'ok.tar.gz')]);
    expect(entries.map((e) => e.name).sort()).toEqual(['ok.tar.gz/a.log', 'ok.tar.gz/sub/b.jsonl']);
    const b = entries.find((e) => e.name.endsWith('b.jsonl'))!;
    expect(await readAll(b.open())).toBe('{"msg":"b"}\n'.repeat(1000));
    symlinkSync('/etc/passwd', join(dir, 'src/evil.log'));
    execFileSync('tar', ['-czf', join(dir, 'bad.tar.gz'), '-C', join(dir, 'src'), '.']);
    expect(() => entriesFromPaths([join(dir, 'bad.tar.gz')])).toThrow(/evil\.log" is a symbolic link/);
  });
});

describe('layouts and streaming', () => {
  it('blank-line-doubled output keeps a traceback together', async () => {
    const text = ['ERROR:mcp.client:boom', 'Traceback (most recent call last):', '  File "a.py", line 1, in <module>', 'ValueError: x', 'INFO:mcp.client:next'].join('\n\n') + '\n';
    const { stats, events } = await parseText(text);
    expect(stats.layout).toEqual(['doubled-blank']);
    expect(events.map((e) => e.kind)).toEqual(['line', 'block', 'line']);
  });
  it('mixed file: each line read by the most specific format that matched the sample, late formats found', async () => {
    const lines = [
      'INFO:mcp.client.streamable_http:Connecting',
      'INFO:httpx:HTTP Request: POST http://h/mcp "HTTP/1.1 404 Not Found"',
      ...Array.from({ length: 250 }, (_, i) => `INFO:app:line ${i}`),
      '127.0.0.1 - - [29/Nov/2026:10:00:01 +0000] "POST /mcp HTTP/1.1" 502 69 "-" "node"',
    ];
    const { events } = await parseText(lines.join('\n'));
    expect(events[1]!.format).toBe('httpx');
    expect(events[1]!.httpStatus).toBe(404);
    expect(events.at(-1)!.format).toBe('nginx-combined');
    expect(events.every((e) => e.kind !== 'raw')).toBe(true);
  });
  it('memory does not grow with input size (100k lines streamed, events dropped)', async () => {
    const gen = async function* () {
      for (let i = 0; i < 100; i++)
        yield Buffer.from(Array.from({ length: 1000 }, (_, j) => `{"level":30,"time":${1795946401000 + j},"msg":"m ${i} ${j}","statusCode":200}`).join('\n') + '\n');
    };
    const stats = newStats('big.log');
    // (what is retained, not when the collector last ran: on a loaded CI box garbage can outlive the stream)
    const gc = collector();
    gc();
    const before = process.memoryUsage().heapUsed;
    let n = 0;
    for await (const _e of parseFile(readLines(gen()), { file: 'big.log', formats: loadFormats(), redact: (t) => t }, stats)) n++;
    expect(n).toBe(100_000);
    gc();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(64 * 1024 * 1024);
  });
});

describe('regexes stay linear on hostile input', () => {
  const hostile = [
    ' '.repeat(200_000),
    'a'.repeat(200_000),
    '['.repeat(50_000) + ']'.repeat(50_000),
    '{"a":'.repeat(40_000),
    '2026-11-29 10:00:01 '.repeat(10_000),
    'INFO:     ' + '1'.repeat(100_000),
    '[11/29/26 10:00:01] INFO     ' + 'x  '.repeat(60_000) + 'y',
    '"'.repeat(100_000),
    'Error'.repeat(40_000),
    'File "' + '/a'.repeat(50_000),
  ];
  for (const f of loadFormats()) {
    it(`${f.spec.id}`, () => {
      const t0 = performance.now();
      for (const h of hostile) applyFormat(f, h);
      // (a ReDoS guard on 40–200k characters: backtracking takes minutes; loose so a busy machine never trips it)
      expect(performance.now() - t0).toBeLessThan(5_000);
    });
  }
});

describe("a file's untimed start", () => {
  it('takes a millisecond before the first time the file shows, so it sorts before that line, not after every timed line', async () => {
    const { events } = await parseText(
      'billing-mcp 3.1.0 starting (pid 4410)\nError: listen EADDRINUSE: address already in use :::7400\n2026-03-01T10:00:05.000Z INFO listening on :7401\n2026-03-01T10:00:06.000Z INFO POST /mcp 200\n',
    );
    const t0 = Date.parse('2026-03-01T10:00:05.000Z');
    expect(events.map((e) => [e.line, e.ts])).toEqual([
      [1, t0 - 1],
      [2, t0 - 1],
      [3, t0],
      [4, t0 + 1000],
    ]);
  });
  it('stays untimed in a file that shows no time at all', async () => {
    const { events } = await parseText('billing-mcp 3.1.0 starting (pid 4410)\nError: listen EADDRINUSE: address already in use :::7400\n');
    expect(events.length).toBe(2);
    expect(events.every((e) => e.ts === null)).toBe(true);
  });
});

describe("a format's side needs its own lines when its shape is generic (FormatSpec.sourceWhen)", () => {
  it("a client's bare `DEBUG: …` lines are not uvicorn's server log", async () => {
    const { stats } = await parseText(
      'DEBUG: Received SSE: event:endpoint\nDEBUG: Connecting to server: http://localhost:7410/events/messages?sessionId=ab12\nDEBUG: Sent request to server\nERROR: request failed: 404 Not Found\n',
      'run.log',
    );
    expect(stats.format).toBe('uvicorn');
    expect(stats.source).not.toBe('server');
  });
  it("near miss: the same shape with uvicorn's start-up or access lines is the server's", async () => {
    for (const line of ['INFO:     Started server process [5120]', 'INFO:     10.1.2.3:40112 - "POST /mcp HTTP/1.1" 200 OK']) {
      const { stats } = await parseText(`${line}\nDEBUG: tools/list handled\nERROR: request failed: 404 Not Found\n`, 'run.log');
      expect(stats.source, line).toBe('server');
    }
  });
});
