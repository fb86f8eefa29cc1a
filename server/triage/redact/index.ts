// Redaction at ingest: every line passes through here before it is parsed or stored.
// Pass 1 (collectSessionIds) reads all inputs for raw session ids; pass 2 (createLineRedactor)
// rewrites each line. Nothing raw goes past this module except through memory.
// See README.md for the pipeline, the rule tables and the verifier.
import { defaultState, redactString, type EngineState, type EngineTier } from './engine.ts';
import { SecretLedger } from './ledger.ts';
import { SessionIdBook } from './session.ts';
import { classifyKey, isInert, type KeyClass } from './rules/keys.ts';
import { inertRanges } from './vocabulary.ts';
import { isBusinessKey } from './rules/context.ts';
import { placeholder, type MaskedResolution, type PatternRule, type RedactResult, type Remark } from './types.ts';

export type { MaskedResolution, PatternRule, RedactResult, Remark } from './types.ts';
export type { JsonPathRule, SecretKind, SelectorKind } from './types.ts';
export { SessionIdBook, collectSessionIds, idVariants } from './session.ts';
export { SecretLedger, type LedgerRecord } from './ledger.ts';
export { verifyRedacted, rawValuesFor, type VerifyContext, type VerifyHit, type VerifyResult } from './verify.ts';
export { ALL_PATTERN_RULES, INGEST_RULES, JSON_PATH_RULES, type EngineTier } from './engine.ts';
export { base32, canonicalId, pseudonym, sessionPseudonym, type PseudonymDomain } from './pseudonym.ts';

/** Lines longer than this are cut; the remainder never passes through (redaction.md §5.1). */
export const MAX_LINE = 1024 * 1024;
/** A PEM block longer than this many lines is assumed unterminated and the state is dropped. */
const MAX_PEM_LINES = 400;

export const LINE_FAILED = '[REDACTED:line redaction failed]';

const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/;
const PEM_END = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/;
// A wrapped token owns its whole line: only the fragment and closing punctuation, nothing after.
// A next line that starts with a timestamp or any prefix is a new log line, never a continuation.
const CONTINUATION = /^(?<ws>\s{0,16})(?<v>[A-Za-z0-9_-]{8,16384}(?:\.[A-Za-z0-9_-]{0,16384}){0,4})["',;)\]}\\\s]{0,16}$/d;
// A PEM body line: one base64 run alone, or a long run after a logger's prefix (`ts DEBUG MIIE…`).
const PEM_BODY_ALONE = /^(?<ws>\s{0,64})(?<v>[A-Za-z0-9+/]{1,4096}={0,2})\s{0,16}$/d;
const PEM_BODY_RUN = /^[A-Za-z0-9+/]{16,4096}={0,2}$/;
const PEM_HEADER = /^\s{0,16}(?:Proc-Type|DEK-Info|Comment):/;
const HAR_NAME = /^\s{0,64}"name"\s{0,4}:\s{0,4}"([^"\\]{1,128})"\s{0,4},?\s{0,4}$/;
const HAR_VALUE_LINE = /^\s{0,64}"value"\s{0,4}:\s{0,4}"(?<v>(?:[^"\\]|\\.){1,65536})"/d;
const SECRET_RULE: Record<KeyClass, string> = {
  authorization: '@authorization',
  cookie: '@cookie',
  'set-cookie': '@cookie',
  'api-key': '@api-key',
  secret: '@query-secret',
  'oauth-code': '@oauth-code',
  'env-secret': '@env-secret',
  session: '@mcp-session',
};
const TOKEN_RULES = new Set(['@jwt', '@jwt-fragment', '@bearer', '@authorization', '@secret-key', '@query-secret']);

export interface LineRedactor {
  line(text: string): RedactResult;
  /** Every masked session id met so far and how it was resolved (for "matched from masked prefix" / "ambiguous (N candidates)"). */
  maskedResolutions(): MaskedResolution[];
  /** The raw values this redactor removed (memory only), for verifyRedacted. */
  readonly ledger: SecretLedger;
}

