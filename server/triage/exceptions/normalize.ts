// Text clean-up before parsing: what real uploads do to tracebacks (see README "Accepted input").
const ANSI = /\x1b\[[0-9;?]{0,32}[ -/]{0,4}[@-~]|\x1b\][^\x07\x1b]{0,512}(?:\x07|\x1b\\)/g;
const JSON_ESCAPE = /\\(u[0-9a-fA-F]{4}|["\\/bfnrt])/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** True when the text carries its line breaks as literal `\n` (a traceback inside a JSON string). */
export function looksJsonEscaped(text: string): boolean {
  const literal = text.split('\\n').length - 1;
  if (literal < 2) return false;
  const real = text.split('\n').length - 1;
  return literal > real;
}

/**
 * Unescape a JSON-escaped traceback. When a line is a JSON object, its longest multi-line
 * string value wins (the stack field); otherwise the escapes are undone in place.
 */
export function unescapeJsonText(text: string): string {
  if (!looksJsonEscaped(text)) return text;
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t.startsWith('{') && t.endsWith('}')) {
      const best = longestMultiline(safeParse(t));
      if (best) {
        out.push(best);
        continue;
      }
    }
    out.push(line.includes('\\n') ? unescapeInPlace(line) : line);
  }
  return out.join('\n');
}

function safeParse(t: string): unknown {
  try {
    return JSON.parse(t);
  } catch {
    return null;
  }
}

function longestMultiline(v: unknown, depth = 0): string | null {
  if (depth > 8 || v === null) return null;
  if (typeof v === 'string') return v.includes('\n') ? v : null;
  if (typeof v !== 'object') return null;
  let best: string | null = null;
  for (const x of Object.values(v as Record<string, unknown>)) {
    const s = longestMultiline(x, depth + 1);
    if (s && (!best || s.length > best.length)) best = s;
  }
  return best;
}

function unescapeInPlace(s: string): string {
  return s.replace(JSON_ESCAPE, (_m, e: string) => {
    switch (e[0]) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'u':
        return String.fromCharCode(parseInt(e.slice(1), 16));
      default:
        return e;
    }
  });
}

const NUM_ONLY = /^\s{0,8}\d{1,7}\s{0,4}$/;
const NUM_BAR = /^\s{0,8}\d{1,7}\s{0,3}[|│:] ?/;
const NUM_SPACES = /^\s{0,8}(\d{1,7}) {2,4}/;

/**
 * Remove log-viewer line numbers: "123 | text", "  123  text", or numbers on lines of
 * their own between the copied lines. Applied only when most lines carry them, so a
 * traceback that merely contains numbers is left alone.
 */
export function stripLineGutters(lines: string[]): string[] {
  const nonBlank = lines.filter((l) => l.trim() !== '');
  if (nonBlank.length < 3) return lines;
  const share = (re: RegExp) => nonBlank.filter((l) => re.test(l)).length / nonBlank.length;
  if (share(NUM_ONLY) >= 0.3) return lines.filter((l) => !NUM_ONLY.test(l));
  if (share(NUM_BAR) >= 0.6) return lines.map((l) => l.replace(NUM_BAR, ''));
  if (share(NUM_SPACES) >= 0.6 && consecutive(nonBlank)) return lines.map((l) => l.replace(NUM_SPACES, ''));
  return lines;
}

function consecutive(lines: string[]): boolean {
  let prev = -1;
  let ok = 0;
  for (const l of lines) {
    const m = NUM_SPACES.exec(l);
    if (!m) continue;
    const n = Number(m[1]);
    if (prev >= 0 && n === prev + 1) ok++;
    prev = n;
  }
  return ok >= lines.length * 0.5;
}

/** A prefix every line shares (container timestamp, pod name): strip it when it is clearly not traceback text. */
export function stripCommonPrefix(lines: string[]): string[] {
  const nonBlank = lines.filter((l) => l.trim() !== '');
  if (nonBlank.length < 3) return lines;
  let p = nonBlank[0]!;
  for (const l of nonBlank) {
    let i = 0;
    const max = Math.min(p.length, l.length, 120);
    while (i < max && p[i] === l[i]) i++;
    p = p.slice(0, i);
    if (!p) return lines;
  }
  // Keep gutters and indentation: only a prefix with a digit or letter before them counts.
  const cut = p.search(/\s*[|+│]?\s*$/);
  const prefix = p.slice(0, cut === -1 ? p.length : cut);
  if (prefix.length < 6 || !/\d/.test(prefix) || /^\s/.test(prefix)) return lines;
  const end = prefix.endsWith(' ') ? prefix.length : prefix.lastIndexOf(' ') + 1;
  if (end <= 0) return lines;
  return lines.map((l) => (l.startsWith(prefix.slice(0, end)) ? l.slice(end) : l));
}

/** Everything the parsers expect: LF line ends, no ANSI, no viewer gutters, no shared prefix, no literal \n. */
export function normalizeText(text: string): string[] {
  let t = stripAnsi(text).replace(/\r\n?/g, '\n');
  t = unescapeJsonText(t);
  let lines = t.split('\n').map((l) => l.trimEnd());
  lines = stripLineGutters(lines);
  lines = stripCommonPrefix(lines);
  return lines;
}
