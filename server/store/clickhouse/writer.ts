// Writing one ingest into the shared store. The ingest itself ran in a private DuckDB (the
// "scratch": same pipeline, same redaction, same analysis as the embedded store); this copies
// the rows it produced, in batches of JSONEachRow:
//
//   files → events and their signals (seq ranges of at most BATCH_ROWS rows / BATCH_BYTES) →
//   redactions, skipped files → the analysis (decisions, failures, spans) → counted → the
//   incident's row that lists this ingest as complete.
//
// Until that last row lands nothing of the ingest is visible (schema.ts, "Visibility"). A batch
// whose insert broke without an answer is counted before it is sent again, so a retry cannot
// duplicate it; an ingest that fails leaves rows no reader sees, and the incident as it was.
import { randomBytes } from 'node:crypto';
import type { Analysis, SkippedFile } from '../../contract/analysis.ts';
import { TriageError } from '../../errors.ts';
import type { Store } from '../store.ts';
import type { ClickHouseClient } from './client.ts';
import { nextVersion, type TableName } from './schema.ts';
import { int, NO_TS, str } from './sql.ts';

/** Rows and bytes per insert: each insert is one block, so it lands whole or not at all. */
export const BATCH_ROWS = 50_000;
export const BATCH_BYTES = 8 << 20;

/** What the store knows of an incident: its latest `incidents` row. */
export interface IncidentState {
  incident: string;
  version: number;
  ts: number;
  state: 'ingesting' | 'ready' | 'incomplete' | 'deleted';
  name: string;
  createdAt: number;
  /** The ingests that completed: only their rows are read. */
  ingests: string[];
  /** The ingest whose analysis is current (decisions, failures, spans). */
  analysisIngest: string;
  decision: string;
  privacyMode: string;
  toolPolicy: unknown | null;
  files: number;
  events: number;
}

export const newIngestId = (): string => randomBytes(8).toString('hex');

/** One JSON line per row (JSONEachRow). */
const ndjson = (rows: readonly Record<string, unknown>[]): string => rows.map((r) => JSON.stringify(r)).join('\n');

export function stateRow(s: IncidentState): Record<string, unknown> {
  return {
    incident: s.incident,
    version: s.version,
    ts: s.ts,
    state: s.state,
    name: s.name,
    created_at: s.createdAt,
    ingests: s.ingests,
    analysis_ingest: s.analysisIngest,
    decision: s.decision,
    privacy_mode: s.privacyMode,
    tool_policy: s.toolPolicy === null ? '' : JSON.stringify(s.toolPolicy),
    files: s.files,
    events: s.events,
  };
}

export class IngestWriter {
  private readonly settings: Record<string, string | number>;
  /** Rows written per table, to be counted before the ingest is declared complete. */
  private readonly expected = new Map<TableName, number>();
  /**
   * Tests: faults injected around each insert of an ingest's rows ('before': the connection broke
   * before the rows were sent; 'after': they landed and the answer was lost) and before the commit.
   */
  static faults: { insert?: (table: TableName, attempt: number, when: 'before' | 'after') => void; commit?: () => void } = {};

  constructor(
    private readonly ch: ClickHouseClient,
    readonly incident: string,
    readonly ingest: string,
  ) {
    // On a cluster, an insert returns once its shard has the rows (not when they are queued), so
    // counting them right after is meaningful.
    this.settings = ch.target.cluster ? { insert_distributed_sync: 1 } : {};
  }

  /** The incident's state row (any state). */
  async state(s: IncidentState): Promise<void> {
    await this.ch.insert('incidents', JSON.stringify(stateRow(s)), { settings: this.settings });
  }

