// The command line as a subprocess, the way scripts use it: exit codes, stdout vs stderr.
import { execFile } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { Analysis } from '../contract/analysis.ts';
import { REPO, tempWorkspace } from '../testing/helpers.ts';

const run = promisify(execFile);
const ws = tempWorkspace();
afterAll(() => ws.cleanup());

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [join(REPO, 'server/cli/bin.mjs'), ...args], { cwd: REPO, env: ws.env, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

describe('mcp-triage CLI', () => {
  it('analyze --json prints one contract-valid document on stdout, progress on stderr', async () => {
    const r = await cli('analyze', 'samples/restart-stale-session', '--json', '--key-file', ws.keyFile);
    expect(r.code, r.stderr).toBe(0);
    const a = Analysis.parse(JSON.parse(r.stdout));
    expect(a.decision).toBe('reinitialize');
    const f = a.failures.find((x) => x.decision === 'reinitialize')!;
    expect(f).toMatchObject({ method: 'tools/call', tool: 'create_order', httpStatus: 404, rule: 'session-expired-404' });
    const sources = new Set(f.evidence.map((e) => a.inputs.find((i) => i.file === e.file)!.source));
    expect(sources.size).toBeGreaterThanOrEqual(2);
    expect(r.stderr).toMatch(/parsing/);
  });

  it('analyze without --json prints the decision table', async () => {
    const r = await cli('analyze', 'samples/restart-stale-session', '--key-file', ws.keyFile);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Decision: reinitialize/);
    expect(r.stdout).toMatch(/rule session-expired-404/);
    expect(r.stdout).not.toMatch(/\x1b\[/);
  });

  it('analyze --db keeps the incident in a DuckDB file', async () => {
    const db = join(ws.dir, 'cli.duckdb');
    expect((await cli('analyze', 'samples/healthy-control', '--db', db, '--json')).code).toBe(0);
    const r = await cli('analyze', 'samples/healthy-control', '--db', db, '--json');
    expect(JSON.parse(r.stdout).decision).toBe('no_action');
  });

  it('every command has --help', async () => {
    const top = await cli('--help');
    expect(top.code).toBe(0);
    for (const name of ['analyze', 'serve', 'formats', 'report', 'timeline', 'purge', 'redact']) {
      expect(top.stdout).toContain(name);
      const h = await cli(name, '--help');
      expect(h.code).toBe(0);
      expect(h.stdout).toMatch(/Usage: mcp-triage/);
    }
  });

  it('unusable input exits 1 with one clear line on stderr', async () => {
    const empty = join(ws.dir, 'empty');
    mkdirSync(empty);
    for (const args of [['analyze', 'no/such/path'], ['analyze', empty], ['analyze'], ['analyze', 'samples/healthy-control', '--bogus'], ['frobnicate']]) {
      const r = await cli(...args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^mcp-triage: /);
    }
  });

  it('report writes redacted Markdown with no raw session id', async () => {
    const r = await cli('report', 'samples/restart-stale-session', '--key-file', ws.keyFile);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^## MCP connection failure: reinitialize/);
    expect(r.stdout).toMatch(/sess_[a-z2-7]{10}/);
    expect(r.stdout).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
    const json = await cli('report', 'samples/restart-stale-session', '--format', 'json', '--key-file', ws.keyFile);
    expect(JSON.parse(json.stdout).markdown).toBe(r.stdout);
    expect((await cli('report', 'samples/restart-stale-session', '--format', 'pdf')).code).toBe(1);
  });

  it('timeline prints one request across files, in time order', async () => {
    const r = await cli('timeline', 'samples/restart-stale-session', '--request', '3', '--key-file', ws.keyFile);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThan(2);
    expect(new Set(lines.map((l) => l.split(/\s+/)[2]))).toEqual(new Set(['client', 'server']));
    const times = lines.map((l) => l.slice(0, 23));
    expect([...times].sort()).toEqual(times);
    expect(r.stdout).not.toMatch(/\x1b\[/);
  });

  it('purge deletes the workspace only when confirmed', async () => {
    expect((await cli('analyze', 'samples/healthy-control', '--db', join(ws.env.MCP_TRIAGE_HOME!, 'x.duckdb'))).code).toBe(0);
    const no = await cli('purge');
    expect(no.code).toBe(1);
    const yes = await cli('purge', '--yes');
    expect(yes.code).toBe(0);
    expect(yes.stderr).toMatch(/deleted/);
  });

  it('serve on a port already in use exits 1 and says what to do', async () => {
    const blocker = createServer().listen(0, '127.0.0.1');
    await new Promise((ok) => blocker.once('listening', ok));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const r = await cli('serve', '--port', String(port), '--db', join(ws.dir, 'busy.duckdb'));
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/already in use.*--port/);
    } finally {
      blocker.close();
    }
  });

  it('formats lists the formats and explains a file', async () => {
    const list = await cli('formats');
    expect(list.stdout).toMatch(/nginx-combined/);
    const ex = await cli('formats', '--explain', 'samples/restart-stale-session/nginx-access.log');
    expect(ex.code).toBe(0);
    expect(ex.stdout).toMatch(/format nginx-combined/);
    expect(ex.stdout).toMatch(/✘ /);
    expect(ex.stdout).toMatch(/every line: \d+ events; own time 100\.0%, level 0\.0%, message 100\.0%/);
  });

  it('formats PATH prints per-line coverage per file and overall', async () => {
    const r = await cli('formats', 'samples/upstream-down');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^file +format +events +time +level +message$/m);
    expect(r.stdout).toMatch(/^client\.log +iso-level-logger +\d+ +100\.0% +100\.0% +100\.0%$/m);
    expect(r.stdout).toMatch(/^OVERALL +\d+ /m);
  });
});
