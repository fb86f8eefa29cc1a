// The embedded DuckDB store: each ingest is one transaction on its own connection (a crash leaves
// either the whole ingest or none of it; ingests into one incident run one after the other), other
// writes go through one writer connection, readers on their own.
import { BIGINT, DOUBLE, type DuckDBAppender, type DuckDBConnection, DuckDBDataChunk, DuckDBInstance, INTEGER, VARCHAR } from '@duckdb/node-api';
import duckdb from '@duckdb/node-bindings';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Event } from '../../parsers/contract/event.ts';
import type { FileEnd, SessionStat } from '../triage/analyze.ts';
import { Analysis, type SkippedFile } from '../contract/analysis.ts';
import { TriageError } from '../errors.ts';
import { ensurePrivateDir } from '../workspace.ts';
import { focusSql, triageFrom, type FocusLimits } from './focus.ts';
import { SCHEMA, SCHEMA_VERSION } from './schema.ts';
import { addTrigrams, BLOCK_SHIFT, mayHold, queryBits, TextIndexBuilder, type TextBlock } from './text-index.ts';
import { combinedMode, type PrivacyMode } from '../contract/privacy.ts';
import { eventsFromJson, JSON_FIELDS, rowToEvent } from './event-rows.ts';

export { rowToEvent } from './event-rows.ts';

/**
 * DuckDB refuses a second process on a database file ("Could not set lock on file … Conflicting
 * lock is held in … (PID n)"): that is a busy workspace, not an internal error. Returns the
 * one-line TRIAGE_ERR_BUSY to throw instead, or null for any other error.
 */
function lockConflict(path: string, e: unknown): TriageError | null {
  const msg = String((e as Error)?.message ?? e);
  if (!/Could not set lock on file/i.test(msg)) return null;
  const pid = /\(PID (\d+)\)/.exec(msg)?.[1];
  return new TriageError(
    'TRIAGE_ERR_BUSY',
    `database ${path} is in use by another process${pid ? ` (PID ${pid})` : ''}, most likely a running mcp-triage serve or analyze --db; stop it or wait for it, or use another --db FILE`,
  );
}

/**
 * Which other process has this database file open, if any (DuckDB's own file lock, tried with a
 * read-only open that changes nothing). Purge asks this before deleting the workspace, so a
 * long `analyze --db` into the workspace database is not deleted under it either.
 */
export async function databaseHolder(path: string): Promise<{ pid?: number } | null> {
  if (!existsSync(path)) return null;
  try {
    const probe = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY', autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' });
    probe.closeSync();
    return null;
  } catch (e) {
    const msg = String((e as Error)?.message ?? e);
    if (!/Could not set lock on file/i.test(msg)) return null; // damaged or foreign: nothing holds it
    const pid = /\(PID (\d+)\)/.exec(msg)?.[1];
    return pid ? { pid: Number(pid) } : {};
  }
}

export interface IncidentRow {
  id: string;
  name: string;
  createdAt: string;
  state: 'ready' | 'ingesting' | 'incomplete';
  files: number;
  events: number;
  decision: string | null;
  /** Added 2026-12: what the stored text already had redacted (contract/privacy.ts); strict for incidents stored before tiers. */
  privacyMode: PrivacyMode;
}

/**
 * Literals found late in an ingest (a secret learnt on line n also sits, raw, in lines before n):
 * the store rewrites the rows that hold them before it commits (redact/index.ts createLateSweep).
 */
export interface LateRewrite {
  values: readonly string[];
  rewrite(text: string): { text: string; rules: string[] } | null;
}

/** Event columns that carry log text (what a late rewrite goes over). */
const TEXT_COLUMNS = ['text', 'message', 'http_path', 'request_id', 'rpc_id', 'rpc_method', 'tool', 'session', 'protocol_version', 'attrs', 'signals'] as const;

export interface FileRow {
  fileNo: number;
  path: string;
  sha256: string;
  bytes: number;
  source: string;
  format: string;
  lines: number;
  events: number;
  unparsed: number;
  truncatedLines: number;
  prefix: string | null;
}

export interface EventWriter {
  write(e: Event): void;
}

/** An upload that named itself (X-Upload-Id), recorded with the ingest that stored it. */
export interface UploadRecord {
  uploadId: string;
  /** 'new' (it created the incident) or the id of the incident it added files to. */
  target: string;
  /** What its first answer said. */
  result: { added: number; skipped: number; skippedFiles: SkippedFile[] };
}

/** How Store.triageEvents reads: `focus`, only the focus set (store/focus.ts); `triageEvents`, the incident's triageCount when known. */
export interface TriageRead {
  focus?: FocusLimits;
  triageEvents?: number;
}

/** The ingest was called off before its commit (the client went away): nothing of it was stored. */
export class IngestCancelled extends Error {
  constructor() {
    super('the ingest was cancelled before it was stored (the client went away)');
    this.name = 'IngestCancelled';
  }
}

const EVENT_COLUMNS =
  'incident_id, seq, file, line, end_line, source, format, kind, ts, level, message, text, http_method, http_path, http_status, request_id, rpc_id, rpc_method, tool, session, protocol_version, duration_ms, attrs, signals';

// A message that is its whole text (every access-log line: half the events of a proxy-heavy incident)
// travels once, as null (event-rows.ts reads it back as the text): less JSON to build and parse.
const EVENT_JSON = `json_array(${JSON_FIELDS.map((c) => (c === 'ts' || c === 'duration_ms' || c === 'attrs' ? `${c}::VARCHAR` : c === 'message' ? 'nullif(message, text)' : c)).join(', ')})::VARCHAR`;
const DUCKDB_MEMORY_LIMIT = '512MB';
const TRIAGE_PAGE = 50_000;

