// corpus2 measurement: runs the real `mcp-triage redact` CLI over logs/ and scores it against
// logs/manifest.json.
//
//   npx tsx server/triage/redact/corpus2/measure.ts [--json] [--leaks] [--keep-out DIR]
//
// A plant has leaked when the redacted file's line at the plant's line number still holds the
// value, raw or in an obvious encoding (URL-encoded, form-encoded, URL-decoded, JSON-escaped once or
// twice, \uXXXX-escaped, base64/base64url at any byte alignment). The redactor promises line for
// line output; if a file's line count changes, its plants are searched in the whole file instead
// and the file is reported.
// A mustKeep value is destroyed when its line holds it fewer times than it was marked there.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { DISPUTED, KINDS, type Group, type Manifest, type Plant } from './core.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
export const LOGS = join(HERE, 'logs');
const REPO = resolve(HERE, '../../../..');
const BIN = join(REPO, 'server/cli/bin.mjs');

export type Leak = Plant & { how: string };
export type KindResult = { kind: string; group: Group; disputed: boolean; planted: number; leaked: number; recall: number };
export type Result = {
  files: number;
  planted: number;
  leaked: number;
  recall: number;
  /** recall without the disputed kinds (x-request-id) */
  recallUndisputed: number;
  /** mean of the per-kind recalls, disputed kinds left out: every kind weighs the same */
  recallPerKindMean: number;
  kinds: KindResult[];
  perFile: Array<{ file: string; planted: number; leaked: number }>;
  lineCount: { changed: Array<{ file: string; before: number; after: number | null }> };
  mustKeep: { total: number; destroyed: number; items: Array<{ file: string; line: number; value: string }> };
  leaks: Leak[];
};

