// Human output for a terminal: the decision table, readable at 100 columns. Log-derived text
// is stripped of escape and control characters so a log line cannot drive the terminal.
import type { Analysis } from '../contract/analysis.ts';
import { decisionInfo } from '../contract/decisions.ts';

// Whole escape sequences first (so no "[31m" or OSC payload is left behind), then any lone
// control character (C0 but tab, DEL, C1), bidi overrides/isolates and zero-width characters.
// Bounded quantifiers: linear on hostile input.
const ESCAPES = /\x1b\[[0-?]{0,64}[ -/]{0,8}[@-~]?|\x1b\][^\x07\x1b\x9c]{0,4096}(?:\x07|\x1b\\|\x9c)?|\x1b[P^_X][^\x1b\x9c]{0,4096}(?:\x1b\\|\x9c)?|\x1b[ -/]{0,4}[0-~]?|\x9b[0-?]{0,64}[ -/]{0,8}[@-~]?|\x9d[^\x07\x9c]{0,4096}[\x07\x9c]?/g;
const CONTROLS = /[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** Text from a log made safe to print on a terminal: no escape sequence, control or bidi character survives (tabs become spaces, line breaks too). */
export function terminalSafe(s: string): string {
  return s.replace(ESCAPES, '').replace(/\t/g, ' ').replace(CONTROLS, '');
}
const SAFE = terminalSafe;


const WIDTH = 100;

/** Wrap text to the width, every line after the first indented. */
function wrap(text: string, indent: string, width = WIDTH): string[] {
  const out: string[] = [];
  let line = indent;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line.trim() && line.length + 1 + word.length > width) {
      out.push(line);
      line = indent;
    }
    line += (line.trim() ? ' ' : '') + word;
  }
  if (line.trim()) out.push(line);
  return out;
}

const cell = (s: string, n: number) => (s.length > n ? s.slice(0, n - 1) + '…' : s.padEnd(n));

export function renderAnalysis(a: Analysis, opts: { color?: boolean } = {}): string {
  const b = (s: string) => (opts.color ? `\x1b[1m${s}\x1b[0m` : s);
  const out: string[] = [];
  out.push(`${b('Decision:')} ${a.decision} — ${decisionInfo(a.decision).meaning}`);
  out.push('');
  out.push(b('Inputs'));
  for (const i of a.inputs) out.push(`  ${SAFE(i.file)}  ${i.source}/${i.format}  ${i.lines} lines, ${i.events} events${i.unparsed ? `, ${i.unparsed} unparsed` : ''}`);
  if (a.protocolVersions.length) out.push(`  protocol: ${SAFE(a.protocolVersions.join(', '))}`);
  if (a.coverage?.focused) out.push(...wrap(`large incident: decided from the first failures and what joins them (${a.coverage.analysedEvents.toLocaleString('en')} of ${a.coverage.triageEvents.toLocaleString('en')} keyed events)`, '  '));
  out.push('');
  if (!a.failures.length) {
    out.push('No failing request found.');
    return out.join('\n') + '\n';
  }
  // The table: one row per failure, most urgent decisions are the ones to read first.
  out.push(b(`Failures (${a.failures.length})`));
  out.push(`  ${cell('#', 3)} ${cell('request', 36)} ${cell('HTTP', 4)} ${cell('stage', 16)} ${cell('decision', 26)} rule`);
  a.failures.forEach((f, n) => {
    const what = [f.method ?? '(no JSON-RPC request)', f.tool ? `(${f.tool})` : '', f.rpcId !== null ? `id ${JSON.stringify(f.rpcId)}` : ''].filter(Boolean).join(' ');
    out.push(`  ${cell(String(n + 1), 3)} ${cell(SAFE(what), 36)} ${cell(f.httpStatus ? String(f.httpStatus) : '-', 4)} ${cell(f.stage, 16)} ${cell(f.decision, 26)} ${f.rule}`);
  });
  out.push('');
  // Details: the failures that need action first; no_action rows only summarised.
  const quiet = a.failures.filter((f) => f.decision === 'no_action');
  a.failures.forEach((f, n) => {
    if (f.decision === 'no_action') return;
    const what = [f.method ?? '(no JSON-RPC request)', f.tool ? `(${f.tool})` : '', f.rpcId !== null ? `id ${JSON.stringify(f.rpcId)}` : ''].filter(Boolean).join(' ');
    out.push(`  ${n + 1}. ${SAFE(what)}${f.session ? `  session ${SAFE(f.session)}` : ''}${f.httpStatus ? `  HTTP ${f.httpStatus}` : ''}  stage ${f.stage}`);
    if (f.rootException) out.push(...wrap(`root: ${SAFE(f.rootException.type)}: ${SAFE(f.rootException.message).slice(0, 200)}`, '     '));
    if (f.exceptionChain.length > 1) out.push(...wrap(`chain: ${SAFE(f.exceptionChain.join(' › '))}`, '     '));
    out.push(`     → ${b(f.decision)}  [rule ${f.rule}]`);
    out.push(...wrap(SAFE(f.rationale), '     '));
    out.push(...wrap(`evidence: ${f.evidence.map((e) => `${SAFE(e.file)}:${e.line}`).join(', ')}`, '     '));
    const whyNot = (f.rejected ?? []).slice(-3);
    if (whyNot.length) {
      out.push('     why not:');
      for (const r of whyNot) out.push(...wrap(`${r.rule}: ${SAFE(r.why)}`, '       '));
    }
    out.push('');
  });
  if (quiet.length) {
    const byRule = new Map<string, number>();
    for (const f of quiet) byRule.set(f.rule, (byRule.get(f.rule) ?? 0) + 1);
    out.push(...wrap(`${quiet.length} failure(s) need no action: ${[...byRule].map(([r, c]) => `${c}× ${r}`).join(', ')}.`, '  '));
  }
  return out.join('\n') + '\n';
}
