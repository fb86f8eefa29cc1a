// The Analysis document: `analyze --json`, GET /api/incidents/:id/analysis, the UI.
// Shapes from ../shared/domain/cli-contract.md — change only by adding fields.
import { z } from 'zod';
import { RpcId, Source } from '../../parsers/contract/event.ts';
import { PrivacyMode } from './privacy.ts';

export const Decision = z.enum(['retry', 'reinitialize', 'fix_route_or_config', 'fix_auth', 'read_result_no_repeat', 'check_write_then_escalate', 'escalate', 'no_action']);
export type Decision = z.infer<typeof Decision>;

/** Most urgent first (cli-contract.md); no_action is the floor. */
export const DECISION_URGENCY: readonly Decision[] = [
  'check_write_then_escalate',
  'read_result_no_repeat',
  'fix_auth',
  'fix_route_or_config',
  'escalate',
  'reinitialize',
  'retry',
  'no_action',
];

export const Stage = z.enum(['connect', 'before_headers', 'mid_body', 'between_sse_events', 'after_response', 'http_status', 'unknown']);
export type Stage = z.infer<typeof Stage>;

export const SessionPseudonym = z.string().regex(/^sess_[a-z2-7]{10,}$/);

export const Evidence = z.object({ file: z.string(), line: z.number().int().positive() });
export type Evidence = z.infer<typeof Evidence>;

export const InputSummary = z.object({
  file: z.string(),
  source: Source,
  format: z.string(),
  lines: z.number().int().nonnegative(),
  events: z.number().int().nonnegative(),
  unparsed: z.number().int().nonnegative(),
  /** Added: lines cut because they were longer than the line limit. */
  truncatedLines: z.number().int().nonnegative().optional(),
});
export type InputSummary = z.infer<typeof InputSummary>;

export const RootException = z.object({ type: z.string(), message: z.string() });

export const RuleRejection = z.object({ rule: z.string(), why: z.string() });

/**
 * Added 2026-12 (cli-contract.md): what a failure is to its episode. primary: a request the client
 * surfaced as failed, or the failure that started its episode. consequence: caused by an earlier
 * failure. optional: a channel whose loss loses no request. recovered: a later success of the same call.
 */
export const FailureRole = z.enum(['primary', 'consequence', 'optional', 'recovered']);
export type FailureRole = z.infer<typeof FailureRole>;

export const Failure = z.object({
  rpcId: RpcId.nullable(),
  method: z.string().nullable(),
  tool: z.string().nullable(),
  session: SessionPseudonym.nullable(),
  httpStatus: z.number().int().nullable(),
  stage: Stage,
  rootException: RootException.nullable(),
  exceptionChain: z.array(z.string()),
  decision: Decision,
  rule: z.string(),
  rationale: z.string(),
  evidence: z.array(Evidence),
  /** Added: the rules that were considered and did not fire, with why ("why not"). */
  rejected: z.array(RuleRejection).optional(),
  /** Added: timestamp of the first evidence line (epoch ms, as logged). */
  ts: z.number().nullable().optional(),
  /** Added 2026-12: the failure's role in its episode (always set by analyze; absent in older documents). */
  role: FailureRole.optional(),
  /** Added 2026-12: failures of one episode (same request, session, replica or outage window, and cause) share it; 1-based. */
  episode: z.number().int().positive().optional(),
  /** Added 2026-12: ids of the signals that fired on the failure's lines (parsers/signals; `http-NNN`). */
  signals: z.array(z.string()).optional(),
  /** Added 2026-12: why this role (a consequence of which failure, what recovered it). */
  roleReason: z.string().optional(),
});
export type Failure = z.infer<typeof Failure>;

export const SessionState = z.enum(['active', 'expired', 'deleted', 'reused_after_expiry', 'unknown']);

export const SessionSummary = z.object({
  session: SessionPseudonym,
  firstSeen: z.string().nullable(),
  lastSeen: z.string().nullable(),
  state: SessionState,
});
export type SessionSummary = z.infer<typeof SessionSummary>;

