// The engine: runs the rule tables over one string, in the pipeline order of README.md.
// Rules are data (rules/*.ts); this file only knows how to apply them.
import { Editor, type Edit } from './editor.ts';
import { LiteralSweeper } from './sweeper.ts';
import { parseJsonAt, quoteLike, summarise, type JMember, type JNode } from './json.ts';
import { pseudonym, sessionPseudonym } from './pseudonym.ts';
import { CONTEXT_RULES } from './rules/context.ts';
import { FORMAT_RULES } from './rules/formats.ts';
import { ARGUMENT_KEYS, JSON_PATH_RULES, matchJsonPath } from './rules/json-paths.ts';
import { classifyKey, isHostKey, isInert, isUserKey, OAUTH_CONTEXT, passwordLike, type KeyClass } from './rules/keys.ts';
import { isBusinessKey, isPersonAccount } from './rules/context.ts';
import { hostValue } from './rules/pii.ts';
import { PII_RULES } from './rules/pii.ts';
import { idVariants, MASKED_MIDDLE, MASKED_PREFIX, MASKED_SUFFIX, type SessionIdBook } from './session.ts';
import type { SecretLedger } from './ledger.ts';
import { ingestGate } from './tiers.ts';
import { inertRanges, registerRuleIds } from './vocabulary.ts';
import { placeholder, type MaskedResolution, type PatternRule, type RedactResult, type RuleContext, type SecretKind } from './types.ts';

export const MAX_DECODE_DEPTH = 3;
export const MAX_DECODE_SPAN = 64 * 1024;

/**
 * Which rules run (redaction.md "Tiers"): `ingest` = the sweeps, then the ingest rules behind
 * their gates (tiers.ts); `all` = every rule, decode views and business data (strict ingest,
 * `redact`, every exit, the verifier).
 */
export type EngineTier = 'ingest' | 'all';

export interface EngineState {
  key: Uint8Array;
  book: SessionIdBook;
  ledger: SecretLedger;
  tier: EngineTier;
  /** Tests only: run the ingest tier without its gates (tiers.test.ts proves they change nothing). */
  ungated?: boolean;
  /** Rule tables (tests may swap them). */
  format: PatternRule[];
  context: PatternRule[];
  pii: PatternRule[];
}

// ---------- rule application ----------

// A class, not an object literal with a closure: rule contexts are made per match in hot loops
// (tsx keeps function names, so every closure creation costs a defineProperty).
class Ctx implements RuleContext {
  keyHint?: string;
  constructor(
    private readonly st: EngineState,
    readonly key: Uint8Array,
    readonly line: string,
    keyHint: string | undefined,
  ) {
    if (keyHint !== undefined) this.keyHint = keyHint;
  }
  record(rule: string, raw: string, kind: SecretKind): void {
    this.st.ledger.record(rule, raw, kind);
  }
}

function ruleContext(st: EngineState, text: string, keyHint?: string): RuleContext {
  return new Ctx(st, st.key, text, keyHint);
}

function inInert(inert: Array<[number, number]>, i: number): boolean {
  for (const [a, b] of inert) if (i >= a && i < b) return true;
  return false;
}

// Keyword prefilter. Most strings (JSON leaves, short lines) hold few distinct characters: a
// keyword with an ASCII character the string lacks cannot occur, so `includes` only runs for
// keywords whose characters are all present. A 128-bit set (4 ints) per keyword and per string.
const kwMasks = new WeakMap<readonly string[], Int32Array>();
function keywordMasks(keywords: readonly string[]): Int32Array {
  let m = kwMasks.get(keywords);
  if (!m) {
    m = new Int32Array(keywords.length * 4);
    for (let j = 0; j < keywords.length; j++) {
      const k = keywords[j]!;
      for (let i = 0; i < k.length; i++) {
        const c = k.charCodeAt(i);
        if (c < 128) m[j * 4 + (c >> 5)]! |= 1 << (c & 31);
      }
    }
    kwMasks.set(keywords, m);
  }
  return m;
}

/** The ASCII characters of a string as a 128-bit set. */
class CharSet {
  m0 = 0;
  m1 = 0;
  m2 = 0;
  m3 = 0;
  constructor(s: string) {
    let m0 = 0,
      m1 = 0,
      m2 = 0,
      m3 = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 32) m0 |= 1 << c;
      else if (c < 64) m1 |= 1 << (c - 32);
      else if (c < 96) m2 |= 1 << (c - 64);
      else if (c < 128) m3 |= 1 << (c - 96);
    }
    this.m0 = m0;
    this.m1 = m1;
    this.m2 = m2;
    this.m3 = m3;
  }
}

function hasKeyword(lower: string, chars: CharSet, keywords: readonly string[]): boolean {
  const km = keywordMasks(keywords);
  for (let j = 0; j < keywords.length; j++) {
    const o = j * 4;
    if ((km[o]! & ~chars.m0) | (km[o + 1]! & ~chars.m1) | (km[o + 2]! & ~chars.m2) | (km[o + 3]! & ~chars.m3)) continue;
    if (lower.includes(keywords[j]!)) return true;
  }
  return false;
}

function includesAll(text: string, parts: readonly string[]): boolean {
  for (const p of parts) if (!text.includes(p)) return false;
  return true;
}

const plainPatterns = new WeakMap<RegExp, RegExp>();

/**
 * `rule.pattern.exec(text)` from its lastIndex, except that matches the rule's gate rejects are
 * skipped the way a failed validate skips them (scanning resumes at the value's start), and
 * found by a copy of the pattern without the `d` flag: most key=value matches name a key of
 * another class, and building their indices was most of the cost.
 */
