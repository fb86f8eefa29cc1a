// Shared by the redactor's property tests: real sample lines to plant secrets into, and the
// character-class arbitraries the planted values are drawn from.
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const REPO = join(import.meta.dirname, '..', '..', '..');

/** The first `perFile` non-blank lines of every log in samples/<incident>/: real contexts for a planted value. */
export function sampleSeedLines(perFile: number): string[] {
  const out: string[] = [];
  const root = join(REPO, 'samples');
  for (const d of readdirSync(root, { withFileTypes: true })) {
    if (!d.isDirectory()) continue;
    for (const f of readdirSync(join(root, d.name))) {
      if (!/\.(log|jsonl?)$/.test(f)) continue;
      out.push(
        ...readFileSync(join(root, d.name, f), 'utf8')
          .split('\n')
          .filter((l) => l.trim())
          .slice(0, perFile),
      );
    }
  }
  return out;
}

const chars = (set: string, min: number, max: number) => fc.string({ unit: fc.constantFrom(...set), minLength: min, maxLength: max });
export const alnum = (min: number, max: number) => chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', min, max);
export const upperNum = (n: number) => chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', n, n);
export const b64url = (min: number, max: number) => chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_', min, max);