export interface LineRedactorOptions {
  key: Uint8Array;
  ids: SessionIdBook;
  /** Share one ledger across the files of an incident; a new one is made otherwise. */
  ledger?: SecretLedger;
  /**
   * `all` (default): every rule (strict ingest, `redact`, exits, the verifier). `ingest`: the
   * standard mode's ingest tier — sessions, secrets seen before, credentials and the entropy net
   * behind their gates (tiers.ts); PII, decode views and business data are left for the exits.
   */
  tier?: EngineTier;
  /** Tests only: the ingest tier without its gates. */
  ungated?: boolean;
  /**
   * The caller has collected the session ids of exactly these lines into `ids` already, from the same
   * start state (the ingest's pass 1 over the same byte range: server/ingest/chunk-runner.ts): collecting
   * them again per line would add nothing, so it is skipped.
   */
  collected?: boolean;
  /** Tests only: replace the rule tables. */
  rules?: { format?: PatternRule[]; context?: PatternRule[]; pii?: PatternRule[] };
}

/** The base64 body of a line inside a PEM block, if the line carries one. */
function pemBody(text: string): { start: number; end: number; value: string } | null {
  if (isOurs(text)) return null;
  const m = PEM_BODY_ALONE.exec(text);
  if (m) {
    const [start, end] = m.indices!.groups!.v!;
    return { start, end, value: m.groups!.v! };
  }
  // After a prefix: the last word, if it is a long base64 run.
  const t = text.trimEnd();
  const start = Math.max(t.lastIndexOf(' '), t.lastIndexOf('\t')) + 1;
  const value = t.slice(start);
  return start > 0 && PEM_BODY_RUN.test(value) ? { start, end: t.length, value } : null;
}

/** A line that is only our own output and spacing (a `[REDACTED:pem]` line read back). */
function isOurs(text: string): boolean {
  let rest = text;
  for (const [a, b] of inertRanges(text).reverse()) rest = rest.slice(0, a) + rest.slice(b);
  return text.trim() !== '' && rest.trim() === '';
}

/**
 * Can a fresh line redactor start at `next` as if it had read every line up to `prev`? The state
 * a redactor carries from line to line is a HAR `"name"` line's (cleared by the next non-blank
 * line), a token that may wrap onto the next line (only a line CONTINUATION matches continues
 * it), a PEM block and a `"cookies": [` list; the last two span many lines and the caller
 * checks them over its chunk (server/ingest/chunks.ts). Both lines cleaned (ANSI, prefix).
 */
export function freshRedactorFits(prev: string, next: string): boolean {
  return prev.trim() !== '' && !HAR_NAME.test(prev) && !CONTINUATION.test(next);
}

