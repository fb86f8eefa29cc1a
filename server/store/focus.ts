// The focus set of a large incident: which stored events its analysis reads when reading them
// all would make memory grow with the logs. Analysis (server/triage/analyze.ts) answers for
// the first failures, the first joined requests and a few incident-wide facts; this picks,
// in SQL, exactly the events those answers look at:
//   - the first `failures` failure events by time (HTTP ≥ 400, error/fatal, blocks),
//   - everything joined to them by a key: request id, session + rpc id, rpc id near in time,
//     the same status or any proxy line near in time, lines next to them in the same file (tracebacks, the
//     client's next lines), and one more hop by request id / session + rpc id,
//   - per session of a failure, its first and last lines per file (when it was assigned, which
//     replica served it),
//   - the first `head` events by time (the spans list and clock offsets),
//   - incident-wide facts: the earliest client success, each session's latest client success
//     (recovery), handshakes, tool annotations and legacy-SSE markers (each bounded).
// Everything is capped (`max`), so a 5 M-event incident costs what a 300 k-event one does.
// Session summaries and protocol versions come from SQL aggregates over every event instead.

import { signalTable } from '../../parsers/engine/signals.ts';

/**
 * Triage events by their columns alone: a block, a warning or worse, a status, a key, or a signal
 * (parsers/signals: what the line says happened, evaluated at ingest, so an error logged at info
 * level or a client saying it recovered is read without a text scan here).
 */
// a line that only names the tool it calls (`calling tool lookup_invoice`) or the request it sends
// (`POST /mcp`) is identity too: it starts the call and times it
// a server line in prose that names a tool the client called (`chat_with_agent received …`): what ties a
// handler's own words to the call (correlate/enrich.ts toolsNamedByServer checks the whole word)
// (the names are one uncorrelated list per query, at most 128; a correlated EXISTS per row cost ~20% of
// a 64 MiB analyze)
const NAMES_A_CALLED_TOOL = `len(list_filter((SELECT list_slice(list(DISTINCT regexp_replace(c.tool, '^.*(?:[.:/]|__)', '')), 1, 128) FROM events c
    WHERE c.incident_id = $id AND c.tool IS NOT NULL AND c.source IN ('client', 'unknown')), n -> length(n) >= 4 AND contains(events.message, n))) > 0`;
// a hand-made HTTP transcript's head lines (the answer's Location, Content-Type, WWW-Authenticate) and curl
// -w's status printed alone (`000`: no answer) are the request and its answer: correlate/transcript.ts joins them
// (and the command that sent it, `curl -sI https://host/path` after a prompt: the request's method and URL when no
// request head was printed)
const TRANSCRIPT_LINE = `(format = 'http-transcript' OR (format = 'shell-prompt' AND regexp_matches(message, '^(?:curl|wget|https?|xh|Invoke-WebRequest|Invoke-RestMethod|iwr|irm) '))
  OR (length(message) <= 12 AND regexp_full_match(trim(message), '\\d{3}')))`;
// a host's or probe's count with failures in it (`[INFO] probe: 3/5 OK`, parsers/engine/tally.ts), whatever level
// it was logged at: it reports failed attempts (classify/facts.ts isFailureEvent). attrs is written by
// JSON.stringify (no spaces), so two substring tests read it without parsing the JSON of every row
const TALLY_FAILED = `(contains(attrs::VARCHAR, '"tallyFailed":') AND NOT contains(attrs::VARCHAR, '"tallyFailed":0'))`;
// a caller's line whose only identity is a bare `id=N` (`200 text/event-stream id=10`, `no message for id=10 in 30000ms`):
// analyze.ts ties it to the call the same file logged with that id (its bare-id pass), so it is the call's line too
const BARE_ID_LINE = `(source IN ('client', 'unknown') AND contains(message, 'id=') AND regexp_matches(message, '(?:^|[^A-Za-z0-9_.-])id=[A-Za-z0-9][A-Za-z0-9-]{0,40}(?:$|[^A-Za-z0-9_.])'))`;
const KEYED = `(kind = 'block' OR level IN ('warn', 'error', 'fatal') OR http_status IS NOT NULL OR rpc_id IS NOT NULL
  OR session IS NOT NULL OR request_id IS NOT NULL OR protocol_version IS NOT NULL OR rpc_method IS NOT NULL OR tool IS NOT NULL
  OR http_method IS NOT NULL OR signals IS NOT NULL OR ${TRANSCRIPT_LINE} OR ${TALLY_FAILED}
  OR (source IN ('server', 'unknown') AND ${NAMES_A_CALLED_TOOL}) OR ${BARE_ID_LINE})`;

