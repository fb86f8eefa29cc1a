// What the routes share to serve a team: the admission lanes (admission.ts), the answers cached
// per incident version (answers.ts) and the incident list, read once per version of the store.
import { TriageError } from '../errors.ts';
import { assertIncident, type IncidentRow } from '../store/store.ts';
import type { ServedStore } from './backend.ts';
import { ClientGone, makeLanes, type LaneLimits, type Lanes, type ReplyLike } from './admission.ts';
import { AnswerCache } from './answers.ts';

export interface ServingLimits {
  read?: Partial<LaneLimits>;
  sql?: Partial<LaneLimits>;
}

export class Serving {
  readonly lanes: Lanes;
  readonly answers: AnswerCache;
  private list: { version: number; rows: Promise<IncidentRow[]> } | null = null;

  constructor(
    readonly store: ServedStore,
    limits: ServingLimits = {},
  ) {
    this.lanes = makeLanes(limits);
    this.answers = new AnswerCache(store);
  }

  /** Every incident, as GET /api/incidents lists them: one query per version of the store. */
  async incidents(): Promise<IncidentRow[]> {
    const v = await this.store.version();
    let memo = this.list;
    if (memo?.version !== v) {
      const rows = this.store.listIncidents();
      const mine = { version: v, rows };
      memo = this.list = mine;
      rows.catch(() => {
        if (this.list === mine) this.list = null;
      });
    }
    return memo.rows;
  }

  /** The incident's row, or 404. */
  async incident(id: string): Promise<IncidentRow> {
    return assertIncident((await this.incidents()).find((r) => r.id === id) ?? null, id);
  }

  /** Run store work for this request in a read slot (429/503 past the bounds). */
  read<T>(reply: ReplyLike, fn: () => Promise<T>): Promise<T> {
    return this.lanes.read.run(reply, fn);
  }

  /**
   * The answer under `key` (AnswerCache.key: kind, incident, version, parameters): kept, or
   * computed by `compute` in a read slot. A kept answer takes no slot. When the request that was
   * computing it for others left while it waited, the next one computes it; when it was refused
   * (429/503), the others sharing it are refused alike, with the same Retry-After.
   */
  async cached(reply: ReplyLike, key: string, compute: () => Promise<string>): Promise<string> {
    for (let tries = 0; ; tries++) {
      const kept = this.answers.peek(key);
      try {
        if (kept) {
          const s = await kept;
          reply.header('Server-Timing', 'cache;desc=hit');
          return s;
        }
        return await this.answers.get(key, () => this.read(reply, compute));
      } catch (e) {
        if (kept && e instanceof ClientGone && tries < 3) continue;
        const retry = e instanceof TriageError ? e.details?.retryAfterSeconds : undefined;
        if (kept && retry !== undefined) reply.header('Retry-After', String(retry));
        throw e;
      }
    }
  }
}
