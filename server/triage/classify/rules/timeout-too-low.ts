import type { Rule } from '../rule.ts';
import { describe } from '../rule.ts';

// failure-signatures D19 and timing fingerprints of section (c), rows 11, 46: a client-local
// timeout configured below what the tool legitimately needs (openai-agents' 5 s default
// client_session_timeout_seconds). Only when nothing else broke first: a timeout that follows a
// cut stream or a proxy error is a consequence, judged by the rules after this one.
export const TOO_LOW_MS = 10_000;

export const timeoutTooLow: Rule = {
  id: 'client-timeout-too-low',
  decision: 'fix_route_or_config',
  source: 'failure-signatures D19, section (c) timing fingerprints, rows 11, 46',
  when(f) {
    if (f.interruption !== 'client-timeout') return 'not a client-local timeout';
    if (f.clientTimeoutMs === null) return 'the timeout setting is not visible in the logs';
    if (f.clientTimeoutMs > TOO_LOW_MS) return `the timeout (${f.clientTimeoutMs} ms) is not unusually short`;
    if (f.proxyPhrase !== null) return 'the proxy logged an upstream failure first: the timeout is its consequence';
    if (/prematurely closed|stream disconnected|other side closed|terminated|Server disconnected/i.test(f.text)) return 'the stream was cut first: the timeout is its consequence';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} hit the client's own ${f.clientTimeoutMs} ms timeout with no transport error before it: the tool is slower than the timeout allows (e.g. openai-agents' 5 s client_session_timeout_seconds). Raise the client timeout for this server or make the tool report progress; a retry with the same setting fails the same way.`,
  examples: [
    { name: 'agents SDK 5 s', facts: { method: 'tools/call', interruption: 'client-timeout', clientTimeoutMs: 5000, text: 'Timed out while waiting for response to ClientRequest. Waited 5.0 seconds.' }, fires: true },
    { name: '8 s timeout after a cut stream', facts: { method: 'tools/call', interruption: 'client-timeout', clientTimeoutMs: 8000, proxyPhrase: 'reading-upstream' }, fires: false },
    { name: '60 s TS default', facts: { method: 'tools/call', interruption: 'client-timeout', clientTimeoutMs: 60000 }, fires: false },
  ],
};
