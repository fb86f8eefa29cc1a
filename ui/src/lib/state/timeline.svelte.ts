// The timeline: one server-side page of Arrow rows at a time, with filters, and a
// "jump to file:line" that finds which page holds an evidence line.
import { countEvents, describeError, getEvents, SIGNAL_ID, type EventFilter, type EventRow } from '../api.ts';
import { evidenceKey } from '../format.ts';

export const PAGE_SIZE = 100;
/** The events API caps limit at 100 000. */
const MAX_LIMIT = 100_000;
/** Rows fetched per request by the fallback scan. */
const SCAN_CHUNK = 5000;
const SCAN_MAX = 200_000;

export class TimelineState {
  readonly id: string;
  source = $state('');
  level = $state('');
  q = $state('');
  /** One signal id (`?signal=`): rows whose signals hold it; '' for any. Only ever a valid id (SIGNAL_ID). */
  signal = $state('');
  /** The swimlane's zoom window (epoch ms, inclusive), null = unbounded. */
  from = $state<number | null>(null);
  to = $state<number | null>(null);
  offset = $state(0);
  rows = $state<EventRow[]>([]);
  /** Rows matching the filters (X-Total-Count), null if unknown. */
  total = $state<number | null>(null);
  /** The server is counting a search's matches (the total follows). */
  counting = $state(false);
  hasMore = $state(false);
  loading = $state(false);
  loaded = $state(false);
  error = $state<string | null>(null);
  /** `file:line` of the highlighted row: the start line of the event an evidence link points into. */
  highlight = $state<string | null>(null);
  notice = $state<string | null>(null);

  filtered = $derived(this.source !== '' || this.level !== '' || this.q !== '' || this.signal !== '' || this.from !== null || this.to !== null);
  page = $derived(Math.floor(this.offset / PAGE_SIZE) + 1);
  pages = $derived(this.total === null ? null : Math.max(1, Math.ceil(this.total / PAGE_SIZE)));

