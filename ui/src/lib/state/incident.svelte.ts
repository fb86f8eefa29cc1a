// State of the incident page: the Analysis (validated JSON), the failure cursor for j/k,
// and an overview sample of events for the swimlane. The timeline has its own class.
import type { Analysis, Failure } from '../../../../server/contract/analysis.ts';
import { describeError, getAnalysis, getEvents, getHistogram, listIncidents, type EventRow, type IncidentSummary } from '../api.ts';

/** How many events the swimlane samples; the strip is an overview, not the timeline. */
export const OVERVIEW_LIMIT = 5000;

export class IncidentState {
  readonly id: string;
  analysis = $state<Analysis | null>(null);
  summary = $state<IncidentSummary | null>(null);
  loading = $state(true);
  error = $state<{ message: string; status: number } | null>(null);
  /** Index into analysis.failures of the row j/k points at, -1 for none. */
  cursor = $state(-1);
  overview = $state<EventRow[]>([]);
  overviewTruncated = $state(false);
  /** First and last timestamp of the whole incident (raw), so a zoomed sample still knows the whole. */
  extent = $state<{ lo: number; hi: number } | null>(null);

  failures = $derived<Failure[]>(this.analysis?.failures ?? []);
  selected = $derived<Failure | null>(this.cursor >= 0 ? (this.failures[this.cursor] ?? null) : null);
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

  move(delta: number): Failure | null {
    const n = this.failures.length;
    if (n === 0) return null;
    this.cursor = this.cursor < 0 ? (delta > 0 ? 0 : n - 1) : Math.max(0, Math.min(n - 1, this.cursor + delta));
    return this.selected;
  }

  dispose(): void {
    this.#overviewCtrl?.abort();
    this.#ctrl.abort();
  }
}
