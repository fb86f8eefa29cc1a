// Admission: a bound on the requests that work the database at once, and on how long a request
// waits for its turn. Without it a shared server on two cores took every request and answered
// them all slowly (64 clients: event pages p95 7.6 s, reports p99 9.2 s, no errors): a client could
// not tell a slow answer from a lost one. Now a request runs at once, waits in line (first come,
// first served) for at most `waitMs`, or is refused with a Retry-After:
//   - 429 TRIAGE_ERR_TOO_MANY_REQUESTS: the line is full (`queue` requests already wait);
//   - 503 TRIAGE_ERR_OVERLOADED: it waited `waitMs` and no slot came free.
// Retry-After (seconds) is the time the line ahead takes to drain at the recent service time.
// Every admitted answer says how long it waited: `Server-Timing: queue;dur=<ms>`.
// A request whose client goes away while it waits leaves the line without running.
// Cheap routes (health, progress, signals, static files) and answers already cached (answers.ts)
// do not take a slot; uploads have their own line (ingest-queue.ts).
import { TriageError } from '../errors.ts';

/** What a lane needs of a reply: to set headers, and to hear the connection close. */
export interface ReplyLike {
  header(name: string, value: string): unknown;
  raw: { once(event: 'close', f: () => void): unknown; off(event: 'close', f: () => void): unknown };
}

export interface LaneLimits {
  /** Requests of this lane that run at once. */
  active: number;
  /** Requests that may wait for a slot; one more is a 429. */
  queue: number;
  /** Longest wait for a slot; past it, a 503. */
  waitMs: number;
}

/** Reads that query the store (pages, counts, analysis, report, histogram, unit, lists). */
export const READ_LIMITS: LaneLimits = { active: 4, queue: 48, waitMs: 2000 };
/** The SQL console: each query may use the database's whole memory budget, so one at a time. */
export const SQL_LIMITS: LaneLimits = { active: 1, queue: 4, waitMs: 2000 };

interface Waiter {
  grant: () => void;
  /** Refuse it as having waited its longest (its timer may not have run yet on a busy loop). */
  expire: () => void;
  since: number;
}

/** Thrown for a request whose client left while it waited: nobody reads the answer. */
export class ClientGone extends Error {
  constructor() {
    super('the client closed the connection while the request waited for its turn');
    this.name = 'ClientGone';
  }
}

export class Lane {
  private running = 0;
  private readonly line: Waiter[] = [];
  /** Recent run time of one request (ms, moving average): what Retry-After is estimated from. */
  private serviceMs = 100;

  constructor(
    readonly name: string,
    readonly limits: LaneLimits,
  ) {
    if (!(limits.active >= 1) || !(limits.queue >= 0) || !(limits.waitMs >= 0)) throw new TriageError('TRIAGE_ERR_USAGE', `bad limits for ${name}: ${JSON.stringify(limits)}`);
  }

  get stats(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.line.length };
  }

  /** Seconds until a request joining now could expect a slot, at least 1. */
  retryAfter(ahead = this.line.length): number {
    return Math.max(1, Math.min(60, Math.ceil(((ahead + 1) * this.serviceMs) / this.limits.active / 1000)));
  }

  /**
   * Run `fn` in a slot of this lane. Waits for one at most `limits.waitMs`; refuses with 429 / 503
   * (and Retry-After on `reply`) when the line is full or the wait ran out; ClientGone when the
   * client closes the connection while waiting. Sets Server-Timing: queue;dur=<ms waited>.
   */
  async run<T>(reply: ReplyLike, fn: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    await this.enter(reply);
    const waited = performance.now() - t0;
    reply.header('Server-Timing', `queue;dur=${waited.toFixed(1)}`);
    const started = performance.now();
    try {
      return await fn();
    } finally {
      this.serviceMs = this.serviceMs * 0.8 + (performance.now() - started) * 0.2;
      this.leave();
    }
  }

  private async enter(reply: ReplyLike): Promise<void> {
    if (this.running < this.limits.active && this.line.length === 0) {
      this.running++;
      return;
    }
    if (this.line.length >= this.limits.queue) {
      const s = this.retryAfter();
      reply.header('Retry-After', String(s));
      throw new TriageError(
        'TRIAGE_ERR_TOO_MANY_REQUESTS',
        `too many requests waiting (${this.line.length} ${this.name} requests ahead, ${this.limits.active} running); retry in ${s} s`,
        {
          lane: this.name,
          retryAfterSeconds: s,
          waiting: this.line.length,
          active: this.limits.active,
        },
      );
    }
    await new Promise<void>((granted, refused) => {
      const w: Waiter = { since: performance.now(), grant: () => undefined, expire: () => undefined };
      const out = () => {
        const i = this.line.indexOf(w);
        if (i >= 0) this.line.splice(i, 1);
        clearTimeout(timer);
        reply.raw.off('close', gone);
      };
      const gone = () => {
        out();
        refused(new ClientGone());
      };
      const expire = () => {
        out();
        const s = this.retryAfter();
        reply.header('Retry-After', String(s));
        refused(
          new TriageError('TRIAGE_ERR_OVERLOADED', `the server is busy: no ${this.name} slot came free within ${this.limits.waitMs} ms; retry in ${s} s`, {
            lane: this.name,
            retryAfterSeconds: s,
            waitedMs: this.limits.waitMs,
          }),
        );
      };
      const timer = setTimeout(expire, this.limits.waitMs);
      w.expire = expire;
      w.grant = () => {
        out();
        granted();
      };
      reply.raw.once('close', gone);
      this.line.push(w);
    });
  }

  private leave(): void {
    // The slot passes on (running stays the same) to the first who has not waited past the bound:
    // on a busy event loop a wait's timer can run late, and no one starts after waiting longer.
    for (let next = this.line.shift(); next; next = this.line.shift()) {
      if (performance.now() - next.since > this.limits.waitMs) {
        next.expire();
        continue;
      }
      next.grant();
      return;
    }
    this.running--;
  }
}

export interface Lanes {
  read: Lane;
  sql: Lane;
}

export function makeLanes(limits: Partial<Record<keyof Lanes, Partial<LaneLimits>>> = {}): Lanes {
  return {
    read: new Lane('read', { ...READ_LIMITS, ...limits.read }),
    sql: new Lane('sql', { ...SQL_LIMITS, ...limits.sql }),
  };
}
