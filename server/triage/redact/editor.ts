// A string being rewritten plus the remarks that explain each rewrite (Sentry relay style:
// every change leaves {rule, range, original length}). Offsets of remarks are kept in the
// coordinates of the CURRENT text, so a report can highlight what was replaced.
import type { Remark } from './types.ts';

export interface Edit {
  start: number;
  end: number;
  text: string;
  rule: string;
  /** Raw length when it differs from end-start (e.g. a nested rewrite). */
  originalLength?: number;
  info?: Remark['info'];
}

export class Editor {
  text: string;
  remarks: Remark[] = [];
  /** Ranges a structural pass already handled completely; later regex passes leave them alone. */
  frozen: Array<[number, number]> = [];

  constructor(text: string) {
    this.text = text;
  }

  isFrozen(start: number, end: number): boolean {
    for (const [s, e] of this.frozen) if (start < e && end > s) return true;
    return false;
  }

  /** Inside a replacement we already made (a placeholder or pseudonym): do not redact it again. */
  insideRemark(start: number, end: number): boolean {
    for (const r of this.remarks) if (start >= r.start && end <= r.end) return true;
    return false;
  }

  /**
   * Apply edits in one pass (linear: a line with 15k matches must not go quadratic).
   * Overlaps: the first (leftmost, then longest) wins. A new edit that swallows earlier
   * remarks removes them and inherits their original lengths.
   */
  apply(edits: Edit[]): void {
    if (edits.length === 0) return;
    const sorted = edits.length === 1 ? edits : [...edits].sort(byStartThenLongest);
    const kept: Edit[] = [];
    let lastEnd = -1;
    for (const e of sorted) {
      if (e.start < lastEnd) continue;
      kept.push(e);
      lastEnd = e.end;
    }
    const old = this.remarks;
    const next: Remark[] = [];
    const parts: string[] = [];
    let pos = 0;
    let delta = 0;
    let ri = 0;
    const shifts: Array<[number, number]> = []; // [old end of edit, cumulative delta after it]
    for (const e of kept) {
      while (ri < old.length && old[ri]!.end <= e.start) {
        const r = old[ri++]!;
        next.push({ ...r, start: r.start + delta, end: r.end + delta });
      }
      let original = e.originalLength ?? e.end - e.start;
      while (ri < old.length && old[ri]!.start < e.end) {
        const r = old[ri++]!;
        if (e.originalLength === undefined) original += r.originalLength - (r.end - r.start); // swallowed
      }
      parts.push(this.text.slice(pos, e.start), e.text);
      const ns = e.start + delta;
      next.push({ rule: e.rule, start: ns, end: ns + e.text.length, originalLength: original, ...(e.info ? { info: e.info } : {}) });
      delta += e.text.length - (e.end - e.start);
      shifts.push([e.end, delta]);
      pos = e.end;
    }
    while (ri < old.length) {
      const r = old[ri++]!;
      next.push({ ...r, start: r.start + delta, end: r.end + delta });
    }
    parts.push(this.text.slice(pos));
    if (this.frozen.length) this.frozen = this.frozen.map(([a, b]) => [shifted(shifts, a), shifted(shifts, b)]);
    this.remarks = next;
    this.text = parts.join('');
  }
}

// Module-level, not closures made per call: tsx's keepNames turns each into a defineProperty.
const byStartThenLongest = (a: Edit, b: Edit) => a.start - b.start || b.end - a.end;

/** Where offset x of the old text lands after the edits (shifts: [old end of edit, delta after it]). */
function shifted(shifts: ReadonlyArray<[number, number]>, x: number): number {
  let d = 0;
  for (const [end, cum] of shifts) if (end <= x) d = cum;
  return x + d;
}
