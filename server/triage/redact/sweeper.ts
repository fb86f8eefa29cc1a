// A literal multi-value replacer for values collected elsewhere: session ids from pass 1,
// and secrets the rules already removed (so a password seen once in `password=…` is also
// removed where it later appears bare). Indexed by the first 6 characters: linear per line, and
// most positions skipped (Wu–Manber on the shortest value's length).
import type { Edit } from './editor.ts';

export interface SweepEntry {
  value: string;
  replacement: string;
  rule: string;
}

/** A literal multi-value replacer indexed by the first 6 characters (linear in the line length). */
export class LiteralSweeper {
  /**
   * First 6 characters → the values that start with them, keyed by exact text, and the distinct
   * lengths present (longest first). Secrets often share a vendor prefix (`sk-proj-`, `ghp_`):
   * a lookup costs one Map probe per distinct length, not one comparison per value, so sweeping
   * stays linear however many distinct secrets a file carries.
   */
  private byPrefix = new Map<string, { lengths: number[]; values: Map<string, SweepEntry> }>();
  readonly size = () => this.count;
  private count = 0;
  /** Hashes of the first 4 characters of every value: a position whose hash is unset cannot start one. */
  private heads = new Uint8Array(HEAD_SLOTS);
  /** The shortest value's length, and every value (to rebuild `shifts` when a shorter one comes). */
  private minLen = Infinity;
  private readonly values: string[] = [];
  /**
   * Wu–Manber skip table over the first minLen characters of every value, by the hash of 4
   * characters: for a window starting at i, the 4 characters ending it (at i + minLen - 4) hash to a
   * slot whose number says how far the next possible start is, at least. 0: i itself may start a
   * value. Collisions only make a skip shorter. Null: rebuild before the next sweep.
   */
  private shifts: Uint16Array | null = null;
  add(value: string, replacement: string, rule: string): void {
    if (value.length < 6) return;
    const p = value.slice(0, 6);
    let bucket = this.byPrefix.get(p);
    if (!bucket) this.byPrefix.set(p, (bucket = { lengths: [], values: new Map() }));
    if (bucket.values.has(value)) return;
    bucket.values.set(value, { value, replacement, rule });
    if (!bucket.lengths.includes(value.length)) {
      bucket.lengths.push(value.length);
      bucket.lengths.sort((a, b) => b - a); // longest spelling first
    }
    this.heads[headHash(value, 0)] = 1;
    this.count++;
    this.values.push(value);
    if (value.length < this.minLen) {
      this.minLen = value.length;
      this.shifts = null;
    } else if (this.shifts) this.addShifts(value);
  }
  private addShifts(value: string): void {
    const shifts = this.shifts!;
    const last = this.minLen - 4; // the last offset a 4-character block can have inside the first minLen characters
    for (let q = 0; q <= last; q++) {
      const h = headHash(value, q);
      if (last - q < shifts[h]!) shifts[h] = last - q;
    }
  }
  edits(text: string): Edit[] {
    if (this.count === 0 || text.length < 6) return [];
    const out: Edit[] = [];
    const heads = this.heads;
    const m = this.minLen;
    if (!this.shifts) {
      this.shifts = new Uint16Array(HEAD_SLOTS).fill(Math.min(m - 3, 0xffff)); // no value's block: the whole window can move past it
      for (const v of this.values) this.addShifts(v);
    }
    const shifts = this.shifts;
    // Positions a skip passes over start no value (see shifts); every other one is tested as before:
    // the leftmost value, the longest at one position, then on after it.
    for (let i = 0; i + m <= text.length; ) {
      const skip = shifts[headHash(text, i + m - 4)]!;
      if (skip > 0) {
        i += skip;
        continue;
      }
      if (heads[headHash(text, i)] === 0) {
        i++;
        continue;
      }
      const bucket = this.byPrefix.get(text.slice(i, i + 6));
      let hit: SweepEntry | undefined;
      if (bucket) {
        for (const len of bucket.lengths) {
          if (i + len > text.length) continue;
          const e = bucket.values.get(text.slice(i, i + len));
          if (e && boundaryOk(text, i, i + len, len)) {
            hit = e;
            break;
          }
        }
      }
      if (hit) {
        out.push({ start: i, end: i + hit.value.length, text: hit.replacement, rule: hit.rule });
        i += hit.value.length;
      } else i++;
    }
    return out;
  }
}

const HEAD_SLOTS = 1 << 16;
function headSum(s: string, i: number): number {
  return ((s.charCodeAt(i) * 31 + s.charCodeAt(i + 1)) * 31 + s.charCodeAt(i + 2)) * 31 + s.charCodeAt(i + 3);
}
function headHash(s: string, i: number): number {
  return headSum(s, i) & (HEAD_SLOTS - 1);
}

/** Short values must stand alone; long ones are unique enough to replace anywhere. */
export function boundaryOk(text: string, s: number, e: number, len: number): boolean {
  if (len >= 16) return true;
  return !isWordChar(text, s - 1) && !isWordChar(text, e);
}

function isWordChar(text: string, i: number): boolean {
  if (i < 0 || i >= text.length) return false;
  const c = text.charCodeAt(i);
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
