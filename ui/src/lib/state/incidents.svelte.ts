// State of the incidents list and of one upload. Views are thin shells over these.
import { timeLeft, type IngestProgress } from '../../../../server/contract/progress.ts';
import { ApiError, describeError, getIngestProgress, listIncidents, uploadIncident, type IncidentSummary } from '../api.ts';

export class IncidentListState {
  items = $state<IncidentSummary[]>([]);
  loading = $state(false);
  loaded = $state(false);
  error = $state<string | null>(null);
  #ctrl: AbortController | null = null;
  /**
   * The upload id of these files: kept while the list is the same, so "Analyse" again after a
   * failure is a retry of the same upload, which the server answers with the incident its first
   * try stored, if it stored one, instead of making a second (X-Upload-Id). New files, a new id.
   */
  #uploadId: string | null = null;

  async load(): Promise<void> {
    this.#ctrl?.abort();
    const ctrl = (this.#ctrl = new AbortController());
    this.loading = true;
    this.error = null;
    try {
      const items = await listIncidents(ctrl.signal);
      // The contract says newest first; sort anyway so a mis-ordered server cannot confuse people.
      items.sort((a, b) => new Date(b.createdAt).getTime() - new Date(a.createdAt).getTime());
      this.items = items;
      this.loaded = true;
    } catch (e) {
      if (ctrl.signal.aborted) return;
      this.error = describeError(e);
    } finally {
      if (this.#ctrl === ctrl) this.loading = false;
    }
  }

  /** While any incident is still ingesting, poll so its state and decision appear without a reload. */
  get anyIngesting(): boolean {
    return this.items.some((i) => i.state === 'ingesting');
  }
}

export type UploadPhase = 'idle' | 'uploading' | 'processing' | 'done' | 'error';

export interface PendingFile {
  file: File;
  /** Set when the server's error names this file. */
  error: string | null;
}

export class UploadState {
  files = $state<PendingFile[]>([]);
  phase = $state<UploadPhase>('idle');
  loaded = $state(0);
  total = $state(0);
  error = $state<{ code: string; message: string; status: number } | null>(null);
  /** While processing: the server's ingest progress (null until it answers). */
  ingest = $state<IngestProgress | null>(null);
  /** Seconds left in the current ingest phase, from its rate so far (null: not known yet). */
  ingestLeft = $state<number | null>(null);
  #ctrl: AbortController | null = null;
  /**
   * The upload id of these files: kept while the list is the same, so "Analyse" again after a
   * failure is a retry of the same upload, which the server answers with the incident its first
   * try stored, if it stored one, instead of making a second (X-Upload-Id). New files, a new id.
   */
  #uploadId: string | null = null;

  percent = $derived(this.total > 0 ? Math.min(100, Math.round((this.loaded / this.total) * 100)) : 0);
  /** Percent of the current ingest phase's bytes (null: not known, e.g. while analysing). */
  ingestPercent = $derived(this.ingest?.done !== undefined && this.ingest.total ? Math.min(100, Math.floor((this.ingest.done / this.ingest.total) * 100)) : null);
  totalBytes = $derived(this.files.reduce((n, f) => n + f.file.size, 0));
  busy = $derived(this.phase === 'uploading' || this.phase === 'processing');

  add(list: Iterable<File>): void {
    const seen = new Set(this.files.map((f) => `${f.file.name}\u0000${f.file.size}`));
    const next = [...this.files];
    for (const file of list) {
      const key = `${file.name}\u0000${file.size}`;
      if (seen.has(key)) continue;
      seen.add(key);
      next.push({ file, error: null });
    }
    this.files = next;
    this.#uploadId = null;
    if (this.phase === 'error' || this.phase === 'done') this.phase = 'idle';
    this.error = null;
  }

  remove(index: number): void {
    this.files = this.files.filter((_, i) => i !== index);
    this.#uploadId = null;
  }

  clear(): void {
    this.files = [];
    this.#uploadId = null;
    this.phase = 'idle';
    this.error = null;
    this.loaded = this.total = 0;
  }

  cancel(): void {
    this.#ctrl?.abort();
  }

  /** Upload everything queued; resolves with the new incident id, or null on failure. */
  async start(): Promise<string | null> {
    if (this.files.length === 0 || this.busy) return null;
    const ctrl = (this.#ctrl = new AbortController());
    this.phase = 'uploading';
    this.error = null;
    this.loaded = 0;
    this.total = this.totalBytes;
    this.files = this.files.map((f) => ({ ...f, error: null }));
    const uploadId = (this.#uploadId ??= newUploadId());
    let polling = false;
    try {
      const { id } = await uploadIncident(
        this.files.map((f) => f.file),
        (p) => {
          this.loaded = p.loaded;
          if (p.total) this.total = p.total;
          // All bytes are out: the server is now detecting, parsing and classifying.
          if (p.total && p.loaded >= p.total) {
            this.phase = 'processing';
            if (!polling) {
              polling = true;
              void this.#follow(uploadId, ctrl.signal);
            }
          }
        },
        ctrl.signal,
        uploadId,
      );
      this.phase = 'done';
      this.#uploadId = null;
      return id;
    } catch (e) {
      const err = e instanceof ApiError ? { code: e.code, message: e.message, status: e.status } : { code: 'UI_ERR_UNKNOWN', message: describeError(e), status: 0 };
      this.error = err;
      this.phase = 'error';
      // The error shape is per request; attach it to every file it names so people see which one.
      this.files = this.files.map((f) => ({ ...f, error: err.message.includes(f.file.name) ? err.message : null }));
      return null;
    } finally {
      this.ingest = null;
      this.ingestLeft = null;
    }
  }

  /** Ask for the ingest's progress until the upload request ends (nothing to report, 204, before and after). */
  async #follow(uploadId: string, signal: AbortSignal): Promise<void> {
    let start: { phase: string; t: number; done: number } | null = null;
    while (this.phase === 'processing' && !signal.aborted) {
      try {
        const p = await getIngestProgress(uploadId, signal);
        if (this.phase === 'processing' && p) {
          this.ingest = p;
          const now = performance.now();
          if (!start || start.phase !== p.phase) start = { phase: p.phase, t: now, done: p.done ?? 0 };
          this.ingestLeft = timeLeft(p, start, now);
        }
      } catch {
        return; // progress is a nicety: the upload's own answer still comes
      }
      await new Promise((r) => setTimeout(r, FOLLOW_MS));
    }
  }
}

const FOLLOW_MS = 400;

function newUploadId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from({ length: 24 }, () => Math.floor(Math.random() * 36).toString(36)).join('');
}
