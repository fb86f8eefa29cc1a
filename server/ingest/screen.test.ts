// What is a log (screen.ts), through the same pass 1 every ingest runs (scanEntries): junk of each
// kind is named with its reason, and every real log shape we hold is read — none skipped.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { loadFormats } from '../../parsers/engine/registry.ts';
import { isPolicyFile } from '../triage/classify/policy.ts';
import { SessionIdBook } from '../triage/redact/index.ts';
import { REPO, SHARED } from '../testing/helpers.ts';
import { entriesFromPaths, fileEntry, type InputEntry } from './inputs.ts';
import { nothingToAnalyse, scanEntries } from './pipeline.ts';
import { binaryKind, isProse, jsonHasLogContent, SNIFF_BYTES } from './screen.ts';

const formats = loadFormats();
const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-screen-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A deterministic stream of bytes that is not text (xorshift). */
function noise(n: number, seed = 7): Buffer {
  const b = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    b[i] = x & 0xff;
  }
  return b;
}

function file(name: string, data: string | Buffer): string {
  const p = join(dir, name);
  writeFileSync(p, data);
  return p;
}

async function verdicts(entries: InputEntry[]): Promise<Map<string, { reason: string; detail: string } | null>> {
  const scanned = await scanEntries(entries, new SessionIdBook(), formats);
  return new Map(scanned.map((s) => [s.entry.name, s.skip ? { reason: s.skip.reason, detail: s.skip.detail } : null]));
}

async function verdictOf(name: string, data: string | Buffer): Promise<{ reason: string; detail: string } | null> {
  const p = file(name, data);
  return (await verdicts([fileEntry(p, name, { gz: false })])).get(name)!;
}

const SAMPLE_README = readFileSync(join(REPO, 'samples/wrong-path/README.md'), 'utf8');
const SAMPLE_ANALYSIS = readFileSync(join(REPO, 'samples/wrong-path/expected.analysis.json'), 'utf8');
const SAMPLE_REPORT = readFileSync(join(REPO, 'samples/wrong-path/expected.report.md'), 'utf8');
const ELF = readFileSync(process.execPath).subarray(0, 4096);
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), noise(300, 3)]);
const PROSE = [
  'This folder holds the logs we collected on Tuesday when the assistant stopped answering.',
  'The client was restarted twice before the problem went away, and nobody changed the proxy.',
  'We think the server was redeployed during the afternoon, but nobody wrote down the time.',
  'Please look at the other files in this upload; they come from the gateway and the client.',
  'If anything is missing, ask the platform team, who keep the gateway logs for a week.',
].join('\n');

