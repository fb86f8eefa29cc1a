// corpus2: the generator is deterministic, the manifest matches the logs, and the real redactor
// holds the recall and mustKeep figures it reaches on this corpus today.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DISPUTED, KINDS, b64, ibanValid, luhnValid } from './core.ts';
import { LOGS_DIR, build } from './generate.ts';
import { baselines, leakForms, measure, readManifest, type Result } from './measure.ts';

/**
 * Floors at what the measurement gives, rounded down to the nearest 5%; they only stop regressions.
 * Written blind, the corpus first measured 74.2% overall (76.5% without the disputed x-request-id kind)
 * with 44 of 358 mustKeep destroyed; after the issue #18 redaction work — done with these results in
 * view, so no longer a blind figure — 96.2% / 99.1% with none destroyed (README.md has both).
 */
const RECALL_FLOOR = 0.95;
const RECALL_UNDISPUTED_FLOOR = 0.95;
/** mustKeep values destroyed today; the test fails if more are. */
const MUSTKEEP_DESTROYED_MAX = 0;

const manifest = readManifest();
const fileLines = (name: string) => {
  const ls = readFileSync(join(LOGS_DIR, name), 'utf8').split('\n');
  ls.pop();
  return ls.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
};

describe('corpus2 generator', () => {
  it('is deterministic: regenerating gives the committed files byte for byte', () => {
    const a = build();
    const b = build();
    expect(a.files.map((f) => f.content)).toEqual(b.files.map((f) => f.content));
    for (const f of a.files) expect(readFileSync(join(LOGS_DIR, f.name), 'utf8'), f.name).toBe(f.content);
    expect(readFileSync(join(LOGS_DIR, 'manifest.json'), 'utf8')).toBe(JSON.stringify(a.manifest, null, 1) + '\n');
  });

  it('plants at least 300 values over at least 70 kinds, each kind at least 3 times', () => {
    expect(manifest.planted.length).toBeGreaterThanOrEqual(300);
    const planted = manifest.kinds.filter((k) => k.planted > 0);
    expect(planted.length).toBeGreaterThanOrEqual(70);
    for (const k of manifest.kinds) expect(k.planted, k.id).toBeGreaterThanOrEqual(3);
  });

  it('plants exactly the kinds BRIEF.md lists, in its order', () => {
    const brief = readFileSync(join(LOGS_DIR, '..', 'BRIEF.md'), 'utf8');
    const ids = [...brief.matchAll(/^\d+\. `([a-z0-9-]+)`/gm)].map((m) => m[1]);
    expect(ids).toEqual(KINDS.map((k) => k.id));
  });

  it('every planted value and every mustKeep value stands on its line of its file', () => {
    const cache = new Map<string, string[]>();
    const line = (file: string, n: number) => {
      if (!cache.has(file)) cache.set(file, fileLines(file));
      return cache.get(file)![n - 1] ?? '';
    };
    for (const f of manifest.files) expect(fileLines(f.name).length, f.name).toBe(f.lines);
    for (const p of manifest.planted) expect(line(p.file, p.line), `${p.kind} ${p.file}:${p.line}`).toContain(p.value);
    for (const k of manifest.mustKeep) expect(line(k.file, k.line), `${k.file}:${k.line}`).toContain(k.value);
  });

  it('uses real formats: cards are Luhn-valid, IBANs pass mod-97, CRLF where declared', () => {
    for (const p of manifest.planted.filter((x) => x.kind === 'credit-card')) expect(luhnValid(p.value), p.value).toBe(true);
    for (const p of manifest.planted.filter((x) => x.kind === 'iban')) expect(ibanValid(p.value), p.value).toBe(true);
    for (const f of manifest.files) expect(readFileSync(join(LOGS_DIR, f.name), 'utf8').includes('\r\n'), f.name).toBe(f.crlf);
  });
});

describe('corpus2 measurement', () => {
  it('finds a value inside a longer base64 blob, URL-encoded and JSON-escaped', () => {
    const pw = 'autumn-leaves-42';
    const found = (hay: string) => leakForms(pw).some(([form]) => hay.includes(form));
    expect(found(b64('proxyuser:' + pw))).toBe(true);
    expect(found(b64('u:' + pw))).toBe(true);
    expect(found(encodeURIComponent('a b&' + pw + '/x'))).toBe(true);
    expect(found('[REDACTED]')).toBe(false);
    expect(leakForms('abcd')).toEqual([]); // too short to measure: no form below 5 characters
    expect(leakForms('Zoë Müller').map(([, how]) => how)).toContain('json-\\u-escaped');
  });

  it('scores the baselines as expected: doing nothing leaks all, masking everything destroys every mustKeep', () => {
    const { identity, maskAll } = baselines(manifest);
    expect(identity.recall).toBe(0);
    expect(identity.mustKeep.destroyed).toBe(0);
    expect(maskAll.recall).toBe(1);
    expect(maskAll.mustKeep.destroyed).toBe(manifest.mustKeep.length);
  });

  let r: Result;
  beforeAll(() => {
    r = measure();
  }, 120_000);

  it('runs the real mcp-triage redact and reports a recall', () => {
    expect(r.planted).toBe(manifest.planted.length);
    expect(r.recall).toBeGreaterThan(0);
    expect(r.recall).toBeLessThanOrEqual(1);
    expect(r.kinds.filter((k) => !k.disputed).every((k) => !DISPUTED.has(k.kind))).toBe(true);
    console.log(
      `corpus2 recall ${(100 * r.recall).toFixed(1)}% (${(100 * r.recallUndisputed).toFixed(1)}% without disputed), mustKeep destroyed ${r.mustKeep.destroyed}/${r.mustKeep.total}`,
    );
  });

  it('keeps the line count of every file', () => {
    expect(r.lineCount.changed).toEqual([]);
  });

  it('holds its recall floors', () => {
    expect(r.recall).toBeGreaterThanOrEqual(RECALL_FLOOR);
    expect(r.recallUndisputed).toBeGreaterThanOrEqual(RECALL_UNDISPUTED_FLOOR);
  });

  it('destroys no more mustKeep values than it does today', () => {
    expect(r.mustKeep.destroyed).toBeLessThanOrEqual(MUSTKEEP_DESTROYED_MAX);
  });
});
