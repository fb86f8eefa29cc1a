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
   * Apply non-overlapping edits (any order). Overlaps: the first one wins. A new edit that
   * swallows earlier remarks removes them and inherits their original lengths.
   */
  apply(edits: Edit[]): void {
    if (edits.length === 0) return;
    const sorted = [...edits].sort((a, b) => a.start - b.start || b.end - a.end);
    const kept: Edit[] = [];
    let lastEnd = -1;
    for (const e of sorted) {
      if (e.start < lastEnd) continue;
      kept.push(e);
      lastEnd = e.end;
    }
    for (let i = kept.length - 1; i >= 0; i--) this.replace(kept[i]!);
  }

  private replace(e: Edit): void {
    const delta = e.text.length - (e.end - e.start);
    let original = e.originalLength ?? e.end - e.start;
    const next: Remark[] = [];
    for (const r of this.remarks) {
      if (r.end <= e.start) next.push(r);
      else if (r.start >= e.end) next.push({ ...r, start: r.start + delta, end: r.end + delta });
      else if (e.originalLength === undefined) original += r.originalLength - (r.end - r.start); // swallowed
    }
    next.push({ rule: e.rule, start: e.start, end: e.start + e.text.length, originalLength: original, ...(e.info ? { info: e.info } : {}) });
    this.remarks = next.sort((a, b) => a.start - b.start);
    this.frozen = this.frozen.map(([s, en]) => (s >= e.end ? [s + delta, en + delta] : en > e.start ? [s, en + delta] : [s, en]));
    this.text = this.text.slice(0, e.start) + e.text + this.text.slice(e.end);
  }
}
