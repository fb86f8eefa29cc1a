import type { Rule } from '../rule.ts';
import { describe, has } from '../rule.ts';
import { BROKE_BEFORE_TIMEOUT } from './timeout-too-low.ts';

const HANDSHAKE = new Set(['initialize', 'server/discover']);

/** A handshake budget at or below this is start-up sized (openai-agents 5 s, Codex 10 s): client-timeout-too-low judges it. */
export const HANDSHAKE_BUDGET_SHORT_MS = 10_000;

// spec basic/lifecycle and failure-signatures rows 11, 12, 46 read by the method, as handshake-timed-out-at-proxy
// reads rows 69, 78, 81: a server answers initialize (server/discover) at once, so a client that waited longer
// than a start-up-sized budget for it — or for a budget its log does not state — was not waiting on slow work:
// the server, or the path to it, did not answer the handshake at all (hung, stuck starting, or a reply the
// client could not read). Nothing was called yet, and raising the timer or retrying unchanged only waits
// longer: triage-rules.md's "a defect … that configuration cannot fix" → escalate. A short budget (≤ 10 s)
// is client-timeout-too-low; a host's start-up line is client-startup-timeout; a server shown answering is
// handshake-answered-then-timed-out.
export const handshakeSilent: Rule = {
  id: 'handshake-not-answered',
  decision: 'escalate',
  source: 'spec basic/lifecycle · failure-signatures rows 11, 12, 46, section (c) timing fingerprints · triage-rules.md decision table (escalate)',
  when(f) {
    if (f.interruption !== 'client-timeout') return 'not a client-local timeout';
    if (f.method === null || !HANDSHAKE.has(f.method)) return 'not the handshake (initialize, server/discover)';
    if (f.handshakeAnswered) return "the client logged the server's InitializeResult (handshake-answered-then-timed-out)";
    if (f.writeEvidence) return 'the server logged an answer';
    if (has(f, ...BROKE_BEFORE_TIMEOUT)) return 'something broke before the timeout: the timeout is its consequence';
    if (f.clientTimeoutMs !== null && f.clientTimeoutMs <= HANDSHAKE_BUDGET_SHORT_MS)
      return `the budget (${f.clientTimeoutMs} ms) is start-up sized: a cold start can exceed it (client-timeout-too-low)`;
    return true;
  },
  rationale: (f) =>
    `${describe(f)} timed out on the client${f.clientTimeoutMs !== null ? ` after ${f.clientTimeoutMs} ms` : ''} with no answer and no transport error before it. A server answers ${f.method} at once, so the wait was not too short: the server, or the path to it, did not answer the handshake at all — hung, stuck starting, or a reply the client could not read (an SSE framing or content type it rejects). No tool was called, and raising the timeout or retrying unchanged only waits longer: look at the server at that time (its log, health, start-up) and at the raw HTTP exchange of the handshake, and escalate to the owners of the server or the client SDK.`,
  examples: [
    {
      name: 'initialize timed out after 15 s, nothing else logged',
      facts: { method: 'initialize', interruption: 'client-timeout', clientTimeoutMs: 15000, causes: ['client-timeout'] },
      fires: true,
    },
    { name: 'initialize timed out, budget not logged', facts: { method: 'initialize', interruption: 'client-timeout', causes: ['client-timeout'] }, fires: true },
    {
      name: 'initialize on the 5 s default (a cold start exceeds it)',
      facts: { method: 'initialize', interruption: 'client-timeout', clientTimeoutMs: 5000, causes: ['client-timeout'] },
      fires: false,
    },
    {
      name: 'a tools/list timeout after 30 s',
      facts: { method: 'tools/list', interruption: 'client-timeout', clientTimeoutMs: 30000, sideEffect: 'read', sideEffectSource: 'method', causes: ['client-timeout'] },
      fires: false,
    },
    {
      name: 'initialize timed out after the stream was cut',
      facts: { method: 'initialize', interruption: 'client-timeout', clientTimeoutMs: 30000, causes: ['stream-cut', 'client-timeout'] },
      fires: false,
    },
  ],
};
