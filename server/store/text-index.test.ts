// The text search's skip index (text-index.ts) against DuckDB itself: every search with the
// index returns exactly what `contains(lower(text), q)` over every row returns, on rows built to
// trip it (Unicode whose lowercase is ASCII, surrogate pairs, case, block edges, two ingests in
// one block), and the index does skip blocks when the needle is rare.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Event, emptyEvent } from '../../parsers/contract/event.ts';
import { backfills, backfillTextIndex, compileFilters, EventFilters, planStats, queryEvents, textBlocks } from './events-query.ts';
import { Store, type FileRow } from './store.ts';
import { BLOCK_SHIFT, queryBits, TextIndexBuilder, type TextBlock } from './text-index.ts';

const base = (text: string, i: number): Event => ({
  ...emptyEvent({ file: 'x.log', line: i + 1, source: 'server', format: 'fmt', kind: 'line', text }),
  ts: 1_700_000_000_000 + i,
  message: text.slice(0, 40),
});

/** A deterministic filler line (no needle), then the planted lines at fixed positions. */
function filler(i: number): string {
  const words = ['POST /mcp 200', 'GET /health', 'tools/call get_order', 'mcp-session-id=sess_abcdefghij', 'upstream timed out', 'request completed'];
  return `${words[i % words.length]} n=${(i * 7919) % 10007}`;
}

const PLANTED: Record<number, string> = {
  5: 'ERROR Zebra-Quokka failure',
  4095: 'block edge: last of block 0 has xylophone',
  4096: 'block edge: first of block 1 has XYLOPHONE',
  9000: 'temperature 300 \u212Aelvin', // KELVIN SIGN lowers to ASCII "k"
  9500: 'city \u0130stanbul', // İ lowers to "i" (+ combining dot in JS)
  10001: 'emoji 🦄 between quo🦄kka', // surrogate pairs break trigrams
  12000: 'café crème brûlée', // non-ASCII that lowers to non-ASCII
  15000: 'tab\tseparated\tNEEDLE-77',
};

function fileRow(no: number, events: number): FileRow {
  return { fileNo: no, path: `f${no}.log`, sha256: `h${no}`, bytes: 1, source: 'server', format: 'fmt', lines: events, events, unparsed: 0, truncatedLines: 0, prefix: null };
}

let store: Store;
const ID = 'inc_textindex';
// Two ingests: the second starts mid-block, so one block has two index rows.
const FIRST = 10_500;
const TOTAL = 17_000;

beforeAll(async () => {
  store = await Store.open(':memory:');
  for (const [from, to, no] of [
    [0, FIRST, 0],
    [FIRST, TOTAL, 1],
  ] as const) {
    await store.ingest(ID, 'text index', async (w) => {
      for (let i = from; i < to; i++) w.write(base(PLANTED[i] ?? filler(i), i));
      return { files: [fileRow(no, to - from)], redactions: {} };
    });
  }
});
afterAll(async () => store.close());

/** The page and total with the index, and the same from a plain scan (no index). */
async function both(q: string, extra: Partial<EventFilters> = {}) {
  const f = EventFilters.parse({ q, limit: 50, ...extra });
  const now = await queryEvents(store, ID, f);
  const { where, params } = compileFilters(ID, f);
  const [{ n }] = await store.query<{ n: bigint }>(`SELECT count(*) AS n FROM events WHERE ${where}`, params);
  const ref = await store.query<{ seq: bigint }>(`SELECT seq FROM events WHERE ${where} ORDER BY ts NULLS LAST, seq LIMIT ${f.limit} OFFSET ${f.offset}`, params);
  return { total: now.total, seqs: now.rows.toArray().map((r) => Number(r.seq)), refTotal: Number(n), refSeqs: ref.map((r) => Number(r.seq)) };
}

async function blocksRead(q: string): Promise<number[] | null> {
  const c = await store.reader();
  try {
    const t = await textBlocks(c, ID, q);
    return t ? t.blocks : null;
  } finally {
    c.closeSync();
  }
}

