// The only module that talks HTTP. Shapes come from ../../shared cli-contract.md:
// JSON validated with the server's own zod contract, the timeline as Arrow IPC.
import './zod-setup.ts'; // must run before the schema modules below are evaluated
import { tableFromIPC } from 'apache-arrow';
import { z } from 'zod';
import { Analysis, Decision } from '../../../server/contract/analysis.ts';
import { IngestProgress } from '../../../server/contract/progress.ts';
import { SignalList, type SignalInfo } from '../../../server/contract/signals.ts';

/** Sent on every state-changing request; the server answers 403 without it (CSRF guard). */
export const CSRF_HEADER = { 'X-Requested-With': 'mcp-triage' } as const;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Added by the server when a client can act on the error (a report refusal names its line). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() }) });

function errorFrom(status: number, body: unknown, fallback: string): ApiError {
  const parsed = ErrorBody.safeParse(body);
  if (parsed.success) return new ApiError(status, parsed.data.error.code, parsed.data.error.message, parsed.data.error.details);
  return new ApiError(status, `HTTP_${status}`, fallback || `Request failed with HTTP ${status}`);
}

async function failed(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => '');
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: a proxy page or a crash; keep the status */
  }
  return errorFrom(res.status, body, res.statusText);
}

/** Retries of a read the server turned away for now (429/503), and the longest Retry-After waited for. */
const BUSY_RETRIES = 2;
const BUSY_WAIT_MAX_S = 10;

/**
 * GET, waiting out a busy server: a 429 or 503 with a short Retry-After is asked again after that
 * many seconds (at most twice); a longer one, or a third, is the caller's error to show.
 */
async function getPatiently(url: string, init: RequestInit & { signal?: AbortSignal }): Promise<Response> {
  for (let tries = 0; ; tries++) {
    const res = await fetch(url, init);
    const wait = Number(res.headers.get('Retry-After'));
    if ((res.status !== 429 && res.status !== 503) || tries >= BUSY_RETRIES || !(wait > 0 && wait <= BUSY_WAIT_MAX_S)) return res;
    await res.body?.cancel().catch(() => undefined);
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(resolve, wait * 1000);
      init.signal?.addEventListener('abort', () => (clearTimeout(t), reject(init.signal!.reason)), { once: true });
    });
  }
}

async function getJson(url: string, signal?: AbortSignal): Promise<unknown> {
  const res = await getPatiently(url, { headers: { Accept: 'application/json' }, signal });
  if (!res.ok) throw await failed(res);
  return res.json();
}

function validated<T>(schema: z.ZodType<T>, data: unknown, what: string): T {
  const r = schema.safeParse(data);
  if (!r.success) throw new ApiError(0, 'UI_ERR_CONTRACT', `The server sent ${what} the UI does not understand:\n${z.prettifyError(r.error)}`);
  return r.data;
}

// ── incidents ──────────────────────────────────────────────────────────────

export const IncidentState = z.enum(['ready', 'ingesting', 'incomplete']);
export const IncidentSummary = z.object({
  id: z.string(),
  createdAt: z.union([z.string(), z.number()]),
  name: z.string(),
  files: z.number(),
  events: z.number(),
  decision: Decision.nullable(),
  // Loose on purpose: a new state must not blank the list.
  state: z.string(),
});
export type IncidentSummary = z.infer<typeof IncidentSummary>;

export async function listIncidents(signal?: AbortSignal): Promise<IncidentSummary[]> {
  return validated(z.array(IncidentSummary), await getJson('/api/incidents', signal), 'an incident list');
}

export async function getAnalysis(id: string, signal?: AbortSignal): Promise<Analysis> {
  return validated(Analysis, await getJson(`/api/incidents/${encodeURIComponent(id)}/analysis`, signal), 'an analysis');
}

