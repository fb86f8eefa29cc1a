// The use cases the CLI and the HTTP API share: open the workspace, ingest into an incident,
// (re)compute its analysis.
import type { CompiledFormat } from '../parsers/engine/apply.ts';
import { loadFormats } from '../parsers/engine/registry.ts';
import type { Event } from '../parsers/contract/event.ts';
import type { Analysis, SkippedFile } from './contract/analysis.ts';
import { ingestIntoStore, type IncidentName, type IngestResult, type Progress } from './ingest/pipeline.ts';
import type { InputEntry } from './ingest/inputs.ts';
import { DEFAULT_FOCUS, type FocusLimits } from './store/focus.ts';
import { Store } from './store/store.ts';
import { analyze } from './triage/analyze.ts';
import { isPolicyFile, parseToolPolicy, ToolPolicy } from './triage/classify/policy.ts';
import { rawValuesFor } from './triage/redact/index.ts';
import { buildReport, type Report } from './triage/report/report.ts';
import { analyzeOffThread } from './ingest/analyze-off-thread.ts';
import { TriageError } from './errors.ts';
import type { PrivacyMode } from './contract/privacy.ts';
import { loadOrCreateKey, resolveWorkspace } from './workspace.ts';

export interface Context {
  store: Store;
  key: Buffer;
  formats: readonly CompiledFormat[];
  /**
   * Every ingest strict, whatever it asks for (redaction.md "Tiers"): `serve --strict`, and always
   * a serve on a non-loopback host (and a shared store, when there is one).
   */
  strict?: boolean;
  /**
   * The HTTP API answers beyond this machine (serve on a non-loopback host): its answers are an
   * exit, so text of standard-mode incidents goes out through the exit tier (http/exposure.ts).
   */
  network?: boolean;
}

export interface ContextOptions {
  env?: NodeJS.ProcessEnv;
  /** A DuckDB file, or ':memory:'. Default: the workspace database. */
  db?: string;
  keyFile?: string;
}

export async function openContext(opts: ContextOptions = {}): Promise<Context> {
  const env = opts.env ?? process.env;
  const ws = resolveWorkspace({ env, db: opts.db === ':memory:' ? undefined : opts.db, keyFile: opts.keyFile });
  const key = loadOrCreateKey(ws.keyFile);
  const formats = loadFormats({ userDir: env.MCP_TRIAGE_FORMATS });
  const store = await Store.open(opts.db === ':memory:' ? ':memory:' : ws.dbPath);
  return { store, key, formats };
}

/** From this many triage events on, the server analyses on a worker thread (refreshAnalysis offThread). */
export const OFF_THREAD_MIN_EVENTS = 20_000;

/** Above this many triage events an incident is analysed around its first failures (store/focus.ts), so memory stays bounded. */
export const FULL_ANALYSIS_LIMIT = 250_000;

export async function refreshAnalysis(
  store: Store,
  id: string,
  opts: { fullLimit?: number; focus?: FocusLimits; offThread?: boolean /** Tests: the smallest incident analysed off thread. */; offThreadMin?: number } = {},
): Promise<Analysis> {
  const [files, triage] = await Promise.all([store.files(id), store.triageCount(id)]);
  const focused = triage > (opts.fullLimit ?? FULL_ANALYSIS_LIMIT);
  const limit = focused ? Number.MAX_SAFE_INTEGER : 500_000;
  const read = focused ? { focus: opts.focus ?? DEFAULT_FOCUS, triageEvents: triage } : {};
  const offThread = opts.offThread === true && triage >= (opts.offThreadMin ?? OFF_THREAD_MIN_EVENTS);
  // The events are read (the focus query, seconds of DuckDB for a large incident) while the small
  // queries below run beside it, each on its own connection.
  const reading = offThread ? store.triageEventsJson(id, limit, read) : store.triageEvents(id, limit, read);
  // (handled at once: a read that fails while the queries below still run is thrown by `await reading`, not left unhandled)
  reading.catch(() => undefined);
  const [whole, toolPolicy, fileEnds, skipped] = await Promise.all([
    focused
      ? Promise.all([store.sessionStats(id), store.protocolVersions(id), store.seenCounts(id)]).then(([sessions, protocolVersions, seen]) => ({
          sessions,
          protocolVersions,
          triageEvents: triage,
          seen,
        }))
      : undefined,
    store.toolPolicy(id).then((p) => (p ? ToolPolicy.parse(p) : null)),
    store.fileEnds(id),
    store.skippedFiles(id),
  ]).catch(async (e) => {
    await reading.catch(() => undefined); // (not leaving the read running behind a failed query)
    throw e;
  });
  const inputs = files.map((f) => ({
    file: f.path,
    source: f.source as Analysis['inputs'][number]['source'],
    format: f.format,
    lines: f.lines,
    events: f.events,
    unparsed: f.unparsed,
    truncatedLines: f.truncatedLines,
  }));
  // offThread (the server): a large incident's events are parsed and analysed on a worker thread,
  // so the server answers other requests meanwhile (ingest/analyze-off-thread.ts); a small one's
  // analysis takes less than starting a worker.
  const analysed = offThread
    ? await analyzeOffThread({ whole, toolPolicy, inputs, fileEnds, batches: (await reading) as string[][] })
    : analyze({ whole, toolPolicy, inputs, fileEnds, events: (await reading) as Event[] });
  // Files that are not logs are named, never diagnosed (ingest/screen.ts); absent when there are none.
  const withSkipped: Analysis = skipped.length ? { ...analysed, skipped } : analysed;
  const privacyMode = await store.privacyMode(id);
  const analysis: Analysis = privacyMode ? { ...withSkipped, privacyMode } : withSkipped;
  await store.setAnalysis(id, analysis);
  return analysis;
}