describe('junk is named, by content, whatever its name', () => {
  const cases: [string, string | Buffer, string, RegExp][] = [
    ['empty.log', '', 'empty', /empty file \(0 bytes\)/],
    ['blank.log', '  \n\n\t\n', 'empty', /only whitespace/],
    ['random.log', noise(5000), 'binary', /binary data \(\d+% of its first 5 KiB is not text/],
    ['node.log', ELF, 'binary', /ELF executable/],
    ['screenshot.log', PNG, 'binary', /PNG image/],
    ['photo.txt', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), noise(200)]), 'binary', /JPEG image/],
    ['manual.log', '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n', 'binary', /PDF document/],
    ['inner.log', Buffer.concat([Buffer.from('PK\x03\x04'), noise(100)]), 'binary', /zip archive/],
    ['double.log', gzipSync(Buffer.from('2026-11-29 10:00:00,000 ERROR mcp.client: boom\n')), 'binary', /gzip-compressed data/],
    ['zeros.log', Buffer.alloc(1000), 'binary', /only NUL bytes/],
    ['README.md', SAMPLE_README, 'not-a-log', /a Markdown document/],
    ['client.log', SAMPLE_README, 'not-a-log', /a Markdown document/], // the name does not matter
    ['expected.report.md', SAMPLE_REPORT, 'not-a-log', /a Markdown document/],
    ['analysis.json', SAMPLE_ANALYSIS, 'not-a-log', /mcp-triage analysis document/],
    ['notes.txt', PROSE, 'not-a-log', /prose: 5 of its 5 lines are sentences/],
    // a package manifest (fixed here: the repo's own package.json changes, and its scripts may say "error")
    [
      'package.json',
      JSON.stringify(
        {
          name: 'orders-mcp',
          version: '1.4.2',
          type: 'module',
          scripts: { start: 'node server.js', test: 'vitest run' },
          dependencies: { '@modelcontextprotocol/sdk': '1.32.2', zod: '4.6.7' },
        },
        null,
        2,
      ),
      'not-a-log',
      /one JSON document with no log field/,
    ],
    ['hello.txt', 'hello world\n', 'not-a-log', /no line looks like a log line/],
    // near-misses of the stack-frame shapes: prose about files and places, not frames
    // near-miss: a UUID in prose is still prose
    [
      'note.txt',
      'We met on Monday and talked about the roadmap for a while.\nThe ticket is 1a2b3c4d-0000-4111-8222-333344445555 if you want to follow it.\nWe agreed to revisit the plan next week with the whole team.\nSomeone will write up the notes and share them with everybody.\nThanks again to all who joined the call today.\n',
      'not-a-log',
      /prose/,
    ],
    // near miss: prose about MCP with no machine-written failure in it
    [
      'mcp-notes.txt',
      'We moved the MCP server to the new cluster on Monday.\nThe Streamable HTTP endpoint now sits behind the gateway.\nEveryone should update the URL in their host settings.\nThe old SSE endpoint will be switched off next month.\nAsk in the channel if anything looks wrong to you.\n',
      'not-a-log',
      /prose/,
    ],
    ['where.txt', 'look at the file "notes.txt" line two\nmeet at the station (platform 3)\n', 'not-a-log', /no line looks like a log line/],
    // near misses of the header and hex-id shapes: a sentence that names a media type, a word of 32 letters
    ['types.txt', 'the reply used text/event-stream here\nnot what we asked for at all\n', 'not-a-log', /no line looks like a log line/],
    ['long.txt', 'abcdefabcdefabcdefabcdefabcdefzz is a name\nsee you soon\n', 'not-a-log', /no line looks like a log line/],
    // near miss of brace-less JSON members (a log record's fields pasted with `...`): a configuration file's
    // inside, one member per line, cut where the paste ended so it is no whole document
    ['mcp.json', '  "mcpServers": {\n    "orders": {\n      "url": "https://mcp.example.test/mcp",\n      "transport": "http"\n', 'not-a-log', /no line looks like a log line/],
  ];
  for (const [name, data, reason, detail] of cases) {
    it(`${name}: ${reason}`, async () => {
      const v = await verdictOf(name, data);
      expect(v, `${name} was read as a log`).not.toBeNull();
      expect(v!.reason).toBe(reason);
      expect(v!.detail).toMatch(detail);
    });
  }

  // a log pasted from a GitHub issue: in a fence, quoted with `> `, the lines inside carrying backticks of their own —
  // the fence and the quote are the paste's, the lines inside it are the log (the README above stays a document)
  it('a log record\'s members pasted without their braces (`"path":"/mcp" ... "response-code":401`) is a log', async () => {
    expect(await verdictOf('gateway.log', '"path":"/oauth/authorize" ... "response-code":302\n"path":"/mcp"     ... "response-code":401\n')).toBeNull();
  });

  // a client's line about its own traffic, with no level, time or failure word (fastmcp's warning on an SSE event
  // type it does not know): the protocol's names in a record, not a sentence
  it('a level-less line naming the transport (`Unknown SSE event: keepalive`) is a log; a sentence about SSE is not', async () => {
    expect(await verdictOf('client.log', 'Unknown SSE event: ping-7\n')).toBeNull();
    expect(await verdictOf('client.log', 'Streamable HTTP transport closed (session 4f1c)\n')).toBeNull();
    expect(await verdictOf('notes.txt', 'SSE is what we picked for the stream here\n')).toMatchObject({ reason: 'not-a-log' });
    // (a host's line under a server's configured name is a record, however sentence-like its words)
    expect(await verdictOf('validate.log', 'docs-kb: SSE endpoint not yet discovered\n')).toBeNull();
    expect(await verdictOf('notes.txt', 'Note: SSE is what we picked for the stream here\n')).toMatchObject({ reason: 'not-a-log' });
    expect(await verdictOf('notes.txt', 'the MCP one\n')).toMatchObject({ reason: 'not-a-log' });
  });

  // a lone machine-written failure with no time, level or status: an SDK's or host's own words (signals) make it a log
  it('a lone SDK or host failure line with no time or level is a log (go-sdk stream give-up, a host refusing a server entry, an OAuth registration error)', async () => {
    expect(await verdictOf('client.log', 'standalone SSE stream: exceeded 5 retries without progress (session ID: )\nevent: ping\ndata:\n')).toBeNull();
    expect(await verdictOf('host.log', 'Enabled MCP Server docs-bridge must specify a command, ignoring.\n')).toBeNull();
    expect(await verdictOf('oauth.log', '400 invalid_redirect_uri\nredirect URI must be a localhost URL or a registered app scheme\n')).toBeNull();
    expect(await verdictOf('plugin.log', 'Unsupported Content-Type: None\n')).toBeNull();
  });

  // a debugging print of an exchange as Python tuples (an httpx event hook): method and URL, status and URL — a record
  it("a request and response printed as tuples (`('REQ', 'POST', 'https://…')`, `('RES', 401, …)`) is a log", async () => {
    expect(await verdictOf('hooks.log', "('REQ', 'GET', 'https://files.example.org/mcp')\n('RES', 404, 'https://files.example.org/mcp')\n")).toBeNull();
    expect(await verdictOf('hooks.log', "('REQ', 'POST', 'https://files.example.org/mcp', Authorization_present=True)\n")).toBeNull();
    expect(await verdictOf('notes.txt', "We tried ('REQ', 'GET') by hand and it went fine\n")).toMatchObject({ reason: 'not-a-log' });
  });

  // a host's debug transcript reads like sentences, but a client's words about its own transport dropping and coming
  // back (a stream signal on a line naming the transport) are a program's record; prose about transports is not
  it('a chatty host transcript of its transport reconnecting is a log; prose about the HTTP transport is not', async () => {
    const transcript = [
      'HTTP transport closed/disconnected, attempting automatic reconnection',
      'Initializing HTTP transport to the configured endpoint',
      'Running the configured helper to refresh the headers',
      'Retrieved 2 headers from the helper',
      'HTTP reconnection successful after 240ms (attempt 2)',
      '',
    ].join('\n');
    expect(await verdictOf('host-debug.log', transcript)).toBeNull();
    const prose = [
      'We moved the server from the stdio transport to the HTTP transport last week.',
      'The HTTP transport is what the hosted clients use, and it is simpler to run.',
      'Reconnection is something every client handles in its own way.',
      'Our notes on the migration are in the wiki, with the settings we changed.',
      'Nothing in this file is a log; it is a summary for the team.',
      '',
    ].join('\n');
    expect(await verdictOf('notes.txt', prose)).toMatchObject({ reason: 'not-a-log' });
  });

  it('a log pasted in a markdown fence or quote is a log', async () => {
    const log = [
      '2026-10-07 12:02:11.044 [info] Waiting for server to respond to `initialize` request...',
      '2026-10-07 12:02:16.051 [info] Waiting for server to respond to `initialize` request...',
    ];
    expect(await verdictOf('fenced.log', ['```text', ...log, '```', ''].join('\n'))).toBeNull();
    expect(await verdictOf('quoted.log', ['>', '> ```', ...log.map((l) => `> ${l}`), '> ```', '>', ''].join('\n'))).toBeNull();
  });

  it('a damaged .gz is named damaged; a cut one is read for what it holds', async () => {
    const gz = gzipSync(Buffer.from('2026-11-29 10:00:00,000 ERROR mcp.client: connection refused\n'.repeat(200)));
    const bad = Buffer.from(gz);
    bad.fill(0xaa, 20, 60);
    const v = await verdicts([fileEntry(file('bad.log.gz', bad), 'bad.log.gz'), fileEntry(file('cut.log.gz', gz.subarray(0, gz.length - 12)), 'cut.log.gz')]);
    expect(v.get('bad.log')).toMatchObject({ reason: 'damaged', detail: expect.stringMatching(/damaged compressed data/) });
    expect(v.get('cut.log')).toBeNull();
  });

  it("a folder's logs as people save them are read: captured streams, journalctl output, Serilog's .clef, rotated copies; other files are not", async () => {
    const folder = mkdtempSync(join(dir, 'names-'));
    const line = '2026-11-29 10:00:00,000 ERROR mcp.client: connection refused\n';
    const logs = ['server.stderr', 'server.stdout', 'worker.out', 'mcp.journal', 'api-20261128.clef', 'app.log.1', 'app.log.2.gz', 'nginx-access.log-20261128'];
    for (const n of logs) writeFileSync(join(folder, n), n.endsWith('.gz') ? gzipSync(line) : line);
    for (const n of ['README.md', 'notes.py', 'compose.yaml']) writeFileSync(join(folder, n), line);
    const names = entriesFromPaths([folder]).map((e) => e.name);
    expect(names.sort()).toEqual(['api-20261128.clef', 'app.log.1', 'app.log.2', 'mcp.journal', 'nginx-access.log-20261128', 'server.stderr', 'server.stdout', 'worker.out']);
  });

  it('a damaged zip or tar.gz in a folder is one damaged entry, next to the logs that are read', async () => {
    const folder = mkdtempSync(join(dir, 'mixed-'));
    writeFileSync(join(folder, 'client.log'), '2026-11-29 10:00:00,000 ERROR mcp.client: connection refused\n');
    writeFileSync(join(folder, 'bundle.zip'), 'not a zip at all\n');
    writeFileSync(join(folder, 'more.tar.gz'), noise(2000));
    const v = await verdicts(entriesFromPaths([folder]));
    expect(v.get('client.log')).toBeNull();
    expect(v.get('bundle.zip')).toMatchObject({ reason: 'damaged', detail: expect.stringMatching(/not a zip file/) });
    expect(v.get('more.tar.gz')).toMatchObject({ reason: 'damaged', detail: expect.stringMatching(/not a readable gzip stream/) });
  });

  it('nothing left: 415 when nothing was text, 422 when text had no log line; one line naming each file', () => {
    const bin = nothingToAnalyse([
      { file: 'a.png', reason: 'binary', detail: 'a PNG image' },
      { file: 'b.gz', reason: 'damaged', detail: 'damaged compressed data' },
    ]);
    expect(bin).toMatchObject({ code: 'TRIAGE_ERR_UNSUPPORTED_MEDIA', status: 415, exitCode: 1 });
    expect(bin.message).toBe('nothing to analyse: none of the 2 files is a log — a.png: a PNG image; b.gz: damaged compressed data');
    const text = nothingToAnalyse([
      { file: 'a.png', reason: 'binary', detail: 'a PNG image' },
      { file: 'README.md', reason: 'not-a-log', detail: 'a Markdown document' },
    ]);
    expect(text).toMatchObject({ code: 'TRIAGE_ERR_NOT_A_LOG', status: 422, exitCode: 1 });
    const many = nothingToAnalyse(
      Array.from({ length: 9 }, (_, i) => ({ file: `f${i}\u001b[31m.log`, reason: 'damaged' as const, detail: 'entry "x\u001b]0;owned\u0007\n.log": local header is damaged' })),
    );
    expect(many.message).toMatch(/; and 4 more$/);
    expect(many.message).not.toMatch(/[\n\u001b]/);
  });
});

