// `mcp-triage export INCIDENT --parquet DIR` (issue #20 item 5): from the embedded store and from a
// shared ClickHouse store, three Parquet files that DuckDB reads back with the documented columns
// (README.md here), the same rows from either store, and none of the planted personal data, secrets
// or raw request ids: the export is an exit (exit tier, then the leak check). Plus --help and the
// errors that say what to do next.
import { DuckDBInstance } from '@duckdb/node-api';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestIncident, openContext } from '../incidents.ts';
import { cli, storedId } from '../store/clickhouse/testing/cli.ts';
import { TestClickHouse } from '../store/clickhouse/testing/server.ts';
import { sampleFiles, tempWorkspace } from '../testing/helpers.ts';
import type { InputEntry } from '../ingest/inputs.ts';

/** Personal and business data planted into evidence lines of a real sample (as http/tiers.test.ts does), and a secret. */
const PLANTED = ['alice.smith@acme-corp.example', '203.0.113.57', 'db7.corp.internal', '/home/alicesmith', '+1 415 555 0123', 'Jane Roe', 'sk_live_9f8e7d6c5b4a39281706f5e4'];
const PLANT = ` [user alice.smith@acme-corp.example from 203.0.113.57 via db7.corp.internal cwd /home/alicesmith phone +1 415 555 0123 arguments: {"customer": "Jane Roe"} key=sk_live_9f8e7d6c5b4a39281706f5e4]`;

const ws = tempWorkspace();
const logs = join(ws.dir, 'logs');
const db = join(ws.dir, 'export.duckdb');
let server: TestClickHouse;
let localId = '';
let sharedId = '';
let storeEnv: NodeJS.ProcessEnv;

function entries(): InputEntry[] {
  return sampleFiles('restart-stale-session').map((f) => {
    const data =
      f.name === 'client.log'
        ? Buffer.from(
            f.data
              .toString('utf8')
              .split('\n')
              .map((l, i) => (i >= 39 && i <= 46 && l ? l + PLANT : l))
              .join('\n'),
          )
        : f.data;
    return {
      name: f.name,
      size: data.length,
      open: async function* () {
        yield data;
      },
    } as unknown as InputEntry;
  });
}

beforeAll(async () => {
  mkdirSync(logs, { recursive: true });
  for (const e of entries()) {
    const chunks: Buffer[] = [];
    for await (const c of e.open()) chunks.push(c as Buffer);
    writeFileSync(join(logs, e.name), Buffer.concat(chunks));
  }
  // Stored in standard mode: the personal data is in the database, as logged (the exit must remove it).
  const ctx = await openContext({ env: ws.env, db, keyFile: ws.keyFile });
  try {
    localId = (await ingestIncident(ctx, entries(), { name: 'planted', mode: 'standard' })).id;
    const [row] = await ctx.store.query<{ n: bigint }>(`SELECT count(*) AS n FROM events WHERE incident_id = $id AND contains(text, 'alice.smith@acme-corp.example')`, {
      id: localId,
    });
    expect(Number(row!.n)).toBeGreaterThan(0);
  } finally {
    await ctx.store.close();
  }
  server = await TestClickHouse.start(1);
  storeEnv = { ...ws.env, MCP_TRIAGE_STORE: server.url('export') };
  const r = await cli(['analyze', logs, '--key-file', ws.keyFile], storeEnv);
  expect(r.code, r.stderr).toBe(0);
  sharedId = storedId(r.stderr);
});
afterAll(async () => {
  await server?.stop();
  ws.cleanup();
});

