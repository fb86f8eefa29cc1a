// `npx tsx server/bench/native-rules.ts DIR`: what the redaction rules would cost in native code.
// Every line of DIR's files is staged in an in-memory DuckDB table (memory only, never a file),
// then each pattern rule's regex runs over it in RE2 on every core, behind the rule's own
// prefilters (keywords, requires, minLength), and once more as one combined alternation. Only
// matching is timed, no replacing, validating, JSON walking or decoding: a lower bound for a
// native redactor. RE2 lacks look-around and repeats past 1000, so lookbehinds become consumed
// groups, lookaheads are dropped and long repeats capped: the cost is comparable, the matches
// are not (hit counts are printed only to show the rules ran).
import { DuckDBInstance } from '@duckdb/node-api';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { CONTEXT_RULES } from '../triage/redact/rules/context.ts';
import { FORMAT_RULES } from '../triage/redact/rules/formats.ts';
import { PII_RULES } from '../triage/redact/rules/pii.ts';

const dir = process.argv[2];
if (!dir || dir === '--help') {
  process.stderr.write('usage: native-rules.ts DIR   (time the redaction rules as RE2 in DuckDB over every line of DIR/*)\n');
  process.exit(dir ? 0 : 1);
}

/** A JS pattern as RE2 accepts it (same cost shape, not the same matches). */
function toRe2(source: string): string {
  return source
    .replace(/\{(\d+),(\d+)\}/g, (_m, a: string, b: string) => `{${a},${Math.min(Number(b), 1000)}}`)
    .replace(/\(\?<[=!]/g, '(?:')
    .replace(/\(\?[=!]/g, '(?:')
    .replace(/\(\?<([A-Za-z]\w*)>/g, '(?:');
}
const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

const db = await DuckDBInstance.create(':memory:', { threads: String(availableParallelism()) });
const c = await db.connect();
const glob = `${resolve(dir)}/*`.replace(/'/g, "''");
let t = performance.now();
await c.run(
  `CREATE TABLE lines AS SELECT line FROM read_csv('${glob}', columns={'line': 'VARCHAR'}, delim=chr(1), quote='', escape='', header=false, auto_detect=false, strict_mode=false)`,
);
const [[n, bytes]] = (await c.runAndReadAll('SELECT count(*), sum(strlen(line)) FROM lines')).getRows() as [[bigint, bigint]];
const mib = Number(bytes) / 1048576;
process.stdout.write(
  `staged ${Number(n).toLocaleString('en')} lines, ${mib.toFixed(1)} MiB in ${((performance.now() - t) / 1000).toFixed(1)} s (${availableParallelism()} threads)\n\n| rule | ms | lines matched |\n|---|---|---|\n`,
);

const rules = [...FORMAT_RULES, ...CONTEXT_RULES, ...PII_RULES];
const parts: string[] = [];
let total = 0;
let skipped = 0;
for (const r of rules) {
  const src = toRe2(r.pattern.source);
  const flags = r.pattern.flags.includes('i') ? 'i' : '';
  const pre: string[] = [];
  if (r.keywords?.length) pre.push(`(${r.keywords.map((k) => `contains(lower(line), ${lit(k)})`).join(' OR ')})`);
  for (const q of r.requires ?? []) pre.push(`contains(line, ${lit(q)})`);
  if (r.minLength) pre.push(`strlen(line) >= ${r.minLength}`);
  try {
    t = performance.now();
    const [[hits]] = (await c.runAndReadAll(`SELECT count(*) FROM lines WHERE ${[...pre, `regexp_matches(line, ${lit(src)}, '${flags}')`].join(' AND ')}`)).getRows() as [[bigint]];
    const ms = performance.now() - t;
    total += ms;
    parts.push(`(?:${src})`);
    process.stdout.write(`| ${r.id} | ${ms.toFixed(0)} | ${Number(hits).toLocaleString('en')} |\n`);
  } catch (e) {
    skipped++;
    process.stdout.write(`| ${r.id} | not RE2: ${(e as Error).message.split('\n')[0]!.slice(0, 60)} | |\n`);
  }
}
t = performance.now();
await c.runAndReadAll(`SELECT count(*) FROM lines WHERE regexp_matches(line, ${lit(parts.join('|'))})`);
const combined = performance.now() - t;
const perGiB = (ms: number) => ((ms / 1000) * 1024) / mib;
process.stdout.write(
  `\n${rules.length - skipped} rules one by one: ${(total / 1000).toFixed(1)} s = ${perGiB(total).toFixed(0)} s/GiB` +
    `\none combined alternation: ${(combined / 1000).toFixed(1)} s = ${perGiB(combined).toFixed(0)} s/GiB` +
    `\n(matching only; mcp-triage's JS redactor does all of redaction on one thread beside the parser)\n`,
);
