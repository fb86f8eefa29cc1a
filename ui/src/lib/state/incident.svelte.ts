// State of the incident page: the Analysis (validated JSON), the failure cursor for j/k,
// and an overview sample of events for the swimlane. The timeline has its own class.
import type { Analysis, Failure } from '../../../../server/contract/analysis.ts';
import { describeError, getAnalysis, getEvents, getHistogram, listIncidents, type EventRow, type IncidentSummary } from '../api.ts';
import { foldLayout, visibleRows, type RowRef } from '../fold.ts';

/** How many events the swimlane samples; the strip is an overview, not the timeline. */
export const OVERVIEW_LIMIT = 5000;

export class IncidentState {
  readonly id: string;
  analysis = $state<Analysis | null>(null);
  summary = $state<IncidentSummary | null>(null);
  loading = $state(true);
  error = $state<{ message: string; status: number } | null>(null);
  /** Index into analysis.failures of the row j/k points at, -1 for none (or a folded group's row: cursorGroup). */
  cursor = $state(-1);
  /** The folded group's row j/k points at (its key), null when the cursor is on a failure or nowhere. */
  cursorGroup = $state<string | null>(null);
  /** Keys of the folded groups shown open (the URL's `expand`). */
  expanded = $state<ReadonlySet<string>>(new Set());
  overview = $state<EventRow[]>([]);
  overviewTruncated = $state(false);
  /** First and last timestamp of the whole incident (raw), so a zoomed sample still knows the whole. */
  extent = $state<{ lo: number; hi: number } | null>(null);

  failures = $derived<Failure[]>(this.analysis?.failures ?? []);
  selected = $derived<Failure | null>(this.cursor >= 0 ? (this.failures[this.cursor] ?? null) : null);
  /** Primary failures lead; the others are folded under their episode (lib/fold.ts). */
  layout = $derived(foldLayout(this.failures));
  /** The decision table's rows as shown, in order: what j/k walk. */
  rows = $derived<RowRef[]>(visibleRows(this.layout, this.expanded));
  totals = $derived.by(() => {
    const inputs = this.analysis?.inputs ?? [];
    return {
      files: inputs.length,
      lines: inputs.reduce((n, i) => n + i.lines, 0),
      events: inputs.reduce((n, i) => n + i.events, 0),
      unparsed: inputs.reduce((n, i) => n + i.unparsed, 0),
    };
  });
  /** file → source, so evidence links and the swimlane can colour by lane. */
  sourceOf = $derived(new Map((this.analysis?.inputs ?? []).map((i) => [i.file, i.source] as const)));

  #ctrl = new AbortController();

  constructor(id: string) {
    this.id = id;
  }

  async load(): Promise<void> {
    this.loading = true;
    this.error = null;
    const signal = this.#ctrl.signal;
    // The name and state live in the list; a failure there must not hide the analysis.
    listIncidents(signal)
      .then((all) => (this.summary = all.find((i) => i.id === this.id) ?? null))
      .catch(() => {});
    try {
      this.analysis = await getAnalysis(this.id, signal);
    } catch (e) {
      if (signal.aborted) return;
      const status = (e as { status?: number }).status ?? 0;
      this.error = { message: describeError(e), status };
    } finally {
      if (!signal.aborted) this.loading = false;
    }
    if (this.analysis) {
      // One bucket: just the incident's min/max timestamp.
      getHistogram(this.id, 1, signal)
        .then((h) => (this.extent = h.from !== null && h.to !== null ? { lo: h.from, hi: h.to } : null))
        .catch(() => {});
    }
  }

  #overviewCtrl: AbortController | null = null;

  /** The swimlane's sample: the first OVERVIEW_LIMIT events of the zoom window (or of everything). */
  async loadOverview(from: number | null = null, to: number | null = null): Promise<void> {
    this.#overviewCtrl?.abort();
    const ctrl = (this.#overviewCtrl = new AbortController());
    const signal = AbortSignal.any([ctrl.signal, this.#ctrl.signal]);
    try {
      const { rows, total } = await getEvents(this.id, { limit: OVERVIEW_LIMIT, from: from ?? undefined, to: to ?? undefined }, signal);
      if (signal.aborted) return;
      this.overviewTruncated = total !== null ? total > rows.length : rows.length >= OVERVIEW_LIMIT;
      this.overview = rows;
    } catch {
      /* the strip is optional; the timeline reports its own errors */
    }
  }

  /** Walk the visible rows (primary failures, folded groups, an open group's failures). */
  move(delta: number): Failure | null {
    const rows = this.rows;
    const n = rows.length;
    if (n === 0) return null;
    const at =
      this.cursorGroup !== null
        ? rows.findIndex((r) => r.kind === 'group' && r.key === this.cursorGroup)
        : this.cursor >= 0
          ? rows.findIndex((r) => r.kind === 'failure' && r.i === this.cursor)
          : -1;
    const next = rows[at < 0 ? (delta > 0 ? 0 : n - 1) : Math.max(0, Math.min(n - 1, at + delta))]!;
    if (next.kind === 'group') this.selectGroup(next.key);
    else this.select(next.i);
    return this.selected;
  }

  /** Point at failure i; a folded one's group opens so its row shows. */
  select(i: number): void {
    this.cursor = i;
    this.cursorGroup = null;
    const key = this.layout.groupOf.get(i);
    if (key !== undefined && !this.expanded.has(key)) this.expanded = new Set([...this.expanded, key]);
  }

  selectGroup(key: string): void {
    this.cursor = -1;
    this.cursorGroup = key;
  }

  /** Open or close a folded group. Closing it while pointing into it moves the cursor to its row. */
  toggle(key: string): void {
    const next = new Set(this.expanded);
    if (next.has(key)) {
      next.delete(key);
      if (this.cursor >= 0 && this.layout.groupOf.get(this.cursor) === key) this.selectGroup(key);
    } else next.add(key);
    this.expanded = next;
  }

  dispose(): void {
    this.#overviewCtrl?.abort();
    this.#ctrl.abort();
  }
}