function gatedExec(rule: PatternRule, text: string, ctx: RuleContext): RegExpExecArray | null {
  const re = rule.pattern;
  let plain = plainPatterns.get(re);
  if (!plain) plainPatterns.set(re, (plain = new RegExp(re.source, re.flags.replace('d', ''))));
  plain.lastIndex = re.lastIndex;
  for (;;) {
    const pm = plain.exec(text);
    if (pm === null) {
      re.lastIndex = 0;
      return null;
    }
    const v = pm.groups?.v;
    if (pm[0].length === 0 || v === undefined || rule.gate!(pm, ctx)) {
      re.lastIndex = pm.index;
      return re.exec(text); // the same match, now with indices
    }
    plain.lastIndex = Math.max(pm.index + 1, pm.index + pm[0].length - v.length);
  }
}

export function runPatternRules(ed: Editor, rules: PatternRule[], st: EngineState, keyHint?: string): void {
  let lower: string | null = null;
  let chars: CharSet | null = null;
  for (const rule of rules) {
    if (rule.minLength !== undefined && ed.text.length < rule.minLength) continue; // cheapest first
    if (rule.keywords) {
      if (lower === null) {
        // A JSON leaf's key counts too: `"ssn": "585-74-6161"` has its keyword in the key.
        lower = keyHint ? `${ed.text.toLowerCase()}\n${keyHint.toLowerCase()}` : ed.text.toLowerCase();
        chars = new CharSet(lower);
      }
      if (!hasKeyword(lower, chars!, rule.keywords)) continue;
    }
    if (rule.minLength !== undefined && ed.text.length < rule.minLength) continue;
    if (rule.requires !== undefined && !includesAll(ed.text, rule.requires)) continue;
    const text = ed.text;
    const re = rule.pattern;
    re.lastIndex = 0;
    const gateCtx = rule.gate ? ruleContext(st, text, keyHint) : null;
    let m = gateCtx ? gatedExec(rule, text, gateCtx) : re.exec(text);
    if (m === null) continue; // most rules find nothing: no context, no ranges
    const ctx = gateCtx ?? ruleContext(st, text, keyHint);
    // Our own output is inert: `[REDACTED:vendor-token:github]` or a report's `@vendor-token:github`
    // must not read as `token: github` to the key rules (vocabulary.ts).
    const inert = inertRanges(text);
    const edits: Edit[] = [];
    for (; m !== null; m = gateCtx ? gatedExec(rule, text, gateCtx) : re.exec(text)) {
      if (m[0].length === 0) {
        re.lastIndex++;
        continue;
      }
      const span = m.indices?.groups?.v ?? m.indices![0]!;
      let [s, e] = span;
      // A value may hold further keys (`a=1&access_token=x`): resume scanning inside it.
      re.lastIndex = Math.max(m.index + 1, s);
      if (e <= s) continue;
      let value = text.slice(s, e);
      if (rule.validate && !rule.validate(value, m, ctx)) continue;
      if (rule.narrow) {
        e = s + rule.narrow(value, m, ctx);
        value = text.slice(s, e);
        if (e <= s) continue;
      }
      re.lastIndex = Math.max(m.index + 1, e);
      // A value that starts inside our own output is that output (a rule id, a placeholder).
      if (inInert(inert, s)) continue;
      if (isInert(value) || ed.isFrozen(s, e) || ed.insideRemark(s, e)) continue;
      const replacement = rule.replace ? rule.replace(value, ctx, m) : placeholder(rule.id);
      if (replacement === null || replacement === value) continue;
      const id = rule.ruleFor ? rule.ruleFor(m, ctx) : rule.id;
      st.ledger.record(id, value, rule.secretKind ?? 'secret', replacement);
      for (const part of rule.recordParts?.(value) ?? []) st.ledger.record(id, part, rule.secretKind ?? 'secret', replacement);
      edits.push({ start: s, end: e, text: replacement, rule: id });
    }
    if (edits.length) {
      ed.apply(edits);
      lower = null;
      chars = null;
    }
  }
}

// ---------- session ids ----------

/**
 * A masked value no known id completes is taken for a session id only where the line names a session just before it
 * (`session 99aa77bb55**** expired`, `Mcp-Session-Id: 3f2a…`, `?session_id=3f2a…`): in an MCP server's journal every
 * line says `mcp`, and a refund id the user x'ed out (`refund=re_7Kq2xxxxxxxx`) is that refund's, not a session's.
 */
function namedSession(text: string, at: number): boolean {
  return /(?:session|\bsid\b)[^\n]{0,24}$/i.test(text.slice(Math.max(0, at - 48), at));
}

/** A number with a unit of time, size or rate: what trails off before an ellipsis in prose, never an id's visible part. */
const QUANTITY = /^\d{1,12}(?:[.,]\d{1,6})?(?:ms|us|µs|ns|s|sec|secs|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|b|bytes?|kb|kib|mb|mib|gb|gib|tb|k|%|x|rps|qps)$/i;

