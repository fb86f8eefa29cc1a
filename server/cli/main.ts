// Dispatch `mcp-triage <command>`; map errors to exit codes (1 unusable input, 2 internal).
import { existsSync } from 'node:fs';
import type { CliIO, Command } from './command.ts';
import { TriageError } from '../errors.ts';
import { analyzeCommand } from './commands/analyze.ts';
import { formatsCommand } from './commands/formats.ts';
import { serveCommand } from './commands/serve.ts';

// Commands that other work adds (redact, report, timeline, probe, purge) are picked up when their file exists.
async function optional(path: string): Promise<Command | null> {
  if (!existsSync(new URL(path, import.meta.url))) return null;
  const m = (await import(path)) as Record<string, unknown>;
  return (Object.values(m).find((v) => v && typeof v === 'object' && 'run' in (v as object)) as Command) ?? null;
}

export async function commands(): Promise<Command[]> {
  const extra = await Promise.all(['./commands/redact.ts', './commands/report.ts', './commands/timeline.ts', './commands/probe.ts', './commands/purge.ts'].map(optional));
  return [analyzeCommand, ...extra.filter((c): c is Command => c !== null), serveCommand, formatsCommand].sort((a, b) => a.name.localeCompare(b.name));
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
    const cmds = await commands();
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
