import { resolve } from 'node:path';
import { parseArgs } from '../args.ts';
import type { Command } from '../command.ts';
import { TriageError } from '../../errors.ts';
import { STORE_HELP, storeChoice } from '../store-option.ts';
// DuckDB and the ClickHouse client are imported in run(), once the options are checked (main.ts).

const INCIDENT = /^inc_[a-z0-9]{6,40}$/;

export const exportCommand: Command = {
  name: 'export',
  summary: 'write a stored incident as Parquet files (events, failures, spans), redacted like every exit',
  help: `Usage: mcp-triage export INCIDENT --parquet DIR [--db FILE | --store URL] [--key-file FILE]

Writes the stored incident INCIDENT (inc_…, as analyze --db/--store and the UI name it) as three
Parquet files in DIR (created if missing; an existing file of the same name is never overwritten):
  events.parquet    every event, in timeline order of ingest (seq)
  failures.parquet  the failures of its current analysis, one row each
  spans.parquet     the correlated requests of its analysis
Columns: server/export/README.md. DuckDB writes the files, from either store.

Like the report and the HTML export, this is an exit: every text goes through the exit pass
(personal and business data of an incident stored in standard mode redacted, request ids as keyed
pseudonyms req-…, sessions already pseudonyms), then the leak check; a hit refuses the export
(exit 2), names the row and the rule, and writes nothing.

  --parquet DIR       the folder to write to (required)
  --db FILE           a DuckDB file instead of the workspace database
  --key-file FILE     the pseudonymisation key (default: the workspace's)
${STORE_HELP.split('\n')
  .filter((l) => !l.includes('--incident') && !l.includes('stored incident ID'))
  .join('\n')}`,
  async run(args, io) {
    const a = parseArgs('export', args, {
      parquet: { type: 'string' },
      db: { type: 'string' },
      store: { type: 'string' },
      'store-credentials': { type: 'string' },
      'key-file': { type: 'string' },
    });
    const [id, ...more] = a.positionals;
    if (!id) throw new TriageError('TRIAGE_ERR_USAGE', 'export: give the incident id (inc_…) and --parquet DIR; see mcp-triage export --help');
    if (more.length) throw new TriageError('TRIAGE_ERR_USAGE', `export: one incident at a time (got ${a.positionals.length}); run it once per incident`);
    if (!INCIDENT.test(id))
      throw new TriageError(
        'TRIAGE_ERR_USAGE',
        `export: ${JSON.stringify(id.slice(0, 60))} is not an incident id; ids look like inc_… (analyze --db/--store prints it, GET /api/incidents lists them)`,
      );
    if (a.options.parquet === undefined) throw new TriageError('TRIAGE_ERR_USAGE', 'export: say where to write: --parquet DIR (the only export format so far)');
    const dir = resolve(io.cwd, String(a.options.parquet));
    const { target } = storeChoice('export', a, io.env);
    const { checkExportDir, exportParquet } = await import('../../export/parquet.ts');
    checkExportDir(dir);
    let result: Awaited<ReturnType<typeof exportParquet>>;
    if (target) {
      const { openShared } = await import('../../store/clickhouse/open.ts');
      const { store, keys } = await openShared(target, { env: io.env, keyFile: a.options['key-file'] as string | undefined });
      try {
        result = await exportParquet(store, id, dir, keys.key);
      } finally {
        await store.close();
      }
    } else {
      const { openContext } = await import('../../incidents.ts');
      const ctx = await openContext({ env: io.env, db: a.options.db as string | undefined, keyFile: a.options['key-file'] as string | undefined });
      try {
        result = await exportParquet(ctx.store, id, dir, ctx.key);
      } finally {
        await ctx.store.close();
      }
    }
    for (const f of result.files) io.stdout.write(`${f}\n`);
    io.stderr.write(`exported ${id}: ${result.events} events, ${result.failures} failures, ${result.spans} spans (redacted) to ${result.dir}\n`);
    return 0;
  },
};
