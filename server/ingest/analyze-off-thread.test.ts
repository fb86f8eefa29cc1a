// The server's analysis on a worker thread (analyze-off-thread.ts) is the analysis: the same
// document as in process, for whole and focused reads, on recorded samples (every other one: a
// worker under tsx takes ~0.5 s to start).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestIncident, refreshAnalysis, type Context } from '../incidents.ts';
import { DEFAULT_FOCUS } from '../store/focus.ts';
import { withMemoryContext } from '../testing/context.ts';
import { REPO, tempWorkspace } from '../testing/helpers.ts';
import { entriesFromPaths } from './inputs.ts';

let ctx: Context;
withMemoryContext(tempWorkspace(), (c) => (ctx = c));

const SAMPLES = readdirSync(join(REPO, 'samples'))
  .filter((d) => statSync(join(REPO, 'samples', d)).isDirectory() && !['record', 'recorded', 'real-world'].includes(d))
  .filter((_, i) => i % 2 === 0)
  // (a set declared before its bundles exist holds only its README)
  .filter((d) => readdirSync(join(REPO, 'samples', d)).some((f) => f !== 'README.md'));

describe('analysis on a worker thread', () => {
  it('gives the in-process analysis on the samples, whole and focused', { timeout: 300_000 }, async () => {
    expect(SAMPLES.length).toBeGreaterThan(5);
    for (const s of SAMPLES) {
      const { id } = await ingestIncident(ctx, entriesFromPaths([join(REPO, 'samples', s)]), { name: s });
      const here = await refreshAnalysis(ctx.store, id);
      const there = await refreshAnalysis(ctx.store, id, { offThread: true, offThreadMin: 0 });
      expect(there, s).toEqual(here);
      const focus = { fullLimit: 0, focus: { ...DEFAULT_FOCUS, head: 0 } };
      expect(await refreshAnalysis(ctx.store, id, { ...focus, offThread: true, offThreadMin: 0 }), `${s} focused`).toEqual(await refreshAnalysis(ctx.store, id, focus));
    }
  });

  it('is what the server stores after an upload (a small incident is analysed in process)', async () => {
    const { id, analysis } = await ingestIncident(ctx, entriesFromPaths([join(REPO, 'samples', 'restart-stale-session')]), { name: 'server', analyzeOffThread: true });
    expect(await ctx.store.analysis(id)).toEqual(analysis);
    expect(analysis).toEqual(await refreshAnalysis(ctx.store, id));
  });
});
