import { basename, resolve } from 'node:path';
import { parseArgs } from '../args.ts';
import type { Command } from '../command.ts';
import { entriesFromPaths } from '../../ingest/inputs.ts';
import { workspaceDir } from '../../workspace.ts';
import { EventFilters } from '../../store/event-filters.ts';
import { TriageError } from '../../errors.ts';
import { terminalSafe } from '../render.ts';
import { STORE_HELP, STORE_OPTIONS, storeChoice } from '../store-option.ts';
// The ingest and the query (DuckDB, Arrow) are imported in run(), once the options and paths are
// checked (main.ts).

const SAFE = terminalSafe;
const COLOR: Record<string, string> = { client: '\x1b[36m', proxy: '\x1b[35m', server: '\x1b[33m', unknown: '\x1b[90m' };

export const timelineCommand: Command = {
  name: 'timeline',
  summary: 'print the merged, correlated timeline of the logs for a terminal',
  help: `Usage: mcp-triage timeline PATH… [--request ID] [--session PSEUDONYM] [--source S] [--level L] [--grep TEXT] [--limit N] [--strict]
       mcp-triage timeline --store URL --incident ID [the same filters]

Merges every input into one timeline ordered by time (as logged; no clock is rewritten).
  --request ID        one request: a JSON-RPC id (e.g. 3) or a proxy request id (x-request-id)
  --session sess_…    one session, by its pseudonym (as printed by analyze)
  --source S          client | proxy | server
  --level L           this level or worse (debug, info, warn, error)
  --grep TEXT         lines containing TEXT (case-insensitive)
  --limit N           at most N lines (default 500)
  --strict            redact everything before storage; by default (standard) the timeline shows what
                      the local database holds: personal data (hosts, IPs, e-mails) as logged, session
                      ids as pseudonyms, credentials removed (always strict with --store)
${STORE_HELP}

With --store and --incident ID (no PATH), the timeline of the stored incident is read from the store;
with --store and PATHs, they are ingested into the store first (as analyze --store does).`,
  async run(args, io) {
    const a = parseArgs('timeline', args, {
      request: { type: 'string' },
      session: { type: 'string' },
      source: { type: 'string' },
      level: { type: 'string' },
      grep: { type: 'string' },
      limit: { type: 'number' },
      'key-file': { type: 'string' },
      strict: { type: 'boolean' },
      ...STORE_OPTIONS,
    });
    const shared = storeChoice('timeline', a, io.env);
    if (!a.positionals.length && !shared.incident) throw new TriageError('TRIAGE_ERR_USAGE', 'timeline: give at least one PATH (see mcp-triage timeline --help)');
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
    const entries = paths.length ? entriesFromPaths(paths) : [];
    const [{ ingestIncident, openContext }, { loadToolPolicy }, { printSkipped }] = await Promise.all([
      import('../../incidents.ts'),
      import('../../triage/classify/policy.ts'),
      import('../progress.ts'),
    ]);
    const toolPolicy = loadToolPolicy(paths, workspaceDir(io.env));
    const name = a.positionals.map((p) => basename(p)).join(', ');
    const print = (rows: Iterable<Record<string, unknown>> & { length: number }, total: number) => {
      const color = (io.stdout as NodeJS.WriteStream).isTTY === true;
      for (const r of rows) {
        const ts = r.ts === null || r.ts === undefined ? '—'.padEnd(23) : new Date(Number(r.ts)).toISOString().replace('T', ' ').slice(0, 23);
        const src = String(r.source).padEnd(6);
        const where = `${r.file}:${r.line}`;
        const first = SAFE(String(r.text).split('\n', 1)[0]!).slice(0, 300);
        io.stdout.write(`${ts} ${color ? `${COLOR[String(r.source)] ?? ''}${src}\x1b[0m` : src} ${SAFE(where)}  ${first}\n`);
      }
      if (total > rows.length) io.stderr.write(`(${total - rows.length} more lines; narrow with --request, --session, --grep or raise --limit)\n`);
    };
    if (shared.target) {
      // The shared store (issue #20): the page, its filters and the search run in ClickHouse.
      const [{ openShared }, { chQueryEvents }] = await Promise.all([import('../../store/clickhouse/open.ts'), import('../../store/clickhouse/events.ts')]);
      const { store, keys } = await openShared(shared.target, { env: io.env, keyFile: a.options['key-file'] as string | undefined });
      try {
        let id = shared.incident;
        if (entries.length) {
          const r = await store.ingest(keys, entries, { ...(id ? { id } : {}), toolPolicy, name });
          printSkipped(io.stderr, r.skippedFiles);
          io.stderr.write(`stored as ${r.id} in ${shared.target.display}\n`);
          id = r.id;
        }
        const { rows, total } = await chQueryEvents(store, id!, filters.data);
        print(rows, total);
        return 0;
      } finally {
        await store.close();
      }
    }
    const { queryEvents } = await import('../../store/events-query.ts');
    const ctx = await openContext({ env: io.env, db: ':memory:', keyFile: a.options['key-file'] as string | undefined });
    try {
      const { id, skippedFiles } = await ingestIncident(ctx, entries, { toolPolicy, name, mode: a.options.strict ? 'strict' : 'standard' });
      printSkipped(io.stderr, skippedFiles);
      const { rows, total } = await queryEvents(ctx.store, id, filters.data);
      print(rows, total);
      return 0;
    } finally {
      await ctx.store.close();
    }
  },
};
