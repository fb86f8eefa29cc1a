// Per-line coverage over four sets of logs: the parser fixtures, samples/*/, the recorded incidents
// (samples/recorded, six client-log styles) and the shared real-dev
// corpus (../shared/corpus/real-dev, read at test time, never copied). Prints, per file and per set,
// the share of events that got their own time, a level and a message (coverage.ts), and holds floors.
// `npx vitest run parsers/engine/coverage.test.ts` shows the tables.
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { entriesFromPaths } from '../../server/ingest/inputs.ts';
import { scanEntries } from '../../server/ingest/pipeline.ts';
import { SessionIdBook } from '../../server/triage/redact/index.ts';
import { caseFiles } from '../../server/accuracy/analyze-case.ts';
import { recordedCases } from '../../server/accuracy/corpora.ts';
import { sampleDirs } from '../../server/samples.ts';
import { SHARED } from '../../server/testing/helpers.ts';
import { coverageRow, coverageTable, totalCoverage, type CoverageRow } from './coverage.ts';
import { readLines } from './lines.ts';
import { newStats, parseFile } from './parse-file.ts';
import { loadFormats } from './registry.ts';

const REPO = resolve(import.meta.dirname, '../..');
const CORPUS = join(SHARED, 'corpus', 'real-dev');

/** Floors we reach (see the printed tables); raise them when the engine gets better. Shares of events. */
// Before the line reader, level wording and identity scanner (same files): fixtures 43.8% / 54.3% /
// 88.1%, samples 95.8% / 79.8% / 100%, real-dev 23.1% / 44.5% / 69.0% (time / level / message).
// Access logs carry no level and most real-dev excerpts no time at all: these are not 100% targets.
const FLOORS: Record<string, { ts: number; level: number; message: number }> = {
  // (django-runserver's fixture adds 8 access lines that log no level by design — the dev server picks
  // info/warning/error by status but never prints it: 69.8% with them; the swarm-task fixture brings it to 70.1%;
  // json-fragment's brace-less members — a gateway record's fields pasted with `...`, no level among them — 69.97%)
  fixtures: { ts: 0.5, level: 0.69, message: 0.95 },
  samples: { ts: 0.95, level: 0.79, message: 0.99 },
  // six client-log styles (one has no timestamps at all); first measured 82.8% / 76.0% / 89.0%
  recorded: { ts: 0.8, level: 0.74, message: 0.87 },
  'real-dev': { ts: 0.23, level: 0.6, message: 0.75 },
};

async function rowsOf(paths: string[], label: (name: string, path: string) => string): Promise<CoverageRow[]> {
  const formats = loadFormats();
  const rows: CoverageRow[] = [];
  for (const p of paths) {
    // Only what an ingest reads: a sample's tool policy (mcp-triage.tools.json) is configuration,
    // and what the screen skips (its expected.analysis.json) is not a log (server/ingest/screen.ts).
    const candidates = entriesFromPaths([p]).filter((e) => !e.name.endsWith('mcp-triage.tools.json'));
    const read = new Set((await scanEntries(candidates, new SessionIdBook(), formats)).filter((s) => !s.skip).map((s) => s.entry));
    for (const entry of candidates) {
      if (!read.has(entry)) continue;
      const stats = newStats(entry.name);
      for await (const _ of parseFile(readLines(entry.open()), { file: entry.name, formats, redact: (t) => t }, stats));
      rows.push({ ...coverageRow(stats), file: label(entry.name, p) });
    }
  }
  return rows;
}

const sets: { name: string; paths: () => string[]; label: (name: string, path: string) => string }[] = [
  {
    name: 'fixtures',
    paths: () => {
      const root = join(REPO, 'parsers/fixtures');
      return readdirSync(root)
        .filter((f) => f !== '_error_' && !f.startsWith('.'))
        .flatMap((f) => readdirSync(join(root, f)).map((c) => join(root, f, c)))
        .flatMap((dir) =>
          readdirSync(dir)
            .filter((n) => n.startsWith('input.'))
            .map((n) => join(dir, n)),
        );
    },
    label: (name, path) => `${path.split('/').slice(-3, -1).join('/')}${name.startsWith('input.') ? '' : ':' + name}`,
  },
  {
    name: 'samples',
    paths: () => sampleDirs(),
    label: (name, path) => `${path.split('/').pop()}/${name}`,
  },
  {
    // each recorded incident's own logs (client log in its primary style, proxy and server logs)
    name: 'recorded',
    paths: () => recordedCases().flatMap((c) => caseFiles(c.path)),
    label: (name, path) => `${path.split('/').slice(-2).join('/')}`,
  },
  {
    name: 'real-dev',
    paths: () =>
      existsSync(CORPUS)
        ? readdirSync(CORPUS)
            .filter((f) => f.endsWith('.log'))
            .sort()
            .map((f) => join(CORPUS, f))
        : [],
    label: (name) => name,
  },
];

describe('per-line coverage (time, level, message)', () => {
  for (const set of sets) {
    it.skipIf(set.name === 'real-dev' && !existsSync(CORPUS))(`${set.name}: shares hold their floors`, async () => {
      const rows = await rowsOf(set.paths(), set.label);
      console.log(`\n${set.name}\n${coverageTable(rows, `OVERALL ${set.name}`)}`);
      const t = totalCoverage(rows);
      expect(t.events).toBeGreaterThan(0);
      const floor = FLOORS[set.name]!;
      expect(t.ts / t.events, 'time').toBeGreaterThanOrEqual(floor.ts);
      expect(t.level / t.events, 'level').toBeGreaterThanOrEqual(floor.level);
      expect(t.message / t.events, 'message').toBeGreaterThanOrEqual(floor.message);
    });
  }
});
