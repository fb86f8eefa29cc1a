// POST /api/sql {"sql": "SELECT …"}: the read-only console (store/sql-console.ts). POST so the
// CSRF guard applies and long queries fit; nothing is changed by it. Its output is an exit
// (redaction.md "Tiers"): every string cell goes through the exit pass, so personal and business
// data an incident stored in standard mode kept are redacted here too (request ids stay, as in
// the tool's own columns). A no-op for text stored strict.
// One query at a time per server (admission.ts, lane "sql": 429/503 with Retry-After past its
// bounds); the console's deadline counts from the request's arrival, so the wait for that slot is
// part of it.
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { TriageError } from '../errors.ts';
import type { Context } from '../incidents.ts';
import type { SqlOptions, SqlResult } from '../store/sql-console.ts';
import type { ServedStore } from './backend.ts';
import { createExitRedactor, exitJson } from '../triage/redact/exit.ts';
import { Serving } from './serving.ts';

const Body = z.object({ sql: z.string().max(20_000) });

/** The result with every string (also inside JSON values) through one exit pass, read twice: first to learn, then to redact. */
export function exitSqlResult(r: SqlResult, key: Uint8Array): SqlResult {
  const exit = createExitRedactor({ key, pseudonymiseRequests: false });
  exitJson(r.rows, (s) => (exit.learn(s), s));
  return { ...r, rows: exitJson(r.rows, (s) => exit.text(s)) };
}

export const sqlPlugin: FastifyPluginAsync<{ ctx: Context; store: ServedStore; serving?: Serving; limits?: Omit<SqlOptions, 'startedAt'> }> = async (app, opts) => {
  const { ctx, store } = opts;
  const serving = opts.serving ?? new Serving(store);
  app.post('/api/sql', async (req, reply) => {
    const startedAt = performance.now();
    const body = Body.safeParse(req.body);
    if (!body.success) throw new TriageError('TRIAGE_ERR_USAGE', 'send JSON {"sql": "SELECT …"}');
    return serving.lanes.sql.run(reply, async () => exitSqlResult(await store.sql(body.data.sql, { ...opts.limits, startedAt }), ctx.key));
  });
};