describe('short and odd real logs are read', () => {
  const kept: [string, string | Buffer][] = [
    ['one error line', 'Error POSTing to endpoint (HTTP 404): Not Found\n'],
    ['a bare traceback', 'Traceback (most recent call last):\n  File "/app/x.py", line 3, in <module>\n    main()\nhttpx.ConnectError: All connection attempts failed\n'],
    ['a JSON dump holding an error string', JSON.stringify({ data: { name: 'search', last_sync_status: 'error', last_sync_error: 'mcp request failed with status 400' } })],
    ['a user-facing error in two sentences', '❌ The tool did not answer this call. The connection to the relay\n   dropped before the result came back. Please retry.\n'],
    ['Python frames without the traceback header', '  |   File "/lib/agent/__init__.py", line 1483, in __aenter__\n  |     await stack.enter_async_context(toolset)\n'],
    [
      'Node frames without the error line',
      '    at StreamableHTTPClientTransport.send (file:///app/node_modules/sdk/dist/client.js:312:19)\n    at async main (/app/index.js:9:3)\n',
    ],
    ['JVM frames without the exception line', '\tat io.acme.mcp.Client.send(Client.java:88)\n\tat io.acme.mcp.Client.call(Client.java:41)\n'],
    ['a host status panel', '🟢 docs-search - Ready (8 tools)\n  Tools:\n  - search_docs\n'],
    ['short server notes with machine ids', 'Got new SSE connection\nSubscribed to requests:1a2b3c4d-0000-4111-8222-333344445555\nDone\n'],
    ['a status table', 'huggingface  3/5   OK ERR OK OK ERR\ngitmcp       5/5\n'],
    ['access lines without a known format', 'GET  /mcp  406\nPOST /mcp  200\n'],
    ['UTF-16 with a BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('2026-11-29 10:00:00,000 ERROR mcp.client: boom\r\n', 'utf16le')])],
    ['Latin-1 bytes in a log', Buffer.from('2026-11-29 10:00:00,000 ERROR mcp.client: caf\xe9 refused\n', 'latin1')],
    ['NUL padding before the log (truncated in place)', Buffer.concat([Buffer.alloc(4096), Buffer.from('2026-11-29 10:00:00,000 ERROR mcp.client: boom\n')])],
    ['ANSI colours', '\x1b[31m2026-11-29 10:00:00 ERROR\x1b[0m connection refused\n'],
    // SDK messages that read like sentences are a program's wording when the signal table knows them
    [
      'SDK error messages worded as sentences',
      'Error: SSE stream disconnected: TypeError: terminated\nThe link to the server was lost (will try again soon):\n  Maximum reconnection attempts (2) exceeded.\nWe could not reach the gateway (will try again soon):\n  Failed to open SSE stream: Bad Gateway\n',
    ],
    // a host's chatty transcript around one machine-written MCP error (GitHub Copilot CLI's ✗ / └ block)
    [
      'a host transcript with one MCP error in it',
      "● Connected to the docs MCP server\n\n● I will open the pull request for you now.\n\n✗ create_pull_request\n  └ MCP server 'outputs': Error: Streamable HTTP error: Error POSTing to endpoint: session not\n    found\n\n● The tool failed, so let me try that once more.\n",
    ],
    ['key=value records with no time or level', '[agent] billing: call_tool name=ledger method=POST path=/entries\n[agent] billing: call_tool done=12.4s status=ok\n'],
    // a debug print of one request's headers (an ASGI app's own dump): machine-written, if no log line
    ['a printed request with its headers', '>>> MCP GET\n  ct: <none>\n  accept: text/event-stream\n'],
    ['a printed MCP header alone', '>>> request\n  mcp-session-id: (cut)\n'],
    ['a session id alone, as the Python SDK writes it', 'stale: 0f3b9d2c7a8e4d1b9c6a5e4f3d2c1b0a\n'],
    ['pretty-printed JSON log objects cut mid-array', '  "debug": "Calling MCP tool: create_page",\n    "timestamp": "2026-11-29T10:00:00.000Z"\n  },\n  {\n'],
  ];
  for (const [what, data] of kept) {
    it(what, async () => {
      expect(await verdictOf('x.log', data)).toBeNull();
    });
  }
});

// Files beside a real shape's logs that are not logs, as their collectors said (samples/real-world
// MANIFEST reason): a tool's start-up banner with no error in it, a CDN dashboard's list of an event's
// fields; a thread's "log" that is only the status code curl's `-w '%{http_code}'` printed (uq-12: `302`, nothing
// else — a number is not a log line). Skipping them (and saying so) is the right answer; the logs beside them are read.
const NOT_LOGS = new Set([
  'au-05-inspector-proxy-token-wellknown-404/proxy.log',
  'au-11-cloudflare-ai-bot-block-403/proxy.log',
  'uq-12-initialize-post-302-during-provider-outage.log',
]);

describe('every real log shape we hold is read, none skipped', () => {
  const corpora: [string, string][] = [
    ['samples/real-world/shapes', join(REPO, 'samples/real-world/shapes')],
    ['shared corpus real-dev', join(SHARED, 'corpus', 'real-dev')],
    ['samples/recorded', join(REPO, 'samples/recorded')],
  ];
  for (const [name, root] of corpora) {
    it.skipIf(!existsSync(root))(name, async () => {
      const entries = entriesFromPaths([root]).filter((e) => !e.name.endsWith('label.json')); // the recorder's labels are data
      expect(entries.length).toBeGreaterThan(40);
      const skipped = [...(await verdicts(entries))].filter(([n, v]) => v !== null && !NOT_LOGS.has(n)).map(([n, v]) => `${n}: ${v!.reason}: ${v!.detail}`);
      expect(skipped).toEqual([]);
    });
  }

  it('every committed sample: its logs are read, only its expected analysis is skipped', async () => {
    for (const d of readdirSync(join(REPO, 'samples'))) {
      const root = join(REPO, 'samples', d);
      if (!existsSync(join(root, 'expected.analysis.json'))) continue;
      // A tool policy file is configuration, taken out before the ingest (incidents.ts).
      const v = await verdicts(entriesFromPaths([root]).filter((e) => !isPolicyFile(e.name)));
      const skipped = [...v].filter(([, x]) => x !== null).map(([n]) => n);
      expect(skipped, d).toEqual(['expected.analysis.json']);
      expect(v.size, d).toBeGreaterThan(1);
    }
  });
});

describe('the pieces', () => {
  it('binaryKind: text stays text under the ratio, noise does not', () => {
    expect(binaryKind(Buffer.from('plain text\n'))).toBeNull();
    // 5% bad bytes (a Latin-1 file) is text; 30% is not.
    const mostly = Buffer.from('a'.repeat(95) + '\x01'.repeat(5));
    expect(binaryKind(mostly)).toBeNull();
    expect(binaryKind(Buffer.from('a'.repeat(70) + '\x01'.repeat(30)))).toMatch(/30% of its first 100 bytes/);
    // A multi-byte character cut at the end of a head is not evidence; at the end of a file it is.
    const cut = Buffer.from('ab\xe2\x82', 'latin1');
    expect(binaryKind(cut, false)).toBeNull();
    expect(binaryKind(cut, true)).toMatch(/binary data/);
    // Only the first SNIFF_BYTES are tested.
    expect(binaryKind(Buffer.concat([Buffer.alloc(SNIFF_BYTES, 0x61), noise(1000)]))).toBeNull();
  });

  it('isProse: sentences are prose; log lines, JSON and short error lines are not', () => {
    expect(isProse('The client was restarted twice before the problem went away.')).toBe(true);
    expect(isProse('2026-11-29 10:00:00,000 ERROR mcp.client: the server went away')).toBe(false);
    expect(isProse('{"error": "the session was not found on this server"}')).toBe(false);
    expect(isProse('Error: Request timed out')).toBe(false);
    // a level in capitals starts a record, however sentence-like the rest (IDE output channels, NestJS, Go)
    expect(isProse('ERROR Transport error for "inventory-api" while the stream was being read again')).toBe(false);
    expect(isProse('LOG   StreamableHTTP transport error for "inventory-api", attempting reconnect 1/6 in 2s...')).toBe(false);
    // near miss: a sentence that merely starts with a capitalised word that is not a level
    expect(isProse('Errors were seen by the client whenever the stream was opened again.')).toBe(true);
  });

  it('jsonHasLogContent: log keys and error text count, configuration does not', () => {
    expect(jsonHasLogContent({ level: 'info', msg: 'x' })).toBe(true);
    expect(jsonHasLogContent({ lastSyncError: '' })).toBe(true);
    expect(jsonHasLogContent({ result: 'Error POSTing to endpoint (HTTP 404)' })).toBe(true);
    expect(jsonHasLogContent({ compilerOptions: { allowImportingTsExtensions: true, timeoutMs: 5 } })).toBe(false);
    expect(jsonHasLogContent({ dependencies: { debug: '4.4.3' }, scripts: { check: 'svelte-check --fail-on-warnings' } })).toBe(false);
  });
});
