import { basename, resolve } from 'node:path';
import { parseArgs } from '../args.ts';
import type { Command } from '../command.ts';
import { entriesFromPaths } from '../../ingest/inputs.ts';
import { workspaceDir } from '../../workspace.ts';
import { EventFilters } from '../../store/event-filters.ts';
import { TriageError } from '../../errors.ts';
import { terminalSafe } from '../render.ts';
// The ingest and the query (DuckDB, Arrow) are imported in run(), once the options and paths are
// checked (main.ts).

const SAFE = terminalSafe;
const COLOR: Record<string, string> = { client: '\x1b[36m', proxy: '\x1b[35m', server: '\x1b[33m', unknown: '\x1b[90m' };

export const timelineCommand: Command = {
  name: 'timeline',
  summary: 'print the merged, correlated timeline of the logs for a terminal',
  help: `Usage: mcp-triage timeline PATH… [--request ID] [--session PSEUDONYM] [--source S] [--level L] [--grep TEXT] [--limit N] [--strict]

Merges every input into one timeline ordered by time (as logged; no clock is rewritten).
  --request ID        one request: a JSON-RPC id (e.g. 3) or a proxy request id (x-request-id)
  --session sess_…    one session, by its pseudonym (as printed by analyze)
  --source S          client | proxy | server
  --level L           this level or worse (debug, info, warn, error)
  --grep TEXT         lines containing TEXT (case-insensitive)
  --limit N           at most N lines (default 500)
  --strict            redact everything before storage; by default (standard) the timeline shows what
                      the local database holds: personal data (hosts, IPs, e-mails) as logged, session
                      ids as pseudonyms, credentials removed`,
  async run(args, io) {
    const a = parseArgs('timeline', args, { request: { type: 'string' }, session: { type: 'string' }, source: { type: 'string' }, level: { type: 'string' }, grep: { type: 'string' }, limit: { type: 'number' }, 'key-file': { type: 'string' }, strict: { type: 'boolean' } });
    if (!a.positionals.length) throw new TriageError('TRIAGE_ERR_USAGE', 'timeline: give at least one PATH (see mcp-triage timeline --help)');
    const request = a.options.request as string | undefined;
    const filters = EventFilters.safeParse({
      session: a.options.session,
      source: a.options.source,
      level: a.options.level,
      q: a.options.grep,
      limit: a.options.limit ?? 500,
      ...(request ? (/^[0-9a-f]{16,64}$/i.test(request) ? { requestId: request } : { rpcId: request }) : {}),
    });
    if (!filters.success) throw new TriageError('TRIAGE_ERR_USAGE', `timeline: ${filters.error.issues.map((i) => `--${String(i.path[0])}: ${i.message}`).join('; ')}`);
    const paths = a.positionals.map((p) => resolve(io.cwd, p));
    const entries = entriesFromPaths(paths);
    const [{ ingestIncident, openContext }, { queryEvents }, { loadToolPolicy }, { printSkipped }] = await Promise.all([
      import('../../incidents.ts'),
      import('../../store/events-query.ts'),
      import('../../triage/classify/policy.ts'),
      import('../progress.ts'),
    ]);
    const toolPolicy = loadToolPolicy(paths, workspaceDir(io.env));
    const ctx = await openContext({ env: io.env, db: ':memory:', keyFile: a.options['key-file'] as string | undefined });
    try {
      const { id, skippedFiles } = await ingestIncident(ctx, entries, {
        toolPolicy, name: a.positionals.map((p) => basename(p)).join(', '), mode: a.options.strict ? 'strict' : 'standard' });
      printSkipped(io.stderr, skippedFiles);
      const { rows, total } = await queryEvents(ctx.store, id, filters.data);
      const color = (io.stdout as NodeJS.WriteStream).isTTY === true;
      for (const r of rows) {
        const ts = r.ts === null || r.ts === undefined ? '—'.padEnd(23) : new Date(Number(r.ts)).toISOString().replace('T', ' ').slice(0, 23);
        const src = String(r.source).padEnd(6);
        const where = `${r.file}:${r.line}`;
        const first = SAFE(String(r.text).split('\n', 1)[0]!).slice(0, 300);
        io.stdout.write(`${ts} ${color ? `${COLOR[String(r.source)] ?? ''}${src}\x1b[0m` : src} ${SAFE(where)}  ${first}\n`);
      }
      if (total > rows.length) io.stderr.write(`(${total - rows.length} more lines; narrow with --request, --session, --grep or raise --limit)\n`);
      return 0;
    } finally {
      await ctx.store.close();
    }
  },
};
