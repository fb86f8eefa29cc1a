import type { Event } from '../contract/event.ts';

/**
 * A call's JSON-RPC id on a later line of the same file that names it only as a bare `id`: a server logs
 * `request {"method":"tools/call","tool":"get_order","id":"ag-91f2c0"}` and then `done {"id":"ag-91f2c0","ms":167}`
 * (zap, pino and slog handlers log a request's start with its method and its end with the id alone). Alone, `id`
 * names anything (enrich.ts reads it only beside an MCP method); equal to the opaque string id a call of this file
 * was just logged with, it is that call's. Small integers are left alone: `"id": 5` after call 5 may be a row.
 */
const BARE_ID = /(?:^|[\s{,(;])["']?id["']?\s?[:=]\s?["']?([A-Za-z0-9][\w:.-]{2,99})(?![\w:.-])/g;
/** An opaque id: letters and digits both (`ag-91f2c0`, a uuid), not a word or a count. */
const OPAQUE = /^(?=[^\d]*\d)(?=[^A-Za-z]*[A-Za-z])/;
/** How far back (lines) a call's id still names it, and how many ids a file's memory holds. */
const RECENT_LINES = 10_000;
const MAX_IDS = 50_000;

export class CallIds {
  private readonly seen = new Map<string, number>();

  /** Remember the id of a line that names its call, or give a line naming only a remembered id that id. Mutates e. */
  link(e: Event): void {
    if (e.rpcId !== null) {
      if (e.rpcMethod !== null && typeof e.rpcId === 'string' && OPAQUE.test(e.rpcId)) {
        this.seen.delete(e.rpcId);
        this.seen.set(e.rpcId, e.line);
        if (this.seen.size > MAX_IDS) this.seen.delete(this.seen.keys().next().value!);
      }
      return;
    }
    if (this.seen.size === 0 || !e.text.includes('id')) return;
    const text = e.kind === 'block' ? e.text.slice(0, 2000) : e.text;
    for (const m of text.matchAll(BARE_ID)) {
      const at = this.seen.get(m[1]!);
      if (at !== undefined && e.line - at <= RECENT_LINES) {
        e.rpcId = m[1]!;
        return;
      }
    }
  }
}
