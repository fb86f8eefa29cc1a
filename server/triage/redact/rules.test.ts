// Every rule proves itself with its own examples (gitleaks `Validate(tps, fps)` style):
// a true positive must make the rule fire on its own; a false positive must not make it
// fire, and the whole pipeline must leave that line exactly as it was.
import { describe, expect, it } from 'vitest';
import { Editor } from './editor.ts';
import { defaultState, runPatternRules, ALL_PATTERN_RULES, JSON_PATH_RULES } from './engine.ts';
import { SecretLedger } from './ledger.ts';
import { SessionIdBook } from './session.ts';
import { redactText } from './index.ts';

const key = new Uint8Array(32).fill(1);
const fresh = () => defaultState(key, new SessionIdBook(), new SecretLedger());

describe('pattern rules carry valid examples', () => {
  const ids = new Set<string>();
  for (const rule of ALL_PATTERN_RULES) {
    it(`${rule.id} is unique and has examples`, () => {
      expect(ids.has(rule.id)).toBe(false);
      ids.add(rule.id);
      expect(rule.tps.length).toBeGreaterThan(0);
      expect(rule.fps.length).toBeGreaterThan(0);
      expect(rule.pattern.flags).toContain('g');
      expect(rule.pattern.flags).toContain('d');
    });
    for (const tp of rule.tps) {
      it(`${rule.id} fires on ${JSON.stringify(tp).slice(0, 80)}`, () => {
        const ed = new Editor(tp);
        runPatternRules(ed, [rule], fresh());
        expect(ed.remarks.map((r) => r.rule)).toContain(rule.id);
        expect(ed.text).not.toBe(tp);
      });
    }
    for (const fp of rule.fps) {
      it(`${rule.id} leaves ${JSON.stringify(fp).slice(0, 80)}`, () => {
        const ed = new Editor(fp);
        runPatternRules(ed, [rule], fresh());
        expect(ed.remarks).toEqual([]);
        expect(redactText(fp, { key }).text).toBe(fp);
      });
    }
  }
});

describe('JSON path rules carry valid examples', () => {
  for (const rule of JSON_PATH_RULES) {
    for (const tp of rule.tps) {
      it(`${rule.id} summarises ${tp.slice(0, 70)}`, () => {
        const r = redactText(tp, { key });
        expect(r.remarks.flat().map((x) => x.rule)).toContain(rule.id);
        expect(() => JSON.parse(r.text)).not.toThrow();
      });
    }
    for (const fp of rule.fps) {
      it(`${rule.id} leaves ${fp.slice(0, 70)}`, () => {
        expect(redactText(fp, { key }).text).toBe(fp);
      });
    }
  }
});