export async function deleteIncident(id: string): Promise<void> {
  const res = await fetch(`/api/incidents/${encodeURIComponent(id)}`, { method: 'DELETE', headers: { ...CSRF_HEADER } });
  if (!res.ok) throw await failed(res);
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

/**
 * POST the files as multipart. XMLHttpRequest rather than fetch: only XHR reports
 * upload progress (bytes sent) in today's browsers.
 */
export function uploadIncident(files: File[], onProgress: (p: UploadProgress) => void, signal?: AbortSignal, uploadId?: string): Promise<{ id: string }> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const f of files) form.append('files', f, f.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/incidents');
    xhr.setRequestHeader('X-Requested-With', CSRF_HEADER['X-Requested-With']);
    xhr.setRequestHeader('Accept', 'application/json');
    // Names the ingest so its progress can be asked for while this request runs.
    if (uploadId) xhr.setRequestHeader('X-Upload-Id', uploadId);
    xhr.upload.onprogress = (e) => onProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : 0 });
    xhr.onerror = () => reject(new ApiError(0, 'UI_ERR_NETWORK', 'The upload could not reach the server.'));
    xhr.onabort = () => reject(new ApiError(0, 'UI_ERR_ABORTED', 'The upload was cancelled.'));
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* handled below */
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        const ok = z.object({ id: z.string() }).safeParse(body);
        if (ok.success) resolve(ok.data);
        else reject(new ApiError(xhr.status, 'UI_ERR_CONTRACT', 'The server accepted the upload but sent no incident id.'));
      } else {
        reject(errorFrom(xhr.status, body, xhr.statusText));
      }
    };
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(form);
  });
}

/** The server-side progress of an upload's ingest; null when it is not running (yet, or any more). */
export async function getIngestProgress(uploadId: string, signal?: AbortSignal): Promise<IngestProgress | null> {
  const res = await fetch(`/api/uploads/${encodeURIComponent(uploadId)}/progress`, { headers: { Accept: 'application/json' }, signal });
  if (res.status === 204 || res.status === 404) return null;
  if (!res.ok) throw await failed(res);
  return validated(IngestProgress, await res.json(), 'ingest progress');
}

// ── events (Arrow) ─────────────────────────────────────────────────────────

export interface EventRow {
  /** Position in the filtered result (offset + index), stable across renders. */
  index: number;
  ts: number | null;
  source: string;
  file: string;
  line: number;
  /** Last physical line of a folded block (a traceback); same as line otherwise. */
  endLine: number;
  kind: string | null;
  level: string | null;
  /** One-line summary. */
  message: string;
  /** Full redacted text (multi-line for blocks); null when the server does not send it. */
  text: string | null;
  session: string | null;
  rpcId: string | null;
  method: string | null;
  httpStatus: number | null;
  requestId: string | null;
  /** HTTP verb (DELETE ends a session); null when not logged. */
  httpMethod: string | null;
  /** Ids of the signals that fired on the event (GET /api/signals has their titles); empty when none. */
  signals: string[];
}

export interface EventFilter {
  source?: string;
  level?: string;
  session?: string;
  rpcId?: string;
  method?: string;
  status?: string;
  /** Added by the server beyond the contract: exact file (path as listed in inputs). */
  file?: string;
  requestId?: string;
  from?: number;
  to?: number;
  q?: string;
  /** One signal id (SIGNAL_ID): rows whose signals hold it. */
  signal?: string;
  limit?: number;
  offset?: number;
}

export function eventsUrl(id: string, filter: EventFilter, path = 'events'): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) {
    if (v === undefined || v === null || v === '') continue;
    params.set(k, String(v));
  }
  const qs = params.toString();
  return `/api/incidents/${encodeURIComponent(id)}/${path}${qs ? `?${qs}` : ''}`;
}

function num(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Date) return v.getTime();
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

function str(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  return typeof v === 'string' ? v : String(v);
}

/** Decode an Arrow IPC stream into plain rows (the page is small; columns stay typed until here). */
export function decodeEvents(bytes: Uint8Array, offset = 0): EventRow[] {
  const table = tableFromIPC(bytes);
  const col = (name: string) => table.getChild(name);
  const c = {
    ts: col('ts'),
    source: col('source'),
    file: col('file'),
    line: col('line'),
    endLine: col('endLine'),
    kind: col('kind'),
    level: col('level'),
    message: col('message'),
    text: col('text'),
    session: col('session'),
    rpcId: col('rpcId'),
    method: col('method'),
    httpStatus: col('httpStatus'),
    requestId: col('requestId'),
    httpMethod: col('httpMethod'),
    signals: col('signals'),
  };
  const rows: EventRow[] = new Array(table.numRows);
  for (let i = 0; i < table.numRows; i++) {
    rows[i] = {
      index: offset + i,
      ts: num(c.ts?.get(i)),
      source: str(c.source?.get(i)) ?? 'unknown',
      file: str(c.file?.get(i)) ?? '',
      line: num(c.line?.get(i)) ?? 0,
      endLine: 0,
      kind: str(c.kind?.get(i)),
      level: str(c.level?.get(i)),
      message: str(c.message?.get(i)) ?? '',
      text: str(c.text?.get(i)),
      session: str(c.session?.get(i)),
      rpcId: str(c.rpcId?.get(i)),
      method: str(c.method?.get(i)),
      httpStatus: num(c.httpStatus?.get(i)),
      requestId: str(c.requestId?.get(i)),
      httpMethod: str(c.httpMethod?.get(i)),
      signals: str(c.signals?.get(i))?.split(' ').filter(Boolean) ?? [],
    };
    const r = rows[i]!;
    r.endLine = Math.max(r.line, num(c.endLine?.get(i)) ?? r.line);
  }
  return rows;
}

