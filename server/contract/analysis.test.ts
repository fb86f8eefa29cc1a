import { describe, expect, it } from 'vitest';
import { Analysis, DECISION_URGENCY, Decision, headline } from './analysis.ts';

const doc = {
  schemaVersion: 1,
  inputs: [{ file: 'client.log', source: 'client', format: 'python-logging', lines: 3, events: 3, unparsed: 0 }],
  protocolVersions: ['2025-06-18'],
  failures: [
    {
      rpcId: 7,
      method: 'tools/call',
      tool: 'create_order',
      session: 'sess_k7w2m6q4xa',
      httpStatus: 404,
      stage: 'http_status',
      rootException: null,
      exceptionChain: [],
      decision: 'reinitialize',
      rule: 'session-expired-404',
      rationale: 'x',
      evidence: [{ file: 'a', line: 1 }],
    },
  ],
  sessions: [{ session: 'sess_k7w2m6q4xa', firstSeen: null, lastSeen: null, state: 'expired' }],
  spans: [{ rpcId: 7, method: 'tools/call', session: 'sess_k7w2m6q4xa', sources: ['client', 'proxy'], joinedBy: ['session+rpcId'] }],
  decision: 'reinitialize',
};

describe('Analysis schema', () => {
  it('accepts the contract example', () => expect(Analysis.parse(doc).decision).toBe('reinitialize'));
  it('rejects a decision outside the vocabulary', () => expect(Analysis.safeParse({ ...doc, decision: 'restart' }).success).toBe(false));
  it('rejects a raw session id where a pseudonym belongs', () => {
    const bad = { ...doc, sessions: [{ ...doc.sessions[0], session: 'f790ede9-8a4a-4913-849e-bc32ee245fe4' }] };
    expect(Analysis.safeParse(bad).success).toBe(false);
  });
  it('takes skipped files (added 2026-12) with a reason from the vocabulary, and stays valid without them', () => {
    const skipped = [
      { file: 'README.md', reason: 'not-a-log', detail: 'a Markdown document' },
      { file: 'shot.png', reason: 'binary', detail: 'a PNG image' },
    ];
    expect(Analysis.parse({ ...doc, skipped }).skipped).toEqual(skipped);
    expect(Analysis.parse(doc).skipped).toBeUndefined();
    expect(Analysis.safeParse({ ...doc, skipped: [{ file: 'x', reason: 'ugly', detail: 'y' }] }).success).toBe(false);
    expect(Analysis.safeParse({ ...doc, skipped: [{ file: 'x', reason: 'empty' }] }).success).toBe(false);
  });
  it('rejects another schemaVersion', () => expect(Analysis.safeParse({ ...doc, schemaVersion: 2 }).success).toBe(false));
  it('has exactly the contract vocabulary, most urgent first', () => {
    expect(DECISION_URGENCY).toEqual(['check_write_then_escalate', 'read_result_no_repeat', 'fix_auth', 'fix_route_or_config', 'escalate', 'reinitialize', 'retry', 'no_action']);
    expect(new Set(DECISION_URGENCY)).toEqual(new Set(Decision.options));
  });
  it('headline takes the most urgent decision', () => {
    expect(headline([])).toBe('no_action');
    expect(headline(['retry', 'reinitialize', 'no_action'])).toBe('reinitialize');
    expect(headline(['escalate', 'check_write_then_escalate'])).toBe('check_write_then_escalate');
  });
});
