import { parseArgs } from '../args.ts';
import type { Command } from '../command.ts';
import { FailureFilters, type FailuresAnswer } from '../../contract/failures.ts';
import { TriageError } from '../../errors.ts';
import { terminalSafe } from '../render.ts';
import { STORE_HELP, storeChoice } from '../store-option.ts';
// DuckDB and the ClickHouse client are imported in run(), once the options are checked (main.ts).

export const failuresCommand: Command = {
  name: 'failures',
  summary: 'list failures across stored incidents, by decision, rule, signal and age',
  help: `Usage: mcp-triage failures [--since 7d] [--decision D] [--rule R] [--signal S] [--role R] [--limit N] [--json]
                           [--db FILE | --store URL]

Failures of every stored incident's current analysis, newest incident first: in the workspace
database (or --db FILE), or in a shared ClickHouse store (--store, or MCP_TRIAGE_STORE), where the
query runs in ClickHouse. The same answer as GET /api/failures.
  --since 7d          incidents stored in the last 7 days (also 24h, 30m, an ISO date, epoch ms)
  --decision D        retry | reinitialize | fix_route_or_config | fix_auth | read_result_no_repeat |
                      check_write_then_escalate | escalate | no_action
  --rule R            the rule that decided (e.g. session-expired-404)
  --signal S          a signal that fired on the failure's lines (e.g. session-not-found, http-404)
  --role R            primary | consequence | optional | recovered
  --limit N           at most N failures (default 1000)
  --json              {"failures": [{incident, name, createdAt, index, failure}], "truncated"}
  --db FILE           a DuckDB file instead of the workspace database
${STORE_HELP.split('\\n')
  .filter((l) => !l.includes('--incident') && !l.includes('stored incident ID'))
  .join('\\n')}`,
  async run(args, io) {
    const a = parseArgs('failures', args, {
      since: { type: 'string' },
      decision: { type: 'string' },
      rule: { type: 'string' },
      signal: { type: 'string' },
      role: { type: 'string' },
      limit: { type: 'number' },
      json: { type: 'boolean' },
      db: { type: 'string' },
      store: { type: 'string' },
      'store-credentials': { type: 'string' },
      'key-file': { type: 'string' },
    });
    if (a.positionals.length) throw new TriageError('TRIAGE_ERR_USAGE', 'failures: takes no PATH; it reads stored incidents (see mcp-triage failures --help)');
    const q = FailureFilters.safeParse({
      since: a.options.since,
      decision: a.options.decision,
      rule: a.options.rule,
      signal: a.options.signal,
      role: a.options.role,
      limit: a.options.limit ?? 1000,
    });
    if (!q.success) throw new TriageError('TRIAGE_ERR_USAGE', `failures: ${q.error.issues.map((i) => `--${String(i.path[0])}: ${i.message}`).join('; ')}`);
    const { target } = storeChoice('failures', a, io.env);
    let answer: FailuresAnswer;
    if (target) {
      const [{ ClickHouseStore }, { chFailuresAcross }] = await Promise.all([import('../../store/clickhouse/store.ts'), import('../../store/clickhouse/failures.ts')]);
      const store = await ClickHouseStore.open(target);
      try {
        answer = await chFailuresAcross(store, q.data);
      } finally {
        await store.close();
      }
    } else {
      const [{ openContext }, { failuresAcross }] = await Promise.all([import('../../incidents.ts'), import('../../store/failures.ts')]);
      const ctx = await openContext({ env: io.env, db: a.options.db as string | undefined, keyFile: a.options['key-file'] as string | undefined });
      try {
        answer = await failuresAcross(ctx.store, q.data);
      } finally {
        await ctx.store.close();
      }
    }
    if (a.options.json) {
      io.stdout.write(JSON.stringify(answer, null, 2) + '\n');
      return 0;
    }
    for (const r of answer.failures) {
      const f = r.failure;
      const what = [f.method, f.rpcId === null ? null : `#${f.rpcId}`, f.httpStatus === null ? null : String(f.httpStatus)].filter(Boolean).join(' ') || '—';
      io.stdout.write(
        `${r.createdAt.slice(0, 16).replace('T', ' ')}  ${r.incident}  ${f.decision.padEnd(25)} ${f.rule.padEnd(28)} ${(f.role ?? 'primary').padEnd(11)} ${terminalSafe(what).slice(0, 60)}  ${terminalSafe(r.name).slice(0, 40)}\n`,
      );
    }
    io.stderr.write(`${answer.failures.length} failure(s)${answer.truncated ? ` (more: raise --limit or narrow the filters)` : ''}\n`);
    return 0;
  },
};