export async function ingestIncident(
  ctx: Context,
  entries: readonly InputEntry[],
  opts: {
    id?: string;
    name: IncidentName;
    onProgress?: (p: Progress) => void;
    toolPolicy?: ToolPolicy | null;
    mode?: PrivacyMode;
    /** Aborted before the commit: nothing is stored (IngestCancelled). */
    signal?: AbortSignal;
    /** An upload that named itself, recorded with the ingest (a retry finds it: Store.upload). */
    upload?: { uploadId: string; target: string };
    /** Analyse on a worker thread (the server: refreshAnalysis offThread). */
    analyzeOffThread?: boolean;
  },
): Promise<{ id: string; added: number; skipped: number; skippedFiles: SkippedFile[]; analysis: Analysis; secrets: Pick<IngestResult, 'book' | 'ledger'> }> {
  const id = opts.id ?? ctx.store.newIncidentId();
  // Strict when the context forces it; files added to an incident follow its mode unless asked otherwise.
  const mode: PrivacyMode = ctx.strict ? 'strict' : (opts.mode ?? (opts.id ? await ctx.store.privacyMode(opts.id) : null) ?? 'standard');
  const skipHashes = opts.id ? await ctx.store.fileHashes(id) : undefined;
  // A tool policy file among the inputs is configuration, not a log (classify/policy.ts).
  let policy = opts.toolPolicy ?? null;
  const logs: InputEntry[] = [];
  for (const e of entries) {
    if (!isPolicyFile(e.name)) {
      logs.push(e);
      continue;
    }
    const chunks: Buffer[] = [];
    for await (const c of e.open()) chunks.push(c);
    try {
      const p = parseToolPolicy(Buffer.concat(chunks).toString('utf8'), e.name);
      policy = { tools: { ...p.tools, ...(policy?.tools ?? {}) } };
    } catch (err) {
      throw new TriageError('TRIAGE_ERR_INPUT', (err as Error).message);
    }
  }
  const r = await ingestIntoStore(ctx.store, id, opts.name, logs, {
    key: ctx.key,
    formats: ctx.formats,
    onProgress: opts.onProgress,
    skipHashes,
    mode,
    signal: opts.signal,
    upload: opts.upload,
  });
  if (policy) await ctx.store.setToolPolicy(id, policy);
  opts.onProgress?.({ phase: 'analyze', file: '', fileIndex: 0, files: 0 });
  const analysis = await refreshAnalysis(ctx.store, id, { offThread: opts.analyzeOffThread });
  return { id, added: r.added, skipped: r.skipped, skippedFiles: r.skippedFiles, analysis, secrets: { book: r.book, ledger: r.ledger } };
}

export interface ReportOptions {
  /** Raw values from an ingest in this process (CLI): tighten the leak check and let the exit pass sweep late-found secrets. */
  secrets?: Pick<IngestResult, 'book' | 'ledger'>;
  /** The workspace key (request-id pseudonyms); without it they differ between runs. */
  key?: Uint8Array;
  /** Evidence lines (`file:line`) to leave out of the timeline (the answer to a refusal). */
  exclude?: readonly string[];
}

/** What a report reads of a stored incident: the embedded store, or the shared one (store/clickhouse). */
export type ReportSource = Pick<Store, 'incident' | 'analysis' | 'eventsAt' | 'headEvents' | 'redactionCounts'>;

/** The redacted public report of a stored incident. */
export async function incidentReport(store: ReportSource, id: string, opts: ReportOptions = {}): Promise<Report> {
  const row = await store.incident(id);
  const analysis = await store.analysis(id);
  if (!row || !analysis) throw new TriageError('TRIAGE_ERR_NOT_FOUND', `no analysed incident ${id}`);
  const refs = analysis.failures.flatMap((f) => f.evidence);
  const [evidence, head, redactions] = await Promise.all([store.eventsAt(id, refs), store.headEvents(id), store.redactionCounts(id)]);
  const { secrets } = opts;
  return buildReport({
    title: `MCP connection failure: ${analysis.decision}${row.name.startsWith('sample: ') ? ` (${row.name})` : ''}`,
    analysis,
    evidence,
    context: [...head, ...evidence],
    redactions,
    rawValues: secrets ? rawValuesFor(secrets.book, secrets.ledger) : undefined,
    ids: secrets?.book,
    ledger: secrets?.ledger,
    key: opts.key,
    exclude: opts.exclude,
  });
}
