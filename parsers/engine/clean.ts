// Text hygiene before detection and parsing: terminal escapes and log-viewer/container
// prefixes are removed for parsing (the stored text is the cleaned line; counts are kept).

// CSI (ESC [ … final), OSC (ESC ] … BEL | ESC \), other two-byte ESC sequences, and C1 CSI (\x9b).
// Bounded repetition keeps this linear on hostile input.
const ANSI = /\x1b\[[0-?]{0,64}[ -/]{0,8}[@-~]|\x1b\][^\x07\x1b]{0,4096}(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|\x9b[0-?]{0,64}[ -/]{0,8}[@-~]/g;

export function stripAnsi(line: string): { text: string; stripped: boolean } {
  if (!line.includes('\x1b') && !line.includes('\x9b')) return { text: line, stripped: false };
  return { text: line.replace(ANSI, ''), stripped: true };
}

/**
 * A prefix that wraps every line of a file: `docker compose` service gutters (`api-1  | `),
 * log-viewer line numbers (`  42 | `, `42: `), kubectl/CloudWatch/ECS timestamps before the real line.
 * Detected once per file on a sample of lines; stripped from every line that carries it.
 */
export interface PrefixRule {
  id: string;
  re: RegExp;
  /** The prefix carries the line's time (capture group 1, RFC 3339): lines whose own text has none take it. */
  stamp?: boolean;
  /** Specific enough to trust on a file of one or two lines (a pasted excerpt). */
  strong?: boolean;
  /**
   * The file's own layout when most lines match it too: then the "prefix" is the application's own
   * first column, not a wrapper (Rust tracing's `<stamp>  INFO target: …`, a gateway's `<stamp>     info
   * request …` pad a level column after the stamp; `docker logs -t` puts one space before the
   * application's line, and an indented line under it — a traceback frame — is not a level column).
   */
  ownLayout?: RegExp;
}

/** A Deployment's pod name: `<name>-<ReplicaSet hash>-<5-character suffix>` (Kubernetes naming). */
const POD = '[a-z0-9](?:[a-z0-9-]{0,200}[a-z0-9])?-[a-z0-9]{6,10}-[a-z0-9]{5}';

const LEVEL_WORD = '(?!(?:TRACE|DEBUG|INFO|SUCCESS|NOTICE|WARNING|WARN|ERROR|CRITICAL|FATAL)\\s)';

export const PREFIX_RULES: readonly PrefixRule[] = [
  // Kubernetes CRI container logs (/var/log/containers/*.log): RFC 3339 stamp, stream, partial flag.
  { id: 'cri-container', re: /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})) (?:stdout|stderr) [FP] /, stamp: true, strong: true },
  // kubectl logs --prefix
  { id: 'kubectl-prefix', re: /^\[pod\/(?<origin>[\w.-]{1,253})\/[\w.-]{1,253}\] /, strong: true },
  // a Deployment's pod named in brackets by a log shipper or script (`[api-7d9c6b8f4-kq2xw] `, `[pod api-7d9c6b8f4-kq2xw] `):
  // the pod name's shape (ReplicaSet hash, 5-character suffix) is no message's own words
  { id: 'pod-bracket', re: new RegExp(`^\\[(?:pod[ /])?(?<origin>${POD})(?:/[\\w.-]{1,63})?\\] `), strong: true },
  // stern's `pod container message` (one line per pod, all replicas interleaved)
  { id: 'stern', re: new RegExp(`^(?<origin>${POD}) [a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])? (?=\\S)`), strong: true },
  // ECS / CloudWatch console copy: `06-02-2025 03:41:05 PM ` before the application's line.
  { id: 'console-ampm', re: /^\d{2}[-/]\d{2}[-/]\d{4},? \d{1,2}:\d{2}:\d{2}(?:\.\d{1,3})? [AP]M / },
  // CloudWatch Logs export / `aws logs tail`: stamp, tab (or stream name) before the line.
  // (its stamp is the line's time: zap's console encoder writes the same `<stamp>\t` first)
  { id: 'cloudwatch-tab', re: /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2}))\t/, stamp: true },
  // `docker service logs` (swarm): `<service>.<slot>[.<task id>]@<node>` padded, then `    | ` (docker/cli
  // cli/command/service/logs.go taskFormatter: the task id is cut to 12 characters, 25 with --no-trunc).
  // The task id is required (`--no-task-ids` output, `name.1@node`, is too close to an e-mail address
  // before a table's `|`); `.slot.<12 or 25 base-36>@node` is no message's own words; each task stays apart.
  { id: 'swarm-task', re: /^(?<origin>[A-Za-z0-9][\w.-]{0,63}\.\d{1,4}\.[a-z0-9]{12}(?:[a-z0-9]{13})?@[A-Za-z0-9][\w.-]{0,63}) {1,40}\| ?/, strong: true },
  { id: 'compose-service', re: new RegExp(`^${LEVEL_WORD}(?<origin>[A-Za-z0-9][\\w.-]{0,63}(?:[-_]\\d{1,3})?)\\s{1,32}\\| ?`) },
  // the same gutter with compose v2's replica index (`api-1  | `): specific enough for a one-line excerpt
  { id: 'compose-replica', re: new RegExp(`^${LEVEL_WORD}(?<origin>[A-Za-z0-9][\\w.-]{0,63}[-_]\\d{1,3})\\s{1,32}\\| ?`), strong: true },
  // The separator must not be followed by a digit, so `12:00:01 …` is a time, not a gutter.
  { id: 'line-number-gutter', re: /^\s{0,8}\d{1,7}\s{0,4}[|│:](?!\d)\s?/ },
  { id: 'line-number-tab', re: /^\s{0,8}\d{1,7}\t/ },
  // CloudWatch / ECS / kubectl --timestamps: an RFC 3339 stamp followed by the application's own line.
  // Only when the application's own line follows (JSON, or a second date), so a file whose own
  // format starts with an RFC 3339 stamp keeps it.
  { id: 'rfc3339-wrapper', re: /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z)\s(?=\{|\d{4}-\d{2}-\d{2}[ T]|\[\d{4}-\d{2}-\d{2})/, stamp: true, strong: true },
  // `docker logs -t` / `kubectl logs --timestamps`: RFC 3339 with nanoseconds (6–9 digits) and Z before any
  // application line. The stamp is kept as the line's time where the application's line has none, so a
  // format whose own lines start with such a stamp loses nothing.
  {
    id: 'container-timestamps',
    re: /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6,9}Z) (?=.)/,
    stamp: true,
    strong: true,
    ownLayout: /^\S{20,40} {2,}(?:TRACE|DEBUG|INFO|WARN|ERROR|trace|debug|info|warn|error)\s/,
  },
];

