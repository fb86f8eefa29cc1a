// The store seam of the HTTP API (issue #20): what the routes read and write, whichever store
// holds the incidents. One app (app.ts) over either store, so a shared store gets the same routes,
// admission limits (429/503), answer caches, upload lines and SQL console caps as the embedded one.
//
//   embedded  the workspace's DuckDB (ctx.store): everything as it always was
//   shared    ClickHouse (serve --store): an ingest runs in a private DuckDB and lands there
//             (store/clickhouse/store.ts); every read runs in ClickHouse
//
// Versions key the answer caches (answers.ts). The embedded store counts its own commits; a shared
// store is written by other servers too, so its version is read from ClickHouse (the incident's
// latest state row): a cached answer is never one another server has since made stale.
import type { Event } from '../../parsers/contract/event.ts';
import type { Analysis, SkippedFile } from '../contract/analysis.ts';
import type { FailureFilters, FailuresAnswer } from '../contract/failures.ts';
import type { PrivacyMode } from '../contract/privacy.ts';
import { ingestIncident, refreshAnalysis, type Context } from '../incidents.ts';
import type { IncidentName, Progress } from '../ingest/pipeline.ts';
import type { InputEntry } from '../ingest/inputs.ts';
import { chCountEvents, chHistogram, chQueryEventsPage } from '../store/clickhouse/events.ts';
import { chFailuresAcross } from '../store/clickhouse/failures.ts';
import { chRunReadOnlySql } from '../store/clickhouse/sql-console.ts';
import type { ClickHouseStore } from '../store/clickhouse/store.ts';
import { chUnitOf } from '../store/clickhouse/units.ts';
import { countEvents, type EventFilters, type EventPage, queryEventsPage } from '../store/events-query.ts';
import { failuresAcross } from '../store/failures.ts';
import { runReadOnlySql, type SqlOptions, type SqlResult } from '../store/sql-console.ts';
import type { FileRow, IncidentRow, UploadRecord } from '../store/store.ts';
import { histogram, type Histogram, type Unit, unitOf } from '../store/units.ts';
import { lastVerification, saveVerification, type Verification } from '../store/verifications.ts';

export interface IngestRequest {
  /** Add to this incident; absent: a new one. */
  id?: string;
  name: IncidentName;
  onProgress?: (p: Progress) => void;
  mode?: PrivacyMode;
  signal?: AbortSignal;
  upload?: { uploadId: string; target: string };
}

export interface IngestOutcome {
  id: string;
  added: number;
  skipped: number;
  skippedFiles: SkippedFile[];
}

export interface ServedStore {
  readonly kind: 'embedded' | 'shared';
  /** Where uploads in progress go by default (next to a database file), and what messages name. */
  readonly path: string;
  /** The shared store's URL without credentials (GET /api/health `store`); null for the embedded one. */
  readonly display: string | null;
  /** Moves after every committed write to the incident (or to any, without an id). */
  version(id?: string): number | Promise<number>;
  listIncidents(): Promise<IncidentRow[]>;
  incident(id: string): Promise<IncidentRow | null>;
  files(id: string): Promise<FileRow[]>;
  analysis(id: string): Promise<Analysis | null>;
  privacyMode(id: string): Promise<PrivacyMode | null>;
  headEvents(id: string, perFile?: number): Promise<Event[]>;
  eventsAt(id: string, refs: readonly { file: string; line: number }[]): Promise<Event[]>;
  redactionCounts(id: string): Promise<Record<string, number>>;
  deleteIncident(id: string): Promise<boolean>;
  /** What a committed upload answered, by its X-Upload-Id (a retry replays it). */
  upload(uploadId: string): Promise<(UploadRecord & { incidentId: string }) | null>;
  /** After a replay: the analysis is there (a server stopped between commit and analysis left none). */
  ensureAnalysis(id: string): Promise<void>;
  ingest(ctx: Context, entries: readonly InputEntry[], req: IngestRequest): Promise<IngestOutcome>;
  eventsPage(id: string, f: EventFilters): Promise<{ rows: EventPage | Record<string, unknown>[]; total: number | null; next: string | null }>;
  countEvents(id: string, f: EventFilters): Promise<number>;
  histogram(id: string, buckets: number): Promise<Histogram>;
  unit(id: string, file: string, line: number, analysis: Analysis | null): Promise<Unit>;
  lastVerification(id: string): Promise<Verification | null>;
  saveVerification(id: string, result: Record<string, unknown>): Promise<Verification>;
  sql(sql: string, opts: SqlOptions): Promise<SqlResult>;
  failures(q: FailureFilters): Promise<FailuresAnswer>;
  close(): Promise<void>;
}

