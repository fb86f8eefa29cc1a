// Where pass 2 cuts a file (chunks.ts Splitter): from its bytes alone, however they were read,
// never inside a traceback, a PEM block or after a HAR "name" line, and at any line once a chunk
// has grown to 8× its size without a good boundary.
import { describe, expect, it } from 'vitest';
import { Splitter } from './chunks.ts';

const plan = { prefix: null, layout: { numberLines: false, doubledBlank: false } };

function cut(bytes: Buffer, piece: number, target: number): Buffer[] {
  const s = new Splitter(plan, target);
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += piece) out.push(...s.push(bytes.subarray(i, i + piece)));
  out.push(...s.end());
  return out.map((b) => Buffer.from(b));
}

const log = (n: number) => {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    lines.push(`2026-03-14T09:26:${String(i % 60).padStart(2, '0')}.000Z INFO request ${i} done`);
    if (i % 17 === 0) lines.push('Traceback (most recent call last):', '  File "app.py", line 3, in <module>', '    main()', 'ValueError: boom');
    if (i % 29 === 0)
      lines.push('-----BEGIN RSA PRIVATE KEY-----', 'MIIEowIBAAKCAQEA7bq0yX1c2m3n4b5v6c7x8z9a', 'q0w9e8r7t6y5u4i3o2p1a0s9d8f7g6h5j4k3l2', '-----END RSA PRIVATE KEY-----');
    if (i % 31 === 0) lines.push('  "name": "authorization",', '  "value": "Bearer abc.def.ghi"');
  }
  return Buffer.from(lines.join('\n') + '\n');
};

describe('Splitter', () => {
  const bytes = log(3000);

  it('cuts the same chunks however the bytes arrive, and loses none', () => {
    const ref = cut(bytes, bytes.length, 2048);
    expect(ref.length).toBeGreaterThan(20);
    expect(Buffer.concat(ref).equals(bytes)).toBe(true);
    for (const piece of [1, 7, 100, 4096, 65536]) expect(cut(bytes, piece, 2048), `pieces of ${piece}`).toEqual(ref);
  });

  it('starts every chunk at a line that is no continuation, outside PEM blocks, not after a name line', () => {
    const chunks = cut(bytes, 333, 2048);
    let before = '';
    for (const c of chunks) {
      const text = c.toString('utf8');
      if (before) {
        const prev = before.slice(before.lastIndexOf('\n', before.length - 2) + 1, -1);
        expect(text).toMatch(/^(?:\d{4}-|-----BEGIN)/); // a log line, or a PEM block's own first line
        expect(prev).not.toMatch(/"name"/);
        expect(before.lastIndexOf('-----BEGIN')).toBeLessThanOrEqual(before.lastIndexOf('-----END'));
      }
      expect(text.endsWith('\n')).toBe(true);
      before = text;
    }
  });

  it('cuts at any line once a chunk reaches 8× its size with no good boundary', () => {
    const indented = Buffer.from(Array.from({ length: 2000 }, (_, i) => `    at frame${i} (app.js:${i}:1)`).join('\n') + '\n');
    const chunks = cut(indented, 512, 1024);
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks.slice(0, -1)) expect(c.length).toBeGreaterThanOrEqual(8 * 1024);
    expect(Buffer.concat(chunks).equals(indented)).toBe(true);
  });

  it('keeps a file with no newline, or an empty one, as one chunk', () => {
    expect(cut(Buffer.from('no newline at all'), 4, 2)).toEqual([Buffer.from('no newline at all')]);
    expect(cut(Buffer.alloc(0), 4, 2)).toEqual([Buffer.alloc(0)]);
  });
});
