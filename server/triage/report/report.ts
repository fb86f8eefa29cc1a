// The public issue report, in the shape SDK maintainers ask for: summary, environment, what
// happened (decision, rule, stage, root exception and its wrapper path), a short correlated
// timeline, what was checked, and a redaction footer. Built only from redacted, stored data;
// a verification pass re-runs every detector before anything is emitted (fail closed).
import type { Event } from '../../../parsers/contract/event.ts';
import type { Analysis, Failure } from '../../contract/analysis.ts';
import { DECISION_URGENCY } from '../../contract/analysis.ts';
import { TriageError } from '../../errors.ts';
import { verifyRedacted, type SessionIdBook } from '../redact/index.ts';
import { extractEnvironment } from './environment.ts';
import { code, fence, inline } from './markdown.ts';

export interface ReportInput {
  title: string;
  analysis: Analysis;
  /** Events at the evidence places of the reported failures (already redacted at ingest). */
  evidence: Event[];
  /** Events to read the environment from (versions, transport); any redacted events. */
  context: Event[];
  redactions: Record<string, number>;
  /** Raw values known in this process (CLI ingest): searched for literally before emitting. */
  rawValues?: Iterable<string>;
  ids?: SessionIdBook;
}

export interface Report {
  markdown: string;
  redactions: Record<string, number>;
  sections: { summary: string; environment: string; whatHappened: string; timeline: string; checked: string; redaction: string };
}

const MEANING: Record<string, string> = {
  retry: 'retry — the request never took effect, or is safe to repeat',
  reinitialize: 'reinitialize — a new transport and a fresh `initialize` without the old session id',
  fix_route_or_config: 'fix the route or configuration — retrying cannot help',
  fix_auth: 'fix authentication — credentials, token or scope',
  read_result_no_repeat: 'read the result, do not repeat — the write completed',
  check_write_then_escalate: 'check whether the write happened, then escalate — never blind-retry',
  escalate: 'escalate to the owners of the failing side',
  no_action: 'no action — nothing failed, or the client recovered on its own',
};

const MAX_FAILURES = 5;
const MAX_TIMELINE = 40;
const MAX_LINE = 400;

function byUrgency(failures: Failure[]): Failure[] {
  return [...failures].sort((a, b) => DECISION_URGENCY.indexOf(a.decision) - DECISION_URGENCY.indexOf(b.decision) || (a.ts ?? 0) - (b.ts ?? 0));
}

function iso(ts: number | null): string {
  return ts === null ? '—' : new Date(ts).toISOString();
}

function describeFailure(f: Failure): string {
  return [f.method ? code(f.method) : 'a request', f.tool ? `(tool ${code(f.tool)})` : '', f.rpcId !== null ? `JSON-RPC id ${code(JSON.stringify(f.rpcId))}` : ''].filter(Boolean).join(' ');
}

/**
 * One line per event. A structured (JSON) line is summarised by its fields rather than cut
 * mid-object; a text line is kept as logged (first physical line), cut at MAX_LINE.
 */
function excerptLine(e: Event): string {
  const first = e.text.split('\n', 1)[0]!;
  if (first.trimStart().startsWith('{')) {
    const parts = [
      e.level ? `[${e.level}]` : '',
      e.httpMethod && e.httpPath ? `${e.httpMethod} ${e.httpPath}` : '',
      e.httpStatus !== null ? `→ ${e.httpStatus}` : '',
      e.rpcId !== null ? `rpc=${JSON.stringify(e.rpcId)}` : '',
      e.rpcMethod ? `method=${e.rpcMethod}` : '',
      e.tool ? `tool=${e.tool}` : '',
      e.session ? `session=${e.session}` : '',
      e.requestId ? `request_id=${e.requestId}` : '',
      e.message && !e.message.trimStart().startsWith('{') ? `"${e.message.split('\n', 1)[0]!.slice(0, 200)}"` : '',
    ];
    return parts.filter(Boolean).join(' ');
  }
  return first.length > MAX_LINE ? `${first.slice(0, MAX_LINE)} [cut]` : first;
}

