// Metamorphic suite over the real shapes (the shared dev excerpts and the collected dev split; the held
// split is never run here): the same excerpt as users paste it from other places — behind a compose
// service gutter, with docker/kubectl timestamps, coloured by a terminal, renamed, gzipped, with CRLF —
// keeps its headline decision. The labels are not consulted: the answer on the plain excerpt is the
// reference, right or wrong, so this measures robustness, not accuracy.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCase, caseFiles } from './analyze-case.ts';
import { collectedCases, realDevCases } from './corpora.ts';
import { transform, writeBundle, type Bundle, type TransformId } from './transforms.ts';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

const TRANSFORMS: TransformId[] = ['rename', 'gzip', 'crlf', 'container', 'timestamps', 'ansi'];
const realDev = realDevCases(); // ../shared beside the checkout; a bare clone may not have it
const cases = [...realDev, ...collectedCases('dev')];
const seedOf = (name: string, t: TransformId) => createHash('sha256').update(`${name}:${t}`).digest().readUInt32LE(0);

beforeAll(() => analyzeCase.open());
afterAll(() => analyzeCase.close());

describe('metamorphic over real shapes: pasted from elsewhere, same answer', () => {
  it('has real shapes to transform', () => expect(cases.length).toBeGreaterThanOrEqual(realDev.length ? 90 : 45));
  for (const c of cases) {
    it(c.id, async () => {
      const base = (await analyzeCase(c)).decision;
      const bundle: Bundle = { files: caseFiles(c.path).map((p) => ({ name: basename(p), data: readFileSync(p) })) };
      const changed: string[] = [];
      for (const t of TRANSFORMS) {
        const tmp = mkdtempSync(join(tmpdir(), 'mcp-triage-meta-real-'));
        try {
          const got = (await analyzeCase({ path: writeBundle(transform(bundle, t, seedOf(c.id, t)), tmp), id: `${c.id}~${t}` })).decision;
          if (got !== base) changed.push(`${t}: ${base} → ${got}`);
        } finally {
          rmSync(tmp, { recursive: true, force: true });
        }
      }
      expect(changed, changed.join('\n')).toEqual([]);
    });
  }
});
