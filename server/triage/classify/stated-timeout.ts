// The client's timeout setting as its log states it, in the phrasings SDKs, HTTP libraries and hosts
// use (failure-signatures rows 10–12, 46 and the timing fingerprints of section (c)). A table, like the
// signals: each phrasing has its source, and stated-timeout.test.ts holds lines that must give a value
// and near misses that must not. Only lines that talk about a timeout are read, so "after 5000ms" in a
// latency line is never taken for one.

export interface TimeoutPhrasing {
  id: string;
  /** anchored on the words around the number; group 1 the number, group 2 its unit (or none: see `unit`) */
  pattern: RegExp;
  /** the unit when the phrasing has none of its own */
  unit?: 'ms' | 's';
  source: string;
}

const UNIT = '(ms|msecs?|milliseconds?|s|secs?|seconds?|m|mins?|minutes?)\\b';
const N = '(\\d{1,7}(?:\\.\\d{1,3})?)';

export const TIMEOUT_PHRASINGS: readonly TimeoutPhrasing[] = [
  { id: 'python-sdk-waited', pattern: new RegExp(`\\bWaited ${N} ?${UNIT}`, 'i'), source: 'python-sdk v1.29.0 src/mcp/shared/session.py (McpError 408)' },
  {
    id: 'timed-out-after',
    pattern: new RegExp(`\\btimed ?out (?:awaiting [\\w/.-]{1,80} )?after ${N} ?${UNIT}`, 'i'),
    source:
      'hosts: Codex codex-rs mcp_connection_manager.rs (`timed out awaiting tools/call after {timeout}`, `timed out after N seconds`), Claude Code (`timed out after 30000ms`)',
  },
  {
    id: 'timeout-of',
    pattern: new RegExp(`\\btimeout of ${N} ?${UNIT}`, 'i'),
    source: 'axios (`timeout of 10000ms exceeded`), .NET HttpClient (`HttpClient.Timeout of 100 seconds elapsing`)',
  },
  {
    id: 'timeout-after',
    pattern: new RegExp(`\\btimeout (?:after|exceeded after|reached after) ${N} ?${UNIT}`, 'i'),
    source: 'OpenCode (`Request timeout after 5000ms`)',
  },
  {
    id: 'reactor-within',
    pattern: new RegExp(`\\bDid not observe any item or terminal signal within ${N} ?${UNIT}`, 'i'),
    source: 'Project Reactor Mono.timeout (MCP Java SDK / Spring AI McpClientSession.sendRequest, default requestTimeout 20 s)',
  },
  {
    id: 'failed-after-timed-out',
    pattern: new RegExp(`\\bfailed after ${N} ?${UNIT}[^\\n]{0,80}?\\btimed ?out`, 'i'),
    source: "Claude Code (`Tool 'x' failed after 60s: Remote tool call timed out`, anthropics/claude-code#49910)",
  },
  {
    id: 'timeout-with-unit',
    // the setting named and its value with a unit, as structured loggers print a duration field: Go's
    // time.Duration.String() in slog/logrus (`timeout=5s`, `timeout=1.5s`), Rust's Duration Debug in tracing
    // fields (`timeout=5s`), key: value and prose (`timeout: 5000ms`, `timeout 5000 ms`); an idle or
    // keep-alive timer is the server's or the proxy's, not the client's wait for this call
    pattern: new RegExp(
      `(?<![\\w.-])(?<!idle |alive )(?:request[_-]?|call[_-]?)?timeout(?:_?ms)?["']?\\s{0,3}[:=]?\\s{0,3}["']?${N} ?(ms|msecs?|milliseconds?|s|secs?|seconds?)\\b`,
      'i',
    ),
    source: 'Go time.Duration.String() (pkg.go.dev/time#Duration.String) as log/slog and logrus print duration fields; Rust core::time::Duration Debug in tracing fields',
  },
  {
    id: 'timeout-property',
    // TS SDK McpError data `{ timeout: 60000 }`; options objects `timeoutMs: 5000`: milliseconds by convention
    pattern: /\btimeout(?:Ms|_ms)?["']?\s{0,3}[:=]\s{0,3}(\d{3,7})\b(?!\.\d)/,
    unit: 'ms',
    source: 'typescript-sdk v1.29.0 src/shared/protocol.ts (McpError RequestTimeout data { timeout })',
  },
];

/** Lines that speak of a timeout at all: the only ones a setting is read from. */
const TIMEOUT_WORDS = /time ?out|timed ?out|Waited \d|deadline|terminal signal within/i;

function toMs(n: number, unit: string): number {
  const u = unit.toLowerCase();
  if (u.startsWith('ms') || u.startsWith('milli')) return n;
  if (u === 'm' || u.startsWith('min')) return n * 60_000;
  return n * 1000;
}

/** Python's timedelta printed where seconds were meant: "Waited 0:00:05 seconds". */
const CLOCK = /\bWaited (\d{1,2}):(\d\d):(\d\d(?:\.\d{1,6})?)\b/;

/** The first timeout setting stated in these lines, in ms, or null when none is. */
export function statedTimeoutMs(text: string): number | null {
  for (const line of text.split('\n')) {
    if (line.length > 4000 || !TIMEOUT_WORDS.test(line)) continue;
    const clock = CLOCK.exec(line);
    if (clock) return Math.round((Number(clock[1]) * 3600 + Number(clock[2]) * 60 + Number(clock[3])) * 1000);
    for (const p of TIMEOUT_PHRASINGS) {
      const m = p.pattern.exec(line);
      if (!m) continue;
      const ms = Math.round(toMs(Number(m[1]), m[2] ?? p.unit ?? 'ms'));
      // under 100 ms is no request timer; over a day is not one call
      if (ms >= 100 && ms <= 86_400_000) return ms;
    }
  }
  return null;
}
