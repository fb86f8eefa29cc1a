// Test helpers: a throwaway workspace (0700 temp dir, fixed key so pseudonyms are stable in golden files).
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
/**
 * The team's shared folder (the real-dev corpus and the domain notes), read in place: `$MCP_TRIAGE_SHARED`,
 * else `../shared` beside this checkout, else beside the checkout this one was made from (a git
 * worktree's main checkout, or the local clone `origin` points at) — so a scratch clone still reads
 * the corpus instead of skipping its tests.
 */
export const SHARED = findShared();

function findShared(): string {
  const beside = join(REPO, '..', 'shared');
  const candidates = [process.env.MCP_TRIAGE_SHARED, beside];
  try {
    const common = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    candidates.push(join(dirname(common), '..', 'shared'));
    const origin = execFileSync('git', ['config', '--get', 'remote.origin.url'], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (origin.startsWith('/')) candidates.push(join(origin.replace(/\/\.git\/?$/, ''), '..', 'shared'));
  } catch {
    /* not a git checkout: ../shared only */
  }
  return candidates.find((c): c is string => !!c && existsSync(join(c, 'corpus', 'real-dev', 'MANIFEST.tsv'))) ?? beside;
}

/** The key every golden file was made with: deterministic, and useless outside tests. */
export const TEST_KEY = createHash('sha256').update('mcp-triage test key — not a secret').digest();

export function tempWorkspace(): { dir: string; keyFile: string; env: NodeJS.ProcessEnv; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-test-'));
  const keyFile = join(dir, 'test.key');
  writeFileSync(keyFile, TEST_KEY, { mode: 0o600 });
  return { dir, keyFile, env: { ...process.env, MCP_TRIAGE_HOME: join(dir, 'home') }, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A multipart/form-data body (one file part each, field "files") with the CSRF header, for inject(). */
export function multipart(files: { name: string; data: string | Buffer }[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----mcptriage' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const f of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${f.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
    parts.push(Buffer.isBuffer(f.data) ? f.data : Buffer.from(f.data));
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-requested-with': 'mcp-triage' } };
}

/** The .log files of a committed sample, as upload parts. */
export function sampleFiles(name: string): { name: string; data: Buffer }[] {
  const dir = join(REPO, 'samples', name);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.log'))
    .map((f) => ({ name: f, data: readFileSync(join(dir, f)) }));
}
