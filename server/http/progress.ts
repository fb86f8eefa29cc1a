// Ingest progress for the browser. An upload may name itself (header X-Upload-Id); its ingest then
// reports under that name and `GET /api/uploads/:uploadId/progress` reads it while the POST that
// carries the files is still running: from the moment the POST arrives (phase receive; then queued,
// with its place in line, while it waits for its turn, ingest-queue.ts) until a short
// grace after it ends (its last state), so a browser polling around its own upload never meets a 404
// (which it would log as an error). 404 before the POST arrives and after the grace.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IngestProgress } from '../contract/progress.ts';
import { TriageError } from '../errors.ts';

export const UPLOAD_ID = /^[A-Za-z0-9_-]{8,64}$/;
/** Ingests followed at once; past this the oldest is forgotten (its POST still completes). */
const MAX_FOLLOWED = 64;

/** How long a finished upload's last state stays readable. */
export const PROGRESS_GRACE_MS = 15_000;

export class ProgressBoard {
  private readonly now = new Map<string, IngestProgress>();

  constructor(private readonly graceMs = PROGRESS_GRACE_MS) {}

  /** The POST arrived: known from now on, even before a byte of it is ingested. */
  receiving(uploadId: string | null): void {
    this.follow(uploadId)?.({ phase: 'receive', file: '', fileIndex: 0, files: 0 });
  }

  /** Received, waiting for its turn (ingest-queue.ts): `position` 1 is next. */
  queued(uploadId: string | null, position: number, files: number): void {
    this.follow(uploadId)?.({ phase: 'queued', position, file: '', fileIndex: 0, files });
  }

  /** The reporter for one ingest, or undefined when the upload did not name itself. */
  follow(uploadId: string | null): ((p: IngestProgress) => void) | undefined {
    if (uploadId === null) return undefined;
    return (p) => {
      if (!this.now.has(uploadId) && this.now.size >= MAX_FOLLOWED) this.now.delete(this.now.keys().next().value!);
      this.now.set(uploadId, p);
    };
  }

  /** The POST ended: its last state stays readable for the grace period, then the id is unknown again. */
  forget(uploadId: string | null): void {
    if (uploadId === null) return;
    const last = this.now.get(uploadId);
    if (this.graceMs <= 0 || !last) {
      this.now.delete(uploadId);
      return;
    }
    setTimeout(() => {
      if (this.now.get(uploadId) === last) this.now.delete(uploadId);
    }, this.graceMs).unref();
  }

  get(uploadId: string): IngestProgress | undefined {
    return this.now.get(uploadId);
  }
}

/** The request's X-Upload-Id, or null; a malformed one is refused before any byte is stored. */
export function uploadIdOf(req: FastifyRequest): string | null {
  const raw = req.headers['x-upload-id'];
  if (raw === undefined) return null;
  const id = Array.isArray(raw) ? raw[0]! : raw;
  if (!UPLOAD_ID.test(id)) throw new TriageError('TRIAGE_ERR_USAGE', 'X-Upload-Id must be 8 to 64 characters of A-Z, a-z, 0-9, "_" and "-" (or leave it out)');
  return id;
}

export function progressRoutes(app: FastifyInstance, board: ProgressBoard): void {
  app.get('/api/uploads/:uploadId/progress', async (req, reply) => {
    const id = (req.params as { uploadId: string }).uploadId;
    if (!UPLOAD_ID.test(id)) throw new TriageError('TRIAGE_ERR_NOT_FOUND', 'not an upload id (8 to 64 characters of A-Z, a-z, 0-9, "_" and "-")');
    const p = board.get(id);
    // nothing to report for this id (its POST has not arrived yet, or ended a while ago): 204, not an
    // error — the UI polls as it sends, and a poll may overtake the POST (browsers log every 404)
    if (!p) return reply.code(204).send();
    return p;
  });
}
