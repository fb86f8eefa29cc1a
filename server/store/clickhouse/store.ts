// The shared store (ClickHouse): an incident is ingested and analysed exactly as in the embedded
// store, in a private DuckDB (same pipeline, redaction, analysis: the seam is rows, not SQL), and
// its rows are then kept here (writer.ts). Reading a stored incident — its analysis, report,
// timeline pages, search, histogram, sessions — runs in ClickHouse (events.ts for the timeline).
//
// Every read sees only the ingests its incident lists as complete (schema.ts, "Visibility").
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Event } from '../../../parsers/contract/event.ts';
import type { CompiledFormat } from '../../../parsers/engine/apply.ts';
import { Analysis, SkippedFile } from '../../contract/analysis.ts';
import { TriageError } from '../../errors.ts';
import { ingestIncident, type Context } from '../../incidents.ts';
import type { IncidentName, Progress } from '../../ingest/pipeline.ts';
import type { InputEntry } from '../../ingest/inputs.ts';
import type { ToolPolicy } from '../../triage/classify/policy.ts';
import type { FileEnd, SessionStat } from '../../triage/analyze.ts';
import { IngestCancelled, rowToEvent, Store, type FileRow, type IncidentRow, type UploadRecord } from '../store.ts';
import type { Verification } from '../verifications.ts';
import { ClickHouseClient } from './client.ts';
import { ensureSchema, localName, TABLES, type TableName } from './schema.ts';
import { int, NO_TS, str, strList } from './sql.ts';
import type { StoreTarget } from './target.ts';
import { IngestWriter, newIngestId, nextVersion, type IncidentState } from './writer.ts';

/** The event columns rowToEvent reads (and seq). */
export const EVENT_COLS =
  'seq, ts, file, line, end_line, source, format, kind, level, message, text, http_method, http_path, http_status, request_id, rpc_id, rpc_method, tool, session, protocol_version, duration_ms, attrs, signals';

/** Above this much input the private DuckDB of an ingest is a temporary file (it spills; memory does not). */
const SCRATCH_SPILL_BYTES = 16 * 1024 * 1024;
const LOAD_PAGE = 50_000;

/** A ClickHouse row with ts (NO_TS → null) and 64-bit integers decoded. */
export function decodeTs(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  const n = Number(v);
  return n === NO_TS ? null : n;
}

export function chRowToEvent(r: Record<string, unknown>): Event {
  return rowToEvent({ ...r, ts: decodeTs(r.ts) });
}

interface StateRow {
  incident: string;
  version: string;
  ts: string;
  state: IncidentState['state'];
  name: string;
  created_at: string;
  ingests: string[];
  analysis_ingest: string;
  decision: string;
  privacy_mode: string;
  tool_policy: string;
  files: number;
  events: string;
}

function decodeState(r: StateRow): IncidentState {
  return {
    incident: r.incident,
    version: Number(r.version),
    ts: Number(r.ts),
    state: r.state,
    name: r.name,
    createdAt: Number(r.created_at),
    ingests: r.ingests,
    analysisIngest: r.analysis_ingest,
    decision: r.decision,
    privacyMode: r.privacy_mode,
    toolPolicy: r.tool_policy ? JSON.parse(r.tool_policy) : null,
    files: Number(r.files),
    events: Number(r.events),
  };
}

function incidentRow(s: IncidentState): IncidentRow {
  return {
    id: s.incident,
    name: s.name,
    createdAt: new Date(s.createdAt).toISOString(),
    state: s.state === 'ready' ? 'ready' : s.state === 'ingesting' ? 'ingesting' : 'incomplete',
    files: s.files,
    events: s.events,
    decision: s.ingests.length ? s.decision : null,
    // A shared store's incidents are always strict (redaction.md "Tiers").
    privacyMode: 'strict',
  };
}

export interface IngestKeys {
  key: Buffer;
  formats: readonly CompiledFormat[];
}

export class ClickHouseStore {
  /** Ingests of one incident run one after another in this process (a per-incident queue). */
  private readonly queues = new Map<string, Promise<unknown>>();

  private constructor(
    readonly client: ClickHouseClient,
    /** The nodes that hold our tables (one, or every node of the cluster). */
    readonly nodes: readonly string[],
  ) {}

