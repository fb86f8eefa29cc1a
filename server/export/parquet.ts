// `mcp-triage export INCIDENT --parquet DIR` (issue #20 item 5): an incident's events, failures and
// spans as three Parquet files, from either store, for a notebook or a warehouse. Schema:
// server/export/README.md.
//
// It is an exit like the report and the HTML export (redaction.md "Tiers"): every string cell goes
// through the exit pass — primed first with what the whole incident names (hosts by key, accounts),
// request ids as keyed pseudonyms — and then the same verifier, fail closed: any hit refuses the
// export and nothing is left in DIR. DuckDB writes the files, from redacted NDJSON in a private
// temp folder, on an instance of its own (the store's DuckDB has file access off).
import { DuckDBInstance } from '@duckdb/node-api';
import { chmodSync, copyFileSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, type WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Event } from '../../parsers/contract/event.ts';
import type { Analysis } from '../contract/analysis.ts';
import { TriageError } from '../errors.ts';
import { exitAnalysis, primedExit } from '../http/exposure.ts';
import type { IncidentRow } from '../store/store.ts';
import type { ExitRedactor } from '../triage/redact/exit.ts';
import { verifyRedacted } from '../triage/redact/index.ts';
import { reportRefused } from '../triage/report/report.ts';

/** What an export reads of a store (the embedded Store and ClickHouseStore both have it; see exportSource). */
export interface ExportSource {
  incident(id: string): Promise<IncidentRow | null>;
  analysis(id: string): Promise<Analysis | null>;
  headEvents(id: string, perFile?: number): Promise<Event[]>;
  eventsAt(id: string, refs: readonly { file: string; line: number }[]): Promise<Event[]>;
  /** Every event of the incident in seq order. */
  allEvents(id: string): AsyncIterable<Event & { seq: number }>;
}

export const PARQUET_FILES = ['events.parquet', 'failures.parquet', 'spans.parquet'] as const;

/** Columns as DuckDB reads them from the NDJSON (read_json columns=…), in file order. */
const EVENT_COLUMNS: Record<string, string> = {
  incident: 'VARCHAR',
  seq: 'BIGINT',
  ts: 'BIGINT',
  file: 'VARCHAR',
  line: 'INTEGER',
  end_line: 'INTEGER',
  source: 'VARCHAR',
  format: 'VARCHAR',
  kind: 'VARCHAR',
  level: 'VARCHAR',
  message: 'VARCHAR',
  text: 'VARCHAR',
  http_method: 'VARCHAR',
  http_path: 'VARCHAR',
  http_status: 'INTEGER',
  request_id: 'VARCHAR',
  rpc_id: 'VARCHAR',
  rpc_method: 'VARCHAR',
  tool: 'VARCHAR',
  session: 'VARCHAR',
  protocol_version: 'VARCHAR',
  duration_ms: 'DOUBLE',
  signals: 'VARCHAR[]',
  attrs: 'VARCHAR',
};
const FAILURE_COLUMNS: Record<string, string> = {
  incident: 'VARCHAR',
  idx: 'INTEGER',
  rpc_id: 'VARCHAR',
  method: 'VARCHAR',
  tool: 'VARCHAR',
  session: 'VARCHAR',
  http_status: 'INTEGER',
  stage: 'VARCHAR',
  root_type: 'VARCHAR',
  root_message: 'VARCHAR',
  exception_chain: 'VARCHAR[]',
  decision: 'VARCHAR',
  rule: 'VARCHAR',
  rationale: 'VARCHAR',
  role: 'VARCHAR',
  episode: 'INTEGER',
  signals: 'VARCHAR[]',
  evidence: 'VARCHAR[]',
};
const SPAN_COLUMNS: Record<string, string> = {
  incident: 'VARCHAR',
  idx: 'INTEGER',
  rpc_id: 'VARCHAR',
  method: 'VARCHAR',
  session: 'VARCHAR',
  sources: 'VARCHAR[]',
  joined_by: 'VARCHAR[]',
};

/** Event text columns the exit pass goes over (log text); the rest are the tool's own values. */
const EVENT_TEXT = ['file', 'message', 'text', 'http_path', 'tool', 'rpc_method', 'attrs'] as const;
/** Rows verified at a time (the verifier reads their strings as one text). */
const VERIFY_BATCH = 2000;

export interface ParquetExportResult {
  dir: string;
  events: number;
  failures: number;
  spans: number;
  files: string[];
}

