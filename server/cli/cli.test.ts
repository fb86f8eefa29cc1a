// The command line as a subprocess, the way scripts use it: exit codes, stdout vs stderr.
import { execFile } from 'node:child_process';
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
    for (const name of ['analyze', 'serve', 'formats']) {
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

  it('formats lists the formats and explains a file', async () => {
    const list = await cli('formats');
    expect(list.stdout).toMatch(/nginx-combined/);
    const ex = await cli('formats', '--explain', 'samples/restart-stale-session/nginx-access.log');
    expect(ex.code).toBe(0);
    expect(ex.stdout).toMatch(/format nginx-combined/);
    expect(ex.stdout).toMatch(/✘ /);
  });
});
