import type { Rule } from '../rule.ts';
import { describe, has, identifiedCall } from '../rule.ts';

// failure-signatures D19 and the timing fingerprints of section (c), rows 11, 46: a client-local timeout
// below what the operation needs, with nothing broken before it (a timeout after a cut stream or a proxy
// error is that failure's consequence, judged by the rules after this one): the setting is visibly short
// and the call is a read or not identified (a call that may write is judged by write-outcome-unknown).
export const TOO_LOW_MS = 15_000;
/** Transport failures that, logged with a client timeout, make the timeout their consequence. */
export const BROKE_BEFORE_TIMEOUT = [
  'stream-cut',
  'stream-disconnected',
  'proxy-timeout-before-headers',
  'proxy-timeout-mid-stream',
  'peer-closed-before-response',
  'conn-reset',
  'proxy-upstream-unavailable',
] as const;

export const timeoutTooLow: Rule = {
  id: 'client-timeout-too-low',
  decision: 'fix_route_or_config',
  source: 'failure-signatures D19, section (c) timing fingerprints, rows 11, 46',
  when(f) {
    if (f.interruption !== 'client-timeout') return 'not a client-local timeout';
    if (has(f, ...BROKE_BEFORE_TIMEOUT)) return 'something broke before the timeout: the timeout is its consequence';
    // a call that may write and that the server is shown to have received is a write in flight whose
    // outcome comes first (D7); with nothing showing it arrived, the short setting is the finding and
    // the rationale says to check the write before re-running it
    if (identifiedCall(f) && f.sideEffect !== 'read' && f.delivered === true)
      return 'the server received this call that may write: its outcome comes first (write-outcome-unknown)';
    // with the server's log in hand, a call it does not mention may still have reached it (lines not
    // tied to the call): whether it wrote is as open as when it is shown arriving
    if (identifiedCall(f) && f.sideEffect !== 'read' && f.delivered === null && f.serverLogged)
      return 'the server log is here and cannot show whether this call that may write arrived: its outcome comes first (write-outcome-unknown)';
    if (f.clientTimeoutMs !== null && f.clientTimeoutMs <= TOO_LOW_MS) return true;
    return f.clientTimeoutMs !== null ? `the timeout (${f.clientTimeoutMs} ms) is not unusually short` : 'the timeout setting is not in the logs: nothing shows it is too short';
  },
  rationale: (f) =>
    `${describe(f)} hit the client's own ${f.clientTimeoutMs !== null ? `${f.clientTimeoutMs} ms ` : ''}timeout with no transport error before it: the operation takes longer than the client waits (e.g. a 5 s client_session_timeout, a 15 s CLI default). Raise the client's timeout for this server or this call, or make the tool report progress; a retry with the same setting fails the same way.${!identifiedCall(f) ? ' Which call it was is not in the logs, so whether it changed anything cannot be judged here.' : f.sideEffect !== 'read' ? ' The server may still have run it (a client timeout does not cancel it before 2026-07-28): if this call changes state, check whether it completed before running it again.' : ''}`,
  examples: [
    {
      name: 'agents SDK 5 s on a read-only tool',
      facts: {
        method: 'tools/call',
        tool: 'decompose',
        interruption: 'client-timeout',
        clientTimeoutMs: 5000,
        causes: ['client-timeout'],
        sideEffect: 'read',
        sideEffectSource: 'policy',
      },
      fires: true,
    },
    {
      name: '5 s on a tool that may write, the server shown running it',
      facts: { method: 'tools/call', tool: 'create_task', interruption: 'client-timeout', clientTimeoutMs: 5000, delivered: true, causes: ['client-timeout'] },
      fires: false,
    },
    {
      name: '5 s on a tool that may write, the server log silent about it',
      facts: { method: 'tools/call', tool: 'create_task', interruption: 'client-timeout', clientTimeoutMs: 5000, serverLogged: true, causes: ['client-timeout'] },
      fires: false,
    },
    {
      name: '5 s on a tool that may write, only the client logged',
      facts: { method: 'tools/call', tool: 'decompose', interruption: 'client-timeout', clientTimeoutMs: 5000, causes: ['client-timeout'] },
      fires: true,
    },
    {
      name: 'a tools/call timeout after 5 s, tool not named',
      facts: { method: 'tools/call', interruption: 'client-timeout', clientTimeoutMs: 5000, causes: ['client-timeout'] },
      fires: true,
    },
    { name: 'a timeout whose setting is not logged', facts: { method: 'tools/call', interruption: 'client-timeout', causes: ['client-timeout'] }, fires: false },
    {
      name: '8 s timeout after a cut stream',
      facts: { method: 'tools/call', tool: 'create_order', interruption: 'stream-cut', clientTimeoutMs: 8000, causes: ['stream-cut', 'client-timeout'] },
      fires: false,
    },
    { name: 'the default 60 s on a named tool', facts: { method: 'tools/call', tool: 'create_order', interruption: 'client-timeout', clientTimeoutMs: 60000 }, fires: false },
  ],
};
