// `npx tsx server/bench/redact-only.ts [--size MiB] [--dir DIR] [--tier all,ingest] [--repeat N]`:
// just the line redactor over the bench corpus (or DIR): pass 1 (session ids) and pass 2 (one
// redactor per file, one ledger), no parsing, no DuckDB. Prints seconds and MiB/s per run, so
// the redactor's share of `analyze` can be read beside `npm run bench`. Timings are printed,
// never asserted.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCorpus } from './corpus.ts';
import { collectSessionIds, createLineRedactor, SecretLedger, SessionIdBook } from '../triage/redact/index.ts';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : dflt;
};
const tiers = arg('tier', 'all,ingest').split(',');
const repeat = Number(arg('repeat', '2'));
let dir = arg('dir', '');
let scratch: string | null = null;
if (!dir) {
  scratch = mkdtempSync(join(tmpdir(), 'mcp-triage-redact-bench-'));
  dir = join(scratch, 'logs');
  await generateCorpus(dir, Number(arg('size', '64')));
}
try {
  const files = readdirSync(dir)
    .map((n) => join(dir, n))
    .filter((p) => statSync(p).isFile())
    .sort();
  const texts = files.map((f) => readFileSync(f, 'utf8').split('\n'));
  const mib = files.reduce((n, f) => n + statSync(f).size, 0) / 1048576;
  const lines = texts.reduce((n, t) => n + t.length, 0);
  console.log(`corpus: ${mib.toFixed(1)} MiB, ${lines.toLocaleString('en')} lines, ${files.length} files`);
  const key = new Uint8Array(32).fill(7);
  for (let r = 0; r < repeat; r++) {
    for (const tier of tiers) {
      const t0 = performance.now();
      const ids = new SessionIdBook();
      for (const t of texts) for (const l of t) collectSessionIds(l, ids);
      const t1 = performance.now();
      const ledger = new SecretLedger();
      let changed = 0;
      for (const t of texts) {
        const red = createLineRedactor({ key, ids, ledger, tier } as Parameters<typeof createLineRedactor>[0]);
        for (const l of t) if (red.line(l).remarks.length) changed++;
      }
      const t2 = performance.now();
      const s = (t2 - t0) / 1000;
      console.log(
        `tier ${tier.padEnd(6)} run ${r + 1}: pass 1 ${((t1 - t0) / 1000).toFixed(2)} s, pass 2 ${((t2 - t1) / 1000).toFixed(2)} s, total ${s.toFixed(2)} s = ${(mib / s).toFixed(1)} MiB/s; ${changed.toLocaleString('en')} lines changed`,
      );
    }
  }
} finally {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}