export interface EventPage {
  rows: EventRow[];
  /** Rows matching the filter, from X-Total-Count; null if the server does not send it. */
  total: number | null;
  /** The server is still counting (a text search): countEvents gives the total when it is in. */
  counting: boolean;
}

export async function getEvents(id: string, filter: EventFilter, signal?: AbortSignal): Promise<EventPage> {
  const res = await getPatiently(eventsUrl(id, filter), {
    headers: { Accept: 'application/vnd.apache.arrow.stream' },
    signal,
  });
  if (!res.ok) throw await failed(res);
  const total = res.headers.get('X-Total-Count');
  return {
    rows: decodeEvents(new Uint8Array(await res.arrayBuffer()), filter.offset ?? 0),
    total: total !== null && /^\d+$/.test(total) ? Number(total) : null,
    counting: res.headers.get('X-Total-Pending') === '1',
  };
}

/** The number of events matching a filter (waits for a count the server is still running). */
export async function countEvents(id: string, filter: EventFilter, signal?: AbortSignal): Promise<number> {
  const { limit: _l, offset: _o, ...f } = filter;
  const res = await getPatiently(eventsUrl(id, f, 'events/count'), { headers: { Accept: 'application/json' }, signal });
  if (!res.ok) throw await failed(res);
  const body = (await res.json()) as { total?: unknown };
  if (typeof body.total !== 'number') throw new Error('count: the server sent no total');
  return body.total;
}

/** A signal id as the events API takes it in `signal=` (anything else is a 400). */
export const SIGNAL_ID = /^[a-z0-9-]{2,63}$/;

// ── signals ────────────────────────────────────────────────────────────────

/** The signal table's ids, titles and meanings (GET /api/signals). */
export async function getSignals(signal?: AbortSignal): Promise<SignalInfo[]> {
  return validated(SignalList, await getJson('/api/signals', signal), 'the signal table');
}

export function describeError(e: unknown): string {
  if (e instanceof ApiError) return e.code.startsWith('HTTP_') || e.code.startsWith('UI_') ? e.message : `${e.message} (${e.code})`;
  if (e instanceof Error) return e.message;
  return String(e);
}

// ── report, views, verify (routes in server/http/views.ts, verify.ts) ──────

async function postJson(url: string, body: unknown, signal?: AbortSignal): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...CSRF_HEADER, 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
  if (!res.ok) throw await failed(res);
  return res.json();
}

const base = (id: string) => `/api/incidents/${encodeURIComponent(id)}`;

export const ReportDoc = z.object({
  markdown: z.string(),
  redactions: z.record(z.string(), z.number()),
  sections: z.record(z.string(), z.string()),
});
export type ReportDoc = z.infer<typeof ReportDoc>;

/** Evidence lines (`file:line`) left out of the report, as query parameters. */
const excludeQuery = (exclude: readonly string[]) => exclude.map((e) => `&exclude=${encodeURIComponent(e)}`).join('');

export async function getReport(id: string, signal?: AbortSignal, exclude: readonly string[] = []): Promise<ReportDoc> {
  return validated(ReportDoc, await getJson(`${base(id)}/report?format=json${excludeQuery(exclude)}`, signal), 'a report');
}

/** Where a refused report's leak check fired: the report line, the rule, and the evidence line it came from. */
export const RefusedAt = z.object({
  reportLine: z.number().int(),
  rule: z.string(),
  evidence: z.object({ file: z.string(), line: z.number().int() }).nullable(),
});
export type RefusedAt = z.infer<typeof RefusedAt>;