  /**
   * Insert rows that belong to this ingest, checked: if the connection broke without an answer,
   * count what landed (`landed`) and send the batch again only when none of it did.
   */
  private async insert(table: TableName, body: string, rows: number, landed: () => Promise<number>): Promise<void> {
    if (rows === 0) return;
    this.expected.set(table, (this.expected.get(table) ?? 0) + rows);
    for (let attempt = 1; ; attempt++) {
      try {
        IngestWriter.faults.insert?.(table, attempt, 'before');
        await this.ch.insert(table, body, { settings: this.settings });
        IngestWriter.faults.insert?.(table, attempt, 'after');
        return;
      } catch (e) {
        if (!(e instanceof TriageError) || e.details?.kind !== 'unreachable' || attempt >= 3) throw e;
        const n = await landed();
        if (n === rows) return; // it landed; the answer was lost
        if (n !== 0)
          throw new TriageError(
            'TRIAGE_ERR_STORE',
            `${this.ch.target.display}: a batch of ${table} landed in part (${n} of ${rows} rows); the ingest is left incomplete and invisible, run it again`,
          );
      }
    }
  }

  private countWhere(table: TableName, extra = ''): () => Promise<number> {
    return async () => {
      const [r] = await this.ch.rows<{ n: string }>(`SELECT count() AS n FROM ${table} WHERE incident = ${str(this.incident)} AND ingest = ${str(this.ingest)}${extra}`);
      return Number(r?.n ?? 0);
    };
  }

  /** Small tables: all rows of this ingest in one insert. */
  async rows(table: Exclude<TableName, 'events' | 'signals' | 'incidents'>, rows: readonly Record<string, unknown>[]): Promise<void> {
    const tagged = rows.map((r) => ({ incident: this.incident, ingest: this.ingest, ...r }));
    await this.insert(table, ndjson(tagged), tagged.length, this.countWhere(table));
  }

  /**
   * The scratch incident's events from seq `firstSeq` on, with their signals, in seq ranges. The
   * JSON of each row is built by DuckDB (string_agg of json_object), not value by value in JS.
   */
  async events(scratch: Store, scratchId: string, firstSeq: number): Promise<number> {
    const id = { id: scratchId, inc: this.incident, ing: this.ingest };
    const [span] = await scratch.query<{ hi: bigint | null }>('SELECT max(seq) AS hi FROM events WHERE incident_id = $id', { id: scratchId });
    const hi = span?.hi === null || span?.hi === undefined ? -1 : Number(span.hi);
    let written = 0;
    for (let lo = firstSeq; lo <= hi; lo += BATCH_ROWS) {
      const top = Math.min(hi, lo + BATCH_ROWS - 1);
      // Byte-bounded batches inside the row range: b = running size ÷ BATCH_BYTES.
      const batches = await scratch.query<{ lo: bigint; hi: bigint; n: bigint; body: string; signals: string | null; sn: bigint }>(
        `WITH rows AS (
           SELECT seq, ts, file, line, source, signals,
                  json_object('incident', $inc, 'ts', coalesce(ts, ${int(NO_TS)}), 'seq', seq, 'ingest', $ing,
                    'file', file, 'line', line, 'end_line', end_line, 'source', source, 'format', format, 'kind', kind,
                    'level', level, 'message', message, 'text', text, 'http_method', http_method, 'http_path', http_path,
                    'http_status', http_status, 'request_id', request_id, 'rpc_id', rpc_id, 'rpc_method', rpc_method,
                    'tool', tool, 'session', session, 'protocol_version', protocol_version, 'duration_ms', duration_ms::VARCHAR,
                    'attrs', attrs::VARCHAR, 'signals', signals)::VARCHAR AS j,
                  sum(strlen(text) + strlen(message) + 512) OVER (ORDER BY seq ROWS UNBOUNDED PRECEDING) // ${BATCH_BYTES} AS b
           FROM events WHERE incident_id = $id AND seq BETWEEN ${int(lo)} AND ${int(top)}),
         sig AS (
           SELECT b, string_agg(json_object('incident', $inc, 'ts', coalesce(ts, ${int(NO_TS)}), 'seq', seq, 'ingest', $ing,
                    'signal', s, 'file', file, 'line', line, 'source', source)::VARCHAR, chr(10) ORDER BY seq, s) AS signals, count(*) AS sn
           FROM (SELECT b, seq, ts, file, line, source, unnest(string_split(signals, ' ')) AS s FROM rows WHERE signals IS NOT NULL) GROUP BY b)
         SELECT min(seq) AS lo, max(seq) AS hi, count(*) AS n, string_agg(j, chr(10) ORDER BY seq) AS body, any_value(sig.signals) AS signals, coalesce(any_value(sig.sn), 0) AS sn
         FROM rows LEFT JOIN sig USING (b) GROUP BY b ORDER BY b`,
        id,
      );
      for (const b of batches) {
        const range = ` AND seq BETWEEN ${int(Number(b.lo))} AND ${int(Number(b.hi))}`;
        await this.insert('events', b.body, Number(b.n), this.countWhere('events', range));
        if (b.signals) await this.insert('signals', b.signals, Number(b.sn), this.countWhere('signals', range));
        written += Number(b.n);
      }
    }
    return written;
  }