function sweepSessions(ed: Editor, st: EngineState, sessionSweeper: LiteralSweeper): void {
  ed.apply(sessionSweeper.edits(ed.text));
  const masked = /\*{2}|…|\.\.\.|\[masked\]|xxxx/i.test(ed.text);
  const sessionish = /session|sid\b|mcp/i.test(ed.text);
  if (!masked && !(sessionish && st.book.raw.size)) return;
  const edits: Edit[] = [];
  // Our own pseudonyms and placeholders are never a masked or shortened id (`sess_…` in a report).
  let inert: Array<[number, number]> | null = null;
  const ours = (s: number, e: number) => (inert ??= inertRanges(ed.text)).some(([a, b]) => s < b && e > a);
  if (masked) {
    // Middle forms first: `3f2a…3a4b` is one masked id, not a prefix `3f2a…` and a word `3a4b`.
    MASKED_MIDDLE.lastIndex = 0;
    for (const m of ed.text.matchAll(MASKED_MIDDLE)) {
      const [s, e] = m.indices![0]!;
      if (ed.insideRemark(s, e) || ours(s, e)) continue;
      const res = st.book.resolveMasked(st.key, m.groups!.a!, 'middle', m.groups!.b!);
      if (res.candidates === 0 && !(namedSession(ed.text, s) && /[0-9]/.test(m.groups!.a! + m.groups!.b!))) continue;
      edits.push({ start: s, end: e, text: res.pseudonym, rule: '@mcp-session-masked', info: res });
    }
    for (const [re, position] of [
      [MASKED_PREFIX, 'prefix'],
      [MASKED_SUFFIX, 'suffix'],
    ] as const) {
      re.lastIndex = 0;
      for (const m of ed.text.matchAll(re)) {
        const visible = m.groups!.v!;
        const [s, e] = m.indices![0]!;
        if (ed.insideRemark(s, e) || overlapsAny(edits, s, e) || ours(s, e) || /^(?:sess|h|host|email|ip|user|req)[-_]$/.test(visible)) continue;
        const res = st.book.resolveMasked(st.key, visible, position);
        // Only treat it as a session id in session context, or when it resolves to a known id — and never a
        // quantity trailing off in prose (`reconnecting in 2000ms...`, `uploaded 12MB...`): no id is a number and a unit
        // (nor a port: curl's `Trying [::1]:4100...`)
        const port = position === 'prefix' && ed.text[s - 1] === ':' && /^\d{1,5}$/.test(visible);
        if (res.candidates === 0 && (!(namedSession(ed.text, s) && /[0-9]/.test(visible)) || QUANTITY.test(visible) || port)) continue;
        edits.push({ start: s, end: e, text: res.pseudonym, rule: '@mcp-session-masked', info: res });
      }
    }
  }
  // A shortened spelling with no mask at all (`session 3f2a9c1e expired`): joined only when one id starts so.
  if (sessionish && st.book.raw.size) {
    for (const [s, e, digit] of idTokens(ed.text)) {
      if (ed.insideRemark(s, e) || overlapsAny(edits, s, e) || !digit) continue;
      const token = ed.text.slice(s, e);
      // Almost no token completes an id: ask that first, and look for our own output (inertRanges,
      // a scan of the whole line) only for one that does. Both are tests without side effects.
      const full = st.book.completePrefix(token);
      if (full === null || ours(s, e)) continue;
      const info: MaskedResolution = { visible: token, position: 'prefix', status: 'matched', candidates: 1, pseudonym: sessionPseudonym(st.key, full), weak: false };
      edits.push({ start: s, end: e, text: info.pseudonym, rule: '@mcp-session-masked', info });
    }
  }
  ed.apply(edits);
}

/**
 * The matches of /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{8,64}(?![A-Za-z0-9_\-*…])/g, as [start, end, has a
 * digit], found in one pass over the characters: such a match is a whole run of those characters
 * (the look-behind rules out a start inside a run; inside a run the next character is one of them, so
 * the look-ahead rules out a shorter match), 8 to 64 long, not followed by `*` or `…`.
 */
export function idTokens(text: string): Array<[number, number, boolean]> {
  const out: Array<[number, number, boolean]> = [];
  const n = text.length;
  for (let i = 0; i < n; ) {
    if (!isIdChar(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const s = i;
    let digit = false;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (!isIdChar(c)) break;
      if (c >= 48 && c <= 57) digit = true;
    }
    if (i - s < 8 || i - s > 64) continue;
    const next = i < n ? text.charCodeAt(i) : -1;
    if (next === 42 /* * */ || next === 0x2026 /* … */) continue;
    out.push([s, i, digit]);
  }
  return out;
}

/** [A-Za-z0-9_-] */
function isIdChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45;
}

// ---------- structural JSON (and Python reprs) ----------

const SECRET_CLASS_RULE: Record<KeyClass, string | null> = {
  authorization: '@authorization',
  cookie: '@cookie',
  'set-cookie': '@cookie',
  'api-key': '@api-key',
  secret: '@secret-key',
  'oauth-code': '@oauth-code',
  'env-secret': '@env-secret',
  session: null,
};

function summaryEdit(n: JNode, rule: string, q: '"' | "'", edits: Edit[]): void {
  if (n.t === 'str' && isInert(n.value)) return;
  if (n.t === 'null') return;
  edits.push({ start: n.start, end: n.end, text: quoteLike(summarise(n), n.t === 'str' ? n.quote : q), rule, originalLength: n.end - n.start });
}

const AUTH_SCHEME_WORD = /^[A-Za-z][A-Za-z0-9-]{1,30}\s{1,8}(?=\S)/;

function redactEdit(n: JNode, rule: string, q: '"' | "'", st: EngineState, edits: Edit[]): void {
  if (n.t === 'str' && isInert(n.value)) return;
  if (n.t !== 'str' && n.t !== 'num') return;
  const raw = n.t === 'str' ? n.value : n.raw;
  // Authorization keeps its scheme word (Bearer vs Basic is diagnostic).
  const scheme = rule === '@authorization' ? (AUTH_SCHEME_WORD.exec(raw)?.[0] ?? '') : '';
  st.ledger.record(rule, raw.slice(scheme.length), 'secret', placeholder(rule));
  edits.push({ start: n.start, end: n.end, text: quoteLike(scheme + placeholder(rule), n.t === 'str' ? n.quote : q), rule, originalLength: raw.length });
}

