// --store URL, MCP_TRIAGE_STORE and --store-credentials: where credentials may come from, and that
// no message ever repeats them (issue #20 item 7). No server needed.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../../cli/args.ts';
import { STORE_OPTIONS, storeChoice } from '../../cli/store-option.ts';
import { TriageError } from '../../errors.ts';
import { tempWorkspace } from '../../testing/helpers.ts';
import { scrubError } from './client.ts';
import { str } from './sql.ts';
import { parseStoreUrl, resolveStore } from './target.ts';

const ws = tempWorkspace();
afterAll(() => ws.cleanup());
const PASSWORD = 'Hunter2:secret';

function thrown(fn: () => unknown): TriageError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(TriageError);
    return e as TriageError;
  }
  throw new Error('did not throw');
}

describe('store URLs', () => {
  it('one node, a cluster with its nodes, defaults', () => {
    const one = parseStoreUrl('clickhouse://ch.example:8123/mcp_triage', 'flag');
    expect(one).toMatchObject({
      database: 'mcp_triage',
      cluster: null,
      nodes: ['http://ch.example:8123'],
      user: null,
      password: null,
      display: 'clickhouse://ch.example:8123/mcp_triage',
    });
    expect(parseStoreUrl('clickhouse://ch.example/db', 'flag').nodes).toEqual(['http://ch.example:8123']);
    const c = parseStoreUrl('clickhouse://a:8123/db?cluster=logs&nodes=b:8124,a:8123', 'flag');
    expect(c).toMatchObject({ cluster: 'logs', nodes: ['http://a:8123', 'http://b:8124'], nodesGiven: true, display: 'clickhouse://a:8123/db?cluster=logs' });
    expect(parseStoreUrl('clickhouse://a/db?secure=1', 'flag').nodes).toEqual(['https://a:8123']);
  });

  it('refuses what is not a store URL, naming the fix', () => {
    expect(thrown(() => parseStoreUrl('http://a:8123/db', 'flag')).message).toMatch(/clickhouse:\/\/host:8123\/database/);
    expect(thrown(() => parseStoreUrl('clickhouse://a:8123/', 'flag')).message).toMatch(/name the database/);
    expect(thrown(() => parseStoreUrl('clickhouse://a:8123/db;drop', 'flag')).message).toMatch(/name the database/);
    expect(thrown(() => parseStoreUrl('clickhouse://a:8123/db?cluster=x;y', 'flag')).message).toMatch(/cluster=/);
    expect(thrown(() => parseStoreUrl('clickhouse://a:8123/db?user=x', 'flag')).message).toMatch(/unknown parameter "user"/);
    expect(thrown(() => parseStoreUrl('clickhouse://a:8123/db?nodes=b', 'flag')).message).toMatch(/nodes= only goes with cluster/);
    expect(thrown(() => parseStoreUrl('clickhouse://a:99999/db', 'flag')).code).toBe('TRIAGE_ERR_USAGE');
  });

  it('credentials: never on the command line (and not repeated when refused); from the environment they are used', () => {
    const e = thrown(() => parseStoreUrl(`clickhouse://triage:${encodeURIComponent(PASSWORD)}@a:8123/db`, 'flag'));
    expect(e.code).toBe('TRIAGE_ERR_USAGE');
    expect(e.message).toMatch(/MCP_TRIAGE_STORE|--store-credentials/);
    expect(e.message).not.toContain('Hunter2');
    expect(e.message).not.toContain('triage:');
    const env = parseStoreUrl(`clickhouse://triage:${encodeURIComponent(PASSWORD)}@a:8123/db`, 'env');
    expect({ user: env.user, password: env.password }).toEqual({ user: 'triage', password: PASSWORD });
    expect(env.display).toBe('clickhouse://a:8123/db');
    expect(JSON.stringify({ ...env, password: undefined })).not.toContain('Hunter2');
  });

  it('--store-credentials: a private file holding user:password; anything else refused without echoing it', () => {
    const file = join(ws.dir, 'creds');
    writeFileSync(file, `triage:${PASSWORD}\n`, { mode: 0o600 });
    const t = resolveStore({ flag: 'clickhouse://a:8123/db', credentialsFile: file, env: {} })!;
    expect({ user: t.user, password: t.password }).toEqual({ user: 'triage', password: PASSWORD });
    chmodSync(file, 0o644);
    expect(thrown(() => resolveStore({ flag: 'clickhouse://a:8123/db', credentialsFile: file, env: {} })).message).toMatch(/chmod 600/);
    const bad = join(ws.dir, 'bad');
    writeFileSync(bad, 'Hunter2-no-colon\n', { mode: 0o600 });
    const e = thrown(() => resolveStore({ flag: 'clickhouse://a:8123/db', credentialsFile: bad, env: {} }));
    expect(e.message).toMatch(/user:password/);
    expect(e.message).not.toContain('Hunter2');
    expect(thrown(() => resolveStore({ flag: 'clickhouse://a:8123/db', credentialsFile: join(ws.dir, 'none'), env: {} })).code).toBe('TRIAGE_ERR_INPUT');
    expect(thrown(() => resolveStore({ credentialsFile: file, env: {} })).message).toMatch(/goes with --store/);
  });

  it('which store: --store, else MCP_TRIAGE_STORE, else the embedded one; --db is a local choice', () => {
    const env = { MCP_TRIAGE_STORE: `clickhouse://triage:${encodeURIComponent(PASSWORD)}@a:8123/db` };
    const choose = (args: string[], e: NodeJS.ProcessEnv = {}) => storeChoice('analyze', parseArgs('analyze', args, { db: { type: 'string' }, ...STORE_OPTIONS }), e);
    expect(choose(['x']).target).toBeNull();
    expect(choose(['x'], env).target?.password).toBe(PASSWORD);
    // The same host on the command line takes the environment's credentials; another host does not.
    expect(choose(['x', '--store', 'clickhouse://a:8123/other'], env).target).toMatchObject({ database: 'other', user: 'triage' });
    expect(choose(['x', '--store', 'clickhouse://b:8123/db'], env).target).toMatchObject({ user: null, password: null });
    expect(choose(['x', '--db', 'f.duckdb'], env).target).toBeNull();
    expect(thrown(() => choose(['x', '--db', 'f.duckdb', '--store', 'clickhouse://a/db'])).message).toMatch(/exclude each other/);
    expect(thrown(() => choose(['--incident', 'inc_abcdef12'])).message).toMatch(/add --store/);
    expect(thrown(() => choose(['--incident', "inc_'x", '--store', 'clickhouse://a/db'])).message).toMatch(/incident id/);
    expect(choose(['--incident', 'inc_abcdef12', '--store', 'clickhouse://a/db']).incident).toBe('inc_abcdef12');
  });
});

