import type { Rule } from '../rule.ts';
import { interruptedAfterSend, interruptionWords } from '../rule.ts';

// failure-signatures D6/D7 when the call is not in the logs: an interrupted exchange tied to no known
// call is not evidence of a write (unknown is not the worst case). Transient failures are retried with
// bounded attempts; a failure on every attempt is not transient and falls through to escalate.
export const interruptedUnidentified: Rule = {
  id: 'interrupted-unidentified-retry',
  decision: 'retry',
  source: 'failure-signatures D6, D7 (no identified call) · triage-rules.md §5',
  when(f) {
    if (!interruptedAfterSend(f)) return 'the request was not interrupted after it was sent';
    if (f.tool !== null || (f.method !== null && f.method !== 'tools/call')) return 'the call is identified';
    // (unless the server's log shows it stopped before them: down, not broken — row 66, send once it is up)
    if (f.persistent === true && !f.serverStoppedBefore) return `it failed on all ${f.attempts} attempts: not transient`;
    if (f.interruption === 'client-timeout') return 'the server did not answer in time: a silence, not a blip (server-did-not-answer)';
    return true;
  },
  rationale: (f) =>
    `${f.serverStoppedBefore ? "The server's own log shows it stopped before this and not started again: start it (or wait for the deploy), then send; " : ''}An exchange was interrupted (${interruptionWords(f)}), but the logs do not say which call it was, so nothing shows it changed anything. Treat it as transient: retry with bounded attempts and backoff. If the call was a write (check the host's own logs for which tool ran), query its outcome before repeating it.`,
  examples: [
    { name: 'an Envoy 503 reset, call not named', facts: { httpStatus: 503, interruption: 'bad-gateway' }, fires: true },
    { name: 'named write', facts: { tool: 'create_order', method: 'tools/call', interruption: 'stream-cut' }, fires: false },
    { name: 'every attempt failed', facts: { interruption: 'closed-before-headers', attempts: 5, persistent: true }, fires: false },
    {
      name: 'every attempt failed after the server logged its shutdown',
      facts: { interruption: 'bad-gateway', httpStatus: 502, attempts: 3, persistent: true, serverStoppedBefore: true },
      fires: true,
    },
  ],
};
