// `serve --store URL` (issue #20): the HTTP API over the shared ClickHouse store. The same routes,
// shapes and security as the embedded app (app.ts) for what the store answers today — upload,
// add files, list, incident, analysis, timeline pages (Arrow), counts, histogram, report, delete,
// upload progress, signals, failures across incidents — and a 501 in the contract's error shape for the views that still
// read DuckDB (unit of work, HTML export, verification, SQL console: issue #20 item 3).
//
// A builder of its own rather than a branch inside app.ts: the embedded app's plugins close over
// the DuckDB store. The error mapping below follows app.ts; keep the two in step.
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { TriageError } from '../errors.ts';
import { incidentReport, type Context } from '../incidents.ts';
import { chCountEvents, chHistogram, chQueryEvents } from '../store/clickhouse/events.ts';
import { chFailuresAcross } from '../store/clickhouse/failures.ts';
import type { ClickHouseStore } from '../store/clickhouse/store.ts';
import { EventFilters } from '../store/event-filters.ts';
import { eventsToArrow } from '../store/events-query.ts';
import { assertIncident } from '../store/store.ts';
import { VERSION } from './app.ts';
import { excludeOf } from './incidents.ts';
import { failureFilters } from './failures.ts';
import { ProgressBoard, progressRoutes, uploadIdOf } from './progress.ts';
import { securityPlugin } from './security.ts';
import { signalsPlugin } from './signals.ts';
import { defaultUploadRoot, ensureUploadRoot, receiveUpload, sweepUploads, UPLOAD_LIMITS } from './upload.ts';

export interface SharedAppOptions {
  /** The workspace key and formats (uploads are redacted and parsed with them); its DuckDB is not read. */
  ctx: Context;
  shared: ClickHouseStore;
  uiDist?: string;
  maxUploadMb?: number;
  allowedHosts?: string[];
  token?: string;
  uploadDir?: string;
  logger?: boolean;
}

const ID = /^inc_[a-z0-9]{6,40}$/;
const HistogramQuery = z.object({ buckets: z.coerce.number().int().min(1).max(1000).default(120) });

function incidentId(req: FastifyRequest): string {
  const id = (req.params as { id: string }).id;
  if (!ID.test(id)) throw new TriageError('TRIAGE_ERR_NOT_FOUND', `no incident ${JSON.stringify(id.slice(0, 80))}`);
  return id;
}

function parsed<T>(schema: z.ZodType<T>, v: unknown, what: string): T {
  const r = schema.safeParse(v);
  if (!r.success) throw new TriageError('TRIAGE_ERR_USAGE', `bad ${what}: ${r.error.issues.map((i) => `${i.path.join('.') || 'query'}: ${i.message}`).join('; ')}`);
  return r.data;
}

