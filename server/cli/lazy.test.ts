// The built CLI loads DuckDB, fastify, Arrow and the MCP SDK only for commands that use them:
// --help, --version, <command> --help, formats and argument errors must start without them
// (that is what keeps `mcp-triage --help` near a bare `node -e 0`). Each case runs the real
// command, server/cli/bin.mjs on dist/, under a loader hook that writes down every module URL
// the main thread resolves (testing/record-imports.mjs).
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, tempWorkspace } from '../testing/helpers.ts';
import { COMMANDS } from './main.ts';

const run = promisify(execFile);
const ws = tempWorkspace();
afterAll(() => ws.cleanup());

const HEAVY = /\/node_modules\/(@duckdb\/[^/]+|fastify|@fastify\/[^/]+|apache-arrow|@modelcontextprotocol\/sdk)\//;
let n = 0;

async function traced(...args: string[]): Promise<{ code: number; stdout: string; stderr: string; loaded: string[]; heavy: string[] }> {
  const out = join(ws.dir, `imports-${n++}.txt`);
  const env: NodeJS.ProcessEnv = { ...ws.env, MCP_TRIAGE_RECORD_IMPORTS: out };
  delete env.MCP_TRIAGE_FROM_SOURCE;
  let r: { code: number; stdout: string; stderr: string };
  try {
    const x = await run(process.execPath, ['--import', join(REPO, 'server/cli/testing/record-imports.mjs'), join(REPO, 'server/cli/bin.mjs'), ...args], { cwd: REPO, env });
    r = { code: 0, stdout: x.stdout, stderr: x.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    r = { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
  const loaded = existsSync(out) ? readFileSync(out, 'utf8').split('\n').filter(Boolean) : [];
  rmSync(out, { force: true });
  const heavy = [...new Set(loaded.map((u) => HEAVY.exec(u)?.[1]).filter((x): x is string => !!x))];
  return { ...r, loaded, heavy };
}

describe('the built CLI loads heavy packages only when a command needs them', () => {
  const light: Array<[string, string[], number]> = [
    ['--help', ['--help'], 0],
    ['--version', ['--version'], 0],
    ['no command', [], 1],
    ['an unknown command', ['frobnicate'], 1],
    ...COMMANDS.map((c): [string, string[], number] => [`${c.name} --help`, [c.name, '--help'], 0]),
    ['formats', ['formats'], 0],
    ['analyze with an unknown option', ['analyze', '--bogus', 'samples/wrong-path'], 1],
    ['analyze without a path', ['analyze'], 1],
    ['analyze of a missing path', ['analyze', 'no/such/dir'], 1],
    ['report with a bad --format', ['report', 'samples/wrong-path', '--format', 'pdf'], 1],
    ['timeline with a bad --level', ['timeline', 'samples/wrong-path', '--level', 'loud'], 1],
    ['serve with a bad port', ['serve', '--port', '70000'], 1],
    ['analyze with credentials in --store', ['analyze', 'samples/wrong-path', '--store', 'clickhouse://u:p@127.0.0.1:1/db'], 1],
    ['report --incident without a store', ['report', '--incident', 'inc_abcdef12'], 1],
    ['probe with an unknown option', ['probe', 'http://127.0.0.1:1/mcp', '--bogus'], 1],
    ['purge with an unknown option', ['purge', '--bogus'], 1],
  ];
  it.each(light)('%s: none of DuckDB, fastify, Arrow, MCP SDK', async (_what, args, code) => {
    const r = await traced(...args);
    expect(r.code, r.stderr).toBe(code);
    // It ran the bundle (not the tsx fallback, which would also load the sources' imports).
    expect(
      r.loaded.some((u) => u.endsWith('/dist/cli.mjs')),
      r.loaded.join('\n'),
    ).toBe(true);
    expect(r.loaded.some((u) => u.includes('/node_modules/tsx/'))).toBe(false);
    expect(r.heavy).toEqual([]);
  });

  it('the record sees them when a command does load them (analyze: DuckDB; timeline: DuckDB and Arrow)', async () => {
    const a = await traced('analyze', 'samples/wrong-path', '--key-file', ws.keyFile);
    expect(a.code, a.stderr).toBe(0);
    expect(a.heavy).toContain('@duckdb/node-api'); // require()d by the bundle
    expect(a.heavy).not.toContain('fastify');
    const t = await traced('timeline', 'samples/wrong-path', '--key-file', ws.keyFile);
    expect(t.code, t.stderr).toBe(0);
    expect(t.heavy).toEqual(expect.arrayContaining(['@duckdb/node-api', 'apache-arrow'])); // import()ed
  });
});

describe('the command table', () => {
  it('names and summaries agree with the command modules they load', async () => {
    for (const c of COMMANDS) {
      const cmd = await c.load();
      expect({ name: cmd.name, summary: cmd.summary }).toEqual({ name: c.name, summary: c.summary });
      expect(cmd.help).toMatch(new RegExp(`^Usage: mcp-triage ${c.name}`));
    }
  });
});
