// Redaction tiers at ingest (redaction.md "Tiers"): what the database holds in each privacy mode,
// the mode recorded per incident, and the final sweep of secrets found late — with and without
// worker threads and with chunks of a few lines, inside the ingest's one transaction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFormats } from '../../parsers/engine/registry.ts';
import { Store } from '../store/store.ts';
import { queryEvents } from '../store/events-query.ts';
import { TEST_KEY } from '../testing/helpers.ts';
import type { InputEntry } from './inputs.ts';
import { ingestIntoStore, type IngestOptions } from './pipeline.ts';
import { sessionPseudonym } from '../triage/redact/index.ts';

const formats = loadFormats({});
const entry = (name: string, text: string): InputEntry => ({
  name,
  size: Buffer.byteLength(text),
  async *open() {
    yield Buffer.from(text);
  },
});

const SESSION = '3f2a9c1e-7d3a-4e55-9c61-2a4b6d8e0f13';
const LOG = [
  // the password appears bare first, and is only known as one two lines later
  '2026-03-14T09:26:10.100Z INFO retrying login with Wint3rIsC0ming-42 for alice@example.com',
  `2026-03-14T09:26:10.200Z INFO POST https://mcp.acme-corp.internal/mcp mcp-session-id=${SESSION} from 10.42.7.19`,
  '2026-03-14T09:26:10.300Z DEBUG config password=Wint3rIsC0ming-42 user=alice',
  '2026-03-14T09:26:10.400Z DEBUG Authorization: Bearer ghp_Xq7Lr2Vb9Zk4Tn8Wc3Ym6Pd5Hs1Gf0Ja2Ue4',
  '2026-03-14T09:26:10.500Z INFO tools/call create_order arguments: {"customer": "Jane Roe", "street": "1 Fake Street"} in /home/alice/proj',
  '2026-03-14T09:26:10.600Z ERROR connect to db.corp.internal:5432 failed for session ' + SESSION,
].join('\n');

let store: Store;
beforeAll(async () => {
  store = await Store.open(':memory:');
});
afterAll(async () => {
  await store.close();
});

async function ingest(mode: 'standard' | 'strict' | undefined, plan: Partial<IngestOptions> = {}, text = LOG, id = store.newIncidentId()) {
  await ingestIntoStore(store, id, 'tiers', [entry('app.log', text), entry('other.log', text.replace(/alice/g, 'bob'))], {
    key: TEST_KEY,
    formats,
    ...(mode ? { mode } : {}),
    ...plan,
  });
  const rows = await store.query<{ text: string; message: string }>('SELECT text, message FROM events WHERE incident_id = $id ORDER BY seq', { id });
  return { id, all: rows.map((r) => `${r.text}\n${r.message}`).join('\n') };
}

const PLANS: Array<[string, Partial<IngestOptions>]> = [
  ['no worker threads', { workers: 0 }],
  ['one worker', { workers: 1 }],
  ['two workers, small chunks', { workers: 2, chunkBytes: 256 }],
];

describe('what the database holds', () => {
  for (const [plan, opts] of PLANS) {
    it(`standard (${plan}): session ids and credentials gone; personal and business data kept`, async () => {
      const { id, all } = await ingest('standard', opts);
      expect(all).not.toContain(SESSION);
      expect(all).toContain(sessionPseudonym(TEST_KEY, SESSION));
      expect(all).not.toContain('ghp_Xq7Lr2Vb9Zk4Tn8Wc3Ym6Pd5Hs1Gf0Ja2Ue4');
      // found late: swept from the line before it, inside the transaction
      expect(all).not.toContain('Wint3rIsC0ming-42');
      for (const pii of ['alice@example.com', 'mcp.acme-corp.internal', '10.42.7.19', 'Jane Roe', '/home/alice', 'db.corp.internal']) expect(all).toContain(pii);
      expect(await store.privacyMode(id)).toBe('standard');
    });

    it(`strict (${plan}): everything gone`, async () => {
      const { id, all } = await ingest('strict', opts);
      for (const v of [
        SESSION,
        'ghp_Xq7Lr2Vb9Zk4Tn8Wc3Ym6Pd5Hs1Gf0Ja2Ue4',
        'Wint3rIsC0ming-42',
        'alice@example.com',
        'mcp.acme-corp.internal',
        '10.42.7.19',
        'Jane Roe',
        '/home/alice',
        'db.corp.internal',
      ])
        expect(all).not.toContain(v);
      expect(await store.privacyMode(id)).toBe('strict');
    });
  }

  it('standard is the default', async () => {
    const { id } = await ingest(undefined);
    expect(await store.privacyMode(id)).toBe('standard');
    expect((await store.incident(id))!.privacyMode).toBe('standard');
  });
});

