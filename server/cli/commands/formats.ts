import { resolve } from 'node:path';
import { parseArgs } from '../args.ts';
import type { Command } from '../command.ts';
import { loadFormats } from '../../../parsers/engine/registry.ts';
import { detectFormat, explainDetection, formatSource, resolveSource } from '../../../parsers/engine/detect.ts';
import { documentReaders, sniffDocument } from '../../../parsers/engine/documents.ts';
import { detectPrefix, stripAnsi, stripPrefix } from '../../../parsers/engine/clean.ts';
import { readLines } from '../../../parsers/engine/lines.ts';
import { SAMPLE_LINES } from '../../../parsers/engine/detect.ts';
import { entriesFromPaths, type InputEntry } from '../../ingest/inputs.ts';
import { newStats, parseFile } from '../../../parsers/engine/parse-file.ts';
import { coverageRow, coverageTable, share, type CoverageRow } from '../../../parsers/engine/coverage.ts';
import type { CompiledFormat } from '../../../parsers/engine/apply.ts';

/** Parse a whole entry (no redaction: only counts are printed) and return its per-line coverage. */
async function coverageOf(entry: InputEntry, formats: readonly CompiledFormat[]): Promise<CoverageRow> {
  const stats = newStats(entry.name);
  for await (const _ of parseFile(readLines(entry.open()), { file: entry.name, formats, redact: (t) => t }, stats));
  return coverageRow(stats);
}

export const formatsCommand: Command = {
  name: 'formats',
  summary: 'list the log formats, or explain which format matches a file and why',
  help: `Usage: mcp-triage formats [--explain FILE] [PATH...]

Without options: every known format (built-in ones and those in $MCP_TRIAGE_FORMATS).
PATH...: read every line of these files (folders, archives) and print, per file and overall, its
format and the share of its events that got their own time, a level and a message: the file's
format only says what read its head, these shares say how much of every line was read.
--explain FILE: score every format on the file's first ${SAMPLE_LINES} lines and show, per format,
how many lines matched, the first line that did not, and the format's nearest sample with the
column where that line and the sample part; then the file's per-line coverage.`,
  async run(args, io) {
    const a = parseArgs('formats', args, { explain: { type: 'string' }, all: { type: 'boolean' } });
    const formats = loadFormats({ userDir: io.env.MCP_TRIAGE_FORMATS });
    if (!a.options.explain && a.positionals.length) {
      const rows: CoverageRow[] = [];
      for (const entry of entriesFromPaths(a.positionals.map((p) => resolve(io.cwd, p)))) rows.push(await coverageOf(entry, formats));
      io.stdout.write(coverageTable(rows) + '\n');
      return 0;
    }
    if (!a.options.explain) {
      const w = Math.max(...formats.map((f) => f.spec.id.length));
      for (const f of formats) io.stdout.write(`${f.spec.id.padEnd(w)}  ${f.spec.source.padEnd(7)}  ${f.spec.title}\n`);
      for (const r of documentReaders) io.stdout.write(`${r.id.padEnd(w)}  ${r.source.padEnd(7)}  ${r.title} (whole-file reader, code)\n`);
      return 0;
    }
    const [entry] = entriesFromPaths([resolve(io.cwd, String(a.options.explain))]);
    const head: string[] = [];
    for await (const l of readLines(entry!.open())) {
      head.push(stripAnsi(l.text).text);
      if (head.length >= SAMPLE_LINES) break;
    }
    const prefix = detectPrefix(head);
    const sample = head.map((l) => stripPrefix(l, prefix));
    const doc = sniffDocument(sample);
    if (doc) {
      io.stdout.write(`${entry!.name}: whole-file ${doc.id} document (${doc.title}); one event per item\n`);
      return 0;
    }
    const d = detectFormat(sample, formats);
    io.stdout.write(
      `${entry!.name}: ${d.format ? `format ${d.format.spec.id}` : 'no format matched (lines are kept as raw events)'}; source ${resolveSource(formatSource(d.format, sample), entry!.name, sample)}${prefix ? `; prefix "${prefix.id}" stripped` : ''}\n`,
    );
    io.stdout.write(`✔ chosen · matched some lines (tried per line, highest priority first) ✘ matched none\n\n`);
    for (const s of explainDetection(d, formats)) {
      if (!s.matched && !a.options.all && s.nearest && s.nearest.agreeUpTo < 3) continue;
      io.stdout.write(`${s.id === d.format?.spec.id ? '✔' : s.matched ? '·' : '✘'} ${s.id}: ${s.matched}/${s.considered} lines (${Math.round(s.score * 100)}%)\n`);
      if (s.firstMiss && s.matched < s.considered) {
        io.stdout.write(`    first line it does not match (#${s.firstMiss.n}): ${JSON.stringify(s.firstMiss.text.slice(0, 160))}\n`);
        if (s.nearest) {
          const at = s.nearest.agreeUpTo;
          io.stdout.write(
            `    nearest sample (#${s.nearest.sample}) agrees for ${at} characters, then expects ${JSON.stringify(s.nearest.line.slice(at, at + 24))} where the line has ${JSON.stringify(s.firstMiss.text.slice(at, at + 24))}\n`,
          );
        }
      }
    }
    const hidden = d.scores.length - explainDetection(d, formats).filter((s) => s.matched || a.options.all || !s.nearest || s.nearest.agreeUpTo >= 3).length;
    if (hidden) io.stdout.write(`\n(${hidden} formats matched nothing and share no prefix with the file; --all shows them)\n`);
    const c = await coverageOf(entry!, formats);
    io.stdout.write(`\nevery line: ${c.events} events; own time ${share(c.ts, c.events)}, level ${share(c.level, c.events)}, message ${share(c.message, c.events)}\n`);
    return 0;
  },
};
