// Where the repository's data folders are (parsers/formats, parsers/signals, samples, ui/dist),
// for code run from the TypeScript sources (tsx, vitest) and from the esbuild bundle in dist/
// alike. A module's own import.meta.url cannot say it: in the bundle every module's code sits in
// dist/<chunk>.mjs, one folder below the root, whatever folder its source was in. So walk up from
// this file (or from the chunk holding it) to the first folder with a package.json: the root.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

function findRoot(from: URL): URL {
  for (let dir = new URL('./', from); ; ) {
    if (existsSync(new URL('package.json', dir))) return dir;
    const up = new URL('../', dir);
    if (up.href === dir.href) throw new Error(`mcp-triage: no package.json above ${fileURLToPath(from)}; the repository's data folders cannot be found`);
    dir = up;
  }
}

export const REPO_ROOT_URL = findRoot(new URL(import.meta.url));

/** An absolute path under the repository root; `rel` ending in "/" keeps the trailing slash. */
export function repoPath(rel: string): string {
  return fileURLToPath(new URL(rel, REPO_ROOT_URL));
}
