// vitest globalSetup. Tests spawn the CLI as users do, through server/cli/bin.mjs, which runs
// the bundle in dist/. Rebuild it first when a source changed since it was built (cheap when
// nothing did), so a test run always exercises the code in the tree, not an older build.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup() {
  execFileSync(process.execPath, [fileURLToPath(new URL('./build.mjs', import.meta.url)), '--if-stale'], { stdio: 'inherit' });
}
