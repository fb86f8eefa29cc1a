import type { Rule } from '../rule.ts';
import { describe, has, interruptedAfterSend, interruptionWords } from '../rule.ts';

// failure-signatures row 76 and D8: a mesh or proxy that retries a POST (Istio's default retry policy, nginx
// `proxy_next_upstream … non_idempotent`) can deliver one call to two replicas; when both log that they committed it,
// the effect exists twice. Reading the result is not enough: check the duplicates and have them reversed, then take
// the POST off the proxy's retry policy.
export const writeDuplicated: Rule = {
  id: 'write-committed-twice',
  decision: 'check_write_then_escalate',
  source: 'failure-signatures row 76, D8',
  when(f) {
    if (f.sideEffect === 'read') return 'a read-only call: a second run changes nothing';
    if (!f.writeDuplicated) return 'no two replicas logged that they committed this request';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was committed more than once: one request reached two replicas and each logged that it finished the work (${f.writeDuplicated}) — a proxy or mesh retried the POST after its first attempt ran (Istio retries by default; nginx only with \`proxy_next_upstream … non_idempotent\`). Do not send it again: check the duplicates in the target system and have them reversed, then take POST /mcp off the proxy's retry policy.`,
  examples: [
    {
      name: 'two replicas logged the same request committed, the client got a 504',
      facts: {
        method: 'tools/call',
        tool: 'post_journal_entry',
        httpStatus: 504,
        interruption: 'proxy-timeout-before-headers',
        writeDuplicated: 'pods.log:4, pods.log:9',
        writeEvidence: 'pods.log:4',
      },
      fires: true,
    },
    { name: 'near miss: one commit', facts: { method: 'tools/call', tool: 'post_journal_entry', httpStatus: 504, writeEvidence: 'pods.log:4' }, fires: false },
    { name: 'near miss: a read ran twice', facts: { method: 'tools/call', tool: 'get_balance', sideEffect: 'read', writeDuplicated: 'a:1, b:2' }, fires: false },
  ],
};

// triage-rules.md §6 ("write completed in the target system" → read that result, do not write again);
// failure-signatures D5 (server-side evidence the write committed, but the client never got the answer).
export const writeCommitted: Rule = {
  id: 'write-committed-not-delivered',
  decision: 'read_result_no_repeat',
  source: 'failure-signatures D5 · triage-rules.md §6',
  when(f) {
    if (!interruptedAfterSend(f)) return 'the request was not interrupted after it was sent';
    if (f.sideEffect === 'read') return 'a read-only call: nothing to reconcile';
    if (!f.writeEvidence) return 'no server line shows the work completed';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was interrupted (${interruptionWords(f)}), but the server logged that it finished the work (${f.writeEvidence}). The effect exists: do not send it again. Read the result in the target system${f.era === 'sessionless' ? '' : ' (or over a new session)'} and carry on; fix the interruption separately.`,
  examples: [
    {
      name: '502 before headers, server logged committed',
      facts: {
        method: 'tools/call',
        tool: 'create_order',
        httpStatus: 502,
        interruption: 'closed-before-headers',
        writeEvidence: 'server.log:16 tools/call create_order committed order=ORD-4711',
      },
      fires: true,
    },
    { name: 'no commit evidence', facts: { method: 'tools/call', tool: 'create_order', httpStatus: 502, interruption: 'closed-before-headers' }, fires: false },
    {
      name: 'read-only call that completed',
      facts: { method: 'tools/list', interruption: 'stream-cut', sideEffect: 'read', sideEffectSource: 'method', writeEvidence: 'x' },
      fires: false,
    },
  ],
};

// triage-rules.md §6 (a server-supported idempotency key or duplicate guard) and failure-signatures D7: a call the
// server refused as a duplicate of a write that exists — a host's automatic re-issue of a write that had in fact
// committed, caught by the server's guard — proves the first write happened. Its effect exists: read it, never
// send the write again (and stop the re-issuing). Judged before the tool's error result, which it explains.
// failure-signatures D7 and triage-rules §6 (a server-supported idempotency key, used per its contract): the client
// re-issued a write with the same key, the server recognised the key and answered with the stored result of the
// first attempt instead of writing again, and the client logged the call returned. The write ran once and the client
// holds its result: nothing is left to do (the first attempt's timeout is folded under it).
export const duplicateAnsweredRule: Rule = {
  id: 'duplicate-answered-with-stored-result',
  decision: 'no_action',
  source: 'failure-signatures D7 · triage-rules.md §6 · draft-ietf-httpapi-idempotency-key-header',
  when(f) {
    if (!has(f, 'duplicate-refused')) return 'the server did not match it to a write that exists';
    if (f.duplicateAnswered === null) return 'no client line after the match says the call returned';
    if (f.method === null && f.tool === null) return 'the call is not identified';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was repeated with the same idempotency key; the server matched it to the write that already exists and answered with its stored result instead of writing again, and the client logged the call returned (${f.duplicateAnswered}). The write ran once and the client has its result: nothing to do.`,
  examples: [
    {
      name: 'a refund re-issued with its key, the stored result replayed and received',
      facts: { method: 'tools/call', tool: 'issue_refund', causes: ['client-timeout', 'duplicate-refused', 'call-succeeded'], duplicateAnswered: 'agent.log:9' },
      fires: true,
    },
    {
      name: 'near miss: the duplicate refused and nothing returned',
      facts: { method: 'tools/call', tool: 'issue_refund', causes: ['duplicate-refused', 'tool-error'] },
      fires: false,
    },
  ],
};

export const duplicateRefused: Rule = {
  id: 'duplicate-write-refused',
  decision: 'read_result_no_repeat',
  source: 'triage-rules.md §6 · failure-signatures D7',
  when(f) {
    if (!has(f, 'duplicate-refused')) return 'the server did not refuse it as a duplicate of a write that exists';
    if (f.method === null && f.tool === null) return 'the call is not identified';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was refused by the server as a duplicate: the write it repeats already exists (a duplicate or idempotency guard caught it). The earlier attempt committed — read its result in the target system and go on; do not send it again, and stop whatever re-issues it automatically.`,
  examples: [
    { name: 'a re-issued refund blocked as a duplicate', facts: { method: 'tools/call', tool: 'create_refund', causes: ['duplicate-refused', 'tool-error'] }, fires: true },
    { name: 'near miss: a tool error that is no duplicate', facts: { method: 'tools/call', tool: 'create_refund', causes: ['tool-error'] }, fires: false },
  ],
};