export class Store {
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * Long-lived processes (the server) set this: upkeep such as building a missing text index then
   * runs in the background. A one-shot CLI command would wait for it on close instead.
   */
  upkeep = false;
  private readonly background = new Set<Promise<unknown>>();
  /** Gives back the private umask taken while this file database is open (privateUmask). */
  private releaseUmask: (() => void) | null = null;
  /** The tail of each incident's ingests and delete (perIncident). */
  private readonly incidentQueues = new Map<string, Promise<unknown>>();
  /** Committed writes per incident, and to any incident (version()). */
  private readonly writes = new Map<string, number>();
  private writesAll = 0;

  private constructor(
    readonly path: string,
    private readonly instance: DuckDBInstance,
    private readonly writer: DuckDBConnection,
  ) {}

  static async open(path: string): Promise<Store> {
    const memory = path === ':memory:';
    if (!memory) ensurePrivateDir(dirname(path));
    // A file database gets a memory limit so a large ingest (one transaction) spills to the
    // database file and its `.tmp` folder instead of growing with the input (DuckDB's default is
    // 80% of RAM). Only redacted rows are ever written there. An in-memory database cannot spill.
    const options: Record<string, string> = { threads: '2', autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' };
    if (!memory) options.memory_limit = DUCKDB_MEMORY_LIMIT;
    // Give memory back after a large query: DuckDB's allocator keeps what its threads freed (a
    // refused SQL console query once left the server 2.8× its idle size); flushing past 8 MB and
    // purging in the background brings it back within ~20% (measured: 365 → 156 MiB, idle 132).
    options.allocator_flush_threshold = '8MB';
    options.allocator_background_threads = 'true';
    // DuckDB creates the file, its .wal and its .tmp spill folder with the process umask, and not
    // only now: the .wal is deleted at every checkpoint and created again by the next write, the
    // spill files come and go. So the umask is 077 for as long as a file database is open (see
    // privateUmask), and what an older version left readable is tightened here.
    const release = memory ? null : privateUmask();
    let instance: DuckDBInstance;
    try {
      instance = await DuckDBInstance.create(path, options);
    } catch (e) {
      release?.();
      throw lockConflict(path, e) ?? e;
    }
    try {
      if (!memory) tightenStoreFiles(path);
      const writer = await instance.connect();
      for (const sql of SCHEMA) await writer.run(sql);
      await writer.run(`INSERT OR REPLACE INTO meta VALUES ('schema_version', '${SCHEMA_VERSION}')`);
      // An ingest that was cut off (crash, kill -9) rolled back; an incident left "ingesting" by an
      // older process is marked so the UI can offer a retry instead of showing half a story.
      await writer.run(`UPDATE incidents SET state = 'incomplete' WHERE state = 'ingesting'`);
      // Log content is untrusted and SQL reaches us from the console: no file or network access from
      // SQL, for the life of this instance (DuckDB refuses to turn it back on while running).
      await writer.run('SET enable_external_access = false');
      // …and no later statement may loosen any setting (extension autoload, memory, threads).
      await writer.run('SET lock_configuration = true');
      const store = new Store(path, instance, writer);
      store.releaseUmask = release;
      return store;
    } catch (e) {
      instance.closeSync();
      release?.();
      throw e;
    }
  }

  /**
   * What answers about an incident are a function of, in this process: a number that changes after
   * every committed write to it (ingest, analysis, tool policy, delete). Without an id: to any
   * incident (the incident list). The server's answer cache (http/answers.ts) is keyed on it; this
   * process is the only writer of its database file (DuckDB's file lock).
   */
  version(incidentId?: string): number {
    return incidentId === undefined ? this.writesAll : (this.writes.get(incidentId) ?? 0);
  }

  /** Called after a write to `incidentId` committed (never before: a reader must not cache old rows under the new version). */
  private changed(incidentId: string): void {
    this.writes.set(incidentId, (this.writes.get(incidentId) ?? 0) + 1);
    this.writesAll++;
  }

  /** Serialise writes: DuckDB allows one write transaction per connection. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  async reader(): Promise<DuckDBConnection> {
    return this.instance.connect();
  }

  async query<T = Record<string, unknown>>(sql: string, params: Record<string, string | number | boolean | null> = {}): Promise<T[]> {
    const c = await this.instance.connect();
    try {
      const r = await c.runAndReadAll(sql, params as never);
      return r.getRowObjectsJS() as T[];
    } finally {
      c.closeSync();
    }
  }

  newIncidentId(): string {
    return `inc_${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
  }

  /** Work on one incident that must not overlap (its ingests and its delete), one after the other. */
  private perIncident<T>(incidentId: string, fn: () => Promise<T>): Promise<T> {
    const before = this.incidentQueues.get(incidentId) ?? Promise.resolve();
    const run = before.then(fn, fn);
    const tail = run.catch(() => undefined);
    this.incidentQueues.set(incidentId, tail);
    void tail.then(() => {
      if (this.incidentQueues.get(incidentId) === tail) this.incidentQueues.delete(incidentId);
    });
    return this.track(run);
  }

  /**
   * Run one ingest as one transaction: the callback writes events through the writer and returns
   * the file rows; the incident becomes visible (ready) only on commit.
   *
   * Each ingest has its own connection, so ingests into different incidents run side by side (a
   * small upload is not held behind a large one; the server decides how many run, ingest-queue.ts)
   * and other writes go on meanwhile; DuckDB commits concurrent appends of different rows. Two
   * ingests into the same incident (and its delete) run one after the other. `upload` is recorded
   * in the same transaction (a retried upload finds it); `signal` aborted before the commit rolls
   * the whole ingest back (IngestCancelled).
   */
  async ingest(
    incidentId: string,
    name: string,
    fn: (
      writer: EventWriter,
      firstSeq: number,
      firstFileNo: number,
    ) => Promise<{ files: FileRow[]; redactions: Record<string, number>; skipped?: readonly SkippedFile[]; late?: LateRewrite }>,
    opts: { mode?: PrivacyMode; signal?: AbortSignal; upload?: UploadRecord } = {},
  ): Promise<FileRow[]> {
    return this.perIncident(incidentId, async () => {
      const w = await this.instance.connect();
      try {
        return await this.ingestOn(w, incidentId, name, fn, opts);
      } finally {
        w.closeSync();
      }
    });
  }

  private async ingestOn(
    w: DuckDBConnection,
    incidentId: string,
    name: string,
    fn: (
      writer: EventWriter,
      firstSeq: number,
      firstFileNo: number,
    ) => Promise<{ files: FileRow[]; redactions: Record<string, number>; skipped?: readonly SkippedFile[]; late?: LateRewrite }>,
    opts: { mode?: PrivacyMode; signal?: AbortSignal; upload?: UploadRecord },
  ): Promise<FileRow[]> {
    if (opts.signal?.aborted) throw new IngestCancelled();
    await w.run('BEGIN TRANSACTION');
    try {
      const mode = opts.mode ?? 'standard';
      const exists = await w.runAndReadAll('SELECT privacy_mode FROM incidents WHERE id = $id', { id: incidentId });
      const held = exists.getRowObjectsJS() as { privacy_mode: PrivacyMode | null }[];
      if (!held.length) {
        await w.run(`INSERT INTO incidents (id, name, created_at, state, analysis, privacy_mode) VALUES ($id, $name, $at, 'ingesting', NULL, $mode)`, {
          id: incidentId,
          name,
          at: Date.now(),
          mode,
        });
      } else {
        // Files added in one mode to an incident stored in another: it now holds what the weaker kept.
        await w.run('UPDATE incidents SET privacy_mode = $mode WHERE id = $id', { id: incidentId, mode: combinedMode(held[0]!.privacy_mode ?? 'strict', mode) });
      }
      const seq0 = Number((await w.runAndReadAll('SELECT coalesce(max(seq) + 1, 0) AS s FROM events WHERE incident_id = $id', { id: incidentId })).getRowObjectsJS()[0]!.s);
      const file0 = Number((await w.runAndReadAll('SELECT coalesce(max(file_no) + 1, 0) AS s FROM files WHERE incident_id = $id', { id: incidentId })).getRowObjectsJS()[0]!.s);
      const app = await w.createAppender('events');
      const blocks = await w.createAppender('text_blocks');
      // Rows are buffered column-wise and appended as DataChunks: numbers and NULLs go
      // straight into vector memory, only non-null strings cost a native call; row by row
      // it was ~23 native calls per event.
      // The index blocks are held until the late sweep below has run (it may add trigrams).
      const built: TextBlock[] = [];
      const index = new TextIndexBuilder((b) => built.push(b));
      const chunk = new EventChunks(app, incidentId, seq0, index);
      const writer: EventWriter = { write: (e) => chunk.write(e) };
      const { files, redactions, skipped = [], late } = await fn(writer, seq0, file0);
      chunk.flush();
      app.flushSync();
      app.closeSync();
      index.finish();
      if (late && late.values.length) await lateSweep(w, incidentId, seq0, built, late, redactions);
      for (const b of built) appendBlock(blocks, incidentId, b);
      blocks.flushSync();
      blocks.closeSync();
      for (const f of files) {
        await w.run(`INSERT INTO files VALUES ($i, $n, $p, $h, $b, $s, $f, $l, $e, $u, $t, $x)`, {
          i: incidentId,
          n: f.fileNo,
          p: f.path,
          h: f.sha256,
          b: f.bytes,
          s: f.source,
          f: f.format,
          l: f.lines,
          e: f.events,
          u: f.unparsed,
          t: f.truncatedLines,
          x: f.prefix,
        });
      }
      for (const [rule, count] of Object.entries(redactions)) await w.run('INSERT INTO redactions VALUES ($i, $r, $c)', { i: incidentId, r: rule, c: count });
      // The same file added again is listed once.
      for (const k of skipped) {
        await w.run(
          `INSERT INTO skipped_files SELECT $i, $f, $r, $d WHERE NOT EXISTS (SELECT 1 FROM skipped_files WHERE incident_id = $i AND file = $f AND reason = $r AND detail = $d)`,
          { i: incidentId, f: k.file, r: k.reason, d: k.detail },
        );
      }
      if (opts.upload) {
        const u = opts.upload;
        await w.run('INSERT INTO uploads VALUES ($u, $i, $t, $r, $at)', { u: u.uploadId, i: incidentId, t: u.target, r: JSON.stringify(u.result), at: Date.now() });
      }
      await w.run(`UPDATE incidents SET state = 'ready' WHERE id = $id`, { id: incidentId });
      // The last moment to call it off: once committed, the ingest stands.
      if (opts.signal?.aborted) throw new IngestCancelled();
      await w.run('COMMIT');
      this.changed(incidentId);
      return files;
    } catch (e) {
      await w.run('ROLLBACK').catch(() => undefined);
      throw e;
    }
  }

  /** The upload recorded under `uploadId` by a committed ingest, or null. */
  async upload(uploadId: string): Promise<(UploadRecord & { incidentId: string }) | null> {
    const rows = await this.query<{ incident_id: string; target: string; result: string }>(
      'SELECT incident_id, target, result::VARCHAR AS result FROM uploads WHERE upload_id = $u',
      { u: uploadId },
    );
    const r = rows[0];
    return r ? { uploadId, incidentId: r.incident_id, target: r.target, result: JSON.parse(r.result) as UploadRecord['result'] } : null;
  }

  /**
   * Replace an incident's text-index rows (events-query.ts backfillTextIndex), in one transaction,
   * only if its files are still `version` (count:max file_no) as when the blocks were built.
   */
  async replaceTextBlocks(incidentId: string, version: string, blocks: readonly TextBlock[]): Promise<boolean> {
    return this.exclusive(async () => {
      const w = this.writer;
      await w.run('BEGIN TRANSACTION');
      try {
        if ((await fileVersion(w, incidentId)) !== version) {
          await w.run('ROLLBACK');
          return false;
        }
        await w.run('DELETE FROM text_blocks WHERE incident_id = $id', { id: incidentId });
        const app = await w.createAppender('text_blocks');
        for (const b of blocks) appendBlock(app, incidentId, b);
        app.flushSync();
        app.closeSync();
        await w.run('COMMIT');
        return true;
      } catch (e) {
        await w.run('ROLLBACK').catch(() => undefined);
        throw e;
      }
    });
  }

  async setAnalysis(incidentId: string, analysis: Analysis): Promise<void> {
    await this.exclusive(() => this.writer.run('UPDATE incidents SET analysis = $a WHERE id = $id', { a: JSON.stringify(analysis), id: incidentId }));
    this.changed(incidentId);
  }

  async setToolPolicy(incidentId: string, policy: unknown): Promise<void> {
    await this.exclusive(() => this.writer.run('UPDATE incidents SET tool_policy = $p WHERE id = $id', { p: JSON.stringify(policy), id: incidentId }));
    this.changed(incidentId);
  }

  async toolPolicy(incidentId: string): Promise<unknown | null> {
    const rows = await this.query<{ p: string | null }>('SELECT tool_policy::VARCHAR AS p FROM incidents WHERE id = $id', { id: incidentId });
    return rows[0]?.p ? JSON.parse(rows[0].p) : null;
  }

  /** The incident's inputs that were not read because they are not logs, in the order they were met. */
  async skippedFiles(incidentId: string): Promise<SkippedFile[]> {
    return this.query<SkippedFile>('SELECT file, reason, detail FROM skipped_files WHERE incident_id = $id ORDER BY rowid', { id: incidentId });
  }

  async fileHashes(incidentId: string): Promise<Set<string>> {
    const rows = await this.query<{ sha256: string }>('SELECT sha256 FROM files WHERE incident_id = $id', { id: incidentId });
    return new Set(rows.map((r) => r.sha256));
  }

  async files(incidentId: string): Promise<FileRow[]> {
    return this.query<FileRow>(
      `SELECT file_no AS "fileNo", path, sha256, bytes::DOUBLE AS bytes, source, format, lines, events, unparsed, truncated_lines AS "truncatedLines", prefix
       FROM files WHERE incident_id = $id ORDER BY file_no`,
      { id: incidentId },
    );
  }

  async listIncidents(): Promise<IncidentRow[]> {
    const rows = await this.query<{
      id: string;
      name: string;
      created_at: bigint;
      state: IncidentRow['state'];
      files: bigint;
      events: bigint;
      decision: string | null;
      privacy_mode: PrivacyMode | null;
    }>(
      `SELECT i.id, i.name, i.created_at, i.state, i.privacy_mode,
              (SELECT count(*) FROM files f WHERE f.incident_id = i.id) AS files,
              (SELECT coalesce(sum(f.events), 0) FROM files f WHERE f.incident_id = i.id) AS events,
              json_extract_string(i.analysis, '$.decision') AS decision
       FROM incidents i ORDER BY i.created_at DESC, i.id DESC`,
    );
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      createdAt: new Date(Number(r.created_at)).toISOString(),
      state: r.state,
      files: Number(r.files),
      events: Number(r.events),
      decision: r.decision,
      privacyMode: r.privacy_mode ?? 'strict',
    }));
  }

  /** What the incident's stored text already had redacted; null when there is no such incident. */
  async privacyMode(id: string): Promise<PrivacyMode | null> {
    const rows = await this.query<{ m: PrivacyMode | null }>('SELECT privacy_mode AS m FROM incidents WHERE id = $id', { id });
    return rows.length ? (rows[0]!.m ?? 'strict') : null;
  }

  async incident(id: string): Promise<IncidentRow | null> {
    return (await this.listIncidents()).find((r) => r.id === id) ?? null;
  }

  async analysis(id: string): Promise<Analysis | null> {
    const rows = await this.query<{ analysis: string | null }>('SELECT analysis::VARCHAR AS analysis FROM incidents WHERE id = $id', { id });
    const raw = rows[0]?.analysis;
    return raw ? Analysis.parse(JSON.parse(raw)) : null;
  }

  async redactionCounts(id: string): Promise<Record<string, number>> {
    const rows = await this.query<{ rule: string; n: bigint }>('SELECT rule, sum(count) AS n FROM redactions WHERE incident_id = $id GROUP BY rule ORDER BY rule', { id });
    return Object.fromEntries(rows.map((r) => [r.rule, Number(r.n)]));
  }

  async deleteIncident(id: string): Promise<boolean> {
    return this.perIncident(id, () =>
      this.exclusive(async () => {
        const w = this.writer;
        const found = (await w.runAndReadAll('SELECT 1 FROM incidents WHERE id = $id', { id })).getRows().length > 0;
        if (!found) return false;
        await w.run('BEGIN TRANSACTION');
        try {
          // uploads too: a retry of a deleted incident's upload makes it again.
          for (const t of ['events', 'text_blocks', 'files', 'redactions', 'skipped_files', 'uploads']) await w.run(`DELETE FROM ${t} WHERE incident_id = $id`, { id });
          await w.run('DELETE FROM incidents WHERE id = $id', { id });
          await w.run('COMMIT');
          this.changed(id);
        } catch (e) {
          await w.run('ROLLBACK').catch(() => undefined);
          throw e;
        }
        return true;
      }),
    );
  }

  /** How many events of an incident are worth triaging (see TRIAGE_WHERE). */
  async triageCount(id: string): Promise<number> {
    const [r] = await this.query<{ n: bigint }>(`SELECT count(*) AS n FROM ${triageFrom('seq')}`, { id });
    return Number(r?.n ?? 0);
  }

  /**
   * Events worth triaging: anything with a correlation key, a status, a warning or worse, or a block.
   * With `focus`, only the neighbourhood of the first failures (see focus.ts): what a large incident's
   * analysis reads, bounded whatever the size of the logs.
   */
  async triageEvents(id: string, limit = 500_000, opts: TriageRead = {}): Promise<Event[]> {
    const out: Event[] = [];
    await this.triageBatches(id, limit, opts, (rows) => eventsFromJson(rows, out));
    return out;
  }

  /**
   * The same events as triageEvents, unparsed: pages of rows, each row one JSON array string
   * (event-rows.ts eventsFromJson reads them). Parsing them is seconds of a core for a large incident:
   * the server leaves that to a worker thread (ingest/analyze-off-thread.ts).
   */
  async triageEventsJson(id: string, limit = 500_000, opts: TriageRead = {}): Promise<string[][]> {
    const out: string[][] = [];
    await this.triageBatches(id, limit, opts, (rows) => out.push(rows));
    return out;
  }

  private async triageBatches(id: string, limit: number, opts: TriageRead, take: (rows: string[]) => void): Promise<void> {
    // Each row comes back as one JSON array string built by DuckDB (EVENT_JSON) rather than value by
    // value: reading 23 columns' strings one at a time from result vectors cost ~1.3 µs each, seconds
    // per 100k events; one string per row and a JSON.parse of it is an order of magnitude cheaper.
    // (DuckDB joining a page's rows into ~16 MB strings — string_agg ordered by seq over a running
    // byte count — sorted the page's text twice: on a 64 MiB corpus its pages took 1.9 s, these 0.9 s.)
    // Numbers that are BIGINT or DOUBLE travel as VARCHAR (exact: DuckDB prints doubles so
    // they round-trip), JSON columns as their text, so rowToEvent sees what a row read gives.
    // Keyset pages of at most TRIAGE_PAGE rows keep DuckDB's side of the read small.
    const c = await this.instance.connect();
    try {
      let source = triageFrom('*', 'seq > $after');
      if (opts.focus) {
        // The focus set is computed once into a connection-local temp table of seq numbers.
        await c.run(`CREATE OR REPLACE TEMP TABLE focus_seq AS ${focusSql(opts.focus, opts.triageEvents)}`, { id } as never);
        source = '(SELECT * FROM events WHERE incident_id = $id AND seq > $after AND seq IN (SELECT seq FROM focus_seq))';
      }
      let taken = 0;
      const max = Math.trunc(limit);
      const page = (after: number, n: number) => c.runAndReadAll(`SELECT seq, ${EVENT_JSON} AS j FROM ${source} ORDER BY seq LIMIT ${n}`, { id, after } as never);
      let n = Math.min(TRIAGE_PAGE, max);
      let next = max > 0 ? page(-1, n) : null;
      while (next) {
        const r = await next;
        const rows = r.currentRowCount;
        const [seqs, js] = r.getColumnsJS() as [unknown[], string[]];
        taken += rows;
        // the next page is built by DuckDB's threads while this one is read here (a short page is the last one)
        const full = rows === n;
        n = Math.min(TRIAGE_PAGE, max - taken);
        next = full && n > 0 && rows > 0 ? page(Number(seqs[rows - 1]), n) : null;
        try {
          if (rows > 0) take(js);
        } catch (e) {
          await next?.catch(() => undefined); // not closing the connection under a running query
          throw e;
        }
      }
    } finally {
      c.closeSync();
    }
  }

  /** Per-session first/last times and the time of a successful DELETE, over every event of the incident. */
  async sessionStats(id: string): Promise<SessionStat[]> {
    const rows = await this.query<{ session: string; first: bigint | null; last: bigint | null; deleted: bigint | null }>(
      `SELECT session, min(ts) AS first, max(ts) AS last,
              max(CASE WHEN http_method = 'DELETE' AND http_status < 300 THEN ts END) AS deleted
       FROM events WHERE incident_id = $id AND session IS NOT NULL GROUP BY session ORDER BY min(seq)`,
      { id },
    );
    const n = (v: bigint | null) => (v === null ? null : Number(v));
    return rows.map((r) => ({ session: r.session, first: n(r.first), last: n(r.last), deleted: n(r.deleted) }));
  }

  /** Each file's last line and latest time (analysis: did a client's log go on after its last call?). */
  async fileEnds(id: string): Promise<FileEnd[]> {
    const rows = await this.query<{ file: string; last_ts: bigint | null; last_line: number }>(
      'SELECT file, max(ts) AS last_ts, max(end_line) AS last_line FROM events WHERE incident_id = $id GROUP BY file ORDER BY file',
      { id },
    );
    return rows.map((r) => ({ file: r.file, lastTs: r.last_ts === null ? null : Number(r.last_ts), lastLine: Number(r.last_line) }));
  }

  /**
   * The MCP request lines and HTTP exchange lines of the whole incident (Analysis.seen), counted in SQL for an
   * incident analysed from its focus set, which holds only part of them (a healthy 1 GiB incident read
   * "20,000 request lines" from its opening window).
   */
  async seenCounts(id: string): Promise<{ requests: number; exchanges: number }> {
    const [r] = await this.query<{ q: bigint; x: bigint }>(
      `SELECT count(*) FILTER (WHERE rpc_method IS NOT NULL OR rpc_id IS NOT NULL OR tool IS NOT NULL) AS q,
              count(*) FILTER (WHERE http_method IS NOT NULL OR http_status IS NOT NULL) AS x
       FROM events WHERE incident_id = $id`,
      { id },
    );
    return { requests: Number(r?.q ?? 0), exchanges: Number(r?.x ?? 0) };
  }

  /** Every protocol version the incident's events mention. */
  async protocolVersions(id: string): Promise<string[]> {
    const rows = await this.query<{ v: string }>('SELECT DISTINCT protocol_version AS v FROM events WHERE incident_id = $id AND protocol_version IS NOT NULL ORDER BY v', { id });
    return rows.map((r) => r.v);
  }

  /** The first events of every file (where versions and transports are announced). */
  async headEvents(id: string, perFile = 60): Promise<Event[]> {
    const rows = await this.query<Record<string, unknown>>(
      `SELECT ${EVENT_COLUMNS} FROM events WHERE incident_id = $id QUALIFY row_number() OVER (PARTITION BY file ORDER BY seq) <= ${Math.trunc(perFile)} ORDER BY seq`,
      { id },
    );
    return rows.map(rowToEvent);
  }

  /** Every event of the incident in seq order, a page at a time (Parquet export). */
  async *allEvents(id: string, page = 20_000): AsyncGenerator<Event & { seq: number }> {
    for (let after = -1; ; ) {
      const rows = await this.query<Record<string, unknown>>(
        `SELECT ${EVENT_COLUMNS} FROM events WHERE incident_id = $id AND seq > $after ORDER BY seq LIMIT ${Math.trunc(page)}`,
        { id, after },
      );
      for (const r of rows) yield { ...rowToEvent(r), seq: Number(r.seq) };
      if (rows.length < page) return;
      after = Number(rows[rows.length - 1]!.seq);
    }
  }

  /** The events at given file:line places (evidence), at most 500. */
  async eventsAt(id: string, refs: readonly { file: string; line: number }[]): Promise<Event[]> {
    const list = refs.slice(0, 500);
    if (!list.length) return [];
    const params: Record<string, string | number> = { id };
    const ors = list.map((r, i) => {
      params[`f${i}`] = r.file;
      params[`l${i}`] = r.line;
      return `(file = $f${i} AND line = $l${i})`;
    });
    const rows = await this.query<Record<string, unknown>>(
      `SELECT ${EVENT_COLUMNS} FROM events WHERE incident_id = $id AND (${ors.join(' OR ')}) ORDER BY ts NULLS LAST, seq`,
      params,
    );
    return rows.map(rowToEvent);
  }

  /** Work started for later (a deferred count): close() waits for it. */
  track<T>(p: Promise<T>): Promise<T> {
    this.background.add(p);
    const done = () => this.background.delete(p);
    p.then(done, done);
    return p;
  }

  /** Resolves when the work started for later has finished (tests; close). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.background]);
  }

  async close(): Promise<void> {
    await this.queue.catch(() => undefined);
    await this.settled();
    this.writer.closeSync();
    this.instance.closeSync();
    this.releaseUmask?.();
    this.releaseUmask = null;
  }
}

let umaskHolders = 0;
let savedUmask = 0;

/**
 * Set the process umask to 077 until the returned function is called (counted: several open
 * stores share it; the last to close restores the umask found). Every file the process creates
 * meanwhile is private: DuckDB's, the upload folders, the workspace lock.
 */
