// Metamorphic suite: every recorded incident (samples/recorded, labels by construction) and every
// recorded sample, written another way — another client-log style, neutral file names, another file
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
import { noiseBundle, readBundle, styleVariants, transform, writeBundle, type TransformId } from './transforms.ts';

const TRANSFORMS: TransformId[] = ['style', 'rename', 'reorder', 'gzip', 'crlf', 'clock', 'skew', 'noise'];

/** The answer that must not change: the headline, and the primary failure that carries it. */
function answer(a: Analysis): string {
  const f = a.failures.find((x) => (x.role ?? 'primary') === 'primary' && x.decision === a.decision);
  return f ? `${a.decision} · ${f.method ?? '-'} ${f.tool ?? '-'} id ${f.rpcId ?? '-'} HTTP ${f.httpStatus ?? '-'}` : a.decision;
}

const seedOf = (name: string, t: TransformId) => createHash('sha256').update(`${name}:${t}`).digest().readUInt32LE(0);

const incidents = [...recordedCases().map((c) => ({ dir: c.path, style: clientStyle(c.path) })), ...sampleDirs().map((dir) => ({ dir, style: undefined }))];

function clientStyle(dir: string): string | undefined {
  const label = join(dir, 'label.json');
  return existsSync(label) ? (JSON.parse(readFileSync(label, 'utf8')) as { clientStyle?: string }).clientStyle : undefined;
}

beforeAll(() => analyzeCase.open());
afterAll(() => analyzeCase.close());

describe('metamorphic: the same incident written another way keeps its answer', () => {
  it('has recorded incidents to transform', () => expect(incidents.length).toBeGreaterThanOrEqual(80));
  for (const { dir, style } of incidents) {
    const name = basename(dir);
    it(name, async () => {
      const base = answer(await analyzeCase({ path: dir, id: name }));
      const bundle = readBundle(dir);
      const styles = styleVariants(dir);
      const noise = [noiseBundle(join(RECORDED_DIR, '_noise', 'healthy-sessions'), style), noiseBundle(join(RECORDED_DIR, '_noise', 'get-reconnect'), style)];
      const changed: string[] = [];
      for (const t of TRANSFORMS) {
        if (t === 'style' && !styles.size) continue;
        const tmp = mkdtempSync(join(tmpdir(), 'mcp-triage-meta-'));
        try {
          const got = answer(await analyzeCase({ path: writeBundle(transform(bundle, t, seedOf(name, t), { styles, noise }), tmp), id: `${name}~${t}` }));
          if (got !== base) changed.push(`${t}: ${base} → ${got}`);
        } finally {
          rmSync(tmp, { recursive: true, force: true });
        }
      }
      expect(changed, changed.join('\n')).toEqual([]);
    });
  }
});
