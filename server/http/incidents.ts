// /api/incidents: create by upload, add files, list, analysis, events (Arrow), report, delete.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { TriageError } from '../errors.ts';
import { incidentReport, ingestIncident, type Context } from '../incidents.ts';
import { entryFromBuffer, type InputEntry } from '../ingest/inputs.ts';
import { EventFilters, eventsToArrow, queryEvents } from '../store/events-query.ts';
import { assertIncident } from '../store/store.ts';

const ID = /^inc_[a-z0-9]{6,40}$/;

function incidentId(req: FastifyRequest): string {
  const id = (req.params as { id: string }).id;
  if (!ID.test(id)) throw new TriageError('TRIAGE_ERR_NOT_FOUND', `no incident ${JSON.stringify(id.slice(0, 80))}`);
  return id;
}

/** Read every file part of a multipart upload (any field name). */
async function readUpload(req: FastifyRequest): Promise<InputEntry[]> {
  if (!req.isMultipart()) throw new TriageError('TRIAGE_ERR_UNSUPPORTED_MEDIA', 'send the logs as multipart/form-data (one or more file parts)');
  const entries: InputEntry[] = [];
  const names = new Set<string>();
  for await (const part of req.parts()) {
    if (part.type !== 'file') continue;
    const data = await part.toBuffer();
    if ((part.file as { truncated?: boolean }).truncated) throw new TriageError('TRIAGE_ERR_TOO_LARGE', `${part.filename}: file over the upload limit`);
    // Never use a client's path as a path: keep a clean display name, unique within the upload.
    let name = (part.filename || 'upload.log').replace(/\\/g, '/').split('/').filter((s) => s && s !== '..' && s !== '.').join('/').replace(/[\x00-\x1f]/g, '').slice(-200) || 'upload.log';
    for (let i = 2; names.has(name); i++) name = name.replace(/(\.[^.]*)?$/, `-${i}$1`);
    names.add(name);
    if (/\.(zip|tar|tgz|tar\.gz|7z|rar)$/i.test(name)) throw new TriageError('TRIAGE_ERR_UNSUPPORTED_MEDIA', `${name}: archives are not supported yet; upload the log files themselves`);
    entries.push(entryFromBuffer(name, data));
  }
  if (!entries.length) throw new TriageError('TRIAGE_ERR_USAGE', 'the upload holds no file parts; attach one or more log files');
  return entries;
}

export const incidentsPlugin: FastifyPluginAsync<{ ctx: Context; maxUploadBytes: number }> = async (app, { ctx }) => {
  const { store } = ctx;

  app.post('/api/incidents', async (req, reply) => {
    const entries = await readUpload(req);
    const name = entries.length === 1 ? entries[0]!.name : `${entries[0]!.name} +${entries.length - 1}`;
    const r = await ingestIncident(ctx, entries, { name });
    return reply.code(201).send({ id: r.id });
  });

  app.post('/api/incidents/:id/files', async (req) => {
    const id = incidentId(req);
    assertIncident(await store.incident(id), id);
    const entries = await readUpload(req);
    const r = await ingestIncident(ctx, entries, { id, name: id });
    return { id, added: r.added, skipped: r.skipped };
  });

  app.get('/api/incidents', async () => store.listIncidents());

  app.get('/api/incidents/:id', async (req) => {
    const id = incidentId(req);
    const row = assertIncident(await store.incident(id), id);
    return { ...row, inputs: await store.files(id) };
  });

  app.get('/api/incidents/:id/analysis', async (req) => {
    const id = incidentId(req);
    assertIncident(await store.incident(id), id);
    const a = await store.analysis(id);
    if (!a) throw new TriageError('TRIAGE_ERR_NOT_FOUND', `incident ${id} has no analysis yet (state: ingesting or incomplete); upload its files again`);
    return a;
  });

  app.get('/api/incidents/:id/events', async (req, reply) => {
    const id = incidentId(req);
    assertIncident(await store.incident(id), id);
    const parsed = EventFilters.safeParse(req.query);
    if (!parsed.success) throw new TriageError('TRIAGE_ERR_USAGE', `bad filter: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    const { rows, total } = await queryEvents(store, id, parsed.data);
    reply.header('X-Total-Count', String(total));
    return reply.type('application/vnd.apache.arrow.stream').send(Buffer.from(eventsToArrow(rows)));
  });

  app.get('/api/incidents/:id/report', async (req, reply) => {
    const id = incidentId(req);
    assertIncident(await store.incident(id), id);
    const report = await incidentReport(store, id);
    if ((req.query as { format?: string }).format === 'json') return { markdown: report.markdown, redactions: report.redactions, sections: report.sections };
    return reply.type('text/markdown; charset=utf-8').header('Content-Disposition', `inline; filename="${id}-report.md"`).send(report.markdown);
  });

  app.delete('/api/incidents/:id', async (req, reply) => {
    const id = incidentId(req);
    if (!(await store.deleteIncident(id))) throw new TriageError('TRIAGE_ERR_NOT_FOUND', `no incident ${id}`);
    return reply.code(204).send();
  });
};
