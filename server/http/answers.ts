// Answers cached per incident version. The analysis document, the report and the histogram of an
// incident change only when the incident does (Store.version: bumped after every committed write
// to it), yet each was computed again for every request: the report of a 64 MiB incident took
// ~0.7 s of a core each time. Now the first request computes it and every request at the same
// version gets the same bytes; a write to the incident changes the version, so the next request
// computes it afresh (the old entry ages out). Concurrent requests for one missing answer share
// one computation. Failed computations are not kept.
//
// Bounded: at most MAX_ENTRIES answers and MAX_BYTES of them (strings, counted in UTF-16 units ×2),
// least recently used first out. An answer larger than a quarter of MAX_BYTES is served but not kept.
/** What the cache asks of a store: its version per incident (or of the whole store). */
export interface Versioned {
  version(id?: string): number | Promise<number>;
}

export const MAX_ENTRIES = 256;
export const MAX_BYTES = 64 * 1024 * 1024;

interface Entry {
  value: Promise<string>;
  bytes: number;
}

export class AnswerCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(
    private readonly store: Versioned,
    private readonly maxEntries = MAX_ENTRIES,
    private readonly maxBytes = MAX_BYTES,
  ) {}

  /** The key of `kind` for incident `id` (or the whole store when null) at its current version. */
  async key(kind: string, id: string | null, params = ''): Promise<string> {
    return `${kind}\u0000${id ?? '*'}\u0000${await this.store.version(id ?? undefined)}\u0000${params}`;
  }

  /** A kept answer without computing anything (undefined when there is none yet). */
  peek(key: string): Promise<string> | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    this.entries.set(key, e); // most recently used
    this.hits++;
    return e.value;
  }

  /** The answer under `key`: kept, being computed, or computed now by `compute`. */
  get(key: string, compute: () => Promise<string>): Promise<string> {
    const kept = this.peek(key);
    if (kept) return kept;
    this.misses++;
    const entry: Entry = { value: compute(), bytes: 0 };
    this.entries.set(key, entry);
    entry.value.then(
      (s) => {
        if (this.entries.get(key) !== entry) return;
        entry.bytes = s.length * 2;
        if (entry.bytes > this.maxBytes / 4) {
          this.entries.delete(key);
          return;
        }
        this.bytes += entry.bytes;
        this.evict();
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    this.evict();
    return entry.value;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  private evict(): void {
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) return;
      this.entries.delete(k);
      this.bytes -= e.bytes;
    }
  }
}
