import { existsSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from '../args.ts';
import type { Command } from '../command.ts';
import { resolveWorkspace } from '../../workspace.ts';

export const purgeCommand: Command = {
  name: 'purge',
  summary: 'delete the workspace (database and pseudonymisation key) after confirming',
  help: `Usage: mcp-triage purge [--yes]

Deletes the workspace folder: the DuckDB database with every incident, and the pseudonymisation
key (old pseudonyms become unlinkable). Asks for confirmation unless --yes is given.`,
  async run(args, io) {
    const a = parseArgs('purge', args, { yes: { type: 'boolean' } });
    const ws = resolveWorkspace({ env: io.env });
    if (!existsSync(ws.dir)) {
      io.stderr.write(`nothing to purge: ${ws.dir} does not exist\n`);
      return 0;
    }
    if (!a.options.yes) {
      if (!(io.stdin as NodeJS.ReadStream).isTTY) {
        io.stderr.write(`not deleted: confirm with --yes when not at a terminal (would delete ${ws.dir})\n`);
        return 1;
      }
      const rl = createInterface({ input: io.stdin, output: io.stderr });
      const answer = (await rl.question(`Delete ${ws.dir} (all incidents and the pseudonym key)? Type "yes": `)).trim();
      rl.close();
      if (answer !== 'yes') {
        io.stderr.write('not deleted\n');
        return 1;
      }
    }
    rmSync(ws.dir, { recursive: true, force: true });
    io.stderr.write(`deleted ${ws.dir}\n`);
    return 0;
  },
};
