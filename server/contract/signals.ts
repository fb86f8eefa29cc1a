// GET /api/signals: the signal table as people read it (parsers/signals/*.json), for the UI's chips.
// Shapes from ../shared/domain/cli-contract.md's rule: change only by adding fields.
import { z } from 'zod';

export const SignalInfo = z.object({
  /** Stable id, as events and failures carry it (`session-not-found`). */
  id: z.string(),
  /** One line a person reads. */
  title: z.string(),
  /** What the line says happened, in triage's vocabulary (parsers/contract/signal.ts SignalCause). Loose: a new cause must not blank the UI. */
  cause: z.string(),
  /** failure, recovery, completion, context or noise (loose, as cause). */
  outcome: z.string(),
});
export type SignalInfo = z.infer<typeof SignalInfo>;

export const SignalList = z.array(SignalInfo);