/**
 * Whole-file layouts that are not per-line prefixes:
 * - numberLines: a log viewer copied its line numbers onto lines of their own (`2239` between lines);
 * - doubledBlank: every line is followed by a blank one (copied from a web page or a terminal).
 * Lines that only carry the layout are skipped (counted in FileStats.skippedLines), so they do not
 * break tracebacks or wrapped messages apart.
 */
export interface Layout {
  numberLines: boolean;
  doubledBlank: boolean;
}

export const NUMBER_LINE = /^\s{0,8}\d{1,7}\s{0,4}$/;

export function detectLayout(sample: readonly string[]): Layout {
  let numbers = 0;
  let sequential = 0;
  let prev: number | null = null;
  let nonBlank = 0;
  let blank = 0;
  let adjacent = 0;
  let lastBlank = true;
  for (const l of sample) {
    if (l.trim() === '') {
      blank++;
      lastBlank = true;
      continue;
    }
    nonBlank++;
    if (!lastBlank) adjacent++;
    lastBlank = false;
    if (NUMBER_LINE.test(l)) {
      const n = Number(l.trim());
      numbers++;
      if (prev !== null && n === prev + 1) sequential++;
      prev = n;
    }
  }
  return {
    numberLines: numbers >= 3 && numbers / Math.max(1, nonBlank) >= 0.25 && sequential >= (numbers - 1) * 0.8,
    doubledBlank: nonBlank >= 4 && blank >= nonBlank * 0.8 && adjacent <= nonBlank * 0.1,
  };
}

