// The timeline query: typed filters compiled to SQL with bound parameters (no identifier
// ever comes from the request), and the page encoded as Arrow IPC.
import { Float64, Int32, makeData, makeVector, Table, tableToIPC, TimestampMillisecond, Utf8, type Vector } from 'apache-arrow';
import { z } from 'zod';
import type { Store } from './store.ts';

export const EventFilters = z.object({
  source: z.enum(['client', 'proxy', 'server', 'unknown']).optional(),
  level: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal']).optional(),
  session: z.string().max(200).optional(),
  rpcId: z.string().max(200).optional(),
  method: z.string().max(200).optional(),
  status: z.coerce.number().int().min(100).max(999).optional(),
  file: z.string().max(1000).optional(),
  requestId: z.string().max(200).optional(),
  from: z.coerce.number().optional(),
  to: z.coerce.number().optional(),
  q: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(100_000).default(1000),
  offset: z.coerce.number().int().min(0).default(0),
});
export type EventFilters = z.infer<typeof EventFilters>;

const COLUMNS = `seq, ts, source, file, line, end_line, kind, format, level, message, text, session, rpc_id, rpc_method, tool, http_method, http_path, http_status, request_id, protocol_version, duration_ms`;

export async function queryEvents(store: Store, incidentId: string, f: EventFilters): Promise<{ rows: Record<string, unknown>[]; total: number }> {
  const where: string[] = ['incident_id = $id'];
  const p: Record<string, string | number> = { id: incidentId };
  const eq = (col: string, key: string, v: string | number | undefined) => {
    if (v === undefined || v === '') return;
    where.push(`${col} = $${key}`);
    p[key] = v;
  };
  eq('source', 'source', f.source);
  eq('session', 'session', f.session);
  eq('rpc_method', 'method', f.method);
  eq('http_status', 'status', f.status);
  eq('file', 'file', f.file);
  eq('request_id', 'requestId', f.requestId);
  if (f.level) {
    // A level filter means "this level or worse", as in every log viewer.
    const order = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];
    where.push(`level IN (${order.slice(order.indexOf(f.level)).map((l) => `'${l}'`).join(', ')})`);
  }
  if (f.rpcId !== undefined && f.rpcId !== '') {
    where.push('(rpc_id = $rpcId OR rpc_id = $rpcIdStr)');
    p.rpcId = f.rpcId;
    p.rpcIdStr = JSON.stringify(f.rpcId);
  }
  if (f.from !== undefined) {
    where.push('ts >= $from');
    p.from = f.from;
  }
  if (f.to !== undefined) {
    where.push('ts <= $to');
    p.to = f.to;
  }
  if (f.q) {
    where.push('contains(lower(text), $q)');
    p.q = f.q.toLowerCase();
  }
  const w = where.join(' AND ');
  const [{ n }] = await store.query<{ n: bigint }>(`SELECT count(*) AS n FROM events WHERE ${w}`, p);
  const rows = await store.query(`SELECT ${COLUMNS} FROM events WHERE ${w} ORDER BY ts NULLS LAST, seq LIMIT ${f.limit} OFFSET ${f.offset}`, p);
  return { rows, total: Number(n) };
}

/** A Utf8 vector built straight into one buffer: several times faster than vectorFromArray on strings. */
export function utf8Vector(values: readonly (string | null | undefined)[]): Vector<Utf8> {
  return utf8Column(values, (v) => v);
}

