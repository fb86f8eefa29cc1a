// Scoring one analysis against its label: is the headline decision right, and is the failing request
// the user cares about among the primary failures (method, tool and status, as far as the label says)?
import type { Analysis } from '../contract/analysis.ts';
import type { CorpusId, LabelledCase } from './corpora.ts';

export interface CaseResult {
  c: LabelledCase;
  /** `refused`: the input was turned away as not a log (always wrong: every case is a log). */
  got: Analysis['decision'] | 'refused';
  right: boolean;
  /** null: the label does not name the failing request. */
  located: boolean | null;
  rules: string[];
}

export function score(c: LabelledCase, a: Analysis): CaseResult {
  const primary = a.failures.filter((f) => (f.role ?? 'primary') === 'primary');
  let located: boolean | null = null;
  if (c.failing === null) located = primary.length === 0 || a.decision === 'no_action';
  else if (c.failing) {
    const l = c.failing;
    const match = (f: Analysis['failures'][number]) =>
      (l.method === null || f.method === l.method) && (l.tool === null || f.tool === l.tool) && (l.httpStatus === null || f.httpStatus === l.httpStatus);
    // a failure that needs no action is located when it is found at all (folded as optional, say)
    located = c.decision === 'no_action' ? a.failures.some(match) : primary.some(match);
  }
  return { c, got: a.decision, right: a.decision === c.decision, located, rules: primary.filter((f) => f.decision === a.decision).map((f) => f.rule) };
}

/** A case whose input was refused as not a log: scored wrong, nothing located. */
export function refused(c: LabelledCase): CaseResult {
  return { c, got: 'refused', right: false, located: c.failing === undefined ? null : false, rules: [] };
}

/** Analyse and score one case; a case turned away as not a log is a wrong answer, not the end of the run. */
export async function scoreCase(c: LabelledCase, analyze: (c: LabelledCase) => Promise<Analysis>): Promise<CaseResult> {
  try {
    return score(c, await analyze(c));
  } catch (err) {
    if ((err as { code?: string }).code !== 'TRIAGE_ERR_NOT_A_LOG') throw err;
    return refused(c);
  }
}

export interface Tally {
  n: number;
  right: number;
  labelled: number;
  located: number;
}

export const tally = (rs: readonly CaseResult[]): Tally => ({
  n: rs.length,
  right: rs.filter((r) => r.right).length,
  labelled: rs.filter((r) => r.located !== null).length,
  located: rs.filter((r) => r.located === true).length,
});

export const pct = (a: number, b: number) => (b === 0 ? '   -' : `${((100 * a) / b).toFixed(0).padStart(3)}%`);

/** The summary rows and the per-family table of one corpus, as text. */
export function report(corpus: CorpusId, rs: readonly CaseResult[]): string {
  const lines: string[] = [];
  const all = tally(rs);
  const firm = tally(rs.filter((r) => r.c.confidence !== 'low'));
  lines.push(`${corpus}: ${rs.length} cases`);
  lines.push(
    `  headline right      ${pct(all.right, all.n)}  (${all.right}/${all.n})${corpus.startsWith('recorded') ? '' : `   medium/high: ${pct(firm.right, firm.n)} (${firm.right}/${firm.n})`}`,
  );
  lines.push(`  failing located     ${pct(all.located, all.labelled)}  (${all.located}/${all.labelled} with the request labelled)`);
  const fams = new Map<string, CaseResult[]>();
  for (const r of rs) (fams.get(r.c.family) ?? fams.set(r.c.family, []).get(r.c.family)!).push(r);
  lines.push(`  ${'family'.padEnd(28)} ${'n'.padStart(3)}  headline  located`);
  for (const [fam, xs] of [...fams].sort((a, b) => a[0].localeCompare(b[0]))) {
    const t = tally(xs);
    lines.push(`  ${fam.padEnd(28)} ${String(t.n).padStart(3)}  ${pct(t.right, t.n)}      ${pct(t.located, t.labelled)}`);
  }
  return lines.join('\n');
}

/**
 * How each deciding rule fares on the real shapes (the shared excerpts and every collected batch), read
 * while building (`dev`) and held back (`held`): a rule right on the dev splits and wrong on the held
 * ones was fitted, not general. Aggregates only — no held case is named — so the held columns stay honest.
 * A case counts once for each rule that produced its headline (`rules`); no rule: `(none)` (nothing failed).
 */
export function ruleReport(rs: readonly CaseResult[]): string {
  type Row = { dev: Tally; held: Tally; wrongAs: Map<string, number> };
  const real = rs.filter((r) => r.c.confidence !== 'low' && (r.c.corpus === 'real-dev' || r.c.corpus.startsWith('collected')));
  const rows = new Map<string, Row>();
  const add = (t: Tally, r: CaseResult) => {
    t.n++;
    if (r.right) t.right++;
  };
  for (const r of real) {
    const held = r.c.corpus.endsWith('-held');
    for (const rule of new Set(r.rules.length ? r.rules : ['(none)'])) {
      const row =
        rows.get(rule) ?? rows.set(rule, { dev: { n: 0, right: 0, labelled: 0, located: 0 }, held: { n: 0, right: 0, labelled: 0, located: 0 }, wrongAs: new Map() }).get(rule)!;
      add(held ? row.held : row.dev, r);
      if (!r.right) row.wrongAs.set(r.c.decision, (row.wrongAs.get(r.c.decision) ?? 0) + 1);
    }
  }
  const cell = (t: Tally) => (t.n ? `${`${t.right}/${t.n}`.padStart(7)} ${pct(t.right, t.n)}` : '       -    ');
  const lines = [
    'deciding rule on the real shapes (medium/high labels), dev = read while building, held = held back',
    `  ${'rule'.padEnd(40)} ${'dev'.padStart(12)} ${'held'.padStart(12)}  labels where wrong`,
  ];
  for (const [rule, row] of [...rows].sort((a, b) => b[1].dev.n + b[1].held.n - (a[1].dev.n + a[1].held.n) || a[0].localeCompare(b[0]))) {
    const wrong = [...row.wrongAs]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([d, n]) => `${d} ${n}`)
      .join(', ');
    lines.push(`  ${rule.padEnd(40)} ${cell(row.dev)} ${cell(row.held)}  ${wrong}`);
  }
  return lines.join('\n');
}
