// Real wordings, collected from the software that prints them (parsers/signals/wordings/README.md):
// each row names the signals its line must fire; `NONE` rows are look-alikes that must fire no failure
// signal; `GAP:` rows are failures no signal reads yet, kept so the gap stays visible — one that starts
// to fire what it names must be promoted (the same contract as the metamorphic suite's KNOWN_GAPS);
// `FALSE:` rows are look-alikes the table still reads as failures (known false positives, kept in view the
// same way); `NEW:` rows are failures of a kind the table has no signal for.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readLines } from './lines.ts';
import { newStats, parseFile } from './parse-file.ts';
import { loadFormats } from './registry.ts';
import { loadSignalTable, signalTable } from './signals.ts';

const DIR = join(import.meta.dirname, '..', 'signals', 'wordings');
const formats = loadFormats();
const outcome = new Map(loadSignalTable().map((s) => [s.spec.id, s.spec.meaning.outcome]));

interface Row {
  file: string;
  n: number;
  expect: string;
  line: string;
  source: string;
}

/** Each file's first line (checked in a test, not while the suite is collected). */
const headers = new Map<string, string>();

function rows(): Row[] {
  const out: Row[] = [];
  for (const file of readdirSync(DIR)
    .filter((f) => f.endsWith('.tsv'))
    .sort()) {
    const lines = readFileSync(join(DIR, file), 'utf8').split('\n');
    headers.set(file, lines[0] ?? '');
    lines.forEach((l, i) => {
      if (i === 0 || !l.trim()) return;
      const [exp = '', line = '', source = ''] = l.split('\t');
      out.push({ file, n: i + 1, expect: exp.trim(), line, source: source.trim() });
    });
  }
  return out;
}

/** What a line fires: the table's match over the text, and what the parse adds (formats' fields, `http-NNN`). */
async function fired(line: string): Promise<Set<string>> {
  const got = new Set(signalTable().match(line));
  for await (const e of parseFile(readLines(Readable.from([Buffer.from(`${line}\n`)])), { file: 'wording.log', formats, redact: (t) => t }, newStats('wording.log')))
    for (const s of e.signals ?? []) got.add(s);
  return got;
}

const all = rows();
const ids = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

describe('real wordings fire what they say', () => {
  it('has wordings from several families, each with its source', () => {
    expect(new Set(all.map((r) => r.file)).size).toBeGreaterThanOrEqual(5);
    expect(all.length).toBeGreaterThanOrEqual(500);
    for (const [file, header] of headers) expect(header, `${file}: header`).toBe('expect\tline\tsource\tnote');
    for (const r of all) expect(r.source, `${r.file}:${r.n} names no source`).not.toBe('');
  });
  it('names only signals the table has', () => {
    for (const r of all) {
      if (r.expect === 'NONE' || r.expect.startsWith('NEW:') || r.expect.startsWith('FALSE:')) continue;
      for (const id of ids(r.expect.replace(/^GAP:/, ''))) expect(outcome.has(id), `${r.file}:${r.n}: no signal ${id}`).toBe(true);
    }
  });
  for (const file of [...new Set(all.map((r) => r.file))]) {
    it(file, async () => {
      const wrong: string[] = [];
      for (const r of all.filter((x) => x.file === file)) {
        const got = await fired(r.line);
        if (r.expect === 'NONE') {
          const failures = [...got].filter((g) => outcome.get(g) === 'failure');
          if (failures.length) wrong.push(`${r.n}: a look-alike fires ${failures.join(', ')}: ${r.line}`);
        } else if (r.expect.startsWith('FALSE:')) {
          if (![...got].some((g) => outcome.get(g) === 'failure')) wrong.push(`${r.n}: a known false positive that no longer fires (make it NONE): ${r.line}`);
        } else if (r.expect.startsWith('GAP:')) {
          const want = ids(r.expect.slice(4));
          if (want.every((w) => got.has(w))) wrong.push(`${r.n}: a known gap that now holds (drop its GAP: prefix): ${r.line}`);
        } else if (!r.expect.startsWith('NEW:')) {
          const missing = ids(r.expect).filter((w) => !got.has(w));
          if (missing.length) wrong.push(`${r.n}: does not fire ${missing.join(', ')} (fires ${[...got].join(', ') || 'nothing'}): ${r.line}`);
        }
      }
      expect(wrong, wrong.join('\n')).toEqual([]);
    });
  }
});
