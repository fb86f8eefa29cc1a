// Evaluate the ordered rules on one failure's facts: the first that holds decides; every rule
// before it is reported with why it did not ("why not").
import type { Decision } from '../../contract/analysis.ts';
import type { Facts } from './facts.ts';
import type { Rule } from './rule.ts';
import { RULES } from './rules/index.ts';

export interface Classification {
  rule: Rule;
  decision: Decision;
  rationale: string;
  rejected: { rule: string; why: string }[];
}

export function classify(f: Facts, rules: readonly Rule[] = RULES): Classification {
  const rejected: { rule: string; why: string }[] = [];
  for (const rule of rules) {
    const r = rule.when(f);
    if (r === true) return { rule, decision: rule.decision, rationale: rule.rationale(f), rejected };
    rejected.push({ rule: rule.id, why: r });
  }
  throw new Error('the rule table must end with a rule that always holds');
}
