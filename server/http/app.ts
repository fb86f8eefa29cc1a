// build() returns the app; only main.ts / the serve command call listen (fastify's model).
// Tests use inject() or listen on port 0.
//
// One app over either store (backend.ts): the workspace's DuckDB, or a shared ClickHouse store
// (serve --store). The same routes, shapes, security, admission limits, answer caches, upload lines
// and SQL console bounds whichever store answers.
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { TriageError } from '../errors.ts';
import { IngestCancelled } from '../store/store.ts';
import type { Context } from '../incidents.ts';
import { ClientGone } from './admission.ts';
import { incidentsPlugin } from './incidents.ts';
import { INGEST_LIMITS, IngestQueue, type IngestLimits } from './ingest-queue.ts';
import { Serving, type ServingLimits } from './serving.ts';
import { securityPlugin } from './security.ts';
import { defaultUploadRoot, ensureUploadRoot, sweepUploads, UPLOAD_LIMITS } from './upload.ts';
import { verifyPlugin } from './verify.ts';
import { embeddedStore, sharedStore, type ServedStore } from './backend.ts';
import type { ClickHouseStore } from '../store/clickhouse/store.ts';
import { signalsPlugin } from './signals.ts';
import { failuresPlugin } from './failures.ts';
import { sqlPlugin } from './sql.ts';
import { viewsPlugin } from './views.ts';

export interface AppOptions {
  /** The workspace key and formats (uploads are redacted and parsed with them), and its DuckDB unless `shared`. */
  ctx: Context;
  /** Serve a shared ClickHouse store (serve --store) instead of ctx.store; the app closes it. */
  shared?: ClickHouseStore;
  /** Built UI to serve (ui/dist); omitted or missing → API only. */
  uiDist?: string;
  maxUploadMb?: number;
  /** Host names accepted in the Host header (DNS-rebinding guard). Loopback names are always accepted when bound to loopback. */
  allowedHosts?: string[];
  /** Bearer token required on every request (non-loopback binds). */
  token?: string;
  /** Private folder for uploads in progress (upload.ts); default next to the database. */
  uploadDir?: string;
  logger?: boolean;
  /** Bounds on concurrent store work and on the wait for it (admission.ts); defaults there. */
  limits?: ServingLimits;
  /** Uploads held at once and the size that splits the two ingest lines (ingest-queue.ts). */
  ingestLimits?: Partial<IngestLimits>;
  /** Tests: the upload lines themselves (to hold one by hand); default one made from ingestLimits. */
  ingestQueue?: IngestQueue;
  /** The SQL console's bounds (store/sql-console.ts); defaults there. */
  sqlConsole?: { rowCap?: number; timeLimitMs?: number; maxBytes?: number };
}

export const VERSION = '0.1.0';

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const store: ServedStore = opts.shared ? sharedStore(opts.shared) : embeddedStore(opts.ctx);
  // The server lives long enough for background upkeep of what it serves (store.upkeep).
  if (!opts.shared) opts.ctx.store.upkeep = true;
  const maxMb = opts.maxUploadMb ?? 2048;
  if (!(maxMb > 0) || !Number.isFinite(maxMb)) throw new TriageError('TRIAGE_ERR_USAGE', `--max-upload-mb must be a positive number (got ${maxMb})`);
  const maxUpload = Math.floor(maxMb * 1024 * 1024);
  // Uploads in progress live in a private folder; folders left by a dead process are swept now.
  const uploadRoot = opts.uploadDir ?? defaultUploadRoot(store.path);
  ensureUploadRoot(uploadRoot);
  sweepUploads(uploadRoot);
  const app = Fastify({ logger: opts.logger ?? false, bodyLimit: 1024 * 1024, trustProxy: false });
  const serving = new Serving(store, opts.limits);
  app.setErrorHandler((err, _req, reply) => {
    // The client left while its request waited for a slot: nobody reads an answer (and it is no fault).
    if (err instanceof ClientGone || err instanceof IngestCancelled) return reply.code(400).send({ error: { code: 'TRIAGE_ERR_USAGE', message: err.message } });
    if (err instanceof TriageError) return reply.code(err.status).send({ error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) } });
    const e = err as { statusCode?: number; code?: string; message: string };
    if (e.statusCode === 413 || e.code === 'FST_REQ_FILE_TOO_LARGE' || e.code === 'FST_FILES_LIMIT' || e.code === 'FST_PARTS_LIMIT' || e.code === 'FST_FIELDS_LIMIT') {
      const what =
        e.code === 'FST_FILES_LIMIT'
          ? `more than ${UPLOAD_LIMITS.files} files in one upload`
          : e.code === 'FST_PARTS_LIMIT'
            ? `more than ${UPLOAD_LIMITS.parts} parts in one upload`
            : e.code === 'FST_FIELDS_LIMIT'
              ? `more than ${UPLOAD_LIMITS.fields} form fields`
              : e.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
                ? 'a non-upload request body over 1 MiB'
                : `over the ${maxMb} MiB limit per upload (serve --max-upload-mb)`;
      return reply.code(413).send({ error: { code: 'TRIAGE_ERR_TOO_LARGE', message: `upload too large: ${what}` } });
    }
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
      return reply.code(e.statusCode).send({
        error: {
          code:
            e.statusCode === 415
              ? 'TRIAGE_ERR_UNSUPPORTED_MEDIA'
              : e.statusCode === 403
                ? 'TRIAGE_ERR_FORBIDDEN'
                : e.statusCode === 404
                  ? 'TRIAGE_ERR_NOT_FOUND'
                  : 'TRIAGE_ERR_USAGE',
          message: e.message,
        },
      });
    }
    // Log the error's name, code and stack only: never request bodies, headers or log content (§5.9).
    app.log.error({ err: { type: (err as Error).name, code: e.code, stack: (err as Error).stack } }, 'internal error');
    return reply.code(500).send({ error: { code: 'TRIAGE_ERR_INTERNAL', message: 'internal error; see the server log' } });
  });
  await app.register(securityPlugin, { allowedHosts: opts.allowedHosts, token: opts.token });
  await app.register(fastifyMultipart, {
    limits: {
      fileSize: maxUpload,
      files: UPLOAD_LIMITS.files,
      parts: UPLOAD_LIMITS.parts,
      fields: UPLOAD_LIMITS.fields,
      fieldSize: UPLOAD_LIMITS.fieldSize,
      headerPairs: UPLOAD_LIMITS.headerPairs,
    },
  });
  // A shared store is named (its URL without credentials): which store a team's server answers from.
  app.get('/api/health', async () => ({ ok: true, version: VERSION, ...(store.display ? { store: store.display } : {}) }));
  await app.register(incidentsPlugin, {
    ctx: opts.ctx,
    store,
    maxUploadBytes: maxUpload,
    uploadRoot,
    serving,
    ingests: opts.ingestQueue ?? new IngestQueue({ ...INGEST_LIMITS, ...opts.ingestLimits }),
  });
  await app.register(viewsPlugin, { ctx: opts.ctx, store, serving });
  await app.register(verifyPlugin, { ctx: opts.ctx, store });
  await app.register(sqlPlugin, { ctx: opts.ctx, store, serving, limits: opts.sqlConsole });
  await app.register(signalsPlugin);
  await app.register(failuresPlugin, { ctx: opts.ctx, store });
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
  app.addHook('onClose', async () => store.close());
  return app;
}