export function privateUmask(): () => void {
  if (umaskHolders++ === 0) savedUmask = process.umask(0o077);
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    if (--umaskHolders === 0) process.umask(savedUmask);
  };
}

/** The database, its .wal and its .tmp spill folder (and what is in it) made private, when they exist. */
export function tightenStoreFiles(path: string): void {
  const tighten = (p: string, mode: number) => {
    try {
      const st = lstatSync(p);
      if (!st.isSymbolicLink() && (st.mode & 0o777) !== mode) chmodSync(p, mode);
    } catch {
      /* not there (yet) */
    }
  };
  tighten(path, 0o600);
  tighten(`${path}.wal`, 0o600);
  const tmp = `${path}.tmp`;
  if (existsSync(tmp) && lstatSync(tmp).isDirectory()) {
    tighten(tmp, 0o700);
    for (const f of readdirSync(tmp)) tighten(join(tmp, f), 0o600);
  }
}

/** Up to this many late values, DuckDB's contains() picks the rows; beyond, the candidate rows are read and swept in JS. */
const LATE_CONTAINS_MAX = 64;
/** Rows per read when the candidate rows are swept in JS. */
const LATE_PAGE = 16_384;
/** More separate candidate ranges than this: the contains() query scans the ingest's rows instead. */
const LATE_MAX_RANGES = 64;