describe('text search with the skip index', () => {
  it.each([
    'zebra-quokka',
    'Zebra-Quokka',
    'ZEBRA',
    'xylophone',
    'XyLoPhOnE',
    'kelvin',
    '300 k',
    'istanbul',
    'stanbul',
    'quokka',
    'quo',
    'kka',
    'café',
    'brûlée',
    'crème b',
    'needle-77',
    'separated\tneedle',
    '🦄',
    'sess_abcdefghij',
    'post /mcp',
    'no such thing anywhere',
    'ab',
    'n=1',
  ])('%j: same rows and total as a scan of every row', async (q) => {
    const r = await both(q);
    expect(r.total).toBe(r.refTotal);
    expect(r.seqs).toEqual(r.refSeqs);
  });

  it('finds what only Unicode case folding reveals', async () => {
    expect((await both('kelvin')).refTotal).toBe(1);
    expect((await both('istanbul')).refTotal).toBe(1);
    expect((await both('xylophone')).refTotal).toBe(2);
  });

  it('reads only the blocks that can match a rare needle', async () => {
    const all = Math.ceil(TOTAL / 2 ** BLOCK_SHIFT);
    // Block 2 holds the Kelvin sign and İ: its filter is NULL, it is always read.
    expect(9000 >> BLOCK_SHIFT).toBe(2);
    expect(await blocksRead('zebra-quokka')).toEqual([0, 2]);
    expect(await blocksRead('xylophone')).toEqual([0, 1, 2]);
    expect(await blocksRead('needle-77')).toEqual([2, 15_000 >> BLOCK_SHIFT]);
    expect(await blocksRead('no such thing anywhere')).toEqual([2]);
    // Common words: every block may match, so no index predicate at all; short queries give no trigram.
    expect(await blocksRead('request completed')).toBeNull();
    expect(await blocksRead('ab')).toBeNull();
    expect(all).toBe(5);
  });

  it('pages through a pruned search like through a scan', async () => {
    for (const offset of [0, 1, 2, 50]) {
      const r = await both('xylophone', { offset, limit: 1 });
      expect(r.seqs).toEqual(r.refSeqs);
    }
  });

  it('is not used when some events have no index rows (ingested before it existed)', async () => {
    const OLD = 'inc_textindex_old';
    await store.ingest(OLD, 'old', async (w) => {
      for (let i = 0; i < 5000; i++) w.write(base(PLANTED[i] ?? filler(i), i));
      return { files: [fileRow(0, 5000)], redactions: {} };
    });
    await store.query('DELETE FROM text_blocks WHERE incident_id = $id AND seq_lo >= 4096', { id: OLD });
    const c = await store.reader();
    try {
      expect(await textBlocks(c, ID, 'zebra-quokka')).not.toBeNull();
      expect(await textBlocks(c, OLD, 'zebra-quokka')).toBeNull();
    } finally {
      c.closeSync();
    }
    const f = EventFilters.parse({ q: 'zebra' });
    expect((await queryEvents(store, OLD, f)).total).toBe(1);
  });

  it('builds the missing index in the background after such a search, with the same answers', async () => {
    const OLD = 'inc_textindex_backfill';
    await store.ingest(OLD, 'old', async (w) => {
      for (let i = 0; i < TOTAL; i++) w.write(base(PLANTED[i] ?? filler(i), i));
      return { files: [fileRow(0, TOTAL)], redactions: {} };
    });
    const before = await store.query<{ n: bigint }>('SELECT count(*) AS n FROM text_blocks WHERE incident_id = $id', { id: OLD });
    await store.query('DELETE FROM text_blocks WHERE incident_id = $id', { id: OLD }); // as stored before the index existed
    const f = EventFilters.parse({ q: 'xylophone', limit: 50 });
    // A one-shot process (upkeep off) leaves it alone; a server builds it.
    await queryEvents(store, OLD, EventFilters.parse({ q: 'quokka', limit: 50 }));
    expect(backfills.get(store)?.get(OLD)).toBeUndefined();
    store.upkeep = true;
    const unindexed = await queryEvents(store, OLD, f);
    const job = backfills.get(store)?.get(OLD);
    expect(job).toBeDefined();
    expect(await job).toBe(true);
    const after = await store.query<{ n: bigint }>('SELECT count(*) AS n FROM text_blocks WHERE incident_id = $id', { id: OLD });
    expect(after[0]!.n).toBe(before[0]!.n); // one row per block, as the ingest wrote them
    const c = await store.reader();
    try {
      expect(await textBlocks(c, OLD, 'xylophone')).not.toBeNull();
    } finally {
      c.closeSync();
    }
    const indexed = await queryEvents(store, OLD, f);
    expect(indexed.total).toBe(unindexed.total);
    expect(indexed.rows.toArray().map((r) => r.seq)).toEqual(unindexed.rows.toArray().map((r) => r.seq));
    for (const q of ['kelvin', 'istanbul', 'zebra-quokka', 'needle-77']) {
      const g = EventFilters.parse({ q, limit: 50 });
      const { where, params } = compileFilters(OLD, g);
      const [{ n }] = await store.query<{ n: bigint }>(`SELECT count(*) AS n FROM events WHERE ${where}`, params);
      expect((await queryEvents(store, OLD, g)).total, q).toBe(Number(n));
    }
  });

  it('does not write a backfill built before the incident changed', async () => {
    const OLD = 'inc_textindex_stale';
    await store.ingest(OLD, 'old', async (w) => {
      for (let i = 0; i < 100; i++) w.write(base(filler(i), i));
      return { files: [fileRow(0, 100)], redactions: {} };
    });
    expect(await store.replaceTextBlocks(OLD, '1:7', [])).toBe(false); // not its files' version
    expect(await store.replaceTextBlocks(OLD, '1:0', [])).toBe(true);
    expect(await store.query('SELECT * FROM text_blocks WHERE incident_id = $id', { id: OLD })).toEqual([]);
    expect(await backfillTextIndex(store, OLD)).toBe(true);
    const rows = await store.query<{ lo: bigint; hi: bigint }>('SELECT seq_lo AS lo, seq_hi AS hi FROM text_blocks WHERE incident_id = $id', { id: OLD });
    expect(rows.map((r) => [Number(r.lo), Number(r.hi)])).toEqual([[0, 99]]);
  });
});

