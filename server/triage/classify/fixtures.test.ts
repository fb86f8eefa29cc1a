// Golden cases by directory: hand-written logs (our own wording, in the shapes the SDKs, hosts and
// proxies print) in, the decision and the failures' roles out. Each case names one kind of thing the
// diagnosis must get right on logs it was not written from: errors at info level, layouts no format
// knows, lone lines, noise that must not outrank the cause, recovery, replicas, stale sessions.
// `UPDATE_GOLDEN=1 npx vitest run server/triage/classify/fixtures.test.ts` rewrites expected.json (review the diff).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Analysis } from '../../contract/analysis.ts';
import { ingestIncident, type Context } from '../../incidents.ts';
import { entriesFromPaths } from '../../ingest/inputs.ts';
import { tempWorkspace } from '../../testing/helpers.ts';
import { withMemoryContext } from '../../testing/context.ts';

const DIR = join(import.meta.dirname, 'fixtures');
const ws = tempWorkspace();
let ctx: Context;
withMemoryContext(ws, (c) => (ctx = c));

/** What a case pins: the headline, the primary failures, and what was folded (role, rule). */
function summary(a: Analysis) {
  return {
    decision: a.decision,
    primary: a.failures.filter((f) => f.role === 'primary').map((f) => ({ method: f.method, tool: f.tool, httpStatus: f.httpStatus, decision: f.decision, rule: f.rule })),
    folded: a.failures.filter((f) => f.role !== 'primary').map((f) => ({ role: f.role, decision: f.decision, rule: f.rule })),
  };
}

describe('triage golden cases', () => {
  const cases = readdirSync(DIR)
    .filter((d) => !d.startsWith('.'))
    .sort();
  it('has cases', () => expect(cases.length).toBeGreaterThanOrEqual(15));
  for (const name of cases) {
    it(name, async () => {
      const dir = join(DIR, name);
      const { analysis } = await ingestIncident(
        ctx,
        entriesFromPaths(
          readdirSync(dir)
            .filter((f) => f !== 'expected.json' && !f.endsWith('.md'))
            .map((f) => join(dir, f)),
        ),
        { name },
      );
      const got = summary(analysis);
      const golden = join(dir, 'expected.json');
      if (process.env.UPDATE_GOLDEN === '1' || !existsSync(golden)) writeFileSync(golden, JSON.stringify(got, null, 2) + '\n');
      expect(got).toEqual(JSON.parse(readFileSync(golden, 'utf8')));
    });
  }
});
