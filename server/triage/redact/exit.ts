// The exit pass (redaction.md "Tiers": at every exit that can reach another person). A report is
// built only from text that went through here: the same engine as ingest and `redact` (so it is a
// no-op on text redacted at ingest, and catches a secret the ledger learnt after that line was
// stored), then request ids become keyed pseudonyms. Request ids stay raw inside the tool, since
// correlation joins on them; in a public report they only need to read "the same request".
import { defaultState, redactString, type EngineState } from './engine.ts';
import { SecretLedger } from './ledger.ts';
import { pseudonym } from './pseudonym.ts';
import { collectSessionIds, SessionIdBook } from './session.ts';
import { inertRanges } from './vocabulary.ts';

/** A request id named by its key (`x-request-id=…`, `"request_id":"…"`, `reqId: …`). */
const KEYED_REQUEST_ID =
  /(?<![A-Za-z0-9_-])(?:x-request-id|x-correlation-id|x-amzn-requestid|request[_-]?id|requestid|req[_-]?id|correlation[_-]?id)(?<q>["']?)[ \t]{0,3}[:=][ \t]{0,3}["']?(?<v>[A-Za-z0-9][A-Za-z0-9._-]{5,127})/dgi;
const HEXISH = /^[0-9a-f-]+$/i;

export interface ExitRedactor {
  /** One piece of log-derived text, redacted for a public exit. */
  text(s: string): string;
  /**
   * Read text without emitting it, so what it names is known before anything is emitted: a host
   * named by a JSON key on an evidence line is then swept from a rationale that quotes it bare.
   * Nothing is counted.
   */
  learn(s: string): void;
  /** What this pass changed, by rule (a no-op on text redacted at ingest, but for request ids). */
  readonly counts: Record<string, number>;
}

export interface ExitOptions {
  key: Uint8Array;
  /** The incident's session ids and secret ledger, when this process ingested it (CLI): a late-found secret is swept too. */
  ids?: SessionIdBook;
  ledger?: SecretLedger;
  /** Full request ids known from the events (parsed `requestId` fields): their bare mentions and prefixes join them. */
  requestIds?: Iterable<string>;
  /**
   * Request ids become `req-` pseudonyms (default true: a public report). False where the reader
   * correlates with the tool's own columns (the SQL console, the API beyond loopback), as `redact` keeps them.
   */
  pseudonymiseRequests?: boolean;
}

export function createExitRedactor(opts: ExitOptions): ExitRedactor {
  const st: EngineState = defaultState(opts.key, opts.ids ?? new SessionIdBook(), opts.ledger ?? new SecretLedger());
  const known = [...new Set([...(opts.requestIds ?? [])].filter((v) => v.length >= 6 && v.length <= 128))].sort((a, b) => b.length - a.length);
  const counts: Record<string, number> = {};
  const count = (rule: string, n = 1) => (counts[rule] = (counts[rule] ?? 0) + n);

  /** The pseudonym of a request id; a shortened spelling (`a03b3e19` of a 32-hex id) joins its one full id. */
  const requestPseudonym = (raw: string): string => {
    const v = HEXISH.test(raw) ? raw.toLowerCase() : raw;
    const full = known.filter((k) => (HEXISH.test(k) ? k.toLowerCase() : k).startsWith(v));
    const canon = full.length === 1 ? (HEXISH.test(full[0]!) ? full[0]!.toLowerCase() : full[0]!) : v;
    return pseudonym(opts.key, 'request', canon);
  };

  const requestIds = (s: string): string => {
    const edits: Array<[number, number, string]> = [];
    const inert = inertRanges(s);
    const inside = (i: number) => inert.some(([a, b]) => i >= a && i < b);
    KEYED_REQUEST_ID.lastIndex = 0;
    for (const m of s.matchAll(KEYED_REQUEST_ID)) {
      const [a, b] = m.indices!.groups!.v!;
      if (inside(a) || /^\d{1,12}$/.test(m.groups!.v!)) continue; // `request_id=42` is a counter, not an id
      edits.push([a, b, requestPseudonym(m.groups!.v!)]);
    }
    // Bare mentions of a known full id (the last field of an nginx line).
    for (const k of known) {
      for (let i = s.indexOf(k); i !== -1; i = s.indexOf(k, i + k.length)) {
        const e = i + k.length;
        if (/[A-Za-z0-9]/.test(s[i - 1] ?? '') || /[A-Za-z0-9]/.test(s[e] ?? '') || inside(i)) continue;
        if (edits.some(([a, b]) => i < b && e > a)) continue;
        edits.push([i, e, requestPseudonym(k)]);
      }
    }
    if (!edits.length) return s;
    edits.sort((x, y) => x[0] - y[0]);
    let out = '';
    let pos = 0;
    for (const [a, b, t] of edits) {
      if (a < pos) continue;
      out += s.slice(pos, a) + t;
      pos = b;
      count('@request-id');
    }
    return out + s.slice(pos);
  };

  return {
    counts,
    learn(s: string): void {
      if (!s) return;
      for (const line of s.split('\n')) {
        collectSessionIds(line, st.book);
        redactString(line, st, 0);
      }
    },
    text(s: string): string {
      if (!s) return s;
      // Line by line: a multi-line message is several lines of a log, each redacted alone.
      return s
        .split('\n')
        .map((line) => {
          collectSessionIds(line, st.book); // as the line redactor does: an id in a session position is known before the sweep
          const r = redactString(line, st, 0);
          for (const rem of r.remarks) count(rem.rule);
          return opts.pseudonymiseRequests === false ? r.text : requestIds(r.text);
        })
        .join('\n');
    },
  };
}

/**
 * A JSON value with every string passed through `x` (an analysis document, a SQL result row), except
 * under the keys in `keep` (enums and ids the tool wrote itself, which no rule may touch).
 */
export function exitJson<T>(value: T, x: (s: string) => string, keep: ReadonlySet<string> = new Set()): T {
  const walk = (v: unknown, key?: string): unknown => {
    if (typeof v === 'string') return key !== undefined && keep.has(key) ? v : x(v);
    if (Array.isArray(v)) return v.map((it) => walk(it, key));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, it]) => [k, walk(it, k)]));
    return v;
  };
  return walk(value) as T;
}

/** Cut text to at most n characters without cutting through a placeholder or pseudonym (cut before it). */
export function cutOutsideInert(s: string, n: number): string {
  if (s.length <= n) return s;
  let at = n;
  for (const [a, b] of inertRanges(s)) if (a < at && b > at) at = a;
  return s.slice(0, at);
}
