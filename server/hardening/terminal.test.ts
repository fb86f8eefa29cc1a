// Terminal output never carries a log's escape sequences: the timeline and the analysis table
// print hostile text inert (no CSI/OSC/DCS, C1, bidi or zero-width character survives).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../cli/main.ts';
import { renderAnalysis, terminalSafe } from '../cli/render.ts';
import { ingestIncident, openContext } from '../incidents.ts';
import { entriesFromPaths } from '../ingest/inputs.ts';
import { REPO, tempWorkspace } from '../testing/helpers.ts';

const ws = tempWorkspace();
afterAll(() => ws.cleanup());
const DANGER = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

const HOSTILE = [
  '\x1b[2J\x1b[H cleared the screen',
  '\x1b]8;;https://evil.example\x07click me\x1b]8;;\x07',
  '\x1b]52;c;ZWNobyBwd25lZA==\x07 clipboard write',
  '\x1bP+q544e\x1b\\ DCS request',
  '\x9b31m C1 CSI \x9d0;title\x07',
  'admin\u202e gnp.exe \u2066isolate\u2069 zero\u200bwidth \ufeff bom',
  'carriage\rreturn and bell\x07 and backspace\x08',
  '\x1b[' + '9;'.repeat(50_000),
];

describe('terminalSafe', () => {
  it('leaves no escape, control, bidi or zero-width character', () => {
    for (const h of HOSTILE) {
      const out = terminalSafe(h);
      expect(out, JSON.stringify(h.slice(0, 40))).not.toMatch(DANGER);
    }
    expect(terminalSafe('\x1b[31mred\x1b[0m text')).toBe('red text');
    expect(terminalSafe('\x1b]8;;https://evil.example\x07click\x1b]8;;\x07')).toBe('click');
    expect(terminalSafe('plain – ünïcode ✓\ttab')).toBe('plain – ünïcode ✓ tab');
  });

  it('is linear on bait input', () => {
    const t = performance.now();
    for (const bait of ['\x1b['.repeat(200_000), '\x1b]'.repeat(200_000), '\x1bP'.repeat(200_000), '\x9b'.repeat(400_000) + '0'.repeat(100_000)]) terminalSafe(bait);
    expect(performance.now() - t).toBeLessThan(5_000);
  });
});

describe('CLI output of hostile logs', () => {
  const log = join(ws.dir, 'hostile.log');
  writeFileSync(
    log,
    HOSTILE.slice(0, 7)
      .map((h, i) => `2026-07-28 10:00:0${i},000 ERROR mcp.client: ${h}`)
      .join('\n') + '\n',
  );

  it('timeline prints every line inert', async () => {
    const out: string[] = [];
    const io = { stdout: { write: (s: string) => out.push(s), isTTY: false }, stderr: { write: () => true }, stdin: process.stdin, cwd: ws.dir, env: ws.env } as never;
    expect(await main(['timeline', log, '--key-file', ws.keyFile], io)).toBe(0);
    const text = out.join('');
    expect(text).toContain('cleared the screen');
    expect(text).toContain('click me');
    for (const line of text.split('\n')) expect(line).not.toMatch(DANGER);
  });

  it('the analysis table prints hostile exception text, files and protocol versions inert', async () => {
    const ctx = await openContext({ env: ws.env, db: ':memory:', keyFile: ws.keyFile });
    try {
      const { analysis } = await ingestIncident(ctx, entriesFromPaths([join(REPO, 'samples', 'restart-stale-session')]), { name: 't' });
      const evil = '\x1b]52;c;cHduZWQ=\x07\x1b[2J\u202e';
      analysis.inputs[0]!.file += evil;
      analysis.protocolVersions.push(evil);
      for (const f of analysis.failures) {
        f.rationale += evil;
        f.exceptionChain.push(evil);
        if (f.rootException) f.rootException.message += evil;
        f.evidence.push({ file: evil, line: 1 });
      }
      const text = renderAnalysis(analysis, { color: false });
      for (const line of text.split('\n')) expect(line).not.toMatch(DANGER);
    } finally {
      await ctx.store.close();
    }
  });
});