/**
 * JSON string leaves repeat a lot ("request completed", "POST", a host name): remember the ones
 * redactString left untouched. Exact by construction: an unchanged result with no remarks had
 * no side effects (nothing was recorded), and the result depends only on the string, the depth,
 * the key hint, the key, the rule tables, the session-id book and the ledger's sweep table, so
 * the memo is dropped whenever any of those changes.
 */
interface CleanMemo {
  book: number;
  swept: number;
  key: Uint8Array;
  format: PatternRule[];
  context: PatternRule[];
  pii: PatternRule[];
  clean: Set<string>;
  /** Leaves that did change but left no trace in the ledger: their output (text, first rule). */
  changed: Map<string, { text: string; rule: string }>;
}
const cleanMemos = new WeakMap<EngineState, CleanMemo>();
const MEMO_MAX_LEN = 512;
const MEMO_MAX_ENTRIES = 100_000;

function memoFor(st: EngineState): CleanMemo {
  let c = cleanMemos.get(st);
  const swept = st.ledger.sweeper.size();
  if (!c || c.book !== st.book.version || c.swept !== swept || c.key !== st.key || c.format !== st.format || c.context !== st.context || c.pii !== st.pii) {
    c = { book: st.book.version, swept, key: st.key, format: st.format, context: st.context, pii: st.pii, clean: new Set(), changed: new Map() };
    cleanMemos.set(st, c);
  }
  return c;
}

function redactLeaf(node: JNode & { t: 'str' }, st: EngineState, depth: number, edits: Edit[], keyHint?: string): void {
  const value = node.value;
  const memoKey = value.length <= MEMO_MAX_LEN ? `${depth}\u0000${keyHint === undefined ? '\u0001' : keyHint}\u0000${value}` : null;
  if (memoKey !== null) {
    const memo = memoFor(st);
    if (memo.clean.has(memoKey)) return;
    const hit = memo.changed.get(memoKey);
    if (hit !== undefined) {
      edits.push({ start: node.start, end: node.end, text: quoteLike(hit.text, node.quote), rule: hit.rule, originalLength: node.end - node.start });
      return;
    }
  }
  const ledgerSize = st.ledger.size;
  const overflow = st.ledger.overflow;
  const inner = redactString(value, st, depth + 1, keyHint);
  if (inner.text !== value) {
    const rule = inner.remarks.length ? inner.remarks[0]!.rule : '@json-string';
    edits.push({ start: node.start, end: node.end, text: quoteLike(inner.text, node.quote), rule, originalLength: node.end - node.start });
    // Same exactness argument as `clean`: nothing new was recorded, so a repeat of this leaf
    // (a session id swept to its pseudonym, a host) would produce this output and nothing else.
    if (memoKey !== null && st.ledger.size === ledgerSize && st.ledger.overflow === overflow) {
      const memo = memoFor(st);
      if (memo.clean.size + memo.changed.size >= MEMO_MAX_ENTRIES) {
        memo.clean.clear();
        memo.changed.clear();
      }
      memo.changed.set(memoKey, { text: inner.text, rule });
    }
  } else if (memoKey !== null && inner.remarks.length === 0) {
    const memo = memoFor(st); // the book or ledger may have moved during the call: a fresh memo then
    if (memo.clean.size + memo.changed.size >= MEMO_MAX_ENTRIES) {
      memo.clean.clear();
      memo.changed.clear();
    }
    memo.clean.add(memoKey);
  }
}

