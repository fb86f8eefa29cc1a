// Files written in another time zone. A timestamp without a zone is read as UTC (parsers/engine/timestamp.ts),
// so a desktop client logging local time (`2026-09-14 08:46:58.379 [error] …`) sits whole hours away from
// the proxy and server that log UTC (or a proxy logs local time beside a client that writes its offset), and nothing
// joins it by time. The zone is found from the answers the files share: the same status (and method, where both
// name it) logged in both, again and again the same whole quarter-hour apart (zones are whole quarter-hours from
// UTC), give that file's zone against the reference's. The analysis
// then reads that file's times shifted by it; stored timestamps are never rewritten (skew/estimate.ts).
import type { Event } from '../../../parsers/contract/event.ts';

export interface ZoneShift {
  file: string;
  /** Add this to the file's timestamps to put them on the reference file's clock (a whole quarter-hour). */
  shiftMs: number;
  /** The file whose clock the shift is measured against. */
  reference: string;
  /** Failures of the file that met a failure of the same status in the reference at exactly that distance. */
  votes: number;
}

const QUARTER_HOUR = 15 * 60_000;
/** UTC−12 … UTC+14, in quarter-hours. */
const MAX_QUARTERS = 14 * 4;
/** How far from a whole quarter-hour two lines of one failure may be (the files' clocks also drift a little). */
const TOLERANCE_MS = 3_000;
/** Failures that must agree: one coincidence is not a zone. */
const MIN_VOTES = 2;
/** Error lines looked at per file (enough to vote; a day of logs does not need all of them). */
const MAX_ANCHORS = 500;

/** Proxies and servers in containers log UTC far more often than a desktop client: they are the reference first. */
const RANK: Record<string, number> = { proxy: 0, server: 1, unknown: 2, client: 3 };

/** Lines that time an HTTP answer: every error status, and the other answers that name their method too. */
function anchors(events: readonly Event[]): Map<string, Event[]> {
  const out = new Map<string, Event[]>();
  for (const e of events) {
    if (e.ts === null || e.httpStatus === null || (e.httpStatus < 400 && e.httpMethod === null)) continue;
    const list = out.get(e.file) ?? out.set(e.file, []).get(e.file)!;
    if (list.length < MAX_ANCHORS) list.push(e);
  }
  return out;
}

/** Lines that name a call by its method and JSON-RPC id (not initialize, whose id every client starts from, nor a notification). */
function callAnchors(events: readonly Event[]): Map<string, Event[]> {
  const out = new Map<string, Event[]>();
  for (const e of events) {
    if (e.ts === null || e.rpcId === null || e.rpcMethod === null || e.rpcMethod === 'initialize' || e.rpcMethod.startsWith('notifications/')) continue;
    const list = out.get(e.file) ?? out.set(e.file, []).get(e.file)!;
    if (list.length < MAX_ANCHORS) list.push(e);
  }
  return out;
}
const callOf = (e: Event) => `${e.rpcMethod}\u0000${JSON.stringify(e.rpcId)}`;

/**
 * The files that sit whole quarter-hours (at least half an hour) away from the reference: for each error line of
 * the file, the quarter-hours at which the reference has an error line of the same status (within a few seconds);
 * the file's zone is the distance most of its error lines agree on — at least two, at least twice as many as
 * agree on any other distance or on none.
 */
export function estimateZoneShifts(events: readonly Event[]): ZoneShift[] {
  const byFile = anchors(events);
  const calls = callAnchors(events);
  if (new Set([...byFile.keys(), ...calls.keys()]).size < 2) return [];
  const sourceOf = new Map(events.map((e) => [e.file, e.source]));
  // (the reference among the files that log answers; where fewer than two do, among those that name their calls)
  const pool = byFile.size >= 2 ? byFile : calls;
  const count = (f: string) => (byFile.get(f)?.length ?? 0) + (calls.get(f)?.length ?? 0);
  const files = [...pool.keys()].sort((a, b) => (RANK[sourceOf.get(a) ?? 'unknown'] ?? 2) - (RANK[sourceOf.get(b) ?? 'unknown'] ?? 2) || count(b) - count(a) || a.localeCompare(b));
  const reference = files[0]!;
  const others = [...new Set([...files, ...byFile.keys(), ...calls.keys()])].filter((f) => f !== reference);
  // (the reference's calls by method and id: a call another file names by the same method and id is the same call)
  const refCalls = new Map<string, number[]>();
  for (const e of calls.get(reference) ?? []) (refCalls.get(callOf(e)) ?? refCalls.set(callOf(e), []).get(callOf(e))!).push(e.ts!);
  // (the reference's answers by status, each at its stamp and — for a proxy stamping when the request came in, HAProxy's
  // accept date — at its stamp plus its duration, when the answer went out)
  const refByStatus = new Map<number, { ts: number; method: string | null }[]>();
  for (const e of byFile.get(reference) ?? []) {
    const list = refByStatus.get(e.httpStatus!) ?? refByStatus.set(e.httpStatus!, []).get(e.httpStatus!)!;
    list.push({ ts: e.ts!, method: e.httpMethod });
    if (e.durationMs !== null && e.durationMs > 0) list.push({ ts: e.ts! + e.durationMs, method: e.httpMethod });
  }
  const out: ZoneShift[] = [];
  for (const file of others) {
    const votes = new Map<number, number>();
    const vote = (seen: Set<number>, d: number) => {
      const q = Math.round(d / QUARTER_HOUR);
      if (Math.abs(q) > MAX_QUARTERS || Math.abs(d - q * QUARTER_HOUR) > TOLERANCE_MS || seen.has(q)) return;
      seen.add(q);
      votes.set(q, (votes.get(q) ?? 0) + 1);
    };
    // each call both files name votes once per distance, however many lines name it
    const byCall = new Map<string, Set<number>>();
    for (const e of calls.get(file) ?? []) {
      const k = callOf(e);
      const seen = byCall.get(k) ?? byCall.set(k, new Set()).get(k)!;
      for (const ts of refCalls.get(k) ?? []) vote(seen, ts - e.ts!);
    }
    for (const e of byFile.get(file) ?? []) {
      // (each line votes once per distance, however many reference lines sit there)
      const seen = new Set<number>();
      for (const r of refByStatus.get(e.httpStatus!) ?? []) {
        if (r.method !== null && e.httpMethod !== null && r.method !== e.httpMethod) continue;
        vote(seen, r.ts - e.ts!);
      }
    }
    const ranked = [...votes.entries()].sort((a, b) => b[1] - a[1]);
    const [best, second] = ranked;
    if (!best || Math.abs(best[0]) < 2 || best[1] < MIN_VOTES) continue;
    if (second && best[1] < 2 * second[1]) continue;
    out.push({ file, shiftMs: best[0] * QUARTER_HOUR, reference, votes: best[1] });
  }
  return out;
}

/** The events with each shifted file's times moved onto the reference clock (the same objects where nothing moves). */
export function applyZoneShifts(events: Event[], shifts: readonly ZoneShift[]): Event[] {
  if (shifts.length === 0) return events;
  const by = new Map(shifts.map((s) => [s.file, s.shiftMs]));
  return events.map((e) => {
    const s = by.get(e.file);
    return s === undefined || e.ts === null ? e : { ...e, ts: e.ts + s };
  });
}
