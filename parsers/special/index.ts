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
}

export { pythonTraceback } from './python-traceback/folder.ts';
export { nodeError } from './node-error/folder.ts';
import { pythonTraceback } from './python-traceback/folder.ts';
import { nodeError } from './node-error/folder.ts';

export const blockFolders: readonly BlockFolder[] = [pythonTraceback, nodeError];
