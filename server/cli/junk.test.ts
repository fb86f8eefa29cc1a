// Issue #18 through the real command line (bin, subprocess): input that is not a log is named on
// stderr, never diagnosed; when nothing usable is left, exit 1 with one line and nothing on stdout.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { Analysis } from '../contract/analysis.ts';
import { REPO, tempWorkspace } from '../testing/helpers.ts';

const run = promisify(execFile);
const ws = tempWorkspace();
afterAll(() => ws.cleanup());

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [join(REPO, 'server/cli/bin.mjs'), ...args, '--key-file', ws.keyFile], { cwd: ws.dir, env: ws.env, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

const SAMPLE = join(REPO, 'samples/restart-stale-session');
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(200, 0x11)]);
const LOG_LINES = '2026-11-29 10:00:00,000 ERROR mcp.client: connection refused\n'.repeat(50);
const damagedGz = (() => {
  const gz = gzipSync(Buffer.from(LOG_LINES));
  gz.fill(0xaa, 20, 60);
  return gz;
})();
/** Bytes that are not text, the same on every run. */
const noise = Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 131 + 7) & 0xff));

const junk: [string, string | Buffer, RegExp][] = [
  ['empty.log', '', /^mcp-triage: nothing to analyse: empty\.log: empty file \(0 bytes\)$/],
  ['random.bin', noise, /^mcp-triage: nothing to analyse: random\.bin: binary data \(\d+% of its first \d+ KiB is not text/],
  ['node', readFileSync(process.execPath).subarray(0, 8192), /^mcp-triage: nothing to analyse: node: an ELF executable or library$/],
  ['shot.png', PNG, /^mcp-triage: nothing to analyse: shot\.png: a PNG image$/],
  ['trace.log.gz', damagedGz, /^mcp-triage: nothing to analyse: trace\.log: damaged compressed data/],
  ['README.md', readFileSync(join(SAMPLE, 'README.md')), /^mcp-triage: nothing to analyse: README\.md: a Markdown document/],
  ['analysis.json', readFileSync(join(SAMPLE, 'expected.analysis.json')), /^mcp-triage: nothing to analyse: analysis\.json: an mcp-triage analysis document/],
];

describe('analyze and report refuse input with no log in it: exit 1, one line, nothing on stdout', () => {
  for (const [name, data, line] of junk) {
    it(name, async () => {
      const p = join(ws.dir, name);
      writeFileSync(p, data);
      // report shares the ingest with analyze: two kinds are enough to hold it to the same answer.
      for (const cmd of name === 'shot.png' || name === 'README.md' ? ['analyze', 'report'] : ['analyze']) {
        const r = await cli(cmd, p);
        expect(r.code, `${cmd}: ${r.stderr}`).toBe(1);
        expect(r.stdout, cmd).toBe('');
        const lines = r.stderr.trim().split('\n');
        expect(lines, cmd).toHaveLength(1);
        expect(lines[0]).toMatch(line);
        expect(r.stderr).not.toMatch(/nothing failed|no_action/);
      }
    });
  }
});

describe('a mixed folder: the logs are analysed, every other file is named on stderr and in --json', () => {
  const dir = join(ws.dir, 'mixed');
  mkdirSync(dir, { recursive: true });
  for (const f of ['client.log', 'server.log', 'nginx-access.log', 'expected.analysis.json']) copyFileSync(join(SAMPLE, f), join(dir, f));
  writeFileSync(join(dir, 'empty.log'), '');
  writeFileSync(join(dir, 'core.log'), readFileSync(process.execPath).subarray(0, 8192));
  writeFileSync(join(dir, 'old.log.gz'), damagedGz);
  writeFileSync(
    join(dir, 'notes.txt'),
    [
      'These logs were collected on Tuesday afternoon, after the assistant stopped answering.',
      'The client was restarted twice before the problem went away, and nobody changed the proxy.',
      'We believe the server was redeployed during the afternoon, but nobody wrote down the time.',
      'The gateway team keeps its own logs for a week, so ask them if anything else is needed.',
      'Thanks for looking into this; the other files in this folder come straight from the hosts.',
    ].join('\n'),
  );
  const shot = join(ws.dir, 'screenshot.png');
  writeFileSync(shot, PNG);
  // Names as in inputs[]: relative to the folder given, the basename of a file given.
  const expected: Record<string, string> = {
    'core.log': 'binary',
    'empty.log': 'empty',
    'expected.analysis.json': 'not-a-log',
    'notes.txt': 'not-a-log',
    'old.log': 'damaged',
    'screenshot.png': 'binary',
  };

  it('analyze --json', async () => {
    const r = await cli('analyze', dir, shot, '--json');
    expect(r.code, r.stderr).toBe(0);
    const a = Analysis.parse(JSON.parse(r.stdout));
    // The same decision as the sample's logs alone.
    const alone = Analysis.parse(JSON.parse((await cli('analyze', join(SAMPLE, 'client.log'), join(SAMPLE, 'server.log'), join(SAMPLE, 'nginx-access.log'), '--json')).stdout));
    expect(a.decision).toBe(alone.decision);
    expect(a.decision).toBe('reinitialize');
    const inputs = a.inputs.map((i) => i.file).sort();
    expect(inputs).toEqual(['client.log', 'nginx-access.log', 'server.log']);
    expect(Object.fromEntries((a.skipped ?? []).map((s) => [s.file, s.reason]))).toEqual(expected);
    for (const s of a.skipped!) expect(r.stderr).toContain(`skipped ${s.file}: ${s.detail}\n`);
  });

  it('analyze (human) and report: exit 0, the skipped files on stderr, the answer on stdout', async () => {
    const human = await cli('analyze', dir);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/Decision: reinitialize/);
    expect(human.stdout).toMatch(/not read \(5, not logs\):/);
    expect(human.stderr.match(/^skipped /gm)).toHaveLength(5);
    const report = await cli('report', dir);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toMatch(/^## MCP connection failure: reinitialize/);
    expect(report.stderr.match(/^skipped /gm)).toHaveLength(5);
  });
});

describe('redact refuses binary input', () => {
  it('exit 1, one line naming the file, nothing on stdout', async () => {
    const p = join(ws.dir, 'photo.png');
    writeFileSync(p, PNG);
    const r = await cli('redact', p);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^mcp-triage: .*photo\.png is not text: a PNG image; redact reads plain-text logs$/)]);
  });
});

