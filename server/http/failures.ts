// GET /api/failures?decision=&rule=&signal=&role=&since=&limit= (issue #20 item 4): failures across
// the incidents of the embedded store, newest incident first (contract/failures.ts). serve --store
// answers the same route from ClickHouse (shared-app.ts).
import type { FastifyPluginAsync } from 'fastify';
import { FailureFilters } from '../contract/failures.ts';
import { TriageError } from '../errors.ts';
import type { Context } from '../incidents.ts';
import { failuresAcross } from '../store/failures.ts';
import { exitJson } from '../triage/redact/exit.ts';
import { ANALYSIS_KEEP, apiExit } from './exposure.ts';

export function failureFilters(query: unknown): FailureFilters {
  const r = FailureFilters.safeParse(query);
  if (!r.success) throw new TriageError('TRIAGE_ERR_USAGE', `bad filter: ${r.error.issues.map((i) => `${i.path.join('.') || 'query'}: ${i.message}`).join('; ')}`);
  return r.data;
}

export const failuresPlugin: FastifyPluginAsync<{ ctx: Context }> = async (app, { ctx }) => {
  app.get('/api/failures', async (req) => {
    const answer = await failuresAcross(ctx.store, failureFilters(req.query));
    // Beyond loopback the answer is an exit (exposure.ts): failures of incidents stored in
    // standard mode go out through their incident's exit pass, as their analysis does.
    const exits = new Map<string, Awaited<ReturnType<typeof apiExit>>>();
    for (const row of answer.failures) {
      if (!exits.has(row.incident)) exits.set(row.incident, await apiExit(ctx, row.incident));
      const exit = exits.get(row.incident);
      if (exit) row.failure = exitJson(row.failure, (t) => exit.text(t), ANALYSIS_KEEP);
    }
    return answer;
  });
};
