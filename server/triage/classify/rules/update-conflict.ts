import type { Rule } from '../rule.ts';
import { describe, has } from '../rule.ts';

// Kubernetes API conventions (409 Conflict; k8s.io/apimachinery pkg/api/errors NewConflict, the apiserver's
// OptimisticLockErrorMsg "the object has been modified; please apply your changes to the latest version and
// try again") and client-go util/retry RetryOnConflict: an optimistic-concurrency check refused an update
// because the stored object changed after it was read. The refused update was not applied, and another
// writer racing it is transient: re-read and try again (failure-signatures (c) stage P, "rejected before
// execution": re-sending is safe). A gateway that keeps its MCP sessions as such objects reports it inside
// its own 500. A call that may write is not judged here: the conflict may have come after part of its work.
export const updateConflict: Rule = {
  id: 'update-conflict',
  decision: 'retry',
  source: 'Kubernetes 409 Conflict (apimachinery NewConflict, apiserver OptimisticLockErrorMsg) · client-go RetryOnConflict · failure-signatures (c) stage P',
  when(f) {
    if (!has(f, 'update-conflict')) return 'no optimistic-concurrency conflict';
    if (f.tool !== null && f.sideEffect !== 'read') return `${f.tool} may write: the conflict may have come after part of its work`;
    if (f.persistent === true && f.attempts >= 3) return `it conflicted on all ${f.attempts} attempts: not a passing race`;
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was refused by an optimistic-concurrency check${f.httpStatus ? ` (HTTP ${f.httpStatus})` : ''}: the object it updates (a session or state record, by the wording a Kubernetes resource) changed after it was read, so the update was rejected and not applied. Another writer raced it — transient by nature. Send it again (bounded attempts, backoff); the service should re-read and retry on conflict itself (client-go RetryOnConflict). If it conflicts on every attempt, something keeps rewriting that object: its owners need to look.`,
  examples: [
    {
      name: 'a gateway 500 wrapping "the object has been modified" on initialize',
      facts: { method: 'initialize', httpStatus: 500, causes: ['update-conflict'], signals: ['http-500', 'update-conflict'] },
      fires: true,
    },
    { name: 'near miss: a plain 500 with no conflict wording', facts: { method: 'initialize', httpStatus: 500, signals: ['http-500'] }, fires: false },
    {
      name: 'near miss: a named tool that may write hit the conflict',
      facts: { method: 'tools/call', tool: 'scale_deployment', httpStatus: 500, causes: ['update-conflict'] },
      fires: false,
    },
    {
      name: 'near miss: conflicted on every one of 4 attempts',
      facts: { method: 'initialize', httpStatus: 500, attempts: 4, persistent: true, causes: ['update-conflict'] },
      fires: false,
    },
  ],
};