/** The events analysis reads; the rest are context lines of the timeline. */
export const TRIAGE_WHERE = KEYED;

/** The triage events of incident `$id` as a FROM item with columns `cols`, and `extra` conditions. */
export function triageFrom(cols: string, extra = 'true'): string {
  return `(SELECT ${cols} FROM events WHERE incident_id = $id AND ${extra} AND ${KEYED})`;
}

/** A space-separated signals column holds one of these ids. */
function hasSignal(ids: readonly string[]): string {
  return `regexp_matches(coalesce(signals, ''), '(^| )(?:${ids.join('|')})( |$)')`;
}
const ids = (pick: (m: { cause: string; outcome: string }) => boolean) =>
  signalTable()
    .signals.filter((s) => pick(s.spec.meaning))
    .map((s) => s.spec.id);

/** classify/facts.ts isFailureEvent, in SQL (a superset: any multi-line event, not only exception blocks). */
const FAILURE_WHERE = `(http_status >= 400 OR level IN ('error', 'fatal') OR kind = 'block' OR ${TALLY_FAILED} OR ${hasSignal(ids((m) => m.outcome === 'failure'))})`;

export interface FocusLimits {
  /** Failure events the analysis starts from (first by time). */
  failures: number;
  /** Events of the incident's opening, by time. */
  head: number;
  /** Lines around a failure in its own file: before, after. */
  linesBefore: number;
  linesAfter: number;
  /** A key joined by time alone (rpc id, status) must be this close, in ms. */
  windowMs: number;
  /** First and last events per session and file. */
  perSession: number;
  /** Hard cap on the focus set. */
  max: number;
}

export const DEFAULT_FOCUS: FocusLimits = { failures: 1000, head: 20_000, linesBefore: 20, linesAfter: 200, windowMs: 10_000, perSession: 20, max: 300_000 };

const int = (n: number) => Math.max(0, Math.trunc(n));

/** CTEs named `name` (k, lo, hi): the intervals of `src` merged where they overlap, per key k (gaps and islands). */
function merged(name: string, src: string): string {
  return `${name}_s AS (${src}),
  ${name}_b AS (SELECT k, lo, hi, CASE WHEN lo <= max(hi) OVER (PARTITION BY k ORDER BY lo, hi ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) THEN 0 ELSE 1 END AS brk FROM ${name}_s),
  ${name}_g AS (SELECT k, lo, hi, sum(brk) OVER (PARTITION BY k ORDER BY lo, hi ROWS UNBOUNDED PRECEDING) AS g FROM ${name}_b),
  ${name} AS MATERIALIZED (SELECT k, min(lo) AS lo, max(hi) AS hi FROM ${name}_g GROUP BY k, g)`;
}

/**
 * Up to this many triage events, the focus query copies their key columns once (`t` MATERIALIZED, ~255
 * bytes a row: ~70 MB at 273 k) instead of scanning `events` and testing TRIAGE_WHERE again for each of
 * its ~15 uses of `t`: on the 64 MiB bench corpus (273 k triage events) 0.95–1.0 s instead of 1.4–1.7 s,
 * 1.5–1.8 s of DuckDB CPU instead of 2.4–3.0. Above it the copy would crowd DuckDB's 512 MB limit
 * (at 8.7 M events it spilled, 17 s of 22), so `t` is read in place.
 */
export const FOCUS_COPY_MAX = 500_000;

/**
 * A SELECT of `seq` for incident `$id` (bound by the caller). `triageEvents`, the incident's count of
 * them when known, decides whether `t` is copied (FOCUS_COPY_MAX); the answer is the same either way.
 */
