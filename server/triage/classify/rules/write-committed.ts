import type { Rule } from '../rule.ts';
import { describe, sideEffectWords } from '../rule.ts';

// triage-rules.md §6 ("write completed in the target system" → read the result, do not write
// again); failure-signatures D5 (applied before D6/D7), D3.
export const writeCommitted: Rule = {
  id: 'write-committed-no-response',
  decision: 'read_result_no_repeat',
  source: 'failure-signatures D5, D3 · triage-rules.md §6',
  when(f) {
    if (f.interruption === null || f.interruption === 'connect') return 'the request was not interrupted after it was sent';
    if (f.sideEffect === 'read') return `a read-only call (${sideEffectWords(f)})`;
    if (!f.writeEvidence) return 'no server line shows the handler completed or committed';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was interrupted (${interruptionWords(f)}) but the server shows the write completed (${f.writeEvidence}). The result exists in the target system: read it and go on — do NOT send ${f.tool ?? f.method ?? 'the call'} again (a new request id is not an idempotency key). ${f.era === 'sessionless' ? '' : 'If the session died with the server, read the result over a new session. '}Fix the interruption separately.`,
  examples: [
    { name: '502 before headers, server logged committed', facts: { method: 'tools/call', tool: 'create_order', httpStatus: 502, proxyPhrase: 'reading-response-header', interruption: 'proxy-closed-before-headers', writeEvidence: 'server.log:16 tools/call create_order committed order=ORD-4711' }, fires: true },
    { name: '504 and committed one second later', facts: { method: 'tools/call', tool: 'import_orders', httpStatus: 504, interruption: 'proxy-timeout-before-headers', writeEvidence: 'server.log:17 committed' }, fires: true },
    { name: 'no commit evidence', facts: { method: 'tools/call', tool: 'create_order', httpStatus: 502, interruption: 'proxy-closed-before-headers' }, fires: false },
    { name: 'read-only call that completed', facts: { method: 'tools/list', interruption: 'stream-cut', sideEffect: 'read', sideEffectSource: 'method', writeEvidence: 'x' }, fires: false },
  ],
};

export function interruptionWords(f: import('../facts.ts').Facts): string {
  switch (f.interruption) {
    case 'proxy-closed-before-headers':
      return `the upstream closed the connection before any response header${f.httpStatus ? `; the proxy answered ${f.httpStatus}` : ''}`;
    case 'proxy-timeout-before-headers':
      return `no response header within the proxy's timeout${f.httpStatus ? ` (HTTP ${f.httpStatus})` : ''}${f.elapsedMs !== null ? ` after ${Math.round(f.elapsedMs)} ms` : ''}${f.knownTimerS ? `, matching a ${f.knownTimerS} s timer` : ''}`;
    case 'stream-cut':
      return `the response ${f.proxyPhrase === 'reading-upstream' ? 'started (headers sent) and the stream was cut mid-body' : 'was cut before it completed'}`;
    case 'client-timeout':
      return `the client gave up waiting${f.clientTimeoutMs !== null ? ` after ${f.clientTimeoutMs} ms` : ''}`;
    case 'connection-closed':
      return 'the connection was closed with the request pending';
    case 'client-gave-up':
      return `the client closed the request first (HTTP ${f.httpStatus})`;
    default:
      return 'the exchange failed';
  }
}