/**
 * The final sweep of an ingest, inside its transaction: rows of this ingest that hold a value
 * learnt late are rewritten (every text column), their index blocks get the new text's trigrams,
 * and the rewrites are counted by rule. The index finds candidate blocks (a value whose trigrams a
 * block lacks is not in it). Then, with few values, DuckDB's contains() picks the rows; with many
 * (say a unique hex signature per request, whose trigrams every block has), the candidate rows are
 * read once and the sweeper, linear in the text whatever the number of values, picks them.
 */
async function lateSweep(w: DuckDBConnection, incidentId: string, seq0: number, blocks: TextBlock[], late: LateRewrite, redactions: Record<string, number>): Promise<void> {
  const values = [...new Set(late.values)].filter((v) => v.length > 0);
  if (!values.length || !blocks.length) return;
  const candidates = new Set<TextBlock>();
  for (const v of values) {
    const q = queryBits(v.toLowerCase());
    for (const b of blocks) if (!candidates.has(b) && mayHold(b.bits, q)) candidates.add(b);
    if (candidates.size === blocks.length) break;
  }
  if (!candidates.size) return;
  const ranges: Array<[number, number]> = [];
  for (const b of blocks) {
    if (!candidates.has(b)) continue;
    const last = ranges[ranges.length - 1];
    if (last && last[1] + 1 === b.seqLo) last[1] = b.seqHi;
    else ranges.push([b.seqLo, b.seqHi]);
  }
  const byBlock = new Map<number, TextBlock>(blocks.map((b) => [b.seqLo >> BLOCK_SHIFT, b]));
  const cols = `seq, ${TEXT_COLUMNS.map((c) => (c === 'attrs' ? 'attrs::VARCHAR AS attrs' : c)).join(', ')}`;
  const fix = async (rows: Array<Record<string, unknown>>) => {
    for (const row of rows) {
      const seq = Number(row.seq);
      const set: string[] = [];
      const p: Record<string, string | number> = { id: incidentId, seq };
      for (const c of TEXT_COLUMNS) {
        const v = row[c];
        if (typeof v !== 'string') continue;
        const out = late.rewrite(v);
        if (!out) continue;
        set.push(`${c} = $${c}`);
        p[c] = out.text;
        if (c === 'text') {
          for (const rule of out.rules) redactions[rule] = (redactions[rule] ?? 0) + 1;
          const block = byBlock.get(seq >> BLOCK_SHIFT);
          if (block?.bits && !addTrigrams(block.bits, out.text)) block.bits = null;
        }
      }
      if (set.length) await w.run(`UPDATE events SET ${set.join(', ')} WHERE incident_id = $id AND seq = $seq`, p);
    }
  };
  if (values.length <= LATE_CONTAINS_MAX) {
    const params: Record<string, string | number> = { id: incidentId, s0: seq0 };
    values.forEach((v, k) => (params[`v${k}`] = v));
    const where = ranges.length <= LATE_MAX_RANGES ? `AND (${ranges.map(([a, b]) => `seq BETWEEN ${a} AND ${b}`).join(' OR ')})` : '';
    const has = values.map((_, k) => `contains(text, $v${k}) OR contains(message, $v${k})`).join(' OR ');
    const r = await w.runAndReadAll(`SELECT ${cols} FROM events WHERE incident_id = $id AND seq >= $s0 ${where} AND (${has})`, params);
    await fix(r.getRowObjectsJS() as Array<Record<string, unknown>>);
    return;
  }
  for (const [a, b] of ranges) {
    for (let lo = a; lo <= b; lo += LATE_PAGE) {
      const r = await w.runAndReadAll(`SELECT seq, text, message FROM events WHERE incident_id = $id AND seq BETWEEN $lo AND $hi`, {
        id: incidentId,
        lo,
        hi: Math.min(b, lo + LATE_PAGE - 1),
      });
      // A message that is part of its text holds a value only if the text does.
      const hits = (r.getRowsJS() as Array<[bigint, string, string]>)
        .filter(([, text, message]) => late.rewrite(text) !== null || (!text.includes(message) && late.rewrite(message) !== null))
        .map(([seq]) => Number(seq));
      // Only the rows that hold a value are read whole (every text column is rewritten).
      if (hits.length)
        await fix(
          (await w.runAndReadAll(`SELECT ${cols} FROM events WHERE incident_id = $id AND seq IN (${hits.join(',')})`, { id: incidentId })).getRowObjectsJS() as Array<
            Record<string, unknown>
          >,
        );
    }
  }
}