function walkJson(node: JNode, path: string[], st: EngineState, depth: number, loose: boolean, line: string, edits: Edit[], keyHint?: string): void {
  const q = loose ? "'" : '"';
  if (node.t === 'obj') {
    // HAR / header lists: {"name": "Authorization", "value": "Bearer …"}
    let nameM: JMember | undefined;
    let valueM: JMember | undefined;
    for (const m of node.members) {
      if (nameM === undefined && m.key === 'name' && m.value.t === 'str') nameM = m;
      if (valueM === undefined && m.key === 'value') valueM = m;
    }
    let harRule: string | null = null;
    if (nameM && valueM && nameM.value.t === 'str') {
      const cls = classifyKey(nameM.value.value);
      if (cls && !(cls === 'oauth-code' && !OAUTH_CONTEXT.test(line))) harRule = SECRET_CLASS_RULE[cls];
      if (path.length >= 2 && path[path.length - 2] === 'cookies') harRule = '@cookie';
    }
    const all = st.tier === 'all';
    for (const m of node.members) {
      const p = [...path, m.key];
      // Business data, hosts and accounts by position are the exit tier's (at ingest only with --strict).
      const pathRule = all ? (matchJsonPath(p) ?? (m.key === 'arguments' && nameM ? { rule: '@tool-arguments', keep: [] } : null)) : null;
      if (pathRule) {
        summariseContainer(m.value, pathRule.rule, pathRule.keep, p, false, { st, depth, loose, line, edits, key: m.key, q });
        continue;
      }
      if (harRule && m === valueM) {
        redactEdit(m.value, harRule, q, st, edits);
        continue;
      }
      // `"upstream_addr": "orders_mcp_backend"`: a host a key names (as @host does in text).
      if (all && m.value.t === 'str' && isHostKey(m.key)) {
        const h = hostValue(st.key, m.value.value);
        if (h !== null) {
          edits.push({ start: m.value.start, end: m.value.end, text: quoteLike(h, m.value.quote), rule: '@host', originalLength: m.value.end - m.value.start });
          // As @host does in text: a host named here is swept where it reappears bare (a replica
          // name quoted in prose, e.g. a rationale in a report).
          const bare = m.value.value.replace(/:\d{1,5}$/, '');
          st.ledger.record('@host', bare, 'pii', h.slice(0, h.length - (m.value.value.length - bare.length)));
          continue;
        }
      }
      // `"customer": "Jane Roe"`, `"sku": "DSK-1"`: business data a key names (as @business-kv in text).
      if (all && (m.value.t === 'str' || m.value.t === 'num') && isBusinessKey(m.key, m.value.t === 'str' ? m.value.value : m.value.raw)) {
        summaryEdit(m.value, '@business-kv', q, edits);
        continue;
      }
      // `"username": "mary"`: the account a key names, in any JSON container (as @username in text).
      if (all && m.value.t === 'str' && isUserKey(m.key) && isPersonAccount(m.value.value)) {
        edits.push({
          start: m.value.start,
          end: m.value.end,
          text: quoteLike(pseudonym(st.key, 'user', m.value.value), m.value.quote),
          rule: '@username',
          originalLength: m.value.end - m.value.start,
        });
        st.ledger.record('@username', m.value.value, 'pii', pseudonym(st.key, 'user', m.value.value));
        continue;
      }
      const cls = classifyKey(m.key);
      const rule = cls ? SECRET_CLASS_RULE[cls] : null;
      if (rule && (m.value.t === 'str' || m.value.t === 'num')) {
        const v = m.value.t === 'str' ? m.value.value : m.value.raw;
        const skip =
          isInert(v) ||
          (cls === 'oauth-code' && (m.value.t !== 'str' || !OAUTH_CONTEXT.test(line))) ||
          (cls === 'secret' && /^\d{1,10}$/.test(v) && !passwordLike(m.key)) ||
          (cls === 'authorization' && /^[A-Za-z0-9-]{1,30}\s+\[REDACTED/.test(v));
        if (!skip) {
          redactEdit(m.value, rule, q, st, edits);
          continue;
        }
      }
      walkJson(m.value, p, st, depth, loose, line, edits, m.key);
    }
    return;
  }
  if (node.t === 'arr') {
    for (const it of node.items) walkJson(it, [...path, '[]'], st, depth, loose, line, edits, keyHint);
    return;
  }
  if (node.t === 'str') {
    if (node.value.length === 0) return;
    redactLeaf(node, st, depth, edits, keyHint);
  }
}

interface WalkEnv {
  st: EngineState;
  depth: number;
  loose: boolean;
  line: string;
  edits: Edit[];
  /** The member key that matched the path rule (the key hint of walked values). */
  key: string;
  q: '"' | "'";
}

/**
 * Business data: objects keep their keys, values become `<string len=N>`-style summaries.
 * The keep-list applies to content items (array members); a bare object (structuredContent,
 * an elicitation answer) keeps only `type`/`mimeType`, since any other key may be data.
 */
function summariseContainer(n: JNode, rule: string, keep: string[], path: string[], inArray: boolean, env: WalkEnv): void {
  if (n.t === 'obj') {
    const k = inArray ? keep : keep.filter((x) => x === 'type' || x === 'mimeType');
    for (const m of n.members) {
      if (k.includes(m.key)) walkJson(m.value, [...path, m.key], env.st, env.depth, env.loose, env.line, env.edits, env.key);
      else summaryEdit(m.value, rule, env.q, env.edits);
    }
  } else if (n.t === 'arr') {
    for (const it of n.items) {
      if (it.t === 'obj') summariseContainer(it, rule, keep, [...path, '[]'], true, env);
      else summaryEdit(it, rule, env.q, env.edits);
    }
  } else summaryEdit(n, rule, env.q, env.edits);
}

const JSON_START = /[{[]/g;
/** `{ customer: …` (util.inspect): worth a loose parse. */
const BARE_KEY = /^\{\s{0,8}[A-Za-z_$][\w$]{0,64}\s{0,4}:/;

const MEMBER_LINE = /^(?<ws>\s{0,64})(?<key>"(?:[^"\\]|\\.){1,256}")\s{0,8}:\s{0,8}/d;

/** A line of pretty-printed JSON (`  "key": value,`): walk it as a one-member object. */
function memberLine(ed: Editor, st: EngineState, depth: number): boolean {
  const text = ed.text;
  const m = MEMBER_LINE.exec(text);
  if (!m) return false;
  const key = parseJsonAt(text, m.indices!.groups!.key![0]);
  const value = parseJsonAt(text, m[0].length);
  if (!key || key.t !== 'str' || !value) return false;
  if (text.slice(value.end).replace(/[\s,]/g, '') !== '') return false;
  const edits: Edit[] = [];
  walkJson({ t: 'obj', start: 0, end: text.length, members: [{ key: key.value, value }] }, [], st, depth, false, text, edits);
  const before = ed.text.length;
  ed.apply(edits);
  ed.frozen.push([0, value.end + (ed.text.length - before)]);
  return true;
}

// Free-text arguments: `arguments: {…}`, `args=(…)`, `tool_input={…}`, a quoted string or the rest
// of the line. Everything under arguments is business data, whatever its language or syntax.
const ARG_LEAD = new RegExp(
  [
    // `arguments: {…}`, `args=(…)`, `kwargs: a=1, b=2`, `with arguments map[…]`
    String.raw`(?<![A-Za-z0-9_])(?<key>${ARGUMENT_KEYS.join('|')}|kwargs)["']?(?:[ \t]{0,3}[:=][ \t]{0,3}|[ \t]{1,3}(?=(?:map)?[{[(]))(?:map(?=\[))?`,
    // `Calling tool get_order {"order_id": …}`: the JSON after a tool call's name is its arguments
    String.raw`\b(?:[Cc]alling|[Ii]nvoking|[Ee]xecuting|[Cc]all(?:ed)?) tool [\w.\-]{1,80}(?: with)?[:=]?[ \t]{1,3}(?=(?:map)?[{[(])(?:map(?=\[))?`,
    // `Tool get_order returned isError=false in 5 ms: {…}`, `structured output: {…}`: a result
    String.raw`(?<result>\b[Tt]ool [\w.\-]{1,80} returned\b[^{[\n]{0,80}?[:=][ \t]{0,3}(?=[{[])|\bstructured (?:output|content)[:=][ \t]{0,3}(?=[{[])|\bstructuredContent=(?=[{[]))`,
  ].join('|'),
  'g',
);
const CLOSE: Record<string, string> = { '{': '}', '[': ']', '(': ')' };

/** End of the bracketed span starting at `at` (quotes skipped), or the end of the text if it never closes. */
function balancedEnd(text: string, at: number): number {
  let depth = 0;
  let quote = '';
  for (let i = at; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '{' || c === '[' || c === '(') depth++;
    else if (c === '}' || c === ']' || c === ')') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return text.length;
}

/** Does the text hold anything but our own output, key names, spacing and punctuation? */
function hasData(s: string): boolean {
  let rest = s;
  for (const [a, b] of inertRanges(s).reverse()) rest = rest.slice(0, a) + rest.slice(b);
  return /[A-Za-z0-9]/.test(rest.replace(/\\?["']?[A-Za-z_$][\w$.-]{0,64}\\?["']?[ \t]{0,4}[:=]/g, ' ').replace(/\b(?:None|null|undefined|true|false|True|False)\b/g, ''));
}

function argumentsPass(ed: Editor, st: EngineState, depth: number): void {
  const text = ed.text;
  if (!/arg|tool|structured/i.test(text)) return;
  ARG_LEAD.lastIndex = 0;
  const edits: Edit[] = [];
  const frozen: Array<[number, number]> = [];
  let from = 0;
  for (const m of text.matchAll(ARG_LEAD)) {
    const at = m.index + m[0].length;
    if (at < from || at >= text.length || ed.isFrozen(at, at + 1) || ed.insideRemark(at, at + 1)) continue;
    const rule = m.groups!.result !== undefined ? '@tool-result' : '@tool-arguments';
    const c = text[at]!;
    let end: number;
    if (c === '{' || c === '[') {
      const strict = parseJsonAt(text, at, false);
      const node = strict ?? parseJsonAt(text, at, true);
      if (node) {
        const q = strict ? '"' : "'";
        summariseContainer(node, rule, [], ['arguments'], false, { st, depth, loose: !strict, line: text, edits, key: 'arguments', q });
        frozen.push([node.start, node.end]);
        from = node.end;
        continue;
      }
      end = balancedEnd(text, at);
    } else if (c === '(') end = balancedEnd(text, at);
    else if (c === '"' || c === "'") {
      const node = parseJsonAt(text, at, c === "'");
      end = node ? node.end : text.length;
    } else end = text.length; // `args=customer=Bob Jones,city=London`: the rest of the line
    const open = CLOSE[c] ? 1 : 0;
    const close = CLOSE[c] && text[end - 1] === CLOSE[c] ? 1 : 0;
    const inner = text.slice(at + open, end - close);
    if (inner.trim() && hasData(inner)) edits.push({ start: at + open, end: end - close, text: `<string len=${inner.length}>`, rule });
    frozen.push([at, end]);
    from = end;
  }
  if (!frozen.length) return;
  ed.apply(edits);
  // The spans, moved by the edits inside them (and before them): later passes leave them alone.
  for (const [a, b] of frozen) {
    let shiftA = 0;
    let shiftB = 0;
    for (const e of edits) {
      const dd = e.text.length - (e.end - e.start);
      if (e.end <= a) shiftA += dd;
      if (e.end <= b) shiftB += dd;
    }
    ed.frozen.push([a + shiftA, b + shiftB]);
  }
}

function structural(ed: Editor, st: EngineState, depth: number): boolean {
  let wholeLine = false;
  if (memberLine(ed, st, depth)) return true;
  if (st.tier === 'all') argumentsPass(ed, st, depth);
  const text = ed.text;
  if (!text.includes('{') && !text.includes('[')) return false;
  const spans: Array<{ start: number; end: number; edits: Edit[] }> = [];
  JSON_START.lastIndex = 0;
  let attempts = 0;
  let m: RegExpExecArray | null;
  while ((m = JSON_START.exec(text)) !== null && attempts < 16) {
    const at = m.index;
    if (ed.insideRemark(at, at + 1)) continue;
    attempts++;
    let loose = false;
    let node = parseJsonAt(text, at, false);
    if (!node && (text.includes("'") || BARE_KEY.test(text.slice(at, at + 80)))) {
      node = parseJsonAt(text, at, true);
      loose = node !== null;
    }
    if (!node || (node.t === 'arr' && node.items.length === 0) || node.end - node.start < 2) continue;
    const edits: Edit[] = [];
    // SSE `data:` payloads and log markers carry JSON-RPC; the path rules find the business data.
    // `params={…}` / `"result": {…}`: the key in front of the span starts the path.
    const lead = /([A-Za-z_][A-Za-z0-9_]{0,40})["']?[ \t]{0,3}[:=][ \t]{0,3}$/.exec(text.slice(Math.max(0, at - 48), at));
    walkJson(node, lead ? [lead[1]!] : [], st, depth, loose, text, edits);
    spans.push({ start: node.start, end: node.end, edits });
    if (node.start === text.search(/\S/) && text.slice(node.end).trim() === '') wholeLine = true;
    JSON_START.lastIndex = node.end;
  }
  for (const sp of spans.reverse()) {
    const before = ed.text.length;
    ed.apply(sp.edits);
    ed.frozen.push([sp.start, sp.end + (ed.text.length - before)]);
  }
  return wholeLine;
}

// ---------- decode views: percent, JSON escapes, HTML entities, base64 ----------

type Layer = 'percent' | 'json' | 'html';

const HAS_PERCENT = /%[0-9A-Fa-f]{2}/;
const HAS_JSON_ESC = /\\u[0-9A-Fa-f]{4}|\\["\\/]/;
const HAS_HTML = /&(?:amp|quot|lt|gt|apos|#[0-9]{1,7}|#x[0-9A-Fa-f]{1,6});/;

function percentDecode(s: string): string {
  const bytes: number[] = [];
  let out = '';
  const flush = () => {
    if (bytes.length) {
      out += Buffer.from(bytes).toString('utf8');
      bytes.length = 0;
    }
  };
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '%' && /^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      flush();
      out += s[i];
    }
  }
  flush();
  return out;
}
// Re-encode what decoding exposed, but leave the placeholder and URL punctuation readable.
const percentEncode = (s: string) => encodeURIComponent(s).replace(/%(5B|5D|3A|3D|26|2F|3F|2C|40)/g, (m) => decodeURIComponent(m));
const jsonUnescape = (s: string) =>
  s.replace(/\\(u[0-9A-Fa-f]{4}|["\\/bfnrt])/g, (_m, e: string) =>
    e.length === 5 ? String.fromCharCode(parseInt(e.slice(1), 16)) : (({ b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' } as Record<string, string>)[e] ?? e),
  );
const jsonEscape = (s: string) => JSON.stringify(s).slice(1, -1);
const htmlDecode = (s: string) =>
  s.replace(/&(amp|quot|lt|gt|apos|#[0-9]{1,7}|#x[0-9A-Fa-f]{1,6});/g, (_m, e: string) => {
    if (e[0] === '#') {
      const n = e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return n <= 0x10ffff ? String.fromCodePoint(n) : '';
    }
    return ({ amp: '&', quot: '"', lt: '<', gt: '>', apos: "'" } as Record<string, string>)[e]!;
  });
const htmlEncode = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function decodeOnce(s: string): [string, Layer] | null {
  if (HAS_HTML.test(s)) return [htmlDecode(s), 'html'];
  if (HAS_JSON_ESC.test(s)) return [jsonUnescape(s), 'json'];
  if (HAS_PERCENT.test(s)) return [percentDecode(s), 'percent'];
  return null;
}
function encodeLayers(s: string, layers: Layer[]): string {
  let out = s;
  for (let i = layers.length - 1; i >= 0; i--) out = layers[i] === 'html' ? htmlEncode(out) : layers[i] === 'json' ? jsonEscape(out) : percentEncode(out);
  return out;
}

const TOKEN = /[^\s]{6,65536}/g;
const B64_RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{20,65536}={0,2}/g;

function printable(b: Buffer): boolean {
  if (b.length < 12) return false;
  let ok = 0;
  for (const c of b) if ((c >= 0x20 && c < 0x7f) || c === 9 || c === 10 || c === 13) ok++;
  return ok / b.length >= 0.95;
}

const innerRule = (r: RedactResult) => r.remarks[0]?.rule ?? '@decoded';

/**
 * One decoded view of `raw` (at `s` in the text): decode up to MAX_DECODE_DEPTH layers, redact,
 * re-encode only if something changed. (Module-level, not a closure: tsx's keepNames makes every
 * closure created in a hot path cost a defineProperty.)
 */
function decodedView(st: EngineState, depth: number, edits: Edit[], s: number, raw: string, whole: boolean): void {
  const lead = whole ? '' : (/^["'([{<]{0,4}/.exec(raw)?.[0] ?? '');
  const trail = whole ? '' : (/(?<!\\)["')\]}>.:]{0,4}$/.exec(raw.slice(lead.length))?.[0] ?? '');
  const core = raw.slice(lead.length, raw.length - trail.length);
  let cur = core;
  const layers: Layer[] = [];
  for (let i = 0; i < MAX_DECODE_DEPTH; i++) {
    const d = decodeOnce(cur);
    if (!d || d[0] === cur) break;
    cur = d[0];
    layers.push(d[1]);
  }
  if (layers.length === 0) return;
  const r = redactString(cur, st, depth + 1);
  if (r.text !== cur)
    edits.push({ start: s + lead.length, end: s + lead.length + core.length, text: encodeLayers(r.text, layers), rule: innerRule(r), originalLength: core.length });
}

function overlapsAny(edits: Edit[], s: number, e: number): boolean {
  for (const x of edits) if (s < x.end && e > x.start) return true;
  return false;
}

/** The text with every inert token's characters replaced by `x` (same length): for choosing cut points only. */
function maskInert(text: string): string {
  const inert = inertRanges(text);
  if (!inert.length) return text;
  let out = '';
  let pos = 0;
  for (const [a, b] of inert) {
    out += text.slice(pos, a) + 'x'.repeat(b - a);
    pos = b;
  }
  return out + text.slice(pos);
}

function decodeViews(ed: Editor, st: EngineState, depth: number): void {
  const text = ed.text;
  const edits: Edit[] = [];
  // Decode, redact the decoded view, re-encode only the piece that changed. HTML entities are
  // decoded per whitespace token; percent/JSON escapes per query piece (split on ? & ; = ,),
  // so an untouched `redirect_uri=http%3A%2F%2F…` keeps its exact spelling.
  if (HAS_PERCENT.test(text) || HAS_JSON_ESC.test(text) || HAS_HTML.test(text)) {
    const view = (s: number, raw: string, whole: boolean) => decodedView(st, depth, edits, s, raw, whole);
    // Tokens and pieces are cut on the text with our own output masked: a split never falls inside
    // `<string len=25>` (a blank and an `=`), or a decoded half of it would read as data.
    const masked = maskInert(text);
    TOKEN.lastIndex = 0;
    for (const m of masked.matchAll(TOKEN)) {
      const s = m.index;
      const e = s + m[0].length;
      const tok = text.slice(s, e);
      if (ed.isFrozen(s, e) || tok.length > MAX_DECODE_SPAN) continue;
      if (HAS_HTML.test(tok)) {
        view(s, tok, true);
        continue;
      }
      let off = 0;
      for (const mp of m[0].split(/(?<=[?&;=,])|(?=[?&;=,])/)) {
        const piece = tok.slice(off, off + mp.length);
        if (piece.length >= 6 && (HAS_PERCENT.test(piece) || HAS_JSON_ESC.test(piece))) view(s + off, piece, false);
        off += mp.length;
      }
    }
  }
  B64_RUN.lastIndex = 0;
  for (const m of text.matchAll(B64_RUN)) {
    const s = m.index;
    const e = s + m[0].length;
    if (ed.isFrozen(s, e) || ed.insideRemark(s, e) || overlapsAny(edits, s, e)) continue;
    const buf = Buffer.from(m[0], 'base64');
    if (!printable(buf)) continue;
    const decoded = buf.toString('utf8');
    const r = redactString(decoded, st, depth + 1);
    if (r.text !== decoded) {
      st.ledger.record('@base64', m[0], 'secret', placeholder('@base64'));
      edits.push({ start: s, end: e, text: placeholder('@base64:' + innerRule(r).replace(/^@/, '')), rule: innerRule(r), originalLength: e - s });
    }
  }
  ed.apply(edits);
}

// ---------- the pipeline ----------

/**
 * Redact one string (a line, a JSON string value, a decoded view). Order:
 * session sweep → secrets seen before → formats → structure (JSON/repr) → decode views →
 * context (headers, keys, query) → PII and entropy. Depth bounds the decode recursion.
 */
export function redactString(text: string, st: EngineState, depth = 0, keyHint?: string, sessionSweeper?: () => LiteralSweeper): RedactResult {
  const ed = new Editor(text);
  sweepSessions(ed, st, sessionSweeper ? sessionSweeper() : sweeperFor(st));
  ed.apply(st.ledger.sweeper.edits(ed.text));
  // The ingest tier: past the sweeps, only strings a gate admits can be changed (tiers.ts).
  if (st.tier === 'ingest' && !st.ungated && !ingestGate(ed.text, keyHint)) return { text: ed.text, remarks: ed.remarks };
  runPatternRules(ed, st.format, st, keyHint);
  let wholeJson = false;
  if (depth <= MAX_DECODE_DEPTH) {
    wholeJson = structural(ed, st, depth);
    // Decode views are the exit tier's.
    if (!wholeJson && st.tier === 'all') decodeViews(ed, st, depth);
  }
  if (!wholeJson) {
    runPatternRules(ed, st.context, st, keyHint);
    runPatternRules(ed, st.pii, st, keyHint);
  }
  return { text: ed.text, remarks: ed.remarks };
}

// One sweeper per book version (rebuilt when pass 2 meets a new id, e.g. on stdin).
const sweepers = new WeakMap<SessionIdBook, { version: number; key: Uint8Array; sweeper: LiteralSweeper }>();
export function sweeperFor(st: EngineState): LiteralSweeper {
  const cached = sweepers.get(st.book);
  if (cached && cached.version === st.book.version && cached.key === st.key) return cached.sweeper;
  const sw = new LiteralSweeper();
  for (const id of st.book.raw) {
    const p = sessionPseudonym(st.key, id);
    for (const v of idVariants(id)) sw.add(v, p, '@mcp-session');
  }
  sweepers.set(st.book, { version: st.book.version, key: st.key, sweeper: sw });
  return sw;
}

export const ALL_PATTERN_RULES: PatternRule[] = [...FORMAT_RULES, ...CONTEXT_RULES, ...PII_RULES];
/** The ingest tier's tables: the rows marked `tier: 'ingest'`, in pipeline order. */
export const INGEST_RULES = {
  format: FORMAT_RULES.filter((r) => r.tier === 'ingest'),
  context: CONTEXT_RULES.filter((r) => r.tier === 'ingest'),
  pii: PII_RULES.filter((r) => r.tier === 'ingest'),
};

export function defaultState(key: Uint8Array, book: SessionIdBook, ledger: SecretLedger, tier: EngineTier = 'all'): EngineState {
  if (tier === 'ingest') return { key, book, ledger, tier, ...INGEST_RULES };
  return { key, book, ledger, tier, format: FORMAT_RULES, context: CONTEXT_RULES, pii: PII_RULES };
}
registerRuleIds(() => [...ALL_PATTERN_RULES.map((r) => r.id), ...JSON_PATH_RULES.map((r) => r.id)]);
export { JSON_PATH_RULES };
export type { SecretKind };
export { LiteralSweeper };
