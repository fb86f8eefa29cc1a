// Session ids (redaction.md "Keyed pseudonymisation"): pass 1 collects full ids from every
// file into a SessionIdBook; pass 2 replaces every spelling of them, and resolves masked
// forms (`abcd1234****`, `****abcd`, `abcd…`) against the book.
import { detach } from '../../../parsers/engine/lines.ts';
import { canonicalId, pseudonym, sessionPseudonym } from './pseudonym.ts';
import type { MaskedResolution } from './types.ts';

const PSEUDO = /^sess_[a-z2-7]{10,}$/;

/** Raw session ids seen in the inputs (memory only; never persisted). */
export class SessionIdBook {
  readonly raw = new Set<string>();
  /** Bumped on every new id, so redactors can refresh their sweep tables (stdin mode). */
  version = 0;
  /** Pretty-printed HAR: the `"name": "mcp-session-id"` line comes before its `"value"` line. */
  lastHeaderName: string | null = null;
  add(id: string): void {
    const v = id.trim();
    // Our own pseudonym with punctuation glued on (a report's `sess_…` in a code span) is no raw id.
    if (v.length >= 6 && v.length <= 256 && !PSEUDO.test(v) && !PSEUDO.test(v.replace(/[^A-Za-z0-9]+$/, '')) && !this.raw.has(v)) {
      this.raw.add(detach(v));
      this.version++;
    }
  }
  /**
   * Forget the ids added after the first `size` (insertion order): an ingest chunk's additions,
   * so the next chunk starts from the same book (server/ingest/chunks.ts).
   */
  truncate(size: number): string[] {
    const extra = [...this.raw].slice(size);
    if (!extra.length) return extra;
    for (const id of extra) this.raw.delete(id);
    this.version++;
    return extra;
  }
  /**
   * A full id that this token is a shortened spelling of (a strict prefix of 8+ characters, as
   * logged or as canonical hex), when exactly one id qualifies; else null. `session 3f2a9c1e
   * expired` names the session whose id starts so.
   */
  completePrefix(token: string): string | null {
    if (token.length < 8) return null;
    if (this.prefixIndex === null || this.prefixVersion !== this.version) {
      this.prefixIndex = new Map();
      for (const id of this.raw) {
        for (const f of new Set([id.toLowerCase(), canonicalId(id).toLowerCase()])) {
          const k = f.slice(0, 8);
          const list = this.prefixIndex.get(k) ?? [];
          list.push(id);
          this.prefixIndex.set(k, list);
        }
      }
      this.prefixVersion = this.version;
    }
    const t = token.toLowerCase();
    const tc = /^[0-9a-f-]+$/.test(t) ? t.replace(/-/g, '') : t;
    const ids = this.prefixIndex.get(tc.slice(0, 8));
    if (!ids) return null; // (most tokens)
    const hits = new Set<string>();
    for (const id of ids) {
      const forms = [id.toLowerCase(), canonicalId(id).toLowerCase()];
      if (forms.some((f) => f === t)) return null; // the whole id: the literal sweep's
      if (forms.some((f) => f.startsWith(t) || f.startsWith(tc))) hits.add(canonicalId(id));
    }
    return hits.size === 1 ? [...this.raw].find((id) => canonicalId(id) === [...hits][0])! : null;
  }
  private prefixIndex: Map<string, string[]> | null = null;
  private prefixVersion = -1;
  /** Every spelling of every id that the literal sweep must catch, longest first. */
  variants(): string[] {
    const out = new Set<string>();
    for (const id of this.raw) for (const v of idVariants(id)) out.add(v);
    return [...out].sort((a, b) => b.length - a.length);
  }
  /**
   * Resolve a masked id's visible part against the full ids (see MaskedResolution). For
   * `middle`, `visible` is the head and `tail` the end: an id must start with one and end with the other.
   */
  resolveMasked(key: Uint8Array, visible: string, position: 'prefix' | 'suffix' | 'middle', tail = ''): MaskedResolution {
    const match = (part: string, at: 'prefix' | 'suffix') => {
      const vis = part.toLowerCase();
      const visCanon = /^[0-9a-f-]+$/i.test(part) ? vis.replace(/-/g, '') : null;
      return (id: string) => {
        const forms = [id.toLowerCase(), canonicalId(id).toLowerCase()];
        if (forms[0] === vis) return false;
        return (
          forms.some((f) => (at === 'prefix' ? f.startsWith(vis) : f.endsWith(vis))) ||
          (visCanon !== null && visCanon.length > 0 && (at === 'prefix' ? forms[1]!.startsWith(visCanon) : forms[1]!.endsWith(visCanon)))
        );
      };
    };
    const head = match(visible, position === 'suffix' ? 'suffix' : 'prefix');
    const end = position === 'middle' ? match(tail, 'suffix') : () => true;
    const hits = new Set<string>();
    for (const id of this.raw) if (head(id) && end(id)) hits.add(canonicalId(id));
    if (position === 'middle') visible = `${visible}…${tail}`;
    const weak = visible.replace('…', '').length < 6;
    if (hits.size === 1) {
      const only = [...this.raw].find((id) => canonicalId(id) === [...hits][0])!;
      return { visible, position, status: 'matched', candidates: 1, pseudonym: sessionPseudonym(key, only), weak };
    }
    // Unresolved and ambiguous masks get their own pseudonym (HMAC of "masked:" + visible),
    // so an ambiguous mask never joins either candidate, yet repeats of it stay together.
    const p = pseudonym(key, 'masked-session', `${position}:${/^[0-9a-f…-]+$/i.test(visible) ? visible.toLowerCase().replace(/-/g, '') : visible}`);
    return { visible, position, status: hits.size === 0 ? 'unresolved' : 'ambiguous', candidates: hits.size, pseudonym: p, weak };
  }
}