const rpc = (v: string | number | null | undefined): string | null => (v === null || v === undefined ? null : String(v));
const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** A keyed request id → its pseudonym, as the HTML export writes it. */
function requestPseudonym(exit: ExitRedactor, v: string | null): string | null {
  return v ? exit.text(`request_id=${v}`).slice('request_id='.length) : null;
}

class Verified {
  private rows: { strings: string[]; where: { file: string; line: number } | null }[] = [];
  add(strings: string[], where: { file: string; line: number } | null): void {
    this.rows.push({ strings, where });
    if (this.rows.length >= VERIFY_BATCH) this.flush();
  }
  /** Every string of the batch through the verifier; a hit refuses the whole export, naming the row. */
  flush(): void {
    const rows = this.rows;
    this.rows = [];
    if (!rows.length) return;
    const lines: { row: number }[] = [];
    const text = rows
      .map((r, i) => {
        const s = r.strings.join('\n');
        for (let k = 0, n = s.split('\n').length; k < n; k++) lines.push({ row: i });
        return s;
      })
      .join('\n');
    const scan = verifyRedacted(text, { rawValues: [], independentLines: true });
    if (!scan.ok) {
      const where = (line: number) => rows[lines[line - 1]?.row ?? 0]?.where ?? null;
      throw reportRefused(
        scan.hits.map((h) => ({ reportLine: h.line, rule: h.rule, evidence: where(h.line) })),
        'export',
      );
    }
  }
}

class Ndjson {
  private readonly out: WriteStream;
  constructor(readonly path: string) {
    this.out = createWriteStream(path, { mode: 0o600 });
  }
  async write(row: Record<string, unknown>): Promise<void> {
    if (!this.out.write(`${JSON.stringify(row)}\n`)) await new Promise<void>((r) => this.out.once('drain', () => r()));
  }
  end(): Promise<void> {
    return new Promise((ok, fail) => this.out.end((e?: Error | null) => (e ? fail(e) : ok())));
  }
}

/** Check DIR before anything is read: an empty or missing folder, and none of our files in it. */
export function checkExportDir(dir: string): string {
  const abs = resolve(dir);
  if (existsSync(abs)) {
    if (!statSync(abs).isDirectory()) throw new TriageError('TRIAGE_ERR_USAGE', `export: --parquet ${dir} is a file; give a folder (it is created if missing)`);
    const clash = readdirSync(abs).filter((n) => (PARQUET_FILES as readonly string[]).includes(n));
    if (clash.length) throw new TriageError('TRIAGE_ERR_USAGE', `export: ${join(dir, clash[0]!)} already exists; remove it or choose another folder (an export never overwrites)`);
  }
  return abs;
}

