// The ordered rule table: the first rule whose condition holds decides. Add a rule as one file in this
// folder and list it here, more specific rules first. Rules read facts and signal ids, never text.
import type { Rule } from '../rule.ts';
import { authFailure, clientCertificateRefused } from './auth.ts';
import { cancelledByCaller, cancelNotification, lateResponse } from './cancel-notification.ts';
import { clientConfigInvalid, deploymentBroken, protocolVersionMalformed } from './client-config-invalid.ts';
import { clientMetadataUnreachable } from './client-metadata-unreachable.ts';
import { clientIdleTimer } from './client-idle-timer.ts';
import { clientPolicyBlocksTarget } from './client-policy.ts';
import { closedClient, failureClosedClient } from './closed-client.ts';
import { credentialDropped, credentialDroppedOnRedirect } from './credential-dropped.ts';
import { cancelScopeDefect, serverDefect, serverSilent, toolSchemaRejected } from './defects.ts';
import { discoveryProbe, oauthDiscoveryFailed } from './discovery-probe.ts';
import { downstreamHandshakeNoise } from './downstream-handshake.ts';
import { edgeChallenge } from './edge-challenge.ts';
import { forwardProxyRefused, forwardProxyInPath, gatewayForLocalServer } from './forward-proxy.ts';
import { handshakeAnsweredTimeout } from './handshake-answered-timeout.ts';
import { handshakeSilent } from './handshake-silent.ts';
import { handshakeTimedOut } from './handshake-timed-out.ts';
import { idleTimeoutShort } from './idle-timeout-short.ts';
import { alreadyInitialized, headerValidation } from './header-validation.ts';
import { corsRefused, endpointMisresolved, endpointOrigin, hostOrigin } from './host-origin.ts';
import { interruptedUnidentified } from './interrupted-unidentified.ts';
import { intermittentRetry, sessionRefusedIntermittently } from './intermittent.ts';
import { lb401NoAffinity } from './lb-401-no-affinity.ts';
import { legacyFallbackIdleCut, legacyStreamLost } from './legacy-stream-lost.ts';
import { modelApiError } from './model-api-error.ts';
import { telemetryNotMcp } from './telemetry-not-mcp.ts';
import { nameAmbiguous } from './name-ambiguous.ts';
import { listStaleAfterRestart } from './list-stale.ts';
import { connectCauseHidden, neverReached, reconnectGaveUp, unreachablePersistent, proxyRefusesEveryAttempt } from './never-reached.ts';
import { optionalStream, optionalStreamFatal } from './optional-stream.ts';
import { streamCutFixedInterval } from './stream-cut-fixed-interval.ts';
import { outputSchemaMismatch, resultRefusedAfterWrite } from './output-schema-mismatch.ts';
import {
  clientProtocolDefect,
  endpointEventMisread,
  finalizerNoise,
  idleEvictionNotice,
  idleSessionLost,
  requiredMethodMissing,
  responseMalformed,
  rootsRequestNoise,
  serverStreamNoise,
  shutdownNoise,
} from './protocol-defects.ts';
import { proxyTimer } from './proxy-timer.ts';
import { oauthRequestInvalid } from './oauth-request-invalid.ts';
import { rateLimited } from './rate-limited.ts';
import { readInterrupted } from './read-interrupted.ts';
import { recoveredNoise } from './recovered-noise.ts';
import { redirectNotFollowed, redirectToItself } from './redirect.ts';
import { responseHeld } from './response-held.ts';
import { route404 } from './route.ts';
import { serverCrashed } from './server-crashed.ts';
import { serverNotInitialized } from './server-not-initialized.ts';
import { sessionManagerStopped } from './session-manager-stopped.ts';
import { initializeRefusedUnknownSession, sessionExpired404, sessionInvalidUnknownWhy, staleSession400 } from './session-expired.ts';
import { sessionIdUnparsable, sessionLostNonSpecAnswer } from './session-non-spec.ts';
import { sessionIdDropped } from './session-id-dropped.ts';
import { sessionNotKept } from './session-not-kept.ts';
import { sessionRefusedAtHandshake, sessionUnknownAtOnce, sessionWorkersStated, splitSession, handleLostAcrossReplicas, handleLost } from './split-session.ts';
import { successRejected } from './success-rejected.ts';
import { startupTimeout } from './startup-timeout.ts';
import { endedWaiting, stoppedWhileWaiting } from './stopped-while-waiting.ts';
import { timeoutTooLow } from './timeout-too-low.ts';
import { timerEveryAttempt } from './timer-every-attempt.ts';
import { toolError, toolErrorRead, toolErrorUnidentified } from './tool-error.ts';
import { transportMismatch } from './transport-mismatch.ts';
import { unclassified } from './unclassified.ts';
import { updateConflict } from './update-conflict.ts';
import { nonexistentMethod, unknownMethod } from './unknown-method.ts';
import { objectNotFound } from './object-not-found.ts';
import { upstreamNeverAnswered } from './upstream-never-answered.ts';
import { legacyProbeFellBack, versionProbeFellBack } from './version-probe-fell-back.ts';
import { versionNotNegotiated } from './version-not-negotiated.ts';
import { duplicateAnsweredRule, duplicateRefused, writeCommitted, writeDuplicated } from './write-committed.ts';
import { workerTimer } from './worker-timer.ts';
import { writeUnknown } from './write-unknown.ts';
import { healthPathMissing } from './health-path-missing.ts';
import { healthProbe } from './health-probe.ts';
import { otherCaller } from './other-caller.ts';
import { dependencyBack, dependencyDown } from './dependency-down.ts';
import { responseTooLarge } from './response-too-large.ts';

