// What an ingest stores does not depend on the number of worker threads (chunks.ts): with 0
// (everything on this thread), 1, 2 and 3 workers, every sample incident and the parser fixtures
// (ANSI, CRLF, gzip, zip, HAR documents, line prefixes, numbered lines…) give byte-identical
// event rows, file rows, redaction counts and analysis. Chunks are a few KiB here, so every
// sample is cut many times and the chunks really are spread over the workers.
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFormats } from '../../parsers/engine/registry.ts';
import { refreshAnalysis } from '../incidents.ts';
import { Store } from '../store/store.ts';
import { REPO, TEST_KEY } from '../testing/helpers.ts';
import { ChunkPool } from './chunks.ts';
import { entriesFromPaths } from './inputs.ts';
import { ingestIntoStore } from './pipeline.ts';

const formats = loadFormats();
const CHUNK = 4096;
const COUNTS = [0, 1, 2, 3];

const dirs = (d: string) => readdirSync(d).filter((n) => statSync(join(d, n)).isDirectory());
/** A sample folder with logs in it (a set declared before its bundles exist holds only its README). */
const hasLogs = (d: string) => {
  try {
    return entriesFromPaths([d]).length > 0;
  } catch {
    return false;
  }
};
/** Every sample incident: the hand-made ones, the recorded ones, the real-world shapes. */
const INCIDENTS: Array<[string, string[]]> = [
  ...dirs(join(REPO, 'samples'))
    .filter((d) => !['record', 'recorded', 'real-world'].includes(d) && hasLogs(join(REPO, 'samples', d)))
    .map((d): [string, string[]] => [d, [join(REPO, 'samples', d)]]),
  ...dirs(join(REPO, 'samples', 'recorded')).map((d): [string, string[]] => [`recorded/${d}`, [join(REPO, 'samples', 'recorded', d)]]),
  ['real-world', [join(REPO, 'samples', 'real-world')]],
  ['parser fixtures', fixtureFiles()],
  ['secrets across chunks', [synthetic()]],
];

/**
 * Secrets and ids that cross chunks: a password bare before it is learnt and again after, in
 * other chunks; a token wrapped onto the next line; a PEM block; a header name and its value
 * on the next line, many times over, so some land on chunk boundaries.
 */
function synthetic(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-workers-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const lines: string[] = [];
  for (let i = 0; i < 400; i++) {
    const t = `2026-03-14T09:${String(26 + Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000Z`;
    const pw = `Wint3rIsC0ming-${i % 7}`;
    if (i % 5 === 0) lines.push(`${t} INFO retrying login with ${pw} for alice`);
    if (i % 5 === 3) lines.push(`${t} DEBUG config password=${pw} user=alice`);
    if (i % 11 === 0) lines.push(`${t} DEBUG Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0`, `    .dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U${i}`);
    if (i % 37 === 0)
      lines.push(
        `${t} ERROR key -----BEGIN RSA PRIVATE KEY-----`,
        'MIIEowIBAAKCAQEA7bq0yX1c2m3n4b5v6c7x8z9a0s1d2f3g4h5j6k7l8',
        'q0w9e8r7t6y5u4i3o2p1a0s9d8f7g6h5j4k3l2',
        '-----END RSA PRIVATE KEY-----',
      );
    if (i % 13 === 0) lines.push('  "name": "mcp-session-id",', `  "value": "5d1c9b7e-3f2a-4c8d-9e10-aa55bb66${String(1000 + i).slice(-4)}"`);
    lines.push(`${t} INFO request ${i} completed in ${i % 97} ms`);
  }
  const p = join(dir, 'app.log');
  writeFileSync(p, lines.join('\n') + '\n');
  return p;
}

function fixtureFiles(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (!n.endsWith('.json') || n.endsWith('.har.json')) out.push(p);
    }
  };
  walk(join(REPO, 'parsers', 'fixtures'));
  return out.filter((p) => !p.includes('_error_'));
}

const json = (x: unknown) => JSON.stringify(x, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));

/** Everything the store holds for one incident, as text. */
async function stored(store: Store, id: string): Promise<Record<string, string>> {
  const q = (sql: string) => store.query<Record<string, unknown>>(sql, { id }).then(json);
  return {
    events: await q('SELECT * EXCLUDE (incident_id) FROM events WHERE incident_id = $id ORDER BY seq'),
    files: await q('SELECT * EXCLUDE (incident_id) FROM files WHERE incident_id = $id ORDER BY file_no'),
    redactions: await q('SELECT rule, count FROM redactions WHERE incident_id = $id ORDER BY rule'),
    analysis: json(await refreshAnalysis(store, id)),
  };
}

const runs = new Map<number, { store: Store; pool: ChunkPool }>();
beforeAll(async () => {
  for (const n of COUNTS) runs.set(n, { store: await Store.open(':memory:'), pool: new ChunkPool(n, CHUNK) });
});
afterAll(async () => {
  for (const { store, pool } of runs.values()) {
    await pool.close();
    await store.close();
  }
});

describe('ingest output does not depend on the number of workers', () => {
  // (one case per incident: the incidents grow with every sample batch, and one case over all of them outgrew any
  // fair timeout on a loaded 2-core machine)
  let events = 0;
  it('has the sample incidents and the parser fixtures to ingest', () => expect(INCIDENTS.length).toBeGreaterThan(100));
  for (const [k, [name, paths]] of INCIDENTS.entries())
    it(`0, 1, 2 and 3 workers store the same bytes: ${name}`, { timeout: 120_000 }, async () => {
      const id = `inc_workers${k}`;
      const got: Record<string, string>[] = [];
      for (const n of COUNTS) {
        const { store, pool } = runs.get(n)!;
        await ingestIntoStore(store, id, name, entriesFromPaths(paths), { key: TEST_KEY, formats, pool, chunkBytes: CHUNK });
        got.push(await stored(store, id));
      }
      for (let i = 1; i < got.length; i++) for (const what of Object.keys(got[0]!)) expect(got[i]![what], `${name}: ${what} with ${COUNTS[i]} workers`).toBe(got[0]![what]);
      events += (JSON.parse(got[0]!.events!) as unknown[]).length;
      // nothing raw is committed, wherever the value was first learnt
      if (name === 'secrets across chunks') expect(got[0]!.events).not.toMatch(/Wint3rIsC0ming|5d1c9b7e-3f2a|MIIEowIBAAKC|dozjgNryP4J3/);
    });
  it('stored events from all of them', () => expect(events).toBeGreaterThan(10_000));
});
