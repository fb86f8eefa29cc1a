// One module per command under commands/; main.ts dispatches by name.
import type { Readable, Writable } from 'node:stream';

export interface CliIO {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export interface Command {
  name: string;
  /** One line for `mcp-triage --help`. */
  summary: string;
  /** Full text for `mcp-triage NAME --help`. */
  help: string;
  /** Returns the exit code (0 ok, 1 unusable input, 2 internal, 3 probe step failed). Throw TriageError for 1/2. */
  run(args: string[], io: CliIO): Promise<number>;
}
