// Ingest progress, as the CLI prints it and `GET /api/uploads/:uploadId/progress` answers it.
import { z } from 'zod';

export const IngestProgress = z.object({
  /** scan: reading every input for ids and hashes (pass 1); parse: redact, parse, store (pass 2); analyze: correlate and decide. */
  phase: z.enum(['scan', 'parse', 'analyze']),
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
