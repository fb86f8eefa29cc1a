// Every committed sample incident against its reviewed expected.analysis.json (golden files:
// `UPDATE_GOLDEN=1 npx vitest run server/samples.test.ts` rewrites them; CI never does).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Analysis } from './contract/analysis.ts';
import { incidentReport, ingestIncident, type Context } from './incidents.ts';
import { entriesFromPaths } from './ingest/inputs.ts';
import { sampleDirs } from './samples.ts';
import { tempWorkspace } from './testing/helpers.ts';
import { withMemoryContext } from './testing/context.ts';

const ws = tempWorkspace();
let ctx: Context;
withMemoryContext(ws, (c) => (ctx = c));

const dirs = sampleDirs();

describe('sample incidents', () => {
  it('there are recorded samples, each with an expected analysis', () => {
    expect(dirs.length).toBeGreaterThanOrEqual(2);
    for (const d of dirs) expect(existsSync(join(d, 'expected.analysis.json')) || process.env.UPDATE_GOLDEN === '1', `${d} lacks expected.analysis.json`).toBe(true);
  });
  for (const dir of dirs) {
    const name = dir.split('/').pop()!;
    it(name, async () => {
      // A sample may carry the user's tool policy (mcp-triage.tools.json): it is read as configuration.
      const { analysis, id, secrets } = await ingestIncident(ctx, entriesFromPaths([dir]), { name });
      const golden = join(dir, 'expected.analysis.json');
      if (process.env.UPDATE_GOLDEN === '1') writeFileSync(golden, JSON.stringify(analysis, null, 2) + '\n');
      const expected = Analysis.parse(JSON.parse(readFileSync(golden, 'utf8')));
      expect(analysis.decision).toBe(expected.decision);
      expect(analysis).toEqual(expected);
      // The public report, reviewed by hand like the analysis (and verified leak-free as it is built).
      const report = await incidentReport(ctx.store, id, { secrets, key: ctx.key });
      const reportGolden = join(dir, 'expected.report.md');
      if (process.env.UPDATE_GOLDEN === '1') writeFileSync(reportGolden, report.markdown);
      expect(report.markdown).toBe(readFileSync(reportGolden, 'utf8'));
    });
  }
});
