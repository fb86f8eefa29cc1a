// The line reader's rules prove themselves: every example must make its rule fire and give (at
// least) the fields it lists; every near-miss must not make its rule fire. Then whole-line cases
// (the layouts the reader exists for), fillFromLine's never-overwrite rule, and hostile input.
import { describe, expect, it } from 'vitest';
import { emptyEvent, type Event } from '../contract/event.ts';
import { applyFormat } from './apply.ts';
import { containerGutter, fillFromLine, readLine, readLinePrefix, RULES, type LinePrefix } from './line-reader.ts';
import { loadFormats } from './registry.ts';

const CLOCK = Date.UTC(2026, 0, 30, 9, 0, 0);

function reading(line: string, clock: number | null = CLOCK) {
  const trace: string[] = [];
  const p = readLinePrefix(line, clock, trace);
  const shown: Partial<Record<keyof LinePrefix, string>> = {};
  if (p) for (const [k, v] of Object.entries(p)) if (v !== null && k !== 'end') shown[k as keyof LinePrefix] = k === 'ts' ? new Date(v as number).toISOString() : String(v);
  return { p, trace, shown };
}

describe('line reader rules: examples fire, near-misses do not', () => {
  for (const r of RULES) {
    it(`${r.id} has examples and near-misses`, () => {
      expect(r.examples.length).toBeGreaterThan(0);
      expect(r.nearMisses.length).toBeGreaterThan(0);
    });
    for (const [line, want] of r.examples) {
      it(`${r.id} reads ${JSON.stringify(line)}`, () => {
        const { trace, shown } = reading(line);
        expect(trace, `rules that fired`).toContain(r.id);
        expect(shown).toMatchObject(want);
      });
    }
    for (const line of r.nearMisses) {
      it(`${r.id} does not fire on ${JSON.stringify(line)}`, () => {
        const { trace } = reading(line);
        expect(trace).not.toContain(r.id);
      });
    }
  }
});

describe('line reader: whole lines', () => {
  const cases: [string, Partial<Record<keyof LinePrefix, string>> | null][] = [
    // ANSI is stripped before the reader runs; padding and tabs are not.
    ['\t  ERROR\tboom', { level: 'error', message: 'boom' }],
    ['2026-01-30 14:17:19 [ERROR]', { level: 'error', message: '' }],
    ['<3>msg', { level: 'error', message: 'msg' }],
    ['E1201 12:00:01.123 123 file.go:42] msg', { level: 'error', location: 'file.go:42', message: 'msg' }],
    ['ERROR | fn - msg', { level: 'error', logger: 'fn', message: 'msg' }],
    ['level=error msg=x', { level: 'error', message: 'x' }],
    ['[12345] msg', { pid: '12345', message: 'msg' }],
    ['Dec  1 10:00:00 host app[123]: msg', { host: 'host', logger: 'app', pid: '123', message: 'msg' }],
    ['  api-1    | 2026-01-30T10:00:00Z ERROR boom', { container: 'api-1', ts: '2026-01-30T10:00:00.000Z', level: 'error', message: 'boom' }],
    ['C:\\work\\app> ERROR not a prefix', null],
    ['Error: connect ECONNREFUSED 127.0.0.1:8080', null],
    ['Using transport: sse', null],
    ['10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.1" 200', null],
    ['response = await call_next(request)', null],
    ['', null],
  ];
  for (const [line, want] of cases) {
    it(JSON.stringify(line), () => {
      const { p, shown } = reading(line);
      if (want === null) expect(p).toBeNull();
      else expect(shown).toMatchObject(want);
    });
  }

  it('a time of day after a clock late in the day is the next day (midnight passed)', () => {
    expect(reading('00:10:00 INFO after midnight', Date.UTC(2026, 0, 30, 23, 50)).shown.ts).toBe('2026-01-31T00:10:00.000Z');
  });

  it('a time of day without a clock stays a time, not an epoch', () => {
    const { p } = reading('14:21:07  "POST /mcp HTTP/2" 307', null);
    expect(p).toMatchObject({ ts: null, time: '14:21:07', message: '"POST /mcp HTTP/2" 307' });
  });
});

function ev(text: string, partial: Partial<Event> = {}): Event {
  return Object.assign(emptyEvent({ file: 'f', line: 1, source: 'unknown', format: 'unknown', kind: 'raw', text }), partial);
}

