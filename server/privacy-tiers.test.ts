// Privacy modes decide nothing (redaction.md "Tiers"; issue #19): for every sample incident
// (samples/* and samples/recorded/*), analysing in standard mode (session ids and credentials
// redacted before storage) and in strict mode (everything) gives the same headline decision and
// the same failing requests — decision, rule, role, stage, request, session and evidence lines.
// And the standard mode's public report holds none of the raw values strict mode removed at
// ingest: the exit tier does at the report what strict did before storage.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Analysis } from './contract/analysis.ts';
import type { PrivacyMode } from './contract/privacy.ts';
import { incidentReport, ingestIncident, type Context } from './incidents.ts';
import { entriesFromPaths } from './ingest/inputs.ts';
import { recordedCases } from './accuracy/corpora.ts';
import { sampleDirs } from './samples.ts';
import { withMemoryContext } from './testing/context.ts';
import { tempWorkspace } from './testing/helpers.ts';

const ws = tempWorkspace();
let ctx: Context;
withMemoryContext(ws, (c) => (ctx = c));

const incidents = [...sampleDirs(), ...recordedCases().map((c) => c.path)];

function inputFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => /\.(log|jsonl?|ndjson|txt|har)$/.test(f) && !f.startsWith('expected.') && f !== 'label.json' && statSync(join(dir, f)).isFile())
    .map((f) => join(dir, f))
    .sort();
}

function decisions(a: Analysis) {
  return {
    decision: a.decision,
    failures: a.failures.map((f) => ({
      decision: f.decision,
      rule: f.rule,
      role: f.role,
      stage: f.stage,
      method: f.method,
      tool: f.tool,
      rpcId: f.rpcId,
      httpStatus: f.httpStatus,
      session: f.session,
      evidence: f.evidence,
      episode: f.episode,
    })),
  };
}

async function run(dir: string, mode: PrivacyMode) {
  const r = await ingestIncident(ctx, entriesFromPaths(inputFiles(dir)), { name: dir, mode });
  try {
    const report = await incidentReport(ctx.store, r.id, { secrets: r.secrets, key: ctx.key });
    return { analysis: r.analysis, report: report.markdown, ledger: r.secrets.ledger };
  } finally {
    await ctx.store.deleteIncident(r.id);
  }
}

describe('standard and strict mode decide the same, and the standard report leaks nothing strict removed', () => {
  it('covers the samples and the recorded incidents', () => expect(incidents.length).toBeGreaterThanOrEqual(100));
  for (const dir of incidents) {
    const name = dir.split('/').slice(-2).join('/');
    it(name, async () => {
      const strict = await run(dir, 'strict');
      const standard = await run(dir, 'standard');
      expect(strict.analysis.privacyMode).toBe('strict');
      expect(standard.analysis.privacyMode).toBe('standard');
      expect(decisions(standard.analysis)).toEqual(decisions(strict.analysis));
      // Every raw value strict removed at ingest (secrets, personal data, opaque tokens) that a
      // report could quote: none is in the standard report. (Plain words a PII rule took by
      // position, such as a host `orders`, are ordinary words elsewhere: only values with a digit,
      // a dot, an @ or a separator inside count.)
      const raw = strict.ledger.rawValues(['secret', 'session', 'opaque', 'pii']).filter((v) => /[0-9.@\-_/:]/.test(v.slice(1, -1)));
      const leaked = raw.filter((v) => standard.report.includes(v));
      expect(leaked).toEqual([]);
    });
  }
});
