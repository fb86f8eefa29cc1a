// Dispatch `mcp-triage <command>`; map errors to exit codes (1 unusable input, 2 internal).
//
// Start-up cost: this file and the command table load nothing heavy. A command's module is
// imported only when that command runs (or prints its --help), and each command imports DuckDB,
// fastify, Arrow and the MCP SDK only after its arguments are checked (see commands/*.ts). So
// `--help`, `--version`, `<command> --help`, `formats` and argument errors never load them
// (server/cli/lazy.test.ts proves it against the built CLI).
import type { CliIO, Command } from './command.ts';
import { TriageError } from '../errors.ts';

/** A command as the table knows it before its module is loaded. */
export interface CommandEntry {
  name: string;
  /** One line for `mcp-triage --help`; the same as the loaded Command's (a test holds them equal). */
  summary: string;
  load: () => Promise<Command>;
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'analyze', summary: 'ingest logs, correlate them and decide what to do next', load: async () => (await import('./commands/analyze.ts')).analyzeCommand },
  {
    name: 'export',
    summary: 'write a stored incident as Parquet files (events, failures, spans), redacted like every exit',
    load: async () => (await import('./commands/export.ts')).exportCommand,
  },
  {
    name: 'failures',
    summary: 'list failures across stored incidents, by decision, rule, signal and age',
    load: async () => (await import('./commands/failures.ts')).failuresCommand,
  },
  { name: 'formats', summary: 'list the log formats, or explain which format matches a file and why', load: async () => (await import('./commands/formats.ts')).formatsCommand },
  {
    name: 'probe',
    summary: 'verify a live MCP endpoint with fresh connections and, if asked, one read-only call',
    load: async () => (await import('./commands/probe.ts')).probeCommand,
  },
  { name: 'purge', summary: 'delete the workspace (database and pseudonymisation key) after confirming', load: async () => (await import('./commands/purge.ts')).purgeCommand },
  { name: 'redact', summary: 'remove secrets and pseudonymise session ids in log files, line for line', load: async () => (await import('./commands/redact.ts')).redactCommand },
  { name: 'report', summary: 'write the redacted public issue report (Markdown) for a set of logs', load: async () => (await import('./commands/report.ts')).reportCommand },
  { name: 'serve', summary: 'start the web UI and HTTP API (127.0.0.1:8765 by default)', load: async () => (await import('./commands/serve.ts')).serveCommand },
  { name: 'timeline', summary: 'print the merged, correlated timeline of the logs for a terminal', load: async () => (await import('./commands/timeline.ts')).timelineCommand },
];

/** Every command, loaded (for tests and tools; the CLI itself loads only the one it runs). */
export async function commands(): Promise<Command[]> {
  return Promise.all(COMMANDS.map((c) => c.load()));
}

function usage(cmds: readonly CommandEntry[]): string {
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

export async function main(
  argv: string[],
  io: CliIO = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, cwd: process.cwd(), env: process.env },
): Promise<number> {
  try {
    const [name, ...rest] = argv;
    if (!name || name === '--help' || name === '-h' || name === 'help') {
      io.stdout.write(usage(COMMANDS) + '\n');
      return name ? 0 : 1;
    }
    if (name === '--version') {
      io.stdout.write('0.1.0\n');
      return 0;
    }
    const entry = COMMANDS.find((c) => c.name === name);
    if (!entry) throw new TriageError('TRIAGE_ERR_USAGE', `unknown command "${name}"; commands: ${COMMANDS.map((c) => c.name).join(', ')}`);
    const cmd = await entry.load();
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
