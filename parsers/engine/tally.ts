// Count summaries hosts and probes print about their own attempts: `3/5 OK`, `7 ok / 5 failed`,
// `passed: 3/5`, `ok=7 failed=5`, `2 of 5 requests failed`, `200: 7  400: 13`. Such a line is what an
// SRE reads first: failures beside successes of the same requests are intermittent (a blip, or requests
// of one session spread over replicas: failure-signatures row 93, D18), failures on every count are
// persistent (D1 "persistent → fix"), and a count with nothing failed is a healthy control. enrich.ts
// stores the counts as attrs.tallyOk / attrs.tallyFailed; triage facts read them, rules read the facts.
//
// Tables, not code: each shape is a regex, what its groups count, examples and near-misses
// (tally.test.ts proves them). A count that is not an outcome — an attempt's number (`attempt 2 of 3
// failed` is the second attempt), a size, a ratio in a path or a version — is no tally.

export interface Tally {
  ok: number;
  failed: number;
}

interface Shape {
  re: RegExp;
  /** What the two groups count. */
  read: (a: number, b: number, m: RegExpExecArray) => Tally | null;
  why: string;
  examples: readonly [string, Tally][];
}

/** The words a count of successes is given. */
const OK = '(?:ok|okay|passed|pass|succeeded|successful|successes|success|good|healthy)';
/** The words a count of failures is given. */
const BAD = '(?:failed|failures?|fails?|errors?|errored|bad|unhealthy)';

const ofTotal = (ok: number, total: number): Tally | null => (total >= 1 && ok <= total ? { ok, failed: total - ok } : null);

