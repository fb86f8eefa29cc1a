// /api/incidents: create by upload, add files, list, analysis, events (Arrow), report, delete.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { TriageError } from '../errors.ts';
import { PrivacyMode } from '../contract/privacy.ts';
import type { SkippedFile } from '../contract/analysis.ts';
import { incidentReport, ingestIncident, type Context } from '../incidents.ts';
import { countEvents, EventFilters, eventsToArrow, queryEventsPage } from '../store/events-query.ts';
import { assertIncident } from '../store/store.ts';
import { ProgressBoard, progressRoutes, uploadIdOf } from './progress.ts';
import { apiExit, exitAnalysis, exitRows, refuseSearch } from './exposure.ts';
import { defaultUploadRoot, receiveUpload } from './upload.ts';

const ID = /^inc_[a-z0-9]{6,40}$/;

function incidentId(req: FastifyRequest): string {
  const id = (req.params as { id: string }).id;
  if (!ID.test(id)) throw new TriageError('TRIAGE_ERR_NOT_FOUND', `no incident ${JSON.stringify(id.slice(0, 80))}`);
  return id;
}

export const incidentsPlugin: FastifyPluginAsync<{ ctx: Context; maxUploadBytes: number; uploadRoot?: string }> = async (app, { ctx, maxUploadBytes, uploadRoot }) => {
  const { store } = ctx;
  const upload = { root: uploadRoot ?? defaultUploadRoot(store.path), maxBytes: maxUploadBytes };
  const board = new ProgressBoard();
  progressRoutes(app, board);

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
    let id: string;
    let skippedFiles: SkippedFile[];
    try {
      const { entries } = up;
      // Named after the files that are logs: a README or a screenshot uploaded with them does not name it.
      const name = (logs: readonly string[]) => (logs.length <= 1 ? (logs[0] ?? entries[0]!.name) : `${logs[0]} +${logs.length - 1}`);
      // Nothing that is a log: 415 (nothing was text) or 422 (text, but no log line), from the ingest.
      ({ id, skippedFiles } = await ingestIncident(ctx, entries, { name, onProgress: board.follow(uploadId), ...privacyOf(req.query) }));
    } finally {
      board.forget(uploadId);
      await up.dispose(); // before answering: the raw upload is gone when the client hears back
    }
    // Added (issue #18): the files that were not read because they are not logs, and why; also in the analysis.
    return reply.code(201).send({ id, skippedFiles });
  });

  app.post('/api/incidents/:id/files', async (req) => {
    const id = incidentId(req);
    assertIncident(await store.incident(id), id);
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
      const r = await ingestIncident(ctx, up.entries, { id, name: id, onProgress: board.follow(uploadId), ...privacyOf(req.query) });
      // skipped: identical to files already held; skippedFiles (added): not logs, with why.
      return { id, added: r.added, skipped: r.skipped, skippedFiles: r.skippedFiles };
    } finally {
      board.forget(uploadId);
      await up.dispose();
    }
  });

  app.get('/api/incidents', async () => store.listIncidents());

  app.get('/api/incidents/:id', async (req) => {
    const id = incidentId(req);
    const row = assertIncident(await store.incident(id), id);
    const inputs = await store.files(id);
    const exit = await apiExit(ctx, id);
    // A file's line prefix (a syslog host, a pod name) is log text: through the exit beyond loopback.
    return { ...row, inputs: exit ? inputs.map((f) => ({ ...f, prefix: f.prefix === null ? null : exit.text(f.prefix) })) : inputs };
  });

  app.get('/api/incidents/:id/analysis', async (req) => {
    const id = incidentId(req);
    assertIncident(await store.incident(id), id);
    const a = await store.analysis(id);
    if (!a) throw new TriageError('TRIAGE_ERR_NOT_FOUND', `incident ${id} has no analysis yet (state: ingesting or incomplete); upload its files again`);
    const exit = await apiExit(ctx, id);
    return exit ? exitAnalysis(a, exit) : a;
  });

  app.get('/api/incidents/:id/events', async (req, reply) => {
    const id = incidentId(req);
    assertIncident(await store.incident(id), id);
    const filters = eventFilters(req.query);
    const exit = await apiExit(ctx, id);
    refuseSearch(exit, filters.q);
    const { rows, total, next } = await queryEventsPage(store, id, filters);
    // A text search's count may still be running (it scans every text): the page goes out first,
    // and GET …/events/count answers once the count is in.
    if (total !== null) reply.header('X-Total-Count', String(total));
    else reply.header('X-Total-Pending', '1');
    // Keyset cursor for the next page (`after=` it): cheaper than a deep offset. Added, optional.
    if (next) reply.header('X-Next-After', next);
    const ipc = exit ? eventsToArrow(exitRows(rows.toArray(), exit)) : eventsToArrow(rows);
    return reply.type('application/vnd.apache.arrow.stream').send(Buffer.from(ipc.buffer, ipc.byteOffset, ipc.byteLength));
  });

  // Added: the number of events matching the same filters as /events (limit/offset/after ignored).
  app.get('/api/incidents/:id/events/count', async (req) => {
    const id = incidentId(req);
    assertIncident(await store.incident(id), id);
    const filters = eventFilters(req.query);
    refuseSearch(await apiExit(ctx, id), filters.q);
    return { total: await countEvents(store, id, filters) };
  });

  app.get('/api/incidents/:id/report', async (req, reply) => {
    const id = incidentId(req);
    assertIncident(await store.incident(id), id);
    const report = await incidentReport(store, id, { key: ctx.key, exclude: excludeOf(req.query) });
    if ((req.query as { format?: string }).format === 'json') return { markdown: report.markdown, redactions: report.redactions, sections: report.sections };
    return reply.type('text/markdown; charset=utf-8').header('Content-Disposition', `inline; filename="${id}-report.md"`).send(report.markdown);
  });

  app.delete('/api/incidents/:id', async (req, reply) => {
    const id = incidentId(req);
    if (!(await store.deleteIncident(id))) throw new TriageError('TRIAGE_ERR_NOT_FOUND', `no incident ${id}`);
    return reply.code(204).send();
  });
};

