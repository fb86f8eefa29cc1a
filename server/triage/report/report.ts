// The public issue report, in the shape SDK maintainers ask for: summary, environment, what
// happened (decision, rule, stage, root exception and its wrapper path), a short correlated
// timeline, what was checked, and a redaction footer. One redactor, one verifier, one truth:
// every piece of log-derived text goes through the exit pass (redact/exit.ts: the same engine
// as ingest and `redact`, then request-id pseudonyms) before it is placed, cuts never split a
// placeholder, and the verifier (the same line redactor again) must find nothing (fail closed).
// A refusal names the report line, the rule and the evidence line, which the caller can drop.
import { nothingRecognised } from '../../contract/seen.ts';
import type { Event } from '../../../parsers/contract/event.ts';
import type { Analysis, Failure } from '../../contract/analysis.ts';
import { DECISION_URGENCY } from '../../contract/analysis.ts';
import { TriageError } from '../../errors.ts';
import { randomBytes } from 'node:crypto';
import { verifyRedacted, type SecretLedger, type SessionIdBook } from '../redact/index.ts';
import { createExitRedactor, cutOutsideInert } from '../redact/exit.ts';
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
  /** The incident's secret ledger, when this process ingested it: the exit pass sweeps what it learnt late. */
  ledger?: SecretLedger;
  /** The workspace key: request-id pseudonyms read the same as in every other report of this workspace. */
  key?: Uint8Array;
  /** Evidence lines (`file:line`) to leave out of the timeline: the user's answer to a refusal. */
  exclude?: readonly string[];
}

/** One verifier hit, placed: the report line, the rule, and the evidence line it came from if any. */
export interface RefusedAt {
  reportLine: number;
  rule: string;
  evidence: { file: string; line: number } | null;
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

function describeFailure(f: Failure, x: Exit): string {
  return [f.method ? code(x(f.method)) : 'a request', f.tool ? `(tool ${code(x(f.tool))})` : '', f.rpcId !== null ? `JSON-RPC id ${code(x(JSON.stringify(f.rpcId)))}` : '']
    .filter(Boolean)
    .join(' ');
}

type Exit = (s: string) => string;

/**
 * One line per event. A structured (JSON) line is summarised by its fields rather than cut
 * mid-object; a text line is kept as logged (first physical line), cut at MAX_LINE. Log text goes
 * through the exit pass before it is cut, and cuts never split a placeholder or pseudonym.
 */
function excerptLine(e: Event, x: Exit): string {
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
      e.message && !e.message.trimStart().startsWith('{') ? `"${cut(x, e.message.split('\n', 1)[0]!, 200)}"` : '',
    ];
    return x(parts.filter(Boolean).join(' '));
  }
  return cut(x, first, MAX_LINE, ' [cut]');
}

/**
 * Redacted text cut to n characters, then the whole composed piece redacted again: a cut can leave
 * half a structure (a JSON object without its end) that the rules read differently, and the
 * verifier reads exactly what we print. The `[cut]` marker is our own output (inert).
 */
function cut(x: Exit, s: string, n: number, marker = ''): string {
  const once = x(s);
  return once.length <= n ? once : x(cutOutsideInert(once, n) + marker);
}

/**
 * What a reader sees of a Markdown line: escapes and the zero-width joints of `inline()` undone,
 * and code-span/fence backticks read as the blanks they render as, so the verifier reads text, not
 * syntax (`amount=` at the end of a cut code span is not `amount` = "`").
 */
