// How `mcp-triage` (server/cli/bin.mjs) and `npm start` (server/start.mjs) find their code.
//
// Normally: the esbuild bundle in dist/ (server/build/build.mjs, run by `npm ci` through `prepare` and
// by `npm run build`): plain JavaScript that starts in a fraction of the time tsx needs to compile
// the TypeScript on every run. When dist/ is missing, or a source it was built from has changed
// since (an edit, a pull, a checkout), running it would run old code. Then this runs the sources
// through tsx instead, with a one-line note on stderr, so a dev checkout always runs what it holds:
// a fallback rather than an error, because a stale bundle that silently disagrees with the sources
// is the worse failure. Only when tsx is not installed either does it stop, saying to build.
// MCP_TRIAGE_FROM_SOURCE=1 asks for the sources (comparing the two, debugging).
// Plain JavaScript, no dependencies: it runs before anything is compiled.
import { readFileSync, statSync } from 'node:fs';

const ROOT = new URL('../', import.meta.url);
const DIST = new URL('dist/', ROOT);

/** Why dist/ cannot be used — not built, or a source changed since the build — or null when it can. */
export function distProblem(root = ROOT) {
  let info;
  try {
    info = JSON.parse(readFileSync(new URL('dist/build-info.json', root), 'utf8'));
  } catch {
    return 'dist/ is not built';
  }
  // builtAt is taken before esbuild reads anything, so an edit during the build counts as newer.
  for (const file of info.inputs) {
    let mtime;
    try {
      mtime = statSync(new URL(file, root)).mtimeMs;
    } catch {
      return `${file} is gone since dist/ was built`;
    }
    if (mtime > info.builtAt) return `${file} changed since dist/ was built`;
  }
  return null;
}

/** Import dist/<name>.mjs, or (see above) the TypeScript module `source` (relative to the root) through tsx. */
export async function load(name, source) {
  const fromSource = process.env.MCP_TRIAGE_FROM_SOURCE === '1';
  const problem = fromSource ? null : distProblem();
  if (!fromSource && !problem) return import(new URL(`${name}.mjs`, DIST).href);
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    process.stderr.write(
      `mcp-triage: ${problem ?? 'MCP_TRIAGE_FROM_SOURCE=1'}, and tsx, which would run the TypeScript sources, is not installed: run npm run build (after npm ci)\n`,
    );
    process.exit(2);
  }
  if (problem) process.stderr.write(`mcp-triage: note: ${problem}; running the TypeScript sources through tsx (slower start); npm run build makes it fast again\n`);
  register();
  return import(new URL(source, ROOT).href);
}