/** What an incident's events are a function of: its file rows (added and deleted with them). */
export async function fileVersion(c: DuckDBConnection, incidentId: string): Promise<string> {
  const r = await c.runAndReadAll('SELECT count(*) AS f, max(file_no) AS m FROM files WHERE incident_id = $id', { id: incidentId });
  const [v] = r.getRowObjectsJS() as { f: bigint; m: number | null }[];
  return `${v?.f}:${v?.m}`;
}

function appendBlock(app: DuckDBAppender, incidentId: string, b: TextBlock): void {
  app.appendVarchar(incidentId);
  app.appendBigInt(BigInt(b.seqLo));
  app.appendBigInt(BigInt(b.seqHi));
  if (b.bits) app.appendBlob(b.bits);
  else app.appendNull();
  app.endRow();
}

/** Column types of the events table, in EVENT_COLUMNS order (attrs is JSON, stored as VARCHAR; signals space-separated ids). */
const EVENT_TYPES = [
  VARCHAR,
  BIGINT,
  VARCHAR,
  INTEGER,
  INTEGER,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  BIGINT,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  INTEGER,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  DOUBLE,
  VARCHAR,
  VARCHAR,
];
const EVENT_LOGICAL = EVENT_TYPES.map((t) => t.toLogicalType().logical_type);
/** Rows per DataChunk (DuckDB's vector size). */
const CHUNK_ROWS = 2048;

