import type { Rule } from '../rule.ts';

// triage-rules.md §4 (python-sdk issue 3522, open): one interrupted response closes the whole
// 2.x client; later calls fail with "Connection closed"; cleanup raises an ExceptionGroup whose
// nested cause is a RemoteProtocolError. Recognised by exceptions/known-defects.ts.
export const closedClientDefect: Rule = {
  id: 'closed-client-defect',
  decision: 'reinitialize',
  source: 'triage-rules.md §4 (python-sdk #3522)',
  when(f) {
    if (f.knownDefect !== 'python-sdk-3522') return 'the exception tree does not match python-sdk issue 3522';
    return true;
  },
  rationale: () =>
    'This is python-sdk issue 3522 (open): one interrupted response closed the whole client object, so every later call on it fails with "Connection closed". Create a NEW client object (new transport, fresh initialize) instead of calling the old one in a loop; then judge the interrupted call on its own (a write needs checking before any repeat). Upgrading or the closed PR 3584 is not a verified fix.',
  examples: [
    { name: 'ExceptionGroup with RemoteProtocolError, then Connection closed', facts: { knownDefect: 'python-sdk-3522', interruption: 'connection-closed', method: 'tools/call' }, fires: true },
    { name: 'a plain Connection closed', facts: { interruption: 'connection-closed', text: 'McpError: Connection closed' }, fires: false },
  ],
};
