// A literal multi-value replacer for values collected elsewhere: session ids from pass 1,
// and secrets the rules already removed (so a password seen once in `password=…` is also
// removed where it later appears bare). Indexed by the first 6 characters: linear per line.
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
  }
  edits(text: string): Edit[] {
    if (this.count === 0 || text.length < 6) return [];
    const out: Edit[] = [];
    const heads = this.heads;
    // headHash(text, i), rolled from position to position (exact: the unmasked sum stays below 2^31).
    let h = -1;
    for (let i = 0; i + 6 <= text.length; ) {
      h = h < 0 ? headSum(text, i) : (h - text.charCodeAt(i - 1) * 29791) * 31 + text.charCodeAt(i + 3);
      if (heads[h & (HEAD_SLOTS - 1)] === 0) {
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
        h = -1;
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