export async function buildSharedApp(opts: SharedAppOptions): Promise<FastifyInstance> {
  const { ctx, shared } = opts;
  const maxMb = opts.maxUploadMb ?? 2048;
  if (!(maxMb > 0) || !Number.isFinite(maxMb)) throw new TriageError('TRIAGE_ERR_USAGE', `--max-upload-mb must be a positive number (got ${maxMb})`);
  const maxUpload = Math.floor(maxMb * 1024 * 1024);
  const uploadRoot = opts.uploadDir ?? defaultUploadRoot(':memory:');
  ensureUploadRoot(uploadRoot);
  sweepUploads(uploadRoot);
  const app = Fastify({ logger: opts.logger ?? false, bodyLimit: 1024 * 1024, trustProxy: false });
  app.setErrorHandler((err, _req, reply) => {
    if (err instanceof TriageError) return reply.code(err.status).send({ error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) } });
    const e = err as { statusCode?: number; code?: string; message: string };
    if (e.statusCode === 413 || e.code === 'FST_REQ_FILE_TOO_LARGE' || e.code === 'FST_FILES_LIMIT' || e.code === 'FST_PARTS_LIMIT' || e.code === 'FST_FIELDS_LIMIT') {
      return reply.code(413).send({ error: { code: 'TRIAGE_ERR_TOO_LARGE', message: `upload too large (at most ${maxMb} MiB, ${UPLOAD_LIMITS.files} files per upload)` } });
    }
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
      return reply.code(e.statusCode).send({ error: { code: e.statusCode === 415 ? 'TRIAGE_ERR_UNSUPPORTED_MEDIA' : e.statusCode === 403 ? 'TRIAGE_ERR_FORBIDDEN' : e.statusCode === 404 ? 'TRIAGE_ERR_NOT_FOUND' : 'TRIAGE_ERR_USAGE', message: e.message } });
    }
    // The error's name, code and stack only: never bodies, headers, log content or credentials.
    app.log.error({ err: { type: (err as Error).name, code: e.code, stack: (err as Error).stack } }, 'internal error');
    return reply.code(500).send({ error: { code: 'TRIAGE_ERR_INTERNAL', message: 'internal error; see the server log' } });
  });
  await app.register(securityPlugin, { allowedHosts: opts.allowedHosts, token: opts.token });
  await app.register(fastifyMultipart, { limits: { fileSize: maxUpload, files: UPLOAD_LIMITS.files, parts: UPLOAD_LIMITS.parts, fields: UPLOAD_LIMITS.fields, fieldSize: UPLOAD_LIMITS.fieldSize, headerPairs: UPLOAD_LIMITS.headerPairs } });
  app.get('/api/health', async () => ({ ok: true, version: VERSION, store: shared.target.display }));

  const upload = { root: uploadRoot, maxBytes: maxUpload };
  const board = new ProgressBoard();
  progressRoutes(app, board);
  const filters = (q: unknown) => parsed(EventFilters, q, 'filter');
  const known = async (id: string) => assertIncident(await shared.incident(id), id);

  app.post('/api/incidents', async (req, reply) => {
    const uploadId = uploadIdOf(req);
    board.receiving(uploadId);
    let up: Awaited<ReturnType<typeof receiveUpload>>;
    try {
      up = await receiveUpload(req, upload);
    } catch (e) {
      board.forget(uploadId);
      throw e;
    }
    try {
      const { entries } = up;
      const name = (logs: readonly string[]) => (logs.length <= 1 ? (logs[0] ?? entries[0]!.name) : `${logs[0]} +${logs.length - 1}`);
      const r = await shared.ingest(ctx, entries, { name, onProgress: board.follow(uploadId) });
      return reply.code(201).send({ id: r.id, skippedFiles: r.skippedFiles });
    } finally {
      board.forget(uploadId);
      await up.dispose();
    }
  });

  app.post('/api/incidents/:id/files', async (req) => {
    const id = incidentId(req);
    await known(id);
    const uploadId = uploadIdOf(req);
    board.receiving(uploadId);
    let up: Awaited<ReturnType<typeof receiveUpload>>;
    try {
      up = await receiveUpload(req, upload);
    } catch (e) {
      board.forget(uploadId);
      throw e;
    }
    try {
      const r = await shared.ingest(ctx, up.entries, { id, name: id, onProgress: board.follow(uploadId) });
      return { id, added: r.added, skipped: r.skipped, skippedFiles: r.skippedFiles };
    } finally {
      board.forget(uploadId);
      await up.dispose();
    }
  });

  app.get('/api/incidents', async () => shared.listIncidents());

  app.get('/api/incidents/:id', async (req) => {
    const id = incidentId(req);
    const row = await known(id);
    return { ...row, inputs: row.state === 'ready' ? await shared.files(id) : [] };
  });

  app.get('/api/incidents/:id/analysis', async (req) => {
    const id = incidentId(req);
    await known(id);
    const a = await shared.analysis(id);
    if (!a) throw new TriageError('TRIAGE_ERR_NOT_FOUND', `incident ${id} has no analysis yet (state: ingesting or incomplete); upload its files again`);
    return a;
  });

  app.get('/api/incidents/:id/events', async (req, reply) => {
    const id = incidentId(req);
    await known(id);
    const { rows, total, next } = await chQueryEvents(shared, id, filters(req.query));
    reply.header('X-Total-Count', String(total));
    if (next) reply.header('X-Next-After', next);
    const ipc = eventsToArrow(rows);
    return reply.type('application/vnd.apache.arrow.stream').send(Buffer.from(ipc.buffer, ipc.byteOffset, ipc.byteLength));
  });

  app.get('/api/incidents/:id/events/count', async (req) => {
    const id = incidentId(req);
    await known(id);
    return { total: await chCountEvents(shared, id, filters(req.query)) };
  });

  app.get('/api/incidents/:id/histogram', async (req) => {
    const id = incidentId(req);
    await known(id);
    return chHistogram(shared, id, parsed(HistogramQuery, req.query, 'query').buckets);
  });

  app.get('/api/incidents/:id/report', async (req, reply) => {
    const id = incidentId(req);
    await known(id);
    const report = await incidentReport(shared, id, { key: ctx.key, exclude: excludeOf(req.query) });
    if ((req.query as { format?: string }).format === 'json') return { markdown: report.markdown, redactions: report.redactions, sections: report.sections };
    return reply.type('text/markdown; charset=utf-8').header('Content-Disposition', `inline; filename="${id}-report.md"`).send(report.markdown);
  });

  app.delete('/api/incidents/:id', async (req, reply) => {
    const id = incidentId(req);
    if (!(await shared.deleteIncident(id))) throw new TriageError('TRIAGE_ERR_NOT_FOUND', `no incident ${id}`);
    return reply.code(204).send();
  });

  app.get('/api/failures', async (req) => chFailuresAcross(shared, failureFilters(req.query)));

  const later = async (req: FastifyRequest) => {
    throw new TriageError('TRIAGE_ERR_NOT_IMPLEMENTED', `${req.method} ${req.url.split('?')[0]} does not read a shared store yet (serve --store); the embedded store has it`);
  };
  for (const path of ['/api/incidents/:id/unit', '/api/incidents/:id/export.html', '/api/incidents/:id/verify']) app.get(path, later);
  app.post('/api/incidents/:id/verify', later);
  app.post('/api/sql', later);
  await app.register(signalsPlugin);
  app.all('/api/*', async (req) => {
    throw new TriageError('TRIAGE_ERR_NOT_FOUND', `no route ${req.method} ${req.url.split('?')[0]}`);
  });
  const dist = opts.uiDist ? resolve(opts.uiDist) : null;
  if (dist && existsSync(resolve(dist, 'index.html'))) {
    await app.register(fastifyStatic, { root: dist, wildcard: false });
    app.setNotFoundHandler((req, reply) => {
      if (req.method === 'GET' && !req.url.startsWith('/assets/')) return reply.type('text/html').sendFile('index.html');
      return reply.code(404).send({ error: { code: 'TRIAGE_ERR_NOT_FOUND', message: `not found: ${req.url.split('?')[0]}` } });
    });
  }
  app.addHook('onClose', async () => shared.close());
  return app;
}
