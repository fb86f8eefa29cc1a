// State of the sessions view: per pseudonymous session, its events (the events API filtered by
// session) reduced to a lifecycle: created, used, expired (404), deleted (DELETE), reused after.
import type { SessionSummary } from '../../../../server/contract/analysis.ts';
import { describeError, getEvents, type EventRow } from '../api.ts';

export type MarkKind = 'created' | 'used' | 'error' | 'expired' | 'deleted' | 'reused';

export interface Mark {
  kind: MarkKind;
  ts: number;
  file: string;
  line: number;
  source: string;
  label: string;
}

export interface Lane {
  session: SessionSummary;
  marks: Mark[];
  events: number;
  first: number | null;
  last: number | null;
  truncated: boolean;
}

/** Events fetched per session: a lane is an overview. */
export const PER_SESSION = 2000;
/** Sessions loaded at once (the rest on demand). */
export const MAX_SESSIONS = 40;

export function lifecycle(rows: EventRow[]): Mark[] {
  const marks: Mark[] = [];
  let ended = false;
  let created = false;
  for (const r of rows) {
    if (r.ts === null) continue;
    const base = { ts: r.ts, file: r.file, line: r.line, source: r.source };
    const what = [r.httpMethod, r.method, r.httpStatus].filter((x) => x !== null && x !== undefined).join(' ');
    if (!created && (r.method === 'initialize' || marks.length === 0)) {
      marks.push({ ...base, kind: 'created', label: `created / first seen${what ? `: ${what}` : ''}` });
      created = true;
      continue;
    }
    if (r.httpMethod === 'DELETE') {
      marks.push({ ...base, kind: 'deleted', label: `deleted: DELETE${r.httpStatus ? ` → ${r.httpStatus}` : ''}` });
      ended = true;
    } else if (r.httpStatus === 404) {
      marks.push({ ...base, kind: 'expired', label: `expired: 404${r.method ? ` on ${r.method}` : ''}` });
      ended = true;
    } else if ((r.httpStatus ?? 0) >= 400 || r.level === 'error' || r.level === 'fatal') {
      marks.push({ ...base, kind: 'error', label: `error: ${what || r.message.slice(0, 80)}` });
    } else if (ended && (r.method || r.httpStatus)) {
      marks.push({ ...base, kind: 'reused', label: `used after it ended: ${what}` });
    } else if (r.method || r.httpStatus) {
      marks.push({ ...base, kind: 'used', label: `used: ${what}` });
    }
  }
  return marks;
}

export class SessionsState {
  readonly id: string;
  lanes = $state<Lane[]>([]);
  loading = $state(false);
  error = $state<string | null>(null);
  hidden = $state(0);

  range = $derived.by(() => {
    let lo = Infinity;
    let hi = -Infinity;
    for (const l of this.lanes) {
      if (l.first !== null && l.first < lo) lo = l.first;
      if (l.last !== null && l.last > hi) hi = l.last;
    }
    if (!Number.isFinite(lo)) return null;
    return { lo, hi: hi === lo ? lo + 1 : hi };
  });

  #ctrl = new AbortController();

  constructor(id: string) {
    this.id = id;
  }

  async load(sessions: SessionSummary[]): Promise<void> {
    this.loading = true;
    this.error = null;
    const shown = sessions.slice(0, MAX_SESSIONS);
    this.hidden = sessions.length - shown.length;
    try {
      this.lanes = await Promise.all(
        shown.map(async (s) => {
          const { rows, total } = await getEvents(this.id, { session: s.session, limit: PER_SESSION }, this.#ctrl.signal);
          const ts = rows.map((r) => r.ts).filter((t): t is number => t !== null);
          return {
            session: s,
            marks: lifecycle(rows),
            events: total ?? rows.length,
            first: ts.length ? Math.min(...ts) : null,
            last: ts.length ? Math.max(...ts) : null,
            truncated: (total ?? 0) > rows.length,
          };
        }),
      );
    } catch (e) {
      if (!this.#ctrl.signal.aborted) this.error = describeError(e);
    } finally {
      if (!this.#ctrl.signal.aborted) this.loading = false;
    }
  }

  dispose(): void {
    this.#ctrl.abort();
  }
}
