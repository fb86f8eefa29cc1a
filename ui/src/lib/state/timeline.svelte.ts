// The timeline: one server-side page of Arrow rows at a time, with filters and a
// "jump to file:line" that finds which page holds an evidence line.
import { describeError, getEvents, type EventFilter, type EventRow } from '../api.ts';
import { evidenceKey } from '../format.ts';

export const PAGE_SIZE = 100;
/** Rows fetched per request while searching for an evidence line. */
const LOCATE_CHUNK = 5000;
/** Give up locating after this many rows (the link then says so). */
const LOCATE_MAX = 200_000;

export class TimelineState {
  readonly id: string;
  source = $state('');
  level = $state('');
  q = $state('');
  offset = $state(0);
  rows = $state<EventRow[]>([]);
  hasMore = $state(false);
  loading = $state(false);
  loaded = $state(false);
  error = $state<string | null>(null);
  /** `file:line` of the highlighted row (from an evidence link). */
  highlight = $state<string | null>(null);
  notice = $state<string | null>(null);

  filtered = $derived(this.source !== '' || this.level !== '' || this.q !== '');
  page = $derived(Math.floor(this.offset / PAGE_SIZE) + 1);

  #ctrl: AbortController | null = null;
  #qTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(id: string) {
    this.id = id;
  }

  get filter(): EventFilter {
    return { source: this.source, level: this.level, q: this.q.trim() };
  }

  async load(): Promise<void> {
    this.#ctrl?.abort();
    const ctrl = (this.#ctrl = new AbortController());
    this.loading = true;
    this.error = null;
    try {
      // One extra row tells us whether there is a next page without a count query.
      const rows = await getEvents(this.id, { ...this.filter, limit: PAGE_SIZE + 1, offset: this.offset }, ctrl.signal);
      this.hasMore = rows.length > PAGE_SIZE;
      this.rows = rows.slice(0, PAGE_SIZE);
      this.loaded = true;
    } catch (e) {
      if (ctrl.signal.aborted) return;
      this.error = describeError(e);
      this.rows = [];
      this.hasMore = false;
    } finally {
      if (this.#ctrl === ctrl) this.loading = false;
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

  /** Typing in the search box: debounce so each keystroke is not a query. */
  setQuery(v: string, immediate = false): void {
    this.q = v;
    clearTimeout(this.#qTimer);
    if (immediate) this.#refilter();
    else this.#qTimer = setTimeout(() => this.#refilter(), 250);
  }

  clearFilters(): void {
    this.source = this.level = this.q = '';
    this.#refilter();
  }

  #refilter(): void {
    this.offset = 0;
    this.notice = null;
    void this.load();
  }

  next(): void {
    if (!this.hasMore) return;
    this.offset += PAGE_SIZE;
    void this.load();
  }

  prev(): void {
    if (this.offset === 0) return;
    this.offset = Math.max(0, this.offset - PAGE_SIZE);
    void this.load();
  }

  first(): void {
    if (this.offset === 0) return;
    this.offset = 0;
    void this.load();
  }

  /**
   * Bring `file:line` into the current page and highlight it. The events API has no
   * file/line filter, so scan the filtered result in chunks (cheap columns, localhost);
   * if the current filters hide the line, clear them and scan again. A line inside a
   * multi-line block resolves to the block's first line.
   */
  async jumpTo(file: string, line: number): Promise<boolean> {
    this.notice = null;
    const exact = evidenceKey(file, line);
    const here = this.rows.find((r) => r.file === file && r.line === line);
    if (here) {
      this.highlight = exact;
      return true;
    }
    let found = await this.#locate(file, line, this.filter);
    if (found === null && this.filtered) {
      found = await this.#locate(file, line, {});
      if (found !== null) {
        this.source = this.level = this.q = '';
        this.notice = `Filters cleared to show ${exact}.`;
      }
    }
    if (found === null) {
      this.highlight = exact;
      this.notice = `${exact} is not in the timeline (it may be an unparsed or folded line).`;
      return false;
    }
    this.highlight = evidenceKey(file, found.line);
    if (found.line !== line) this.notice = `${exact} is part of the event that starts at line ${found.line}.`;
    this.offset = Math.floor(found.index / PAGE_SIZE) * PAGE_SIZE;
    await this.load();
    return true;
  }

  async #locate(file: string, line: number, filter: EventFilter): Promise<{ index: number; line: number } | null> {
    let best: { index: number; line: number } | null = null;
    for (let offset = 0; offset < LOCATE_MAX; offset += LOCATE_CHUNK) {
      let rows: EventRow[];
      try {
        rows = await getEvents(this.id, { ...filter, limit: LOCATE_CHUNK, offset });
      } catch (e) {
        this.error = describeError(e);
        return best;
      }
      for (const r of rows) {
        if (r.file !== file) continue;
        if (r.line === line) return { index: r.index, line };
        if (r.line < line && (!best || r.line > best.line)) best = { index: r.index, line: r.line };
      }
      if (rows.length < LOCATE_CHUNK) break;
    }
    return best;
  }

  dispose(): void {
    this.#ctrl?.abort();
    clearTimeout(this.#qTimer);
  }
}