export function focusSql(l: FocusLimits, triageEvents = Number.POSITIVE_INFINITY): string {
  const w = int(l.windowMs);
  // t (the key columns of every triage event) is NOT materialised above FOCUS_COPY_MAX: at millions of events the copy
  // spilled and its dozen scans cost 17 s of 22 at 8.7 M events; read in place, each use scans only
  // the columns it needs (6 s). Text is always read in place.
  const copy = triageEvents <= FOCUS_COPY_MAX;
  // Of the facts below, only `Hint` reads a line's text; the handshake and legacy-transport ones read `t`'s
  // columns. Copied, `t` also says which lines are triage events, so the text is scanned with one cheap
  // test and no TRIAGE_WHERE (three scans of `events` with TRIAGE_WHERE before, ~0.3–0.5 s of DuckDB CPU).
  const TEXT = copy
    ? `(SELECT seq, text FROM events WHERE incident_id = $id AND contains(text, 'Hint') AND seq IN (SELECT seq FROM t)) AS tx WHERE true`
    : `${triageFrom('seq, text')} AS tx WHERE true`;
  return `
  WITH t AS ${copy ? '' : 'NOT '}MATERIALIZED (
    SELECT * FROM ${triageFrom('seq, file, line, end_line, ts, source, kind, level, http_status, request_id, rpc_id, session, rpc_method, signals, attrs')}
  ),
  f AS MATERIALIZED (SELECT * FROM t WHERE ${FAILURE_WHERE} ORDER BY ts NULLS LAST, seq LIMIT ${int(l.failures)}),
  -- Windows around the failures, merged where they overlap: a line then falls in at most one,
  -- so the range joins below cost the lines they return, not lines × failures.
  ${merged('tw', `SELECT 0 AS k, ts - ${w} AS lo, ts + ${w} AS hi FROM f WHERE ts IS NOT NULL`)},
  ${merged('lw', `SELECT file AS k, line - ${int(l.linesBefore)} AS lo, end_line + ${int(l.linesAfter)} AS hi FROM f`)},
  near AS MATERIALIZED (
    SELECT seq FROM f
    UNION SELECT t.seq FROM t JOIN f ON t.request_id = f.request_id
    UNION SELECT t.seq FROM t JOIN f ON t.session = f.session AND t.rpc_id = f.rpc_id
    UNION SELECT t.seq FROM t JOIN f ON t.rpc_id = f.rpc_id AND t.ts BETWEEN f.ts - ${w} AND f.ts + ${w}
    UNION SELECT t.seq FROM t JOIN f ON t.http_status = f.http_status AND t.ts BETWEEN f.ts - ${w} AND f.ts + ${w}
    UNION SELECT t.seq FROM t JOIN tw ON t.source = 'proxy' AND t.ts BETWEEN tw.lo AND tw.hi
    UNION SELECT t.seq FROM t JOIN lw ON t.file = lw.k AND t.line BETWEEN lw.lo AND lw.hi
  ),
  n AS MATERIALIZED (SELECT t.* FROM t WHERE seq IN (SELECT seq FROM near)),
  hop AS (
    SELECT t.seq FROM t JOIN n ON t.request_id = n.request_id
    UNION SELECT t.seq FROM t JOIN n ON t.session = n.session AND t.rpc_id = n.rpc_id
  ),
  sess AS (
    SELECT seq FROM t WHERE session IN (SELECT session FROM f WHERE session IS NOT NULL)
    QUALIFY row_number() OVER (PARTITION BY session, file ORDER BY seq) <= ${int(l.perSession)}
         OR row_number() OVER (PARTITION BY session, file ORDER BY seq DESC) <= ${int(l.perSession)}
  ),
  head AS (SELECT seq FROM t ORDER BY ts NULLS LAST, seq LIMIT ${int(l.head)}),
  facts AS (
    (SELECT seq FROM t WHERE source = 'client' AND http_status < 400 ORDER BY ts NULLS LAST, seq LIMIT 1)
    UNION (SELECT seq FROM t WHERE source = 'client' AND ts IS NOT NULL AND http_status < 300 AND session IS NOT NULL
             AND rpc_method IS NOT NULL AND rpc_method <> 'initialize'
           QUALIFY row_number() OVER (PARTITION BY session ORDER BY ts DESC, seq DESC) = 1
           ORDER BY ts DESC LIMIT 16)
    UNION (SELECT seq FROM t WHERE rpc_method = 'initialize' OR ${hasSignal(ids((m) => m.cause === 'handshake-ok' || m.cause === 'session-created'))} ORDER BY seq LIMIT 2000)
    UNION (SELECT seq FROM ${TEXT} AND contains(text, 'Hint') ORDER BY seq LIMIT 2000)
    UNION (SELECT seq FROM t WHERE ${hasSignal(ids((m) => m.cause === 'transport-legacy' || m.outcome === 'recovery'))} ORDER BY seq LIMIT 100)
  ),
  everything AS (SELECT seq FROM near UNION SELECT seq FROM hop UNION SELECT seq FROM sess UNION SELECT seq FROM head UNION SELECT seq FROM facts)
  SELECT e.seq FROM everything e JOIN t USING (seq) ORDER BY t.ts NULLS LAST, e.seq LIMIT ${int(l.max)}`;
}
