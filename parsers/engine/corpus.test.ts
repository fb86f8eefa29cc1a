// The real-dev corpus (../shared/corpus/real-dev, read at test time, never copied): every excerpt gets
// a known format and, where the file says so, the source its MANIFEST `layer` names. Prints the
// share of lines read by a format (not raw) per file and overall, and holds a floor.
import { existsSync, readFileSync, readdirSync, createReadStream } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFile, newStats, type FileStats } from './parse-file.ts';
import { readLines } from './lines.ts';
import { loadFormats } from './registry.ts';
import { SHARED } from '../../server/testing/helpers.ts';

const CORPUS = join(SHARED, 'corpus', 'real-dev');
/** Floors we actually reach (see the printed table); raise them when the engine gets better. */
const OVERALL_FLOOR = 0.55;
/** Share of excerpts a format claims (47/53 when the corpus grew to 53). */
const KNOWN_FORMAT_FLOOR = 0.88;

/** Files whose layer is not visible in the excerpt itself (a bare message, a stack, a curl transcript): source may stay unknown. */
function manifest(): Map<string, { layer: string }> {
  const rows = readFileSync(join(CORPUS, 'MANIFEST.tsv'), 'utf8').trim().split('\n');
  const head = rows.shift()!.split('\t');
  const fi = head.indexOf('file');
  const li = head.indexOf('layer');
  return new Map(rows.map((r) => r.split('\t')).map((c) => [c[fi]!, { layer: c[li]! }]));
}

describe.skipIf(!existsSync(CORPUS))('real-dev corpus', () => {
  const formats = loadFormats();
  const files = existsSync(CORPUS)
    ? readdirSync(CORPUS)
        .filter((f) => f.endsWith('.log'))
        .sort()
    : [];
  const results: { file: string; stats: FileStats; parsedLines: number }[] = [];

  for (const file of files) {
    it(`${file} gets a known format`, async () => {
      const stats = newStats(file);
      let rawLines = 0;
      for await (const e of parseFile(readLines(createReadStream(join(CORPUS, file))), { file, formats, redact: (t) => t }, stats)) {
        if (e.kind === 'raw') rawLines += e.endLine - e.line + 1;
      }
      const nonBlank =
        readFileSync(join(CORPUS, file), 'utf8')
          .split(/\r?\n/)
          .filter((l) => l.trim() !== '').length - stats.skippedLines;
      results.push({ file, stats, parsedLines: Math.max(0, nonBlank - rawLines) });
      expect(stats.lines).toBeGreaterThan(0);
    });
  }

  // Not every excerpt is a log a format can claim (a prose message, a table, a pretty-printed dump):
  // most must be, and the line reader still reads their lines (coverage.test.ts measures per line).
  it('most excerpts get a known format', () => {
    const unknown = results.filter((r) => r.stats.format === 'unknown').map((r) => r.file);
    console.log(`format unknown for ${unknown.length}/${results.length}: ${unknown.join(', ') || 'none'}`);
    expect(results.length - unknown.length).toBeGreaterThanOrEqual(Math.ceil(results.length * KNOWN_FORMAT_FLOOR));
  });

  it('sources agree with the MANIFEST layer where the file shows it', () => {
    const m = manifest();
    const wrong: string[] = [];
    let known = 0;
    for (const r of results) {
      const layer = m.get(r.file)?.layer;
      if (!layer || r.stats.source === 'unknown') continue;
      known++;
      // a "mixed" excerpt has lines of several sides; an MCP proxy or gateway is a client of the
      // remote server and a server to its own clients, so either reading is right
      if (layer === 'mixed' || (layer === 'proxy' && r.stats.source === 'client') || (layer === 'client' && r.stats.source === 'proxy')) continue;
      if (r.stats.source !== layer) wrong.push(`${r.file}: ${r.stats.source} (manifest ${layer})`);
    }
    console.log(`source known for ${known}/${results.length} files; disagreements: ${wrong.length ? wrong.join(', ') : 'none'}`);
    expect(known).toBeGreaterThanOrEqual(Math.floor(results.length * 0.6));
    expect(wrong.length).toBeLessThanOrEqual(2);
  });

  it(`parses at least ${OVERALL_FLOOR * 100}% of non-blank lines overall`, () => {
    let total = 0;
    let parsed = 0;
    const rows = results.map((r) => {
      const nb = r.stats.lines - r.stats.skippedLines;
      total += Math.max(r.parsedLines, 0) + r.stats.unparsed;
      parsed += r.parsedLines;
      return `${r.file.padEnd(70)} ${r.stats.format.padEnd(20)} ${r.stats.source.padEnd(8)} ${String(r.parsedLines).padStart(4)}/${String(r.parsedLines + r.stats.unparsed).padStart(4)} ${((r.parsedLines / Math.max(1, r.parsedLines + r.stats.unparsed)) * 100).toFixed(0).padStart(4)}%${r.stats.prefix ? ' prefix=' + r.stats.prefix : ''}${r.stats.layout.length ? ' layout=' + r.stats.layout.join(',') : ''}${nb ? '' : ''}`;
    });
    console.log(rows.join('\n') + `\nOVERALL ${parsed}/${total} = ${((parsed / Math.max(1, total)) * 100).toFixed(1)}%`);
    expect(parsed / total).toBeGreaterThanOrEqual(OVERALL_FLOOR);
  });
});
