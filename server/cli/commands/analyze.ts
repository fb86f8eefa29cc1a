import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs, type Parsed } from '../args.ts';
import type { CliIO, Command } from '../command.ts';
import { entriesFromPaths, type InputEntry } from '../../ingest/inputs.ts';
import type { StoreTarget } from '../../store/clickhouse/target.ts';
import { workspaceDir } from '../../workspace.ts';
import { TriageError } from '../../errors.ts';
import { STORE_HELP, STORE_OPTIONS, storeChoice } from '../store-option.ts';
// The ingest (DuckDB, zod) is imported in run(), once the arguments and paths are checked: --help
// and a wrong option or path stay fast (main.ts).

/** Above this much input, the default database is a temporary file (it spills; memory does not). */
const SPILL_BYTES = 16 * 1024 * 1024;

export const analyzeCommand: Command = {
  name: 'analyze',
  summary: 'ingest logs, correlate them and decide what to do next',
  help: `Usage: mcp-triage analyze PATH… [--json] [--db FILE] [--key-file FILE] [--strict]
       mcp-triage analyze PATH… --store URL [--incident ID] [--json]   (a shared ClickHouse store)

Ingests files, folders or .gz files, detects each file's format and source (client, proxy,
server), correlates requests across them, finds the first exception and decides:
retry · reinitialize · fix_route_or_config · fix_auth · read_result_no_repeat ·
check_write_then_escalate · escalate · no_action — with the rule and the evidence lines.

Options:
  --json           print the Analysis document (schemaVersion 1) on stdout
  --db FILE        keep the ingest in this DuckDB file (default: an in-memory database, or for
                   inputs over 16 MiB (on disk) a private temporary file, deleted afterwards, so memory
                   stays bounded: an in-memory database cannot spill to disk)
  --strict         redact everything before storage, as a report would be (default: standard —
                   session ids and credentials before storage, personal and business data at every
                   exit: report, redact, exports). The mode is printed and in --json as privacyMode
  --key-file FILE  pseudonymisation key (default: the workspace key, so pseudonyms agree across runs)
${STORE_HELP}

With a store, the incident is analysed exactly as without one, kept there (strictly redacted) and its
id printed on stderr; --incident ID adds the PATHs to that incident (files it holds are skipped),
or without PATHs prints its stored analysis.

Progress goes to stderr: on a terminal one line with the phase, file, percent, MiB/s and
time left; otherwise one line per file parsed. A file that is not a log (empty, binary, a damaged
archive, a README, our own analysis output) is skipped with one "skipped FILE: why" line on stderr
and listed under "skipped" in --json. Exit codes: 0 analysed (whatever was diagnosed), 1 unusable
input (also when no input is a log: one line on stderr, nothing on stdout), 2 internal error.

Example:
  mcp-triage analyze samples/restart-stale-session --json | jq .decision`,
  async run(args, io) {
    const a = parseArgs('analyze', args, { json: { type: 'boolean' }, db: { type: 'string' }, 'key-file': { type: 'string' }, strict: { type: 'boolean' }, ...STORE_OPTIONS });
    const shared = storeChoice('analyze', a, io.env);
    if (!a.positionals.length && !shared.incident)
      throw new TriageError('TRIAGE_ERR_USAGE', 'analyze: give at least one PATH (a log file, a folder or a .gz); see mcp-triage analyze --help');
    const paths = a.positionals.map((p) => resolve(io.cwd, p));
    const entries = paths.length ? entriesFromPaths(paths) : [];
    if (shared.target) return analyzeShared(shared.target, shared.incident, a, paths, entries, io);
    const [{ ingestIncident, openContext }, { loadToolPolicy }, { renderAnalysis }, { printSkipped, progressPrinter }] = await Promise.all([
      import('../../incidents.ts'),
      import('../../triage/classify/policy.ts'),
      import('../render.ts'),
      import('../progress.ts'),
    ]);
    const toolPolicy = loadToolPolicy(paths, workspaceDir(io.env));
    const given = a.options.db as string | undefined;
    const total = entries.reduce((n, e) => n + e.size, 0);
    const scratch = !given && total > SPILL_BYTES ? mkdtempSync(join(tmpdir(), 'mcp-triage-analyze-')) : null;
    if (scratch) chmodSync(scratch, 0o700);
    const db = given ?? (scratch ? join(scratch, 'analyze.duckdb') : ':memory:');
    const ctx = await openContext({ env: io.env, db, keyFile: a.options['key-file'] as string | undefined }).catch((e) => {
      if (scratch) rmSync(scratch, { recursive: true, force: true });
      throw e;
    });
    try {
      const name = a.positionals.map((p) => basename(p)).join(', ');
      const { analysis, skippedFiles } = await ingestIncident(ctx, entries, {
        toolPolicy,
        name,
        onProgress: progressPrinter(io.stderr),
        mode: a.options.strict ? 'strict' : 'standard',
      });
      printSkipped(io.stderr, skippedFiles);
      io.stdout.write(a.options.json ? JSON.stringify(analysis, null, 2) + '\n' : renderAnalysis(analysis, { color: (io.stdout as NodeJS.WriteStream).isTTY === true }));
      return 0;
    } finally {
      await ctx.store.close();
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    }
  },
};

/** analyze with a shared store (issue #20): the same analysis, kept in ClickHouse; the document printed is the stored one. */
async function analyzeShared(target: StoreTarget, incident: string | null, a: Parsed, paths: string[], entries: InputEntry[], io: CliIO): Promise<number> {
  const [{ openShared }, { loadToolPolicy }, { renderAnalysis }, { printSkipped, progressPrinter }] = await Promise.all([
    import('../../store/clickhouse/open.ts'),
    import('../../triage/classify/policy.ts'),
    import('../render.ts'),
    import('../progress.ts'),
  ]);
  const { store, keys } = await openShared(target, { env: io.env, keyFile: a.options['key-file'] as string | undefined });
  try {
    let analysis;
    if (entries.length || !incident) {
      const toolPolicy = loadToolPolicy(paths, workspaceDir(io.env));
      const name = a.positionals.map((p) => basename(p)).join(', ');
      const r = await store.ingest(keys, entries, { ...(incident ? { id: incident } : {}), toolPolicy, name, onProgress: progressPrinter(io.stderr) });
      printSkipped(io.stderr, r.skippedFiles);
      io.stderr.write(incident ? `added ${r.added} file(s) to ${r.id} (${r.skipped} already held) in ${target.display}\n` : `stored as ${r.id} in ${target.display}\n`);
      analysis = r.analysis;
    } else {
      analysis = await store.analysis(incident);
      if (!analysis) throw new TriageError('TRIAGE_ERR_NOT_FOUND', `analyze: no incident ${incident} in ${target.display}`);
    }
    io.stdout.write(a.options.json ? JSON.stringify(analysis, null, 2) + '\n' : renderAnalysis(analysis, { color: (io.stdout as NodeJS.WriteStream).isTTY === true }));
    return 0;
  } finally {
    await store.close();
  }
}
