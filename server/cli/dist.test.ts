// The esbuild bundle (server/build/build.mjs → dist/) against the TypeScript sources: the same
// answers, workers that start from dist/, and the launcher's rule for when dist/ is used
// (server/launch.mjs). vitest's globalSetup (server/build/test-setup.mjs) has rebuilt dist/ if any
// source was newer.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, tempWorkspace } from '../testing/helpers.ts';
import { distProblem } from '../launch.mjs';

const run = promisify(execFile);
const ws = tempWorkspace();
const DIST = join(REPO, 'dist');
afterAll(() => ws.cleanup());

async function cli(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [join(REPO, 'server/cli/bin.mjs'), ...args], { cwd: REPO, env: { ...ws.env, ...env }, maxBuffer: 64 << 20 });
}

/** Post `messages` to a worker started from `file`; resolve with what it sent until `last` arrives. */
function talk(file: string, messages: unknown[], last: string): Promise<Array<{ type: string }>> {
  return new Promise((done, fail) => {
    const w = new Worker(pathToFileURL(file));
    const got: Array<{ type: string }> = [];
    const timer = setTimeout(() => void w.terminate().then(() => fail(new Error(`no ${last} from ${file} in 20 s; got ${got.map((m) => m.type)}`))), 20_000);
    w.on('error', (e) => (clearTimeout(timer), fail(e)));
    w.on('message', (m: { type: string }) => {
      got.push(m);
      if (m.type === last || m.type === 'error') {
        clearTimeout(timer);
        void w.terminate().then(() => done(got));
      }
    });
    for (const m of messages) w.postMessage(m);
  });
}

describe('dist/ (the built CLI)', () => {
  it('is up to date with the sources, so the tests below and every spawned CLI run it', () => {
    expect(distProblem()).toBeNull();
  });

  it('analyze --json of a sample gives the same document as the TypeScript sources through tsx', async () => {
    const args = ['analyze', 'samples/restart-stale-session', '--json', '--key-file', ws.keyFile];
    const built = await cli({ MCP_TRIAGE_FROM_SOURCE: '' }, ...args);
    const source = await cli({ MCP_TRIAGE_FROM_SOURCE: '1' }, ...args);
    expect(built.stderr).not.toMatch(/note:|tsx/);
    expect(JSON.parse(built.stdout).decision).toBe('reinitialize');
    expect(built.stdout).toBe(source.stdout);
  });

  it('names, in every worker URL, a worker file that is in dist/', () => {
    const found: string[] = [];
    for (const f of readdirSync(DIST).filter((n) => n.endsWith('.mjs'))) {
      for (const m of readFileSync(join(DIST, f), 'utf8').matchAll(/new Worker\(\s*new URL\(\s*["'`]\.\/([^"'`]+)["'`]\s*,\s*import\.meta\.url\s*\)/g)) found.push(m[1]!);
    }
    expect(found.sort()).toEqual(['ingest-worker.mjs']);
    for (const f of found) expect(readdirSync(DIST)).toContain(f);
  });

  it('its ingest worker starts from dist/, prepares a chunk and parses a whole file', async () => {
    const text = 'GET /mcp mcp-session-id=0123456789abcdef0123456789abcdef password=hunter2hunter2\n';
    const init = { type: 'init', key: new Uint8Array(32), tier: 'ingest', formats: [], bookIds: [] };
    const lines = await talk(
      join(DIST, 'ingest-worker.mjs'),
      [init, { type: 'lines', id: 1, bytes: new TextEncoder().encode(text), continued: false, prefix: null, layout: { numberLines: false, doubledBlank: false } }],
      'lines',
    );
    expect(lines.map((m) => m.type)).toEqual(['lines']);
    const out = (lines[0] as unknown as { lines: { text: string[] } }).lines.text.join('\n');
    expect(out).toContain('[REDACTED:secret-key]');
    expect(out).not.toContain('hunter2hunter2');
    const whole = await talk(
      join(DIST, 'ingest-worker.mjs'),
      [
        init,
        { type: 'whole', id: 2, name: 'a.log' },
        { type: 'data', id: 2, bytes: new TextEncoder().encode('2026-01-01T00:00:00Z INFO hello\n2026-01-01T00:00:01Z ERROR boom\n') },
        { type: 'end', id: 2 },
      ],
      'whole',
    );
    expect(whole.map((m) => m.type).filter((t) => t !== 'ack')).toEqual(['events', 'whole']);
  });
});

describe('server/launch.mjs: when dist/ is used', () => {
  const root = mkdtempSync(join(tmpdir(), 'mcp-triage-launch-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const url = pathToFileURL(root + '/');

  it('not built → tsx; built after its sources → dist; a source edited or removed since → tsx, naming it', () => {
    expect(distProblem(url)).toBe('dist/ is not built');
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src/a.ts'), 'export {};\n');
    writeFileSync(join(root, 'src/b.ts'), 'export {};\n');
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(root, 'src/a.ts'), past, past);
    utimesSync(join(root, 'src/b.ts'), past, past);
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'dist/build-info.json'), JSON.stringify({ builtAt: Date.now() - 1000, inputs: ['src/a.ts', 'src/b.ts'] }));
    expect(distProblem(url)).toBeNull();
    const now = new Date();
    utimesSync(join(root, 'src/b.ts'), now, now);
    expect(distProblem(url)).toBe('src/b.ts changed since dist/ was built');
    rmSync(join(root, 'src/b.ts'));
    expect(distProblem(url)).toBe('src/b.ts is gone since dist/ was built');
  });
});
