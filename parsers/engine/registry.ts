// Loads format files (built-in parsers/formats/*.json, then a user folder), validates each
// with the zod spec, compiles it, and proves it with its own samples. A broken format is
// refused at load with the file, the field and the fix — never half-used.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { FormatSpec } from '../contract/format.ts';
import { emptyEvent, type Event } from '../contract/event.ts';
import { applyFormat, compileFormat, type CompiledFormat } from './apply.ts';
import { enrich } from './enrich.ts';
import { readLine } from './line-reader.ts';
import { repoPath } from './repo.ts';

export const BUILTIN_FORMATS_DIR = repoPath('parsers/formats/');

export class FormatError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = 'FormatError';
  }
}

export function loadFormatFile(path: string): CompiledFormat {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new FormatError(path, `not valid JSON (${(e as Error).message}); fix the syntax`);
  }
  const parsed = FormatSpec.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `field "${i.path.join('.') || '(root)'}": ${i.message}`).join('; ');
    throw new FormatError(path, `${issues}. See parsers/README.md for the format file fields`);
  }
  const spec = parsed.data;
  if (basename(path, '.json') !== spec.id) throw new FormatError(path, `id "${spec.id}" must equal the file name; rename the file to ${spec.id}.json`);
  let compiled: CompiledFormat;
  try {
    compiled = compileFormat(spec, path);
  } catch (e) {
    throw new FormatError(path, `field "match.patterns" or "sourceWhen": ${(e as Error).message}; use JavaScript regex syntax with (?<name>…) captures`);
  }
  const failures = checkSamples(compiled);
  if (failures.length) throw new FormatError(path, `samples disagree with the format: ${failures.join('; ')}`);
  return compiled;
}

/** The event the engine makes of one line of this format (what parse-file does, minus folding). */
export function sampleEvent(f: CompiledFormat, line: string): Event | null {
  const parsed = applyFormat(f, line);
  if (!parsed) return null;
  const e = emptyEvent({ file: 'sample', line: 1, source: f.spec.source, format: f.spec.id, kind: 'line', text: line });
  Object.assign(e, parsed);
  if (!parsed.message) e.message = line;
  readLine(e, f, parsed, null);
  return enrich(e);
}

/** Each sample must parse, and every expected field must equal what the engine produces (format fields, then enrich). */
export function checkSamples(f: CompiledFormat): string[] {
  const out: string[] = [];
  f.spec.samples.forEach((s, i) => {
    const got = sampleEvent(f, s.line);
    if (!got) {
      out.push(`sample ${i} does not match any pattern`);
      return;
    }
    for (const [k, want] of Object.entries(s.expect)) {
      // attrs is checked key by key, like the event's fields: keys the sample does not list (facts
      // the engine found in the free text, such as direction or target) are not checked.
      if (k === 'attrs' && want && typeof want === 'object' && !Array.isArray(want)) {
        for (const [ak, av] of Object.entries(want)) {
          const have = got.attrs[ak];
          if (JSON.stringify(have) !== JSON.stringify(av)) out.push(`sample ${i} field "attrs.${ak}": expected ${JSON.stringify(av)}, got ${JSON.stringify(have)}`);
        }
        continue;
      }
      const have = (got as Record<string, unknown>)[k];
      if (JSON.stringify(have) !== JSON.stringify(want)) out.push(`sample ${i} field "${k}": expected ${JSON.stringify(want)}, got ${JSON.stringify(have)}`);
    }
  });
  return out;
}

export interface LoadOptions {
  /** Folder of user format files (MCP_TRIAGE_FORMATS); same validation as built-ins; a user id overrides a built-in one. */
  userDir?: string;
}

let cache: { key: string; formats: CompiledFormat[] } | null = null;

export function loadFormats(opts: LoadOptions = {}): CompiledFormat[] {
  // The user folder is re-read when its files change (names, sizes, mtimes), so an edit is seen.
  const key =
    opts.userDir && existsSync(opts.userDir)
      ? opts.userDir +
        '|' +
        readdirSync(opts.userDir)
          .sort()
          .map((n) => {
            const st = statSync(join(opts.userDir!, n));
            return `${n}:${st.size}:${st.mtimeMs}`;
          })
          .join(',')
      : '';
  if (cache && cache.key === key) return cache.formats;
  const byId = new Map<string, CompiledFormat>();
  for (const dir of [BUILTIN_FORMATS_DIR, opts.userDir]) {
    if (!dir || !existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      if (!name.endsWith('.json')) continue;
      const f = loadFormatFile(join(dir, name));
      byId.set(f.spec.id, f);
    }
  }
  const formats = [...byId.values()].sort((a, b) => b.spec.priority - a.spec.priority || a.spec.id.localeCompare(b.spec.id));
  cache = { key, formats };
  return formats;
}
