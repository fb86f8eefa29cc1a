// One file, streaming: clean → detect (on a bounded prefix) → redact → fold blocks → apply
// formats → enrich. Every physical line ends up in exactly one event or is blank; lines no
// format understands become raw events and are counted, never dropped.
import { emptyEvent, type Event, type Source } from '../contract/event.ts';
import { blockFolders, type BlockFolder } from '../special/index.ts';
import { applyFormat, type CompiledFormat } from './apply.ts';
import { detectPrefix, stripAnsi, stripPrefix, type PrefixRule } from './clean.ts';
import { detectFormat, resolveSource, SAMPLE_LINES, type Detection } from './detect.ts';
import { enrich } from './enrich.ts';
import type { RawLine } from './lines.ts';

export interface FileStats {
  file: string;
  source: Source;
  format: string;
  lines: number;
  events: number;
  unparsed: number;
  truncatedLines: number;
  ansiLines: number;
  prefix: string | null;
  detection: Detection | null;
}

export interface ParseFileOptions {
  file: string;
  formats: readonly CompiledFormat[];
  /** Redaction of one cleaned line (stateful per file). Identity only in tests of the engine itself. */
  redact: (text: string) => string;
}

export function newStats(file: string): FileStats {
  return { file, source: 'unknown', format: 'unknown', lines: 0, events: 0, unparsed: 0, truncatedLines: 0, ansiLines: 0, prefix: null, detection: null };
}

export async function* parseFile(input: AsyncIterable<RawLine>, opts: ParseFileOptions, stats: FileStats): AsyncGenerator<Event> {
  const it = input[Symbol.asyncIterator]();
  // Bounded prefix for detection; it is replayed below.
  const head: RawLine[] = [];
  while (head.length < SAMPLE_LINES) {
    const r = await it.next();
    if (r.done) break;
    head.push(r.value);
  }
  const cleanedHead = head.map((l) => stripAnsi(l.text).text);
  const prefix: PrefixRule | null = detectPrefix(cleanedHead);
  const sample = cleanedHead.map((l) => stripPrefix(l, prefix));
  const detection = detectFormat(sample, opts.formats);
  const primary = detection.format;
  stats.detection = detection;
  stats.prefix = prefix?.id ?? null;
  stats.format = primary?.spec.id ?? 'unknown';
  stats.source = resolveSource(primary?.spec.source, opts.file, sample);
  const tryFormats = primary ? [primary, ...detection.fallbacks] : detection.fallbacks;

  let block: { folder: BlockFolder; lines: string[]; start: number } | null = null;
  // The last line event is held back one line: indented lines and closing braces that follow it
  // (a Node error printed after a log prefix, a wrapped message) are folded into it.
  let pending: Event | null = null;
  let lastTs: number | null = null;
  const source = stats.source;

  const closeBlock = (): Event | null => {
    if (!block) return null;
    const b = block;
    block = null;
    const e = emptyEvent({ file: opts.file, line: b.start, source, format: b.folder.id, kind: 'block', text: b.lines.join('\n') });
    e.endLine = b.start + b.lines.length - 1;
    e.level = b.folder.level;
    e.message = b.folder.summary(b.lines);
    e.ts = lastTs;
    return enrich(e);
  };
  const flush = (): Event | null => {
    const p = pending;
    pending = null;
    return p ? enrich(p) : null;
  };

  const handle = function* (raw: RawLine): Generator<Event> {
    stats.lines++;
    if (raw.cut) stats.truncatedLines++;
    const a = stripAnsi(raw.text);
    if (a.stripped) stats.ansiLines++;
    const cleaned = stripPrefix(a.text, prefix);
    const text = opts.redact(cleaned);
    if (block) {
      if (block.lines.length < block.folder.maxLines && block.folder.continues(text, block.lines)) {
        block.lines.push(text);
        return;
      }
      const done = closeBlock();
      if (done) yield done;
    }
    if (text.trim() === '') {
      const p = flush();
      if (p) yield p;
      return;
    }
    if (pending && isContinuation(text) && pending.endLine - pending.line < MAX_FOLDED_LINES && !tryFormats.some((f) => applyFormat(f, text))) {
      pending.text += '\n' + text;
      pending.endLine = raw.n;
      pending.kind = 'block';
      return;
    }
    const p = flush();
    if (p) yield p;
    for (const folder of blockFolders) {
      if (folder.starts(text)) {
        block = { folder, lines: [text], start: raw.n };
        return;
      }
    }
    for (const f of tryFormats) {
      const parsed = applyFormat(f, text);
      if (!parsed) continue;
      const e = emptyEvent({ file: opts.file, line: raw.n, source, format: f.spec.id, kind: 'line', text });
      Object.assign(e, parsed);
      if (!parsed.message) e.message = text;
      if (e.ts !== null) lastTs = e.ts;
      else e.ts = lastTs;
      pending = e;
      return;
    }
    stats.unparsed++;
    const e = emptyEvent({ file: opts.file, line: raw.n, source, format: 'unknown', kind: 'raw', text });
    e.ts = lastTs;
    yield enrich(e);
  };

  for (const raw of head) for (const e of handle(raw)) (stats.events++, yield e);
  for (;;) {
    const r = await it.next();
    if (r.done) break;
    for (const e of handle(r.value)) (stats.events++, yield e);
  }
  for (const last of [closeBlock(), flush()]) {
    if (!last) continue;
    stats.events++;
    yield last;
  }
}

const MAX_FOLDED_LINES = 500;

/** Lines that continue the previous event rather than start one: indented frames, object dumps. */
function isContinuation(line: string): boolean {
  return /^(?:\s+\S|[}\]]\s*,?\s*$|Caused by: |\[cause\]|During handling of the above|The above exception was)/.test(line);
}