export const SHAPES: readonly Shape[] = [
  {
    // `3/5 OK`, `huggingface  3/5   OK`, `12/12 passed`
    re: new RegExp(`(?<![\\w./:-])(\\d{1,5}) ?/ ?(\\d{1,5})\\s{1,8}${OK}\\b`, 'i'),
    read: (a, b) => ofTotal(a, b),
    why: 'successes over attempts, the outcome word after them',
    examples: [
      ['huggingface  3/5   OK URLE OK OK URLE', { ok: 3, failed: 2 }],
      ['probe 12/12 passed', { ok: 12, failed: 0 }],
    ],
  },
  {
    // `OK 3/5`, `passed: 4/6`, `success=2/3`
    re: new RegExp(`\\b${OK}\\s{0,2}[:=]?\\s{0,2}(\\d{1,5}) ?/ ?(\\d{1,5})(?![\\w./:-])`, 'i'),
    read: (a, b) => ofTotal(a, b),
    why: 'the outcome word, then successes over attempts',
    examples: [
      ['checks passed: 4/6', { ok: 4, failed: 2 }],
      ['initialize success=2/3', { ok: 2, failed: 1 }],
    ],
  },
  {
    // `7 ok / 5 failed`, `12 ok / 0 failed`, `18 succeeded, 2 failed`, `3 passed and 1 error`
    re: new RegExp(`\\b(\\d{1,6})\\s{1,3}${OK}\\s{0,3}(?:[,/;|]|and)\\s{0,3}(\\d{1,6})\\s{1,3}${BAD}\\b`, 'i'),
    read: (a, b) => ({ ok: a, failed: b }),
    why: 'a count of successes, then a count of failures',
    examples: [
      ['SAME Service, replicaCount=3:  7 ok / 5 failed', { ok: 7, failed: 5 }],
      ['run finished: 18 succeeded, 2 failed', { ok: 18, failed: 2 }],
      ['replicas=1: 12 ok / 0 failed', { ok: 12, failed: 0 }],
    ],
  },
  {
    // `5 failed, 15 passed`
    re: new RegExp(`\\b(\\d{1,6})\\s{1,3}${BAD}\\s{0,3}(?:[,/;|]|and)\\s{0,3}(\\d{1,6})\\s{1,3}${OK}\\b`, 'i'),
    read: (a, b) => ({ ok: b, failed: a }),
    why: 'a count of failures, then a count of successes',
    examples: [['tools/list x20: 5 failed, 15 ok', { ok: 15, failed: 5 }]],
  },
  {
    // `ok=7 failed=5`, `success: 7, errors: 5`, `passed=3 failures=1`
    re: new RegExp(`\\b${OK}\\s{0,2}[:=]\\s{0,2}(\\d{1,6})\\s{0,2}[,;| ]\\s{0,2}${BAD}\\s{0,2}[:=]\\s{0,2}(\\d{1,6})\\b`, 'i'),
    read: (a, b) => ({ ok: a, failed: b }),
    why: 'key=value counts, successes first',
    examples: [
      ['summary ok=7 failed=5', { ok: 7, failed: 5 }],
      ['success: 9, errors: 0', { ok: 9, failed: 0 }],
    ],
  },
  {
    // `failed=5 ok=7`
    re: new RegExp(`\\b${BAD}\\s{0,2}[:=]\\s{0,2}(\\d{1,6})\\s{0,2}[,;| ]\\s{0,2}${OK}\\s{0,2}[:=]\\s{0,2}(\\d{1,6})\\b`, 'i'),
    read: (a, b) => ({ ok: b, failed: a }),
    why: 'key=value counts, failures first',
    examples: [['calls failed=5 ok=7', { ok: 7, failed: 5 }]],
  },
  {
    // `2 of 5 requests failed`, `3 of 5 calls succeeded` — not `attempt 2 of 3 failed` (that is the second attempt)
    re: /(?<!\b(?:attempt|try|retry|round|step|#)\s{0,2})\b(\d{1,5}) (?:of|out of) (\d{1,5}) (?:[a-z/_-]{1,20} ){0,2}(failed|succeeded|passed|errored|were ok|ok)\b/i,
    read: (a, b, m) => (/^(?:failed|errored)$/i.test(m[3]!) ? (a <= b ? { ok: b - a, failed: a } : null) : ofTotal(a, b)),
    why: 'N of M, the outcome word after them',
    examples: [
      ['2 of 5 requests failed', { ok: 3, failed: 2 }],
      ['4 out of 4 calls succeeded', { ok: 4, failed: 0 }],
    ],
  },
  {
    // `200: 7   400: 13`, `200=12 404=3 502=1` — a line of status counts: at least one 2xx and one other
    // (the counts end the line; a label may come first: `status counts for POST /mcp: 200: 9  503: 3`)
    re: /(?:^|[:\s])\s{0,8}(?:[1-5]\d\d\s{0,2}[:=]\s{0,2}\d{1,6}\s{0,4}[,;|]?\s{0,4}){2,8}$/i,
    read: (_a, _b, m) => {
      let ok = 0;
      let failed = 0;
      for (const p of m[0].matchAll(/([1-5]\d\d)\s{0,2}[:=]\s{0,2}(\d{1,6})/g)) {
        const code = Number(p[1]);
        if (code >= 200 && code < 300) ok += Number(p[2]);
        else if (code >= 400) failed += Number(p[2]);
      }
      return ok + failed > 0 ? { ok, failed } : null;
    },
    why: 'a line that is nothing but status counts',
    examples: [
      ['200: 7   400: 13', { ok: 7, failed: 13 }],
      ['status: 200=12 404=3', { ok: 12, failed: 3 }],
      ['status counts for POST /mcp: 200: 9  503: 3', { ok: 9, failed: 3 }],
    ],
  },
];

/** Lines that hold such numbers and count no outcome. */
export const NOT_TALLIES: readonly string[] = [
  'MCP tool call timed out (attempt 2 of 3 failed, retrying)',
  'served /assets/ok/3/5 OK',
  'GET /v1/items/3/5 200 OK',
  'ratio 3/5 of the budget used',
  'date 2026/05/01 ok',
  'listening on 0.0.0.0:8080, 4 workers',
  '2026-10-09T13:20:01Z 200 POST /mcp 612 480',
  'retry 2 of 3 failed',
  'started at 10:00:01 on port 8080: 200: OK',
];

/** The outcome counts a line reports, when it is a tally (the first shape that reads one). */
/**
 * Every shape needs one of its words (OK, BAD, the `of` shape's outcomes) or a status count (`400: 13`): one scan
 * that lets almost no log line through, so the shapes' eight scans cost nothing on the lines that hold no count
 * (this runs on every line at ingest). tally.test.ts proves each shape's examples pass it.
 */
// (letter classes instead of the i flag: V8 scans such an alternation ~2.5× faster; the status count ends the
// line, so its gate reads the tail only)
const WORD_GATE = /[oO][kK]|[pP][aA][sS][sS]|[sS][uU][cC][cC][eE]|[gG][oO][oO][dD]|[hH][eE][aA][lL][tT][hH]|[fF][aA][iI][lL]|[eE][rR][rR]|[bB][aA][dD]/;
const COUNT_GATE = /[1-5]\d\d\s{0,2}[:=]\s{0,2}\d/;
const tallyGate = (text: string) => WORD_GATE.test(text) || COUNT_GATE.test(text.length > 64 ? text.slice(-64) : text);

export function readTally(text: string): Tally | null {
  if (text.length > 2000 || !tallyGate(text)) return null;
  for (const s of SHAPES) {
    const m = s.re.exec(text);
    if (!m) continue;
    const t = s.read(Number(m[1]), Number(m[2]), m);
    if (t && t.ok + t.failed >= 1) return t;
  }
  return null;
}

/**
 * The tally of a record of one or more rows (a probe's table folded under its heading): the first row that
 * counts passes and failures, else the first that counts failures, else the first tally.
 */
export function readTallyRows(text: string): Tally | null {
  if (!text.includes('\n')) return readTally(text);
  let firstFailed: Tally | null = null;
  let first: Tally | null = null;
  for (const row of text.split('\n', 200)) {
    const t = readTally(row);
    if (!t) continue;
    if (t.ok >= 1 && t.failed >= 1) return t;
    if (t.failed >= 1) firstFailed ??= t;
    first ??= t;
  }
  return firstFailed ?? first;
}
