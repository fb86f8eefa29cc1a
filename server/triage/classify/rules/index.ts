// The ordered rule table: the first rule whose condition holds decides. Add a rule as one
// file in this folder and list it here, more specific rules first.
import type { Rule } from '../rule.ts';
import { authFailure } from './auth.ts';
import { cancelNotification } from './cancel-notification.ts';
import { cancelScopeDefect } from './cancel-scope-defect.ts';
import { closedClientDefect } from './closed-client-defect.ts';
import { headerValidation } from './header-validation.ts';
import { lb401NoAffinity } from './lb-401-no-affinity.ts';
import { modelApiError } from './model-api-error.ts';
import { optionalStream } from './optional-stream.ts';
import { readInterrupted } from './read-interrupted.ts';
import { recoveredNoise } from './recovered-noise.ts';
import { route404 } from './route-404.ts';
import { sessionExpired404 } from './session-expired-404.ts';
import { splitSession } from './split-session.ts';
import { staleSession400 } from './stale-session-400.ts';
import { timeoutTooLow } from './timeout-too-low.ts';
import { transportMismatch } from './transport-mismatch.ts';
import { unclassified } from './unclassified.ts';
import { unknownMethod2025 } from './unknown-method-2025.ts';
import { unknownMethod2026 } from './unknown-method-2026.ts';
import { upstreamUnreachable } from './upstream-unreachable.ts';
import { writeCommitted } from './write-committed.ts';
import { writeUnknown } from './write-unknown.ts';

export const RULES: readonly Rule[] = [
  // not an MCP failure, or nothing was lost
  modelApiError,
  optionalStream,
  cancelNotification,
  recoveredNoise,
  // the client object itself is broken
  closedClientDefect,
  // credentials vs. deployment
  lb401NoAffinity,
  authFailure,
  splitSession,
  // complete answers: status + body
  unknownMethod2026,
  staleSession400,
  sessionExpired404,
  route404,
  headerValidation,
  transportMismatch,
  // interrupted requests: stage, then side effect
  upstreamUnreachable,
  writeCommitted,
  timeoutTooLow,
  readInterrupted,
  writeUnknown,
  // a complete answer no transport rule explains: -32601 inside a 2xx (exclusive with the interrupted
  // rules above, since it needs an uninterrupted request; listed here so their why-not lists stay short)
  unknownMethod2025,
  // defects and the floor
  cancelScopeDefect,
  unclassified,
];