/** The value and its obvious encodings, each with a name. Forms shorter than 5 characters are dropped. */
export function leakForms(v: string): Array<[form: string, how: string]> {
  const forms = new Map<string, string>();
  const add = (f: string, how: string, min = 5) => {
    if (f.length >= min && !forms.has(f)) forms.set(f, how);
  };
  add(v, 'raw');
  add(encodeURIComponent(v), 'url-encoded');
  add(encodeURIComponent(v).replace(/%20/g, '+'), 'form-encoded');
  try {
    add(decodeURIComponent(v), 'url-decoded');
  } catch {
    /* not percent-encoded */
  }
  const j = JSON.stringify(v).slice(1, -1);
  add(j, 'json-escaped');
  add(JSON.stringify(j).slice(1, -1), 'json-escaped-twice');
  add(
    v.replace(/[^\x20-\x7e]/g, (ch) => '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0')),
    'json-\\u-escaped',
  );
  // base64 of the value inside a longer blob: the characters that depend on the value only, at each
  // of the three byte alignments
  const buf = Buffer.from(v);
  for (const o of [0, 1, 2]) {
    const enc = Buffer.concat([Buffer.alloc(o), buf]).toString('base64');
    const start = [0, 2, 3][o]!;
    const end = Math.floor((o + buf.length) / 3) * 4;
    const core = enc.slice(start, end);
    add(core, 'base64', 8);
    add(core.replace(/\+/g, '-').replace(/\//g, '_'), 'base64url', 8);
  }
  return [...forms];
}

const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;

const lines = (text: string) => {
  const ls = text.split('\n');
  if (ls.at(-1) === '') ls.pop();
  return ls.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
};

/** Score outputs (file name → redacted text, or null when missing) against the manifest. */
export function score(manifest: Manifest, output: (file: string) => string | null): Result {
  const leaks: Leak[] = [];
  const changed: Result['lineCount']['changed'] = [];
  const destroyed: Result['mustKeep']['items'] = [];
  const outLines = new Map<string, string[] | null>();
  for (const f of manifest.files) {
    const text = output(f.name);
    if (text === null) {
      changed.push({ file: f.name, before: f.lines, after: null });
      outLines.set(f.name, null);
      continue;
    }
    const ls = lines(text);
    if (ls.length !== f.lines) changed.push({ file: f.name, before: f.lines, after: ls.length });
    outLines.set(f.name, ls);
  }
  const aligned = (file: string) => !changed.some((c) => c.file === file);
  const where = (file: string, line: number): string => {
    const ls = outLines.get(file);
    if (!ls) return '';
    return aligned(file) ? (ls[line - 1] ?? '') : ls.join('\n');
  };
  for (const p of manifest.planted) {
    const hay = where(p.file, p.line);
    const hit = leakForms(p.value).find(([form]) => hay.includes(form));
    if (hit) leaks.push({ ...p, how: hit[1] });
  }
  // a line must still hold each mustKeep value as many times as it was marked there
  const need = new Map<string, typeof manifest.mustKeep>();
  for (const kp of manifest.mustKeep) {
    const key = `${kp.file}\u0000${kp.line}\u0000${kp.value}`;
    need.set(key, [...(need.get(key) ?? []), kp]);
  }
  for (const kps of need.values()) {
    const { file, line, value } = kps[0]!;
    const found = where(file, line).split(value).length - 1;
    destroyed.push(...kps.slice(Math.min(found, kps.length)));
  }

  const kinds: KindResult[] = KINDS.map((k) => {
    const planted = manifest.planted.filter((p) => p.kind === k.id).length;
    const leaked = leaks.filter((l) => l.kind === k.id).length;
    return { kind: k.id, group: k.group, disputed: DISPUTED.has(k.id), planted, leaked, recall: planted ? (planted - leaked) / planted : 1 };
  });
  const und = manifest.planted.filter((p) => !DISPUTED.has(p.kind));
  const undLeaked = leaks.filter((l) => !DISPUTED.has(l.kind)).length;
  return {
    files: manifest.files.length,
    planted: manifest.planted.length,
    leaked: leaks.length,
    recall: (manifest.planted.length - leaks.length) / manifest.planted.length,
    recallUndisputed: (und.length - undLeaked) / und.length,
    recallPerKindMean: mean(kinds.filter((k) => !k.disputed && k.planted).map((k) => k.recall)),
    kinds,
    perFile: manifest.files.map((f) => ({
      file: f.name,
      planted: manifest.planted.filter((p) => p.file === f.name).length,
      leaked: leaks.filter((l) => l.file === f.name).length,
    })),
    lineCount: { changed },
    mustKeep: { total: manifest.mustKeep.length, destroyed: destroyed.length, items: destroyed },
    leaks,
  };
}

export function readManifest(dir = LOGS): Manifest {
  return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
}

/** Run the real CLI over every log in one call; returns the output directory. */
export function runRedact(logsDir: string, outDir: string, manifest: Manifest, keyFile: string): void {
  mkdirSync(outDir, { recursive: true });
  // a fixed key, so the pseudonyms (and any chance match against them) are the same on every run,
  // and the workspace key is not touched
  writeFileSync(keyFile, createHash('sha256').update('corpus2 measurement key').digest('hex') + '\n');
  const files = manifest.files.map((f) => join(logsDir, f.name));
  const res = spawnSync(process.execPath, [BIN, 'redact', '--key-file', keyFile, '--out-dir', outDir, ...files], { cwd: REPO, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (res.status !== 0) throw new Error(`mcp-triage redact exited ${res.status}: ${res.stderr || res.stdout}`);
}

export function measure(opts: { logsDir?: string; keepOut?: string } = {}): Result {
  const logsDir = opts.logsDir ?? LOGS;
  const manifest = readManifest(logsDir);
  const tmp = mkdtempSync(join(tmpdir(), 'corpus2-'));
  const outDir = opts.keepOut ? resolve(opts.keepOut) : join(tmp, 'out');
  try {
    runRedact(logsDir, outDir, manifest, join(tmp, 'corpus2.key'));
    return score(manifest, (f) => (existsSync(join(outDir, f)) ? readFileSync(join(outDir, f), 'utf8') : null));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Sanity baselines: a redactor that does nothing, and one that masks every line. */
export function baselines(manifest: Manifest, logsDir = LOGS) {
  const identity = score(manifest, (f) => readFileSync(join(logsDir, f), 'utf8'));
  const maskAll = score(manifest, (f) => readFileSync(join(logsDir, f), 'utf8').replace(/[^\r\n]+/g, '[REDACTED]'));
  return { identity, maskAll };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

export function render(r: Result, opts: { leaks?: boolean } = {}): string {
  const out: string[] = [];
  out.push(`corpus2: ${r.planted} planted values in ${r.kinds.filter((k) => k.planted).length} kinds over ${r.files} files`);
  out.push('');
  out.push(`${'kind'.padEnd(28)} ${'group'.padEnd(9)} ${'planted'.padStart(7)} ${'leaked'.padStart(6)} ${'recall'.padStart(7)}`);
  for (const k of r.kinds)
    out.push(
      `${(k.kind + (k.disputed ? ' *' : '')).padEnd(28)} ${k.group.padEnd(9)} ${String(k.planted).padStart(7)} ${String(k.leaked).padStart(6)} ${pct(k.recall).padStart(7)}`,
    );
  out.push('* disputed: issue #18 lists it, redaction.md §8 keeps it for correlation; left out of the headline');
  out.push('');
  const groups = [...new Set(r.kinds.map((k) => k.group))];
  out.push(
    'per group: ' +
      groups
        .map((g) => {
          const ks = r.kinds.filter((k) => k.group === g && !k.disputed);
          const p = ks.reduce((a, k) => a + k.planted, 0);
          const l = ks.reduce((a, k) => a + k.leaked, 0);
          return `${g} ${pct((p - l) / p)}`;
        })
        .join(', '),
  );
  const worst = r.kinds
    .filter((k) => k.leaked)
    .sort((a, b) => a.recall - b.recall || b.leaked - a.leaked)
    .slice(0, 15);
  out.push('worst kinds: ' + (worst.length ? worst.map((k) => `${k.kind} ${pct(k.recall)} (${k.leaked}/${k.planted} leaked)`).join(', ') : 'none'));
  out.push('per file (leaked/planted): ' + r.perFile.map((f) => `${f.file} ${f.leaked}/${f.planted}`).join(', '));
  out.push('');
  out.push(
    `line counts: ${r.lineCount.changed.length ? r.lineCount.changed.map((c) => `${c.file} ${c.before} → ${c.after ?? 'missing'}`).join(', ') : `unchanged in all ${r.files} files`}`,
  );
  out.push(
    `mustKeep: ${r.mustKeep.total - r.mustKeep.destroyed}/${r.mustKeep.total} kept, ${r.mustKeep.destroyed} destroyed${r.mustKeep.items.length ? ': ' + r.mustKeep.items.map((i) => `${i.file}:${i.line} ${JSON.stringify(i.value)}`).join(', ') : ''}`,
  );
  out.push(
    `recall: ${pct(r.recall)} overall (${r.planted - r.leaked}/${r.planted}); ${pct(r.recallUndisputed)} without disputed kinds; ${pct(r.recallPerKindMean)} mean per kind; ${r.kinds.filter((k) => !k.leaked).length}/${r.kinds.length} kinds with no leak`,
  );
  if (opts.leaks) {
    out.push('');
    out.push('leaks:');
    for (const l of r.leaks) out.push(`  ${l.file}:${l.line} ${l.kind} (${l.how}) ${l.value}`);
  }
  return out.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const ko = args.indexOf('--keep-out');
  const r = measure({ keepOut: ko >= 0 ? args[ko + 1] : undefined });
  if (args.includes('--json')) {
    console.log(JSON.stringify(r, null, 1));
  } else {
    console.log(render(r, { leaks: args.includes('--leaks') }));
    const b = baselines(readManifest());
    console.log(
      `sanity: identity → recall ${pct(b.identity.recall)}, mustKeep destroyed ${b.identity.mustKeep.destroyed}; mask-all → recall ${pct(b.maskAll.recall)}, mustKeep destroyed ${b.maskAll.mustKeep.destroyed}/${b.maskAll.mustKeep.total}`,
    );
  }
}
