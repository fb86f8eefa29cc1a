// What each decision means to the person holding the pager (triage-rules.md, in one line).
import type { Decision } from './analysis.ts';

export const DECISION_INFO: Record<Decision, { label: string; meaning: string }> = {
  retry: {
    label: 'Retry',
    meaning: 'Safe to send again: the request never reached the server, or it is read-only and repeatable.',
  },
  reinitialize: {
    label: 'Reinitialize',
    meaning: 'The session is gone: open a new session (initialize), then repeat the call.',
  },
  fix_route_or_config: {
    label: 'Fix route or config',
    meaning: 'Retrying will not help: fix the route, proxy, transport, headers or protocol settings.',
  },
  fix_auth: {
    label: 'Fix auth',
    meaning: 'Credentials were refused (401/403, OAuth, token): fix them before trying again.',
  },
  read_result_no_repeat: {
    label: 'Read result — do not repeat',
    meaning: 'The write completed on the server: read its result and go on; do not write again.',
  },
  check_write_then_escalate: {
    label: 'Check write, then escalate',
    meaning: 'A write may or may not have happened: check its status first; if unknown, escalate to someone with rights.',
  },
  escalate: {
    label: 'Escalate',
    meaning: 'A defect in the server, SDK or calling app that configuration cannot fix: hand over this evidence.',
  },
  no_action: {
    label: 'No action',
    meaning: 'Nothing to do: nothing failed, or the client recovered on its own.',
  },
};

export function decisionInfo(d: string): { label: string; meaning: string } {
  return (DECISION_INFO as Record<string, { label: string; meaning: string }>)[d] ?? { label: d, meaning: '' };
}
