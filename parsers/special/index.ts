// Code-only formats: multi-line blocks a table cannot describe (tracebacks, Node errors).
// The engine asks each folder whether a line starts a block and whether the next lines
// continue it; the folded block becomes one event of kind "block".
// Their inner structure (the exception tree) is server/triage/exceptions/'s job.
import type { Level, Source } from '../contract/event.ts';

export interface BlockFolder {
  id: string;
  /** Which side usually writes it; the file's detected source wins when known. */
  source: Source;
  level: Level;
  /** Does this line open a block? */
  starts(line: string): boolean;
  /** Does `line` continue the block whose lines so far are `block`? Called with at most maxLines lines. */
  continues(line: string, block: readonly string[]): boolean;
  /** A one-line summary of a finished block (usually the last exception line). */
  summary(block: readonly string[]): string;
  /** Hard cap on lines in one block; the rest starts a new event. */
  maxLines: number;
  /**
   * Added (optional): may `line`, which does not continue the block, be held provisionally?
   * Used for blank lines inside chained tracebacks. The engine holds at most MAX_HELD such
   * lines; if a later line continues (asked with `block` + the held lines), the held lines
   * join the block; otherwise the block ends before them and they are processed as ordinary
   * lines. An engine that ignores this method folds chained tracebacks into several blocks.
   */
  provisional?(line: string, block: readonly string[]): boolean;
}

/** Most lines an engine holds provisionally before giving up on the block. */
export const MAX_HELD = 3;

export { pythonTraceback } from './python-traceback/folder.ts';
export { nodeError } from './node-error/folder.ts';
export { javaStack } from './java-stack/folder.ts';
import { pythonTraceback } from './python-traceback/folder.ts';
import { nodeError } from './node-error/folder.ts';
import { javaStack } from './java-stack/folder.ts';

/** Order matters: the first folder whose starts() accepts a line owns the block. */
export const blockFolders: readonly BlockFolder[] = [pythonTraceback, javaStack, nodeError];

export type Folded = { kind: 'block'; folder: BlockFolder; start: number; lines: string[] } | { kind: 'line'; index: number; line: string };

/**
 * Reference folding loop with the provisional-line semantics above (0-based indices).
 * The engine may use it directly or mirror it; tests and the corpus measurement use it.
 */
export function foldLines(lines: readonly string[], folders: readonly BlockFolder[] = blockFolders): Folded[] {
  const out: Folded[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const folder = folders.find((f) => f.starts(line));
    if (!folder) {
      out.push({ kind: 'line', index: i, line });
      i++;
      continue;
    }
    const block = [line];
    const start = i;
    let held: string[] = [];
    i++;
    while (i < lines.length && block.length + held.length < folder.maxLines) {
      const next = lines[i]!;
      const sofar = held.length ? [...block, ...held] : block;
      if (folder.continues(next, sofar)) {
        block.push(...held, next);
        held = [];
        i++;
      } else if (held.length < MAX_HELD && folder.provisional?.(next, sofar)) {
        held.push(next);
        i++;
      } else break;
    }
    i -= held.length; // held lines were not part of the block: process them again
    out.push({ kind: 'block', folder, start, lines: block });
  }
  return out;
}
