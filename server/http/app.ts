// build() returns the app; only main.ts / the serve command call listen (fastify's model).
// Tests use inject() or listen on port 0.
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { TriageError } from '../errors.ts';
import type { Context } from '../incidents.ts';
import { incidentsPlugin } from './incidents.ts';
import { securityPlugin } from './security.ts';
import { verifyPlugin } from './verify.ts';
import { viewsPlugin } from './views.ts';

export interface AppOptions {
  ctx: Context;
  /** Built UI to serve (ui/dist); omitted or missing → API only. */
  uiDist?: string;
  maxUploadMb?: number;
  /** Host names accepted in the Host header (DNS-rebinding guard). Loopback names are always accepted when bound to loopback. */
  allowedHosts?: string[];
  /** Bearer token required on every request (non-loopback binds). */
  token?: string;
  logger?: boolean;
}

export const VERSION = '0.1.0';

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const maxUpload = (opts.maxUploadMb ?? 2048) * 1024 * 1024;
  const app = Fastify({ logger: opts.logger ?? false, bodyLimit: 1024 * 1024, trustProxy: false });
  app.setErrorHandler((err, _req, reply) => {
    if (err instanceof TriageError) return reply.code(err.status).send({ error: { code: err.code, message: err.message } });
    const e = err as { statusCode?: number; code?: string; message: string };
    if (e.code === 'FST_REQ_FILE_TOO_LARGE' || e.code === 'FST_FILES_LIMIT' || e.code === 'FST_PARTS_LIMIT' || e.statusCode === 413) {
      return reply.code(413).send({ error: { code: 'TRIAGE_ERR_TOO_LARGE', message: `upload too large: ${e.message}; the limit is ${opts.maxUploadMb ?? 2048} MiB per upload (serve --max-upload-mb)` } });
    }
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
      return reply.code(e.statusCode).send({ error: { code: e.statusCode === 415 ? 'TRIAGE_ERR_UNSUPPORTED_MEDIA' : 'TRIAGE_ERR_USAGE', message: e.message } });
    }
    app.log.error(err);
    return reply.code(500).send({ error: { code: 'TRIAGE_ERR_INTERNAL', message: 'internal error; see the server log' } });
  });
  await app.register(securityPlugin, { allowedHosts: opts.allowedHosts, token: opts.token });
  await app.register(fastifyMultipart, { limits: { fileSize: maxUpload, files: 200, parts: 400, fields: 50, fieldSize: 64 * 1024 } });
  app.get('/api/health', async () => ({ ok: true, version: VERSION }));
  await app.register(incidentsPlugin, { ctx: opts.ctx, maxUploadBytes: maxUpload });
  await app.register(viewsPlugin, { ctx: opts.ctx });
  await app.register(verifyPlugin, { ctx: opts.ctx });
  app.all('/api/*', async (req) => {
    throw new TriageError('TRIAGE_ERR_NOT_FOUND', `no route ${req.method} ${req.url.split('?')[0]}`);
  });
  const dist = opts.uiDist ? resolve(opts.uiDist) : null;
  if (dist && existsSync(resolve(dist, 'index.html'))) {
    // wildcard:false gives each built file its own route; deep links fall back to index.html.
    await app.register(fastifyStatic, { root: dist, wildcard: false });
    app.setNotFoundHandler((req, reply) => {
      if (req.method === 'GET' && !req.url.startsWith('/assets/')) return reply.type('text/html').sendFile('index.html');
      return reply.code(404).send({ error: { code: 'TRIAGE_ERR_NOT_FOUND', message: `not found: ${req.url.split('?')[0]}` } });
    });
  }
  return app;
}
