#!/usr/bin/env node
// `npm run build` (and `npm ci`, through `prepare`) runs this, then `vite build` for the UI.
// It bundles the server, the CLI and the ingest's worker threads with esbuild into dist/, so
// `mcp-triage` and `npm start` run plain JavaScript instead of compiling TypeScript through tsx
// at every start (server/launch.mjs decides which one runs).
//
//   dist/cli.mjs            server/cli/main.ts (server/cli/bin.mjs imports it)
//   dist/server.mjs         server/main.ts (npm start, through server/start.mjs)
//   dist/ingest-worker.mjs  server/ingest/ingest-worker.ts  } the `new Worker(...)` entries; see
//   dist/analyze-worker.mjs server/ingest/analyze-worker.ts } "Workers" below
//   dist/chunk-*.mjs        code shared by those, and each command's lazily imported part
//   dist/build-info.json    when it was built and from which sources (the staleness check)
//
// Only our own code is bundled: every package stays an import resolved from node_modules at run
// time (packages: 'external'). That keeps DuckDB's native binding, fastify's and @fastify/static's
// file lookups, and anything else that finds files beside itself working as they do today.
//
// Everything is written flat into dist/, one folder below the root like server/ and parsers/:
// - Data folders (parsers/formats, parsers/signals, samples, ui/dist) are found from the
//   repository root (parsers/engine/repo.ts), not from a module's own URL.
// - Workers: the sources start them as new Worker(new URL('./ingest-worker.mjs', import.meta.url)).
//   In the bundle, import.meta.url is the chunk that holds that code, in dist/, and the built worker
//   is dist/ingest-worker.mjs, so the same URL is right. Every such relative URL in the output is
//   checked below: the build fails if one names a file that is not in dist/.
//
// Usage: node server/build/build.mjs [--if-stale]   (--if-stale: only when server/launch.mjs would not
// use dist/ as it is; the test setup uses it so tests spawn a CLI built from the current sources)
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { distProblem } from '../launch.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OUT = 'dist';
const ENTRIES = {
  cli: 'server/cli/main.ts',
  server: 'server/main.ts',
  'ingest-worker': 'server/ingest/ingest-worker.ts',
  'analyze-worker': 'server/ingest/analyze-worker.ts',
};
/**
 * Node reads a CommonJS package that ESM imports twice: cjs-module-lexer first scans its source
 * (and every file it re-exports) for export names, then it runs. @duckdb/node-api re-exports some
 * forty files: the scan was ~0.1 s of a 0.65 s `analyze` of a sample. The bundle require()s the
 * DuckDB packages instead (same module object, as `import` would give; a `require` made with
 * createRequire heads each output file), which skips the scan.
 */
const REQUIRE_CJS = /^@duckdb\/node-(api|bindings)$/;
const requireCjs = {
  name: 'require-cjs',
  setup(build) {
    build.onResolve({ filter: REQUIRE_CJS }, (a) => (a.namespace === 'require-cjs' ? { path: a.path, external: true } : { path: a.path, namespace: 'require-cjs' }));
    build.onLoad({ filter: /.*/, namespace: 'require-cjs' }, (a) => ({ contents: `module.exports = require(${JSON.stringify(a.path)});`, loader: 'js' }));
  },
};

/** Not esbuild inputs, but a change to them changes the output. */
const ALSO_INPUTS = ['server/build/build.mjs', 'tsconfig.json'];

process.chdir(ROOT);
if (process.argv.includes('--if-stale')) {
  const problem = distProblem();
  if (!problem) process.exit(0);
  process.stderr.write(`build: ${problem}; rebuilding dist/\n`);
}

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  process.stderr.write('build: esbuild is not installed (it is a devDependency: run npm ci without --omit=dev)\n');
  process.exit(1);
}

const builtAt = Date.now();
// Built beside dist/ and swapped in at the end, so a CLI started meanwhile sees the old dist/ or
// the new one, never half of each.
const tmp = `${OUT}.tmp-${process.pid}`;
rmSync(tmp, { recursive: true, force: true });
const result = await esbuild.build({
  entryPoints: ENTRIES,
  outdir: tmp,
  bundle: true,
  splitting: true, // each command's dynamic import() becomes its own chunk, loaded only when run
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  packages: 'external',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunk-[hash]',
  sourcemap: 'linked', // node --enable-source-maps (or NODE_OPTIONS) maps stack traces to server/…
  // No keepNames (tsx sets it): nothing reads a function's name, and it costs a defineProperty per
  // closure made (server/triage/redact/engine.ts). Errors name themselves (TriageError sets name).
  metafile: true,
  logLevel: 'warning',
  legalComments: 'none',
  plugins: [requireCjs],
  banner: { js: "import { createRequire as __mcpTriageCreateRequire } from 'node:module';\nconst require = __mcpTriageCreateRequire(import.meta.url);" },
});

const files = readdirSync(tmp);
const problems = [];
for (const f of files.filter((n) => n.endsWith('.mjs'))) {
  const text = readFileSync(`${tmp}/${f}`, 'utf8');
  for (const m of text.matchAll(/new URL\(\s*["'`](\.{1,2}\/[^"'`]*)["'`]\s*,\s*import\.meta\.url\s*\)/g)) {
    if (!existsSync(resolve(tmp, m[1]))) problems.push(`${f}: new URL('${m[1]}', import.meta.url) names no file in ${OUT}/`);
  }
}
for (const [out, meta] of Object.entries(result.metafile.outputs)) {
  for (const imp of meta.imports)
    if (!imp.external && !imp.path.startsWith(`${tmp}/`) && !imp.path.startsWith('require-cjs:')) problems.push(`${out}: imports ${imp.path}, outside ${OUT}/`);
}
if (problems.length) {
  rmSync(tmp, { recursive: true, force: true });
  process.stderr.write(`build: the bundle would not run from ${OUT}/:\n  ${problems.join('\n  ')}\n`);
  process.exit(1);
}

const inputs = [...new Set([...Object.keys(result.metafile.inputs).filter((f) => !f.startsWith('require-cjs:')), ...ALSO_INPUTS])].sort();
writeFileSync(`${tmp}/build-info.json`, JSON.stringify({ builtAt, esbuild: esbuild.version, entries: ENTRIES, inputs }, null, 1) + '\n');

const old = `${OUT}.old-${process.pid}`;
if (existsSync(OUT)) renameSync(OUT, old);
renameSync(tmp, OUT);
rmSync(old, { recursive: true, force: true });
const bytes = Object.entries(result.metafile.outputs).reduce((n, [f, o]) => (f.endsWith('.mjs') ? n + o.bytes : n), 0);
process.stderr.write(
  `build: ${OUT}/ from ${inputs.length} sources: ${files.filter((n) => n.endsWith('.mjs')).length} files, ${Math.round(bytes / 1024)} KiB, ${Date.now() - builtAt} ms\n`,
);
