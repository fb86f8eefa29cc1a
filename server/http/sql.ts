// POST /api/sql {"sql": "SELECT …"}: the read-only console (store/sql-console.ts). POST so the
// CSRF guard applies and long queries fit; nothing is changed by it.
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { TriageError } from '../errors.ts';
import type { Context } from '../incidents.ts';
import { runReadOnlySql } from '../store/sql-console.ts';

const Body = z.object({ sql: z.string().max(20_000) });

export const sqlPlugin: FastifyPluginAsync<{ ctx: Context }> = async (app, { ctx }) => {
  app.post('/api/sql', async (req) => {
    const body = Body.safeParse(req.body);
    if (!body.success) throw new TriageError('TRIAGE_ERR_USAGE', 'send JSON {"sql": "SELECT …"}');
    return runReadOnlySql(ctx.store, body.data.sql);
  });
};
