// Shared shapes of the redactor. Rules are data (rules/*.ts); the engine (engine.ts) runs them.

/** How a masked session id (`abcd1234****`, `****abcd`, `abcd…`) was resolved against the full ids. */
export interface MaskedResolution {
  visible: string;
  /** Where the visible part sits; `middle` is `head…tail` (visible holds `head…tail`). */
  position: 'prefix' | 'suffix' | 'middle';
  /** matched: exactly one candidate; unresolved: none; ambiguous: two or more (joined to none). */
  status: 'matched' | 'unresolved' | 'ambiguous';
  candidates: number;
  pseudonym: string;
  /** Visible part shorter than 6 characters: the report should call it a weak match. */
  weak: boolean;
}

export interface Remark {
  rule: string;
  /** Range of the replacement in the output text. */
  start: number;
  end: number;
  /** Length of the raw text that was replaced. */
  originalLength: number;
  /** Only for masked session ids: how the masked form was resolved. */
  info?: MaskedResolution;
}

export interface RedactResult {
  text: string;
  remarks: Remark[];
}

/**
 * Where a rule looks:
 * - free-text: a pattern anywhere in a line (vendor token formats, JWT, e-mail, IP…)
 * - header: a `Name: value` header (curl -v dumps, HTTP dumps, HAR name/value pairs)
 * - key-name: the value of a key in `k=v`, `k: v`, JSON, Python reprs, env dumps
 * - query-key: a URL query / fragment / form parameter
 * - json-path: a structural position in JSON-RPC (tools/call arguments, results…)
 * - line-state: needs the previous lines (PEM blocks, wrapped JWTs)
 * - literal: a sweep for values collected elsewhere (session ids)
 * - decoded: a secret found only after decoding (base64, percent, JSON escapes)
 */
export type SelectorKind = 'free-text' | 'header' | 'key-name' | 'query-key' | 'json-path' | 'line-state' | 'literal' | 'decoded' | 'entropy';

/** Everything a rule's replace function may need. */
export interface RuleContext {
  key: Uint8Array;
  /** The whole string being redacted (for context checks such as "is this an OAuth line"). */
  line: string;
  /** The JSON key whose value is being redacted, when known (exempts `id`, `request_id`…). */
  keyHint?: string;
  /** Records a raw value that was removed (memory only; used by the verifier). */
  record(rule: string, raw: string, kind: SecretKind): void;
}

/** See PatternRule.tier. */
export type RuleTier = 'ingest' | 'exit';

export type SecretKind = 'secret' | 'session' | 'pii' | 'opaque';

/** A regex rule: one row of the table. The `v` named group (if any) is the part replaced. */
export interface PatternRule {
  id: string;
  kind: SelectorKind;
  /**
   * When the rule must have run (redaction.md "Tiers"): `ingest` rules (credentials, the entropy
   * net) run before anything is stored, in every mode; `exit` rules (PII, business data) run at
   * every exit that can reach another person, and at ingest only with --strict. See tiers.ts.
   */
  tier: RuleTier;
  description: string;
  /** Lower-case substrings; the regex runs only if one occurs in the lower-cased line (gitleaks keywords). */
  keywords?: string[];
  /** Substrings that must ALL occur (case-sensitive) for the pattern to be able to match: a cheap prefilter. */
  requires?: string[];
  /** The shortest string the pattern can match: shorter strings are skipped without running it. */
  minLength?: number;
  /** Must have the `g` and `d` flags. Quantifiers bounded, no nested quantifiers (ReDoS). */
  pattern: RegExp;
  /** What the secret is, for the ledger/verifier. */
  secretKind?: SecretKind;
  /** Extra check on the replaced value (Luhn, octet ranges, stopwords…). false = keep. */
  /** Parts of a removed value that are secrets on their own (a URL's password): swept where they reappear bare. */
  recordParts?: (value: string) => string[];
  validate?: (value: string, m: RegExpExecArray, ctx: RuleContext) => boolean;
  /**
   * A cheap part of `validate` (false implies validate is false), judged on a match found
   * without indices; only for patterns whose `v` group ends the match. Saves building indices
   * for the many matches that fail it.
   */
  gate?: (m: RegExpExecArray, ctx: RuleContext) => boolean;
  /** Length of the secret at the start of the `v` group (the rest is kept); default: all of it. */
  narrow?: (value: string, m: RegExpExecArray, ctx: RuleContext) => number;
  /** The replacement for the value; default `[REDACTED:<id without @>]`; null = keep. */
  replace?: (value: string, ctx: RuleContext, m: RegExpExecArray) => string | null;
  /** A more specific rule id for the remark (e.g. `@query-secret` vs `@secret-key`). */
  ruleFor?: (m: RegExpExecArray, ctx: RuleContext) => string;
  /** Lines in which this rule must fire. */
  tps: string[];
  /** Lines this rule must leave alone (and the whole pipeline must leave unchanged). */
  fps: string[];
}

/** A structural rule: JSON paths whose values are business data and become type/length summaries. */
export interface JsonPathRule {
  id: string;
  kind: 'json-path';
  description: string;
  /** Path suffixes: keys, `[]` any array item, `*` any one key or item. */
  paths: string[];
  /** Keys kept as they are under a matched container (e.g. `type` of a content item). */
  keep?: string[];
  tps: string[];
  fps: string[];
}

export const placeholder = (id: string) => `[REDACTED:${id.replace(/^@/, '')}]`;