/**
 * Events buffered column-wise and appended a DataChunk at a time (see Store.ingest), written
 * straight into the chunk's vectors: numbers as one typed array per column, strings one native
 * call each, and a string column that holds one value in every row of the chunk (the incident,
 * the file, its source, often the format and kind) as a constant vector: one call per chunk.
 * (DuckDBDataChunk.setColumns kept a cache per value and a validity bit per value through
 * BigInt arithmetic: 1.1 s per 64 MiB corpus, against the ~0.7 s its native string calls take.)
 */
class EventChunks {
  private cols: (string | number | null)[][] = EVENT_TYPES.map(() => new Array(CHUNK_ROWS));
  private n = 0;
  private seq: number;
  constructor(
    private readonly app: DuckDBAppender,
    private readonly incidentId: string,
    seq0: number,
    private readonly index: TextIndexBuilder,
  ) {
    this.seq = seq0;
  }

  write(e: Event): void {
    const c = this.cols;
    const i = this.n++;
    c[0]![i] = this.incidentId;
    this.index.add(this.seq, e.text);
    c[1]![i] = this.seq++;
    c[2]![i] = e.file;
    c[3]![i] = e.line;
    c[4]![i] = e.endLine;
    c[5]![i] = e.source;
    c[6]![i] = e.format;
    c[7]![i] = e.kind;
    c[8]![i] = e.ts === null ? null : Math.trunc(e.ts);
    c[9]![i] = e.level ?? null;
    c[10]![i] = e.message;
    c[11]![i] = e.text;
    c[12]![i] = e.httpMethod ?? null;
    c[13]![i] = e.httpPath ?? null;
    c[14]![i] = e.httpStatus ?? null;
    c[15]![i] = e.requestId ?? null;
    c[16]![i] = e.rpcId === null ? null : JSON.stringify(e.rpcId);
    c[17]![i] = e.rpcMethod ?? null;
    c[18]![i] = e.tool ?? null;
    c[19]![i] = e.session ?? null;
    c[20]![i] = e.protocolVersion ?? null;
    c[21]![i] = e.durationMs ?? null;
    c[22]![i] = hasKeys(e.attrs) ? JSON.stringify(e.attrs) : null;
    c[23]![i] = e.signals.length ? e.signals.join(' ') : null;
    if (this.n === CHUNK_ROWS) this.flush();
  }

