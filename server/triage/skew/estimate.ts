// Per-file clock offsets, estimated from requests that strong keys (x-request-id, session+rpcId)
// tie together across files — never from joins that themselves assumed the clocks agree.
// Stored timestamps are never rewritten: the offsets are reported beside them, and a reader
// (UI toggle, timeline) may apply them.
import type { Event } from '../../../parsers/contract/event.ts';
import type { SpanBuild } from '../correlate/spans.ts';

export interface ClockOffset {
  file: string;
  /** Add this to the file's timestamps to put them on the reference file's clock. */
  offsetMs: number;
  /** The file whose clock the offset is measured against. */
  reference: string;
  /** Requests that gave a measurement. */
  pairs: number;
  /** Median absolute deviation of the measurements: how much to trust the offset. */
  spreadMs: number;
}

const STRONG = new Set(['x-request-id', 'session+rpcId']);
const MIN_PAIRS = 3;

/** Sub-second timestamps: a clock we can measure against (nginx `combined` logs whole seconds). */
function fine(events: readonly Event[]): boolean {
  let n = 0;
  let whole = 0;
  for (const e of events) {
    if (e.ts === null) continue;
    n++;
    if (e.ts % 1000 === 0) whole++;
  }
  return n > 0 && whole / n < 0.5;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * Each strongly joined request contributes, per pair of files, the difference between the last
 * line each file logged for it (access logs, server completion lines and client exchange lines
 * are all written when the response ends, so the true difference is a few milliseconds).
 */
export function estimateOffsets(spans: readonly SpanBuild[]): ClockOffset[] {
  const strong = spans.filter((s) => [...s.joinedBy].some((k) => STRONG.has(k)));
  const byFile = new Map<string, Event[]>();
  for (const s of strong) for (const e of s.events) if (e.ts !== null) (byFile.get(e.file) ?? byFile.set(e.file, []).get(e.file)!).push(e);
  const candidates = [...byFile.entries()].filter(([, evs]) => fine(evs));
  if (candidates.length < 2) return [];
  // Reference: a proxy file if one has a fine clock (it sits in the middle of the path), else the busiest file.
  candidates.sort((a, b) => Number(b[1][0]!.source === 'proxy') - Number(a[1][0]!.source === 'proxy') || b[1].length - a[1].length);
  const reference = candidates[0]![0];
  const out: ClockOffset[] = [];
  // Whole-second logs (nginx `combined`) cannot be placed to better than a second: not reported.
  for (const [file] of candidates) {
    if (file === reference) continue;
    const deltas: number[] = [];
    for (const s of strong) {
      let ref: number | null = null;
      let other: number | null = null;
      for (const e of s.events) {
        if (e.ts === null) continue;
        if (e.file === reference) ref = Math.max(ref ?? -Infinity, e.ts);
        else if (e.file === file) other = Math.max(other ?? -Infinity, e.ts);
      }
      if (ref !== null && other !== null) deltas.push(ref - other);
    }
    if (deltas.length < MIN_PAIRS) continue;
    const offset = median(deltas);
    // (`|| 0`: a median of -0.4 rounds to -0, which JSON writes as 0 and a reader compares as different)
    out.push({ file, offsetMs: Math.round(offset) || 0, reference, pairs: deltas.length, spreadMs: Math.round(median(deltas.map((d) => Math.abs(d - offset)))) });
  }
  return out.sort((a, b) => a.file.localeCompare(b.file));
}