/** The spellings of one id: as logged, canonical, UUIDs hyphenated/hex32 in both cases, percent-encoded. */
export function idVariants(id: string): string[] {
  const c = canonicalId(id);
  const out = new Set([id, c]);
  if (/^[0-9a-f]{32}$/.test(c)) {
    const hy = `${c.slice(0, 8)}-${c.slice(8, 12)}-${c.slice(12, 16)}-${c.slice(16, 20)}-${c.slice(20)}`;
    for (const v of [hy, hy.toUpperCase(), c.toUpperCase()]) out.add(v);
  }
  for (const v of [...out]) {
    const enc = encodeURIComponent(v);
    if (enc !== v) {
      out.add(enc);
      out.add(enc.toLowerCase().replace(/%[0-9a-f]{2}/g, (m) => m)); // %2f vs %2F spellings
      out.add(enc.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));
      out.add(encodeURIComponent(enc));
    }
    if (v.includes('/')) out.add(v.replace(/\//g, '\\/')); // JSON-escaped slash
  }
  return [...out].filter((v) => v.length >= 6);
}

// Places a raw session id shows up in MCP logs (redaction.md "What MCP puts into logs").
// No quotes, backslashes or angle brackets inside an id: `"key":""` (an empty value) must not swallow the next key.
// Nor brackets, braces or parentheses: `"Mcp-Session-Id":[]string{"…"}` (a Go dump) names no id `[]string{`.
const ID = String.raw`([^\s"'\\<>\[\]{}()|,;]{6,256}?)`;
const END = String.raw`(?=$|[\s"',;&)\]}>\\\x60])`;
export const SESSION_ID_PATTERNS: RegExp[] = [
  // (Also Go header maps: `"Mcp-Session-Id":[]string{"<id>"}`.)
  new RegExp(String.raw`mcp[-_]?session[-_]?id\\{0,7}["']?\s{0,8}[:=]\s{0,8}(?:\[\]string\{|\[)?\\{0,7}["']?` + ID + END, 'gi'),
  new RegExp(String.raw`(?:[?&;]|&amp;)(?:session_id|sessionId|mcp_session_id|session|sid)=` + ID + String.raw`(?=$|[\s"',;&)\]}>#\\])`, 'g'),
  // (No leading `\\{0,7}`: backslashes before the opening quote change neither which ids match
  // nor the captured id, and a pattern that starts with the quote is scanned much faster.)
  /["'](?:session_id|sessionId|mcp_session_id|mcpSessionId|mcp-session-id)\\{0,7}["']\s{0,8}:\s{0,8}\\{0,7}["']([^"'\\\s]{6,256})/gi,
  /\bsid="([^"\s]{6,256})"/g,
  new RegExp(
    String.raw`(?:Received session ID|Created new transport with session ID|[Ss]ession initialized with ID|[Tt]ransport closed for session|Created new session with ID|Rejected request with unknown or expired session ID|Terminating session|Transport not found for sessionId|No transport found for sessionId|[Nn]o transport for session|Session ID|session ID|session id|sessionId)[:=]?\s{1,8}` +
      ID +
      END,
    'g',
  ),
  new RegExp(String.raw`\bSession ` + ID + String.raw` (?:idle timeout|crashed|terminated|expired|closed)`, 'g'),
  // Error messages and logfmt/dotted keys: `Session not found: <id>`, `(mcp-session-id <id>)`,
  // `mcp.session=<id>`, `session=<id>` (a word there is no id: see WORD and the digit rule below).
  new RegExp(
    String.raw`(?:[Ss]ession not found|[Uu]nknown session|[Ii]nvalid session|[Ss]ession expired|mcp-session-id)[:=]?\s{1,8}\(?(?=[^\s"'\\<>\[\]{}()|,;]{0,255}[0-9])` + ID + END,
    'g',
  ),
  // (also logfmt's quoted `sessionId="<id>"`, `session_id='<id>'`)
  new RegExp(String.raw`(?<![A-Za-z0-9_\-])(?:mcp[._]session(?:[._]id)?|session(?:[_-]?[iI][dD])?)=["']?` + ID + END, 'g'),
  // OTel / header maps: `"http.request.header.mcp-session-id":["<id>"]`.
  /["'](?:[\w.-]{1,80}\.)?(?:mcp-session-id|mcp_session_id|mcpsessionid)["']\s{0,8}:\s{0,8}\[\s{0,8}["']([^"'\\\s]{6,256})/gi,
  // A server's error body in prose: `MCP session with ID '<id>' could not be found`, the quote often
  // JSON-escaped (`\u0027`, `\"`) inside a logged body (microsoft/vscode#296545).
  new RegExp(String.raw`[Ss]ession with (?:ID|id|Id)\s{1,8}(?:\\u00(?:27|22)|\\{0,7}["'\x60])?` + ID + END, 'g'),
];

// collectSessionIds reads them with exec in a loop, which only advances for a global regex.
for (const re of SESSION_ID_PATTERNS) if (!re.global) throw new Error(`session id pattern ${re} must be global`);

/**
 * A substring each pattern above cannot match without (same index): a cheap test that skips a
 * regex scan of the line when it would find nothing. `i` marks a case-insensitive test.
 */
const NEEDS: Array<string | RegExp> = [
  /mcp/i, // mcp[-_]?session[-_]?id, case-insensitive
  '=', // ?session_id= …
  ':', // "sessionId": "…"
  'sid="',
  // Every phrase of pattern 4 ends in "ession", "ession ID", "ession id", "essionId" or
  // "ession with ID", and [:=]? and a blank follow: a literal-led scan, much cheaper.
  /ession(?: ID| id|Id| with ID)?[:=]?\s/,
  'Session ',
  /ession not found|nknown session|nvalid session|ession expired|mcp-session-id/,
  /ession(?:[_-]?[iI][dD])?=/,
  /session-id["']\s{0,8}:\s{0,8}\[/i,
  'ession with ',
];

const NOT_IDS = new Set(['None', 'null', 'undefined', 'none', 'provided', 'required', 'missing', 'invalid', 'header', 'expired']);
/** Patterns from this index on find ids in prose ("…for sessionId X"), where the next word may be just a word. */
const FREE_TEXT_FROM = 4;
/**
 * A word, not an id: prose like "Missing sessionId parameter" puts a word where an id would be.
 * Session ids are UUIDs, hex or base64url tokens: short runs of letters alone are not.
 */
const WORD = /^[A-Za-z]{6,15}$/;
const MASKED_TAIL = /(?:\*{3,}|…|\.\.\.|\[masked\])$/;

/** Pass 1: remember every full session id on this line. */
const HAR_NAME = /^\s{0,64}"name"\s{0,4}:\s{0,4}"([^"\\]{1,128})"\s{0,4},?\s{0,4}$/;
const HAR_VALUE = /^\s{0,64}"value"\s{0,4}:\s{0,4}"([^"\\\s]{6,256})"/;