  get target(): StoreTarget {
    return this.client.target;
  }

  /** What messages and `serving …` lines call this store: its URL without credentials. */
  get path(): string {
    return this.target.display;
  }

  /** Connect and create what is missing (database, tables; on each node of a cluster). */
  static async open(target: StoreTarget): Promise<ClickHouseStore> {
    const client = new ClickHouseClient(target);
    const nodes = await ensureSchema(client);
    return new ClickHouseStore(client, nodes);
  }

  /**
   * The incident's version (its latest state row), or the whole store's (the latest state row of
   * any incident): moves with every write, from any server. The HTTP answer caches are keyed on it.
   */
  async version(id?: string): Promise<number> {
    const [r] = await this.client.rows<{ v: string; n: string }>(`SELECT max(version) AS v, count() AS n FROM incidents${id ? ` WHERE incident = ${str(id)}` : ''}`);
    return Number(r?.v ?? 0) + Number(r?.n ?? 0);
  }

  /** The last verification probe of a readable incident, or null. */
  async lastVerification(id: string): Promise<Verification | null> {
    if (!(await this.readable(id))) return null;
    const [r] = await this.client.rows<{ ts: string; ok: number; result: string }>(`SELECT ts, ok, result FROM verifications WHERE incident = ${str(id)} ORDER BY ts DESC LIMIT 1`);
    return r ? { incidentId: id, at: Number(r.ts), ok: Number(r.ok) === 1, result: JSON.parse(r.result) as Record<string, unknown> } : null;
  }

  async saveVerification(id: string, result: Record<string, unknown>): Promise<Verification> {
    const v: Verification = { incidentId: id, at: Date.now(), ok: result.ok === true, result };
    const settings: Record<string, number> = this.target.cluster ? { insert_distributed_sync: 1 } : {};
    await this.client.insert('verifications', JSON.stringify({ incident: id, ts: v.at, ok: v.ok ? 1 : 0, result: JSON.stringify(result) }), { settings });
    return v;
  }

  /** What the upload named `uploadId` stored, when it completed (any server); null otherwise. */
  async upload(uploadId: string): Promise<(UploadRecord & { incidentId: string }) | null> {
    const [r] = await this.client.rows<{ incident: string; target: string; result: string }>(
      `SELECT incident, target, result FROM uploads WHERE upload_id = ${str(uploadId)} ORDER BY ts LIMIT 1`,
    );
    return r ? { uploadId, target: r.target, incidentId: r.incident, result: JSON.parse(r.result) as UploadRecord['result'] } : null;
  }