describe('the final sweep of secrets found late', () => {
  it('rewrites every text column, counts the rewrite, and the text index still finds the new text', async () => {
    const { id } = await ingest('standard', { workers: 0 });
    const first = await store.query<{ text: string; message: string }>('SELECT text, message FROM events WHERE incident_id = $id AND line = 1 ORDER BY seq LIMIT 1', { id });
    expect(first[0]!.text).toContain('[REDACTED:secret-key]');
    expect(first[0]!.message).not.toContain('Wint3rIsC0ming-42');
    const counts = await store.redactionCounts(id);
    expect(counts['@secret-key']).toBeGreaterThanOrEqual(3); // two in place, one (at least) swept late
    // the skip index got the placeholder's trigrams: a search for it finds the rewritten line
    const found = await queryEvents(store, id, { q: 'retrying login with [REDACTED:secret-key]', limit: 10, offset: 0 } as never);
    expect(found.total).toBe(2);
  });

  it('in a large incident, the rewritten line stays findable through the skip index', async () => {
    const filler = Array.from({ length: 12_000 }, (_, i) => `2026-03-14T09:27:${String(i % 60).padStart(2, '0')}.000Z INFO tick ${i} ok`);
    const text = ['2026-03-14T09:26:10.100Z INFO retrying login with Wint3rIsC0ming-42 now', ...filler, '2026-03-14T09:30:00.000Z DEBUG config password=Wint3rIsC0ming-42'].join(
      '\n',
    );
    const id = store.newIncidentId();
    await ingestIntoStore(store, id, 'big', [entry('big.log', text)], { key: TEST_KEY, formats, workers: 0 });
    const found = await queryEvents(store, id, { q: 'login with [REDACTED:secret-key]', limit: 10, offset: 0 } as never);
    expect(found.total).toBe(1);
    const all = await store.query<{ n: bigint }>("SELECT count(*) AS n FROM events WHERE incident_id = $id AND contains(text, 'Wint3rIsC0ming-42')", { id });
    expect(Number(all[0]!.n)).toBe(0);
  });

  it('many values learnt late (more than one query takes) are swept too', async () => {
    const secret = (i: number) => `S3cr3t-${String(i).padStart(4, '0')}-${(i * 7919).toString(16)}abc`;
    const text = [
      ...Array.from({ length: 150 }, (_, i) => `2026-03-14T09:26:10.${String(i % 1000).padStart(3, '0')}Z INFO retrying with ${secret(i)} now`),
      ...Array.from({ length: 150 }, (_, i) => `2026-03-14T09:27:10.${String(i % 1000).padStart(3, '0')}Z DEBUG config password=${secret(i)}`),
    ].join('\n');
    const id = store.newIncidentId();
    await ingestIntoStore(store, id, 'many', [entry('many.log', text)], { key: TEST_KEY, formats, workers: 0 });
    const rows = await store.query<{ text: string }>('SELECT text FROM events WHERE incident_id = $id', { id });
    const left = rows.filter((r) => /S3cr3t-\d{4}/.test(r.text)).map((r) => r.text);
    expect(left).toEqual([]);
    expect((await store.redactionCounts(id))['@secret-key']).toBe(300);
  });

  it('a secret that is never learnt is not invented, and clean text is left alone', async () => {
    const clean = '2026-03-14T09:26:10.100Z INFO all good\n2026-03-14T09:26:10.200Z INFO still good';
    const { all } = await ingest('standard', {}, clean);
    expect(all).toContain('all good');
    expect(all).not.toContain('REDACTED');
  });
});

describe('the mode is recorded per incident', () => {
  it('files added in standard to a strict incident make it standard (it now holds PII); strict added to standard stays standard', async () => {
    const { id } = await ingest('strict');
    await ingest('standard', {}, LOG.replace('alice', 'carol'), id);
    expect(await store.privacyMode(id)).toBe('standard');
    const { id: id2 } = await ingest('standard');
    await ingest('strict', {}, LOG.replace('alice', 'dave'), id2);
    expect(await store.privacyMode(id2)).toBe('standard');
  });

  it('incidents stored before tiers (no mode) read as strict: everything was redacted at ingest then', async () => {
    const { id } = await ingest('strict');
    await store.query('UPDATE incidents SET privacy_mode = NULL WHERE id = $id', { id });
    expect(await store.privacyMode(id)).toBe('strict');
    expect((await store.incident(id))!.privacyMode).toBe('strict');
  });
});
