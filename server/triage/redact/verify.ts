// The verifier (redaction.md §3 step 8, §5.10): before a report is emitted, literally search it
// for every raw secret and session id collected at ingest, and run the redactor over it again.
// One redactor, one verifier, one truth: the scan IS the line redactor (the same rule tables, the
// same line state for PEM blocks and wrapped JWTs, the same inert vocabulary), so anything
// `redact` would change is a hit, and nothing `redact` wrote can be one (vocabulary.ts).
import { randomBytes } from 'node:crypto';
import { SecretLedger } from './ledger.ts';
import { createLineRedactor } from './index.ts';
import { SessionIdBook } from './session.ts';
import type { SecretKind } from './types.ts';

export interface VerifyContext {
  /** Raw values that must not appear (ledger values, session ids and their spellings). */
  rawValues: Iterable<string>;
  /** Optional: the incident's session ids, so masked forms and all id spellings are checked too (the book is not changed). */
  ids?: SessionIdBook;
  /** Optional: rules whose firing is tolerated in this text (e.g. `@ip` in a report that quotes docs). */
  allowRules?: string[];
  /**
   * The lines are excerpts from different places (a report), not one log: no line state (PEM
   * block, wrapped JWT) carries from one to the next. Default false: a log, read in order.
   */
  independentLines?: boolean;
}

export interface VerifyHit {
  /** The detector that fired, or `@literal` for a raw collected value. */
  rule: string;
  /** Offset in the verified text. */
  index: number;
  /** Length of the suspect text (for `@literal`, the raw value's). */
  length: number;
  /** 1-based line of the verified text. */
  line: number;
}

export interface VerifyResult {
  ok: boolean;
  hits: VerifyHit[];
}

/** Raw values to search for: the ledger's (secrets, session, opaque) plus every id spelling. */
export function rawValuesFor(ids: SessionIdBook, ledger: SecretLedger, kinds?: SecretKind[]): string[] {
  return [...ledger.rawValues(kinds), ...ids.variants()];
}

function lineStarts(text: string): number[] {
  const out = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) out.push(i + 1);
  return out;
}

function lineAt(starts: number[], index: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= index) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

export function verifyRedacted(text: string, ctx: VerifyContext): VerifyResult {
  const hits: VerifyHit[] = [];
  const starts = lineStarts(text);
  // 1. Literal search. Case-insensitive for UUID/hex-like values (their case is not meaningful).
  const lower = text.toLowerCase();
  const seen = new Set<string>();
  for (const raw of ctx.rawValues) {
    const v = raw.trim();
    if (v.length < 6 || seen.has(v)) continue;
    seen.add(v);
    const ci = /^[0-9a-f-]+$/i.test(v);
    const idx = ci ? lower.indexOf(v.toLowerCase()) : text.indexOf(v);
    if (idx !== -1) hits.push({ rule: '@literal', index: idx, length: v.length, line: lineAt(starts, idx) });
  }
  // 2. The line redactor itself, with a throwaway key (we only ask whether anything changes),
  // its own ledger, and a copy of the incident's ids (it learns ids as it reads).
  const ids = new SessionIdBook();
  for (const id of ctx.ids?.raw ?? []) ids.add(id);
  const key = randomBytes(32);
  const ledger = new SecretLedger();
  let redactor = createLineRedactor({ key, ids, ledger });
  const allow = new Set(ctx.allowRules ?? []);
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    const offset = starts[n]!;
    if (ctx.independentLines && n > 0) redactor = createLineRedactor({ key, ids, ledger });
    const r = redactor.line(line);
    let shift = 0; // output → input offsets
    for (const rem of r.remarks) {
      const inputStart = rem.start - shift;
      shift += rem.end - rem.start - rem.originalLength;
      if (allow.has(rem.rule)) continue;
      hits.push({ rule: rem.rule === '@line-failed' ? '@verifier-failed' : rem.rule, index: offset + Math.max(0, inputStart), length: rem.originalLength, line: n + 1 });
    }
  }
  hits.sort((a, b) => a.index - b.index);
  return { ok: hits.length === 0, hits };
}
