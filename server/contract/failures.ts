// Added (issue #20 item 4): failures across incidents — `GET /api/failures` and
// `mcp-triage failures`. Filters by the failure's decision, rule and signal, and by when its
// incident was stored; each row is one failure of an incident's current analysis, as in
// `analyze --json`, with the incident it belongs to.
import { z } from 'zod';
import { Decision, Failure, FailureRole } from './analysis.ts';

/** `7d`, `24h`, `30m`, an ISO date or time, or epoch milliseconds: when the incidents were stored, at the earliest. */
export const SINCE = /^(\d{1,5})([dhm])$/;

export function parseSince(v: string, now = Date.now()): number | null {
  const rel = SINCE.exec(v.trim());
  if (rel) return now - Number(rel[1]) * { d: 86_400_000, h: 3_600_000, m: 60_000 }[rel[2] as 'd' | 'h' | 'm'];
  if (/^\d{10,15}$/.test(v.trim())) return Number(v.trim());
  const t = Date.parse(v.trim());
  return Number.isFinite(t) ? t : null;
}

export const FailureFilters = z.object({
  decision: Decision.optional(),
  rule: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,79}$/, 'expected a rule id, e.g. session-expired-404')
    .optional(),
  signal: z
    .string()
    .regex(/^[a-z0-9-]{2,63}$/, 'expected a signal id, e.g. session-not-found')
    .optional(),
  role: FailureRole.optional(),
  since: z
    .string()
    .max(40)
    .refine((v) => parseSince(v) !== null, 'expected 7d, 24h, 30m, an ISO date or epoch milliseconds')
    .optional(),
  limit: z.coerce.number().int().min(1).max(10_000).default(1000),
});
export type FailureFilters = z.infer<typeof FailureFilters>;

export const FailureAcross = z.object({
  incident: z.string(),
  name: z.string(),
  /** When the incident was stored (ISO). */
  createdAt: z.string(),
  /** The failure's place in its incident's `failures`. */
  index: z.number().int().nonnegative(),
  failure: Failure,
});
export type FailureAcross = z.infer<typeof FailureAcross>;

export const FailuresAnswer = z.object({
  /** Newest incident first; in an incident, in its analysis' order. */
  failures: z.array(FailureAcross),
  /** More failures matched than `limit`. */
  truncated: z.boolean(),
});
export type FailuresAnswer = z.infer<typeof FailuresAnswer>;

/** Whether a failure passes the filters other than `since` (the embedded store filters in JS, ClickHouse in SQL). */
export function failureMatches(f: Failure, q: FailureFilters): boolean {
  if (q.decision && f.decision !== q.decision) return false;
  if (q.rule && f.rule !== q.rule) return false;
  if (q.role && (f.role ?? 'primary') !== q.role) return false;
  if (q.signal && !(f.signals ?? []).includes(q.signal)) return false;
  return true;
}
