// Dispatch `mcp-triage <command>`; map errors to exit codes (1 unusable input, 2 internal).
import type { CliIO, Command } from './command.ts';
import { TriageError } from '../errors.ts';
import { analyzeCommand } from './commands/analyze.ts';
import { formatsCommand } from './commands/formats.ts';
import { probeCommand } from './commands/probe.ts';
import { purgeCommand } from './commands/purge.ts';
import { redactCommand } from './commands/redact.ts';
import { reportCommand } from './commands/report.ts';
import { serveCommand } from './commands/serve.ts';
import { timelineCommand } from './commands/timeline.ts';

export function commands(): Command[] {
  return [analyzeCommand, formatsCommand, probeCommand, purgeCommand, redactCommand, reportCommand, serveCommand, timelineCommand];
}

function usage(cmds: Command[]): string {
  const w = Math.max(...cmds.map((c) => c.name.length));
  return [
    'mcp-triage — triage a broken remote MCP connection from client, proxy and server logs',
    '',
    'Usage: mcp-triage <command> [options]',
    '',
    'Commands:',
    ...cmds.map((c) => `  ${c.name.padEnd(w)}  ${c.summary}`),
    '',
    'Run `mcp-triage <command> --help` for its options.',
    'Workspace: $MCP_TRIAGE_HOME, else $XDG_DATA_HOME/mcp-triage, else ~/.local/share/mcp-triage.',
  ].join('\n');
}

export async function main(argv: string[], io: CliIO = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, cwd: process.cwd(), env: process.env }): Promise<number> {
  try {
    const cmds = commands();
    const [name, ...rest] = argv;
    if (!name || name === '--help' || name === '-h' || name === 'help') {
      io.stdout.write(usage(cmds) + '\n');
      return name ? 0 : 1;
    }
    if (name === '--version') {
      io.stdout.write('0.1.0\n');
      return 0;
    }
    const cmd = cmds.find((c) => c.name === name);
    if (!cmd) throw new TriageError('TRIAGE_ERR_USAGE', `unknown command "${name}"; commands: ${cmds.map((c) => c.name).join(', ')}`);
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout.write(cmd.help.trimEnd() + '\n');
      return 0;
    }
    return await cmd.run(rest, io);
  } catch (e) {
    if (e instanceof TriageError) {
      io.stderr.write(`mcp-triage: ${e.message}\n`);
      return e.exitCode;
    }
    io.stderr.write(`mcp-triage: internal error: ${(e as Error).stack ?? e}\nPlease report it with the command you ran.\n`);
    return 2;
  }
}