/**
 * `?privacy=strict|standard` on an upload (added 2026-12): what is redacted before storage. Absent:
 * standard for a new incident, the incident's own mode when adding files. A server started with
 * --strict, or on a non-loopback host, stores everything strict whatever is asked.
 */
export function privacyOf(query: unknown): { mode?: PrivacyMode } {
  const raw = (query as { privacy?: unknown } | undefined)?.privacy;
  if (raw === undefined) return {};
  const m = PrivacyMode.safeParse(raw);
  if (!m.success) throw new TriageError('TRIAGE_ERR_USAGE', `bad query: privacy takes standard or strict, not ${JSON.stringify(String(raw).slice(0, 40))}`);
  return { mode: m.data };
}

/** `?exclude=file:line` (repeatable, or comma-separated): evidence lines the user left out after a refusal. */
export function excludeOf(query: unknown): string[] {
  const raw = (query as { exclude?: string | string[] } | undefined)?.exclude;
  const list = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).flatMap((v) => String(v).split(',')).map((v) => v.trim()).filter(Boolean);
  if (list.length > 200) throw new TriageError('TRIAGE_ERR_USAGE', 'bad query: at most 200 exclude places');
  for (const v of list) if (v.length > 1000 || !/^.+:\d{1,10}$/.test(v)) throw new TriageError('TRIAGE_ERR_USAGE', `bad query: exclude takes file:line places, not ${JSON.stringify(v.slice(0, 80))}`);
  return list;
}

function eventFilters(query: unknown): EventFilters {
  const parsed = EventFilters.safeParse(query);
  if (!parsed.success) throw new TriageError('TRIAGE_ERR_USAGE', `bad filter: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}
