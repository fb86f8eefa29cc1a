// The human checklist for `mcp-triage probe` (one ✔/!/✘ line per step with ms and evidence; the
// diagnosis under a failed step, the warning under a passed one). Every string in a ProbeResult
// is already redacted and cleaned.
import type { ProbeResult, ProbeStep } from './types.ts';

function label(s: ProbeStep): string {
  return s.name === 'second-connection' && s.connection ? `second-connection #${s.connection}` : s.name;
}

export function renderProbe(r: ProbeResult): string {
  const out: string[] = [];
  out.push(`mcp-triage probe ${r.url}`);
  if (r.fallback) out.push(`  ! transport: legacy HTTP+SSE — ${r.fallback.reason}; this server does not speak Streamable HTTP at this URL`);
  const w = Math.max(...r.steps.map((s) => label(s).length), 10);
  let errorShown = false;
  for (const s of r.steps) {
    const mark = !s.ok ? '✘' : s.warning ? '!' : '✔';
    const ms = `${s.ms} ms`.padStart(8);
    out.push(`  ${mark} ${label(s).padEnd(w)} ${ms}  ${s.refused ? 'REFUSED: ' : ''}${s.evidence}`);
    if (s.diagnosis) out.push(`    ${' '.repeat(w + 9)} → ${s.diagnosis}`);
    if (s.warning) {
      // The error text once, under the first step that got it.
      const text: string = r.errorText !== undefined && !errorShown ? (r.errorText ? `: "${r.errorText}"` : ' (no text)') : '';
      errorShown ||= text !== '';
      out.push(`    ${' '.repeat(w + 9)} → warning: ${s.warning}${text}`);
    }
  }
  const facts = [r.transport, r.protocolVersion ? `protocol ${r.protocolVersion}` : null, r.protocolVersion ? (r.sessionAssigned ? 'session assigned' : 'no session') : null]
    .filter(Boolean)
    .join(', ');
  if (r.ok && r.isError) out.push(`OK with a warning: transport and session work (${facts}), but the tool answered isError=true; check --args or the tool's own backend`);
  else if (r.ok) out.push(`OK: every step passed (${facts})`);
  else if (r.refused) out.push(`REFUSED: ${r.refused.tool} was not called (${r.refused.reason}); nothing that may write was sent`);
  else out.push(`FAILED at ${r.failedStep}${facts ? ` (${facts})` : ''}`);
  return out.join('\n') + '\n';
}

/** The `probe --json` document: the contract fields first, then the added ones; no exit code. */
export function probeJson(r: ProbeResult): Record<string, unknown> {
  const { ok, url, protocolVersion, sessionAssigned, transport, steps, ...rest } = r;
  const { exitCode: _exit, ...added } = rest;
  void _exit;
  return { ok, url, protocolVersion, sessionAssigned, transport, steps, ...added };
}
