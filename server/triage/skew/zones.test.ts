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
});
