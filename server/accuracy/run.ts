// `npm run accuracy`: the diagnosis measured on every labelled corpus — headline decision right, the
// failing request located, and a per-family table. The held-back collected shapes are scored but never
// listed case by case (their figures are the honest ones; keep them unexamined while building).
//   npm run accuracy                      all corpora, summary tables
//   npm run accuracy -- --corpus real-dev --cases    one corpus, with each case that went wrong
//   npm run accuracy -- --rules           also each deciding rule's record on the real shapes, dev beside held
//   npm run accuracy -- --json            machine-readable results
import { parseArgs } from 'node:util';
import { analyzeCase } from './analyze-case.ts';
import { allCases, CORPORA } from './corpora.ts';
import { report, ruleReport, scoreCase, type CaseResult } from './score.ts';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string', multiple: true },
    cases: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    rules: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(`Usage: npm run accuracy -- [--corpus ${CORPORA.join('|')}]... [--cases] [--rules] [--json]\n
Analyses every labelled case and prints, per corpus, how often the headline decision is right, how often
the failing request is among the primary failures, and a per-family table. --cases lists the cases that
went wrong (never for the held-back corpora). --rules adds a table of each deciding rule's record on the real
shapes, read-while-building splits beside held-back ones (counts only: a rule right on dev and wrong on held was fitted).\n`);
  process.exit(0);
}
const want = new Set((values.corpus as string[] | undefined) ?? CORPORA);
const cases = allCases().filter((c) => want.has(c.corpus));
const results: CaseResult[] = [];
let done = 0;
await analyzeCase.open();
for (const c of cases) {
  results.push(await scoreCase(c, analyzeCase));
  if (process.stderr.isTTY) process.stderr.write(`\r${++done}/${cases.length} analysed`);
}
await analyzeCase.close();
if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
if (values.json) {
  process.stdout.write(
    JSON.stringify(
      results.map((r) => ({
        corpus: r.c.corpus,
        id: r.c.id,
        family: r.c.family,
        confidence: r.c.confidence,
        expected: r.c.decision,
        got: r.got,
        right: r.right,
        located: r.located,
        rules: r.rules,
      })),
      null,
      2,
    ) + '\n',
  );
} else {
  for (const corpus of CORPORA) {
    const rs = results.filter((r) => r.c.corpus === corpus);
    if (!rs.length) continue;
    process.stdout.write(report(corpus, rs) + '\n');
    if (values.cases && !corpus.endsWith('-held'))
      for (const r of rs.filter((x) => !x.right || x.located === false))
        process.stdout.write(`    ✗ ${r.c.id} [${r.c.confidence}] expected ${r.c.decision}, got ${r.got}${r.right ? ' (request not located)' : ''} ${r.rules.join(',')}\n`);
    process.stdout.write('\n');
  }
  if (values.rules) process.stdout.write(ruleReport(results) + '\n');
}
