// The focus set (store/focus.ts) must not change what analysis concludes: every committed sample,
// analysed from its focus set alone (the opening window switched off, so only the failure
// neighbourhood and incident-wide facts remain), reaches the same failures as the full analysis.
import { describe, expect, it } from 'vitest';
import type { Analysis } from '../contract/analysis.ts';
import { ingestIncident, refreshAnalysis, type Context } from '../incidents.ts';
import { entriesFromPaths } from '../ingest/inputs.ts';
import { sampleDirs } from '../samples.ts';
import { tempWorkspace } from '../testing/helpers.ts';
import { renderAnalysis } from '../cli/render.ts';
import { DEFAULT_FOCUS, FOCUS_COPY_MAX, focusSql } from './focus.ts';
import { withMemoryContext } from '../testing/context.ts';

const ws = tempWorkspace();
let ctx: Context;
withMemoryContext(ws, (c) => (ctx = c));

const verdict = (a: Analysis) =>
  a.failures.map((f) => ({
    rpcId: f.rpcId,
    method: f.method,
    tool: f.tool,
    session: f.session,
    httpStatus: f.httpStatus,
    stage: f.stage,
    root: f.rootException,
    decision: f.decision,
    rule: f.rule,
    evidence: f.evidence,
    ts: f.ts,
  }));

describe('focused analysis agrees with the full analysis', () => {
  for (const dir of sampleDirs()) {
    const name = dir.split('/').pop()!;
    it(name, async () => {
      const { id, analysis: full } = await ingestIncident(ctx, entriesFromPaths([dir]), { name });
      const focused = await refreshAnalysis(ctx.store, id, { fullLimit: 0, focus: { ...DEFAULT_FOCUS, head: 0 } });
      expect(focused.coverage?.focused).toBe(true);
      expect(focused.coverage!.analysedEvents).toBeLessThanOrEqual(focused.coverage!.triageEvents);
      expect(focused.decision).toBe(full.decision);
      expect(verdict(focused)).toEqual(verdict(full));
      expect(focused.sessions).toEqual(full.sessions);
      expect(focused.protocolVersions).toEqual(full.protocolVersions);
      // the request and exchange lines seen are the whole incident's, not the focus set's
      expect([focused.seen!.requests, focused.seen!.exchanges, focused.seen!.sessions]).toEqual([full.seen!.requests, full.seen!.exchanges, full.seen!.sessions]);
      expect(full.coverage).toBeUndefined();
      // …and the CLI says the incident was analysed around its failures, with the counts.
      expect(renderAnalysis(focused)).toContain(`of ${focused.coverage!.triageEvents.toLocaleString('en')} keyed events`);
      expect(renderAnalysis(full)).not.toContain('keyed events');
      // the focus set is the same whether its query copies the triage events' keys first (FOCUS_COPY_MAX) or not
      for (const l of [DEFAULT_FOCUS, { ...DEFAULT_FOCUS, head: 0 }]) {
        const copied = await ctx.store.query(focusSql(l, 0), { id });
        expect(copied.length).toBeGreaterThan(0);
        expect(await ctx.store.query(focusSql(l, FOCUS_COPY_MAX + 1), { id })).toEqual(copied);
      }
    });
  }
});
