// The redact command, called directly with fake io streams (no bin, no child process).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TriageError } from '../../errors.ts';
import redact from './redact.ts';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'redact-cli-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function io(stdin = '') {
  let out = '';
  let err = '';
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.on('data', (c) => (out += String(c)));
  stderr.on('data', (c) => (err += String(c)));
  return { io: { stdout, stderr, stdin: Readable.from([stdin]), cwd: dir, env: { MCP_TRIAGE_HOME: join(dir, 'home') } }, out: () => out, err: () => err };
}

describe('mcp-triage redact', () => {
  it('prints help', async () => {
    const t = io();
    expect(await redact.run(['--help'], t.io)).toBe(0);
    expect(t.out()).toMatch(/Usage: mcp-triage redact/);
    expect(redact.name).toBe('redact');
  });

  it('redacts one file to stdout, same line count, CRLF kept, no trailing newline added', async () => {
    writeFileSync(join(dir, 'a.log'), 'Authorization: Bearer abcdef0123456789\r\nMcp-Session-Id: 3f2a9c1e-4b5d-4e6f-8a7b-9c0d1e2f3a4b\r\nok');
    const t = io();
    expect(await redact.run(['a.log'], t.io)).toBe(0);
    expect(t.out()).toMatch(/^Authorization: Bearer \[REDACTED:bearer\]\r\nMcp-Session-Id: sess_[a-z2-7]{10}\r\nok$/);
  });

  it('reads stdin with "-" and gives stable pseudonyms across runs (workspace key)', async () => {
    const a = io('Received session ID: abc123def456\n');
    const b = io('Received session ID: abc123def456\n');
    await redact.run(['-'], a.io);
    await redact.run([], b.io);
    expect(a.out()).toMatch(/^Received session ID: sess_[a-z2-7]{10}\n$/);
    expect(a.out()).toBe(b.out());
  });

  it('several files: pass 1 across all, so a masked id in one resolves against another', async () => {
    writeFileSync(join(dir, 'server.log'), 'Created new session with ID: 3f2a9c1e-4b5d-4e6f-8a7b-9c0d1e2f3a4b\n');
    writeFileSync(join(dir, 'client.log'), 'session 3f2a9c1e**** expired\n');
    writeFileSync(join(dir, 'key'), Buffer.alloc(32, 5));
    const t = io();
    expect(await redact.run(['client.log', 'server.log', '--out-dir', 'out', '--key-file', 'key'], t.io)).toBe(0);
    const p1 = readFileSync(join(dir, 'out', 'server.log'), 'utf8').match(/sess_[a-z2-7]{10}/)![0];
    expect(readFileSync(join(dir, 'out', 'client.log'), 'utf8')).toBe(`session ${p1} expired\n`);
    expect(t.out()).toBe('');
    expect(t.err()).toMatch(/1 matched/);
  });

  it('needs --out-dir with several files, and says so', async () => {
    writeFileSync(join(dir, 'a.log'), 'x\n');
    writeFileSync(join(dir, 'b.log'), 'y\n');
    await expect(redact.run(['a.log', 'b.log'], io().io)).rejects.toMatchObject({ code: 'TRIAGE_ERR_USAGE', message: expect.stringMatching(/--out-dir/) });
  });

  it('rejects unreadable input and unknown options with TriageError', async () => {
    await expect(redact.run(['missing.log'], io().io)).rejects.toBeInstanceOf(TriageError);
    await expect(redact.run(['missing.log'], io().io)).rejects.toMatchObject({ code: 'TRIAGE_ERR_INPUT' });
    await expect(redact.run(['--bogus'], io().io)).rejects.toMatchObject({ code: 'TRIAGE_ERR_USAGE' });
  });

  it('refuses to overwrite an input via --out-dir', async () => {
    writeFileSync(join(dir, 'a.log'), 'x\n');
    writeFileSync(join(dir, 'b.log'), 'y\n');
    await expect(redact.run(['a.log', 'b.log', '--out-dir', '.'], io().io)).rejects.toMatchObject({ code: 'TRIAGE_ERR_USAGE' });
  });

  it('cuts an over-long line and never passes its remainder through', async () => {
    writeFileSync(join(dir, 'big.log'), 'a'.repeat(1024 * 1024 + 10) + 'SECRETTAIL\nnext\n');
    const t = io();
    await redact.run(['big.log'], t.io);
    const lines = t.out().split('\n');
    expect(lines.length).toBe(3);
    expect(t.out()).not.toContain('SECRETTAIL');
    expect(lines[0]).toMatch(/\[REDACTED:line-truncated 20 chars\]$/);
  });

  // Issue #18: redact used to dump binary input to the terminal.
  it('refuses binary input (an image, an executable, a .gz) before writing anything', async () => {
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 0x17)]);
    writeFileSync(join(dir, 'shot.png'), png);
    writeFileSync(join(dir, 'node.log'), readFileSync(process.execPath).subarray(0, 2048));
    writeFileSync(join(dir, 'ok.log'), 'Authorization: Bearer abcdef0123456789\n');
    for (const [name, what] of [
      ['shot.png', /PNG image/],
      ['node.log', /ELF executable/],
    ] as const) {
      const t = io();
      await expect(redact.run([name], t.io)).rejects.toMatchObject({
        code: 'TRIAGE_ERR_UNSUPPORTED_MEDIA',
        message: expect.stringMatching(new RegExp(`^${name.replace('.', '\\.')} is not text: `)),
      });
      await expect(redact.run([name], io().io)).rejects.toMatchObject({ message: expect.stringMatching(what) });
      expect(t.out()).toBe('');
    }
    // Several files: one binary refuses them all, and nothing is written to --out-dir.
    const t = io();
    await expect(redact.run(['ok.log', 'shot.png', '--out-dir', 'out'], t.io)).rejects.toMatchObject({
      code: 'TRIAGE_ERR_UNSUPPORTED_MEDIA',
      message: expect.stringMatching(/shot\.png/),
    });
    expect(() => readFileSync(join(dir, 'out', 'ok.log'))).toThrow();
    // The text file alone is still redacted.
    const ok = io();
    expect(await redact.run(['ok.log'], ok.io)).toBe(0);
    expect(ok.out()).toMatch(/^Authorization: Bearer \[REDACTED/);
  });

  it('refuses binary on stdin, and passes text on stdin through whole', async () => {
    const bin = io();
    bin.io.stdin = Readable.from([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0])]);
    await expect(redact.run(['-'], bin.io)).rejects.toMatchObject({
      code: 'TRIAGE_ERR_UNSUPPORTED_MEDIA',
      message: expect.stringMatching(/^stdin is not text: an ELF executable/),
    });
    expect(bin.out()).toBe('');
    // Text longer than the sniffed head, in many chunks: every line comes out, in order.
    const lines = Array.from({ length: 5000 }, (_, i) => `2026-11-29 10:00:00,000 INFO line ${i} of a long stream`);
    const txt = io();
    txt.io.stdin = Readable.from(lines.map((l) => l + '\n'));
    expect(await redact.run(['-'], txt.io)).toBe(0);
    expect(txt.out().split('\n').slice(0, -1)).toEqual(lines);
  });
});
