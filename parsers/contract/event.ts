// The event: what every parser emits and every consumer (store, triage, UI) reads.
// Loose where it reads foreign logs (most fields nullable), strict in shape.
import { z } from 'zod';

export const Source = z.enum(['client', 'proxy', 'server', 'unknown']);
export type Source = z.infer<typeof Source>;

export const Level = z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);
export type Level = z.infer<typeof Level>;

/** JSON-RPC id as logged: number or string. */
export const RpcId = z.union([z.number(), z.string()]);
export type RpcId = z.infer<typeof RpcId>;

/**
 * line  — one log line that a format understood
 * block — several physical lines folded into one event (a traceback, a Node error with [cause])
 * raw   — a line no format understood; kept, counted as unparsed, never dropped
 */
export const EventKind = z.enum(['line', 'block', 'raw']);
export type EventKind = z.infer<typeof EventKind>;

export const Event = z.object({
  /** Path of the file relative to the input root (the basename for a single file). */
  file: z.string(),
  /** 1-based physical line where the event starts, and where it ends (same for one line). */
  line: z.number().int().positive(),
  endLine: z.number().int().positive(),
  source: Source,
  /** Id of the format that produced the event ("unknown" for raw lines). */
  format: z.string(),
  kind: EventKind,
  /** Epoch milliseconds, UTC, as logged. Never skew-adjusted: offsets live beside it. */
  ts: z.number().nullable(),
  level: Level.nullable(),
  /** One-line summary of the event (redacted). */
  message: z.string(),
  /** The redacted text of the event, multi-line for blocks, ANSI stripped. */
  text: z.string(),
  httpMethod: z.string().nullable(),
  httpPath: z.string().nullable(),
  httpStatus: z.number().int().nullable(),
  /** Proxy / tracing request id ($request_id, X-Request-ID, traceparent trace id). */
  requestId: z.string().nullable(),
  rpcId: RpcId.nullable(),
  rpcMethod: z.string().nullable(),
  tool: z.string().nullable(),
  /** Session pseudonym (sess_…), never a raw id. */
  session: z.string().nullable(),
  protocolVersion: z.string().nullable(),
  durationMs: z.number().nullable(),
  /**
   * Ids of the signals that fired on this event (parsers/signals/*.json, plus `http-NNN` for a
   * non-2xx status): what the line says happened, whatever its format. Added 2026-12.
   */
  signals: z.array(z.string()),
  /** Anything else a format captured that has no column of its own (redacted values). */
  attrs: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});
export type Event = z.infer<typeof Event>;

/** The event fields a format may fill from a capture or a JSON key. */
export const MappableField = z.enum([
  'ts',
  'level',
  'message',
  'httpMethod',
  'httpPath',
  'httpStatus',
  'requestId',
  'rpcId',
  'rpcMethod',
  'tool',
  'session',
  'protocolVersion',
  'durationMs',
]);
export type MappableField = z.infer<typeof MappableField>;

export function emptyEvent(partial: Pick<Event, 'file' | 'line' | 'source' | 'format' | 'kind' | 'text'>): Event {
  // One literal in a fixed key order (the order the spread gave for every caller): once per event
  // at ingest, where a spread and a split's array were measurable.
  const text = partial.text;
  const nl = text.indexOf('\n');
  return {
    endLine: partial.line,
    ts: null,
    level: null,
    message: nl < 0 ? text : text.slice(0, nl),
    httpMethod: null,
    httpPath: null,
    httpStatus: null,
    requestId: null,
    rpcId: null,
    rpcMethod: null,
    tool: null,
    session: null,
    protocolVersion: null,
    durationMs: null,
    signals: [],
    attrs: {},
    file: partial.file,
    line: partial.line,
    source: partial.source,
    format: partial.format,
    kind: partial.kind,
    text,
  };
}