export const RULES: readonly Rule[] = [
  // not an MCP failure, an optional channel, a consequence, or something the client got past
  toolSchemaRejected,
  modelApiError,
  telemetryNotMcp,
  discoveryProbe,
  downstreamHandshakeNoise,
  healthProbe,
  otherCaller,
  oauthDiscoveryFailed,
  versionProbeFellBack,
  legacyProbeFellBack,
  // (before the optional stream: the same stream cut at one age again and again is a timer to fix, D19)
  streamCutFixedInterval,
  optionalStream,
  optionalStreamFatal,
  serverStreamNoise,
  shutdownNoise,
  finalizerNoise,
  rootsRequestNoise,
  idleEvictionNotice,
  idleSessionLost,
  cancelNotification,
  lateResponse,
  recoveredNoise,
  // the client object itself is broken, or its settings are
  closedClient,
  clientConfigInvalid,
  clientPolicyBlocksTarget,
  forwardProxyRefused,
  forwardProxyInPath,
  gatewayForLocalServer,
  sessionManagerStopped,
  deploymentBroken,
  // (a balancer with no healthy backend because its probe's path is wrong: configuration, before the outage rules)
  healthPathMissing,
  // the server's own backend is down: the MCP path worked (before the transport rules its pool's refusals would wake)
  dependencyBack,
  dependencyDown,
  protocolVersionMalformed,
  // deployment vs credentials
  lb401NoAffinity,
  edgeChallenge,
  clientMetadataUnreachable,
  hostOrigin,
  corsRefused,
  endpointOrigin,
  oauthRequestInvalid,
  // (a credential the client shows it sent that the server says never arrived: lost on the way, not refused)
  credentialDropped,
  credentialDroppedOnRedirect,
  clientCertificateRefused,
  authFailure,
  rateLimited,
  updateConflict,
  // (the client posted where the server never said: what came back there is not the route's or the session's)
  endpointMisresolved,
  sessionIdUnparsable,
  splitSession,
  sessionWorkersStated,
  // (a refusal counted beside successes of the same requests: the session lives on some backends, row 93)
  sessionRefusedIntermittently,
  sessionUnknownAtOnce,
  serverNotInitialized,
  // complete answers: what the server said
  // (or what the platform in front of it said instead: an answer too large to deliver)
  responseTooLarge,
  nameAmbiguous,
  resultRefusedAfterWrite,
  outputSchemaMismatch,
  clientProtocolDefect,
  endpointEventMisread,
  requiredMethodMissing,
  responseMalformed,
  nonexistentMethod,
  unknownMethod,
  handleLostAcrossReplicas,
  handleLost,
  listStaleAfterRestart,
  objectNotFound,
  sessionNotKept,
  idleTimeoutShort,
  sessionLostNonSpecAnswer,
  initializeRefusedUnknownSession,
  sessionExpired404,
  staleSession400,
  transportMismatch,
  route404,
  redirectToItself,
  redirectNotFollowed,
  versionNotNegotiated,
  sessionIdDropped,
  alreadyInitialized,
  headerValidation,
  sessionRefusedAtHandshake,
  sessionInvalidUnknownWhy,
  // (a write refused as a duplicate of one that exists: judged before the tool's error result it explains)
  duplicateAnsweredRule,
  duplicateRefused,
  successRejected,
  toolErrorRead,
  toolError,
  toolErrorUnidentified,
  // a failure counted beside successes of the same requests: intermittent, not a broken route (D1, D6)
  intermittentRetry,
  // interrupted requests: stage, then what was done, then side effect
  reconnectGaveUp,
  neverReached,
  unreachablePersistent,
  proxyRefusesEveryAttempt,
  connectCauseHidden,
  upstreamNeverAnswered,
  handshakeTimedOut,
  writeDuplicated,
  writeCommitted,
  serverCrashed,
  responseHeld,
  timerEveryAttempt,
  handshakeAnsweredTimeout,
  startupTimeout,
  handshakeSilent,
  timeoutTooLow,
  clientIdleTimer,
  // a call its caller cancelled on purpose is no fault; one known to write goes on to its outcome
  cancelledByCaller,
  writeUnknown,
  stoppedWhileWaiting,
  endedWaiting,
  proxyTimer,
  workerTimer,
  readInterrupted,
  legacyFallbackIdleCut,
  legacyStreamLost,
  interruptedUnidentified,
  serverSilent,
  // defects and the floor
  cancelScopeDefect,
  serverDefect,
  failureClosedClient,
  unclassified,
];
