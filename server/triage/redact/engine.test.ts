// Behaviour of the whole pipeline: must-keeps, masked ids, fail-closed, ReDoS bait,
// idempotence and the verifier.
import { describe, expect, it } from 'vitest';
import { createLineRedactor, LINE_FAILED, redactText, SecretLedger, SessionIdBook, collectSessionIds, verifyRedacted, rawValuesFor } from './index.ts';
import type { PatternRule } from './types.ts';
import { idTokens } from './engine.ts';

const key = new Uint8Array(32).fill(3);
const red = (s: string) => redactText(s, { key }).text;

describe('must-keep strings survive', () => {
  const keep = [
    'WWW-Authenticate: Bearer error="invalid_token", resource_metadata="http://127.0.0.1:8000/.well-known/oauth-protected-resource"',
    'GET /authorize?code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256',
    'mcp-server 1.4.2 (commit 3f9ab12c4d5e6f708192a3b4c5d6e7f8091a2b3c)',
    'X-Request-ID: 7f3a9c1e2b4d4e8f9a0b1c2d3e4f5a6b',
    '127.0.0.1 - - [14/Mar/2026:09:26:10 +0000] "POST /mcp HTTP/1.1" 404 0 "-" "node" 0af7651916cd43dd8448eb211c80319c',
    'traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    '{"jsonrpc":"2.0","id":12345678901234567890,"error":{"code":-32001,"message":"Session not found"}}',
    '{"jsonrpc":"2.0","id":"Zk3QmL9xR2vT8bN5cW1yH7pJ4sD6fG0a","method":"tools/call","params":{"name":"create_order"}}',
    'INFO mcp.client.streamable_http: Negotiated protocol version: 2025-06-18',
    '2026-03-14T09:26:53.589Z HTTP/1.1 401 Unauthorized from [::1]:8000',
    'httpx.RemoteProtocolError: Server disconnected without sending a response.',
    '"token_type": "Bearer", "expires_in": 3600, "max_tokens": 4096',
    'data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"pt-17","progress":50}}',
    // Prose puts a word where an id would go: the word is not an id (and would be swept everywhere).
    'HTTP 400 from POST /messages: Missing sessionId parameter',
    'Bad Request: No valid session ID provided; Session ID expected in header',
  ];
  for (const k of keep) it(k.slice(0, 60), () => expect(red(k)).toBe(k));
});

describe('structure', () => {
  it('keeps a JSON line parseable and keeps id/method/isError/error', () => {
    const l = '{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"secret business"}],"isError":true}}';
    const out = JSON.parse(red(l));
    expect(out).toEqual({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: '<string len=15>' }], isError: true } });
  });
  it('summarises Python repr tool arguments', () => {
    expect(red("params={'name': 'search', 'arguments': {'q': 'top secret'}}")).toBe("params={'name': 'search', 'arguments': {'q': '<string len=10>'}}");
  });
  it('redacts a PEM block line by line and keeps the markers', () => {
    const out = red('-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0B\nAQEFAASCBKcwggSjAgEAAoIB\n-----END PRIVATE KEY-----\nafter');
    expect(out).toBe('-----BEGIN PRIVATE KEY-----\n[REDACTED:pem]\n[REDACTED:pem]\n-----END PRIVATE KEY-----\nafter');
  });
  it('keeps a trailing CR', () => {
    expect(redactText('Authorization: Bearer abcdef123456\r', { key }).text).toBe('Authorization: Bearer [REDACTED:bearer]\r');
  });
  it('sweeps a secret that reappears bare later', () => {
    expect(red('password=Summer2026!x\nlogin failed for Summer2026!x')).toBe('password=[REDACTED:secret-key]\nlogin failed for [REDACTED:secret-key]');
  });
});

