// POST /api/sql {"sql": "SELECT …"}: the read-only console (store/sql-console.ts). POST so the
// CSRF guard applies and long queries fit; nothing is changed by it. One query at a time per
// server (admission.ts, lane "sql": 429/503 with Retry-After past its bounds); the console's
// deadline counts from the request's arrival, so the wait for that slot is part of it.
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { TriageError } from '../errors.ts';
import type { Context } from '../incidents.ts';
import { runReadOnlySql, type SqlOptions } from '../store/sql-console.ts';
import { Serving } from './serving.ts';

const Body = z.object({ sql: z.string().max(20_000) });

export const sqlPlugin: FastifyPluginAsync<{ ctx: Context; serving?: Serving; limits?: Omit<SqlOptions, 'startedAt'> }> = async (app, opts) => {
  const serving = opts.serving ?? new Serving(opts.ctx.store);
  app.post('/api/sql', async (req, reply) => {
    const startedAt = performance.now();
    const body = Body.safeParse(req.body);
    if (!body.success) throw new TriageError('TRIAGE_ERR_USAGE', 'send JSON {"sql": "SELECT …"}');
    return serving.lanes.sql.run(reply, () => runReadOnlySql(opts.ctx.store, body.data.sql, { ...opts.limits, startedAt }));
  });
};
