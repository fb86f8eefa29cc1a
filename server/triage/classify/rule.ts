// A triage rule as data: a stable id, the decision, a condition over facts that either holds
// or says why not, a rationale a person can check, and examples that a test runs.
import type { Decision } from '../../contract/analysis.ts';
import type { Facts } from './facts.ts';

export interface RuleExample {
  name: string;
  facts: Partial<Facts>;
  /** true: this rule must fire (and be the first to fire); false: it must not fire. */
  fires: boolean;
}

export interface Rule {
  id: string;
  decision: Decision;
  /** Where the rule comes from (triage-rules.md section, failure-signatures.md row or D-rule). */
  source: string;
  /** true when the rule applies; otherwise a short reason it does not ("why not"). */
  when(f: Facts): true | string;
  rationale(f: Facts): string;
  examples: RuleExample[];
}

export const BASE_FACTS: Facts = {
  rpcId: null,
  method: null,
  tool: null,
  session: null,
  httpStatus: null,
  httpMethod: null,
  stage: 'unknown',
  stageEvidence: null,
  rootException: null,
  exceptionChain: [],
  protocolVersion: null,
  era: 'unknown',
  sessionSent: false,
  sessionAssignedEarlier: false,
  firstRequest: false,
  bodyKind: 'unknown',
  jsonRpcCode: null,
  sources: [],
  text: '',
  recoveredLater: false,
  transportFallback: false,
  seenBy: { client: false, proxy: false, server: false },
  proxyPhrase: null,
  interruption: null,
  elapsedMs: null,
  clientTimeoutMs: null,
  knownTimerS: null,
  replicas: [],
  replicaSplit: false,
  sideEffect: 'unknown',
  sideEffectSource: 'unknown',
  toolHints: null,
  writeEvidence: null,
  knownDefect: null,
  sessionWorkedBefore: false,
  resumedStream: null,
};

/** The side-effect class in words, with where it came from (rationales quote it). */
export const sideEffectWords = (f: Facts) =>
  f.sideEffect === 'read'
    ? f.sideEffectSource === 'method'
      ? `${f.method} only reads`
      : f.sideEffectSource === 'policy'
        ? `the tool policy file marks ${f.tool} read-only`
        : `the server annotates ${f.tool} as read-only (${f.toolHints}; a hint, not proof)`
    : f.sideEffect === 'write'
      ? f.sideEffectSource === 'policy'
        ? `the tool policy file marks ${f.tool} as a write`
        : `the server annotates ${f.tool} as a write (${f.toolHints})`
      : `nothing shows ${f.tool ?? f.method ?? 'the call'} is read-only${f.toolHints ? ` (hints: ${f.toolHints})` : ''}, so it counts as a write`;

export const describe = (f: Facts) => `${f.method ?? 'the request'}${f.tool ? ` (${f.tool})` : ''}${f.rpcId !== null ? ` id ${JSON.stringify(f.rpcId)}` : ''}`;
