// Ingest progress, as the CLI prints it and `GET /api/uploads/:uploadId/progress` answers it.
import { z } from 'zod';

export const IngestProgress = z.object({
  /**
   * receive (added): the server is still taking the upload in; queued (added, issue #20): received,
   * waiting for its turn behind other uploads (see `position`); scan: reading every input for ids and
   * hashes (pass 1); parse: redact, parse, store (pass 2); analyze: correlate and decide.
   */
  phase: z.enum(['receive', 'queued', 'scan', 'parse', 'analyze']),
  /** Added (issue #20), phase queued only: its place in line, 1 = next to start. */
  position: z.number().int().positive().optional(),
  /** The file being read (empty while analysing). */
  file: z.string(),
  fileIndex: z.number().int().nonnegative(),
  files: z.number().int().nonnegative(),
  /** Size of the current file. */
  bytes: z.number().nonnegative().optional(),
  /** Bytes of all this phase's inputs read so far (scan and parse). */
  done: z.number().nonnegative().optional(),
  /** Bytes of all this phase's inputs. */
  total: z.number().nonnegative().optional(),
});
export type IngestProgress = z.infer<typeof IngestProgress>;

/** Time left as people read it (5s, 1m05s, 1h02m); the CLI's progress line and the UI share it. */
export function formatDuration(s: number): string {
  if (!Number.isFinite(s) || s < 0) return '?';
  const r = Math.ceil(s);
  if (r < 60) return `${r}s`;
  const m = Math.floor(r / 60);
  return m < 60 ? `${m}m${String(r % 60).padStart(2, '0')}s` : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/**
 * Seconds left in a phase at the rate seen since `start` (a sample of the same phase, `t` in ms);
 * null for the first 2 s, so one burst does not decide, and while nothing moved.
 */
export function timeLeft(p: IngestProgress, start: { t: number; done: number }, now: number): number | null {
  const secs = (now - start.t) / 1000;
  if (p.done === undefined || !p.total || secs < 2 || p.done <= start.done) return null;
  return (p.total - p.done) / ((p.done - start.done) / secs);
}
