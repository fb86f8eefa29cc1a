// Metamorphic suite: every recorded incident (samples/recorded, labels by construction) and every
// recorded sample, written another way — another client-log style, another server-log style, neutral file names, another file
// order, gzip, CRLF, a clock shifted by days, a server clock skewed by a second, healthy sessions and
// GET-stream reconnect noise spliced in — must keep its headline decision and its failing request.
// Each transform runs once per incident with a seed derived from the incident's name (reproducible).
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Analysis } from '../contract/analysis.ts';
import { sampleDirs } from '../samples.ts';
import { analyzeCase } from './analyze-case.ts';
import { RECORDED_DIR, recordedCases } from './corpora.ts';
import { COLLECTOR_TRANSFORMS, identifierRenames, noiseBundle, readBundle, styleVariants, transform, writeBundle, type TransformId } from './transforms.ts';

// (and the collectors users copy from: docker's json-file driver, a cloud export, a GitHub-issue quote,
// kubectl logs --prefix — as the real-shape suite runs them)
const TRANSFORMS: TransformId[] = ['style', 'server-style', 'rename', 'reorder', 'gzip', 'crlf', 'clock', 'skew', 'noise', 'names', ...COLLECTOR_TRANSFORMS];

interface Req {
  method: string | null;
  tool: string | null;
  rpcId: number | string | null;
  httpStatus: number | null;
}

/** The request the incident is about: the label's (recordings), else the baseline's headline failure. */
function requestOf(a: Analysis, label: Req | null | undefined): Req | null {
  if (label !== undefined) return label;
  const f = a.failures.find((x) => (x.role ?? 'primary') === 'primary' && x.decision === a.decision);
  return f ? { method: f.method, tool: f.tool, rpcId: f.rpcId, httpStatus: f.httpStatus } : null;
}

/** The answer that must not change: the headline, and that request among the primary failures (what is known of it must match). */
function answer(a: Analysis, req: Req | null): string {
  if (a.decision === 'no_action' || req === null) return a.decision;
  const hit = a.failures.some(
    (f) =>
      (f.role ?? 'primary') === 'primary' &&
      (req.method === null || f.method === req.method) &&
      (req.tool === null || f.tool === req.tool) &&
      (req.httpStatus === null || f.httpStatus === req.httpStatus),
  );
  return `${a.decision}${hit ? '' : ' (failing request not found)'}`;
}

const seedOf = (name: string, t: TransformId) => createHash('sha256').update(`${name}:${t}`).digest().readUInt32LE(0);

const incidents = [...recordedCases().map((c) => ({ dir: c.path, ...labelOf(c.path) })), ...sampleDirs().map((dir) => ({ dir, style: undefined, failing: undefined }))];

function labelOf(dir: string): { style: string | undefined; failing: Req | null | undefined } {
  const file = join(dir, 'label.json');
  if (!existsSync(file)) return { style: undefined, failing: undefined };
  const l = JSON.parse(readFileSync(file, 'utf8')) as { clientStyle?: string; failing: Partial<Req> | null };
  return {
    style: l.clientStyle,
    failing:
      l.failing === null ? null : { method: l.failing.method ?? null, tool: l.failing.tool ?? null, rpcId: l.failing.rpcId ?? null, httpStatus: l.failing.httpStatus ?? null },
  };
}

beforeAll(() => analyzeCase.open());
afterAll(() => analyzeCase.close());

describe('metamorphic: the same incident written another way keeps its answer', () => {
  it('has recorded incidents to transform', () => expect(incidents.length).toBeGreaterThanOrEqual(80));
  for (const { dir, style, failing } of incidents) {
    const name = basename(dir);
    it(name, async () => {
      const first = await analyzeCase({ path: dir, id: name });
      const req = requestOf(first, failing);
      const base = answer(first, req);
      const bundle = readBundle(dir);
      const styles = styleVariants(dir);
      const noise = [noiseBundle(join(RECORDED_DIR, '_noise', 'healthy-sessions'), style), noiseBundle(join(RECORDED_DIR, '_noise', 'get-reconnect'), style)];
      const changed: string[] = [];
      for (const t of TRANSFORMS) {
        if (t === 'style' && !styles.size) continue;
        const tmp = mkdtempSync(join(tmpdir(), 'mcp-triage-meta-'));
        try {
          // (under `names` the request's tool has its new name)
          const renamed = t === 'names' && req?.tool ? identifierRenames(bundle, seedOf(name, t)).get(req.tool) : undefined;
          const want = renamed && req ? { ...req, tool: renamed } : req;
          const got = answer(await analyzeCase({ path: writeBundle(transform(bundle, t, seedOf(name, t), { styles, noise }), tmp), id: `${name}~${t}` }), want);
          if (got !== base) changed.push(`${t}: ${base} → ${got}`);
        } finally {
          rmSync(tmp, { recursive: true, force: true });
        }
      }
      expect(changed, changed.join('\n')).toEqual([]);
    });
  }
});
