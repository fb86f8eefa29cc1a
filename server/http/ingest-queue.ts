// The line for uploads. Ingests used to run one at a time through the store's one writer, so a
// small upload waited ~10 s behind a large one, and any number of uploads could be on disk at once.
// Now, after an upload is received:
//   - it takes its turn in one of two lines by its size: `small` (under SMALL_BYTES in all) or
//     `large`; each line runs one ingest at a time, and the two run side by side (each ingest has
//     its own connection, Store.ingest), so a small upload never waits behind a large one, and at
//     most two ingests share the two cores;
//   - while it waits, its progress says so: phase `queued`, `position` 1 = next (progress.ts);
//   - a client that goes away while it waits leaves the line (nothing was written).
// Uploads held by the server at once (receiving, waiting, ingesting) are bounded by `held`: the
// next one is refused before its body is read, 503 TRIAGE_ERR_OVERLOADED with Retry-After, so the
// disk holds at most `held` uploads in progress.
import { TriageError } from '../errors.ts';
import type { ReplyLike } from './admission.ts';
import { ClientGone } from './admission.ts';

export const SMALL_BYTES = 8 * 1024 * 1024;

export interface IngestLimits {
  /** Uploads the server holds at once (receiving, waiting or ingesting). */
  held: number;
  /** Uploads under this many bytes go to the small line. */
  smallBytes: number;
}

export const INGEST_LIMITS: IngestLimits = { held: 16, smallBytes: SMALL_BYTES };

interface Waiter {
  start: () => void;
  place: (position: number) => void;
}

class Line {
  busy = false;
  readonly waiting: Waiter[] = [];

  tell(): void {
    this.waiting.forEach((w, i) => w.place(i + 1));
  }
}

export class IngestQueue {
  private heldNow = 0;
  private readonly lines = { small: new Line(), large: new Line() };
  /** Recent ingest time (ms, moving average), for Retry-After. */
  private ingestMs = 10_000;

  constructor(readonly limits: IngestLimits = INGEST_LIMITS) {}

  get stats(): { held: number; small: { busy: boolean; waiting: number }; large: { busy: boolean; waiting: number } } {
    const l = (x: Line) => ({ busy: x.busy, waiting: x.waiting.length });
    return { held: this.heldNow, small: l(this.lines.small), large: l(this.lines.large) };
  }

  /**
   * An upload arrives: hold a place for it until `release()` (call it once the request is over),
   * or 503 with Retry-After on `reply` when the server holds `limits.held` already.
   */
  admit(reply: ReplyLike): { release(): void } {
    if (this.heldNow >= this.limits.held) {
      const s = Math.max(1, Math.min(120, Math.ceil(this.ingestMs / 1000)));
      reply.header('Retry-After', String(s));
      throw new TriageError('TRIAGE_ERR_OVERLOADED', `the server is busy: ${this.heldNow} uploads are being received or ingested; retry in ${s} s`, {
        retryAfterSeconds: s,
        held: this.heldNow,
      });
    }
    this.heldNow++;
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        this.heldNow--;
      },
    };
  }

  /**
   * Wait for this upload's turn in its line (by `bytes`), telling `onPlace` its place while it
   * waits (1 = next), then run `fn`. ClientGone when `signal` aborts while it waits.
   */
  async run<T>(bytes: number, signal: AbortSignal, onPlace: (position: number) => void, fn: () => Promise<T>): Promise<T> {
    const line = bytes < this.limits.smallBytes ? this.lines.small : this.lines.large;
    if (line.busy || line.waiting.length) {
      await new Promise<void>((started, gone) => {
        const w: Waiter = { start: () => undefined, place: onPlace };
        const leave = () => {
          const i = line.waiting.indexOf(w);
          if (i >= 0) line.waiting.splice(i, 1);
          signal.removeEventListener('abort', aborted);
        };
        const aborted = () => {
          leave();
          line.tell();
          gone(new ClientGone());
        };
        w.start = () => {
          leave();
          started();
        };
        signal.addEventListener('abort', aborted, { once: true });
        line.waiting.push(w);
        onPlace(line.waiting.length);
        if (signal.aborted) aborted();
      });
    } else line.busy = true;
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      if (line === this.lines.large) this.ingestMs = this.ingestMs * 0.7 + (performance.now() - t0) * 0.3;
      const next = line.waiting.shift();
      if (next) {
        next.start(); // the line stays busy: it is the next one's now
        line.tell();
      } else line.busy = false;
    }
  }
}
