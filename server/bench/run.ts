// `npm run bench [-- --size MiB]`: first the start-up of the built CLI as whole processes
// (`mcp-triage --help` and `analyze` of one sample incident, beside `node -e 0`, and the privacy
// mode that analyze ran in); then the same generated corpus through `wc -l`, lnav (when
// installed) and `mcp-triage analyze`, side by side, with MiB/s, lines/s and peak RSS; then
// the timeline queries (on the corpus, then on the corpus copied to --scale events, default 1 M)
// and 1 M rows from DuckDB to Arrow IPC. Timings are printed, never asserted.
// `--startup-only` stops after the start-up table; `--load` runs only the load bench (load.ts);
// `--cluster` only the shared-store bench (cluster.ts).
// npm run bench rebuilds dist/ first if stale.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCorpus } from './corpus.ts';
import { Store } from '../store/store.ts';
import { countEvents, EventFilters, eventsToArrow, queryEvents, queryEventsPage } from '../store/events-query.ts';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : dflt;
};
const sizeMiB = Number(arg('size', '128'));
const scale = Number(arg('scale', '1000000'));
const keep = process.argv.includes('--keep');
const runs = Number(arg('runs', '7'));
const BIN = fileURLToPath(new URL('../cli/bin.mjs', import.meta.url));
const REPO = fileURLToPath(new URL('../../', import.meta.url));
/** The small bundle: one recorded sample incident (five logs, ~40 KB). */
const SAMPLE = 'samples/restart-stale-session';
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

interface Row {
  tool: string;
  seconds: number | null;
  rssMiB: number | null;
  note: string;
}