export async function exportParquet(src: ExportSource, id: string, dirArg: string, key: Uint8Array): Promise<ParquetExportResult> {
  const dir = checkExportDir(dirArg);
  const row = await src.incident(id);
  if (!row)
    throw new TriageError(
      'TRIAGE_ERR_NOT_FOUND',
      `export: no incident ${id} in this store; list them with GET /api/incidents or mcp-triage failures --json, or pass --db FILE / --store URL for another store`,
    );
  const analysis = await src.analysis(id);
  if (!analysis) throw new TriageError('TRIAGE_ERR_NOT_FOUND', `export: incident ${id} has no analysis yet (its ingest did not complete); upload its files again`);

  // Prime the exit pass with what the whole incident names, before anything is emitted.
  const evidence = await src.eventsAt(
    id,
    analysis.failures.flatMap((f) => f.evidence),
  );
  const exit = await primedExit(
    src,
    key,
    id,
    evidence.map((e) => e.text),
    { requestIds: evidence.map((e) => e.requestId).filter((v): v is string => !!v) },
  );
  for await (const e of src.allEvents(id)) exit.learn(e.text);

  const tmp = mkdtempSync(join(tmpdir(), 'mcp-triage-export-'));
  chmodSync(tmp, 0o700);
  try {
    // events
    const events = new Ndjson(join(tmp, 'events.ndjson'));
    const checkEvents = new Verified();
    let nEvents = 0;
    try {
      for await (const e of src.allEvents(id)) {
        const out: Record<string, unknown> = {
          incident: id,
          seq: e.seq,
          ts: e.ts,
          file: exit.text(e.file),
          line: e.line,
          end_line: e.endLine,
          source: e.source,
          format: e.format,
          kind: e.kind,
          level: e.level,
          message: exit.text(e.message),
          text: exit.text(e.text),
          http_method: e.httpMethod,
          http_path: e.httpPath === null ? null : exit.text(e.httpPath),
          http_status: e.httpStatus,
          request_id: requestPseudonym(exit, e.requestId),
          rpc_id: rpc(e.rpcId),
          rpc_method: e.rpcMethod === null ? null : exit.text(e.rpcMethod),
          tool: e.tool === null ? null : exit.text(e.tool),
          session: e.session,
          protocol_version: e.protocolVersion,
          duration_ms: e.durationMs,
          signals: e.signals,
          attrs: Object.keys(e.attrs).length ? exit.text(JSON.stringify(e.attrs)) : null,
        };
        checkEvents.add(
          EVENT_TEXT.map((c) => out[c]).filter((v): v is string => typeof v === 'string'),
          { file: e.file, line: e.line },
        );
        await events.write(out);
        nEvents++;
      }
      checkEvents.flush();
    } finally {
      await events.end();
    }

    // failures and spans, from the analysis through the same exit (the tool's own fields kept: exposure.ts ANALYSIS_KEEP)
    const a = exitAnalysis(analysis, exit);
    const failures = new Ndjson(join(tmp, 'failures.ndjson'));
    const checkFailures = new Verified();
    try {
      for (const [idx, f] of a.failures.entries()) {
        const out = {
          incident: id,
          idx,
          rpc_id: rpc(f.rpcId),
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
          role: f.role ?? null,
          episode: f.episode ?? null,
          signals: f.signals ?? [],
          evidence: f.evidence.map((r) => `${r.file}:${r.line}`),
        };
        checkFailures.add(
          [f.method, f.tool, f.rootException?.type, f.rootException?.message, ...f.exceptionChain, f.rationale, ...out.evidence].filter((v): v is string => typeof v === 'string'),
          f.evidence[0] ?? null,
        );
        await failures.write(out);
      }
      checkFailures.flush();
    } finally {
      await failures.end();
    }
    const spans = new Ndjson(join(tmp, 'spans.ndjson'));
    try {
      for (const [idx, s] of a.spans.entries())
        await spans.write({ incident: id, idx, rpc_id: rpc(s.rpcId), method: s.method, session: s.session, sources: s.sources, joined_by: s.joinedBy });
      const checkSpans = new Verified();
      for (const s of a.spans)
        checkSpans.add(
          [s.method].filter((v): v is string => typeof v === 'string'),
          null,
        );
      checkSpans.flush();
    } finally {
      await spans.end();
    }

    // DuckDB writes the Parquet files into the temp folder; they move into DIR only once all three are written.
    const db = await DuckDBInstance.create(':memory:', { threads: '2', autoinstall_known_extensions: 'false', autoload_known_extensions: 'true' });
    const c = await db.connect();
    try {
      const copy = async (name: string, cols: Record<string, string>, select: string) => {
        const spec = `{${Object.entries(cols)
          .map(([k, t]) => `${k}: '${t}'`)
          .join(', ')}}`;
        const from = `read_json(${sqlString(join(tmp, `${name}.ndjson`))}, format = 'newline_delimited', columns = ${spec})`;
        await c.run(`COPY (SELECT ${select} FROM ${from}) TO ${sqlString(join(tmp, `${name}.parquet`))} (FORMAT parquet, COMPRESSION zstd)`);
      };
      const all = (cols: Record<string, string>) => Object.keys(cols).join(', ');
      await copy('events', EVENT_COLUMNS, all(EVENT_COLUMNS).replace(/\bts\b/, 'epoch_ms(ts) AS ts'));
      await copy('failures', FAILURE_COLUMNS, all(FAILURE_COLUMNS));
      await copy('spans', SPAN_COLUMNS, all(SPAN_COLUMNS));
    } finally {
      c.closeSync();
      db.closeSync();
    }
    mkdirSync(dir, { recursive: true });
    checkExportDir(dir);
    for (const f of PARQUET_FILES) renameOrCopy(join(tmp, f), join(dir, f));
    return { dir, events: nEvents, failures: a.failures.length, spans: a.spans.length, files: PARQUET_FILES.map((f) => join(dir, f)) };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function renameOrCopy(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
    copyFileSync(from, to); // another file system: copy, then the temp folder goes
  }
}