describe('text that screens as a log but holds no MCP traffic', () => {
  // a services table: lines with ports and words, no time, level, request, session or error
  const table = Array.from({ length: 40 }, (_, i) => `svc${i}\t${1000 + i}/tcp\t\t# service number ${i} error-free`).join('\n') + '\n';
  const plain = 'deploy finished for build 4411\ncache warmed: 312 keys\n'.repeat(20);
  for (const [name, text] of [
    ['services.txt', table],
    ['deploy.log', plain],
  ] as const) {
    it(`${name}: no_action says nothing was recognised, not that nothing failed`, async () => {
      const p = join(ws.dir, name);
      writeFileSync(p, text);
      const json = await cli('analyze', p, '--json');
      if (json.code === 1) {
        // the screen may refuse it outright: that is an honest answer too
        expect(json.stderr).toMatch(/nothing to analyse/);
        return;
      }
      const a = Analysis.parse(JSON.parse(json.stdout));
      expect(a.decision).toBe('no_action');
      expect(a.failures).toEqual([]);
      expect(a.seen).toEqual({ requests: 0, exchanges: 0, sessions: 0, errors: 0 });
      const human = await cli('analyze', p);
      expect(human.stdout.replace(/\s+/g, ' ')).toMatch(/No MCP traffic recognised/);
      expect(human.stdout).not.toMatch(/No failing request found/);
      // the headline line too: not the decision's usual "nothing failed"
      expect(human.stdout.split('\n')[0]).toMatch(/^Decision: no_action — Nothing to decide/);
    });
  }

  it('a healthy sample says how much it read', async () => {
    const human = await cli('analyze', join(REPO, 'samples/healthy-control'));
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout.replace(/\s+/g, ' ')).toMatch(/No failing request found: read \d+ request line\(s\), \d+ HTTP exchange line\(s\) and \d+ session\(s\); none failed\./);
  });
});
