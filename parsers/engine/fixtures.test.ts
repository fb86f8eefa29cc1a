// Golden fixtures by directory: parsers/fixtures/<format-id>/<case>/input.* beside expected.json
// (the events the engine emits for that input with an identity redactor, plus the file stats).
// Test names come from the paths. `UPDATE_GOLDEN=1 npx vitest run parsers` rewrites expected files;
// CI never does, so every change to them is a reviewed diff. A case without expected.json fails.
// parsers/fixtures/_error_/<case>/<id>.json are format files that must be refused; expected-error.txt
// holds text the refusal must contain (the file and the field).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Event } from '../contract/event.ts';
import { entriesFromPaths } from '../../server/ingest/inputs.ts';
import { readLines } from './lines.ts';
import { newStats, parseFile } from './parse-file.ts';
import { loadFormatFile, loadFormats } from './registry.ts';

const ROOT = resolve(import.meta.dirname, '../fixtures');
const UPDATE = process.env.UPDATE_GOLDEN === '1' && !process.env.CI;

async function run(input: string) {
  const formats = loadFormats();
  const files = [];
  for (const entry of entriesFromPaths([input])) {
    const stats = newStats(entry.name);
    const events = [];
    for await (const e of parseFile(readLines(entry.open()), { file: entry.name, formats, redact: (t) => t }, stats)) events.push(Event.parse(e));
    const { detection: _d, formatLines, ...rest } = stats;
    files.push({ stats: { ...rest, formatLines }, events });
  }
  return files;
}

const cases = existsSync(ROOT)
  ? readdirSync(ROOT)
      .filter((f) => f !== '_error_' && !f.startsWith('.'))
      .flatMap((f) => readdirSync(join(ROOT, f)).map((c) => [f, c] as const))
  : [];

describe('golden fixtures', () => {
  it('there are fixtures', () => expect(cases.length).toBeGreaterThan(20));
  for (const [format, name] of cases) {
    const dir = join(ROOT, format, name);
    it(`${format}/${name}`, async () => {
      const input = readdirSync(dir).find((f) => f.startsWith('input.'));
      expect(input, `${dir} has no input.* file`).toBeTruthy();
      const got = await run(join(dir, input!));
      const expectedPath = join(dir, 'expected.json');
      if (UPDATE) writeFileSync(expectedPath, JSON.stringify(got, null, 2) + '\n');
      expect(existsSync(expectedPath), `${expectedPath} missing: run UPDATE_GOLDEN=1 npx vitest run parsers and review the diff`).toBe(true);
      expect(got).toEqual(JSON.parse(readFileSync(expectedPath, 'utf8')));
      // The format the directory is named after read at least one line (archives and mixed cases name their main format).
      expect(
        got.some((f) => f.stats.format === format || f.stats.formatLines[format]),
        `no line read by ${format}`,
      ).toBe(true);
    });
  }
});

describe('_error_ fixtures: broken format files are refused naming file and field', () => {
  const errRoot = join(ROOT, '_error_');
  const errCases = existsSync(errRoot) ? readdirSync(errRoot) : [];
  for (const name of errCases) {
    it(`_error_/${name}`, () => {
      const dir = join(errRoot, name);
      const file = readdirSync(dir).find((f) => f.endsWith('.json'))!;
      const want = readFileSync(join(dir, 'expected-error.txt'), 'utf8').trim().split('\n');
      let msg = '';
      try {
        loadFormatFile(join(dir, file));
      } catch (e) {
        msg = (e as Error).message;
      }
      expect(msg, 'the format file was accepted').not.toBe('');
      expect(msg).toContain(file);
      for (const w of want) expect(msg).toContain(w);
    });
  }
});