/** The workspace's DuckDB (ctx.store), as the server always served it. */
export function embeddedStore(ctx: Context): ServedStore {
  const store = ctx.store;
  return {
    kind: 'embedded',
    get path() {
      return store.path;
    },
    display: null,
    version: (id) => store.version(id),
    listIncidents: () => store.listIncidents(),
    incident: (id) => store.incident(id),
    files: (id) => store.files(id),
    analysis: (id) => store.analysis(id),
    privacyMode: (id) => store.privacyMode(id),
    headEvents: (id, perFile) => store.headEvents(id, perFile),
    eventsAt: (id, refs) => store.eventsAt(id, refs),
    redactionCounts: (id) => store.redactionCounts(id),
    deleteIncident: (id) => store.deleteIncident(id),
    upload: (uploadId) => store.upload(uploadId),
    ensureAnalysis: async (id) => {
      if (!(await store.analysis(id))) await refreshAnalysis(store, id, { offThread: true });
    },
    ingest: async (c, entries, req) => {
      const r = await ingestIncident(c, entries, { ...req, analyzeOffThread: true });
      return { id: r.id, added: r.added, skipped: r.skipped, skippedFiles: r.skippedFiles };
    },
    eventsPage: (id, f) => queryEventsPage(store, id, f),
    countEvents: (id, f) => countEvents(store, id, f),
    histogram: (id, n) => histogram(store, id, n),
    unit: (id, file, line, a) => unitOf(store, id, file, line, a),
    lastVerification: (id) => lastVerification(store, id),
    saveVerification: (id, r) => saveVerification(store, id, r),
    sql: (q, o) => runReadOnlySql(store, q, o),
    failures: (q) => failuresAcross(store, q),
    close: async () => undefined, // the context owns the store
  };
}

/** ClickHouse (serve --store). */
export function sharedStore(shared: ClickHouseStore): ServedStore {
  return {
    kind: 'shared',
    path: ':memory:',
    display: shared.target.display,
    version: (id) => shared.version(id),
    listIncidents: () => shared.listIncidents(),
    incident: (id) => shared.incident(id),
    files: async (id) => ((await shared.readable(id)) ? shared.files(id) : []),
    analysis: (id) => shared.analysis(id),
    // Every incident of a shared store is stored strict (redaction.md "Tiers").
    privacyMode: async (id) => ((await shared.incident(id)) ? 'strict' : null),
    headEvents: (id, perFile) => shared.headEvents(id, perFile),
    eventsAt: (id, refs) => shared.eventsAt(id, refs),
    redactionCounts: (id) => shared.redactionCounts(id),
    deleteIncident: (id) => shared.deleteIncident(id),
    // Recorded in ClickHouse once the ingest is visible: a retry to any server of the team replays it.
    upload: (uploadId) => shared.upload(uploadId),
    ensureAnalysis: async () => undefined, // written with the ingest that lists it
    ingest: async (c, entries, req) => {
      const r = await shared.ingest(c, entries, { id: req.id, name: req.name, onProgress: req.onProgress, signal: req.signal });
      const out = { id: r.id, added: r.added, skipped: r.skipped, skippedFiles: r.skippedFiles };
      if (req.upload)
        await shared.recordUpload({
          uploadId: req.upload.uploadId,
          target: req.upload.target,
          incidentId: r.id,
          result: { added: r.added, skipped: r.skipped, skippedFiles: r.skippedFiles },
        });
      return out;
    },
    // A text search's page goes out before its count, as on the embedded store (X-Total-Pending).
    eventsPage: (id, f) => chQueryEventsPage(shared, id, f),
    countEvents: (id, f) => chCountEvents(shared, id, f),
    histogram: (id, n) => chHistogram(shared, id, n),
    unit: (id, file, line, a) => chUnitOf(shared, id, file, line, a),
    lastVerification: (id) => shared.lastVerification(id),
    saveVerification: (id, r) => shared.saveVerification(id, r),
    sql: (q, o) => chRunReadOnlySql(shared, q, o),
    failures: (q) => chFailuresAcross(shared, q),
    close: () => shared.close(),
  };
}
