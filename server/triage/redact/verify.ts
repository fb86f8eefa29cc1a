// The verifier (redaction.md §3 step 8, §5.10): before a report is emitted, re-run every
// detector on it and literally search it for every raw secret and session id collected at
// ingest. Any hit refuses the report (fail closed). The redactor is idempotent on its own
// output (placeholders and pseudonyms are inert), so any rule firing means something slipped.
import { randomBytes } from 'node:crypto';
import { SecretLedger } from './ledger.ts';
import { defaultState, redactString } from './engine.ts';
import { SessionIdBook } from './session.ts';
import type { SecretKind } from './types.ts';

export interface VerifyContext {
  /** Raw values that must not appear (ledger values, session ids and their spellings). */
  rawValues: Iterable<string>;
  /** Optional: the incident's session ids, so masked forms and all id spellings are checked too. */
  ids?: SessionIdBook;
  /** Optional: rules whose firing is tolerated in this text (e.g. `@ip` in a report that quotes docs). */
  allowRules?: string[];
}

export interface VerifyHit {
  /** The detector that fired, or `@literal` for a raw collected value. */
  rule: string;
  /** Offset in the verified text. */
  index: number;
}

export interface VerifyResult {
  ok: boolean;
  hits: VerifyHit[];
}

// Rules whose output is a pseudonym of something harmless-by-design; they never fire on our
// own output, so they stay in the scan. Only these are informational and never block.
const INFORMATIONAL = new Set<string>([]);

/** Raw values to search for: the ledger's (secrets, session, opaque) plus every id spelling. */
export function rawValuesFor(ids: SessionIdBook, ledger: SecretLedger, kinds?: SecretKind[]): string[] {
  return [...ledger.rawValues(kinds), ...ids.variants()];
}

export function verifyRedacted(text: string, ctx: VerifyContext): VerifyResult {
  const hits: VerifyHit[] = [];
  // 1. Literal search. Case-insensitive for UUID/hex-like values (their case is not meaningful).
  const lower = text.toLowerCase();
  const seen = new Set<string>();
  for (const raw of ctx.rawValues) {
    const v = raw.trim();
    if (v.length < 6 || seen.has(v)) continue;
    seen.add(v);
    const ci = /^[0-9a-f-]+$/i.test(v);
    const idx = ci ? lower.indexOf(v.toLowerCase()) : text.indexOf(v);
    if (idx !== -1) hits.push({ rule: '@literal', index: idx });
  }
  // 2. Every detector, line by line, with a throwaway key (we only ask whether anything fires).
  const st = defaultState(randomBytes(32), ctx.ids ?? new SessionIdBook(), new SecretLedger());
  const allow = new Set(ctx.allowRules ?? []);
  let offset = 0;
  for (const line of text.split('\n')) {
    let r;
    try {
      r = redactString(line.replace(/\r$/, ''), st, 0);
    } catch {
      hits.push({ rule: '@verifier-failed', index: offset });
      offset += line.length + 1;
      continue;
    }
    let shift = 0; // output → input offsets
    for (const rem of r.remarks) {
      const inputStart = rem.start - shift;
      shift += rem.end - rem.start - rem.originalLength;
      if (allow.has(rem.rule) || INFORMATIONAL.has(rem.rule)) continue;
      hits.push({ rule: rem.rule, index: offset + inputStart });
    }
    offset += line.length + 1;
  }
  hits.sort((a, b) => a.index - b.index);
  return { ok: hits.length === 0, hits };
}
