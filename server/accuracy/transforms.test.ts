// The metamorphic transforms themselves: a shifted clock keeps every layout, noise merges in time order.
import { describe, expect, it } from 'vitest';
import { identifierRenames, rng, shiftTimes, transform } from './transforms.ts';

const H = 3_600_000;

describe('shiftTimes', () => {
  it('moves every timestamp layout and keeps it', () => {
    const cases: [string, string][] = [
      ['2026-11-29T09:02:27.466Z INFO x', '2026-11-30T10:02:28.966Z INFO x'],
      ['2026-11-29 23:59:59,123 - mcp - ERROR - y', '2026-12-01 01:00:00,623 - mcp - ERROR - y'],
      ['2026/11/29 09:02:27 [error] 9#9: *1 z', '2026/11/30 10:02:28 [error] 9#9: *1 z'],
      ['127.0.0.1 - - [29/Nov/2026:09:02:27 +0000] "POST /mcp HTTP/1.1" 200', '127.0.0.1 - - [30/Nov/2026:10:02:28 +0000] "POST /mcp HTTP/1.1" 200'],
      ['{"level":30,"time":1795942947337,"msg":"a"}', '{"level":30,"time":1796032948837,"msg":"a"}'],
      ['{"time":"2026-11-29T09:02:27+00:00","msec":1795942947.466}', '{"time":"2026-11-30T10:02:28+00:00","msec":1796032948.966}'],
      ['2026-03-19T21:33:47.310-06:00  INFO 1 --- [main] x', '2026-03-20T22:33:48.810-06:00  INFO 1 --- [main] x'],
      // syslog (no year) and a time of day alone move with the other files' clocks, or the files no longer meet
      ['Mar 02 10:00:01 tools-01 mcp-bridge[2211]: up', 'Mar 03 11:00:02 tools-01 mcp-bridge[2211]: up'],
      ['Dec 31 23:00:00 h a', 'Jan 02 00:00:01 h a'],
      ['[09:14:02] connected', '[10:14:03] connected'],
      ['23:59:59,5 late', '01:00:01,0 late'],
      ['09:12:31.402117 IP a > b', '10:12:32.902117 IP a > b'],
    ];
    for (const [input, want] of cases) expect(shiftTimes(input, 25 * H + 1500)).toBe(want);
  });

  it('leaves text without times alone', () => {
    expect(shiftTimes('no time here, port 8080, id 1234567890', 5 * H)).toBe('no time here, port 8080, id 1234567890');
    // a time of day inside a line is not the line's stamp
    expect(shiftTimes('retry at 12:00:00 sharp', 5 * H)).toBe('retry at 12:00:00 sharp');
  });
});

describe('transform', () => {
  const bundle = {
    files: [
      { name: 'client.log', data: Buffer.from('2026-01-01T10:00:00.000Z INFO a\n2026-01-01T10:00:02.000Z ERROR b\n') },
      { name: 'server.log', data: Buffer.from('{"time":1767261600500,"msg":"c"}\n') },
    ],
  };
  it('is deterministic for a seed', () => {
    for (const id of ['rename', 'gzip', 'clock', 'skew'] as const) expect(transform(bundle, id, 7)).toEqual(transform(bundle, id, 7));
    expect(rng(1)()).toBe(rng(1)());
  });
  it('renames to names that say nothing about the source, and reorders', () => {
    const names = transform(bundle, 'rename', 3).files.map((f) => f.name);
    expect(names.every((n) => /^incident-\d+\.log$/.test(n))).toBe(true);
    expect(transform(bundle, 'reorder', 1).files.map((f) => f.name)).toEqual(['server.log', 'client.log']);
  });
  it('CRLF keeps the lines', () => {
    const c = transform(bundle, 'crlf', 1).files[0]!.data.toString();
    expect(c.split('\r\n').length).toBe(3);
  });
  it('skews only the server clock', () => {
    const t = transform(bundle, 'skew', 5);
    expect(t.files[0]!.data).toEqual(bundle.files[0]!.data);
    expect(t.files[1]!.data.toString()).not.toBe(bundle.files[1]!.data.toString());
  });
  it('a collector moves the clock by whole seconds: a log stamping whole seconds keeps its place beside millisecond ones', () => {
    // nginx's error log truncates to the second: at 10:00:40 it wrote a line for the request the client logged at
    // 10:00:40.931. Moved with a fraction of a second (0.5 s: 41.431 beside 40) it would say it came a whole second
    // before the client's line, which no clock writes
    const b = {
      files: [
        { name: 'client.log', data: Buffer.from('2026-10-27 10:00:40,931 WARNING x -> HTTP 502\n') },
        { name: 'nginx-error.log', data: Buffer.from('2026/10/27 10:00:40 [error] 9#9: *5 connect() failed (111: Connection refused)\n') },
      ],
    };
    for (const id of ['timestamps', 'journald', 'syslog', 'docker-json', 'cloud-json'] as const)
      for (let seed = 1; seed <= 20; seed++) {
        const [c, n] = transform(b, id, seed).files.map((f) => f.data.toString());
        const client = /(\d\d):(\d\d):(\d\d),931 WARNING/.exec(c!);
        expect(client, `${id} ${seed}`).not.toBeNull();
        expect(n, `${id} ${seed}`).toContain(`${client![1]}:${client![2]}:${client![3]} [error]`);
      }
  });
  it("a collector stamps a JSON log's lines at the epoch times they tell, not a year away", () => {
    // pino writes its time as epoch milliseconds; the banner before its first record is stamped beside it
    const b = { files: [{ name: 'server.log', data: Buffer.from('> node server.js\n{"level":50,"time":1767261600500,"msg":"upstream closed"}\n') }] };
    for (let seed = 1; seed <= 5; seed++) {
      const [banner, record] = transform(b, 'timestamps', seed).files[0]!.data.toString().trimEnd().split('\n');
      const stamp = Date.parse(banner!.slice(0, 30));
      const own = Number(/"time":(\d{13})/.exec(record!)![1]);
      expect(Math.abs(own - stamp), `seed ${seed}`).toBeLessThan(1000);
      expect(Math.abs(Date.parse(record!.slice(0, 30)) - own), `seed ${seed}`).toBeLessThan(1000);
    }
  });
  it('splices noise into the matching files in time order', () => {
    const noise = { files: [{ name: 'client.log', data: Buffer.from('2025-06-01T00:00:01.000Z INFO noise\n') }] };
    const out = transform(bundle, 'noise', 2, { noise: [noise] })
      .files[0]!.data.toString()
      .trim()
      .split('\n');
    expect(out).toHaveLength(3);
    expect(out.some((l) => l.endsWith('noise'))).toBe(true);
    const times = out.map((l) => Date.parse(l.slice(0, 24)));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });
});