describe('session ids and masked forms', () => {
  const full = '3f2a9c1e-4b5d-4e6f-8a7b-9c0d1e2f3a4b';
  it('one pseudonym for every spelling', () => {
    const out = red(`Received session ID: ${full}\nPOST /messages/?session_id=${full.replace(/-/g, '')}\nSession: ${full.toUpperCase()}`).split('\n');
    const p = out[0]!.match(/sess_[a-z2-7]{10}/)![0];
    for (const l of out) expect(l).toContain(p);
    expect(out.join('\n')).not.toMatch(/3f2a9c1e/i);
  });
  it('ids in prose are still ids; words after the same phrases are not', () => {
    const book = new SessionIdBook();
    for (const l of [
      'Transport not found for sessionId 0b1a1fb1-5c2d-4e3f-8a9b-0c1d2e3f4a5b',
      'Received session ID: Zk3QmL9xR2vT8bN5cW1yH7pJ',
      'Session a1b2c3d4e5 expired',
      'Missing sessionId parameter',
      'Terminating session gracefully',
      'Session closing expired',
      '{"message":"MCP session with ID \\u00279d8c7b6a-5e4f-4a3b-8c2d-1e0f9a8b7c6d\\u0027 could not be found."}',
      "MCP session with ID 'Qx7rT2mK9pL4vN8b' could not be found.",
      'A session with ID required header',
      'WARN: Session not found component="Router" sessionId="5e1f9a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b" metadata={}',
      "session_id='Kp9rT2mQ7vL4xN8w' closed",
      '[mcp-proxy] establishing new SSE stream for session ID 6d0e4c2a-7b1f-4a9e-9c3d-2e5f8a1b7c40',
      '[FastMCP warning] rejected POST /mcp: no transport for session 4f8a2c61-0d3e-4b7a-8e19-5c2d7a9b3e06',
      'no transport for session handling configured',
      // the TypeScript SDK examples' own wording (onsessioninitialized / transport.onclose), copied into many servers
      'Session initialized with ID: 2c7e9a41-6b3d-4f80-a5e2-91d4c8b07f36',
      'Transport closed for session 7a1c3e5f-9b2d-4e6a-8c0f-1d3b5a7c9e2f, removing from transports map',
      'Transport closed for session cleanup',
    ])
      collectSessionIds(l, book);
    expect([...book.raw].sort()).toEqual([
      '0b1a1fb1-5c2d-4e3f-8a9b-0c1d2e3f4a5b',
      '2c7e9a41-6b3d-4f80-a5e2-91d4c8b07f36',
      '4f8a2c61-0d3e-4b7a-8e19-5c2d7a9b3e06',
      '5e1f9a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
      '6d0e4c2a-7b1f-4a9e-9c3d-2e5f8a1b7c40',
      '7a1c3e5f-9b2d-4e6a-8c0f-1d3b5a7c9e2f',
      '9d8c7b6a-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
      'Kp9rT2mQ7vL4xN8w',
      'Qx7rT2mK9pL4vN8b',
      'Zk3QmL9xR2vT8bN5cW1yH7pJ',
      'a1b2c3d4e5',
    ]);
    // A word as a key's value is still taken at its word (mcp-session-id=… is never prose).
    collectSessionIds('mcp-session-id=abcdefgh', book);
    expect(book.raw.has('abcdefgh')).toBe(true);
  });
  it('matched / unresolved / ambiguous', () => {
    const ids = new SessionIdBook();
    for (const l of [`Mcp-Session-Id: ${full}`, 'Mcp-Session-Id: c0ffee12-aaaa-4bbb-8ccc-111111111111', 'Mcp-Session-Id: c0ffee12-dddd-4eee-9fff-222222222222'])
      collectSessionIds(l, ids);
    const r = createLineRedactor({ key, ids });
    r.line('session 3f2a9c1e**** expired');
    r.line('session c0ffee12**** expired');
    r.line('session 99aa77bb55**** expired');
    r.line('session ****2f3a4b expired');
    const byVisible = Object.fromEntries(r.maskedResolutions().map((m) => [m.visible, m]));
    expect(byVisible['3f2a9c1e']).toMatchObject({ status: 'matched', candidates: 1 });
    expect(byVisible['c0ffee12']).toMatchObject({ status: 'ambiguous', candidates: 2 });
    expect(byVisible['99aa77bb55']).toMatchObject({ status: 'unresolved', candidates: 0 });
    expect(byVisible['2f3a4b']).toMatchObject({ status: 'matched', position: 'suffix' });
    // near misses: a quantity trailing off in a session line is prose (python-sdk's `GET stream disconnected,
    // reconnecting in 2000ms...` from mcp.client.streamable_http), not a masked id
    // (nor a port curl is trying: `curl -v http://localhost:4100/mcp` prints `Trying [::1]:4100...`)
    for (const line of [
      'GET stream disconnected, reconnecting in 2000ms... [mcp.client.streamable_http]',
      'session sync: uploaded 12MB... 40%...',
      '*   Trying [::1]:4100... (GET /tidewave/mcp)',
      // (a value the user x'ed out on an MCP server's journal line that names no session: the refund's, not a session's)
      '2026-12-04T14:04:27.902+00:00 pay-1 payments-mcp[1420]: info ledger INSERT refunds refund=re_7Kq2xxxxxxxx committed',
    ])
      expect(r.line(line).text).toBe(line);
    const amb = r.line('again c0ffee12**** in session').text;
    expect(amb).toContain(byVisible['c0ffee12']!.pseudonym);
    expect(amb).not.toContain(r.line(`Mcp-Session-Id: c0ffee12-aaaa-4bbb-8ccc-111111111111`).text.split(' ')[1]);
  });
});