describe('ClickHouse errors, as shown', () => {
  it('keep the code and the first sentence; drop echoed SQL, rows, quoted values and secrets', () => {
    expect(scrubError("Code: 60, e.displayText() = DB::Exception: Table mcp.events doesn't exist., e.what() = DB::Exception")).toEqual({
      code: 60,
      message: "Table mcp.events doesn't exist.",
    });
    expect(scrubError('Code: 60. DB::Exception: Table mcp.events does not exist. (UNKNOWN_TABLE) (version 24.3.1.1)').code).toBe(60);
    const syntax = scrubError("Code: 62, e.displayText() = DB::Exception: Syntax error: failed at position 12: 'sk_live_4242424242424242' FRM x, e.what() = DB::Exception");
    expect(syntax.message).toBe('Syntax error: failed at position 12');
    const row = scrubError(
      'Code: 27, e.displayText() = DB::Exception: Cannot parse input: expected , before: "alice@example.com": (at row 1)\nRow 1: Column 0, name: text, parsed text: "Bearer eyJhbGciOi"',
    );
    expect(row.message).not.toMatch(/alice|Bearer|eyJ/);
    const quoted = scrubError("Code: 36, e.displayText() = DB::Exception: Unknown setting 'password=hunter2', e.what() = DB::Exception");
    expect(quoted.message).not.toContain('hunter2');
    const secret = scrubError(`Code: 516, e.displayText() = DB::Exception: triage: Authentication failed: password ${PASSWORD} is incorrect`, [PASSWORD], 'triage');
    expect(secret.message).not.toContain(PASSWORD);
    expect(secret.message).toContain('triage');
    expect(scrubError('<html>bad gateway</html>')).toMatchObject({ code: null });
  });

  it('string literals escape quotes, backslashes and control characters', () => {
    expect(str("a'b\\c\n\u0000")).toBe("'a\\'b\\\\c\\x0a\\x00'");
    expect(str('Σ😀')).toBe("'Σ😀'");
  });
});