describe('names', () => {
  const bundle = {
    files: [
      {
        name: 'client.log',
        data: Buffer.from(
          [
            '2026-12-01T10:00:00Z calling tool create_order {"sku":"A-1"} via https://mcp.orders.internal:8443/mcp',
            '2026-12-01T10:00:01Z error: McpError "name":"McpError" tool search failed; http://localhost:9/x http://10.0.0.1/ ok',
            '2026-12-01T10:00:02Z POST https://gw.example.com/mcp {"name":"billing.issue_credit","arguments":{}}',
          ].join('\n'),
        ),
      },
      { name: 'server.log', data: Buffer.from('INFO tool=create_order done; Executing tool issue_credit (request id 12)\n') },
      { name: 'tool-policy.json', data: Buffer.from('{"tools":{"create_order":"write"}}') },
    ],
  };
  const out = transform(bundle, 'names', 11);
  const text = (name: string) => out.files.find((f) => f.name === name)!.data.toString();
  const map = identifierRenames(bundle, 11);

  it('renames tools and hosts the same way in every file and the tool policy', () => {
    const order = map.get('create_order')!;
    expect(order).toMatch(/^[a-z]+_[a-z]+$/);
    expect(order).not.toBe('create_order');
    expect(text('client.log')).toContain(`calling tool ${order} `);
    expect(text('server.log')).toContain(`tool=${order} done`);
    expect(text('tool-policy.json')).toContain(`"${order}":"write"`);
    expect(text('client.log')).not.toMatch(/orders\.internal|gw\.example/);
    expect(text('client.log')).toMatch(/https:\/\/[a-z]+\.[a-z]+\.internal:8443\/mcp/); // the TLD stays: it is evidence
  });

  it('keeps a namespace, and the namespaced tool matches the server’s bare name', () => {
    const tool = map.get('issue_credit')!;
    expect(text('client.log')).toContain(`"name":"billing.${tool}"`);
    expect(text('server.log')).toContain(`Executing tool ${tool} `);
  });

  it('leaves words, error types, loopback and addresses alone', () => {
    expect(text('client.log')).toContain('"name":"McpError" tool search failed; http://localhost:9/x http://10.0.0.1/ ok');
  });

  it('never takes the header after tools/call for a tool', () => {
    const b = { files: [{ name: 'client.log', data: Buffer.from('DEBUG POST /mcp id=7 Mcp-Method=tools/call Mcp-Name=submit_payroll_batch\n') }] };
    const m = identifierRenames(b, 5);
    expect(m.has('Mcp-Name')).toBe(false);
    expect(transform(b, 'names', 5).files[0]!.data.toString()).toContain('Mcp-Method=tools/call Mcp-Name=');
  });
});