describe('fails closed', () => {
  it('replaces the whole line when a rule throws', () => {
    const boom: PatternRule = {
      id: '@boom',
      kind: 'free-text',
      tier: 'ingest',
      description: 'throws',
      pattern: /x/dg,
      validate: () => {
        throw new Error('boom');
      },
      tps: [],
      fps: [],
    };
    const r = createLineRedactor({ key, ids: new SessionIdBook(), rules: { format: [boom] } });
    expect(r.line('x marks Authorization: Bearer abcdef123456').text).toBe(LINE_FAILED);
    expect(r.line('fine').text).toBe('fine');
  });
});

describe('ReDoS bait finishes in bounded time', () => {
  const baits = [
    'a'.repeat(100_000),
    '='.repeat(100_000),
    '%2'.repeat(50_000),
    '"'.repeat(100_000),
    'eyJ'.repeat(30_000),
    'password='.repeat(10_000),
    'a@'.repeat(50_000),
    '{'.repeat(50_000),
    '\\"'.repeat(50_000),
    ':'.repeat(100_000),
    '1.'.repeat(50_000),
    'Bearer '.repeat(15_000),
    'A1b2C3d4/'.repeat(10_000),
    '*'.repeat(100_000),
    'ab12*'.repeat(20_000),
    // phone, card: digit groups and separators
    '+1 '.repeat(30_000),
    '+' + '1'.repeat(100_000) + 'a',
    '(415) 555-'.repeat(10_000),
    '4111 '.repeat(20_000),
    '4111-1111-'.repeat(10_000),
    'phone 0'.repeat(10_000) + '1 22 33 44',
  ];
  for (const b of baits) {
    it(`${JSON.stringify(b.slice(0, 12))}… (${b.length} chars)`, () => {
      const t0 = performance.now();
      const out = redactText(b, { key }).text;
      expect(out.split('\n').length).toBe(1);
      expect(performance.now() - t0).toBeLessThan(15_000); // generous: a loaded 2-core CI box
    });
  }
});

describe('verifyRedacted', () => {
  it('passes redacted output and is idempotent on it', () => {
    const ledger = new SecretLedger();
    const ids = new SessionIdBook();
    const input = 'Authorization: Bearer tok_0123456789abcdef\nMcp-Session-Id: 3f2a9c1e-4b5d-4e6f-8a7b-9c0d1e2f3a4b\nGITHUB_TOKEN=ghp_Xq7Lr2Vb9Zk4Tn8Wc3Ym6Pd5Hs1Gf0Ja2Ue4';
    const out = redactText(input, { key, ids, ledger }).text;
    expect(redactText(out, { key }).text).toBe(out);
    expect(verifyRedacted(out, { rawValues: rawValuesFor(ids, ledger), ids })).toEqual({ ok: true, hits: [] });
  });
  it('refuses text with a raw value or a detector hit, and says where', () => {
    const r = verifyRedacted('report\nleaked tok_0123456789abcdef here\nand ghp_Xq7Lr2Vb9Zk4Tn8Wc3Ym6Pd5Hs1Gf0Ja2Ue4', { rawValues: ['tok_0123456789abcdef'] });
    expect(r.ok).toBe(false);
    expect(r.hits).toEqual([
      { rule: '@literal', index: 14, length: 20, line: 2 },
      { rule: '@vendor-token:github', index: 44, length: 40, line: 3 },
    ]);
  });
});

