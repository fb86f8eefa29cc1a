// Every rule's examples run; a rule that must fire must be the FIRST to fire in table order,
// so two rules claiming the same example fail here.
import { describe, expect, it } from 'vitest';
import { classify } from './engine.ts';
import { BASE_FACTS } from './rule.ts';
import { RULES } from './rules/index.ts';
import { redactText } from '../redact/index.ts';

const KEY = new Uint8Array(32).fill(7);

describe('rule table', () => {
  it('has unique ids and ends with a rule that always holds', () => {
    expect(new Set(RULES.map((r) => r.id)).size).toBe(RULES.length);
    expect(RULES.at(-1)!.when(BASE_FACTS)).toBe(true);
  });
  for (const rule of RULES) {
    describe(rule.id, () => {
      it('has examples of both kinds (or is the floor)', () => {
        expect(rule.examples.some((e) => e.fires)).toBe(true);
        if (rule !== RULES.at(-1)) expect(rule.examples.some((e) => !e.fires)).toBe(true);
      });
      for (const ex of rule.examples) {
        it(`${ex.fires ? 'decides' : 'does not fire on'}: ${ex.name}`, () => {
          const facts = { ...BASE_FACTS, ...ex.facts };
          if (ex.fires) {
            const c = classify(facts);
            expect(c.rule.id, `first rule to fire; rejected: ${JSON.stringify(c.rejected)}`).toBe(rule.id);
            expect(c.decision).toBe(rule.decision);
            expect(c.rationale.length).toBeGreaterThan(20);
            // the report redacts everything it prints again: our own words must come through whole ("not its
            // credentials: signing in again" once lost "signing" to the secret-key rule). The log's values quoted
            // in it (addresses, business data) are pseudonymised there as they should be; no example holds a secret.
            expect(redactText(c.rationale, { key: KEY, tier: 'all', ungated: true }).text).not.toContain('[REDACTED:');
          } else expect(rule.when(facts)).toBeTypeOf('string');
        });
      }
    });
  }
});
