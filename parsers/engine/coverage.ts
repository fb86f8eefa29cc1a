// Per-line coverage: the share of a file's events that got a time, a level and a message.
// A file's format says what read its head; these shares say how much of every line was read,
// so a file whose format matched one line in three no longer looks "parsed".
import type { FileStats } from './parse-file.ts';

export interface CoverageRow {
  file: string;
  format: string;
  events: number;
  ts: number;
  level: number;
  message: number;
}

export function coverageRow(s: FileStats): CoverageRow {
  return { file: s.file, format: s.format, events: s.events, ...s.coverage };
}

/** The sum of rows (shares over all their events, so a big file weighs more than a small one). */
export function totalCoverage(rows: readonly CoverageRow[], file = 'OVERALL'): CoverageRow {
  const t: CoverageRow = { file, format: '', events: 0, ts: 0, level: 0, message: 0 };
  for (const r of rows) {
    t.events += r.events;
    t.ts += r.ts;
    t.level += r.level;
    t.message += r.message;
  }
  return t;
}

export function share(n: number, of: number): string {
  return of ? `${((n / of) * 100).toFixed(1)}%` : '-';
}

/** A fixed-width table: file, format, events, then the time / level / message shares. */
export function coverageTable(rows: readonly CoverageRow[], title = 'OVERALL'): string {
  const all = [...rows, totalCoverage(rows, title)];
  const w = Math.min(72, Math.max(8, ...all.map((r) => r.file.length)));
  const f = Math.max(6, ...all.map((r) => r.format.length));
  const line = (r: CoverageRow) =>
    `${r.file.length > w ? '…' + r.file.slice(-(w - 1)) : r.file.padEnd(w)}  ${r.format.padEnd(f)}  ${String(r.events).padStart(6)}  ${share(r.ts, r.events).padStart(6)}  ${share(r.level, r.events).padStart(6)}  ${share(r.message, r.events).padStart(7)}`;
  const head = `${'file'.padEnd(w)}  ${'format'.padEnd(f)}  ${'events'.padStart(6)}  ${'time'.padStart(6)}  ${'level'.padStart(6)}  ${'message'.padStart(7)}`;
  return [head, ...rows.map(line), line(all[all.length - 1]!)].join('\n');
}
