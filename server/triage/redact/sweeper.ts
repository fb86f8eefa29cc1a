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
  private byPrefix = new Map<string, SweepEntry[]>();
  readonly size = () => this.count;
  private count = 0;
  private seen = new Set<string>();
  add(value: string, replacement: string, rule: string): void {
    if (value.length < 6 || this.seen.has(value)) return;
    this.seen.add(value);
    const p = value.slice(0, 6);
    const list = this.byPrefix.get(p) ?? [];
    list.push({ value, replacement, rule });
    list.sort((a, b) => b.value.length - a.value.length); // longest spelling first
    this.byPrefix.set(p, list);
    this.count++;
  }
  edits(text: string): Edit[] {
    if (this.count === 0 || text.length < 6) return [];
    const out: Edit[] = [];
    for (let i = 0; i + 6 <= text.length; ) {
      const list = this.byPrefix.get(text.slice(i, i + 6));
      const hit = list?.find((e) => text.startsWith(e.value, i) && boundaryOk(text, i, i + e.value.length, e.value.length));
      if (hit) {
        out.push({ start: i, end: i + hit.value.length, text: hit.replacement, rule: hit.rule });
        i += hit.value.length;
      } else i++;
    }
    return out;
  }
}

/** Short values must stand alone; long ones are unique enough to replace anywhere. */
export function boundaryOk(text: string, s: number, e: number, len: number): boolean {
  if (len >= 16) return true;
  const isW = (c: string | undefined) => c !== undefined && /[A-Za-z0-9]/.test(c);
  return !isW(text[s - 1]) && !isW(text[e]);
}

