// Every format file loads, validates and passes its own samples; broken ones are refused with the file and field.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFormatFile, loadFormats, FormatError, BUILTIN_FORMATS_DIR } from './registry.ts';
import { readdirSync } from 'node:fs';

describe('built-in formats', () => {
  for (const name of readdirSync(BUILTIN_FORMATS_DIR).filter((n) => n.endsWith('.json'))) {
    it(`${name} loads and its samples pass`, () => {
      const f = loadFormatFile(join(BUILTIN_FORMATS_DIR, name));
      expect(f.spec.samples.length).toBeGreaterThan(0);
    });
  }
  it('loads them all with distinct ids', () => {
    const ids = loadFormats().map((f) => f.spec.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('refusals', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fmt-'));
  const write = (name: string, body: unknown) => {
    const p = join(dir, name);
    writeFileSync(p, typeof body === 'string' ? body : JSON.stringify(body));
    return p;
  };
  const base = {
    id: 'x',
    title: 'x',
    source: 'proxy',
    match: { kind: 'regex', patterns: ['^(?<msg>a.*)$'] },
    fields: { message: 'msg' },
    samples: [{ line: 'abc', expect: { message: 'abc' } }],
  };
  it('refuses bad JSON naming the file', () => {
    expect(() => loadFormatFile(write('x.json', '{'))).toThrow(/x\.json: not valid JSON/);
  });
  it('refuses a missing sample, naming the field', () => {
    expect(() => loadFormatFile(write('x.json', { ...base, samples: [] }))).toThrow(/field "samples"/);
  });
  it('refuses a sample that disagrees', () => {
    expect(() => loadFormatFile(write('x.json', { ...base, samples: [{ line: 'abc', expect: { message: 'abd' } }] }))).toThrow(FormatError);
  });
  it('refuses an id that differs from the file name', () => {
    expect(() => loadFormatFile(write('y.json', base))).toThrow(/must equal the file name/);
  });
  it('refuses an invalid regex', () => {
    expect(() => loadFormatFile(write('x.json', { ...base, match: { kind: 'regex', patterns: ['(?<msg>'] } }))).toThrow(/match\.patterns/);
  });
  it('refuses an unknown field name', () => {
    expect(() => loadFormatFile(write('x.json', { ...base, fields: { nope: 'msg' } }))).toThrow(/fields/);
  });
});
