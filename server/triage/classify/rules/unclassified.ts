import type { Rule } from '../rule.ts';
import { describe } from '../rule.ts';

// The floor: a failure no rule explains goes to a person, with everything we found.
export const unclassified: Rule = {
  id: 'unclassified-failure',
  decision: 'escalate',
  source: 'triage-rules.md §5 (keep the failure, then escalate)',
  when: () => true,
  rationale: (f) =>
    `No rule explains ${describe(f)}${f.httpStatus ? ` (HTTP ${f.httpStatus})` : ''}${f.rootException ? `; its first exception is ${f.rootException.type}` : ''}. Keep the evidence below and escalate to the owners of the failing side.`,
  examples: [{ name: 'anything', facts: { httpStatus: 500 }, fires: true }],
};