function asRead(line: string): string {
  return line
    .replace(/\\([\\`*_[\]|<>#])/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\u200b/g, '')
    .replace(/`/g, ' ');
}

export function buildReport(input: ReportInput): Report {
  const { analysis: a } = input;
  const requestIds = [...input.evidence, ...input.context].map((e) => e.requestId).filter((v): v is string => !!v);
  const exit = createExitRedactor({ key: input.key ?? randomBytes(32), ids: input.ids, ledger: input.ledger, requestIds });
  const x: Exit = (s) => exit.text(s);
  // Everything the report quotes from is read first: what a line names in a known position (a
  // host under a host key, an account, a secret) is then swept wherever the report repeats it,
  // e.g. a replica name in a rationale. In standard mode the stored text still holds those.
  for (const e of input.context) exit.learn(e.text);
  const excluded = new Set(input.exclude ?? []);
  // Primary failures lead (cli-contract.md roles); optional channels, consequences and recoveries are folded.
  const primary = (f: Failure) => (f.role ?? 'primary') === 'primary';
  const failures = byUrgency(a.failures.filter((f) => f.decision !== 'no_action' && primary(f))).slice(0, MAX_FAILURES);
  const folded = a.failures.filter((f) => !primary(f));
  const head = failures[0];

  const summary = [
    `**Decision: ${code(a.decision)}** — ${MEANING[a.decision] ?? a.decision}.`,
    '',
    head
      ? `The most urgent failure: ${describeFailure(head, x)}${head.httpStatus ? `, HTTP ${head.httpStatus}` : ''}, stage ${code(head.stage)}${head.rootException ? `, first exception ${code(x(head.rootException.type))}` : ''}. Rule ${code(head.rule)}.`
      : a.failures.length
        ? `${a.failures.length} failure(s) were seen; none needs action: each was an optional channel, a consequence of another failure, or recovered.`
        : nothingRecognised(a)
          ? 'No MCP traffic was recognised in these logs (no JSON-RPC request, tool call, session, HTTP exchange or error line): there is nothing to decide, which is not the same as nothing failed.'
          : 'No failing request was found in the logs.',
  ].join('\n');

  const env = extractEnvironment(input.context);
  const envRows = [
    ...env.map((e) => `| ${inline(e.label)} | ${code(x(e.value))} | ${e.source} |`),
    `| negotiated protocol | ${a.protocolVersions.length ? a.protocolVersions.map(code).join(', ') : 'not in the logs'} | |`,
    ...a.inputs.map((i) => `| log | ${code(x(i.file))} | ${i.source}, ${inline(i.format)}, ${i.lines} lines${i.unparsed ? `, ${i.unparsed} unparsed` : ''} |`),
  ];
  const environment = ['| what | value | seen in |', '|---|---|---|', ...envRows].join('\n');

  const whatHappened = failures.length
    ? failures
        .map((f, i) => {
          const lines = [
            `${i + 1}. ${describeFailure(f, x)}${f.session ? ` in session ${code(f.session)}` : ''}${f.httpStatus ? ` → HTTP ${f.httpStatus}` : ''} at ${iso(f.ts ?? null)}`,
            `   - decision ${code(f.decision)} by rule ${code(f.rule)}: ${inline(x(f.rationale))}`,
            `   - stage: ${code(f.stage)}`,
          ];
          if (f.rootException) lines.push(`   - first exception: ${code(cut(x, `${f.rootException.type}: ${f.rootException.message}`, 300))}`);
          if (f.exceptionChain.length > 1) lines.push(`   - wrapper path: ${f.exceptionChain.map((c) => code(x(c))).join(' › ')}`);
          lines.push(
            `   - evidence: ${f.evidence
              .slice(0, 12)
              .map((e) => code(x(`${e.file}:${e.line}`)))
              .join(', ')}`,
          );
          return lines.join('\n');
        })
        .join('\n')
    : 'Nothing to report beyond the folded failures below.';
  const roles = ['optional', 'consequence', 'recovered'] as const;
  const foldedText = folded.length
    ? [
        `${folded.length} more failure(s) folded under their episodes: ${roles
          .map((r) => [r, folded.filter((f) => f.role === r).length] as const)
          .filter(([, n]) => n)
          .map(([r, n]) => `${n} ${r}`)
          .join(', ')}.`,
        ...folded
          .slice(0, MAX_FAILURES)
          .map(
            (f) =>
              `- ${f.role}: ${f.method || !f.roleReason ? `${describeFailure(f, x)}${f.httpStatus ? ` → HTTP ${f.httpStatus}` : ''}` : inline(x(f.roleReason))} (rule ${code(f.rule)}${f.episode ? `, episode ${f.episode}` : ''})`,
          ),
      ].join('\n')
    : '';

  const places = new Set(failures.flatMap((f) => f.evidence.map((e) => `${e.file}:${e.line}`)));
  const shown = input.evidence
    .filter((e) => places.has(`${e.file}:${e.line}`) && !excluded.has(`${e.file}:${e.line}`))
    .sort((p, q) => (p.ts ?? 0) - (q.ts ?? 0))
    .slice(0, MAX_TIMELINE);
  const excerpt = shown.map((e) => `${e.ts === null ? '—'.padEnd(12) : iso(e.ts).slice(11, 23)} ${e.source.padEnd(6)} ${x(e.file)}:${e.line}  ${excerptLine(e, x)}`);
  const dropped = [...excluded].filter((k) => places.has(k)).length;
  const timeline = (excerpt.length ? fence(excerpt.join('\n')) : 'No evidence lines.') + (dropped ? `\n\n${dropped} evidence line(s) left out by the reporter.` : '');

  const checked = [
    '- [ ] a **new** client object (new transport) connects: `mcp-triage probe URL` runs initialize and `tools/list` over fresh connections',
    '- [ ] one side-effect-free tool call succeeds twice over independent connections (`probe --tool NAME --args JSON`)',
    "- [ ] the original action was judged from the target system's own records, not from the client error",
  ].join('\n');

  const counts = Object.entries(input.redactions).sort((p, q) => q[1] - p[1]);
  // What the exit pass changed on top: request ids always, anything else only if ingest missed it.
  const atExit = Object.entries(exit.counts).sort((p, q) => q[1] - p[1]);
  const redaction = [
    counts.length ? `Redacted at ingest by mcp-triage: ${counts.map(([r, n]) => `${code(r)} ×${n}`).join(', ')}.` : 'Nothing needed redaction at ingest.',
    atExit.length ? `At export: ${atExit.map(([r, n]) => `${code(r)} ×${n}`).join(', ')}.` : '',
    `Session ids${atExit.some(([r]) => r === '@request-id') ? ' and request ids' : ''} are keyed pseudonyms (${code('sess_…')}): the same id reads the same everywhere in this report and cannot be reversed without the reporter's workspace key.`,
  ]
    .filter(Boolean)
    .join(' ');

  const markdown = [
    `## ${inline(x(input.title))}`,
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

  const mdLines = markdown.split('\n');
  const v = verifyRedacted(mdLines.map(asRead).join('\n'), { rawValues: input.rawValues ?? [], ids: input.ids, independentLines: true });
  if (!v.ok) {
    // Place each hit: the timeline's excerpt lines map back to their evidence line.
    const fenceAt = excerpt.length ? mdLines.findIndex((l, i) => l.startsWith('```') && mdLines[i - 2] === '### Timeline (correlated, redacted excerpt)') : -1;
    const at: RefusedAt[] = v.hits.map((h) => {
      const k = fenceAt === -1 ? -1 : h.line - 1 - (fenceAt + 1);
      const e = k >= 0 && k < shown.length ? shown[k]! : null;
      return { reportLine: h.line, rule: h.rule, evidence: e ? { file: e.file, line: e.line } : null };
    });
    throw reportRefused(at);
  }
  return { markdown, redactions: input.redactions, sections: { summary, environment, whatHappened, timeline, checked, redaction } };
}

/** The refusal: what failed, where (report line, rule, evidence line), and what the user can do. */
export function reportRefused(at: RefusedAt[], what: 'report' | 'export' = 'report'): TriageError {
  const first = at[0]!;
  const where = (h: RefusedAt) =>
    `${what === 'report' ? 'report line' : 'evidence text line'} ${h.reportLine}${h.evidence ? ` (evidence ${h.evidence.file}:${h.evidence.line})` : ''}, rule ${h.rule}`;
  const more = at.length > 1 ? `; also ${at.slice(1, 4).map(where).join('; ')}${at.length > 4 ? `; and ${at.length - 4} more` : ''}` : '';
  const fix = first.evidence
    ? `Leave that evidence line out (\`--exclude ${first.evidence.file}:${first.evidence.line}\`, or "Remove this line" in the UI) and build it again, and report this as a bug.`
    : 'Run `mcp-triage redact` on the inputs to see what the detectors flag, and report this as a bug.';
  return new TriageError('TRIAGE_ERR_REPORT_LEAK', `the ${what} was refused: its leak check flagged ${where(first)}${more}. Nothing was written. ${fix}`, {
    refused: at.slice(0, 20),
  });
}