  #ctrl: AbortController | null = null;
  /** The filter (as JSON) that `total` counts. */
  #counted: string | null = null;
  #qTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(id: string) {
    this.id = id;
  }

  get filter(): EventFilter {
    return { source: this.source, level: this.level, q: this.q.trim(), signal: this.signal, from: this.from ?? undefined, to: this.to ?? undefined };
  }

  async load(): Promise<void> {
    this.#ctrl?.abort();
    const ctrl = (this.#ctrl = new AbortController());
    this.loading = true;
    this.error = null;
    try {
      // One extra row says whether there is a next page even if the server sends no total.
      const filter = this.filter;
      const { rows, total, counting } = await getEvents(this.id, { ...filter, limit: PAGE_SIZE + 1, offset: this.offset }, ctrl.signal);
      this.hasMore = rows.length > PAGE_SIZE;
      this.rows = rows.slice(0, PAGE_SIZE);
      // Paging to another page of the same search keeps the total already counted.
      if (total !== null || JSON.stringify(filter) !== this.#counted) this.total = total;
      this.#counted = total !== null ? JSON.stringify(filter) : this.#counted;
      this.loaded = true;
      this.counting = this.total === null && counting;
      if (this.counting) void this.#count(filter, ctrl);
    } catch (e) {
      if (ctrl.signal.aborted) return;
      this.error = describeError(e);
      this.rows = [];
      this.hasMore = false;
    } finally {
      if (this.#ctrl === ctrl) this.loading = false;
    }
  }

  /** A search's count arrives after its first page: fill it in unless the filter changed meanwhile. */
  async #count(filter: EventFilter, ctrl: AbortController): Promise<void> {
    try {
      const n = await countEvents(this.id, filter, ctrl.signal);
      if (ctrl.signal.aborted || JSON.stringify(filter) !== JSON.stringify(this.filter)) return;
      this.total = n;
      this.#counted = JSON.stringify(filter);
      this.counting = false;
    } catch {
      // No total (or a newer load took over): paging still works from the extra row.
      if (!ctrl.signal.aborted) this.counting = false;
    }
  }

  setSource(v: string): void {
    this.source = v;
    this.#refilter();
  }

  setLevel(v: string): void {
    this.level = v;
    this.#refilter();
  }

  /** Keep the rows with this signal ('' for any). Returns false (and changes nothing) for what is not a signal id. */
  setSignal(v: string): boolean {
    const id = v.trim().toLowerCase();
    if (id !== '' && !SIGNAL_ID.test(id)) return false;
    if (id === this.signal) return true;
    this.signal = id;
    this.#refilter();
    return true;
  }

  /** Typing in the search box: debounce so each keystroke is not a query. */
  setQuery(v: string, immediate = false): void {
    this.q = v;
    clearTimeout(this.#qTimer);
    if (immediate) this.#refilter();
    else this.#qTimer = setTimeout(() => this.#refilter(), 250);
  }

  /** The swimlane's zoom window; null, null = everything. */
  setWindow(from: number | null, to: number | null): void {
    if (from === this.from && to === this.to) return;
    this.from = from;
    this.to = to;
    this.#refilter();
  }

  clearFilters(): void {
    this.source = this.level = this.q = this.signal = '';
    this.from = this.to = null;
    clearTimeout(this.#qTimer);
    this.#refilter();
  }

  #refilter(): void {
    this.offset = 0;
    this.notice = null;
    void this.load();
  }

  goto(offset: number): void {
    const last = this.total !== null ? Math.max(0, (Math.ceil(this.total / PAGE_SIZE) - 1) * PAGE_SIZE) : Infinity;
    const next = Math.max(0, Math.min(offset, last));
    if (next === this.offset) return;
    this.offset = next;
    void this.load();
  }

  next(): void {
    if (this.hasMore) this.goto(this.offset + PAGE_SIZE);
  }

  prev(): void {
    this.goto(this.offset - PAGE_SIZE);
  }

  first(): void {
    this.goto(0);
  }

  last(): void {
    if (this.total !== null) this.goto(this.total - 1);
  }

  /**
   * Bring the event holding `file:line` into the current page and highlight it.
   * 1. find the event in that file (`file` filter) whose lines span `line`;
   * 2. its position under the current filters = rows before its timestamp (X-Total-Count of
   *    `to=ts-1`) + its place among rows with the same timestamp (server order: ts, seq);
   * 3. if the filters hide it, clear them and say so.
   */
  async jumpTo(file: string, line: number): Promise<boolean> {
    this.notice = null;
    this.error = null;
    const wanted = evidenceKey(file, line);
    const here = this.rows.find((r) => r.file === file && r.line <= line && line <= r.endLine);
    if (here) {
      this.highlight = evidenceKey(here.file, here.line);
      return true;
    }
    try {
      const target = await this.#findEvent(file, line);
      if (!target) {
        this.highlight = wanted;
        this.notice = `${wanted} is not in the timeline (no event starts at or before that line in ${file}).`;
        return false;
      }
      let index = await this.#indexOf(target, this.filter);
      if (index === null && this.filtered) {
        index = await this.#indexOf(target, {});
        if (index !== null) {
          this.source = this.level = this.q = this.signal = '';
          this.from = this.to = null;
          this.notice = `Filters cleared to show ${wanted}.`;
        }
      }
      this.highlight = evidenceKey(target.file, target.line);
      if (index === null) {
        this.notice = `Could not place ${wanted} in the timeline.`;
        return false;
      }
      if (target.line !== line) this.notice = `${wanted} is inside the event that starts at line ${target.line}.`;
      this.offset = Math.floor(index / PAGE_SIZE) * PAGE_SIZE;
      await this.load();
      return true;
    } catch (e) {
      this.error = describeError(e);
      return false;
    }
  }

  async #findEvent(file: string, line: number): Promise<EventRow | null> {
    const { rows } = await getEvents(this.id, { file, limit: MAX_LIMIT });
    let best: EventRow | null = null;
    for (const r of rows) {
      if (r.file !== file) continue;
      if (r.line === line) return r;
      if (r.line < line && line <= r.endLine) return r;
      if (r.line < line && (!best || r.line > best.line)) best = r;
    }
    return best;
  }

  async #indexOf(target: EventRow, filter: EventFilter): Promise<number | null> {
    if (target.ts !== null) {
      const before = await getEvents(this.id, { ...filter, to: target.ts - 1, limit: 1 });
      if (before.total !== null) {
        const same = await getEvents(this.id, { ...filter, from: target.ts, to: target.ts, limit: MAX_LIMIT });
        const pos = same.rows.findIndex((r) => r.file === target.file && r.line === target.line);
        return pos < 0 ? null : before.total + pos;
      }
    }
    // No timestamp (sorted last) or no total from the server: scan in chunks.
    for (let offset = 0; offset < SCAN_MAX; offset += SCAN_CHUNK) {
      const { rows } = await getEvents(this.id, { ...filter, limit: SCAN_CHUNK, offset });
      const hit = rows.find((r) => r.file === target.file && r.line === target.line);
      if (hit) return hit.index;
      if (rows.length < SCAN_CHUNK) break;
    }
    return null;
  }

  dispose(): void {
    this.#ctrl?.abort();
    clearTimeout(this.#qTimer);
  }
}