describe('TextIndexBuilder', () => {
  it('splits at block boundaries and marks blocks holding characters that lower to ASCII', () => {
    const out: TextBlock[] = [];
    const b = new TextIndexBuilder((x) => out.push(x));
    b.add(4094, 'abc');
    b.add(4095, 'def');
    b.add(4096, 'x\u212Ay');
    b.add(4097, 'plain');
    b.finish();
    expect(out.map((x) => [x.seqLo, x.seqHi, x.bits === null])).toEqual([
      [4094, 4095, false],
      [4096, 4097, true],
    ]);
    const has = (bits: Uint8Array, q: string) => queryBits(q)!.every((p) => (bits[p >> 3]! & (0x80 >> (p & 7))) !== 0);
    expect(has(out[0]!.bits!, 'abc')).toBe(true);
    expect(has(out[0]!.bits!, 'def')).toBe(true);
    expect(queryBits('ab')).toBeNull();
    expect(queryBits('é€ü')).toBeNull();
  });
});

describe('early pages of a text search, found inside a time window', () => {
  const WIN = 'inc_window';
  const N = 150_000;
  beforeAll(async () => {
    await store.ingest(WIN, 'window', async (w) => {
      for (let i = 0; i < N; i++) {
        // Every 100th row ticks, every 20 000th is rare; the last 500 rows have no timestamp.
        const text = i % 20_000 === 7 ? `rare event ${i}` : i % 100 === 3 ? `tick ${i}` : filler(i);
        w.write({ ...base(text, i), ts: i >= N - 500 ? null : 1_700_000_000_000 + i * 3 });
      }
      return { files: [fileRow(0, N)], redactions: {} };
    });
  });

  async function same(f: Partial<EventFilters>): Promise<void> {
    const q = EventFilters.parse({ limit: 50, ...f });
    const now = await queryEvents(store, WIN, q);
    const { where, params } = compileFilters(WIN, q);
    // The cursor, by hand: rows after (ts, seq) in timeline order (NULL ts last).
    const [t, sq] = (q.after ?? '').split(',').map(Number);
    const after = q.after ? ` AND (ts IS NULL OR ts > ${t} OR (ts = ${t} AND seq > ${sq}))` : '';
    const ref = await store.query<{ seq: bigint }>(`SELECT seq FROM events WHERE ${where}${after} ORDER BY ts NULLS LAST, seq LIMIT ${q.limit} OFFSET ${q.offset}`, params);
    expect(
      now.rows.toArray().map((r) => Number(r.seq)),
      JSON.stringify(f),
    ).toEqual(ref.map((r) => Number(r.seq)));
  }

  it('gives the page a scan of every row gives, windowed or not', async () => {
    const before = planStats.windowed;
    await same({ q: 'tick' });
    await same({ q: 'TICK', offset: 400 });
    expect(planStats.windowed).toBe(before + 2); // both pages were inside their first window
    await same({ q: 'rare event' }); // too sparse: the window grows to everything
    await same({ q: 'tick', offset: 1450 }); // the last ticks have no timestamp: after every window
    await same({ q: 'tick', after: '1700000000300,100' });
    await same({ q: 'tick 4', limit: 7 });
  });
});
