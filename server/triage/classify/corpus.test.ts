// The real-world development corpus (../shared/corpus/real-dev, read at test time, never copied):
// analyze each excerpt alone and print how the headline decision agrees with the human label.
// Only a floor we actually reach is asserted; labels marked `low` are soft (reported, not counted
// against the floor). Build rules for the general shape — never for one of these files.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestIncident, openContext, type Context } from '../../incidents.ts';
import { entriesFromPaths } from '../../ingest/inputs.ts';
import { REPO, tempWorkspace } from '../../testing/helpers.ts';

const CORPUS = resolve(REPO, '../shared/corpus/real-dev');
const MANIFEST = join(CORPUS, 'MANIFEST.tsv');
/** Agreement on labels of medium/high confidence; raise it when the analyser improves. */
const FLOOR = 0.7; // 11/15 reached (session 4); 10/15 before

interface Row {
  file: string;
  expected: string;
  confidence: string;
}

function manifest(): Row[] {
  const [head, ...lines] = readFileSync(MANIFEST, 'utf8').split('\n').filter((l) => l.trim());
  const cols = head!.split('\t');
  const at = (name: string) => cols.indexOf(name);
  return lines.map((l) => {
    const c = l.split('\t');
    return { file: c[at('file')]!, expected: c[at('expected_decision')]!, confidence: c[at('confidence')]! };
  });
}

const ws = tempWorkspace();
let ctx: Context;
beforeAll(async () => {
  ctx = await openContext({ env: ws.env, db: ':memory:', keyFile: ws.keyFile });
});
afterAll(async () => {
  await ctx?.store.close();
  ws.cleanup();
});

describe.skipIf(!existsSync(MANIFEST))('real-dev corpus agreement', () => {
  it(`headline decisions agree with the labels (floor ${FLOOR} on medium/high confidence)`, async () => {
    const rows = manifest();
    const lines: string[] = [];
    let hard = 0;
    let hardOk = 0;
    let all = 0;
    let allOk = 0;
    for (const row of rows) {
      const { analysis } = await ingestIncident(ctx, entriesFromPaths([join(CORPUS, row.file)]), { name: row.file });
      const ok = analysis.decision === row.expected;
      all++;
      if (ok) allOk++;
      if (row.confidence !== 'low') {
        hard++;
        if (ok) hardOk++;
      }
      if (!ok) {
        const decisive = analysis.failures.find((f) => f.decision === analysis.decision);
        lines.push(
          `  ✗ ${row.file} [${row.confidence}] expected ${row.expected}, got ${analysis.decision}` +
            (decisive ? ` (rule ${decisive.rule}: ${decisive.rationale.slice(0, 140)})` : ` (${analysis.failures.length} failures)`),
        );
      }
    }
    const summary = `corpus agreement: ${allOk}/${all} overall, ${hardOk}/${hard} on medium/high-confidence labels`;
    console.log([summary, ...lines].join('\n'));
    expect(hardOk / hard, summary).toBeGreaterThanOrEqual(FLOOR);
  }, 120_000);
});
