// The wrappers a collector puts around every line (clean.ts PREFIX_RULES): each is found on a file's head,
// unwrapped to the application's own line and its time, and never on look-alikes that are an application's
// own layout. The golden fixtures (parsers/fixtures/*/journald-*, docker-json-file, gcp-text-payload, …)
// show the whole parse; this pins the wrapper itself.
import { describe, expect, it } from 'vitest';
import { detectLayout, detectPrefix, prefixOrigin, prefixStamp, stripPrefix } from './clean.ts';

const cases: { id: string; lines: string[]; inner: string; stamp?: string }[] = [
  {
    // RFC 3164 §4.1 as a collector received it: only the `<PRI>` goes, the line reader reads the syslog header
    id: 'syslog-pri',
    lines: ['<131>Oct  7 12:02:13 edge-3 relay[811]: upstream failed', '<134>Oct  7 12:02:14 edge-3 relay[811]: ok'],
    inner: 'Oct  7 12:02:13 edge-3 relay[811]: upstream failed',
  },
  {
    // RFC 5424 §6, structured data and a BOM before MSG
    id: 'syslog-5424',
    lines: ['<131>1 2026-10-07T12:02:13.120Z edge-3 mcp-proxy 811 ID47 [origin ip="10.4.0.9"] \uFEFFError: timed out', '<134>1 - edge-3 mcp-proxy 811 - - ok'],
    inner: 'Error: timed out',
    stamp: '2026-10-07T12:02:13.120Z',
  },
  {
    id: 'docker-json',
    lines: [
      '{"log":"\\u001b[31mError: socket hang up\\u001b[39m\\n","stream":"stderr","time":"2026-10-07T12:02:13.121004561Z"}',
      '{"log":"ok\\n","stream":"stdout","time":"2026-10-07T12:02:14.000000001Z"}',
    ],
    inner: 'Error: socket hang up',
    stamp: '2026-10-07T12:02:13.121Z',
  },
  {
    // GCP LogEntry with textPayload, keys in any order
    id: 'cloud-json',
    lines: [
      '{"insertId":"a1","textPayload":"worker exited","timestamp":"2026-10-07T12:02:14.000Z","severity":"DEFAULT"}',
      '{"severity":"INFO","textPayload":"ok","timestamp":"2026-10-07T12:02:15Z"}',
    ],
    inner: 'worker exited',
    stamp: '2026-10-07T12:02:14.000Z',
  },
  {
    // CloudWatch filter-log-events event: epoch milliseconds
    id: 'cloud-json',
    lines: [
      '{"logStreamName":"relay/main/7f3a","timestamp":1791381734000,"message":"connect ETIMEDOUT 10.2.0.44:443","ingestionTime":1791381734400,"eventId":"3818"}',
      '{"timestamp":"2026-10-07T12:02:16Z","host":"h","service":"relay","status":"error","message":"boom"}',
    ],
    inner: 'connect ETIMEDOUT 10.2.0.44:443',
    stamp: '2026-10-07T14:02:14.000Z',
  },
  { id: 'markdown-quote', lines: ['>', '> ```log', '> 2026-10-07 12:02:11,044 INFO [relay] ready'], inner: '' },
];

// an application's own layouts that look like a wrapper: no wrapper may be found on them
const nearMisses: { why: string; lines: string[] }[] = [
  { why: 'a PRI without a syslog header (systemd/kernel `<3>` before the message)', lines: ['<3>mcp-bridge: boom', '<6>mcp-bridge: ok'] },
  { why: 'syslog day not padded to two characters', lines: ['<131>Oct 7 12:02:16 web-01 app[1]: a', '<131>Oct 7 12:02:17 web-01 app[1]: b'] },
  {
    why: "a logger's own JSON (level, message, time)",
    lines: ['{"level":"error","message":"upstream failed","timestamp":"2026-10-07T12:02:13Z"}', '{"level":"info","message":"ok","timestamp":"2026-10-07T12:02:14Z"}'],
  },
  {
    why: 'an HTTP status beside message',
    lines: ['{"timestamp":"2026-10-07T12:02:14Z","message":"GET /mcp","status":502}', '{"timestamp":"2026-10-07T12:02:15Z","message":"GET /mcp","status":200}'],
  },
  {
    why: 'request fields beside message',
    lines: ['{"timestamp":"2026-10-07T12:02:14Z","message":"call","tool":"x","session":"s"}', '{"timestamp":"2026-10-07T12:02:15Z","message":"call","tool":"y","session":"s"}'],
  },
  { why: 'log without stream is no docker record', lines: ['{"log":"not docker","time":"2026-10-07T12:02:15Z"}', '{"log":"again","time":"2026-10-07T12:02:16Z"}'] },
  { why: "curl -v's request lines", lines: ['> POST /mcp HTTP/1.1', '> Host: localhost:3000', '> Accept: application/json, text/event-stream'] },
  { why: 'a shell redirect, no space after >', lines: ['>out.log', '>>err.log', '>x'] },
];

describe('collector wrappers', () => {
  for (const c of cases)
    it(`${c.id}: ${c.lines[0]!.slice(0, 60)}`, () => {
      const rule = detectPrefix(c.lines);
      expect(rule?.id).toBe(c.id);
      const line = c.id === 'markdown-quote' ? c.lines[2]! : c.lines[0]!;
      if (c.id === 'markdown-quote') {
        expect(stripPrefix(c.lines[0]!, rule)).toBe('');
        expect(stripPrefix(line, rule)).toBe('2026-10-07 12:02:11,044 INFO [relay] ready');
      } else expect(stripPrefix(line, rule)).toBe(c.inner);
      const t = prefixStamp(line, rule);
      expect(t === null ? null : new Date(t).toISOString()).toBe(c.stamp ?? null);
      // a process id or a stream is no replica
      expect(prefixOrigin(line, rule)).toBeNull();
    });
  for (const n of nearMisses) it(`near miss: ${n.why}`, () => expect(detectPrefix(n.lines)).toBeNull());

  it('a pod prefix inside another pod prefix names the writer', () => {
    const lines = ['[pod/collector-7d9c6b8f4-kq2xw/c] [pod/api-5d8c7b9f6-h2k4m/app] INFO ok', '[pod/collector-7d9c6b8f4-kq2xw/c] [pod/api-5d8c7b9f6-p7q3r/app] INFO ok'];
    const rule = detectPrefix(lines);
    expect(rule?.id).toBe('kubectl-prefix');
    expect(lines.map((l) => prefixOrigin(l, rule))).toEqual(['api-5d8c7b9f6-h2k4m', 'api-5d8c7b9f6-p7q3r']);
    expect(stripPrefix(lines[0]!, rule)).toBe('INFO ok');
  });

  it('fence lines are a layout only when the head shows one', () => {
    expect(detectLayout(['```log', 'a', '```']).fences).toBe(true);
    expect(detectLayout(['a', 'b ``` c']).fences).toBe(false);
  });
});
