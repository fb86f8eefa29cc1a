// A triage rule as data: a stable id, the decision, a condition over facts that either holds
// or says why not, a rationale a person can check, and examples that a test runs. Rules read
// facts and signal ids only — never the log text (the signal table reads the text).
import type { SignalCause } from '../../../parsers/contract/signal.ts';
import { signalTable } from '../../../parsers/engine/signals.ts';
import type { Decision, FailureRole } from '../../contract/analysis.ts';
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
  /**
   * The role a failure this rule decides always has (cli-contract.md: optional channels,
   * consequences, recoveries). Absent: episodes.ts decides from the episode.
   */
  role?: Exclude<FailureRole, 'primary'>;
  /** A later success of the same call settles a failure this rule decides (the client corrected itself). */
  settledBySuccess?: boolean;
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
  answerStatus: null,
  httpMethod: null,
  httpPath: null,
  authFlowPath: false,
  target: null,
  localTarget: null,
  stage: 'unknown',
  stageEvidence: null,
  rootException: null,
  exceptionChain: [],
  protocolVersion: null,
  era: 'unknown',
  signals: [],
  causes: [],
  sources: [],
  seenBy: { client: false, proxy: false, server: false },
  identified: false,
  sessionSent: null,
  sessionAssignedEarlier: null,
  sessionUnknown: null,
  sessionAgeMs: null,
  sessionLossExplained: null,
  laterSessionKept: null,
  idleTimeoutMs: null,
  idleTimeoutAt: null,
  clientClosedAfter: null,
  closedBeforeIssued: null,
  duplicateAnswered: null,
  sessionAcceptedAfter: null,
  endpointWorked: true,
  probeFoundLegacy: false,
  sessionAgeLines: null,
  pathWorked: null,
  routeWrong: null,
  viaForwardProxy: null,
  proxyBypassExpected: null,
  firstRequest: null,
  methodInSpec: null,
  transportMismatch: null,
  neverConnected: null,
  delivered: null,
  serverLogged: false,
  proxyLogged: false,
  quietBeforeMs: null,
  streamCutEveryMs: null,
  fellBackEarlier: false,
  interruption: null,
  proxyTimerCut: null,
  workerTimerCut: null,
  bodyKind: 'unknown',
  jsonRpcCode: null,
  elapsedMs: null,
  clientTimeoutMs: null,
  handshakeAnswered: false,
  knownTimerS: null,
  replicas: [],
  replicaSplit: null,
  workersStated: null,
  attempts: 1,
  persistent: null,
  answeredQuicklyBefore: null,
  otherCaller: null,
  otherCallerStranger: false,
  streamResumed: false,
  mixedTally: null,
  clientSends: 0,
  recovered: null,
  recoveredBy: null,
  redirectLoop: null,
  endpointMisresolved: null,
  sentAgain: false,
  wentOn: true,
  requestedAfter: null,
  loggedAsError: null,
  capabilityServed: false,
  serverStartedAfter: false,
  healthPathMissing: null,
  tunnelRefused: null,
  redirectBeforeRefusal: null,
  serverStoppedBefore: false,
  connectedBefore: null,
  connectedAfter: null,
  connectDropped: null,
  gaveUp: false,
  connectCauseHidden: false,
  serverNeverAnswered: false,
  quickSessionLosses: 0,
  serverCrashedAt: null,
  clientMetadataUnreachableAt: null,
  transportFallback: false,
  initializedAfter: false,
  serverServedAfter: false,
  dependencyBackAt: null,
  managerServedEarlier: null,
  rootIsClosedStream: false,
  sideEffect: 'unknown',
  sideEffectSource: 'unknown',
  toolHints: null,
  writeEvidence: null,
  writeDuplicated: null,
  taskPollRecovered: null,
  knownDefect: null,
  sessionWorkedBefore: null,
  resumedStream: null,
  nearShutdown: false,
  drainingSince: null,
  heldInTransit: null,
  heldEvidence: null,
};

/** The failure has a signal of this cause. */
export const has = (f: Facts, ...causes: SignalCause[]) => causes.some((c) => f.causes.includes(c));

/** The title of the first signal of these causes on the failure (for rationales), else the fallback. */
export function signalWords(f: Facts, causes: readonly SignalCause[], fallback: string): string {
  const t = signalTable();
  for (const id of f.signals) {
    const s = t.signals.find((x) => x.spec.id === id);
    if (s && causes.includes(s.spec.meaning.cause)) return s.spec.title.charAt(0).toLowerCase() + s.spec.title.slice(1);
  }
  return fallback;
}

/** A tools/call (or other method) identified well enough for write-safety rules to speak about it. */
export const identifiedCall = (f: Facts) => f.tool !== null || (f.method !== null && f.method !== 'tools/call');

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

export function interruptionWords(f: Facts): string {
  switch (f.interruption) {
    case 'closed-before-headers':
      return `the upstream closed the connection before any response header${f.httpStatus ? `; the answer was ${f.httpStatus}` : ''}`;
    case 'proxy-timeout-before-headers':
      return `no response header within the proxy's timeout${f.httpStatus ? ` (HTTP ${f.httpStatus})` : ''}${f.elapsedMs !== null ? ` after ${Math.round(f.elapsedMs)} ms` : ''}${f.knownTimerS ? `, matching a ${f.knownTimerS} s timer` : ''}`;
    case 'bad-gateway':
      return `a gateway answered ${f.httpStatus} for it (the upstream failed; whether before or after it read the request is not logged)`;
    case 'stream-cut':
      return `the response ${f.stage === 'mid_body' ? 'started and the stream was cut mid-body' : 'was cut before it completed'}`;
    case 'client-timeout':
      return `the client gave up waiting${f.clientTimeoutMs !== null ? ` after ${f.clientTimeoutMs} ms` : ''}`;
    case 'connection-closed':
      return f.workerTimerCut === true
        ? "the server's supervisor killed the worker serving it for outrunning the worker timeout"
        : 'the connection was closed with the request pending';
    case 'client-gave-up':
      return `the client closed the request first${f.httpStatus ? ` (HTTP ${f.httpStatus})` : ''}`;
    case 'connect':
      return 'the connection was never established';
    case 'caller-cancelled':
      return 'the caller cancelled it on purpose';
    case 'stopped-while-waiting':
      return 'the client process shut down while it still waited for the answer';
    case 'log-ended-waiting':
      return "the client's log ends while it still waited for the answer";
    case 'task-lost':
      return 'its task was gone (expired or unknown to the server) when the client polled for the result, so the result was never delivered';
    default:
      return 'the exchange failed';
  }
}

/** An interruption after the request may have been sent (everything but a connect failure). */
export const interruptedAfterSend = (f: Facts) => f.interruption !== null && f.interruption !== 'connect';
