// The SecretLedger remembers, IN MEMORY ONLY, every raw value the redactor removed, so the
// verifier can literally search a report for them (fail closed) and later lines can sweep
// a secret that reappears bare. Never serialise it, log it, or store it.
import { detach } from '../../../parsers/engine/lines.ts';
import { LiteralSweeper } from './sweeper.ts';
import type { SecretKind } from './types.ts';

export interface LedgerEntry {
  rule: string;
  kind: SecretKind;
}

/** One value the ledger kept, with what `record` was given (an ingest chunk's ledger replays into the ingest's). */
export type LedgerRecord = [rule: string, value: string, kind: SecretKind, replacement: string | undefined];

export class SecretLedger {
  /** When set, every value newly kept is appended here (in order): how an ingest chunk reports what it found. */
  journal: LedgerRecord[] | null = null;
  /** Values added to the sweeper, in order (the part of the ledger that changes later output). */
  readonly swept: LedgerRecord[] = [];
  private readonly entries = new Map<string, LedgerEntry>();
  /** Replaces recorded values wherever they reappear (values ≥ 8 characters). */
  readonly sweeper = new LiteralSweeper();
  /** Count of values not kept because the cap was reached (the verifier treats this as incomplete). */
  overflow = 0;
  constructor(private readonly maxEntries = 1_000_000) {}

  record(rule: string, raw: string, kind: SecretKind, replacement?: string): void {
    let v = raw.trim();
    if (v.length < 6 || this.entries.has(v)) return;
    if (this.entries.size >= this.maxEntries) {
      this.overflow++;
      return;
    }
    v = detach(v); // kept for the whole ingest: not the line's chunk with it
    this.entries.set(v, { rule, kind });
    this.journal?.push([rule, v, kind, replacement]);
    // A plain word that a PII rule took (a host `customer` from `notes://customer/1`, a user name)
    // is not swept: sweeping it would eat the word everywhere. Secrets are swept whatever they look like.
    if (replacement !== undefined && v.length >= 8 && !/^\d+$/.test(v) && !(kind === 'pii' && /^[A-Za-z]+$/.test(v)) && !/^HTTP\/\d/.test(v)) {
      this.sweeper.add(v, replacement, rule);
      this.swept.push([rule, v, kind, replacement]);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** Raw values for the verifier's literal search; by default secrets, session ids and opaque tokens. */
  rawValues(kinds: SecretKind[] = ['secret', 'session', 'opaque']): string[] {
    const out: string[] = [];
    for (const [v, e] of this.entries) if (kinds.includes(e.kind) && v.length >= 8) out.push(v);
    return out;
  }

  entriesFor(kinds: SecretKind[]): Array<[string, LedgerEntry]> {
    return [...this.entries].filter(([, e]) => kinds.includes(e.kind));
  }
}