/** The places of a TRIAGE_ERR_REPORT_LEAK refusal, or [] for any other error. */
export function refusedAt(e: unknown): RefusedAt[] {
  if (!(e instanceof ApiError) || e.code !== 'TRIAGE_ERR_REPORT_LEAK') return [];
  const r = z.array(RefusedAt).safeParse(e.details?.refused);
  return r.success ? r.data : [];
}

export function exportHref(id: string, exclude: readonly string[] = []): string {
  return `${base(id)}/export.html${exclude.length ? `?${excludeQuery(exclude).slice(1)}` : ''}`;
}

export const UnitEvent = z.object({
  ts: z.number().nullable(),
  source: z.string(),
  file: z.string(),
  line: z.number(),
  endLine: z.number(),
  kind: z.string(),
  level: z.string().nullable(),
  message: z.string(),
  text: z.string(),
  session: z.string().nullable(),
  rpcId: z.string().nullable(),
  method: z.string().nullable(),
  tool: z.string().nullable(),
  httpMethod: z.string().nullable(),
  httpPath: z.string().nullable(),
  httpStatus: z.number().nullable(),
  requestId: z.string().nullable(),
  reasons: z.array(z.string()),
});
export type UnitEvent = z.infer<typeof UnitEvent>;
export const Unit = z.object({
  seed: z.object({ file: z.string(), line: z.number(), endLine: z.number() }).nullable(),
  keys: z.object({ sessionRpc: z.array(z.object({ session: z.string(), rpcId: z.string() })), requestIds: z.array(z.string()) }),
  failures: z.array(z.number()),
  events: z.array(UnitEvent),
  truncated: z.boolean(),
});
export type Unit = z.infer<typeof Unit>;

export async function getUnit(id: string, file: string, line: number, signal?: AbortSignal): Promise<Unit> {
  const qs = new URLSearchParams({ file, line: String(line) });
  return validated(Unit, await getJson(`${base(id)}/unit?${qs}`, signal), 'a unit of work');
}

export const Histogram = z.object({
  from: z.number().nullable(),
  to: z.number().nullable(),
  bucketMs: z.number(),
  buckets: z.number(),
  series: z.array(z.object({ source: z.string(), total: z.number(), counts: z.record(z.string(), z.array(z.number())) })),
  untimed: z.number(),
});
export type Histogram = z.infer<typeof Histogram>;

export async function getHistogram(id: string, buckets: number, signal?: AbortSignal): Promise<Histogram> {
  return validated(Histogram, await getJson(`${base(id)}/histogram?buckets=${buckets}`, signal), 'a histogram');
}

export const ProbeStep = z.object({
  name: z.string(),
  ok: z.boolean(),
  ms: z.number(),
  evidence: z.string(),
  diagnosis: z.string().optional(),
  connection: z.number().optional(),
  refused: z.boolean().optional(),
  /** a passed step with something to look at (the tool answered isError: true) */
  warning: z.string().optional(),
});
export type ProbeStep = z.infer<typeof ProbeStep>;
export const ProbeResult = z.looseObject({
  ok: z.boolean(),
  url: z.string(),
  protocolVersion: z.string().nullable(),
  sessionAssigned: z.boolean(),
  transport: z.string(),
  steps: z.array(ProbeStep),
  failedStep: z.string().nullable().optional(),
  server: z.object({ name: z.string(), version: z.string() }).nullable().optional(),
  /** a tool call completed; true when the tool reported an application error (still ok) */
  isError: z.boolean().optional(),
  /** with isError: the first 200 characters of its text, redacted by the server */
  errorText: z.string().optional(),
});
export type ProbeResult = z.infer<typeof ProbeResult>;
export interface Verification {
  at: string;
  result: ProbeResult;
}

export async function verifyIncident(id: string, body: { url: string; tool?: string; args?: Record<string, unknown> }, signal?: AbortSignal): Promise<Verification> {
  const raw = (await postJson(`${base(id)}/verify`, body, signal)) as { at?: string };
  return { at: String(raw.at ?? new Date().toISOString()), result: validated(ProbeResult, raw, 'a probe result') };
}

export async function lastVerification(id: string, signal?: AbortSignal): Promise<Verification | null> {
  const raw = (await getJson(`${base(id)}/verify`, signal)) as { at?: string; result?: unknown } | null;
  if (raw === null) return null;
  return { at: String(raw.at ?? ''), result: validated(ProbeResult, raw.result, 'a probe result') };
}
