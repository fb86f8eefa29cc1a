// Human output for a terminal: the decision table, readable at 100 columns. Log-derived text
// is stripped of escape and control characters so a log line cannot drive the terminal.
import type { Analysis } from '../contract/analysis.ts';

const SAFE = (s: string) => s.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g, '');

const MEANING: Record<string, string> = {
  retry: 'retry (the request never took effect, or is safe to repeat)',
  reinitialize: 'reinitialize (new transport, fresh initialize without the old session id)',
  fix_route_or_config: 'fix the route or configuration (retrying cannot help)',
  fix_auth: 'fix authentication (credentials, token, scope)',
  read_result_no_repeat: 'read the result, do not repeat the write (it completed)',
  check_write_then_escalate: 'check whether the write happened, then escalate (never blind-retry)',
  escalate: 'escalate to the owners of the failing side',
  no_action: 'no action (nothing failed, or the client recovered on its own)',
};

export function renderAnalysis(a: Analysis, opts: { color?: boolean } = {}): string {
  const b = (s: string) => (opts.color ? `\x1b[1m${s}\x1b[0m` : s);
  const out: string[] = [];
  out.push(`${b('Decision:')} ${MEANING[a.decision] ?? a.decision}`);
  out.push('');
  out.push(b('Inputs'));
  for (const i of a.inputs) out.push(`  ${SAFE(i.file)}  ${i.source}/${i.format}  ${i.lines} lines, ${i.events} events${i.unparsed ? `, ${i.unparsed} unparsed` : ''}`);
  if (a.protocolVersions.length) out.push(`  protocol: ${a.protocolVersions.join(', ')}`);
  out.push('');
  if (!a.failures.length) {
    out.push('No failing request found.');
    return out.join('\n') + '\n';
  }
  out.push(b(`Failures (${a.failures.length})`));
  a.failures.forEach((f, n) => {
    const what = [f.method ?? '?', f.tool ? `(${f.tool})` : '', f.rpcId !== null ? `id ${JSON.stringify(f.rpcId)}` : ''].filter(Boolean).join(' ');
    out.push(`  ${n + 1}. ${SAFE(what)}${f.session ? `  session ${f.session}` : ''}${f.httpStatus ? `  HTTP ${f.httpStatus}` : ''}  stage ${f.stage}`);
    if (f.rootException) out.push(`     root: ${SAFE(f.rootException.type)}: ${SAFE(f.rootException.message).slice(0, 200)}`);
    if (f.exceptionChain.length > 1) out.push(`     chain: ${SAFE(f.exceptionChain.join(' › '))}`);
    out.push(`     → ${b(f.decision)}  [rule ${f.rule}]`);
    out.push(`     ${SAFE(f.rationale)}`);
    out.push(`     evidence: ${f.evidence.map((e) => `${SAFE(e.file)}:${e.line}`).join(', ')}`);
  });
  return out.join('\n') + '\n';
}
