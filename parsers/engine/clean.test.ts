// The wrappers a collector puts around every line (clean.ts PREFIX_RULES): each is found on a file's head,
// unwrapped to the application's own line and its time, and never on look-alikes that are an application's
// own layout. The golden fixtures (parsers/fixtures/*/journald-*, docker-json-file, gcp-text-payload, …)
// show the whole parse; this pins the wrapper itself.
import { describe, expect, it } from 'vitest';
import { detectLayout, detectPrefix, prefixLevel, prefixOrigin, prefixRule, prefixStamp, readHeader, stripPrefix, type LineHeader } from './clean.ts';

const cases: { id: string; lines: string[]; inner: string; stamp?: string; header?: Partial<LineHeader>; origin?: string }[] = [
  {
    // RFC 3164 §4.1 as a collector received it: `<PRI>`, then the header the line reader dated (time, host, tag[pid])
    id: 'syslog-header',
    lines: ['<131>Oct  7 12:02:13 edge-3 relay[811]: upstream failed', '<134>Oct  7 12:02:14 edge-3 relay[811]: ok'],
    inner: 'upstream failed',
    header: { time: 'Oct  7 12:02:13', host: 'edge-3', ident: 'relay', pid: '811' },
  },
  {
    // journalctl(1) -o short: the day zero-padded; a kernel line has no pid
    id: 'syslog-header',
    lines: ['Oct 07 14:02:11 build-07 kernel: eth0: link down', 'Oct 07 14:02:12 build-07 python3[20817]: 2026-10-07 14:02:12,044 INFO ready'],
    inner: 'eth0: link down',
    header: { time: 'Oct 07 14:02:11', host: 'build-07', ident: 'kernel', pid: null },
  },
  {
    // -o short-precise: microseconds; a traceback's indented line keeps its indent behind the header
    id: 'syslog-header',
    lines: ['Oct 07 14:02:11.044718 build-07 python3[20817]:   File "relay.py", line 41, in call', 'Oct 07 14:02:11.044720 build-07 python3[20817]: KeyError: x'],
    inner: '  File "relay.py", line 41, in call',
    header: { time: 'Oct 07 14:02:11.044718', pid: '20817' },
  },
  {
    // -o short-iso: the offset without a colon (systemd before 254), with one after; -o short-iso-precise
    id: 'syslog-header',
    lines: ['2026-10-07T14:02:11+0200 build-07 node[3310]: {"level":50,"msg":"boom"}', '2026-10-07T14:02:12.120431+02:00 build-07 node[3310]: ok'],
    inner: '{"level":50,"msg":"boom"}',
    header: { time: '2026-10-07T14:02:11+0200', host: 'build-07', ident: 'node', pid: '3310' },
  },
  {
    // -o short in the locale's month (%b): Japanese `12月`, German `Dez`, French `déc.`, Spanish `dic`
    id: 'syslog-header',
    lines: ['12月 07 14:01:30 docs-01 docs-mcp[2211]: 2026-12-07T05:01:30.021Z info ready', '12月 07 14:01:31 docs-01 docs-mcp[2211]: listening'],
    inner: '2026-12-07T05:01:30.021Z info ready',
    header: { time: '12月 07 14:01:30', host: 'docs-01', ident: 'docs-mcp', pid: '2211' },
  },
  {
    id: 'syslog-header',
    lines: ['Dez 07 14:01:30 kb-01 kb-mcp[91]: error: upstream refused', 'Dez 07 14:01:31 kb-01 kb-mcp[91]: ok'],
    inner: 'error: upstream refused',
    header: { time: 'Dez 07 14:01:30', ident: 'kb-mcp', pid: '91' },
  },
  {
    id: 'syslog-header',
    lines: ['déc. 07 14:01:30 kb-01 kb-mcp[91]: prêt', 'dic 07 14:01:31 kb-01 kb-mcp[91]: listo'],
    inner: 'prêt',
    header: { time: 'déc. 07 14:01:30', ident: 'kb-mcp', pid: '91' },
  },
  {
    // -o short-unix
    id: 'syslog-header',
    lines: ['1791381731.044718 build-07 nginx[812]: 2026/10/07 14:02:11 [error] 812#812: *9 upstream timed out'],
    inner: '2026/10/07 14:02:11 [error] 812#812: *9 upstream timed out',
    header: { time: '1791381731.044718', ident: 'nginx', pid: '812' },
  },
  {
    // RFC 5424 §6, structured data (§6.3; an escaped `]` inside a value, §6.3.3) and a BOM before MSG
    id: 'syslog-5424',
    lines: [
      '<131>1 2026-10-07T12:02:13.120Z edge-3 mcp-proxy 811 ID47 [exampleSDID@32473 iut="3" eventSource="Appl\\]ication"][origin ip="10.4.0.9"] \uFEFFError: timed out',
      '<134>1 - edge-3 mcp-proxy 811 - - ok',
    ],
    inner: 'Error: timed out',
    header: { time: '2026-10-07T12:02:13.120Z', host: 'edge-3', ident: 'mcp-proxy', pid: '811' },
  },
  {
    // RFC 5424 with every header field nil
    id: 'syslog-5424',
    lines: ['<14>1 - - - - - - session 4be1 closed'],
    inner: 'session 4be1 closed',
    header: { time: null, host: null, ident: null, pid: null },
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
  {
    // journalctl -o json: fields in the order journalctl writes them, every value a string
    id: 'journal-json',
    lines: [
      '{"__CURSOR":"s=1;i=2","__REALTIME_TIMESTAMP":"1791381734123456","PRIORITY":"3","SYSLOG_IDENTIFIER":"relay","MESSAGE":"connect ETIMEDOUT 10.2.0.44:443"}',
      '{"__CURSOR":"s=1;i=3","__REALTIME_TIMESTAMP":"1791381735000000","PRIORITY":"6","MESSAGE":"ok"}',
    ],
    inner: 'connect ETIMEDOUT 10.2.0.44:443',
    stamp: '2026-10-07T14:02:14.123Z',
  },
  {
    // Heroku's log stream: the router and a dyno of the app, each a writer of its own
    id: 'heroku-logplex',
    lines: [
      '2026-10-07T12:02:13.121004+00:00 heroku[router]: at=error code=H12 desc="Request timeout" method=POST path="/mcp" status=503',
      '2026-10-07T12:02:13.200000+00:00 app[web.2]: INFO reports: request served',
    ],
    inner: 'at=error code=H12 desc="Request timeout" method=POST path="/mcp" status=503',
    stamp: '2026-10-07T12:02:13.121Z',
    origin: 'heroku[router]',
  },
];

// an application's own layouts that look like a wrapper: no wrapper may be found on them
const nearMisses: { why: string; lines: string[] }[] = [
  { why: 'a PRI without a syslog header (systemd/kernel `<3>` before the message)', lines: ['<3>mcp-bridge: boom', '<6>mcp-bridge: ok'] },
  { why: 'syslog day not padded to two characters', lines: ['<131>Oct 7 12:02:16 web-01 app[1]: a', '<131>Oct 7 12:02:17 web-01 app[1]: b'] },
  {
    why: "an application's own `<ISO stamp> <level> <logger>: ` layout",
    lines: ['2026-10-07T12:02:13.120Z ERROR relay: upstream failed', '2026-10-07T12:02:14.120Z INFO relay[7]: ok'],
  },
  { why: 'an ISO stamp before `host name: ` without a pid', lines: ['2026-10-07T12:02:13Z web-01 relay: upstream failed', '2026-10-07T12:02:14Z web-01 relay: ok'] },
  { why: 'a month-like word that is no month (`Ende`, `Marsch`)', lines: ['Ende 07 14:02:11 web-01 app[1]: a', 'Marsch 07 14:02:12 web-01 app[1]: b'] },
  { why: 'a level word where the host goes', lines: ['Oct 07 14:02:11 WARNING relay: slow', 'Oct 07 14:02:12 ERROR relay: failed'] },
  { why: 'RFC 5424 without its version', lines: ['<134>2026-10-07T12:02:13Z edge-3 relay 811 - - ok', '<134>2026-10-07T12:02:14Z edge-3 relay 811 - - ok'] },
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
      // a syslog-style header is read when the line is parsed: its fields, and the same line behind it
      if (c.header) {
        const h = readHeader(line, rule!);
        expect(h?.header).toMatchObject(c.header);
        expect(h?.rest).toBe(c.inner);
      } else expect(rule?.header).toBeUndefined();
      // a process id or a stream is no replica; a writer the prefix names is
      expect(prefixOrigin(line, rule)).toBe(c.origin ?? null);
    });
  for (const n of nearMisses) it(`near miss: ${n.why}`, () => expect(detectPrefix(n.lines)).toBeNull());

  // W3C extended logs (w3.org/TR/WD-logfile): the columns are the file's own `#Fields:`, times are UTC
  it("a W3C extended log (IIS, Azure App Service): each entry as the pairs its #Fields name, the MCP headers' columns too", () => {
    const lines = [
      '#Software: Microsoft Internet Information Services 10.0',
      '#Version: 1.0',
      '#Date: 2026-10-07 12:00:00',
      '#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) sc-status sc-substatus sc-win32-status time-taken cs(Mcp-Method) cs(Mcp-Name)',
      '2026-10-07 12:02:13 10.0.0.4 POST /mcp - 443 - 10.9.8.7 relay/1.0+(node) 502 3 12030 30012 tools/call export_ledger',
    ];
    const rule = detectPrefix(lines);
    expect(rule?.id).toBe('w3c');
    expect(stripPrefix(lines[4]!, rule)).toBe(
      'time=2026-10-07T12:02:13.000Z msg="POST /mcp 502" path=/mcp s_ip=10.0.0.4 method=POST s_port=443 c_ip=10.9.8.7 user_agent="relay/1.0 (node)" status=502 substatus=3 win32_status=12030 duration_ms=30012 Mcp-Method=tools/call Mcp-Name=export_ledger',
    );
    expect(new Date(prefixStamp(lines[4]!, rule)!).toISOString()).toBe('2026-10-07T12:02:13.000Z');
    // a directive stays as written, with no time of its own
    expect(stripPrefix(lines[1]!, rule)).toBe('#Version: 1.0');
    expect(prefixStamp(lines[1]!, rule)).toBeNull();
    // a worker binds the same rule again from what the main thread sends it
    expect(stripPrefix(lines[4]!, prefixRule(rule!.id, rule!.arg))).toBe(stripPrefix(lines[4]!, rule));
  });
  it('a W3C log that writes a new #Fields mid-file is read by the new columns from there on', () => {
    const lines = [
      '#Fields: date time cs-method cs-uri-stem sc-status',
      '2026-10-07 12:02:13 GET /mcp 405',
      '#Fields: date time cs-method cs-uri-stem cs-uri-query sc-status time-taken',
      '2026-10-07 12:02:14 POST /mcp a=1 200 0.004',
    ];
    const rule = detectPrefix(lines)!;
    expect(lines.map((l) => stripPrefix(l, rule))).toEqual([
      lines[0],
      'time=2026-10-07T12:02:13.000Z msg="GET /mcp 405" path=/mcp method=GET status=405',
      lines[2],
      // (CloudFront-style seconds with a fraction)
      'time=2026-10-07T12:02:14.000Z msg="POST /mcp?a=1 200" path="/mcp?a=1" method=POST status=200 duration_ms=4',
    ]);
  });
  it("near misses: a '#Fields' without a date or time is no W3C header; an entry whose columns do not fit is left as it is", () => {
    expect(detectPrefix(['#Fields: name size', 'a 1', 'b 2'])).toBeNull();
    const rule = detectPrefix(['#Fields: date time cs-method cs-uri-stem sc-status', '2026-10-07 12:02:13 GET /mcp 405'])!;
    expect(stripPrefix('2026-10-07 12:02:13 GET /mcp 405 extra', rule)).toBe('2026-10-07 12:02:13 GET /mcp 405 extra');
  });

  it("a quoted HTTP exchange is a markdown quote, however many request heads it holds: curl -v's `> ` is its request head alone", () => {
    const exchange = [
      '>',
      '> POST /mcp HTTP/1.1',
      '> Host: h',
      '> Accept: application/json',
      '> Mcp-Session-Id: 41ac',
      '>',
      '> HTTP/1.1 404 Not Found',
      '> Content-Type: application/json',
    ];
    expect(detectPrefix(exchange)?.id).toBe('markdown-quote');
    expect(detectPrefix([...exchange.slice(0, 5), '>'])).toBeNull();
  });
  it('a fence around a short paste does not hide the prefix its lines carry', () => {
    const lines = ['```', '[pod/api-5d8c7b9f6-h2k4m/app] INFO a', '[pod/api-5d8c7b9f6-p7q3r/app] INFO b', '[pod/api-5d8c7b9f6-h2k4m/app] INFO c', '```'];
    expect(detectPrefix(lines)?.id).toBe('kubectl-prefix');
  });
  it('a pod prefix inside another pod prefix names the writer', () => {
    const lines = ['[pod/collector-7d9c6b8f4-kq2xw/c] [pod/api-5d8c7b9f6-h2k4m/app] INFO ok', '[pod/collector-7d9c6b8f4-kq2xw/c] [pod/api-5d8c7b9f6-p7q3r/app] INFO ok'];
    const rule = detectPrefix(lines);
    expect(rule?.id).toBe('kubectl-prefix');
    expect(lines.map((l) => prefixOrigin(l, rule))).toEqual(['api-5d8c7b9f6-h2k4m', 'api-5d8c7b9f6-p7q3r']);
    expect(stripPrefix(lines[0]!, rule)).toBe('INFO ok');
  });

  it("a collector's level, unless the stream alone explains it", () => {
    const gcp = (severity: string, log: string) =>
      JSON.stringify({ textPayload: 'session 4be1 closed', timestamp: '2026-10-07T12:02:14Z', severity, logName: `projects/p/logs/${log}` });
    const dd = (status: string) => JSON.stringify({ timestamp: '2026-10-07T12:02:14Z', host: 'h', service: 'relay', status, message: 'session 4be1 closed' });
    const rule = detectPrefix([gcp('WARNING', 'relay'), gcp('INFO', 'relay')]);
    expect(rule?.id).toBe('cloud-json');
    expect(prefixLevel(gcp('WARNING', 'relay'), rule)).toBe('warn');
    expect(prefixLevel(gcp('CRITICAL', 'stderr'), rule)).toBe('fatal');
    expect(prefixLevel(dd('error'), rule)).toBe('error');
    // (DEFAULT is LogSeverity's "no severity"; GKE gives an unparsed stderr line ERROR, an stdout line INFO)
    expect(prefixLevel(gcp('DEFAULT', 'relay'), rule)).toBeNull();
    expect(prefixLevel(gcp('ERROR', 'stderr'), rule)).toBeNull();
    expect(prefixLevel(gcp('INFO', 'run.googleapis.com%2Fstdout'), rule)).toBeNull();
    // docker's json-file record has a stream, no level
    const docker = '{"log":"boom\\n","stream":"stderr","time":"2026-10-07T12:02:13.121004561Z"}';
    expect(prefixLevel(docker, detectPrefix([docker]))).toBeNull();
  });

  it('fence lines are a layout only when the head shows one', () => {
    expect(detectLayout(['```log', 'a', '```']).fences).toBe(true);
    expect(detectLayout(['a', 'b ``` c']).fences).toBe(false);
  });
});
