// /api/incidents: create by upload, add files, list, analysis, events (Arrow), report, delete.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { TriageError } from '../errors.ts';
import { PrivacyMode } from '../contract/privacy.ts';
import type { SkippedFile } from '../contract/analysis.ts';
import { incidentReport, type Context } from '../incidents.ts';
import { EventFilters, EventPage, eventsToArrow } from '../store/events-query.ts';
import type { UploadRecord } from '../store/store.ts';
import { ClientGone } from './admission.ts';
import { IngestQueue } from './ingest-queue.ts';
import { ProgressBoard, progressRoutes, uploadIdOf } from './progress.ts';
import { apiExit, exitAnalysis, exitRows, refuseSearch } from './exposure.ts';
import { Serving } from './serving.ts';
import { defaultUploadRoot, receiveUpload } from './upload.ts';
import type { ServedStore } from './backend.ts';

const ID = /^inc_[a-z0-9]{6,40}$/;

function incidentId(req: FastifyRequest): string {
  const id = (req.params as { id: string }).id;
  if (!ID.test(id)) throw new TriageError('TRIAGE_ERR_NOT_FOUND', `no incident ${JSON.stringify(id.slice(0, 80))}`);
  return id;
}

export const incidentsPlugin: FastifyPluginAsync<{
  ctx: Context;
  store: ServedStore;
  maxUploadBytes: number;
  uploadRoot?: string;
  serving?: Serving;
  ingests?: IngestQueue;
}> = async (app, opts) => {
  const { ctx, store, maxUploadBytes, uploadRoot } = opts;
  const serving = opts.serving ?? new Serving(store);
  const json = (reply: FastifyReply, body: string) => reply.type('application/json; charset=utf-8').send(body);
  const upload = { root: uploadRoot ?? defaultUploadRoot(store.path), maxBytes: maxUploadBytes };
  const board = new ProgressBoard();
  progressRoutes(app, board);

  const queue = opts.ingests ?? new IngestQueue();
  /** Uploads under way, by upload id: a retry of one waits for it, then answers what it stored. */
  const underway = new Map<string, Promise<unknown>>();

  /**
   * One upload, into a new incident (`target` 'new') or an existing one. In order:
   *  - with an upload id, a retry: it waits for the try still under way, then answers what the
   *    first committed try stored (X-Upload-Replayed: 1), without reading its own body;
   *  - a place among the uploads the server holds (503 past the bound, before reading the body);
   *  - the files, received to a private temp folder (upload.ts);
   *  - its turn in its line by size (ingest-queue.ts: phase `queued` with its place meanwhile);
   *  - the ingest, one transaction, recording the upload id with it.
   * A client that goes away before the commit calls the whole upload off: nothing is stored.
   */
  async function receiveAndIngest(
    req: FastifyRequest,
    reply: FastifyReply,
    target: string,
  ): Promise<{ id: string; added: number; skipped: number; skippedFiles: SkippedFile[]; replayed: boolean }> {
    const uploadId = uploadIdOf(req);
    const privacy = privacyOf(req.query);
    const gone = new AbortController();
    const onClose = () => {
      if (!reply.raw.writableEnded) gone.abort();
    };
    reply.raw.on('close', onClose);
    try {
      if (uploadId) {
        for (;;) {
          const prior = underway.get(uploadId);
          if (prior) {
            await Promise.race([prior.catch(() => undefined), new Promise((r) => gone.signal.addEventListener('abort', r, { once: true }))]);
            if (gone.signal.aborted) throw new ClientGone();
            continue;
          }
          const done = await store.upload(uploadId);
          if (done) return { ...(await replayed(done, uploadId, target)), replayed: true };
          if (!underway.has(uploadId)) break; // else another retry started meanwhile: wait for it
        }
      }
      const work = (async () => {
        const held = queue.admit(reply);
        board.receiving(uploadId);
        try {
          const up = await receiveUpload(req, upload);
          try {
            const { entries } = up;
            const bytes = entries.reduce((n, e) => n + e.size, 0);
            return await queue.run(
              bytes,
              gone.signal,
              (position) => board.queued(uploadId, position, entries.length),
              () =>
                store.ingest(ctx, entries, {
                  ...(target === 'new'
                    ? // Named after the files that are logs: a README or a screenshot uploaded with them does not name it.
                      { name: (logs: readonly string[]) => (logs.length <= 1 ? (logs[0] ?? entries[0]!.name) : `${logs[0]} +${logs.length - 1}`) }
                    : { id: target, name: target }),
                  onProgress: board.follow(uploadId),
                  ...privacy,
                  signal: gone.signal,
                  upload: uploadId ? { uploadId, target } : undefined,
                }),
            );
          } finally {
            await up.dispose(); // before answering: the raw upload is gone when the client hears back
          }
        } finally {
          board.forget(uploadId);
          held.release();
        }
      })();
      if (uploadId) underway.set(uploadId, work);
      try {
        // Nothing that is a log: 415 (nothing was text) or 422 (text, but no log line), from the ingest.
        const r = await work;
        return { id: r.id, added: r.added, skipped: r.skipped, skippedFiles: r.skippedFiles, replayed: false };
      } finally {
        if (uploadId && underway.get(uploadId) === work) underway.delete(uploadId);
      }
    } finally {
      reply.raw.off('close', onClose);
    }
  }

  /** What a committed upload answered, for its retry; 409 when the id was used for another target. */
  async function replayed(done: UploadRecord & { incidentId: string }, uploadId: string, target: string) {
    if (done.target !== target) {
      const first = done.target === 'new' ? `an upload that created incident ${done.incidentId}` : `files added to incident ${done.target}`;
      throw new TriageError(
        'TRIAGE_ERR_CONFLICT',
        `X-Upload-Id ${uploadId} was already used for ${first}; send a new id with each upload (the same id only to retry the same upload)`,
        {
          incidentId: done.incidentId,
        },
      );
    }
    // The analysis is written just after the commit: a server stopped in between left none.
    await store.ensureAnalysis(done.incidentId);
    return { id: done.incidentId, ...done.result };
  }

  app.post('/api/incidents', async (req, reply) => {
    const r = await receiveAndIngest(req, reply, 'new');
    if (r.replayed) reply.header('X-Upload-Replayed', '1');
    // Added (issue #18): the files that were not read because they are not logs, and why; also in the analysis.
    return reply.code(201).send({ id: r.id, skippedFiles: r.skippedFiles });
  });

  app.post('/api/incidents/:id/files', async (req, reply) => {
    const id = incidentId(req);
    await serving.incident(id);
    const r = await receiveAndIngest(req, reply, id);
    if (r.replayed) reply.header('X-Upload-Replayed', '1');
    // skipped: identical to files already held; skippedFiles (added): not logs, with why.
    return { id, added: r.added, skipped: r.skipped, skippedFiles: r.skippedFiles };
  });

  // Reads: the incident list and rows come from Serving's per-version list; the analysis and the
  // report are cached per incident version (answers.ts); every store query runs in a read slot
  // (admission.ts: 429/503 with Retry-After past the bounds).
  app.get('/api/incidents', async (req, reply) =>
    json(reply, await serving.cached(reply, await serving.answers.key('list', null), async () => JSON.stringify(await serving.incidents()))),
  );

  app.get('/api/incidents/:id', async (req, reply) => {
    const id = incidentId(req);
    await serving.incident(id);
    return json(
      reply,
      await serving.cached(reply, await serving.answers.key('incident', id), async () => {
        const inputs = await store.files(id);
        const exit = await apiExit(ctx, store, id);
        // A file's line prefix (a syslog host, a pod name) is log text: through the exit beyond loopback.
        return JSON.stringify({ ...(await serving.incident(id)), inputs: exit ? inputs.map((f) => ({ ...f, prefix: f.prefix === null ? null : exit.text(f.prefix) })) : inputs });
      }),
    );
  });

  app.get('/api/incidents/:id/analysis', async (req, reply) => {
    const id = incidentId(req);
    await serving.incident(id);
    return json(
      reply,
      await serving.cached(reply, await serving.answers.key('analysis', id), async () => {
        const a = await store.analysis(id);
        if (!a) throw new TriageError('TRIAGE_ERR_NOT_FOUND', `incident ${id} has no analysis yet (state: ingesting or incomplete); upload its files again`);
        const exit = await apiExit(ctx, store, id);
        return JSON.stringify(exit ? exitAnalysis(a, exit) : a);
      }),
    );
  });

  app.get('/api/incidents/:id/events', async (req, reply) => {
    const id = incidentId(req);
    await serving.incident(id);
    const filters = eventFilters(req.query);
    const ipc = await serving.read(reply, async () => {
      const exit = await apiExit(ctx, store, id);
      refuseSearch(exit, filters.q);
      const { rows, total, next } = await store.eventsPage(id, filters);
      // A text search's count may still be running (it scans every text): the page goes out first,
      // and GET …/events/count answers once the count is in.
      if (total !== null) reply.header('X-Total-Count', String(total));
      else reply.header('X-Total-Pending', '1');
      // Keyset cursor for the next page (`after=` it): cheaper than a deep offset. Added, optional.
      if (next) reply.header('X-Next-After', next);
      return exit ? eventsToArrow(exitRows(rows instanceof EventPage ? rows.toArray() : rows, exit)) : eventsToArrow(rows);
    });
    return reply.type('application/vnd.apache.arrow.stream').send(Buffer.from(ipc.buffer, ipc.byteOffset, ipc.byteLength));
  });

  // Added: the number of events matching the same filters as /events (limit/offset/after ignored).
  app.get('/api/incidents/:id/events/count', async (req, reply) => {
    const id = incidentId(req);
    await serving.incident(id);
    const filters = eventFilters(req.query);
    return {
      total: await serving.read(reply, async () => {
        refuseSearch(await apiExit(ctx, store, id), filters.q);
        return store.countEvents(id, filters);
      }),
    };
  });

  app.get('/api/incidents/:id/report', async (req, reply) => {
    const id = incidentId(req);
    await serving.incident(id);
    const exclude = excludeOf(req.query);
    const asJson = (req.query as { format?: string }).format === 'json';
    const body = await serving.cached(reply, await serving.answers.key(asJson ? 'report.json' : 'report.md', id, JSON.stringify(exclude)), async () => {
      const report = await incidentReport(store, id, { key: ctx.key, exclude });
      return asJson ? JSON.stringify({ markdown: report.markdown, redactions: report.redactions, sections: report.sections }) : report.markdown;
    });
    if (asJson) return json(reply, body);
    return reply.type('text/markdown; charset=utf-8').header('Content-Disposition', `inline; filename="${id}-report.md"`).send(body);
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
  const list = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])
    .flatMap((v) => String(v).split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  if (list.length > 200) throw new TriageError('TRIAGE_ERR_USAGE', 'bad query: at most 200 exclude places');
  for (const v of list)
    if (v.length > 1000 || !/^.+:\d{1,10}$/.test(v)) throw new TriageError('TRIAGE_ERR_USAGE', `bad query: exclude takes file:line places, not ${JSON.stringify(v.slice(0, 80))}`);
  return list;
}

function eventFilters(query: unknown): EventFilters {
  const parsed = EventFilters.safeParse(query);
  if (!parsed.success) throw new TriageError('TRIAGE_ERR_USAGE', `bad filter: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}
