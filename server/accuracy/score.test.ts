import { describe, expect, it } from 'vitest';
import type { Decision } from '../contract/analysis.ts';
import type { CorpusId } from './corpora.ts';
import { ruleReport, type CaseResult } from './score.ts';

const result = (corpus: CorpusId, id: string, decision: Decision, got: Decision, rules: string[], confidence: CaseResult['c']['confidence'] = 'high'): CaseResult => ({
  c: { corpus, id, path: `/nowhere/${id}`, family: 'session-lost', decision, confidence, failing: undefined },
  got,
  right: got === decision,
  located: null,
  rules,
});

describe('ruleReport', () => {
  const rs = [
    result('collected-dev', 'd1', 'reinitialize', 'reinitialize', ['stale-session-400']),
    result('collected-dev', 'd2', 'reinitialize', 'reinitialize', ['stale-session-400']),
    result('collected2-held', 'h1', 'fix_route_or_config', 'reinitialize', ['stale-session-400']),
    result('collected2-held', 'h2', 'reinitialize', 'reinitialize', ['stale-session-400']),
    result('real-dev', 'r1', 'escalate', 'no_action', []),
    result('collected-dev', 'low', 'retry', 'escalate', ['unclassified-failure'], 'low'),
    result('recorded', 'rec', 'retry', 'escalate', ['unclassified-failure'], 'construction'),
  ];
  const text = ruleReport(rs);
  const row = (rule: string) => text.split('\n').find((l) => l.trim().startsWith(`${rule} `)) ?? '';

  it('puts the dev and held records of a rule side by side, with the labels it missed', () => {
    expect(row('stale-session-400')).toMatch(/2\/2 100%\s+1\/2\s+50%\s+fix_route_or_config 1$/);
  });
  it('counts a case whose headline no rule produced as (none)', () => {
    expect(row('(none)')).toMatch(/0\/1\s+0%\s+-\s+escalate 1$/);
  });
  it('reads only the real shapes with medium/high labels, and never names a case', () => {
    expect(row('unclassified-failure')).toBe('');
    for (const id of ['d1', 'd2', 'h1', 'h2', 'r1']) expect(text).not.toContain(` ${id}`);
  });
});