function timed(tool: string, cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Row {
  const argv = TIME ? ['-f', '__TIME__ %e %M', cmd, ...args] : args;
  const t0 = performance.now();
  const r = spawnSync(TIME ?? cmd, argv, { env, maxBuffer: 1 << 30, encoding: 'utf8' });
  const wall = (performance.now() - t0) / 1000;
  if (r.error) return { tool, seconds: null, rssMiB: null, note: `not run: ${r.error.message}` };
  const m = /__TIME__ ([\d.]+) (\d+)/.exec(r.stderr ?? '');
  const ok = r.status === 0;
  return {
    tool,
    seconds: m ? Number(m[1]) : wall,
    rssMiB: m ? Number(m[2]) / 1024 : null,
    note: ok
      ? ''
      : `exit ${r.status}: ${
          (r.stderr ?? '')
            .split('\n')
            .find((l) => l && !l.startsWith('__TIME__'))
            ?.slice(0, 120) ?? ''
        }`,
  };
}

/** The timeline and Arrow benches over a database holding a bench incident (and its copies). */
async function queryBenches(db: string): Promise<void> {
  if (!existsSync(db) || statSync(db).size === 0) return;
  const store = await Store.open(db);
  try {
    const inc = (await store.listIncidents()).find((i) => !/_x\d+$/.test(i.id));
    if (!inc) return;
    await timelineBench(store, inc.id, 'the corpus incident');
    // The same events copied (seq renumbered, times shifted a copy's span) until there are
    // --scale of them: the timeline at millions of events and the 1 M-row Arrow page.
    const scaled = await scaleIncident(store, inc.id, scale);
    await timelineBench(store, scaled, `the corpus copied to ${scale.toLocaleString('en')} events`);
    await arrowBench(store, scaled, 1_000_000);
  } finally {
    await store.close();
  }
}

/** min / median / max of a list of seconds. */
function spread(xs: number[]): { min: number; median: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return { min: s[0]!, median: s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2, max: s[s.length - 1]! };
}

/**
 * Start-up as the user meets it: whole processes (spawn to exit, wall clock), the built CLI
 * (bin.mjs → dist/cli.mjs), each command run in turn with `node -e 0` (A B A B …) so a machine
 * that speeds up or slows down during the runs moves both; the ratio is taken pair by pair.
 */
function startupBench(): void {
  const home = mkdtempSync(join(tmpdir(), 'mcp-triage-bench-home-'));
  const env: NodeJS.ProcessEnv = { ...process.env, MCP_TRIAGE_HOME: home };
  delete env.MCP_TRIAGE_FROM_SOURCE;
  const once = (args: string[]): { s: number; stdout: string; stderr: string; status: number | null } => {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, { cwd: REPO, env, encoding: 'utf8', maxBuffer: 1 << 26 });
    return { s: (performance.now() - t0) / 1000, stdout: r.stdout, stderr: r.stderr, status: r.status };
  };
  try {
    const base: string[] = ['-e', '0'];
    const cases: Array<{ label: string; args: string[] }> = [
      { label: 'mcp-triage --help', args: [BIN, '--help'] },
      { label: `mcp-triage analyze ${SAMPLE} --json`, args: [BIN, 'analyze', SAMPLE, '--json'] },
    ];
    const rows: string[] = [];
    let baseTimes: number[] = [];
    let privacy = '';
    for (const c of cases) {
      const first = once(c.args); // warm-up (page cache, the workspace key), not counted
      if (first.status !== 0) throw new Error(`${c.label} exited ${first.status}: ${first.stderr.slice(0, 300)}`);
      if (/note: .*tsx/.test(first.stderr)) throw new Error(`${c.label} ran the sources through tsx, not dist/: ${first.stderr.trim()}`);
      if (c.args.includes('analyze')) privacy = privacyMode(first.stdout);
      once(base);
      const a: number[] = [];
      const b: number[] = [];
      for (let i = 0; i < runs; i++) {
        a.push(once(c.args).s);
        b.push(once(base).s);
      }
      baseTimes = baseTimes.concat(b);
      const sa = spread(a);
      const ratio = spread(a.map((x, i) => x / b[i]!));
      rows.push(
        `| ${c.label} | ${sa.min.toFixed(3)} | ${sa.median.toFixed(3)} | ${sa.max.toFixed(3)} | ${ratio.median.toFixed(1)}× (${ratio.min.toFixed(1)}–${ratio.max.toFixed(1)}) |`,
      );
    }
    const sb = spread(baseTimes);
    console.log(`\nstart-up, whole processes (wall seconds, ${runs} runs each after one warm-up, in turn with node -e 0; built CLI dist/cli.mjs):\n`);
    console.log('| command | min | median | max | × node -e 0, pair by pair: median (min–max) |');
    console.log('|---|---|---|---|---|');
    console.log(`| node -e 0 | ${sb.min.toFixed(3)} | ${sb.median.toFixed(3)} | ${sb.max.toFixed(3)} | 1 |`);
    for (const r of rows) console.log(r);
    console.log(`\nprivacy mode of the analyze runs: ${privacy}`);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * The privacy mode analyze reports in its --json document (`privacyMode`, cli-contract.md; `privacy`, a
 * string or an object with `mode`, was the name this bench first guessed). A document without either
 * is an older CLI, which redacted everything at ingest: strict.
 */
function privacyMode(json: string): string {
  const d = JSON.parse(json) as { privacy?: unknown; privacyMode?: unknown };
  if (typeof d.privacyMode === 'string') return d.privacyMode;
  const p = d.privacy;
  if (typeof p === 'string') return p;
  if (p && typeof p === 'object' && typeof (p as { mode?: unknown }).mode === 'string') return (p as { mode: string }).mode;
  return 'strict (all redaction at ingest: an older CLI that reports no mode)';
}

if (process.argv.includes('--cluster')) {
  // `--cluster`: the shared store on a 2-shard ClickHouse beside the embedded store (cluster.ts), nothing else.
  await import('./cluster.ts');
  process.exit(process.exitCode ?? 0);
}
if (process.argv.includes('--load')) {
  // `--load`: the server under concurrent clients instead (load.ts), nothing else.
  await import('./load.ts');
  process.exit(process.exitCode ?? 0);
}
startupBench();
const reuse = arg('db', '');
if (process.argv.includes('--startup-only')) {
  // only the start-up table
} else if (reuse) {
  // `--db FILE`: only the query benches, over a database an earlier `--keep` run left.
  await queryBenches(reuse);
} else {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-bench-'));
  try {
    process.stderr.write(`generating ${sizeMiB} MiB in ${dir}…\n`);
    const corpus = await generateCorpus(join(dir, 'logs'), sizeMiB);
    const mib = corpus.bytes / 1048576;
    const rows: Row[] = [timed('wc -l', 'wc', ['-l', ...corpus.files])];
    if (spawnSync('lnav', ['-V']).status === 0)
      rows.push(timed('lnav (load + SQL count)', 'lnav', ['-n', '-c', ';SELECT count(*) FROM all_logs', ...corpus.files], { ...process.env, HOME: dir }));
    else rows.push({ tool: 'lnav', seconds: null, rssMiB: null, note: 'not installed (apt-get install lnav)' });
    const db = join(dir, 'bench.duckdb');
    rows.push(timed('mcp-triage analyze --json', process.execPath, [BIN, 'analyze', corpus.dir, '--json', '--db', db], { ...process.env, MCP_TRIAGE_HOME: join(dir, 'home') }));
    // The same with every redaction rule at ingest (privacy mode strict: the behaviour before tiers).
    if (!process.argv.includes('--no-strict'))
      rows.push(
        timed('mcp-triage analyze --json --strict', process.execPath, [BIN, 'analyze', corpus.dir, '--json', '--strict', '--db', join(dir, 'bench-strict.duckdb')], {
          ...process.env,
          MCP_TRIAGE_HOME: join(dir, 'home'),
        }),
      );

    const wc = rows[0]!.seconds;
    const lnav = rows.find((r) => r.tool.startsWith('lnav'))?.seconds ?? null;
    const fmt = (n: number | null, d = 1) => (n === null ? '—' : n.toFixed(d));
    console.log(`\ncorpus: ${fmt(mib)} MiB, ${corpus.lines.toLocaleString('en')} lines, ${corpus.files.length} files\n`);
    console.log('| tool | seconds | MiB/s | lines/s | peak RSS MiB | × wc -l | × lnav | note |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const r of rows) {
      const s = r.seconds;
      console.log(
        `| ${r.tool} | ${fmt(s, 2)} | ${s ? fmt(mib / s) : '—'} | ${s ? Math.round(corpus.lines / s).toLocaleString('en') : '—'} | ${fmt(r.rssMiB, 0)} | ${s && wc ? fmt(s / wc) : '—'} | ${s && lnav ? fmt(s / lnav, 2) : '—'} | ${r.note} |`,
      );
    }
    await queryBenches(db);
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
    else process.stderr.write(`kept ${dir}\n`);
  }
}

async function clock<T>(fn: () => Promise<T>): Promise<{ ms: number; r: T }> {
  const t0 = performance.now();
  const r = await fn();
  return { ms: performance.now() - t0, r };
}

/** Filtered timeline pages as the UI asks for them (200 rows), each the whole query: count, keys, rows, Arrow. */
async function timelineBench(store: Store, id: string, what: string): Promise<void> {
  const [{ n }] = await store.query<{ n: bigint }>('SELECT count(*) AS n FROM events WHERE incident_id = $id', { id });
  const events = Number(n);
  console.log(`\ntimeline queries over ${events.toLocaleString('en')} events (${what}):\n\n| query | time | rows | Arrow |\n|---|---|---|---|`);
  const page = async (label: string, f: Partial<EventFilters>) => {
    const { ms, r } = await clock(async () => {
      const q = await queryEvents(store, id, EventFilters.parse({ limit: 200, ...f }));
      return { ...q, ipc: eventsToArrow(q.rows) };
    });
    console.log(`| ${label} | ${ms.toFixed(0)} ms | ${r.rows.length} of ${r.total.toLocaleString('en')} | ${(r.ipc.byteLength / 1024).toFixed(0)} KiB |`);
    return r;
  };
  await page('first page, no filter', {});
  await page('source=proxy status=502', { source: 'proxy', status: 502 });
  // Text searches as the UI asks: the page first (count deferred), then the count, then page 2.
  for (const q of ['session not found', 'upstream prematurely closed']) {
    const first = await clock(async () => {
      const r = await queryEventsPage(store, id, EventFilters.parse({ limit: 200, q }));
      return { ...r, ipc: eventsToArrow(r.rows) };
    });
    console.log(`| text search "${q}": first page (count deferred) | ${first.ms.toFixed(0)} ms | ${first.r.rows.length} | ${(first.r.ipc.byteLength / 1024).toFixed(0)} KiB |`);
    const count = await clock(() => countEvents(store, id, EventFilters.parse({ q })));
    console.log(`| … its count (waits for the background count) | ${count.ms.toFixed(0)} ms | ${count.r.toLocaleString('en')} | |`);
    await page(`… next page (count cached)`, { q, offset: 200 });
  }
  await page('text search "ZEBRA-QUOKKA" (in no event)', { q: 'ZEBRA-QUOKKA' });
  const deep = events > 1_000_200 ? 1_000_000 : Math.floor(events * 0.8);
  const d = await page(`deep page (offset ${deep.toLocaleString('en')})`, { offset: deep });
  if (d.next) await page('keyset page after it (after=ts,seq)', { after: d.next });
  const legacy = await clock(() => store.query(`SELECT * FROM events WHERE incident_id = $id ORDER BY ts NULLS LAST, seq LIMIT 200 OFFSET ${deep}`, { id }));
  console.log(`| (before: ORDER BY … LIMIT 200 OFFSET ${deep.toLocaleString('en')}, query alone) | ${legacy.ms.toFixed(0)} ms | ${legacy.r.length} | |`);
}

/** A copy of incident `id` with at least `target` events; returns its id. */
async function scaleIncident(store: Store, id: string, target: number): Promise<string> {
  const [{ n, span, seqs, files }] = await store.query<{ n: bigint; span: bigint | null; seqs: bigint; files: bigint }>(
    'SELECT count(*) AS n, max(ts) - min(ts) + 1 AS span, max(seq) + 1 AS seqs, (SELECT max(file_no) + 1 FROM files WHERE incident_id = $id) AS files FROM events WHERE incident_id = $id',
    { id },
  );
  const copies = Math.ceil(target / Math.max(1, Number(n)));
  const scaled = `${id}_x${copies}`;
  if ((await store.query('SELECT 1 FROM incidents WHERE id = $s', { s: scaled })).length) return scaled; // an earlier --keep run made it
  // Copies start on a text-index block boundary, so each copy's index rows stay one block each.
  const stride = Math.ceil(Number(seqs) / 4096) * 4096;
  const t0 = performance.now();
  await store.query(`INSERT INTO incidents (id, name, created_at, state) VALUES ($s, 'bench copy', 0, 'ready')`, { s: scaled });
  await store.query(
    // every column by name, so a column added to events later is copied too
    `INSERT INTO events BY NAME SELECT * EXCLUDE (k) REPLACE ($s AS incident_id, seq + k * ${stride} AS seq, ts + k * ${Number(span ?? 0)} AS ts)
     FROM events, range(${copies}) r(k) WHERE incident_id = $id ORDER BY k, seq`,
    { s: scaled, id },
  );
  await store.query(`INSERT INTO text_blocks SELECT $s, seq_lo + k * ${stride}, seq_hi + k * ${stride}, bits FROM text_blocks, range(${copies}) r(k) WHERE incident_id = $id`, {
    s: scaled,
    id,
  });
  await store.query(
    `INSERT INTO files SELECT $s, file_no + k * ${Number(files)}, path, sha256, bytes, source, format, lines, events, unparsed, truncated_lines, prefix FROM files, range(${copies}) r(k) WHERE incident_id = $id`,
    { s: scaled, id },
  );
  process.stderr.write(`copied the corpus ${copies}× in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  return scaled;
}

/** `rows` rows from DuckDB to Arrow IPC bytes: the query (count, keys, columns) and the encoding, end to end. */
async function arrowBench(store: Store, id: string, rows: number): Promise<void> {
  // Past the HTTP limit (100 000 a page) on purpose: this measures the path, not the route.
  const f: EventFilters = { ...EventFilters.parse({}), limit: rows };
  for (let i = 0; i < 2; i++) {
    const q = await clock(() => queryEvents(store, id, f));
    const e = await clock(async () => eventsToArrow(q.r.rows));
    console.log(
      `\n${q.r.rows.length.toLocaleString('en')} rows → Arrow IPC (run ${i + 1}): ${(q.ms + e.ms).toFixed(0)} ms end to end ` +
        `(query ${q.ms.toFixed(0)} ms + encode ${e.ms.toFixed(0)} ms), ${(e.r.byteLength / 1048576).toFixed(1)} MiB`,
    );
  }
}
