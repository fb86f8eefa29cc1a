// A file logged in local time without a zone is found whole quarter-hours away from the reference (the proxy's UTC
// clock) by the failures both logged, and only then: near misses keep every file where it was.
import { describe, expect, it } from 'vitest';
import { type Event, emptyEvent } from '../../../parsers/contract/event.ts';
import { applyZoneShifts, estimateZoneShifts } from './zones.ts';

const T0 = Date.UTC(2026, 8, 14, 6, 46, 58);
const HOUR = 3_600_000;
let line = 0;
const ev = (file: string, source: Event['source'], ts: number, httpStatus: number | null): Event => ({
  ...emptyEvent({ file, line: ++line, source, format: 'fmt', kind: 'line', text: `status ${httpStatus}` }),
  ts,
  httpStatus,
});

/** The proxy's 404s at three moments, and a client's reports of them `clientAheadMs` later on its clock (±a few hundred ms). */
function bundle(clientAheadMs: number, moments = [0, 153_000, 375_000]): Event[] {
  const out: Event[] = [];
  for (const m of moments) out.push(ev('nginx-access.log', 'proxy', T0 + m, 404));
  out.push(ev('nginx-access.log', 'proxy', T0 + 30_000, 401)); // another caller's
  for (const m of moments) out.push(ev('cursor.log', 'client', T0 + m + clientAheadMs + 379, 404));
  out.push(ev('cursor.log', 'client', T0 + 1_000 + clientAheadMs, null));
  return out;
}

describe('time zones of files', () => {
  it('a client logging local time two hours ahead of UTC is shifted back by two hours', () => {
    const shifts = estimateZoneShifts(bundle(2 * HOUR));
    expect(shifts).toEqual([{ file: 'cursor.log', shiftMs: -2 * HOUR, reference: 'nginx-access.log', votes: 3 }]);
    const moved = applyZoneShifts(bundle(2 * HOUR), shifts);
    expect(moved.filter((e) => e.file === 'cursor.log' && e.httpStatus === 404).map((e) => e.ts! - T0)).toEqual([379, 153_379, 375_379]);
  });

  it('half-hour zones too (UTC+05:30, behind the reference)', () => {
    expect(estimateZoneShifts(bundle(-5.5 * HOUR))[0]?.shiftMs).toBe(5.5 * HOUR);
  });

  it('near miss: files on the same clock, a few seconds apart, stay where they are', () => {
    expect(estimateZoneShifts(bundle(1_800))).toEqual([]);
  });

  it('near miss: one failure each is a coincidence, not a zone', () => {
    expect(estimateZoneShifts(bundle(2 * HOUR, [0]))).toEqual([]);
  });

  it('near miss: the failures do not sit a whole quarter-hour apart (a clock 2 h 7 min off is not a zone)', () => {
    expect(estimateZoneShifts(bundle(2 * HOUR + 7 * 60_000))).toEqual([]);
  });

  it('near miss: as many failures agree on no shift as on two hours (a recurring failure): nothing moves', () => {
    const evs = bundle(2 * HOUR);
    // the proxy also logged the same 404s two hours later (a job that fails every two hours)
    for (const m of [0, 153_000, 375_000]) evs.push(ev('nginx-access.log', 'proxy', T0 + 2 * HOUR + m + 379, 404));
    expect(estimateZoneShifts(evs)).toEqual([]);
  });

  // a host that names its calls by method and id but logs no status (Cline's `resources/read … (request 42) ok`), in local
  // time, beside a server's UTC journal of the same calls: the calls both name give the zone
  const call = (file: string, source: Event['source'], ts: number, rpcMethod: string, rpcId: number): Event => ({
    ...emptyEvent({ file, line: ++line, source, format: 'fmt', kind: 'line', text: `${rpcMethod} ${rpcId}` }),
    ts,
    rpcMethod,
    rpcId,
  });
  const calls = (aheadMs: number, ids = [38, 39, 42]) => [
    ...ids.map((id, i) => call('docs-mcp-journal.txt', 'unknown', T0 + i * 47_000, 'resources/read', id)),
    ...ids.map((id, i) => call('cline-output.txt', 'client', T0 + i * 47_000 + aheadMs + 3, 'resources/read', id)),
  ];
  it('a host logging its calls in JST without any status is placed by the calls both files name', () => {
    expect(estimateZoneShifts(calls(9 * HOUR))).toEqual([{ file: 'cline-output.txt', shiftMs: -9 * HOUR, reference: 'docs-mcp-journal.txt', votes: 3 }]);
  });
  it('near miss: the same calls on one clock, or ids that name different calls in the two files, move nothing', () => {
    expect(estimateZoneShifts(calls(2_000))).toEqual([]);
    const other = [
      call('a.log', 'server', T0, 'tools/call', 1),
      call('a.log', 'server', T0 + 5000, 'tools/call', 2),
      call('b.log', 'client', T0 + 9 * HOUR, 'resources/read', 1),
      call('b.log', 'client', T0 + 9 * HOUR + 5000, 'resources/read', 2),
    ];
    expect(estimateZoneShifts(other)).toEqual([]);
  });
});
