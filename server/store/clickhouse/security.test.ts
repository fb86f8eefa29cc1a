// The shared store from the built CLI, as a team would use it (issue #20 item 7): credentials from
// MCP_TRIAGE_STORE or --store-credentials only and never printed, ClickHouse's refusals in the
// error shape (one line, exit 2), nothing raw at rest (a shared store is strict), and report and
// timeline of a stored incident by its id.
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, tempWorkspace } from '../../testing/helpers.ts';
import { storedId } from './testing/cli.ts';
import { TEST_USER, TestClickHouse } from './testing/server.ts';

const run = promisify(execFile);
const ws = tempWorkspace();
let server: TestClickHouse;
let url: string;
const withUser = () => url.replace('clickhouse://', `clickhouse://${encodeURIComponent(TEST_USER.user)}:${encodeURIComponent(TEST_USER.password)}@`);

/** A port nothing listens on (bound, then released). */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const a = s.address() as AddressInfo;
      s.close(() => resolve(a.port));
    });
  });
}

/** The built CLI (dist/, as `npx mcp-triage` runs it). */
async function mcpTriage(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const e: NodeJS.ProcessEnv = { ...ws.env, ...env };
  delete e.MCP_TRIAGE_FROM_SOURCE;
  if (!('MCP_TRIAGE_STORE' in env)) delete e.MCP_TRIAGE_STORE;
  try {
    const r = await run(process.execPath, [join(REPO, 'server/cli/bin.mjs'), ...args, '--key-file', ws.keyFile], { cwd: REPO, env: e });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (x) {
    const r = x as { code: number; stdout: string; stderr: string };
    return { code: r.code, stdout: r.stdout, stderr: r.stderr };
  }
}

beforeAll(async () => {
  server = await TestClickHouse.start(1);
  url = server.url('team');
});
afterAll(async () => {
  await server?.stop();
  ws.cleanup();
});

describe('the shared store from the built CLI', () => {
  const sample = join(REPO, 'samples', 'wrong-path');

  it('analyze, then report and timeline of the stored incident by its id; the same answers as without a store', async () => {
    const local = await mcpTriage(['analyze', sample, '--json', '--strict']);
    const stored = await mcpTriage(['analyze', sample, '--json', '--store', url]);
    expect(stored.code, stored.stderr).toBe(0);
    expect(stored.stdout).toBe(local.stdout);
    const id = storedId(stored.stderr);
    const printed = await mcpTriage(['analyze', '--store', url, '--incident', id, '--json']);
    expect(printed.stdout).toBe(local.stdout);
    const [report, localReport] = await Promise.all([mcpTriage(['report', '--store', url, '--incident', id]), mcpTriage(['report', sample, '--strict'])]);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toContain('fix\\_route\\_or\\_config');
    expect(report.stdout).toBe(localReport.stdout);
    const [tl, localTl] = await Promise.all([
      mcpTriage(['timeline', '--store', url, '--incident', id, '--grep', 'post', '--limit', '4']),
      mcpTriage(['timeline', sample, '--grep', 'post', '--limit', '4', '--strict']),
    ]);
    expect(tl.code, tl.stderr).toBe(0);
    expect(tl.stdout).toBe(localTl.stdout);
    expect(tl.stdout.split('\n').filter(Boolean)).toHaveLength(4);
    const missing = await mcpTriage(['report', '--store', url, '--incident', 'inc_nosuchincident']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no incident inc_nosuchincident in clickhouse:\/\/127\.0\.0\.1:\d+\/team/);
  });

  it('credentials from MCP_TRIAGE_STORE or --store-credentials work and are never printed; a wrong one is refused in one line', async () => {
    const viaEnv = await mcpTriage(['analyze', sample], { MCP_TRIAGE_STORE: withUser() });
    expect(viaEnv.code, viaEnv.stderr).toBe(0);
    const file = join(ws.dir, 'store.credentials');
    writeFileSync(file, `${TEST_USER.user}:${TEST_USER.password}\n`, { mode: 0o600 });
    const viaFile = await mcpTriage(['analyze', sample, '--store', url, '--store-credentials', file]);
    expect(viaFile.code, viaFile.stderr).toBe(0);
    const wrongFile = join(ws.dir, 'wrong.credentials');
    writeFileSync(wrongFile, `${TEST_USER.user}:not-${TEST_USER.password}\n`, { mode: 0o600 });
    const wrong = await mcpTriage(['analyze', sample, '--store', url, '--store-credentials', wrongFile]);
    expect(wrong.code).toBe(2);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr.trim().split('\n').pop()).toMatch(
      new RegExp(`^mcp-triage: ClickHouse at clickhouse://127\\.0\\.0\\.1:\\d+/team refused the credentials \\(HTTP 401, code 193: Wrong password for user ${TEST_USER.user}\\)`),
    );
    const onArgv = await mcpTriage(['analyze', sample, '--store', withUser()]);
    expect(onArgv.code).toBe(1);
    expect(onArgv.stderr).toMatch(/must not carry credentials/);
    for (const r of [viaEnv, viaFile, wrong, onArgv]) {
      expect(r.stdout + r.stderr).not.toContain(TEST_USER.password);
      expect(r.stdout + r.stderr).not.toContain(encodeURIComponent(TEST_USER.password));
    }
  });

  it('an unreachable store or an unknown cluster is one line, exit 2 or 1, naming the store', async () => {
    const port = await closedPort();
    const down = await mcpTriage(['analyze', sample, '--store', `clickhouse://127.0.0.1:${port}/team`]);
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(new RegExp(`^mcp-triage: ClickHouse at clickhouse://127\\.0\\.0\\.1:${port}/team is unreachable \\(ECONNREFUSED\\)`, 'm'));
    const noCluster = await mcpTriage(['analyze', sample, '--store', `${url}?cluster=nope`]);
    expect(noCluster.code).toBe(1);
    expect(noCluster.stderr).toMatch(/knows no cluster "nope"/);
  });

  it('nothing raw at rest: session ids, credentials and personal data are redacted before they reach ClickHouse', async () => {
    const dir = join(ws.dir, 'raw');
    mkdirSync(dir);
    const raw = {
      session: '3f2b1c9e-7d41-4a5b-8c9d-0e1f2a3b4c5d',
      email: 'alice.smith@example.com',
      token: 'sk_live_51Hx9aBcDeFgHiJkLmNoPqRsTuVwXyZ0123',
      password: 'pg-pass-Zq81!x',
    };
    writeFileSync(
      join(dir, 'client.log'),
      [
        `2026-11-29T09:00:00.000Z INFO [mcp-client] POST http://127.0.0.1:3000/mcp rpc=0 method=initialize mcp-session-id=- -> 200 (12 ms)`,
        `2026-11-29T09:00:00.100Z INFO [mcp-client] session assigned mcp-session-id=${raw.session} for ${raw.email}`,
        `2026-11-29T09:00:01.000Z ERROR [mcp-client] POST http://127.0.0.1:3000/mcp rpc=3 method=tools/call mcp-session-id=${raw.session} -> 404 (5 ms) Authorization: Bearer ${raw.token}`,
        `2026-11-29T09:00:01.010Z ERROR [mcp-client] db url postgres://app:${raw.password}@db.internal:5432/orders`,
      ].join('\n') + '\n',
    );
    const r = await mcpTriage(['analyze', dir, '--json', '--store', url]);
    expect(r.code, r.stderr).toBe(0);
    const id = storedId(r.stderr);
    let everything = '';
    for (const t of ['incidents', 'files', 'events', 'signals', 'redactions', 'skipped_files', 'decisions', 'failures', 'spans']) {
      everything += await server.sql(`SELECT * FROM team.${t} WHERE incident = '${id}' FORMAT JSONEachRow`);
    }
    expect(everything).toContain('sess_');
    for (const [what, value] of Object.entries(raw)) expect(everything, what).not.toContain(value);
    expect(await server.sql(`SELECT privacy_mode FROM team.incidents WHERE incident = '${id}' ORDER BY version DESC LIMIT 1 FORMAT TSV`)).toBe('strict\n');
  });
});