/**
 * A whole file indented by the same run of spaces (a log pasted into a list item or a terminal's
 * indented output): every line of the sample carries it, so it is no line's own layout — a traceback
 * or a wrapped message indents some lines, never its first. Stripped like a prefix.
 */
function commonIndent(lines: readonly string[]): PrefixRule | null {
  let indent: string | null = null;
  for (const l of lines) {
    const n = l.length - l.trimStart().length;
    const own = l.slice(0, n);
    if (n < 2 || n > 16 || own.includes('\t')) return null;
    indent = indent === null || own.length < indent.length ? own : indent;
  }
  return indent === null ? null : { id: 'indented', re: new RegExp(`^ {${indent.length}}`), strong: true };
}

export function detectPrefix(sample: readonly string[]): PrefixRule | null {
  const lines = sample.filter((l) => l.trim() !== '');
  if (!lines.length) return null;
  // one or two lines (a pasted excerpt): only a prefix specific enough to be no message's own words, on every line
  const short = lines.length < 3;
  for (const rule of PREFIX_RULES) {
    if (short && !rule.strong) continue;
    let hits = 0;
    let own = 0;
    for (const l of lines)
      if (rule.re.test(l)) {
        hits++;
        if (rule.ownLayout?.test(l)) own++;
      }
    if (own > hits / 2) continue;
    if (short ? hits === lines.length : hits / lines.length >= 0.8) return rule;
  }
  // (after the rules: a line-number gutter pads its numbers, and is stripped whole by its own rule)
  return commonIndent(lines);
}

/** The time a stamp-carrying prefix gives this line (ms), or null. */
export function prefixStamp(line: string, rule: PrefixRule | null): number | null {
  if (!rule?.stamp) return null;
  const m = rule.re.exec(line);
  if (!m?.[1]) return null;
  const t = Date.parse(m[1]);
  return Number.isNaN(t) ? null : t;
}

/**
 * Who wrote this line, when the prefix names it (kubectl --prefix's pod, compose's service and replica
 * index): kept per line as attrs.origin, so replicas stay apart after the prefix is stripped.
 */
export function prefixOrigin(line: string, rule: PrefixRule | null): string | null {
  if (!rule) return null;
  const m = rule.re.exec(line);
  if (!m) return null;
  // the pod under an outer wrapper names the writer more closely than a compose service around it
  const inner = innerPod(rule, line.slice(m[0].length));
  return inner?.groups?.origin ?? m.groups?.origin ?? null;
}

/** Prefixes that name a pod (kubectl --prefix, a bracketed pod name, stern), also when another wrapper (a shipper's stamp, a compose gutter) comes first. */
const POD_PREFIXES = PREFIX_RULES.filter((r) => r.id === 'kubectl-prefix' || r.id === 'pod-bracket' || r.id === 'stern').map((r) => r.re);
/** …and a compose replica's or swarm task's gutter (`notes-api-2  | `) under a stamp or another service's gutter. */
const INNER_PREFIXES = [...POD_PREFIXES, ...PREFIX_RULES.filter((r) => r.id === 'compose-replica' || r.id === 'swarm-task').map((r) => r.re)];
function innerPod(outer: PrefixRule, rest: string): RegExpExecArray | null {
  if (POD_PREFIXES.includes(outer.re)) return null;
  for (const re of INNER_PREFIXES) {
    const m = re.exec(rest);
    if (m) return m;
  }
  return null;
}

export function stripPrefix(line: string, rule: PrefixRule | null): string {
  if (!rule) return line;
  const m = rule.re.exec(line);
  if (!m) return line;
  const rest = line.slice(m[0].length);
  const inner = innerPod(rule, rest);
  return inner ? rest.slice(inner[0].length) : rest;
}