  flush(): void {
    const n = this.n;
    if (n === 0) return;
    const chunk = duckdb.create_data_chunk(EVENT_LOGICAL);
    duckdb.data_chunk_set_size(chunk, n);
    for (let k = 0; k < EVENT_TYPES.length; k++) {
      const vec = duckdb.data_chunk_get_vector(chunk, k);
      const col = this.cols[k]!;
      const type = EVENT_TYPES[k];
      let valid: Uint8Array | null = null;
      const nul = (i: number) => {
        valid ??= new Uint8Array(Math.ceil(n / 64) * 8).fill(0xff);
        valid[i >> 3]! &= ~(1 << (i & 7));
      };
      if (type === VARCHAR) {
        const first = col[0] as string | null;
        let same = first !== null;
        for (let i = 1; same && i < n; i++) same = col[i] === first;
        if (same) duckdb.vector_reference_value(vec, duckdb.create_varchar(first!));
        else
          for (let i = 0; i < n; i++) {
            const v = col[i] as string | null;
            if (v === null) nul(i);
            else duckdb.vector_assign_string_element(vec, i, v);
          }
      } else {
        // INTEGER: 4 bytes; BIGINT: two 32-bit halves, little-endian (exact for any integer a double holds); DOUBLE: 8 bytes.
        const wide = type !== INTEGER;
        const data = new ArrayBuffer(n * (wide ? 8 : 4));
        const i32 = new Int32Array(data);
        const f64 = type === DOUBLE ? new Float64Array(data) : null;
        for (let i = 0; i < n; i++) {
          const v = col[i] as number | null;
          if (v === null) nul(i);
          else if (f64) f64[i] = v;
          else if (!wide) {
            if ((v | 0) !== v) throw new RangeError(`events column ${k}: ${v} is not a 32-bit integer`);
            i32[i] = v;
          } else {
            if (!Number.isInteger(v) || Math.abs(v) >= 2 ** 63) throw new RangeError(`events column ${k}: ${v} is not a 64-bit integer`);
            const hi = Math.floor(v / 2 ** 32);
            i32[2 * i] = v - hi * 2 ** 32;
            i32[2 * i + 1] = hi;
          }
        }
        duckdb.copy_data_to_vector(vec, 0, data, 0, data.byteLength);
      }
      if (valid) {
        const bits: Uint8Array = valid;
        duckdb.vector_ensure_validity_writable(vec);
        duckdb.copy_data_to_vector_validity(vec, 0, bits.buffer as ArrayBuffer, 0, bits.byteLength);
      }
    }
    this.app.appendDataChunk(new DuckDBDataChunk(chunk));
    this.n = 0;
  }
}

/** Object.keys(o).length > 0 for a plain object, without the array (once per event written). */
function hasKeys(o: object): boolean {
  for (const _ in o) return true;
  return false;
}

export function assertIncident(row: IncidentRow | null, id: string): IncidentRow {
  if (!row) throw new TriageError('TRIAGE_ERR_NOT_FOUND', `no incident ${id}; list them with GET /api/incidents`);
  return row;
}
