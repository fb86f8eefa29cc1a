// The signal table (GET /api/signals), loaded once per page: ids → titles for the chips'
// tooltips and the timeline's signal filter. It never changes while the server runs.
import type { SignalInfo } from '../../../../server/contract/signals.ts';
import { getSignals } from '../api.ts';

const HTTP = /^http-(\d{3})$/;

export class SignalCatalog {
  byId = $state<ReadonlyMap<string, SignalInfo>>(new Map());
  /** Ids in table order (the datalist's order). */
  ids = $derived([...this.byId.keys()]);
  failed = $state(false);
  #loading: Promise<void> | null = null;

  load(): Promise<void> {
    this.#loading ??= getSignals()
      .then((list) => {
        this.byId = new Map(list.map((s) => [s.id, s]));
        this.failed = false;
      })
      .catch(() => {
        // Chips still show their ids; the next view that asks tries again.
        this.failed = true;
        this.#loading = null;
      });
    return this.#loading;
  }

  /** What a person reads for an id: the table's title; `http-NNN` says itself. */
  title(id: string): string {
    const s = this.byId.get(id);
    if (s) return s.title;
    const m = HTTP.exec(id);
    if (m) return `The line carries HTTP status ${m[1]} (every non-2xx status is a signal)`;
    return this.failed ? `${id} (the signal table could not be loaded)` : id;
  }

  /** failure, recovery, completion, context or noise; `http-NNN` is a failure from 400 up. */
  outcome(id: string): string {
    const s = this.byId.get(id);
    if (s) return s.outcome;
    const m = HTTP.exec(id);
    return m ? (Number(m[1]) >= 400 ? 'failure' : 'context') : 'context';
  }
}

export const signalCatalog = new SignalCatalog();
