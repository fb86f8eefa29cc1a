import type { Rule } from '../rule.ts';
import { describe, interruptionWords } from '../rule.ts';

const HANDSHAKE = new Set(['initialize', 'server/discover', 'ping']);

// failure-signatures rows 69, 78, 81 read by the method: a proxy timer ending a call means the call
// outlasted the timer. A long tool call can (raise the timer: proxy-timer-cut); the handshake cannot —
// a server answers initialize in milliseconds (spec basic/lifecycle), so a gateway timeout there is an
// upstream that did not answer at all (hung, overloaded, stuck starting). Raising the timer only waits
// longer: triage-rules.md's "a defect in the server … that configuration cannot fix" → escalate.
export const handshakeTimedOut: Rule = {
  id: 'handshake-timed-out-at-proxy',
  decision: 'escalate',
  source: 'failure-signatures rows 69, 78, 81 · spec basic/lifecycle · triage-rules.md decision table (escalate)',
  when(f) {
    if (f.proxyTimerCut !== true) return 'no proxy timer ended the exchange';
    if (f.method === null || !HANDSHAKE.has(f.method)) return 'not the handshake (initialize, server/discover, ping)';
    if (f.writeEvidence) return 'the server logged an answer';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was ended by a gateway timer (${interruptionWords(f)}). A server answers ${f.method} in milliseconds, so the timer is not too short: the upstream did not answer the handshake at all — hung, overloaded, or still starting. Raising the timeout would only wait longer. Look at the server (or container) at that time: its logs, health and start-up; escalate to its owners, and connect again once it answers.`,
  examples: [
    { name: 'gateway 504 on initialize', facts: { method: 'initialize', httpStatus: 504, proxyTimerCut: true, interruption: 'proxy-timeout-before-headers' }, fires: true },
    {
      name: 'a long tools/call cut at 60 s',
      facts: { method: 'tools/call', tool: 'export', httpStatus: 504, proxyTimerCut: true, interruption: 'proxy-timeout-before-headers' },
      fires: false,
    },
    { name: 'initialize refused at connect (502)', facts: { method: 'initialize', httpStatus: 502, interruption: 'connect', neverConnected: true }, fires: false },
  ],
};
