// GET /api/failures?decision=&rule=&signal=&role=&since=&limit= (issue #20 item 4): failures across
// the incidents of the store, newest incident first (contract/failures.ts); on serve --store,
// filtered in ClickHouse (store/clickhouse/failures.ts).
import type { FastifyPluginAsync } from 'fastify';
import { FailureFilters } from '../contract/failures.ts';
import { TriageError } from '../errors.ts';
import type { Context } from '../incidents.ts';
import { exitJson } from '../triage/redact/exit.ts';
import { ANALYSIS_KEEP, apiExit } from './exposure.ts';
import type { ServedStore } from './backend.ts';

export function failureFilters(query: unknown): FailureFilters {
  const r = FailureFilters.safeParse(query);
  if (!r.success) throw new TriageError('TRIAGE_ERR_USAGE', `bad filter: ${r.error.issues.map((i) => `${i.path.join('.') || 'query'}: ${i.message}`).join('; ')}`);
  return r.data;
}

export const failuresPlugin: FastifyPluginAsync<{ ctx: Context; store: ServedStore }> = async (app, { ctx, store }) => {
  app.get('/api/failures', async (req) => {
    const answer = await store.failures(failureFilters(req.query));
    // Beyond loopback the answer is an exit (exposure.ts): failures of incidents stored in
    // standard mode go out through their incident's exit pass, as their analysis does.
    const exits = new Map<string, Awaited<ReturnType<typeof apiExit>>>();
    for (const row of answer.failures) {
      if (!exits.has(row.incident)) exits.set(row.incident, await apiExit(ctx, store, row.incident));
      const exit = exits.get(row.incident);
      if (exit) row.failure = exitJson(row.failure, (t) => exit.text(t), ANALYSIS_KEEP);
    }
    return answer;
  });
};