describe('no line boundary is crossed (issue #18 part 3)', () => {
  const jwtHead = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJmYWtlLXVzZXIifQ';
  const nextLines = [
    '2026-03-14T09:26:10.123Z INFO next request',
    '2026-03-14 09:26:10,101 DEBUG httpx: HTTP Request: POST http://127.0.0.1:8000/mcp',
    '[pid 12] c2lnbmF0dXJlLWZha2UabcdEF123',
    '09:26:10 c2lnbmF0dXJlLWZha2UabcdEF123 trailing words',
    'INFO 2026-03-14T09:26:10Z',
    '{"level":30,"time":1795942947337,"msg":"next"}',
  ];
  for (const next of nextLines) {
    it(`a wrapped-JWT continuation leaves a prefixed next line alone: ${next.slice(0, 40)}`, () => {
      const out = red(`Authorization: Bearer ${jwtHead}\n${next}`).split('\n');
      expect(out[0]).toBe('Authorization: Bearer [REDACTED:jwt]');
      // The next line keeps its own text (its timestamp and prefix); only its own rules may touch it.
      expect(out[1]).toBe(red(next));
      expect(out[1]).not.toContain('jwt-continuation');
    });
  }
  it('a bare fragment alone on the next line is the wrapped token, and only it', () => {
    expect(red(`Authorization: Bearer ${jwtHead}\n  c2lnbmF0dXJlLWZha2UabcdEF123",\n2026-03-14 INFO after`)).toBe(
      'Authorization: Bearer [REDACTED:jwt]\n  [REDACTED:jwt-continuation]",\n2026-03-14 INFO after',
    );
  });
  it('a PEM block with a logger prefix on every line: only the key material goes', () => {
    const input = [
      '2026-03-14 09:26:10 DEBUG key: -----BEGIN PRIVATE KEY-----',
      '2026-03-14 09:26:10 DEBUG MIIEvQIBADANBgkqhkiG9w0BAQEFAASC',
      '2026-03-14 09:26:10 DEBUG AQEFAASCBKcwggSjAgEAAoIB',
      '2026-03-14 09:26:10 DEBUG -----END PRIVATE KEY-----',
      '2026-03-14 09:26:11 INFO done',
    ];
    expect(red(input.join('\n')).split('\n')).toEqual([input[0], '2026-03-14 09:26:10 DEBUG [REDACTED:pem]', '2026-03-14 09:26:10 DEBUG [REDACTED:pem]', input[3], input[4]]);
  });
  it('a line that is not key material inside a PEM block keeps its text (redacted as usual)', () => {
    const out = red(
      '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n2026-03-14 09:26:10 INFO unrelated POST /mcp 200 from 10.42.7.19\nAg==\n-----END PRIVATE KEY----- 2026-03-14 09:26:11 INFO after',
    ).split('\n');
    expect(out[1]).toBe('[REDACTED:pem]');
    expect(out[2]).toMatch(/^2026-03-14 09:26:10 INFO unrelated POST \/mcp 200 from ip-[a-z2-7]{10}$/);
    expect(out[3]).toBe('[REDACTED:pem]');
    expect(out[4]).toBe('-----END PRIVATE KEY----- 2026-03-14 09:26:11 INFO after');
  });
  it('the redacted PEM block reads back as inert (verify(redact(x)) passes)', () => {
    const out = red('-----BEGIN RSA PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END RSA PRIVATE KEY-----');
    expect(verifyRedacted(out, { rawValues: [] })).toEqual({ ok: true, hits: [] });
  });
});

describe('idTokens', () => {
  it('finds exactly the matches of the token pattern it replaces', () => {
    const re = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{8,64}(?![A-Za-z0-9_\-*…])/g;
    let seed = 7;
    const r = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const pieces = ['a', 'Z', '0', '9', '_', '-', '*', '…', ' ', '.', '=', '"', 'é', 'sess_abc', '3f2a9c1e', '\u0000'];
    for (let k = 0; k < 2000; k++) {
      let text = '';
      const runs = Math.floor(r() * 12);
      for (let j = 0; j < runs; j++) {
        // runs of id characters around the 8 and 64 bounds, and single separators
        const len = [1, 7, 8, 9, 63, 64, 65, 100][Math.floor(r() * 8)]!;
        for (let c = 0; c < len; c++) text += pieces[Math.floor(r() * 6)];
        if (r() < 0.8) text += pieces[6 + Math.floor(r() * (pieces.length - 6))]; // else the next run joins this one
      }
      const want = [...text.matchAll(re)].map((m) => [m.index, m.index + m[0].length, /[0-9]/.test(m[0])]);
      expect(idTokens(text), JSON.stringify(text)).toEqual(want);
    }
  });
});
