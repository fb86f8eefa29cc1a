// The timeline query: typed filters compiled to SQL with bound parameters (no identifier
// ever comes from the request), and the page encoded as Arrow IPC.
import { Float64, Int32, makeData, makeVector, Table, tableToIPC, TimestampMillisecond, Utf8, vectorFromArray, type Vector } from 'apache-arrow';
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

function int32Vector(values: readonly unknown[]): Vector<Int32> {
  return vectorFromArray(values.map((v) => (v === null || v === undefined ? null : Number(v))), new Int32());
}

export function eventsToArrow(rows: Record<string, unknown>[]): Uint8Array {
  const col = (k: string) => rows.map((r) => r[k]);
  const str = (k: string) => utf8Vector(rows.map((r) => (r[k] === null || r[k] === undefined ? null : String(r[k]))));
  const table = new Table({
    seq: makeVector(Float64Array.from(rows, (r) => Number(r.seq))),
    ts: vectorFromArray(col('ts').map((v) => (v === null || v === undefined ? null : Number(v))), new TimestampMillisecond()),
    source: str('source'),
    file: str('file'),
    line: int32Vector(col('line')),
    endLine: int32Vector(col('end_line')),
    kind: str('kind'),
    format: str('format'),
    level: str('level'),
    message: str('message'),
    text: str('text'),
    session: str('session'),
    rpcId: utf8Vector(rows.map((r) => (r.rpc_id === null || r.rpc_id === undefined ? null : String(JSON.parse(String(r.rpc_id)))))),
    method: str('rpc_method'),
    tool: str('tool'),
    httpMethod: str('http_method'),
    httpPath: str('http_path'),
    httpStatus: int32Vector(col('http_status')),
    requestId: str('request_id'),
    protocolVersion: str('protocol_version'),
    durationMs: vectorFromArray(col('duration_ms').map((v) => (v === null || v === undefined ? null : Number(v))), new Float64()),
  });
  return tableToIPC(table, 'stream');
}