const ANSI = /\x1b\[[0-9;]{0,16}m/g;
/** An id as captured may end in punctuation that is not part of it. */
const TRAILING_PUNCT = /[.:`*]$/;

export function collectSessionIds(raw: string, book: SessionIdBook): void {
  // Colours between a key and its value (`mcp-session-id\x1b[0m: \x1b[35m<id>`) hide neither.
  const line = raw.includes('\x1b[') ? raw.replace(ANSI, '') : raw;
  const name = HAR_NAME.exec(line);
  if (name) {
    book.lastHeaderName = name[1]!;
    return;
  }
  if (book.lastHeaderName !== null) {
    const v = HAR_VALUE.exec(line);
    if (v && /^(?:mcp-?session-?id|session-?id|mcp_session_id)$/i.test(book.lastHeaderName)) book.add(v[1]!);
    if (line.trim()) book.lastHeaderName = null;
  }
  if (!/session|sid=|sid"/i.test(line)) return;
  for (let p = 0; p < SESSION_ID_PATTERNS.length; p++) {
    const re = SESSION_ID_PATTERNS[p]!;
    const need = NEEDS[p];
    if (need !== undefined && !(typeof need === 'string' ? line.includes(need) : need.test(line))) continue;
    re.lastIndex = 0;
    // exec in a loop is matchAll without its per-call copy of the regex (no match here is empty)
    for (let m = re.exec(line); m !== null; m = re.exec(line)) {
      const id = TRAILING_PUNCT.test(m[1]!) ? m[1]!.replace(/[.:`*]+$/, '') : m[1]!;
      if (book.raw.has(id.trim())) continue; // known already: adding it again would change nothing
      if (p >= FREE_TEXT_FROM && WORD.test(id)) continue;
      // The error-message and logfmt forms take an id only if it has a digit (`session=expired` is a word).
      if (p >= 6 && p <= 7 && !/[0-9]/.test(id)) continue;
      if (NOT_IDS.has(id) || /^\*+/.test(id) || MASKED_TAIL.test(id) || id.includes('…') || /\*{3,}/.test(id) || X_MASKED.test(id) || id.includes('...')) continue;
      if (id.startsWith('[REDACTED') || id.startsWith('<') || PSEUDO.test(id)) continue;
      book.add(id);
    }
  }
}

