// Every golden exception fixture must fold into ONE block that ends at its last line.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { blockFolders, foldLines, javaStack, nodeError, pythonTraceback } from './index.ts';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../server/triage/exceptions/fixtures');
// Inputs that are not one folded block by design, and why.
const NOT_ONE_BLOCK: Record<string, string> = {
  'py-json-escaped': 'one JSON log line: the engine parses it as JSON, the traceback is a field',
  'ugly-interleaved': 'a foreign line ends the block; parseExceptionText skips such lines',
  'ugly-line-numbers': 'viewer gutters are removed by parseExceptionText, not by the folder',
  'go-error-chain': 'Go errors are one line',
  'java-inline-cause': 'one log line naming its cause',
  'py-no-traceback': 'an exception line without a traceback is an ordinary line',
  'ugly-pipe-gutter': '"123 | " viewer gutters are removed by parseExceptionText, not by the folder',
};

const cases = fs
  .readdirSync(FIXTURES, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith('_'))
  .map((d) => d.name)
  .sort();

describe('folding golden inputs', () => {
  for (const c of cases) {
    const why = NOT_ONE_BLOCK[c];
    it(why ? `${c} (not one block: ${why})` : c, () => {
      const lines = fs
        .readFileSync(path.join(FIXTURES, c, 'input.txt'), 'utf8')
        .replace(/\r\n/g, '\n')
        .replace(/\x1b\[[0-9;]*m/g, '')
        .split('\n');
      while (lines.length && lines.at(-1)!.trim() === '') lines.pop();
      const folded = foldLines(lines);
      const blocks = folded.filter((f) => f.kind === 'block');
      if (why) return;
      expect(blocks.length, folded.map((f) => (f.kind === 'line' ? `line ${f.index}: ${f.line}` : `block ${f.start}+${f.lines.length}`)).join('\n')).toBe(1);
      // Nothing that belongs to a trace is left outside the block (preambles and trailers may be).
      const outside = folded.filter((f) => f.kind === 'line' && /^\s+(?:at |\||File ")|^\s*(?:Caused by|\[cause\])/.test(f.line));
      expect(outside).toEqual([]);
    });
  }
});

describe('folder rules', () => {
  it('holds a blank line only when the chain goes on', () => {
    const lines = ['Traceback (most recent call last):', '  File "a.py", line 1, in f', 'ValueError: x', '', 'INFO next record'];
    const folded = foldLines(lines);
    expect(folded[0]).toMatchObject({ kind: 'block', lines: lines.slice(0, 3) });
    expect(folded.slice(1).map((f) => f.kind)).toEqual(['line', 'line']);
  });
  it('joins chained tracebacks across blank lines', () => {
    const lines = [
      'Traceback (most recent call last):',
      '  File "a.py", line 1, in f',
      'KeyError: 1',
      '',
      'During handling of the above exception, another exception occurred:',
      '',
      'Traceback (most recent call last):',
      '  File "a.py", line 3, in f',
      'ValueError: x',
    ];
    expect(foldLines(lines)).toHaveLength(1);
  });
  it('starts on the shapes it owns and not on ordinary lines', () => {
    expect(pythonTraceback.starts('  File "/app/x.py", line 3, in main')).toBe(true);
    expect(pythonTraceback.starts('INFO: started')).toBe(false);
    expect(nodeError.starts('TypeError: fetch failed')).toBe(true);
    expect(nodeError.starts('[AggregateError: All promises were rejected] {')).toBe(true);
    expect(nodeError.starts('Error POSTing to endpoint (HTTP 404)')).toBe(false);
    expect(javaStack.starts('java.net.ConnectException: Connection refused')).toBe(true);
    expect(blockFolders.some((f) => f.starts('2025-01-01 12:00:00 INFO GET /mcp 200'))).toBe(false);
  });
  it('is linear on hostile lines', () => {
    const evil = ['a'.repeat(100_000), `${'x: '.repeat(30_000)}Error`, ` ${'at '.repeat(30_000)}`, `File "${'"'.repeat(30_000)}`];
    for (const l of evil) {
      const t0 = performance.now();
      foldLines([l, l, l]);
      for (const f of blockFolders) f.continues(l, [l]);
      // (a ReDoS guard on 90–100k characters: backtracking takes minutes; loose so a busy machine never trips it)
      expect(performance.now() - t0).toBeLessThan(5_000);
    }
  });
});
