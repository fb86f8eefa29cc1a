// Stored event rows → Event, without DuckDB: the store reads triage events as JSON arrays built
// by DuckDB (Store.triageEvents), and a worker thread that parses them (ingest/analyze-worker.ts)
// must not load the database's native binding, so the reading lives here.
import type { Event } from '../../parsers/contract/event.ts';

/**
 * The columns rowToEvent reads, as one DuckDB JSON array per row (see Store.triageEvents). A null
 * message is the event's text (the triage read sends a message equal to its text once).
 */
export const JSON_FIELDS = [
  'file',
  'line',
  'end_line',
  'source',
  'format',
  'kind',
  'ts',
  'level',
  'message',
  'text',
  'http_method',
  'http_path',
  'http_status',
  'request_id',
  'rpc_id',
  'rpc_method',
  'tool',
  'session',
  'protocol_version',
  'duration_ms',
  'attrs',
  'signals',
] as const;

export function jsonRow(a: unknown[]): Record<string, unknown> {
  const r: Record<string, unknown> = {};
  for (let i = 0; i < JSON_FIELDS.length; i++) r[JSON_FIELDS[i]!] = a[i];
  return r;
}

/** One page of Store.triageEventsJson (one JSON array string per row): its events appended to `out`. */
export function eventsFromJson(rows: readonly string[], out: Event[]): void {
  for (const j of rows) out.push(arrayToEvent(JSON.parse(j) as unknown[]));
}

// (module-level: arrayToEvent runs once per event an analysis reads)
const orNumber = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const orString = (v: unknown) => (v === null || v === undefined ? null : String(v));

// The positions of JSON_FIELDS, for arrayToEvent.
const F = Object.fromEntries(JSON_FIELDS.map((f, i) => [f, i])) as { [K in (typeof JSON_FIELDS)[number]]: number };

/**
 * rowToEvent(jsonRow(a)) without the record in between (one object of 22 keys per row, set by
 * name): the same conversions, field for field, in the same order (event-rows.test.ts).
 */
export function arrayToEvent(a: readonly unknown[]): Event {
  const n = orNumber;
  const s = orString;
  const rpcId = a[F.rpc_id];
  const signals = a[F.signals];
  const attrs = a[F.attrs];
  const message = a[F.message];
  const text = String(a[F.text]);
  return {
    file: String(a[F.file]),
    line: Number(a[F.line]),
    endLine: Number(a[F.end_line]),
    source: a[F.source] as Event['source'],
    format: String(a[F.format]),
    kind: a[F.kind] as Event['kind'],
    ts: n(a[F.ts]),
    level: s(a[F.level]) as Event['level'],
    message: message === null ? text : String(message),
    text,
    httpMethod: s(a[F.http_method]),
    httpPath: s(a[F.http_path]),
    httpStatus: n(a[F.http_status]),
    requestId: s(a[F.request_id]),
    rpcId: rpcId === null || rpcId === undefined ? null : (JSON.parse(String(rpcId)) as Event['rpcId']),
    rpcMethod: s(a[F.rpc_method]),
    tool: s(a[F.tool]),
    session: s(a[F.session]),
    protocolVersion: s(a[F.protocol_version]),
    durationMs: n(a[F.duration_ms]),
    signals: signals ? String(signals).split(' ') : [],
    attrs: attrs ? (typeof attrs === 'string' ? JSON.parse(attrs) : (attrs as Event['attrs'])) : {},
  };
}

export function rowToEvent(r: Record<string, unknown>): Event {
  const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  const s = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    file: String(r.file),
    line: Number(r.line),
    endLine: Number(r.end_line),
    source: r.source as Event['source'],
    format: String(r.format),
    kind: r.kind as Event['kind'],
    ts: n(r.ts),
    level: s(r.level) as Event['level'],
    message: r.message === null ? String(r.text) : String(r.message),
    text: String(r.text),
    httpMethod: s(r.http_method),
    httpPath: s(r.http_path),
    httpStatus: n(r.http_status),
    requestId: s(r.request_id),
    rpcId: r.rpc_id === null || r.rpc_id === undefined ? null : (JSON.parse(String(r.rpc_id)) as Event['rpcId']),
    rpcMethod: s(r.rpc_method),
    tool: s(r.tool),
    session: s(r.session),
    protocolVersion: s(r.protocol_version),
    durationMs: n(r.duration_ms),
    signals: r.signals ? String(r.signals).split(' ') : [],
    attrs: r.attrs ? (typeof r.attrs === 'string' ? JSON.parse(r.attrs) : (r.attrs as Event['attrs'])) : {},
  };
}
