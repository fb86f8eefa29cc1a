import type { Rule } from '../rule.ts';
import { describe } from '../rule.ts';

// spec basic/lifecycle: the server answers initialize with its InitializeResult, then the client sends
// notifications/initialized (over Streamable HTTP a POST the server accepts with 202 and no body). A client
// that logged the InitializeResult and then timed out on initialize was not waiting for a slow server: it
// could not finish its own side, most often because the reply to the initialized notification was one it
// could not read (an SSE comment it rejects: java-sdk#685; a text/plain 202: java-sdk#748; a body where none
// belongs: rust-sdk#455). Raising the timeout only waits longer: a defect between the client SDK and the
// server's reply, which triage-rules.md decides as escalate (a non-compliant reply).
export const handshakeAnsweredTimeout: Rule = {
  id: 'handshake-answered-then-timed-out',
  decision: 'escalate',
  source: 'spec basic/lifecycle (initialize, then notifications/initialized) · java-sdk LifecycleInitializer · triage-rules.md decision table (escalate)',
  when(f) {
    if (f.interruption !== 'client-timeout') return 'not a client-local timeout';
    if (f.method !== 'initialize') return 'not the handshake (initialize)';
    if (!f.handshakeAnswered) return "the client did not log the server's InitializeResult just before the timeout";
    return true;
  },
  rationale: (f) =>
    `${describe(f)} timed out${f.clientTimeoutMs !== null ? ` after ${f.clientTimeoutMs} ms` : ''} although the client had just logged the server's InitializeResult: the server answered the handshake, so the timer is not too short. What did not finish is the client's own side — most often the reply to its notifications/initialized, which it could not read (an SSE comment or retry line it rejects, a text/plain 202, a body where none belongs). Raising the timeout only waits longer: capture that notification's HTTP exchange and escalate to the owners of the client SDK and the server.`,
  examples: [
    {
      name: 'Java SDK: Server response with Protocol …, then Failed to initialize after 3000 ms',
      facts: { method: 'initialize', interruption: 'client-timeout', clientTimeoutMs: 3000, handshakeAnswered: true, causes: ['client-timeout'] },
      fires: true,
    },
    {
      name: 'initialize timed out with no InitializeResult logged (a slow or silent server)',
      facts: { method: 'initialize', interruption: 'client-timeout', clientTimeoutMs: 5000, handshakeAnswered: false, causes: ['client-timeout'] },
      fires: false,
    },
    {
      name: 'a tools/call timeout on a session whose handshake worked',
      facts: { method: 'tools/call', tool: 'search', interruption: 'client-timeout', clientTimeoutMs: 5000, handshakeAnswered: false, causes: ['client-timeout'] },
      fires: false,
    },
  ],
};
