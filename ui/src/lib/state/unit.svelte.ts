// The unit-of-work drawer: every event of the request a timeline line belongs to (GET /unit).
import { describeError, getUnit, type Unit } from '../api.ts';

export class UnitState {
  readonly id: string;
  /** The line the user opened, `file:line`; null when the drawer is closed. */
  file = $state<string | null>(null);
  line = $state(0);
  unit = $state<Unit | null>(null);
  loading = $state(false);
  error = $state<string | null>(null);
  open = $derived(this.file !== null);
  files = $derived(new Set(this.unit?.events.map((e) => e.file) ?? []).size);

  #ctrl: AbortController | null = null;

  constructor(id: string) {
    this.id = id;
  }

  async show(file: string, line: number): Promise<void> {
    if (this.file === file && this.line === line && (this.unit || this.loading)) return;
    this.#ctrl?.abort();
    const ctrl = (this.#ctrl = new AbortController());
    this.file = file;
    this.line = line;
    this.loading = true;
    this.error = null;
    try {
      this.unit = await getUnit(this.id, file, line, ctrl.signal);
    } catch (e) {
      if (!ctrl.signal.aborted) {
        this.error = describeError(e);
        this.unit = null;
      }
    } finally {
      if (this.#ctrl === ctrl) this.loading = false;
    }
  }

  close(): void {
    this.#ctrl?.abort();
    this.file = null;
    this.unit = null;
    this.loading = false;
  }

  dispose(): void {
    this.#ctrl?.abort();
  }
}
