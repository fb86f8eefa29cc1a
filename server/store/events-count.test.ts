// Background counts of text searches (queryEventsPage): the page answers first, the count follows,
// and a newer search of the same incident calls off the older count, whose total is still right
// when asked for again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Event, emptyEvent } from '../../parsers/contract/event.ts';
import { countEvents, countHooks, EventFilters, queryEventsPage } from './events-query.ts';
import { Store } from './store.ts';

const ID = 'inc_counts';
const N = 6000;
const ev = (i: number): Event => ({
  ...emptyEvent({ file: 'x.log', line: i + 1, source: 'server', format: 'fmt', kind: 'line', text: `${['alpha', 'beta', 'gamma'][i % 3]} row ${i}` }),
  ts: 1_700_000_000_000 + i,
  message: `m${i}`,
});

let store: Store;
beforeAll(async () => {
  store = await Store.open(':memory:');
  await store.ingest(ID, 'counts', async (w) => {
    for (let i = 0; i < N; i++) w.write(ev(i));
    return {
      files: [{ fileNo: 0, path: 'x.log', sha256: 'h', bytes: 1, source: 'server', format: 'fmt', lines: N, events: N, unparsed: 0, truncatedLines: 0, prefix: null }],
      redactions: {},
    };
  });
});
afterAll(async () => {
  countHooks.beforeCount = null;
  await store.close();
});

const search = (q: string) => EventFilters.parse({ q, limit: 10 });

/** Holds every background count at its start until release() (the test decides the order). */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  let arrived = 0;
  countHooks.beforeCount = async () => {
    arrived++;
    await opened;
  };
  return { release: () => open(), arrived: () => arrived };
}

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(cond()).toBe(true);
}

describe('background counts', () => {
  it('a newer search calls off the older count; asking again still gives the right total', async () => {
    const g = gate();
    const before = countHooks.superseded;
    const a = await queryEventsPage(store, ID, search('alpha'));
    expect(a.total).toBeNull(); // deferred
    await until(() => g.arrived() === 1); // alpha's count is running (held before its SQL)
    const b = await queryEventsPage(store, ID, search('beta'));
    expect(b.total).toBeNull();
    g.release();
    await until(() => countHooks.superseded === before + 1);
    countHooks.beforeCount = null;
    await store.settled();
    // beta's count landed; alpha's was called off and is computed when asked for.
    expect((await queryEventsPage(store, ID, search('beta'))).total).toBe(N / 3);
    expect(await countEvents(store, ID, search('alpha'))).toBe(N / 3);
    expect((await queryEventsPage(store, ID, search('alpha'))).total).toBe(N / 3); // now cached
  });

  it('asking for a count that is being called off waits for a fresh one', async () => {
    const g = gate();
    await queryEventsPage(store, ID, search('gamma'));
    await until(() => g.arrived() === 1);
    const asked = countEvents(store, ID, search('gamma')); // waits on the background count…
    await queryEventsPage(store, ID, search('row 1')); // …which this search calls off
    g.release();
    expect(await asked).toBe(N / 3);
    countHooks.beforeCount = null;
    await store.settled();
  });

  it('the same search twice shares one count', async () => {
    const g = gate();
    const before = countHooks.superseded;
    await queryEventsPage(store, ID, search('row 2'));
    await queryEventsPage(store, ID, search('row 2'));
    g.release();
    countHooks.beforeCount = null;
    await store.settled();
    expect(g.arrived()).toBe(1);
    expect(countHooks.superseded).toBe(before);
    expect(await countEvents(store, ID, search('row 2'))).toBe(1111);
  });
});
