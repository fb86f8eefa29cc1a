// Test helpers: a throwaway workspace (0700 temp dir, fixed key so pseudonyms are stable in golden files).
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const SHARED = join(REPO, '..', 'shared');

/** The key every golden file was made with: deterministic, and useless outside tests. */
export const TEST_KEY = createHash('sha256').update('mcp-triage test key — not a secret').digest();

export function tempWorkspace(): { dir: string; keyFile: string; env: NodeJS.ProcessEnv; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-test-'));
  const keyFile = join(dir, 'test.key');
  writeFileSync(keyFile, TEST_KEY, { mode: 0o600 });
  return { dir, keyFile, env: { ...process.env, MCP_TRIAGE_HOME: join(dir, 'home') }, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