  /** Record a completed upload (after its ingest is visible: a retry must find the incident). */
  async recordUpload(u: UploadRecord & { incidentId: string }): Promise<void> {
    const settings: Record<string, number> = this.target.cluster ? { insert_distributed_sync: 1 } : {};
    await this.client.insert('uploads', JSON.stringify({ incident: u.incidentId, upload_id: u.uploadId, ts: Date.now(), target: u.target, result: JSON.stringify(u.result) }), {
      settings,
    });
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.queues.values()]);
  }

  // ── incidents ───────────────────────────────────────────────────────────────

  /** An incident's latest state row, whatever its state; null when it was never written. */
  async state(id: string): Promise<IncidentState | null> {
    const [r] = await this.client.rows<StateRow>(`SELECT * FROM incidents WHERE incident = ${str(id)} ORDER BY version DESC LIMIT 1`);
    return r ? decodeState(r) : null;
  }

  /** The incident's state when it can be read (not deleted, at least one ingest complete). */
  async readable(id: string): Promise<IncidentState | null> {
    const s = await this.state(id);
    return s && s.state !== 'deleted' && s.ingests.length > 0 ? s : null;
  }

  private async visible(id: string): Promise<{ s: IncidentState; where: string }> {
    const s = await this.readable(id);
    if (!s) throw new TriageError('TRIAGE_ERR_NOT_FOUND', `no incident ${id} in ${this.target.display}`);
    return { s, where: `incident = ${str(id)} AND ingest IN ${strList(s.ingests)}` };
  }

  /** The WHERE clause of an incident's visible rows (events.ts). */
  async scope(id: string): Promise<string> {
    return (await this.visible(id)).where;
  }

  /** Newest first, as the embedded store lists them. */
  async listIncidents(): Promise<IncidentRow[]> {
    const rows = await this.client.rows<StateRow>(`SELECT * FROM incidents ORDER BY incident, version DESC LIMIT 1 BY incident`);
    return rows
      .map(decodeState)
      .filter((s) => s.state !== 'deleted')
      .sort((a, b) => b.createdAt - a.createdAt || (a.incident < b.incident ? 1 : -1))
      .map(incidentRow);
  }

  async incident(id: string): Promise<IncidentRow | null> {
    const s = await this.state(id);
    return s && s.state !== 'deleted' ? incidentRow(s) : null;
  }

  async analysis(id: string): Promise<Analysis | null> {
    const s = await this.readable(id);
    if (!s) return null;
    const [r] = await this.client.rows<{ analysis: string }>(`SELECT analysis FROM decisions WHERE incident = ${str(id)} AND ingest = ${str(s.analysisIngest)} LIMIT 1`);
    return r ? Analysis.parse(JSON.parse(r.analysis)) : null;
  }

  async files(id: string): Promise<FileRow[]> {
    const { where } = await this.visible(id);
    const rows = await this.client.rows<Record<string, string | number | null>>(
      `SELECT file_no, path, sha256, bytes, source, format, lines, events, unparsed, truncated_lines, prefix FROM files WHERE ${where} ORDER BY file_no`,
    );
    return rows.map((r) => ({
      fileNo: Number(r.file_no),
      path: String(r.path),
      sha256: String(r.sha256),
      bytes: Number(r.bytes),
      source: String(r.source),
      format: String(r.format),
      lines: Number(r.lines),
      events: Number(r.events),
      unparsed: Number(r.unparsed),
      truncatedLines: Number(r.truncated_lines),
      prefix: r.prefix === null ? null : String(r.prefix),
    }));
  }

  async fileHashes(id: string): Promise<Set<string>> {
    return new Set((await this.files(id)).map((f) => f.sha256));
  }

  async skippedFiles(id: string): Promise<SkippedFile[]> {
    const { where } = await this.visible(id);
    const rows = await this.client.rows<SkippedFile>(`SELECT file, reason, detail FROM skipped_files WHERE ${where} ORDER BY idx`);
    return rows.map((r) => SkippedFile.parse(r));
  }

  async toolPolicy(id: string): Promise<unknown | null> {
    return (await this.readable(id))?.toolPolicy ?? null;
  }

  async redactionCounts(id: string): Promise<Record<string, number>> {
    const { where } = await this.visible(id);
    const rows = await this.client.rows<{ rule: string; n: string }>(`SELECT rule, sum(count) AS n FROM redactions WHERE ${where} GROUP BY rule ORDER BY rule`);
    return Object.fromEntries(rows.map((r) => [r.rule, Number(r.n)]));
  }

  /**
   * Forget an incident: a `deleted` state row (without its name), so no read sees it from now on;
   * then its rows are dropped from every table on every node (purge).
   */
  async deleteIncident(id: string): Promise<boolean> {
    return this.serial(id, async () => {
      const s = await this.state(id);
      if (!s || s.state === 'deleted') return false;
      await new IngestWriter(this.client, id, '').state({ ...s, version: nextVersion(), ts: Date.now(), state: 'deleted', name: '' });
      // The incident is gone for every reader now; a store that refuses the deletes (a user without
      // ALTER) keeps the rows unread, as before purging existed, rather than failing the delete.
      await this.purge(id).catch(() => undefined);
      return true;
    });
  }

  /**
   * Drop an incident's rows (or one ingest's) from every table on every node: ClickHouse mutations
   * (ALTER … DELETE), which it applies in the background, part by part. Readers already skip these
   * rows (Visibility); this takes them off the disk and out of the SQL console's reach. The
   * incident's `deleted` state row stays, so a late writer cannot bring it back.
   */
  async purge(id: string, ingest?: string): Promise<void> {
    const { database: db, cluster } = this.target;
    for (const base of this.nodes) {
      const c = this.client.forNode(base);
      for (const t of Object.keys(TABLES) as TableName[]) {
        const hasIngest = /(^|,)\s*ingest String/.test(TABLES[t].columns);
        if (ingest && !hasIngest) continue;
        const where = ingest ? `incident = ${str(id)} AND ingest = ${str(ingest)}` : t === 'incidents' ? `incident = ${str(id)} AND state != 'deleted'` : `incident = ${str(id)}`;
        await c.run(`ALTER TABLE ${db}.${localName(t, cluster)} DELETE WHERE ${where}`);
      }
    }
  }

  // ── events (what analysis and the report read) ───────────────────────────────

  /** The events at given file:line places (evidence), at most 500, in timeline order. */
  async eventsAt(id: string, refs: readonly { file: string; line: number }[]): Promise<Event[]> {
    const list = refs.slice(0, 500);
    if (!list.length) return [];
    const { where } = await this.visible(id);
    const ors = list.map((r) => `(file = ${str(r.file)} AND line = ${int(r.line)})`).join(' OR ');
    const rows = await this.client.rows<Record<string, unknown>>(`SELECT ${EVENT_COLS} FROM events WHERE ${where} AND (${ors}) ORDER BY ts, seq`);
    return rows.map(chRowToEvent);
  }

  /** The first events of every file (where versions and transports are announced). */
  async headEvents(id: string, perFile = 60): Promise<Event[]> {
    const { where } = await this.visible(id);
    const rows = await this.client.rows<Record<string, unknown>>(`SELECT ${EVENT_COLS} FROM events WHERE ${where} ORDER BY file, seq LIMIT ${int(Math.trunc(perFile))} BY file`);
    return rows.sort((a, b) => Number(a.seq) - Number(b.seq)).map(chRowToEvent);
  }

  /** Per-session first/last times and the time of a successful DELETE, over every event of the incident. */
  async sessionStats(id: string): Promise<SessionStat[]> {
    const { where } = await this.visible(id);
    const timed = `ts != ${int(NO_TS)}`;
    const del = `ifNull(http_method = 'DELETE' AND http_status < 300, 0) AND ${timed}`;
    const rows = await this.client.rows<{ session: string; first: string; last: string; timed: string; deleted: string; dn: string }>(
      `SELECT session, minIf(ts, ${timed}) AS first, maxIf(ts, ${timed}) AS last, countIf(${timed}) AS timed,
              maxIf(ts, ${del}) AS deleted, countIf(${del}) AS dn, min(seq) AS s0
       FROM events WHERE ${where} AND session IS NOT NULL GROUP BY session ORDER BY s0`,
    );
    return rows.map((r) => ({
      session: r.session,
      first: Number(r.timed) ? Number(r.first) : null,
      last: Number(r.timed) ? Number(r.last) : null,
      deleted: Number(r.dn) ? Number(r.deleted) : null,
    }));
  }

  /** Each file's last line and latest time (analysis: did a client's log go on after its last call?). */
  async fileEnds(id: string): Promise<FileEnd[]> {
    const { where } = await this.visible(id);
    const timed = `ts != ${int(NO_TS)}`;
    const rows = await this.client.rows<{ file: string; last_ts: string; timed: string; last_line: string }>(
      `SELECT file, maxIf(ts, ${timed}) AS last_ts, countIf(${timed}) AS timed, max(end_line) AS last_line FROM events WHERE ${where} GROUP BY file ORDER BY file`,
    );
    return rows.map((r) => ({ file: r.file, lastTs: Number(r.timed) ? Number(r.last_ts) : null, lastLine: Number(r.last_line) }));
  }

  /** Every protocol version the incident's events mention. */
  async protocolVersions(id: string): Promise<string[]> {
    const { where } = await this.visible(id);
    const rows = await this.client.rows<{ v: string }>(`SELECT DISTINCT protocol_version AS v FROM events WHERE ${where} AND protocol_version IS NOT NULL ORDER BY v`);
    return rows.map((r) => r.v);
  }

  /** Every event of the incident in seq order, a page at a time. */
  async *allEvents(id: string): AsyncGenerator<Event & { seq: number }> {
    const { where } = await this.visible(id);
    const [span] = await this.client.rows<{ hi: string; n: string }>(`SELECT max(seq) AS hi, count() AS n FROM events WHERE ${where}`);
    if (!span || Number(span.n) === 0) return;
    const hi = Number(span.hi);
    for (let lo = 0; lo <= hi; lo += LOAD_PAGE) {
      const rows = await this.client.rows<Record<string, unknown>>(
        `SELECT ${EVENT_COLS} FROM events WHERE ${where} AND seq BETWEEN ${int(lo)} AND ${int(lo + LOAD_PAGE - 1)} ORDER BY seq`,
      );
      for (const r of rows) yield { ...chRowToEvent(r), seq: Number(r.seq) };
    }
  }

  // ── ingest ──────────────────────────────────────────────────────────────────

  private serial<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.queues.get(id) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.catch(() => undefined);
    this.queues.set(id, tail);
    void tail.then(() => {
      if (this.queues.get(id) === tail) this.queues.delete(id);
    });
    return run;
  }

  /**
   * Ingest entries into a new incident, or into `id` (files it already holds, by content hash,
   * are skipped). The ingest and its analysis run in a private DuckDB, strictly redacted (a
   * shared store is always strict: redaction.md "Tiers"); the rows then land here, and the
   * incident lists the ingest as complete only once every batch is counted.
   */
  async ingest(
    keys: IngestKeys,
    entries: readonly InputEntry[],
    opts: {
      id?: string;
      name: IncidentName;
      onProgress?: (p: Progress) => void;
      toolPolicy?: ToolPolicy | null /** Aborted before the rows are written: nothing is stored (IngestCancelled). */;
      signal?: AbortSignal;
    },
  ): Promise<{ id: string; added: number; skipped: number; skippedFiles: SkippedFile[]; analysis: Analysis; secrets: Awaited<ReturnType<typeof ingestIncident>>['secrets'] }> {
    const bytes = entries.reduce((n, e) => n + e.size, 0);
    const dir = bytes > SCRATCH_SPILL_BYTES ? mkdtempSync(join(tmpdir(), 'mcp-triage-ch-')) : null;
    if (dir) chmodSync(dir, 0o700);
    try {
      const scratch = await Store.open(dir ? join(dir, 'scratch.duckdb') : ':memory:');
      try {
        const run = () => this.ingestVia(scratch, keys, entries, opts);
        return await (opts.id ? this.serial(opts.id, run) : run());
      } finally {
        await scratch.close();
      }
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  }

  private async ingestVia(scratch: Store, keys: IngestKeys, entries: readonly InputEntry[], opts: Parameters<ClickHouseStore['ingest']>[2]) {
    let prev: IncidentState | null = null;
    if (opts.id) {
      prev = await this.readable(opts.id);
      if (!prev) throw new TriageError('TRIAGE_ERR_NOT_FOUND', `no incident ${opts.id} in ${this.target.display}`);
    }
    const id = opts.id ?? scratch.newIncidentId();
    const loaded = prev ? await this.loadInto(scratch, prev) : { firstSeq: 0, firstFile: 0, skipped: 0 };
    // A shared store is always strict (redaction.md "Tiers"): everything redacted before storage.
    const ctx: Context = { store: scratch, key: keys.key, formats: keys.formats, strict: true };
    const r = await ingestIncident(ctx, entries, { id, name: opts.name, onProgress: opts.onProgress, toolPolicy: opts.toolPolicy, mode: 'strict', signal: opts.signal });
    if (opts.signal?.aborted) throw new IngestCancelled();
    if (prev && r.added === 0) {
      // Nothing new (every file already held): nothing to write, the stored analysis stands.
      return { ...r, id, analysis: (await this.analysis(id)) ?? r.analysis };
    }
    await this.publish(scratch, id, r.analysis, prev, loaded);
    const analysis = await this.analysis(id);
    if (!analysis) throw new TriageError('TRIAGE_ERR_STORE', `${this.target.display}: incident ${id} was written but its analysis cannot be read back`);
    return { ...r, id, analysis };
  }

  /**
   * Write what an ingest added to the private DuckDB incident `id` (files from `loaded.firstFile`,
   * events from `loaded.firstSeq`, this ingest's redaction counts and skipped files) and its
   * analysis, then mark the ingest complete. Exported for the tests' synthetic incidents.
   */
  async publish(scratch: Store, id: string, analysis: Analysis, prev: IncidentState | null, loaded = { firstSeq: 0, firstFile: 0, skipped: 0 }): Promise<void> {
    const row = (await scratch.incident(id))!;
    const files = await scratch.files(id);
    const ingest = newIngestId();
    const w = new IngestWriter(this.client, id, ingest);
    const createdAt = prev?.createdAt ?? Date.now();
    const base: IncidentState = prev ?? {
      incident: id,
      version: 0,
      ts: 0,
      state: 'ingesting',
      name: row.name,
      createdAt,
      ingests: [],
      analysisIngest: '',
      decision: '',
      privacyMode: 'strict',
      toolPolicy: null,
      files: 0,
      events: 0,
    };
    const now = Date.now();
    const [redactions, skipped] = await Promise.all([scratch.redactionCounts(id), scratch.skippedFiles(id)]);
    try {
      // The small tables in parallel (each insert is checked on its own), then the events in order.
      await Promise.all([
        prev ? null : w.state({ ...base, version: nextVersion(), ts: now }),
        w.rows(
          'files',
          files
            .filter((f) => f.fileNo >= loaded.firstFile)
            .map((f) => ({
              ts: now,
              file_no: f.fileNo,
              path: f.path,
              sha256: f.sha256,
              bytes: f.bytes,
              source: f.source,
              format: f.format,
              lines: f.lines,
              events: f.events,
              unparsed: f.unparsed,
              truncated_lines: f.truncatedLines,
              prefix: f.prefix,
            })),
        ),
        w.rows(
          'redactions',
          Object.entries(redactions).map(([rule, count]) => ({ rule, count })),
        ),
        w.skipped(skipped.slice(loaded.skipped), loaded.skipped),
        w.analysis(analysis, createdAt),
      ]);
      const events = await w.events(scratch, id, loaded.firstSeq);
      await w.verify();
      IngestWriter.faults.commit?.();
      await w.state({
        ...base,
        version: nextVersion(),
        ts: Date.now(),
        state: 'ready',
        ingests: [...base.ingests, ingest],
        analysisIngest: ingest,
        decision: analysis.decision,
        privacyMode: 'strict',
        toolPolicy: await scratch.toolPolicy(id),
        files: files.length,
        events: loaded.firstSeq + events,
      });
    } catch (e) {
      // A new incident that did not land says so; an existing one stays as it was. What of the ingest
      // did land is never read (not listed as complete) and is dropped when the store can be reached.
      if (!prev) await w.state({ ...base, version: nextVersion(), ts: Date.now(), state: 'incomplete' }).catch(() => undefined);
      await this.purge(id, ingest).catch(() => undefined);
      throw e;
    }
  }

  /**
   * Copy a stored incident into a private DuckDB so files added to it are ingested and the whole
   * incident is analysed again there, as the embedded store does. Events keep their seq.
   */
  private async loadInto(scratch: Store, s: IncidentState): Promise<{ firstSeq: number; firstFile: number; skipped: number }> {
    const files = await this.files(s.incident);
    const skipped = await this.skippedFiles(s.incident);
    let n = 0;
    // Recorded strict, as the stored text is, so the analysis of the whole incident says so.
    await scratch.ingest(
      s.incident,
      s.name,
      async (writer) => {
        for await (const e of this.allEvents(s.incident)) {
          if (e.seq !== n) throw new TriageError('TRIAGE_ERR_STORE', `${this.target.display}: incident ${s.incident} has a gap in its events at seq ${n}; it cannot be extended`);
          const { seq: _seq, ...event } = e;
          writer.write(event);
          n++;
        }
        return { files, redactions: {}, skipped };
      },
      { mode: 'strict' },
    );
    if (s.toolPolicy) await scratch.setToolPolicy(s.incident, s.toolPolicy);
    return { firstSeq: n, firstFile: files.reduce((m, f) => Math.max(m, f.fileNo + 1), 0), skipped: skipped.length };
  }
}