/** utf8Vector over any rows: `pick` returns the string (or null) of a row; one pass, no intermediate array. */
function utf8Column<R>(values: readonly R[], pick: (r: R) => string | null | undefined): Vector<Utf8> {
  const n = values.length;
  // Fast path: join the column and encode it once; when every character was ASCII (the bytes
  // are as many as the characters), byte offsets are the character offsets.
  const parts: string[] = new Array(n);
  const offsets = new Int32Array(n + 1);
  const bitmap = new Uint8Array((n + 7) >> 3);
  let chars = 0;
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    const v = pick(values[i]!);
    if (v === null || v === undefined) {
      nulls++;
      parts[i] = '';
    } else {
      bitmap[i >> 3]! |= 1 << (i & 7);
      parts[i] = v;
      chars += v.length;
    }
    offsets[i + 1] = chars;
  }
  if (chars < 256 << 20) {
    const joined = Buffer.from(parts.join(''), 'utf8');
    if (joined.length === chars) {
      return makeVector(makeData({ type: new Utf8(), length: n, nullCount: nulls, nullBitmap: nulls ? bitmap : null, valueOffsets: offsets, data: new Uint8Array(joined.buffer, joined.byteOffset, joined.length) }));
    }
  }
  return utf8VectorSlow(values.map(pick));
}

function utf8VectorSlow(values: readonly (string | null | undefined)[]): Vector<Utf8> {
  const n = values.length;
  const offsets = new Int32Array(n + 1);
  let bytes = 0;
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v === null || v === undefined) nulls++;
    else bytes += Buffer.byteLength(v);
    offsets[i + 1] = bytes;
  }
  const data = Buffer.allocUnsafe(bytes);
  const bitmap = new Uint8Array(Math.ceil(n / 8));
  let at = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    bitmap[i >> 3]! |= 1 << (i & 7);
    at += data.write(v, at);
  }
  return makeVector(makeData({ type: new Utf8(), length: n, nullCount: nulls, nullBitmap: nulls ? bitmap : null, valueOffsets: offsets, data: new Uint8Array(data.buffer, data.byteOffset, bytes) }));
}

const isNull = (v: unknown) => v === null || v === undefined;

/** A fixed-width column straight from a typed array and a validity bitmap (no per-value builder). */
function fixedVector<T extends Int32 | Float64 | TimestampMillisecond>(type: T, rows: readonly Record<string, unknown>[], key: string, data: Int32Array | Float64Array | BigInt64Array): Vector<T> {
  const n = rows.length;
  const bitmap = new Uint8Array((n + 7) >> 3);
  let nulls = 0;
  const big = data instanceof BigInt64Array;
  for (let i = 0; i < n; i++) {
    const v = rows[i]![key];
    if (isNull(v)) {
      nulls++;
      continue;
    }
    bitmap[i >> 3]! |= 1 << (i & 7);
    if (big) (data as BigInt64Array)[i] = BigInt(Math.trunc(Number(v)));
    else (data as Int32Array | Float64Array)[i] = Number(v);
  }
  return makeVector(makeData({ type, length: n, nullCount: nulls, nullBitmap: nulls ? bitmap : null, data } as never)) as unknown as Vector<T>;
}

function int32Vector(rows: readonly Record<string, unknown>[], key: string): Vector<Int32> {
  return fixedVector(new Int32(), rows, key, new Int32Array(rows.length));
}

export function eventsToArrow(rows: Record<string, unknown>[]): Uint8Array {
  const str = (k: string) => utf8Column(rows, (r) => (isNull(r[k]) ? null : String(r[k])));
  const table = new Table({
    seq: makeVector(Float64Array.from(rows, (r) => Number(r.seq))),
    ts: fixedVector(new TimestampMillisecond(), rows, 'ts', new BigInt64Array(rows.length)),
    source: str('source'),
    file: str('file'),
    line: int32Vector(rows, 'line'),
    endLine: int32Vector(rows, 'end_line'),
    kind: str('kind'),
    format: str('format'),
    level: str('level'),
    message: str('message'),
    text: str('text'),
    session: str('session'),
    rpcId: utf8Column(rows, (r) => (isNull(r.rpc_id) ? null : String(JSON.parse(String(r.rpc_id))))),
    method: str('rpc_method'),
    tool: str('tool'),
    httpMethod: str('http_method'),
    httpPath: str('http_path'),
    httpStatus: int32Vector(rows, 'http_status'),
    requestId: str('request_id'),
    protocolVersion: str('protocol_version'),
    durationMs: fixedVector(new Float64(), rows, 'duration_ms', new Float64Array(rows.length)),
  });
  return tableToIPC(table, 'stream');
}