export function buildReport(input: ReportInput): Report {
  const { analysis: a } = input;
  // Primary failures lead (cli-contract.md roles); optional channels, consequences and recoveries are folded.
  const primary = (f: Failure) => (f.role ?? 'primary') === 'primary';
  const failures = byUrgency(a.failures.filter((f) => f.decision !== 'no_action' && primary(f))).slice(0, MAX_FAILURES);
  const folded = a.failures.filter((f) => !primary(f));
  const head = failures[0];

  const summary = [
    `**Decision: ${code(a.decision)}** — ${MEANING[a.decision] ?? a.decision}.`,
    '',
    head
      ? `The most urgent failure: ${describeFailure(head)}${head.httpStatus ? `, HTTP ${head.httpStatus}` : ''}, stage ${code(head.stage)}${head.rootException ? `, first exception ${code(head.rootException.type)}` : ''}. Rule ${code(head.rule)}.`
      : a.failures.length
        ? `${a.failures.length} failure(s) were seen; none needs action: each was an optional channel, a consequence of another failure, or recovered.`
        : 'No failing request was found in the logs.',
  ].join('\n');

  const env = extractEnvironment(input.context);
  const envRows = [
    ...env.map((e) => `| ${inline(e.label)} | ${code(e.value)} | ${e.source} |`),
    `| negotiated protocol | ${a.protocolVersions.length ? a.protocolVersions.map(code).join(', ') : 'not in the logs'} | |`,
    ...a.inputs.map((i) => `| log | ${code(i.file)} | ${i.source}, ${inline(i.format)}, ${i.lines} lines${i.unparsed ? `, ${i.unparsed} unparsed` : ''} |`),
  ];
  const environment = ['| what | value | seen in |', '|---|---|---|', ...envRows].join('\n');

  const whatHappened = failures.length
    ? failures
        .map((f, i) => {
          const lines = [
            `${i + 1}. ${describeFailure(f)}${f.session ? ` in session ${code(f.session)}` : ''}${f.httpStatus ? ` → HTTP ${f.httpStatus}` : ''} at ${iso(f.ts ?? null)}`,
            `   - decision ${code(f.decision)} by rule ${code(f.rule)}: ${inline(f.rationale)}`,
            `   - stage: ${code(f.stage)}`,
          ];
          if (f.rootException) lines.push(`   - first exception: ${code(`${f.rootException.type}: ${f.rootException.message}`.slice(0, 300))}`);
          if (f.exceptionChain.length > 1) lines.push(`   - wrapper path: ${f.exceptionChain.map(code).join(' › ')}`);
          lines.push(`   - evidence: ${f.evidence.slice(0, 12).map((e) => code(`${e.file}:${e.line}`)).join(', ')}`);
          return lines.join('\n');
        })
        .join('\n')
    : 'Nothing to report beyond the folded failures below.';
  const roles = ['optional', 'consequence', 'recovered'] as const;
  const foldedText = folded.length
    ? [
        `${folded.length} more failure(s) folded under their episodes: ${roles.map((r) => [r, folded.filter((f) => f.role === r).length] as const).filter(([, n]) => n).map(([r, n]) => `${n} ${r}`).join(', ')}.`,
        ...folded.slice(0, MAX_FAILURES).map((f) => `- ${f.role}: ${f.method || !f.roleReason ? `${describeFailure(f)}${f.httpStatus ? ` → HTTP ${f.httpStatus}` : ''}` : inline(f.roleReason)} (rule ${code(f.rule)}${f.episode ? `, episode ${f.episode}` : ''})`),
      ].join('\n')
    : '';

  const places = new Set(failures.flatMap((f) => f.evidence.map((e) => `${e.file}:${e.line}`)));
  const excerpt = input.evidence
    .filter((e) => places.has(`${e.file}:${e.line}`))
    .sort((x, y) => (x.ts ?? 0) - (y.ts ?? 0))
    .slice(0, MAX_TIMELINE)
    .map((e) => `${e.ts === null ? '—'.padEnd(12) : iso(e.ts).slice(11, 23)} ${e.source.padEnd(6)} ${e.file}:${e.line}  ${excerptLine(e)}`);
  const timeline = excerpt.length ? fence(excerpt.join('\n')) : 'No evidence lines.';

  const checked = [
    '- [ ] a **new** client object (new transport) connects: `mcp-triage probe URL` runs initialize and `tools/list` over fresh connections',
    '- [ ] one side-effect-free tool call succeeds twice over independent connections (`probe --tool NAME --args JSON`)',
    '- [ ] the original action was judged from the target system\'s own records, not from the client error',
  ].join('\n');

  const counts = Object.entries(input.redactions).sort((x, y) => y[1] - x[1]);
  const redaction = counts.length
    ? `Redacted at ingest by mcp-triage: ${counts.map(([r, n]) => `${code(r)} ×${n}`).join(', ')}. Session ids are keyed pseudonyms (${code('sess_…')}): the same id reads the same everywhere in this report and cannot be reversed without the reporter's workspace key.`
    : 'Nothing needed redaction. Session ids, if any, are keyed pseudonyms.';

  const markdown = [
    `## ${inline(input.title)}`,
    '',
    summary,
    '',
    '### Environment',
    '',
    environment,
    '',
    '### What happened',
    '',
    whatHappened,
    '',
    ...(foldedText ? [foldedText, ''] : []),
    '### Timeline (correlated, redacted excerpt)',
    '',
    timeline,
    '',
    '### What was checked',
    '',
    checked,
    '',
    '---',
    `<sub>${redaction} Generated by mcp-triage.</sub>`,
    '',
  ].join('\n');

  const v = verifyRedacted(markdown, { rawValues: input.rawValues ?? [], ids: input.ids });
  if (!v.ok) {
    const rules = [...new Set(v.hits.map((h) => h.rule))].join(', ');
    throw new TriageError('TRIAGE_ERR_REPORT_LEAK', `the report was refused: its leak check found ${v.hits.length} suspect value(s) (${rules}). Nothing was written. Run \`mcp-triage redact\` on the inputs to see what the detectors flag, and report this as a bug.`);
  }
  return { markdown, redactions: input.redactions, sections: { summary, environment, whatHappened, timeline, checked, redaction } };
}
