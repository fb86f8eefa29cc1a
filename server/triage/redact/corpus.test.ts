// The corpus gate (redaction.md §4): run `mcp-triage redact` over the planted-secrets corpus
// and check zero leaks (also in obvious encodings), every must-keep kept, line counts equal,
// and one pseudonym per session group (the ambiguous masked id joining none).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactCommand } from '../../cli/commands/redact.ts';
import { pseudonym, sessionPseudonym } from './pseudonym.ts';
import { verifyRedacted } from './verify.ts';

interface Manifest {
  secrets: Array<{ value: string; kind: string; file: string }>;
  mustKeep: string[];
  outputMustContain: string[];
  sessionGroups: Array<{ name: string; raw: string | null; spellings: string[]; masked: string[]; candidates?: string[]; files: string[]; expect: string }>;
}

const CORPUS = join(import.meta.dirname, 'corpus');
const manifest = JSON.parse(readFileSync(join(CORPUS, 'manifest.json'), 'utf8')) as Manifest;
const names = readdirSync(join(CORPUS, 'logs')).sort();
const key = Buffer.alloc(32, 9);
let dir = '';
const out = new Map<string, string>();
let stderr = '';
let ms = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'redact-corpus-'));
  writeFileSync(join(dir, 'key'), key, { mode: 0o600 });
  const io = { stdout: new PassThrough(), stderr: new PassThrough(), stdin: Readable.from([]), cwd: CORPUS, env: { MCP_TRIAGE_HOME: join(dir, 'home') } };
  io.stderr.on('data', (c) => (stderr += String(c)));
  const t0 = performance.now();
  const code = await redactCommand.run([...names.map((n) => join('logs', n)), '--out-dir', join(dir, 'out'), '--key-file', join(dir, 'key')], io);
  ms = performance.now() - t0;
  expect(code).toBe(0);
  for (const n of names) out.set(n, readFileSync(join(dir, 'out', n), 'utf8'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const encodings = (v: string) => {
  const e = new Set([v, encodeURIComponent(v), JSON.stringify(v).slice(1, -1), JSON.stringify(JSON.stringify(v)).slice(2, -2)]);
  if (v.length >= 12) e.add(Buffer.from(v).toString('base64').replace(/=+$/, '').slice(0, -2));
  return [...e].filter((x) => x.length >= 6);
};

describe('planted-secrets corpus', () => {
  it('has the promised size', () => {
    expect(manifest.secrets.length).toBeGreaterThanOrEqual(300);
    expect(new Set(manifest.secrets.map((s) => s.kind)).size).toBeGreaterThanOrEqual(70);
    expect(manifest.mustKeep.length).toBeGreaterThanOrEqual(100);
  });

  it('leaks no secret, in any obvious encoding, in any output file', () => {
    const all = [...out.values()].join('\n');
    const leaks = manifest.secrets.flatMap((s) =>
      encodings(s.value)
        .filter((e) => all.includes(e))
        .map((e) => `${s.kind} (${s.file}): ${e.slice(0, 24)}…`),
    );
    expect(leaks).toEqual([]);
  });

  it('keeps every must-keep string', () => {
    const all = [...out.values()].join('\n');
    expect(manifest.mustKeep.filter((k) => !all.includes(k))).toEqual([]);
    expect(manifest.outputMustContain.filter((k) => !all.includes(k))).toEqual([]);
  });

  it('keeps line counts and CRLF line endings', () => {
    for (const n of names) {
      const input = readFileSync(join(CORPUS, 'logs', n), 'utf8');
      expect(out.get(n)!.split('\n').length, n).toBe(input.split('\n').length);
      expect(out.get(n)!.split('\r\n').length, n).toBe(input.split('\r\n').length);
    }
  });

  it('keeps JSON lines parseable', () => {
    for (const l of out.get('server-node.jsonl')!.trim().split('\n')) expect(() => JSON.parse(l), l).not.toThrow();
    expect(() => JSON.parse(out.get('session.har')!)).not.toThrow();
  });

  it('gives each session group one pseudonym, across files and spellings', () => {
    for (const g of manifest.sessionGroups.filter((x) => x.expect === 'one-pseudonym')) {
      const p = sessionPseudonym(key, g.raw!);
      for (const n of names) {
        const inLines = readFileSync(join(CORPUS, 'logs', n), 'utf8').split('\n');
        const outLines = out.get(n)!.split('\n');
        inLines.forEach((l, i) => {
          if ([...g.spellings, ...g.masked].some((s) => l.includes(s))) expect(outLines[i], `${g.name} ${n}:${i + 1}`).toContain(p);
        });
      }
      const all = [...out.values()].join('\n');
      for (const s of g.spellings) expect(all).not.toContain(s);
    }
  });

  it('joins the ambiguous masked id to none of its candidates, and gives unresolved masks their own pseudonym', () => {
    for (const g of manifest.sessionGroups.filter((x) => x.expect !== 'one-pseudonym')) {
      for (const n of g.files) {
        const inLines = readFileSync(join(CORPUS, 'logs', n), 'utf8').split('\n');
        const outLines = out.get(n)!.split('\n');
        inLines.forEach((l, i) => {
          if (!g.masked.some((m) => l.includes(m))) return;
          const got = outLines[i]!.match(/sess_[a-z2-7]{10,}/g) ?? [];
          expect(got.length, `${g.name} ${n}:${i + 1}`).toBe(1);
          for (const c of g.candidates ?? []) expect(got[0]).not.toBe(sessionPseudonym(key, c));
          expect(got[0]).toBe(pseudonym(key, 'masked-session', 'prefix:' + g.masked[0]!.replace(/\*+$/, '')));
          expect(outLines[i]).not.toContain(g.masked[0]!);
        });
      }
    }
    expect(stderr).toMatch(/ambiguous/);
  });

  it('passes its own verifier (fail-closed scan finds nothing in the output)', () => {
    const raw = [...manifest.secrets.map((s) => s.value), ...manifest.sessionGroups.flatMap((g) => g.spellings)];
    const bad: string[] = [];
    for (const [n, text] of out) {
      const r = verifyRedacted(text, { rawValues: raw });
      for (const h of r.hits) bad.push(`${n}: ${h.rule} @${h.index} ${JSON.stringify(text.slice(h.index, h.index + 40))}`);
    }
    expect(bad).toEqual([]);
  });

  it('the verifier refuses every planted raw secret (each occurrence in the raw logs is a hit)', () => {
    const missed: string[] = [];
    for (const n of names) {
      const raw = readFileSync(join(CORPUS, 'logs', n), 'utf8');
      const hits = verifyRedacted(raw, { rawValues: [] }).hits;
      for (const s of manifest.secrets.filter((x) => x.file === n)) {
        for (let i = raw.indexOf(s.value); i !== -1; i = raw.indexOf(s.value, i + 1)) {
          const e = i + s.value.length;
          if (!hits.some((h) => h.index < e && h.index + Math.max(1, h.length) > i)) missed.push(`${s.kind} (${n}@${i})`);
        }
      }
    }
    expect(missed).toEqual([]);
  });

  it('runs in bounded time', () => {
    expect(ms).toBeLessThan(20_000);
  });
});
