// The wording table proves itself: each rule's examples give its level, each near-miss gives none,
// and the phrases the brief names as near-misses stay level-less. Hostile input stays fast.
import { describe, expect, it } from 'vitest';
import { levelFromWording, NEAR_MISSES, PREFILTER, WORDING } from './level-wording.ts';

describe('level from wording', () => {
  for (const rule of WORDING) {
    for (const ex of rule.examples) {
      it(`${rule.level}: ${JSON.stringify(ex)} (${rule.why})`, () => {
        expect(levelFromWording(ex)).toBe(rule.level);
        expect(PREFILTER.test(ex), 'the prefilter lets it through').toBe(true);
      });
    }
  }
  for (const ex of NEAR_MISSES.examples) {
    it(`near-miss: ${JSON.stringify(ex)}`, () => expect(levelFromWording(ex)).toBeNull());
  }

  const none = [
    'processed 120 requests, 0 errors',
    'no errors',
    'writing to /var/log/nginx/error_log',
    'stats: errors=0 retries=0',
    'Error handling disabled',
    'finished without error',
    '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"ok"}],"isError":false}}',
    'failover to replica b complete',
    'GET /api/errors 200',
    'loaded error.log rotation settings',
    '{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"find_errors","description":"Search the error log"}]}}',
    'Session initialized with ID sess_abcdefghijk',
    'Connected to remote server using StreamableHTTPClientTransport',
    'the file was not found in cache, fetching',
    'client configured: timeout=30 retries=2',
    'read timeout 300s, connect timeout 10s',
    'set request timeout to 120 s',
    // the same words inside other words, or names that merely contain them
    'Fehlerbehandlung aktiviert',
    'Erroneous values are ignored',
    'crash reporter enabled',
    'Killed 3 idle sessions',
    'mcp-bridge.service: Main process exited, code=exited, status=0/SUCCESS',
    'exit status 0',
    'tests: 12 ✓ 0 ✗',
    'client disconnected cleanly',
    'healthy: 3, unhealthy_threshold: 2',
    'errorless run',
  ];
  for (const line of none) it(`none: ${JSON.stringify(line)}`, () => expect(levelFromWording(line)).toBeNull());

  const some: [string, 'error' | 'warn'][] = [
    ['Traceback (most recent call last):', 'error'],
    ["MCP tool 'create_order' timed out", 'error'],
    ['0 errors before, then: connection refused', 'error'],
    ['Connection failed, retrying in 2s', 'warn'],
    ['Max retries exceeded with url: /mcp (Caused by ConnectError)', 'error'],
    ['Transport not found for sessionId sess_abcdefghijk', 'error'],
    ['upstream returned 404 Not Found', 'error'],
    ['{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"auth failed"}],"isError":true}}', 'error'],
    ['unable to reach host-k3jd8a7q2x', 'error'],
    ['Server disconnected. Reconnecting...', 'warn'],
  ];
  for (const [line, level] of some) it(`${level}: ${JSON.stringify(line)}`, () => expect(levelFromWording(line)).toBe(level));

  it('stays fast on hostile input', () => {
    const lines = [
      'error '.repeat(40_000),
      'no '.repeat(80_000) + 'errors',
      '/'.repeat(200_000),
      'Session '.repeat(30_000) + 'not found',
      'a'.repeat(200_000) + 'Error',
      'errors=' + '0'.repeat(200_000),
    ];
    for (const l of lines) {
      const t = performance.now();
      for (let k = 0; k < 10; k++) levelFromWording(l);
      expect(performance.now() - t, l.slice(0, 20)).toBeLessThan(2000);
    }
  });
});
