import { existsSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from '../args.ts';
import type { Command } from '../command.ts';
import { TriageError } from '../../errors.ts';
import { resolveWorkspace } from '../../workspace.ts';
import { acquireWorkspaceLock, describeHolder } from '../../workspace-lock.ts';

export const purgeCommand: Command = {
  name: 'purge',
  summary: 'delete the workspace (database and pseudonymisation key) after confirming',
  help: `Usage: mcp-triage purge [--yes]

Deletes the workspace folder: the DuckDB database with every incident, and the pseudonymisation
key (old pseudonyms become unlinkable). Asks for confirmation unless --yes is given.

Refuses (exit 1, naming the PID) while a serve owns the workspace (its workspace.lock) or another
process has the workspace database open (e.g. a running analyze --db): stop that first. A lock
left behind by a killed serve is taken over with a note.`,
  async run(args, io) {
    const a = parseArgs('purge', args, { yes: { type: 'boolean' } });
    const ws = resolveWorkspace({ env: io.env });
    if (!existsSync(ws.dir)) {
      io.stderr.write(`nothing to purge: ${ws.dir} does not exist\n`);
      return 0;
    }
    // Take the lock ourselves (not just look at it): a serve starting while we delete is refused.
    const lock = acquireWorkspaceLock(ws.dir, {
      command: 'purge',
      busyMessage: (h) => `purge: not deleted: ${ws.dir} is in use by ${describeHolder(h)}; stop it first (Ctrl-C in its terminal, or kill ${h.pid}), then run purge again`,
    });
    try {
      if (lock.note) io.stderr.write(`mcp-triage: note: ${lock.note}\n`);
      const { databaseHolder } = await import('../../store/store.ts'); // DuckDB: only once the lock is ours
      const holder = await databaseHolder(ws.dbPath);
      if (holder)
        throw new TriageError(
          'TRIAGE_ERR_BUSY',
          `purge: not deleted: another process${holder.pid ? ` (PID ${holder.pid})` : ''} has the database ${ws.dbPath} open, e.g. an analyze --db still running; let it finish or stop it, then run purge again`,
        );
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
    } finally {
      lock.release();
    }
  },
};
