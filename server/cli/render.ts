// Human output for a terminal: the decision table, readable at 100 columns. Log-derived text
// is stripped of escape and control characters so a log line cannot drive the terminal.
import { PRIVACY_MODE_TEXT } from '../contract/privacy.ts';
import type { Analysis } from '../contract/analysis.ts';
import { nothingRecognised } from '../contract/seen.ts';
import { decisionInfo } from '../contract/decisions.ts';

// Whole escape sequences first (so no "[31m" or OSC payload is left behind), then any lone
// control character (C0 but tab, DEL, C1), bidi overrides/isolates and zero-width characters.
// Bounded quantifiers: linear on hostile input.
const ESCAPES =
  /\x1b\[[0-?]{0,64}[ -/]{0,8}[@-~]?|\x1b\][^\x07\x1b\x9c]{0,4096}(?:\x07|\x1b\\|\x9c)?|\x1b[P^_X][^\x1b\x9c]{0,4096}(?:\x1b\\|\x9c)?|\x1b[ -/]{0,4}[0-~]?|\x9b[0-?]{0,64}[ -/]{0,8}[@-~]?|\x9d[^\x07\x9c]{0,4096}[\x07\x9c]?/g;
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
  // (no_action with nothing recognised is "nothing to decide": the first line must not say "nothing failed")
  const meaning = nothingRecognised(a) ? 'Nothing to decide: no MCP traffic was recognised in these files (see below).' : decisionInfo(a.decision).meaning;
  out.push(`${b('Decision:')} ${a.decision} — ${meaning}`);
  out.push('');
  out.push(b('Inputs'));
  for (const i of a.inputs) out.push(`  ${SAFE(i.file)}  ${i.source}/${i.format}  ${i.lines} lines, ${i.events} events${i.unparsed ? `, ${i.unparsed} unparsed` : ''}`);
  if (a.protocolVersions.length) out.push(`  protocol: ${SAFE(a.protocolVersions.join(', '))}`);
  if (a.skipped?.length) {
    out.push(`  not read (${a.skipped.length}, not logs):`);
    for (const k of a.skipped) out.push(...wrap(`${SAFE(k.file)} — ${SAFE(k.detail)}`, '    '));
  }
  if (a.privacyMode) out.push(`  ${PRIVACY_MODE_TEXT[a.privacyMode]}`);
  if (a.coverage?.focused)
    out.push(
      ...wrap(
        `large incident: decided from the first failures and what joins them (${a.coverage.analysedEvents.toLocaleString('en')} of ${a.coverage.triageEvents.toLocaleString('en')} keyed events)`,
        '  ',
      ),
    );
  out.push('');
  if (!a.failures.length) {
    if (nothingRecognised(a)) {
      out.push(
        ...wrap(
          'No MCP traffic recognised: no JSON-RPC request, tool call, session, HTTP exchange or error line in these files, so there is nothing to decide (not "nothing failed"). Check that these are the logs of the incident, or raise the client\'s log level (DEBUG) and capture it again.',
          '',
        ),
      );
    } else if (a.seen) {
      out.push(
        ...wrap(
          `No failing request found: read ${a.seen.requests.toLocaleString('en')} request line(s), ${a.seen.exchanges.toLocaleString('en')} HTTP exchange line(s) and ${a.seen.sessions.toLocaleString('en')} session(s); none failed.`,
          '',
        ),
      );
    } else out.push('No failing request found.');
    return out.join('\n') + '\n';
  }
  // Primary failures lead (cli-contract.md roles); the rest are folded under their episode.
  const role = (f: (typeof a.failures)[number]) => f.role ?? 'primary';
  const primary = a.failures.map((f, n) => ({ f, n })).filter(({ f }) => role(f) === 'primary');
  const folded = a.failures.map((f, n) => ({ f, n })).filter(({ f }) => role(f) !== 'primary');
  const what = (f: (typeof a.failures)[number]) =>
    [
      f.method ?? (f.rule === 'optional-stream-failure' ? '(standalone stream / DELETE)' : '(no JSON-RPC request)'),
      f.tool ? `(${f.tool})` : '',
      f.rpcId !== null ? `id ${JSON.stringify(f.rpcId)}` : '',
    ]
      .filter(Boolean)
      .join(' ');
  if (primary.length) {
    out.push(b(`Primary failures (${primary.length} of ${a.failures.length})`));
    out.push(`  ${cell('#', 3)} ${cell('ep', 3)} ${cell('request', 34)} ${cell('HTTP', 4)} ${cell('stage', 16)} ${cell('decision', 26)} rule`);
    for (const { f, n } of primary)
      out.push(
        `  ${cell(String(n + 1), 3)} ${cell(String(f.episode ?? '-'), 3)} ${cell(SAFE(what(f)), 34)} ${cell(f.httpStatus ? String(f.httpStatus) : '-', 4)} ${cell(f.stage, 16)} ${cell(f.decision, 26)} ${f.rule}`,
      );
    out.push('');
    for (const { f, n } of primary) {
      if (f.decision === 'no_action') continue;
      out.push(
        `  ${n + 1}. ${SAFE(what(f))}${f.session ? `  session ${SAFE(f.session)}` : ''}${f.httpStatus ? `  HTTP ${f.httpStatus}` : ''}  stage ${f.stage}${f.episode ? `  episode ${f.episode}` : ''}`,
      );
      if (f.rootException) out.push(...wrap(`root: ${SAFE(f.rootException.type)}: ${SAFE(f.rootException.message).slice(0, 200)}`, '     '));
      if (f.exceptionChain.length > 1) out.push(...wrap(`chain: ${SAFE(f.exceptionChain.join(' › '))}`, '     '));
      out.push(`     → ${b(f.decision)}  [rule ${f.rule}]`);
      out.push(...wrap(SAFE(f.rationale), '     '));
      if (f.signals?.length) out.push(...wrap(`signals: ${SAFE(f.signals.join(', '))}`, '     '));
      out.push(...wrap(`evidence: ${f.evidence.map((e) => `${SAFE(e.file)}:${e.line}`).join(', ')}`, '     '));
      const whyNot = (f.rejected ?? []).slice(-3);
      if (whyNot.length) {
        out.push('     why not:');
        for (const r of whyNot) out.push(...wrap(`${r.rule}: ${SAFE(r.why)}`, '       '));
      }
      out.push('');
    }
  } else {
    out.push(...wrap(`Nothing needs action: every failure below is an optional channel, a consequence of another failure, or recovered.`, ''));
    out.push('');
  }
  if (folded.length) {
    out.push(b(`Folded (${folded.length})`));
    const byEpisode = new Map<number, typeof folded>();
    for (const x of folded) (byEpisode.get(x.f.episode ?? 0) ?? byEpisode.set(x.f.episode ?? 0, []).get(x.f.episode ?? 0)!).push(x);
    for (const [ep, xs] of [...byEpisode].sort((p, q) => p[0] - q[0])) {
      const lead = primary.find(({ f }) => f.episode === ep);
      out.push(`  episode ${ep || '-'}${lead ? ` (under #${lead.n + 1} ${SAFE(what(lead.f))})` : ''}:`);
      for (const { f, n } of xs)
        out.push(...wrap(`#${n + 1} ${role(f)}: ${SAFE(what(f))}${f.httpStatus ? ` HTTP ${f.httpStatus}` : ''} — ${SAFE(f.roleReason ?? f.rule)} [${f.rule}]`, '    '));
    }
  }
  return out.join('\n') + '\n';
}