describe('fillFromLine / readLine', () => {
  it('fills a raw event: time, level, message and attrs', () => {
    const e = ev('web-01 4242 ERROR upstream closed');
    expect(fillFromLine(e, CLOCK)).toBe(true);
    expect(e).toMatchObject({ level: 'error', message: 'upstream closed', attrs: { hostname: 'web-01', pid: '4242' } });
  });

  it('never overwrites what a format set', () => {
    const e = ev('[WARNING] a.b.c - msg', { kind: 'line', format: 'x', level: 'info', ts: 5, message: 'msg', attrs: { logger: 'set' } });
    fillFromLine(e, CLOCK);
    expect(e).toMatchObject({ level: 'info', ts: 5, message: 'msg', attrs: { logger: 'set' } });
  });

  it('a format event takes nothing when the reader fills neither time nor level', () => {
    const e = ev('[81278] Connecting', { kind: 'line', format: 'mcp-remote', message: 'Connecting', attrs: {} });
    expect(fillFromLine(e, CLOCK)).toBe(false);
    expect(e.attrs).toEqual({});
  });

  it('a format whose message is the whole line gets the message without its prefix', () => {
    const line = '[WARNING] src.infra.tool.mcp_client - MCP tool timed out';
    const e = ev(line, { kind: 'line', format: 'bare-error-message', message: line });
    fillFromLine(e, CLOCK);
    expect(e).toMatchObject({ level: 'warn', message: 'MCP tool timed out', attrs: { logger: 'src.infra.tool.mcp_client' } });
  });

  it('wording gives a level only where none was logged, and says so', () => {
    const a = ev('Connection refused by upstream');
    readLine(a, null, null, null);
    expect(a).toMatchObject({ level: 'error', attrs: { levelFrom: 'wording' } });
    const b = ev('INFO: request failed, will retry');
    readLine(b, null, null, null);
    expect(b.level).toBe('info');
    expect(b.attrs.levelFrom).toBeUndefined();
    const shell = loadFormats().find((f) => f.spec.id === 'shell-prompt')!;
    const c = ev('$ grep error app.log', { kind: 'line', format: 'shell-prompt' });
    readLine(c, shell, applyFormat(shell, c.text), null);
    expect(c.level).toBeNull();
  });

  it('an access-log record gets neither a reader level nor a wording level', () => {
    const nginx = loadFormats().find((f) => f.spec.id === 'nginx-combined')!;
    const line = '10.0.0.1 - - [02/Apr/2026:08:00:00 +0000] "GET /orders/errors HTTP/1.1" 500 12 "-" "curl"';
    const parsed = applyFormat(nginx, line)!;
    const e = ev(line, { kind: 'line', format: 'nginx-combined', ...parsed });
    readLine(e, nginx, parsed, null);
    expect(e.level).toBeNull();
    expect(e.attrs.levelFrom).toBeUndefined();
  });
});

describe('containerGutter: a writer gutter a format may read past', () => {
  it('names the writer and gives the rest of the line', () => {
    expect(containerGutter('authproxy-1  | [GIN] 2026/11/25 - 14:07:02 | 502 | 30s | 10.0.0.1 | POST     "/mcp"')).toEqual({
      name: 'authproxy-1',
      rest: '[GIN] 2026/11/25 - 14:07:02 | 502 | 30s | 10.0.0.1 | POST     "/mcp"',
    });
    expect(containerGutter('gateway   | INFO:     10.0.0.9:5123 - "POST /mcp HTTP/1.1" 500')?.name).toBe('gateway');
    expect(containerGutter('[pod/orders-7f9c4/app] 2026-01-30T10:00:00Z ERROR boom')).toEqual({ name: 'orders-7f9c4/app', rest: '2026-01-30T10:00:00Z ERROR boom' });
  });
  it('near misses: prose with a bar, a level in the gutter, a gutter not at the start', () => {
    for (const line of ['a | b', 'api | one space, no replica number', 'ERROR   | something broke', 'see api-1  | here', '| api-1 | x']) expect(containerGutter(line)).toBeNull();
  });
});

describe('line reader on hostile input', () => {
  const hostile = [
    '['.repeat(200_000),
    '2026-01-30 '.repeat(20_000),
    'a.'.repeat(100_000) + ' - x',
    'level='.repeat(40_000),
    'x=' + '"'.repeat(200_000),
    ' '.repeat(200_000) + 'ERROR',
    'ERROR ' + 'serve_inner{a=1}: '.repeat(10_000),
    '[E 260130 08:53:44 ' + 'a'.repeat(200_000),
    'E1201 12:00:01.123 1 ' + 'a:1'.repeat(60_000),
    'web-01 '.repeat(30_000),
    '<' + '9'.repeat(200_000),
  ];
  for (const line of hostile) {
    it(`stays fast on ${JSON.stringify(line.slice(0, 24))}… (${line.length} chars)`, () => {
      const t = performance.now();
      for (let k = 0; k < 20; k++) readLinePrefix(line, CLOCK);
      expect(performance.now() - t).toBeLessThan(2000);
    });
  }
});
