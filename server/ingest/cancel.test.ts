// An ingest that stops in pass 2 — called off (the client went away) or a file that breaks while
// it is read — stores nothing, with or without worker threads, and the store takes the next ingest;
// a worker that dies costs a rerun on this thread, not the ingest.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFormats } from '../../parsers/engine/registry.ts';
import { IngestCancelled, Store } from '../store/store.ts';
import { TEST_KEY } from '../testing/helpers.ts';
import type { InputEntry } from './inputs.ts';
import { ChunkPool } from './chunks.ts';
import { ingestIntoStore } from './pipeline.ts';

const formats = loadFormats({});
const text = (file: number) =>
  Array.from({ length: 4000 }, (_, i) => `2026-03-14T09:26:${String(i % 60).padStart(2, '0')}.000Z INFO file ${file} request ${i} password=Wint3rIsC0ming-${i % 9} done\n`).join(
    '',
  );

/** An entry read in 4 KiB pieces; `breakOnOpen`: that open (1 = pass 1, 2 = pass 2) throws after its first piece. */
function entry(name: string, body: string, breakOnOpen?: number): InputEntry {
  const buf = Buffer.from(body);
  let opens = 0;
  return {
    name,
    size: buf.length,
    async *open() {
      opens++;
      for (let i = 0; i < buf.length; i += 4096) {
        if (opens === breakOnOpen && i > 0) throw new Error(`${name}: read failed`);
        yield buf.subarray(i, i + 4096);
        await new Promise((r) => setImmediate(r));
      }
    },
  } as InputEntry;
}

let store: Store;
beforeAll(async () => {
  store = await Store.open(':memory:');
});
afterAll(async () => {
  await store.close();
});

async function nothingStored(): Promise<void> {
  expect(await store.listIncidents()).toEqual([]);
  const rows = await store.query<{ n: bigint }>('SELECT count(*) AS n FROM events');
  expect(Number(rows[0]!.n)).toBe(0);
}

describe('an ingest that stops in pass 2 stores nothing', () => {
  for (const workers of [0, 2]) {
    it(`called off while parsing (${workers} workers)`, async () => {
      const ac = new AbortController();
      const files = [entry('a.log', text(0)), entry('b.log', text(1)), entry('c.log', text(2))];
      const run = ingestIntoStore(store, store.newIncidentId(), 'cancelled', files, {
        key: TEST_KEY,
        formats,
        workers,
        chunkBytes: 8192,
        signal: ac.signal,
        onProgress: (p) => {
          if (p.phase === 'parse' && p.fileIndex === 1) ac.abort();
        },
      });
      await expect(run).rejects.toBeInstanceOf(IngestCancelled);
      await nothingStored();
    });

    it(`a file that breaks while it is read (${workers} workers)`, async () => {
      const files = [entry('a.log', text(0)), entry('b.log', text(1), 2)];
      await expect(ingestIntoStore(store, store.newIncidentId(), 'broken', files, { key: TEST_KEY, formats, workers, chunkBytes: 8192 })).rejects.toThrow('b.log: read failed');
      await nothingStored();
    });
  }

  it('and the store takes the next ingest', async () => {
    const id = store.newIncidentId();
    await ingestIntoStore(store, id, 'fine', [entry('a.log', text(0))], { key: TEST_KEY, formats, workers: 2, chunkBytes: 8192 });
    const rows = await store.query<{ n: bigint }>('SELECT count(*) AS n FROM events WHERE incident_id = $id', { id });
    expect(Number(rows[0]!.n)).toBe(4000);
    const raw = await store.query<{ n: bigint }>("SELECT count(*) AS n FROM events WHERE contains(text, 'Wint3rIsC0ming')");
    expect(Number(raw[0]!.n)).toBe(0);
  });
});

describe('a worker that dies', () => {
  it('rolls its ingest back, which runs again on this thread and stores what 0 workers store', async () => {
    const files = () => [entry('a.log', text(0)), entry('b.log', text(1))];
    const texts = async (id: string) => (await store.query<{ text: string }>('SELECT text FROM events WHERE incident_id = $id ORDER BY seq', { id })).map((r) => r.text);
    const plain = store.newIncidentId();
    await ingestIntoStore(store, plain, 'plain', files(), { key: TEST_KEY, formats, workers: 0, chunkBytes: 8192 });
    const id = store.newIncidentId();
    ChunkPool.faults.workerDies = true;
    try {
      await ingestIntoStore(store, id, 'retried', files(), { key: TEST_KEY, formats, workers: 2, chunkBytes: 8192 });
    } finally {
      ChunkPool.faults.workerDies = false;
    }
    expect(await texts(id)).toEqual(await texts(plain));
    expect((await store.listIncidents()).filter((i) => i.id === id)).toHaveLength(1);
  });
});
