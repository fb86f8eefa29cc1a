// Decision-invariance matrix (issue #17 kinds 1–2, item 10): every incident of host-styles.ts, printed
// by every host application and logging library there, must get the headline decision its plainest
// rendering gets, and the plainest must get the decision its failure-signatures row gives. A cell that
// still differs goes in KNOWN_GAPS (with why), and the test asserts it still differs: fixing one forces
// the list to shrink. HOST_STYLES_MATRIX=1 prints every cell.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCase } from './analyze-case.ts';
import { HOST_INCIDENTS, HOST_STYLES } from './host-styles.ts';

/** `incident/style` cells whose headline still differs from the plain rendering's, each with why. */
const KNOWN_GAPS: ReadonlyMap<string, string> = new Map<string, string>([]);

let dir = '';
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'host-styles-'));
  await analyzeCase.open();
});
afterAll(async () => {
  await analyzeCase.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The headline decision of one rendering, analysed alone as a one-file client bundle. */
async function decide(cell: string, text: string): Promise<string> {
  const d = join(dir, cell.replace('/', '~'));
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, 'client.log'), text);
  const a = await analyzeCase({ path: d, id: cell }).catch((e: Error) => ({ decision: `refused: ${e.message.slice(0, 80)}` }));
  return a.decision;
}

describe('host styles: the same failure printed by another host or library keeps its decision', () => {
  it('has a matrix worth the name', () => {
    expect(HOST_INCIDENTS.length).toBeGreaterThanOrEqual(24);
    expect(HOST_STYLES.length).toBeGreaterThanOrEqual(25);
    for (const key of KNOWN_GAPS.keys()) {
      const [inc, style] = key.split('/');
      expect(HOST_INCIDENTS.some((i) => i.id === inc) && HOST_STYLES.some((s) => s.id === style), `KNOWN_GAPS names no cell: ${key}`).toBe(true);
    }
  });
  for (const inc of HOST_INCIDENTS) {
    it(inc.id, async () => {
      const [plain, ...others] = HOST_STYLES;
      const base = await decide(`${inc.id}/${plain!.id}`, plain!.render(inc.recs));
      const wrong: string[] = [];
      if (base !== inc.decision) wrong.push(`plain: ${base} (its row says ${inc.decision}: ${inc.source})`);
      for (const s of others) {
        const key = `${inc.id}/${s.id}`;
        const got = await decide(key, s.render(inc.recs));
        if (process.env.HOST_STYLES_MATRIX) console.log(`CELL\t${key}\t${got === base ? 'ok' : 'DIFF'}\t${base}\t${got}`);
        if (KNOWN_GAPS.has(key)) {
          if (got === base) wrong.push(`${key} now agrees with the plain rendering: remove it from KNOWN_GAPS`);
        } else if (got !== base) wrong.push(`${s.id}: ${base} → ${got}`);
      }
      expect(wrong, wrong.join('\n')).toEqual([]);
    });
  }
});