export const JoinKey = z.enum(['session+rpcId', 'x-request-id', 'rpcId', 'method+path+status+time']);

export const Span = z.object({
  rpcId: RpcId.nullable(),
  method: z.string().nullable(),
  session: SessionPseudonym.nullable(),
  sources: z.array(Source),
  joinedBy: z.array(z.string()),
});
export type Span = z.infer<typeof Span>;

/** Added: a file's estimated clock offset against a reference file (never applied to stored times). */
export const ClockOffset = z.object({
  file: z.string(),
  offsetMs: z.number(),
  reference: z.string(),
  pairs: z.number().int(),
  spreadMs: z.number(),
});

/**
 * Added 2026-12 (issue #18): why an input was not read as a log. empty: no bytes, or only
 * whitespace; binary: not text (a magic number or too many non-text bytes); damaged: a compressed
 * file or archive that cannot be read; not-a-log: text, but no line of it is a log line (our own
 * output, a Markdown or prose document, a JSON document of data). Decided by content (server/ingest/screen.ts).
 */
export const SkipReason = z.enum(['empty', 'binary', 'damaged', 'not-a-log']);
export type SkipReason = z.infer<typeof SkipReason>;

export const SkippedFile = z.object({
  /** As in `inputs[].file`: relative to the PATH given, or the uploaded name. */
  file: z.string(),
  reason: SkipReason,
  /** One sentence a person can check: what the file is, and what to do instead. */
  detail: z.string(),
});
export type SkippedFile = z.infer<typeof SkippedFile>;

export const Analysis = z.object({
  schemaVersion: z.literal(1),
  inputs: z.array(InputSummary),
  protocolVersions: z.array(z.string()),
  failures: z.array(Failure),
  sessions: z.array(SessionSummary),
  spans: z.array(Span),
  decision: Decision,
  /** Added: per-file clock offsets estimated from strongly joined requests. */
  clockOffsets: z.array(ClockOffset).optional(),
  /**
   * Added: how much of the incident the analysis read. A large incident is analysed around its
   * first failures (store/focus.ts); sessions and protocol versions still count every event.
   */
  coverage: z
    .object({
      triageEvents: z.number().int().nonnegative(),
      analysedEvents: z.number().int().nonnegative(),
      focused: z.boolean(),
    })
    .optional(),
  /**
   * (Before `skipped`: analyze() writes the keys up to here, callers append the rest; the stored
   * document must read back in the same order.) Added 2026-12: what the analysis found to decide on — MCP requests (a JSON-RPC method, id or
   * tool), HTTP exchanges, sessions and error lines. All zero: no MCP traffic was recognised, so
   * `no_action` means "nothing to decide", not "nothing failed".
   */
  seen: z
    .object({
      requests: z.number().int().nonnegative(),
      exchanges: z.number().int().nonnegative(),
      sessions: z.number().int().nonnegative(),
      errors: z.number().int().nonnegative(),
    })
    .optional(),
  /** Added 2026-12: inputs that were not read because they are not logs (absent when none). */
  skipped: z.array(SkippedFile).optional(),
  /**
   * Added 2026-12 (issue #19): what the stored text had redacted before it was analysed —
   * standard (session ids and credentials; PII redacted at exits) or strict (everything).
   */
  privacyMode: PrivacyMode.optional(),
});
export type Analysis = z.infer<typeof Analysis>;

export function headline(decisions: Decision[]): Decision {
  let best: Decision = 'no_action';
  for (const d of decisions) if (DECISION_URGENCY.indexOf(d) < DECISION_URGENCY.indexOf(best)) best = d;
  return best;
}

/** The incident's decision (cli-contract.md): the most urgent decision of a primary failure; no_action when there is none. */
export function headlineOf(failures: readonly Pick<Failure, 'decision' | 'role'>[]): Decision {
  return headline(failures.filter((f) => (f.role ?? 'primary') === 'primary').map((f) => f.decision));
}
