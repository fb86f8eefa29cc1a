// Golden fixtures by directory: fixtures/<case>/input.txt → expected.json (tree, root, chain, stage).
// Update with `npx vitest run server/triage/exceptions -u` and review the diff; CI never writes.
// fixtures/_error_/<case>/input.txt must yield null.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chooseRoot, inferStage, matchKnownDefects, parseExceptionText, unescapeJsonText, MAX_NODES } from './index.ts';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const cases = fs
  .readdirSync(FIXTURES, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith('_'))
  .map((d) => d.name)
  .sort();
const errorCases = fs.existsSync(path.join(FIXTURES, '_error_')) ? fs.readdirSync(path.join(FIXTURES, '_error_')).sort() : [];

export function analyse(text: string) {
  const tree = parseExceptionText(text);
  if (!tree) return null;
  const choice = chooseRoot(tree);
  const stage = inferStage(tree, choice.root);
  return {
    root: choice.root ? { id: choice.root.id, type: choice.root.type, message: choice.root.message } : null,
    chain: choice.chain,
    clue: choice.clue,
    why: choice.why ?? null,
    others: (choice.others ?? []).map((n) => `${n.type}: ${n.message}`),
    stage,
    knownDefects: matchKnownDefects(tree).map((d) => d.id),
    tree,
  };
}

describe('exception fixtures', () => {
  it('has fixtures', () => expect(cases.length).toBeGreaterThan(10));
  for (const c of cases) {
    it(c, async () => {
      const input = fs.readFileSync(path.join(FIXTURES, c, 'input.txt'), 'utf8');
      const result = analyse(input);
      expect(result, 'a golden case must parse').not.toBeNull();
      await expect(JSON.stringify(result, null, 2) + '\n').toMatchFileSnapshot(path.join(FIXTURES, c, 'expected.json'));
    });
  }
  for (const c of errorCases) {
    it(`_error_/${c}`, () => {
      const input = fs.readFileSync(path.join(FIXTURES, '_error_', c, 'input.txt'), 'utf8');
      expect(parseExceptionText(input)).toBeNull();
    });
  }
});

describe('invariants', () => {
  it('flattened trees are well formed for every fixture', () => {
    for (const c of cases) {
      const tree = parseExceptionText(fs.readFileSync(path.join(FIXTURES, c, 'input.txt'), 'utf8'))!;
      tree.nodes.forEach((n, i) => {
        expect(n.id).toBe(i);
        if (n.parentId !== null) expect(n.parentId).toBeLessThan(n.id);
        expect(n.source === 'root').toBe(n.parentId === null);
        expect(n.frames.length).toBeLessThanOrEqual(100);
      });
    }
  });

  it('caps the node count and says so', () => {
    const subs = Array.from({ length: 400 }, (_, i) => `    +---------------- ${i + 1} ----------------\n    | ValueError: v${i}`).join('\n');
    const text = `  + Exception Group Traceback (most recent call last):\n  |   File "x.py", line 1, in f\n  | ExceptionGroup: many (400 sub-exceptions)\n  +-+${subs.slice(6)}\n    +------------------------------------\n`;
    const tree = parseExceptionText(text)!;
    expect(tree.nodes.length).toBe(MAX_NODES);
    expect(tree.truncated).toBe(true);
  });

  it('unescapes JSON-escaped text only when it looks escaped', () => {
    expect(unescapeJsonText('a\\nb\\nc')).toBe('a\nb\nc');
    expect(unescapeJsonText('C:\\new\\path')).toBe('C:\\new\\path');
    expect(unescapeJsonText('{"stack":"Error: x\\n    at f (a.js:1:2)\\n    at g (b.js:3:4)"}')).toBe('Error: x\n    at f (a.js:1:2)\n    at g (b.js:3:4)');
  });

  it('stays fast on hostile lines', () => {
    const evil = [
      'A'.repeat(200_000),
      `${'x: '.repeat(50_000)}Error`,
      `  File "${'"'.repeat(50_000)}`,
      `    at ${'('.repeat(50_000)}`,
      `Error: ${' '.repeat(100_000)}x`,
      `${'|'.repeat(100_000)}`,
      `${'+-'.repeat(50_000)}`,
      `│ ${'a:1 in '.repeat(20_000)}`,
    ];
    for (const line of evil) {
      const t0 = performance.now();
      parseExceptionText(`${line}\n${line}\nTraceback (most recent call last):\n${line}\n`);
      // (a ReDoS guard on 100k characters: backtracking takes minutes; loose so a busy machine never trips it)
      expect(performance.now() - t0).toBeLessThan(5_000);
    }
  });
});

describe('known defects', () => {
  const text = fs.readFileSync(path.join(FIXTURES, 'py-3522-shape', 'input.txt'), 'utf8');
  it('recognises python-sdk 3522 from its signature and never claims a fix', () => {
    const [m] = matchKnownDefects(parseExceptionText(text)!, { sdkVersion: 'mcp 2.3.0' });
    expect(m).toMatchObject({ id: 'python-sdk-3522', link: 'https://github.com/modelcontextprotocol/python-sdk/issues/3522', confidence: 'signature+version' });
    expect(m!.notFixes.join(' ')).toMatch(/3584.*not a fix/);
    expect(m!.notFixes.join(' ')).toMatch(/not a verified fix/);
  });
  it('does not match an SDK outside the affected versions', () => {
    expect(matchKnownDefects(parseExceptionText(text)!, { sdkVersion: '1.29.0' })).toEqual([]);
  });
  it('needs supporting evidence besides the RemoteProtocolError', () => {
    const alone = `  + Exception Group Traceback (most recent call last):\n  | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)\n  +-+---------------- 1 ----------------\n    | httpx.RemoteProtocolError: Server disconnected without sending a response.\n    +------------------------------------\n`;
    const tree = parseExceptionText(alone)!;
    expect(matchKnownDefects(tree)).toEqual([]);
    expect(matchKnownDefects(tree, { laterMessages: ['Connection closed'] }).map((d) => d.id)).toEqual(['python-sdk-3522']);
    // a host's line around the exception: its words, then the type, then the message
    expect(matchKnownDefects(tree, { laterMessages: ['sync step 3/4 failed: mcp.shared.exceptions.McpError: Connection closed'] }).map((d) => d.id)).toEqual(['python-sdk-3522']);
    // near misses: another message after the type, or the words only in prose
    expect(matchKnownDefects(tree, { laterMessages: ['sync step 3/4 failed: mcp.shared.exceptions.McpError: Request timed out'] })).toEqual([]);
    expect(matchKnownDefects(tree, { laterMessages: ['retrying after Connection closed: attempt 2'] })).toEqual([]);
  });
});
