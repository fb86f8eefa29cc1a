// The UI's "verify" panel: run the probe (server/probe) from this server against a URL the user
// typed, and keep the last result with the incident.
//
//   POST /api/incidents/:id/verify   {url, tool?, args?}  → 200 probe JSON + {at}
//   GET  /api/incidents/:id/verify                        → 200 {at, ok, result}, or 200 null when never verified
//
// What is allowed, on purpose kept simple: any http(s) URL the user enters (the probe refuses
// other schemes with TRIAGE_ERR_USAGE → 400). The server reaches whatever the user could reach
// with `mcp-triage probe` from the same machine, and the route is a state change, so it carries
// the app-wide X-Requested-With + same-origin guard (security.ts): another web page cannot
// make this server probe anything. Writes are never allowed: allowWrites is not accepted and
// never passed, so the probe calls a tool only if it is marked read-only. No bearer either:
// credentials are not taken over HTTP.
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { TriageError } from '../errors.ts';
import type { Context } from '../incidents.ts';
import { probeJson, runProbe } from '../probe/index.ts';
import { assertIncident } from '../store/store.ts';
import type { ServedStore } from './backend.ts';
import { incidentIdOf } from './views.ts';

/** The decisions a fresh connection can confirm or refute; others are about writes or people. */
export const VERIFIABLE = ['reinitialize', 'retry', 'fix_route_or_config'] as const;

const VerifyBody = z
  .object({
    url: z.string().trim().min(1).max(2000),
    tool: z.string().trim().min(1).max(200).optional(),
    args: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

export const verifyPlugin: FastifyPluginAsync<{ ctx: Context; store: ServedStore; timeoutMs?: number }> = async (app, { ctx, store, timeoutMs }) => {
  app.post('/api/incidents/:id/verify', async (req) => {
    const id = incidentIdOf(req);
    assertIncident(await store.incident(id), id);
    const parsed = VerifyBody.safeParse(req.body ?? {});
    if (!parsed.success)
      throw new TriageError('TRIAGE_ERR_USAGE', `bad verify request: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`);
    const body = parsed.data;
    if (!/^https?:\/\//i.test(body.url))
      throw new TriageError('TRIAGE_ERR_USAGE', `only http:// and https:// MCP endpoints can be verified (got ${JSON.stringify(body.url.slice(0, 40))})`);
    const analysis = await store.analysis(id);
    if (!analysis) throw new TriageError('TRIAGE_ERR_NOT_FOUND', `incident ${id} has no analysis yet`);
    if (!(VERIFIABLE as readonly string[]).includes(analysis.decision)) {
      throw new TriageError('TRIAGE_ERR_USAGE', `verify runs for decisions ${VERIFIABLE.join(', ')}; this incident's decision is ${analysis.decision}`);
    }
    const result = await runProbe({ url: body.url, key: ctx.key, tool: body.tool, args: body.args, timeoutMs: timeoutMs ?? 10_000 });
    const json = probeJson(result);
    const saved = await store.saveVerification(id, json);
    return { ...json, at: new Date(saved.at).toISOString() };
  });

  app.get('/api/incidents/:id/verify', async (req, reply) => {
    const id = incidentIdOf(req);
    assertIncident(await store.incident(id), id);
    const v = await store.lastVerification(id);
    // null, not 404: "not verified yet" is a normal state of an incident, not a missing resource.
    if (!v) return reply.type('application/json').send('null');
    return { at: new Date(v.at).toISOString(), ok: v.ok, result: v.result };
  });
};