  /** The analysis as rows: one decision (the whole document), its failures and spans. */
  async analysis(a: Analysis, createdAt: number): Promise<void> {
    const primary = a.failures.filter((f) => (f.role ?? 'primary') === 'primary').length;
    await Promise.all([
      this.rows('decisions', [{ ts: createdAt, decision: a.decision, failures: a.failures.length, primary_failures: primary, analysis: JSON.stringify(a) }]),
      this.rows(
        'failures',
        a.failures.map((f, idx) => ({
          ts: f.ts ?? NO_TS,
          idx,
          rpc_id: f.rpcId === null ? null : JSON.stringify(f.rpcId),
          method: f.method,
          tool: f.tool,
          session: f.session,
          http_status: f.httpStatus,
          stage: f.stage,
          root_type: f.rootException?.type ?? null,
          root_message: f.rootException?.message ?? null,
          exception_chain: f.exceptionChain,
          decision: f.decision,
          rule: f.rule,
          rationale: f.rationale,
          role: f.role ?? 'primary',
          episode: f.episode ?? 0,
          signals: f.signals ?? [],
          evidence: JSON.stringify(f.evidence),
          // For the cross-incident queries (failures.ts): when the incident was stored, and the failure as analyze --json has it.
          created_at: createdAt,
          doc: JSON.stringify(f),
        })),
      ),
      this.rows(
        'spans',
        a.spans.map((s, idx) => ({
          idx,
          rpc_id: s.rpcId === null ? null : JSON.stringify(s.rpcId),
          method: s.method,
          session: s.session,
          sources: s.sources,
          joined_by: s.joinedBy,
        })),
      ),
    ]);
  }

  async skipped(list: readonly SkippedFile[], from: number): Promise<void> {
    await this.rows(
      'skipped_files',
      list.map((k, i) => ({ idx: from + i, file: k.file, reason: k.reason, detail: k.detail })),
    );
  }

  /** Count every table written against what was sent: the ingest is complete only if all match. */
  async verify(): Promise<void> {
    const tables = [...this.expected.keys()];
    if (!tables.length) return;
    const sql = tables.map((t) => `SELECT ${str(t)} AS t, count() AS n FROM ${t} WHERE incident = ${str(this.incident)} AND ingest = ${str(this.ingest)}`).join('\nUNION ALL\n');
    const got = new Map((await this.ch.rows<{ t: string; n: string }>(sql)).map((r) => [r.t, Number(r.n)]));
    const off = tables.filter((t) => got.get(t) !== this.expected.get(t));
    if (off.length) {
      const detail = off.map((t) => `${t} ${got.get(t) ?? 0} of ${this.expected.get(t)}`).join(', ');
      throw new TriageError('TRIAGE_ERR_STORE', `${this.ch.target.display}: the ingest did not land whole (${detail}); it stays incomplete and invisible, run it again`);
    }
  }
}

export { nextVersion };
