import type { Rule } from '../rule.ts';
import { describe } from '../rule.ts';

// The floor: a visible error no rule explains is escalated with its evidence (cli-contract.md: it counts
// as primary only when tied to an identified request or alone in its episode — episodes.ts).
export const unclassified: Rule = {
  id: 'unclassified-failure',
  decision: 'escalate',
  source: 'triage-rules.md decision table (escalate) · cli-contract.md (unexplained failures)',
  when: () => true,
  rationale: (f) =>
    `No rule explains ${f.identified ? describe(f) : 'this error'}${f.httpStatus ? ` (HTTP ${f.httpStatus})` : ''}${f.rootException ? `; its first exception is ${f.rootException.type}` : ''}. Keep the evidence below and escalate to the owners of the failing side.`,
  examples: [{ name: 'anything', facts: {}, fires: true }],
};
