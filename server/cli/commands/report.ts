import { writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { parseArgs } from '../args.ts';
import type { Command } from '../command.ts';
import { entriesFromPaths } from '../../ingest/inputs.ts';
import { workspaceDir } from '../../workspace.ts';
import { TriageError } from '../../errors.ts';
import { STORE_HELP, STORE_OPTIONS, storeChoice } from '../store-option.ts';
// The ingest (DuckDB, zod) is imported in run(), once the arguments and paths are checked (main.ts).

export const reportCommand: Command = {
  name: 'report',
  summary: 'write the redacted public issue report (Markdown) for a set of logs',
  help: `Usage: mcp-triage report PATH… [--out FILE] [--format md|json] [--exclude FILE:LINE,…] [--key-file FILE] [--strict]
       mcp-triage report --store URL --incident ID [--out FILE] [--format md|json] [--exclude …]

Ingests the logs (as analyze does, in memory), then writes a Markdown issue that is safe to paste
in public: summary, environment and versions, what happened (decision, rule, stage, first
exception and its wrapper path), a short correlated timeline, what to check, and how many values
each redaction rule removed. Request ids become keyed pseudonyms (req-…). Before anything is
written, the redactor runs again over the report and every raw secret or session id seen in the
inputs is searched for; any hit refuses the report (exit 2, nothing written) and names the report
line, the rule and the evidence line it came from.

Files that are not logs are skipped with one "skipped FILE: why" line on stderr; when none is a
log, exit 1 with one line on stderr and nothing written.

  --out FILE              write to FILE instead of stdout
  --format md|json        Markdown (default) or {"markdown","redactions","sections"}
  --exclude FILE:LINE,…   leave these evidence lines out of the timeline (after a refusal)
  --strict                redact everything at ingest too (the report is redacted either way; always so
                          with --store)
${STORE_HELP}

With --store and --incident ID (no PATH), the report is written from the stored incident; with --store
and PATHs, they are ingested into the store first (as analyze --store does).`,
  async run(args, io) {
    const a = parseArgs('report', args, {
      out: { type: 'string' },
      format: { type: 'string' },
      exclude: { type: 'string' },
      'key-file': { type: 'string' },
      strict: { type: 'boolean' },
      ...STORE_OPTIONS,
    });
    const shared = storeChoice('report', a, io.env);
    const format = (a.options.format as string | undefined) ?? 'md';
    if (format !== 'md' && format !== 'json') throw new TriageError('TRIAGE_ERR_USAGE', `report: --format takes md or json, not "${format}"`);
    if (!a.positionals.length && !shared.incident) throw new TriageError('TRIAGE_ERR_USAGE', 'report: give at least one PATH (see mcp-triage report --help)');
    const exclude = a.options.exclude
      ? String(a.options.exclude)
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean)
      : [];
    for (const x of exclude)
      if (!/^.+:\d+$/.test(x)) throw new TriageError('TRIAGE_ERR_USAGE', `report: --exclude takes FILE:LINE places (as the refusal names them), not "${x.slice(0, 80)}"`);
    const paths = a.positionals.map((p) => resolve(io.cwd, p));
    const entries = paths.length ? entriesFromPaths(paths) : [];
    const [{ incidentReport, ingestIncident, openContext }, { loadToolPolicy }, { printSkipped, progressPrinter }] = await Promise.all([
      import('../../incidents.ts'),
      import('../../triage/classify/policy.ts'),
      import('../progress.ts'),
    ]);
    const toolPolicy = loadToolPolicy(paths, workspaceDir(io.env));
    const emit = (report: { markdown: string; redactions: unknown; sections: unknown }) => {
      const text = format === 'json' ? JSON.stringify({ markdown: report.markdown, redactions: report.redactions, sections: report.sections }, null, 2) + '\n' : report.markdown;
      if (a.options.out) {
        writeFileSync(resolve(io.cwd, String(a.options.out)), text, { mode: 0o644 });
        io.stderr.write(`report written to ${a.options.out}\n`);
      } else io.stdout.write(text);
    };
    if (shared.target) {
      // The shared store (issue #20): the report reads the stored incident's rows from ClickHouse.
      const { openShared } = await import('../../store/clickhouse/open.ts');
      const { store, keys } = await openShared(shared.target, { env: io.env, keyFile: a.options['key-file'] as string | undefined });
      try {
        let id = shared.incident;
        let secrets;
        if (entries.length) {
          const r = await store.ingest(keys, entries, {
            ...(id ? { id } : {}),
            toolPolicy,
            name: a.positionals.map((p) => basename(p)).join(', '),
            onProgress: progressPrinter(io.stderr),
          });
          printSkipped(io.stderr, r.skippedFiles);
          io.stderr.write(`stored as ${r.id} in ${shared.target.display}\n`);
          ({ id, secrets } = r);
        }
        if (!(await store.readable(id!))) throw new TriageError('TRIAGE_ERR_NOT_FOUND', `report: no incident ${id} in ${shared.target.display}`);
        emit(await incidentReport(store, id!, { secrets, key: keys.key, exclude }));
        return 0;
      } finally {
        await store.close();
      }
    }
    const ctx = await openContext({ env: io.env, db: ':memory:', keyFile: a.options['key-file'] as string | undefined });
    try {
      const r = await ingestIncident(ctx, entries, {
        toolPolicy,
        name: a.positionals.map((p) => basename(p)).join(', '),
        onProgress: progressPrinter(io.stderr),
        mode: a.options.strict ? 'strict' : 'standard',
      });
      printSkipped(io.stderr, r.skippedFiles);
      emit(await incidentReport(ctx.store, r.id, { secrets: r.secrets, key: ctx.key, exclude }));
      return 0;
    } finally {
      await ctx.store.close();
    }
  },
};