async function readBack(dir: string) {
  const inst = await DuckDBInstance.create(':memory:');
  const c = await inst.connect();
  try {
    const out: Record<string, { columns: Record<string, string>; rows: Record<string, unknown>[]; strings: string }> = {};
    for (const t of ['events', 'failures', 'spans']) {
      const f = join(dir, `${t}.parquet`).replace(/'/g, "''");
      const cols = (await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${f}')`)).getRowObjectsJS() as { column_name: string; column_type: string }[];
      const rows = (await c.runAndReadAll(`SELECT * FROM read_parquet('${f}') ORDER BY ALL`)).getRowObjectsJS() as Record<string, unknown>[];
      out[t] = {
        columns: Object.fromEntries(cols.map((x) => [x.column_name, x.column_type])),
        rows,
        strings: JSON.stringify(rows, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)),
      };
    }
    return out;
  } finally {
    c.closeSync();
    inst.closeSync();
  }
}

const EVENT_SCHEMA = {
  incident: 'VARCHAR',
  seq: 'BIGINT',
  ts: 'TIMESTAMP',
  file: 'VARCHAR',
  line: 'INTEGER',
  end_line: 'INTEGER',
  source: 'VARCHAR',
  format: 'VARCHAR',
  kind: 'VARCHAR',
  level: 'VARCHAR',
  message: 'VARCHAR',
  text: 'VARCHAR',
  http_method: 'VARCHAR',
  http_path: 'VARCHAR',
  http_status: 'INTEGER',
  request_id: 'VARCHAR',
  rpc_id: 'VARCHAR',
  rpc_method: 'VARCHAR',
  tool: 'VARCHAR',
  session: 'VARCHAR',
  protocol_version: 'VARCHAR',
  duration_ms: 'DOUBLE',
  signals: 'VARCHAR[]',
  attrs: 'VARCHAR',
};
const FAILURE_SCHEMA = {
  incident: 'VARCHAR',
  idx: 'INTEGER',
  rpc_id: 'VARCHAR',
  method: 'VARCHAR',
  tool: 'VARCHAR',
  session: 'VARCHAR',
  http_status: 'INTEGER',
  stage: 'VARCHAR',
  root_type: 'VARCHAR',
  root_message: 'VARCHAR',
  exception_chain: 'VARCHAR[]',
  decision: 'VARCHAR',
  rule: 'VARCHAR',
  rationale: 'VARCHAR',
  role: 'VARCHAR',
  episode: 'INTEGER',
  signals: 'VARCHAR[]',
  evidence: 'VARCHAR[]',
};
const SPAN_SCHEMA = { incident: 'VARCHAR', idx: 'INTEGER', rpc_id: 'VARCHAR', method: 'VARCHAR', session: 'VARCHAR', sources: 'VARCHAR[]', joined_by: 'VARCHAR[]' };

describe('export --parquet', () => {
  it('writes events, failures and spans that DuckDB reads back, redacted, from the embedded store and from ClickHouse alike', async () => {
    const a = join(ws.dir, 'out-local');
    const b = join(ws.dir, 'out-shared');
    const ra = await cli(['export', localId, '--parquet', a, '--db', db, '--key-file', ws.keyFile], ws.env);
    expect(ra.code, ra.stderr).toBe(0);
    expect(ra.stdout.trim().split('\n')).toEqual(['events', 'failures', 'spans'].map((t) => join(a, `${t}.parquet`)));
    expect(ra.stderr).toMatch(new RegExp(`^exported ${localId}: \\d+ events, \\d+ failures, \\d+ spans \\(redacted\\)`));
    const rb = await cli(['export', sharedId, '--parquet', b, '--key-file', ws.keyFile], storeEnv);
    expect(rb.code, rb.stderr).toBe(0);
    const [x, y] = [await readBack(a), await readBack(b)];
    for (const got of [x, y]) {
      expect(got.events!.columns).toEqual(EVENT_SCHEMA);
      expect(got.failures!.columns).toEqual(FAILURE_SCHEMA);
      expect(got.spans!.columns).toEqual(SPAN_SCHEMA);
      expect(got.events!.rows.length).toBeGreaterThan(50);
      expect(got.failures!.rows.length).toBeGreaterThan(0);
      expect(got.spans!.rows.length).toBeGreaterThan(0);
      // Nothing planted leaves, in any column of any file; request ids are pseudonyms.
      for (const t of ['events', 'failures', 'spans'])
        expect(
          PLANTED.filter((p) => got[t]!.strings.includes(p)),
          t,
        ).toEqual([]);
      const ids = got.events!.rows.map((r) => r.request_id).filter((v) => v !== null);
      expect(ids.length).toBeGreaterThan(0);
      for (const v of ids) expect(String(v)).toMatch(/^req-/);
      expect(got.events!.rows.every((r) => r.session === null || /^sess_[a-z2-7]{10,}$/.test(String(r.session)))).toBe(true);
    }
    // Both stores: the same rows but for the incident id (the embedded one was stored standard, the
    // shared one strict: the exit makes them agree).
    const same = (g: typeof x, id: string) => g.events!.strings.split(id).join('ID');
    expect(same(y, sharedId)).toBe(same(x, localId));
    expect(y.failures!.strings.split(sharedId).join('ID')).toBe(x.failures!.strings.split(localId).join('ID'));
  });

  it('--help, and errors that say what to do next (exit 1, nothing written)', async () => {
    const help = await cli(['export', '--help'], ws.env);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: mcp-triage export INCIDENT --parquet DIR/);
    const cases: [string[], RegExp][] = [
      [['export', '--parquet', join(ws.dir, 'x')], /give the incident id \(inc_…\) and --parquet DIR/],
      [['export', localId, '--db', db], /--parquet DIR/],
      [['export', 'incident-7', '--parquet', join(ws.dir, 'x'), '--db', db], /not an incident id; ids look like inc_/],
      [['export', 'inc_nosuchthing1', '--parquet', join(ws.dir, 'x'), '--db', db], /no incident inc_nosuchthing1 in this store/],
      [
        ['export', localId, '--parquet', join(ws.dir, 'x'), '--db', db, '--store', 'clickhouse://127.0.0.1:1/x'],
        /--db \(a DuckDB file\) and --store \(a shared store\) exclude each other/,
      ],
    ];
    for (const [args, msg] of cases) {
      const r = await cli(args, ws.env);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(msg);
    }
    expect(existsSync(join(ws.dir, 'x', 'events.parquet'))).toBe(false);
    // Never overwrites.
    const dir = join(ws.dir, 'taken');
    mkdirSync(dir);
    writeFileSync(join(dir, 'events.parquet'), 'mine');
    const r = await cli(['export', localId, '--parquet', dir, '--db', db, '--key-file', ws.keyFile], ws.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/already exists; remove it or choose another folder/);
    expect(readFileSync(join(dir, 'events.parquet'), 'utf8')).toBe('mine');
  });
});
