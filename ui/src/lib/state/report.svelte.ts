// State of the report view: the redacted report from the server, the user's extra cuts
// ("remove more": only ever more text taken away), and the copy / download actions.
import { describeError, getReport, refusedAt, type RefusedAt, type ReportDoc } from '../api.ts';
import { applyCuts, parseMarkdown, splitPlaceholders, type Block, type Cut } from '../../../../server/triage/report/markdown-tree.ts';

export class ReportState {
  readonly id: string;
  doc = $state<ReportDoc | null>(null);
  loading = $state(true);
  error = $state<string | null>(null);
  /** When the server refused the report: where its leak check fired (report line, rule, evidence line). */
  refused = $state<RefusedAt[]>([]);
  /** Evidence lines (`file:line`) the user left out after a refusal; sent with every rebuild. */
  excluded = $state<string[]>([]);
  /** Each user action is one group of cuts, so "undo" takes back the last action. */
  cuts = $state<Cut[][]>([]);
  /** Show the Markdown source to select ranges or lines to remove. */
  removing = $state(false);
  /** Last copy/download outcome, for a status line. */
  status = $state<{ ok: boolean; text: string } | null>(null);

  /** What leaves the machine: the server's report with the user's cuts applied. */
  markdown = $derived(this.doc ? applyCuts(this.doc.markdown, this.cuts.flat()) : '');
  blocks = $derived<Block[]>(parseMarkdown(this.markdown));
  sourceLines = $derived(this.markdown.split('\n'));
  originalLines = $derived(this.doc ? this.doc.markdown.split('\n') : []);
  removedCount = $derived(this.cuts.length);
  /** Placeholders in the outgoing text, by kind. */
  placeholders = $derived.by(() => {
    const n = { redacted: 0, session: 0, pseudonym: 0, string: 0, removed: 0 };
    // As read: Markdown escapes (sess\_x) do not hide a placeholder.
    for (const p of splitPlaceholders(this.markdown.replace(/\\([\\`*_[\]|<>])/g, '$1'))) if (p.kind) n[p.kind]++;
    return n;
  });
  redactionRows = $derived(Object.entries(this.doc?.redactions ?? {}).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
  redactionTotal = $derived(this.redactionRows.reduce((n, [, c]) => n + c, 0));

  #ctrl = new AbortController();

  constructor(id: string) {
    this.id = id;
  }

  async load(): Promise<void> {
    this.loading = true;
    this.error = null;
    this.refused = [];
    try {
      this.doc = await getReport(this.id, this.#ctrl.signal, this.excluded);
    } catch (e) {
      if (!this.#ctrl.signal.aborted) {
        this.error = describeError(e);
        this.refused = refusedAt(e);
      }
    } finally {
      if (!this.#ctrl.signal.aborted) this.loading = false;
    }
  }

  /**
   * Cuts are kept against the ORIGINAL lines; the source view shows the cut text, so map a range
   * of a displayed (already cut) line back to original columns before storing it.
   */
  removeRanges(ranges: readonly Cut[]): number {
    const group = ranges.map((r) => this.#toOriginal(r.line, r.start, r.end)).filter((c): c is Cut => c !== null);
    if (group.length) this.cuts = [...this.cuts, group];
    return group.length;
  }

  removeLines(lines: number[]): void {
    const group = lines.map((l) => ({ line: l, start: 0, end: this.originalLines[l]?.length ?? 0 })).filter((c) => c.end > 0);
    if (group.length) this.cuts = [...this.cuts, group];
  }

  /** The answer to a refusal: drop that evidence line from the report and build it again. */
  async excludeEvidence(place: { file: string; line: number }): Promise<void> {
    const key = `${place.file}:${place.line}`;
    if (!this.excluded.includes(key)) this.excluded = [...this.excluded, key];
    this.cuts = []; // cuts are kept against the old text's lines
    await this.load();
  }

  async restoreEvidence(): Promise<void> {
    this.excluded = [];
    this.cuts = [];
    await this.load();
  }

  undo(): void {
    this.cuts = this.cuts.slice(0, -1);
  }

  reset(): void {
    this.cuts = [];
  }

  #toOriginal(line: number, start: number, end: number): Cut | null {
    const orig = this.originalLines[line];
    if (orig === undefined || end <= start) return null;
    // Rebuild the displayed line char by char, remembering which original column each came from
    // (-1 for characters of an inserted [REMOVED] marker).
    const mine = this.cuts.flat().filter((c) => c.line === line);
    const mask = new Uint8Array(orig.length);
    for (const c of mine) for (let k = Math.max(0, c.start); k < Math.min(orig.length, c.end); k++) mask[k] = 1;
    const cols: number[] = [];
    for (let k = 0; k < orig.length; k++) {
      if (!mask[k]) cols.push(k);
      else if (k === 0 || !mask[k - 1]) for (let r = 0; r < '[REMOVED]'.length; r++) cols.push(-1);
    }
    const picked = cols.slice(start, end).filter((c) => c >= 0);
    if (!picked.length) return null;
    return { line, start: Math.min(...picked), end: Math.max(...picked) + 1 };
  }

  async copy(): Promise<boolean> {
    const text = this.markdown;
    try {
      await navigator.clipboard.writeText(text);
      this.status = {
        ok: true,
        text: `Copied ${text.length.toLocaleString('en-US')} characters of Markdown${this.removedCount ? ` (${this.removedCount} removal${this.removedCount === 1 ? '' : 's'} applied)` : ''}.`,
      };
      return true;
    } catch (e) {
      this.status = { ok: false, text: `Could not copy: ${describeError(e)}. Use Download instead.` };
      return false;
    }
  }

  download(): void {
    const blob = new Blob([this.markdown], { type: 'text/markdown;charset=utf-8' });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = `${this.id}-report.md`;
    a.rel = 'noopener';
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    this.status = { ok: true, text: `Downloaded ${a.download}.` };
  }

  dispose(): void {
    this.#ctrl.abort();
  }
}