/** Pass 2. One instance per file: PEM blocks and wrapped JWTs carry state from line to line. */
export function createLineRedactor(opts: LineRedactorOptions): LineRedactor {
  const ledger = opts.ledger ?? new SecretLedger();
  const st: EngineState = { ...defaultState(opts.key, opts.ids, ledger, opts.tier ?? 'all'), ...(opts.rules ?? {}), ...(opts.ungated ? { ungated: true } : {}) };
  const all = st.tier === 'all';
  const masked = new Map<string, MaskedResolution>();
  let inPem = false;
  let pemLines = 0;
  let prevEndedInToken = false;
  // Pretty-printed HAR/JSON: a sensitive `"name"` line makes the next `"value"` line secret,
  // and every value inside a `"cookies": [` block is a cookie.
  let pendingName: string | null = null;
  let pendingBusiness = false;
  let inCookies = false;
  const harValue = (text: string): { text: string; remark?: Remark } => {
    const nm = HAR_NAME.exec(text);
    if (nm) {
      const cls = classifyKey(nm[1]!);
      pendingName = cls && cls !== 'session' && cls !== 'oauth-code' ? SECRET_RULE[cls] : null;
      pendingBusiness = isBusinessKey(nm[1]!.replace(/^x-/i, ''), 'x0');
      return { text };
    }
    if (/"cookies"\s{0,4}:\s{0,4}\[\s{0,4}$/.test(text)) inCookies = true;
    else if (inCookies && /^\s{0,64}\]/.test(text)) inCookies = false;
    const business = pendingBusiness;
    const rule = pendingName ?? (inCookies ? '@cookie' : null);
    if (text.trim()) {
      pendingName = null;
      pendingBusiness = false;
    }
    if (business && !rule && all) {
      // `"name": "tenant"` then `"value": "CUST-851857"`: a business value, summarised.
      const bv = HAR_VALUE_LINE.exec(text);
      if (!bv || isInert(bv.groups!.v!)) return { text };
      const [s, e] = bv.indices!.groups!.v!;
      const ph = `<string len=${e - s}>`;
      return { text: text.slice(0, s) + ph + text.slice(e), remark: { rule: '@business-kv', start: s, end: s + ph.length, originalLength: e - s } };
    }
    const v = rule ? HAR_VALUE_LINE.exec(text) : null;
    if (!v || !rule || isInert(v.groups!.v!)) return { text };
    const [s, e] = v.indices!.groups!.v!;
    ledger.record(rule, v.groups!.v!, 'secret', placeholder(rule));
    const ph = placeholder(rule);
    return { text: text.slice(0, s) + ph + text.slice(e), remark: { rule, start: s, end: s + ph.length, originalLength: e - s } };
  };

  const redactLine = (raw: string): RedactResult => {
    let text = raw;
    let cut = 0;
    // Ids in session positions are always known before the sweep (stdin has no pass 1).
    if (!opts.collected) collectSessionIdsSafe(text.length > MAX_LINE ? text.slice(0, MAX_LINE) : text, opts.ids);
    if (text.length > MAX_LINE) {
      cut = text.length - MAX_LINE;
      text = text.slice(0, MAX_LINE);
    }
    const cr = text.endsWith('\r') ? '\r' : '';
    if (cr) text = text.slice(0, -1);

    let res: RedactResult;
    if (inPem) {
      const end = PEM_END.exec(text);
      pemLines++;
      if (end || pemLines > MAX_PEM_LINES) inPem = false;
      // Only the key material is the block's: a logger's prefix, our own placeholder, a PEM
      // header and the END marker stay; a line that is none of these is redacted as usual.
      const body = pemBody(end ? text.slice(0, end.index) : text);
      const tail = end ? redactString(text.slice(end.index), st, 0) : null;
      if (body) {
        ledger.record('@pem', body.value, 'secret');
        const ph = placeholder('@pem');
        const head = text.slice(0, body.start) + ph + text.slice(body.end, end ? end.index : text.length);
        res = {
          text: head + (tail ? tail.text : ''),
          remarks: [
            { rule: '@pem', start: body.start, end: body.start + ph.length, originalLength: body.end - body.start },
            ...(tail ? tail.remarks.map((r) => ({ ...r, start: r.start + head.length, end: r.end + head.length })) : []),
          ],
        };
      } else if (end || isOurs(text) || PEM_HEADER.test(text) || !text.trim()) {
        const head = end ? text.slice(0, end.index) : text;
        res = tail ? { text: head + tail.text, remarks: tail.remarks.map((r) => ({ ...r, start: r.start + head.length, end: r.end + head.length })) } : { text, remarks: [] };
      } else res = redactString(text, st, 0);
    } else {
      const har = harValue(text);
      let pre: Remark[] = har.remark ? [har.remark] : [];
      let body = har.text;
      if (prevEndedInToken) {
        const m = CONTINUATION.exec(text);
        const v = m?.groups?.v;
        if (m && v && /[0-9]/.test(v) && /[A-Za-z]/.test(v)) {
          const [s, e] = m.indices!.groups!.v!;
          ledger.record('@jwt-continuation', v, 'secret');
          const ph = placeholder('@jwt-continuation');
          body = text.slice(0, s) + ph + text.slice(e);
          pre = [{ rule: '@jwt-continuation', start: s, end: s + ph.length, originalLength: e - s }];
        }
      }
      const r = redactString(body, st, 0);
      // The continuation placeholder is inert, so later rules leave it; keep its remark.
      res = { text: r.text, remarks: [...pre.filter((p) => !r.remarks.some((x) => x.start <= p.start && x.end >= p.end)), ...r.remarks].sort((a, b) => a.start - b.start) };
      const b = PEM_BEGIN.exec(text);
      if (b && !PEM_END.test(text.slice(b.index))) {
        inPem = true;
        pemLines = 0;
      }
    }
    // A token that runs to the end of the line may continue on the next (wrapped JWT/bearer).
    const last = res.remarks[res.remarks.length - 1];
    prevEndedInToken = !!last && TOKEN_RULES.has(last.rule) && res.text.slice(last.end).replace(/[\s"'\\,]/g, '') === '';
    for (const r of res.remarks) if (r.info) masked.set(`${r.info.position}:${r.info.visible}`, r.info);
    let out = res.text + cr;
    const remarks = res.remarks;
    if (cut) {
      const ph = placeholder(`@line-truncated ${cut} chars`);
      remarks.push({ rule: '@line-truncated', start: out.length, end: out.length + ph.length, originalLength: cut });
      out += ph;
    }
    return { text: out, remarks };
  };

  return {
    ledger,
    line(text: string): RedactResult {
      try {
        return redactLine(text);
      } catch {
        // Fail closed: never pass a line through because a rule broke on it.
        prevEndedInToken = false;
        return { text: LINE_FAILED, remarks: [{ rule: '@line-failed', start: 0, end: LINE_FAILED.length, originalLength: text.length }] };
      }
    },
    maskedResolutions: () => [...masked.values()],
  };
}

/** Convenience for tests and small inputs: pass 1 and pass 2 over an in-memory text. */
export function redactText(
  text: string,
  opts: { key: Uint8Array; ids?: SessionIdBook; ledger?: SecretLedger; tier?: EngineTier; ungated?: boolean },
): { text: string; remarks: Remark[][]; redactor: LineRedactor } {
  const ids = opts.ids ?? new SessionIdBook();
  const lines = text.split('\n');
  for (const l of lines) collectSessionIdsSafe(l, ids);
  const redactor = createLineRedactor({
    key: opts.key,
    ids,
    ...(opts.ledger ? { ledger: opts.ledger } : {}),
    ...(opts.tier ? { tier: opts.tier } : {}),
    ...(opts.ungated ? { ungated: true } : {}),
  });
  const out = lines.map((l) => redactor.line(l));
  return { text: out.map((r) => r.text).join('\n'), remarks: out.map((r) => r.remarks), redactor };
}

import { collectSessionIds as collectSessionIdsSafe } from './session.ts';

/**
 * The final sweep of secrets found late (redaction.md "Tiers": nothing is committed before it ran).
 * A value the ledger learnt on line n (a password in `password=…`) is swept from every later line
 * as it is redacted, but lines before n were already written: this rewrites them, inside the
 * ingest's transaction (store.ts). Also session ids first met in pass 2 (pass-1 ids were known
 * before any line was redacted). `values` are the literals to look for; `rewrite` applies them.
 */
export interface LateSweep {
  values: string[];
  /** The text with every late value replaced, and what replaced them (null: nothing there). */
  rewrite(text: string): { text: string; rules: string[] } | null;
}

export function createLateSweep(key: Uint8Array, book: SessionIdBook, ledger: SecretLedger, knownIds: ReadonlySet<string>): LateSweep {
  const sw = new LiteralSweeper();
  const values: string[] = [];
  for (const [rule, v, , replacement] of ledger.swept) {
    sw.add(v, replacement!, rule);
    values.push(v);
  }
  for (const id of book.raw) {
    if (knownIds.has(id)) continue;
    const p = sessionPseudonym(key, id);
    for (const v of idVariantsOf(id)) {
      sw.add(v, p, '@mcp-session');
      values.push(v);
    }
  }
  return {
    values,
    rewrite(text: string) {
      const edits = sw.edits(text);
      if (!edits.length) return null;
      let out = '';
      let pos = 0;
      for (const e of edits) {
        out += text.slice(pos, e.start) + e.text;
        pos = e.end;
      }
      return { text: out + text.slice(pos), rules: edits.map((e) => e.rule) };
    },
  };
}

import { LiteralSweeper } from './sweeper.ts';
import { idVariants as idVariantsOf } from './session.ts';
import { sessionPseudonym } from './pseudonym.ts';