/** Masked id forms: VISIBLE + (*** | … | ... | [masked]), (*** | … | ... | [masked]) + VISIBLE, and HEAD + mask + TAIL. */
export const MASKED_PREFIX = /(?<![A-Za-z0-9_-])(?<v>[A-Za-z0-9_-]{4,64})(?<mask>\*{3,64}|…|\.\.\.|\[masked\])/dg;
export const MASKED_SUFFIX = /(?<![A-Za-z0-9_\-*.…\]])(?<mask>\*{3,64}|…|\.\.\.|\[masked\])(?<v>[A-Za-z0-9_-]{4,64})(?![A-Za-z0-9_-])/dg;
// `3f2a…3a4b`, `3f2a9c1e****3a4b`, `3f2a9c1e-****-****-****-********3a4b`, `3f2a9c1e-xxxx-…-xxxxxxxx3a4b`.
// Mask groups after the first need a `-`, so a run of stars splits one way only (no blow-up).
const MASK_UNIT = String.raw`(?:\*{2,64}|…|\.\.\.|x{4,64}|X{4,64})`;
export const MASKED_MIDDLE = new RegExp(
  String.raw`(?<![A-Za-z0-9_\-])(?<a>[A-Za-z0-9_]{2,64})(?<mask>-?${MASK_UNIT}(?:-${MASK_UNIT}){0,8}-?)(?<b>[A-Za-z0-9_]{2,64})(?![A-Za-z0-9_\-*])`,
  'dg',
);
/** A logged id whose middle or end is x'ed out is a masked form, not a full id. */
const X_MASKED = /(?:^|[-_])x{4,}(?:[-_]|$)|x{6,}/i;
