// `npm run bench [-- --size MiB]`: the same generated corpus through `wc -l`, lnav (when
// installed) and `mcp-triage analyze`, side by side, with MiB/s, lines/s and peak RSS; then a
// filtered timeline page and Arrow encoding of 1 M rows. Timings are printed, never asserted.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCorpus } from './corpus.ts';
import { Store } from '../store/store.ts';
import { eventsToArrow, queryEvents } from '../store/events-query.ts';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : dflt;
};
const sizeMiB = Number(arg('size', '128'));
const keep = process.argv.includes('--keep');
const BIN = fileURLToPath(new URL('../cli/bin.mjs', import.meta.url));
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
  return { tool, seconds: m ? Number(m[1]) : wall, rssMiB: m ? Number(m[2]) / 1024 : null, note: ok ? '' : `exit ${r.status}: ${(r.stderr ?? '').split('\n').find((l) => l && !l.startsWith('__TIME__'))?.slice(0, 120) ?? ''}` };
}

const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-bench-'));
try {
  process.stderr.write(`generating ${sizeMiB} MiB in ${dir}…\n`);
  const corpus = await generateCorpus(join(dir, 'logs'), sizeMiB);
  const mib = corpus.bytes / 1048576;
  const rows: Row[] = [timed('wc -l', 'wc', ['-l', ...corpus.files])];
  if (spawnSync('lnav', ['-V']).status === 0) rows.push(timed('lnav (load + SQL count)', 'lnav', ['-n', '-c', ';SELECT count(*) FROM all_logs', ...corpus.files], { ...process.env, HOME: dir }));
  else rows.push({ tool: 'lnav', seconds: null, rssMiB: null, note: 'not installed (apt-get install lnav)' });
  const db = join(dir, 'bench.duckdb');
  rows.push(timed('mcp-triage analyze --json', process.execPath, [BIN, 'analyze', corpus.dir, '--json', '--db', db], { ...process.env, MCP_TRIAGE_HOME: join(dir, 'home') }));

  const wc = rows[0]!.seconds;
  const lnav = rows.find((r) => r.tool.startsWith('lnav'))?.seconds ?? null;
  const fmt = (n: number | null, d = 1) => (n === null ? '—' : n.toFixed(d));
  console.log(`\ncorpus: ${fmt(mib)} MiB, ${corpus.lines.toLocaleString('en')} lines, ${corpus.files.length} files\n`);
  console.log('| tool | seconds | MiB/s | lines/s | peak RSS MiB | × wc -l | × lnav | note |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const s = r.seconds;
    console.log(`| ${r.tool} | ${fmt(s, 2)} | ${s ? fmt(mib / s) : '—'} | ${s ? Math.round(corpus.lines / s).toLocaleString('en') : '—'} | ${fmt(r.rssMiB, 0)} | ${s && wc ? fmt(s / wc) : '—'} | ${s && lnav ? fmt(s / lnav, 2) : '—'} | ${r.note} |`);
  }

  if (existsSync(db) && statSync(db).size > 0) {
    const store = await Store.open(db);
    const [inc] = await store.listIncidents();
    if (inc) {
      const [{ n }] = await store.query<{ n: bigint }>('SELECT count(*) AS n FROM events');
      const page = async (label: string, f: Parameters<typeof queryEvents>[2]) => {
        const t0 = performance.now();
        const r = await queryEvents(store, inc.id, f);
        const ms = performance.now() - t0;
        console.log(`| ${label} | ${ms.toFixed(0)} ms | ${r.rows.length} of ${r.total.toLocaleString('en')} |`);
      };
      console.log(`\ntimeline queries over ${Number(n).toLocaleString('en')} events:\n\n| query | time | rows |\n|---|---|---|`);
      await page('first page, no filter', { limit: 200, offset: 0 });
      await page('source=proxy status=502', { source: 'proxy', status: 502, limit: 200, offset: 0 });
      await page('text search "session not found"', { q: 'session not found', limit: 200, offset: 0 });
      await page('deep page (offset 1M)', { limit: 200, offset: 1_000_000 });
      const big = await queryEvents(store, inc.id, { limit: 1_000_000, offset: 0 });
      const t0 = performance.now();
      const ipc = eventsToArrow(big.rows);
      console.log(`\nArrow IPC of ${big.rows.length.toLocaleString('en')} rows: ${(performance.now() - t0).toFixed(0)} ms, ${(ipc.byteLength / 1048576).toFixed(1)} MiB`);
    }
    await store.close();
  }
} finally {
  if (!keep) rmSync(dir, { recursive: true, force: true });
  else process.stderr.write(`kept ${dir}\n`);
}
