// One file, streaming: clean → detect (on a bounded prefix) → redact → fold blocks → apply
// formats → line reader (time, level, prefix where a format left them empty) → enrich. Every physical line ends up in exactly one event or is blank; lines no
// format understands become raw events and are counted, never dropped.
import { emptyEvent, type Event, type Level, type Source } from '../contract/event.ts';
import { blockFolders, MAX_HELD, type BlockFolder } from '../special/index.ts';
import { applyFormat, type CompiledFormat } from './apply.ts';
import {
  detectLayout,
  detectPrefix,
  FENCE_LINE,
  NUMBER_LINE,
  prefixLevel,
  prefixOrigin,
  prefixStamp,
  readHeader,
  stripAnsi,
  stripPrefix,
  type Layout,
  type LineHeader,
  type PrefixRule,
} from './clean.ts';
import { detectFormat, formatSource, resolveSource, SAMPLE_LINES, type Detection } from './detect.ts';
import { ItemScanner, sniffDocument, type DocumentReader } from './documents.ts';
import { enrich } from './enrich.ts';
import { CallIds } from './call-ids.ts';
import { containerGutter, readLine, readLinePrefix, writerAttrs } from './line-reader.ts';
import type { RawLine } from './lines.ts';
import type { YearRef } from './timestamp.ts';
import { NO_SIGNALS_KNOWN, type LineSignals } from './signals.ts';

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
  /** Whole-file layouts found (`number-lines`, `doubled-blank`) and the lines skipped because of them. */
  layout: string[];
  skippedLines: number;
  /** Lines per format id (block folders included): the file's format when detection found none is the one with most lines. */
  formatLines: Record<string, number>;
  /** Per-event facts (see Coverage): what the per-file format hides, since unread lines still count as "parsed" files. */
  coverage: Coverage;
}

/**
 * How many of a file's events (stats.events) got each fact:
 * - ts: a time of their own (format, document or line reader); a time carried over from the line above does not count;
 * - level: any level;
 * - message: a message told apart from the line's prefix (any event a format or block folder read, or a raw
 *   line whose prefix the line reader took off). A raw line read by nothing does not count.
 */
export interface Coverage {
  ts: number;
  level: number;
  message: number;
}

export interface ParseFileOptions {
  file: string;
  formats: readonly CompiledFormat[];
  /** Redaction of one cleaned line (stateful per file). Identity only in tests of the engine itself. */
  redact: (text: string) => string;
  /**
   * The incident's first dated time (epoch ms; `firstDatedTime` over every file's head): it dates a
   * file whose lines show only a time of day (`[13:55:29] ERROR …`), which else gets no time at all
   * and joins nothing by time. Null or absent: such times stay undated.
   */
  dateHint?: number | null;
}

export function newStats(file: string): FileStats {
  return {
    file,
    source: 'unknown',
    format: 'unknown',
    lines: 0,
    events: 0,
    unparsed: 0,
    truncatedLines: 0,
    ansiLines: 0,
    prefix: null,
    detection: null,
    layout: [],
    skippedLines: 0,
    formatLines: {},
    coverage: { ts: 0, level: 0, message: 0 },
  };
}

/**
 * What a file's head decides before any line is redacted: the line prefix to strip, whether it is
 * a whole JSON document, and the layout quirks whose lines are skipped. A pure function of the
 * raw head: the ingest decides it in pass 1 and its workers prepare lines by it (server/ingest/chunks.ts).
 */
export interface LinePlan {
  prefix: PrefixRule | null;
  /** Cleaned head lines (ANSI and prefix stripped): detection reads these. */
  sample: string[];
  doc: DocumentReader | null;
  layout: Layout;
  /** The program every syslog-style header of the head names (PrefixRule.header), if one does: a hint at the file's side. */
  ident?: string | null;
  /** The time a stamped wrapper (Heroku's, `docker logs -t`'s) gave each head line, by sample index, when it has one. */
  stamps?: readonly (number | null)[];
}

/**
 * The first full date-and-time a file's head shows (its format's time field, else a line prefix's),
 * or null: what dates the time-of-day-only files of the same ingest (ParseFileOptions.dateHint) and gives
 * yearless dates their year. A date without its year counts only with `years` (null: dated by today).
 */
export function firstDatedTime(plan: LinePlan, formats: readonly CompiledFormat[], years: YearRef = 'none'): number | null {
  if (plan.doc) return null;
  // (every format that read a line of the head, as the parse tries them: a file no format leads — prose around one
  // access-log line — still shows that line's date)
  const d = detectFormat(plan.sample, formats);
  const tried = d.format ? [d.format, ...d.fallbacks] : d.fallbacks;
  for (let i = 0; i < plan.sample.length; i++) {
    const line = plan.sample[i]!;
    if (line.trim() === '') continue;
    let ts: number | string | null | undefined = null;
    for (const f of tried) if (typeof (ts = applyFormat(f, line, years)?.ts) === 'number') break;
    if (typeof ts !== 'number') ts = readLinePrefix(line, years)?.ts ?? null;
    // (a line whose time was in the wrapper taken off it — Heroku's stream, `kubectl logs --timestamps` — is dated by it)
    if (typeof ts !== 'number') ts = plan.stamps?.[i] ?? null;
    if (typeof ts === 'number') return ts;
  }
  return null;
}

export function planLines(head: readonly RawLine[]): LinePlan {
  const cleanedHead = head.map((l) => stripAnsi(l.text).text);
  const prefix: PrefixRule | null = detectPrefix(cleanedHead);
  const sample = cleanedHead.map((l) => stripPrefix(l, prefix));
  // (a document pasted inside a markdown fence is still that document: the fence lines are skipped as in line mode)
  const doc = sniffDocument(sample.some((l) => FENCE_LINE.test(l)) ? sample.filter((l) => !FENCE_LINE.test(l)) : sample);
  const stamps = prefix?.stamp ? cleanedHead.map((l) => prefixStamp(l, prefix)) : undefined;
  return {
    prefix,
    sample,
    doc,
    layout: doc ? { numberLines: false, doubledBlank: false } : detectLayout(sample),
    ident: prefix?.header ? soleIdent(cleanedHead, prefix) : null,
    ...(stamps ? { stamps } : {}),
  };
}

/** The program that wrote every header-carrying line of a head, or null when none or several did (`journalctl` without `-u`). */
function soleIdent(head: readonly string[], rule: PrefixRule): string | null {
  let ident: string | null = null;
  for (const l of head) {
    const h = rule.header?.(l)?.ident ?? null;
    // (`journalctl -u <unit>` shows the service manager's own lines about the unit too)
    if (h === null || h === 'systemd') continue;
    if (ident !== null && h !== ident) return null;
    ident = h;
  }
  return ident;
}

/**
 * What a line's wrapper says of it besides its text and time: the writer it names (a pod, a compose replica:
 * attrs.origin) and the level a collector's record gave it (used only where nothing in the line gives one).
 */
export interface LineOrigin {
  name?: string;
  level?: Level;
}

/** In line mode: the text parseFile gives `redact` for this physical line, or null when the layout skips it. */
export function redactInput(raw: RawLine, plan: Pick<LinePlan, 'prefix' | 'layout'>): { text: string | null; ansi: boolean; stamp: number | null; origin: LineOrigin | null } {
  const a = stripAnsi(raw.text);
  const cleaned = stripPrefix(a.text, plan.prefix);
  const skip =
    (plan.layout.numberLines && NUMBER_LINE.test(cleaned)) ||
    (plan.layout.doubledBlank && cleaned.trim() === '') ||
    (plan.layout.fences === true && FENCE_LINE.test(cleaned)) ||
    plan.prefix?.skip?.(a.text) === true;
  // (a syslog-style header stays on through redaction — its host is redacted with the line — and is read at parse)
  const text = plan.prefix?.header ? a.text : cleaned;
  const name = prefixOrigin(a.text, plan.prefix);
  const level = prefixLevel(a.text, plan.prefix);
  const origin = name === null && level === null ? null : { ...(name === null ? {} : { name }), ...(level === null ? {} : { level }) };
  return { text: skip ? null : text, ansi: a.stripped, stamp: prefixStamp(a.text, plan.prefix), origin };
}

/** The first SAMPLE_LINES lines, read off an iterator (detection looks at them; they are replayed). */
export async function readHead(it: AsyncIterator<RawLine>): Promise<RawLine[]> {
  const head: RawLine[] = [];
  while (head.length < SAMPLE_LINES) {
    const r = await it.next();
    if (r.done) break;
    head.push(r.value);
  }
  return head;
}

export async function* parseFile(input: AsyncIterable<RawLine>, opts: ParseFileOptions, stats: FileStats): AsyncGenerator<Event> {
  const it = input[Symbol.asyncIterator]();
  // Bounded prefix for detection; it is replayed below.
  const head = await readHead(it);
  const plan = planLines(head);
  stats.prefix = plan.prefix?.id ?? null;
  if (plan.doc) {
    yield* parseDocument(plan.doc, head, it, opts, stats, plan.prefix);
    return;
  }
  const prepare = (raw: RawLine): PreparedLines => {
    const input = redactInput(raw, plan);
    return {
      text: [input.text === null ? null : opts.redact(input.text)],
      cut: Int32Array.of(raw.cut),
      ansi: Uint8Array.of(input.ansi ? 1 : 0),
      stamp: Float64Array.of(input.stamp ?? Number.NaN),
      origin: input.origin === null ? undefined : [input.origin],
    };
  };
  const lines = async function* (): AsyncGenerator<PreparedLines> {
    for (const raw of head) yield prepare(raw);
    for (;;) {
      const r = await it.next();
      if (r.done) break;
      yield prepare(r.value);
    }
  };
  yield* parsePrepared(plan, lines(), opts, stats);
}

/**
 * Lines as `redactInput` and the redactor left them, in file order, in batches (columns): the
 * redacted text (null: a line the layout skips), characters cut, whether ANSI was stripped, the
 * prefix's time (NaN: none). The ingest prepares them on worker threads (server/ingest/chunks.ts).
 */
export interface PreparedLines {
  text: (string | null)[];
  cut: Int32Array;
  ansi: Uint8Array;
  stamp: Float64Array;
  /** Who wrote each line and a collector's level for it, where the prefix says (LineOrigin); absent when no line's does. */
  origin?: (LineOrigin | null)[];
  /**
   * Each line's signals (SignalTable.match of its text), computed on the runner beside its
   * redaction: a line event whose text is that line takes them instead of matching again here.
   * Absent: every event is matched here.
   */
  signals?: LineSignals;
}

/**
 * The line-mode parse of one file from its plan (decided on the raw head, planLines) and its
 * prepared lines: detection, block folding, formats, line reader, enrichment. Lines are numbered
 * from 1 in the order they come. Not for whole JSON documents (plan.doc): parseFile reads those.
 */
export async function* parsePrepared(
  plan: LinePlan,
  batches: AsyncIterable<PreparedLines>,
  opts: Pick<ParseFileOptions, 'file' | 'formats' | 'dateHint'>,
  stats: FileStats,
): AsyncGenerator<Event> {
  for await (const events of parsePreparedBatches(plan, batches, opts, stats)) yield* events;
}

/**
 * parsePrepared, its events in one array per batch of lines (and one for the file's tail): the
 * ingest's writer takes them so, without an await per event. An event is complete when it is
 * handed out (nothing changes it after), so when the writer reads it does not matter.
 */
export async function* parsePreparedBatches(
  plan: LinePlan,
  batches: AsyncIterable<PreparedLines>,
  opts: Pick<ParseFileOptions, 'file' | 'formats' | 'dateHint'>,
  stats: FileStats,
): AsyncGenerator<Event[]> {
  const { prefix, sample, layout } = plan;
  stats.prefix = prefix?.id ?? null;
  if (layout.numberLines) stats.layout.push('number-lines');
  if (layout.doubledBlank) stats.layout.push('doubled-blank');
  if (layout.fences) stats.layout.push('fences');
  const detection = detectFormat(
    layout.numberLines || layout.fences ? sample.filter((l) => !(layout.numberLines && NUMBER_LINE.test(l)) && !(layout.fences && FENCE_LINE.test(l))) : sample,
    opts.formats,
  );
  const primary = detection.format;
  stats.detection = detection;
  stats.format = primary?.spec.id ?? 'unknown';
  stats.source = resolveSource(formatSource(primary, sample), opts.file, sample, plan.ident, prefix?.source);
  // Per line, every format seen in the sample is tried, most specific (highest priority) first:
  // in a mixed file an httpx line inside Python logging output is read by the httpx format.
  // Formats first met after the sample join the list when a line needs them.
  const tryFormats: CompiledFormat[] = primary ? [primary, ...detection.fallbacks] : [...detection.fallbacks];
  const byPriority = () => tryFormats.sort((a, b) => b.spec.priority - a.spec.priority);
  byPriority();
  const untried = new Set(opts.formats.filter((f) => !tryFormats.includes(f)));
  /** The line opens a record of the layout the event above was read in (its own prefix: a new record, not its body). */
  const startsOwnRecord = (e: Event, text: string) => {
    const own = tryFormats.find((f) => f.spec.id === e.format);
    return own !== undefined && applyFormat(own, text) !== null;
  };
  const countLine = (id: string, n: number) => (stats.formatLines[id] = (stats.formatLines[id] ?? 0) + n);
  // (formats whose indented lines continue the event above — unless the line opens an event of that format
  // itself, as Gemini CLI's framed, indented tool-call headers do)
  const indentedContinues = new Map(opts.formats.filter((f) => f.spec.indentedContinues).map((f) => [f.spec.id, f] as const));
  const indentedRecords = opts.formats.filter((f) => f.spec.indentedRecords);
  const continuesIndented = (format: string, text: string) => {
    const f = indentedContinues.get(format);
    return f !== undefined && /^\s/.test(text) && !applyFormat(f, text);
  };
  const matchLine = (text: string): { f: CompiledFormat; parsed: NonNullable<ReturnType<typeof applyFormat>> } | null => {
    for (const f of tryFormats) {
      const parsed = applyFormat(f, text, clock());
      if (parsed) return { f, parsed };
    }
    for (const f of untried) {
      const parsed = applyFormat(f, text, clock());
      if (!parsed) continue;
      untried.delete(f);
      tryFormats.push(f);
      byPriority();
      return { f, parsed };
    }
    return null;
  };

  // `owner`: the error line a traceback belongs to (Python's log.exception prints the message, then the traceback).
  let block: { folder: BlockFolder; lines: string[]; start: number; end: number; owner: Event | null } | null = null;
  // The last line event is held back one line: indented lines and closing braces that follow it
  // (a Node error printed after a log prefix, a wrapped message) are folded into it.
  let pending: Event | null = null;
  let lastTs: number | null = null;
  // what dates a time of day: the file's last own time, else the incident's first dated time
  const clock = () => lastTs ?? opts.dateHint ?? null;
  // Events whose time was carried over from the line above (counted apart in stats.coverage).
  const carried = new WeakSet<Event>();
  /** An event with its own time sets the clock; one without takes the last time seen. */
  // the times physical lines' prefixes gave (docker/kubectl timestamps), for their events without one; a
  // block's event is made when the block closes, lines later, so the stamps wait here until then
  const stamps = new Map<number, number>();
  // the writer a line's prefix named (a pod, a compose replica), kept for the event that opens there
  const origins = new Map<number, LineOrigin>();
  // a syslog-style header's host, program and pid, likewise (PrefixRule.header: read here, after redaction)
  const headerRule = prefix?.header ? prefix : null;
  const headers = new Map<number, LineHeader>();
  // once the application's own lines have shown a time, a line without one continues that clock, not the
  // container's (a wrapped message's second line must stay beside its first, whatever the stamps say)
  let ownClock = false;
  // …of that program: a line a syslog-style header says another program wrote (systemd's about the unit) has its header's time
  let clockIdent: string | null = null;
  // …or of that writer: a line the prefix says another writer wrote (Heroku's router under an app dyno's line, another
  // pod) has its stamp's time, not the time the other writer's own clock carried
  let clockOrigin: string | null = null;
  const otherWriter = (e: Event) =>
    (headerRule !== null && (headers.get(e.line)?.ident ?? clockIdent) !== clockIdent) || (clockOrigin !== null && (origins.get(e.line)?.name ?? clockOrigin) !== clockOrigin);
  const ownOrCarriedTs = (e: Event): void => {
    if (e.ts !== null) {
      ownClock = true;
      clockIdent = headers.get(e.line)?.ident ?? null;
      clockOrigin = origins.get(e.line)?.name ?? null;
    } else if (stamps.size && !(ownClock && lastTs !== null && !otherWriter(e))) e.ts = stamps.get(e.line) ?? null;
    if (e.ts !== null) lastTs = e.ts;
    else if (lastTs !== null) {
      e.ts = lastTs;
      carried.add(e);
    }
  };
  // (a call's id on a later line that names it only as a bare `id`: call-ids.ts)
  const callIds = new CallIds();
  const emit = (e: Event): Event => {
    const origin = origins.get(e.line);
    if (origin?.name !== undefined) e.attrs.origin = origin.name;
    // a collector's level, where neither the line nor its words nor what it reports gave one (an access
    // record logs none by design: its status is its outcome)
    if (origin?.level !== undefined && e.level === null && e.httpStatus === null) {
      e.level = origin.level;
      e.attrs.levelFrom = 'collector';
    }
    const h = headers.get(e.line);
    if (h !== undefined) headerAttrs(e, h);
    callIds.link(e);
    stats.events++;
    // (a line a stamped wrapper was taken off — a container stamp, a collector's record — had its prefix told apart)
    countCoverage(stats.coverage, e, carried.has(e), stamps.has(e.line));
    return e;
  };
  const source = stats.source;

  const closeBlock = (): Event | null => {
    if (!block) return null;
    const b = block;
    block = null;
    if (b.owner) {
      const o = b.owner;
      o.text += '\n' + b.lines.join('\n');
      o.endLine = b.end;
      o.kind = 'block';
      const summary = b.folder.summary(b.lines);
      if (summary && !o.message.includes(summary)) o.message = `${o.message} — ${summary}`;
      countLine(o.format, 1);
      countLine(b.folder.id, b.lines.length);
      return enrich(o);
    }
    if (b.lines.length === 1) {
      // A one-line "block" is an error line without a stack: a line format that reads it wins.
      const hit = matchLine(b.lines[0]!);
      if (hit) {
        const e = emptyEvent({ file: opts.file, line: b.start, source, format: hit.f.spec.id, kind: 'line', text: b.lines[0]! });
        Object.assign(e, hit.parsed);
        if (!hit.parsed.message) e.message = e.text;
        readLine(e, hit.f, hit.parsed, clock());
        ownOrCarriedTs(e);
        // Held like any line event, so what follows it (an HTML body, "    at …" frames) folds into it.
        pending = e;
        return null;
      }
    }
    const e = emptyEvent({ file: opts.file, line: b.start, source, format: b.folder.id, kind: 'block', text: b.lines.join('\n') });
    e.endLine = b.end;
    countLine(b.folder.id, b.lines.length);
    e.level = b.folder.level;
    e.message = b.folder.summary(b.lines);
    // a block that opens with a log line's own prefix (`[ts] ERROR agent: … McpError: …` and its stack)
    // keeps that line's time rather than the line above's
    if (e.ts === null) e.ts = readLinePrefix(b.lines[0]!, clock())?.ts ?? null;
    ownOrCarriedTs(e);
    return enrich(e);
  };
  let blanks = 0; // blank lines held after the pending event
  const headerOnly = new WeakSet<Event>();
  // The precomputed signals of this batch's lines and the last one's (an event is enriched when the
  // line after it comes, maybe in the next batch); used only where the event's text is that line.
  type Known = { first: number; text: (string | null)[]; signals: LineSignals };
  let known: Known | null = null;
  let knownBefore: Known | null = null;
  const fromKnown = (k: Known | null, e: Event): readonly string[] | undefined => {
    if (k === null) return undefined;
    const i = e.line - k.first;
    if (i < 0 || i >= k.text.length || k.text[i] !== e.text) return undefined;
    const s = k.signals.at[i]!;
    return s === NO_SIGNALS_KNOWN ? undefined : k.signals.sets[s];
  };
  const textSignals = (e: Event): readonly string[] | undefined => fromKnown(known, e) ?? fromKnown(knownBefore, e);
  const flush = (): Event | null => {
    const p = pending;
    pending = null;
    blanks = 0;
    if (p) countLine(p.format, p.endLine - p.line + 1);
    return p ? enrich(p, textSignals) : null;
  };

  // the program and pid the last header named
  let writer: string | null = null;
  /** Close whatever is open (a block, the lines held after it, the pending event), as at the end of the file. */
  const breakOff = function* (): Generator<Event> {
    const b = closeBlock();
    if (b) yield b;
    const again = held;
    held = [];
    for (const h of again) yield* handleText(h.n, h.text);
    for (const last of [closeBlock(), flush()]) if (last) yield last;
  };

  let lineNo = 0;
  const handle = function* (text: string | null, cut: number, ansi: number, stamp: number, origin: LineOrigin | null): Generator<Event> {
    const n = ++lineNo;
    if (origin !== null) {
      origins.set(n, origin);
      origins.delete(n - STAMP_LINES);
    }
    stats.lines++;
    if (cut) stats.truncatedLines++;
    if (ansi) stats.ansiLines++;
    if (text === null) {
      stats.skippedLines++;
      return;
    }
    if (headerRule) {
      const h = readHeader(text, headerRule);
      if (h) {
        // another program (or process) wrote this line: nothing it prints continues the last one's event
        const by = `${h.header.ident}[${h.header.pid}]`;
        if (writer !== null && by !== writer) yield* breakOff();
        writer = by;
        text = h.rest;
        headers.set(n, h.header);
        headers.delete(n - STAMP_LINES);
        // (a syslog stamp has no year: the file's clock gives it, as the line reader does)
        const t = h.header.time === null ? null : (readLinePrefix(h.header.time, clock())?.ts ?? null);
        if (t !== null) stamp = t;
      }
    }
    if (!Number.isNaN(stamp)) {
      stamps.set(n, stamp);
      stamps.delete(n - STAMP_LINES);
    }
    yield* handleText(n, text);
  };

  // Lines held provisionally after a block (blank lines inside a chained traceback): they join the
  // block if a later line continues it, else they are processed as ordinary lines after it closes.
  let held: { n: number; text: string }[] = [];
  const handleText = function* (n: number, text: string): Generator<Event> {
    if (block) {
      const sofar = held.length ? [...block.lines, ...held.map((h) => h.text)] : block.lines;
      if (sofar.length < block.folder.maxLines && block.folder.continues(text, sofar)) {
        for (const h of held) block.lines.push(h.text);
        held = [];
        block.lines.push(text);
        block.end = n;
        return;
      }
      if (held.length < MAX_HELD && sofar.length < block.folder.maxLines && block.folder.provisional?.(text, sofar)) {
        held.push({ n, text });
        return;
      }
      const done = closeBlock();
      if (done) yield done;
      const again = held;
      held = [];
      for (const h of again) yield* handleText(h.n, h.text);
    }
    if (text.trim() === '') {
      // A blank line may sit inside one printed error (a message with a trailing newline, then
      // its "    at …" frames): hold up to two before deciding the event has ended.
      if (pending && blanks < 2) {
        blanks++;
        return;
      }
      const p = flush();
      if (p) yield p;
      return;
    }
    if (
      pending &&
      pending.endLine - pending.line < MAX_FOLDED_LINES &&
      (pending.kind !== 'raw' || wrapsProse(pending.text, text)) &&
      // (an HTML page's lines never start a record in the layout of the line that printed it: a page quoted and
      // cut inside a prefixed line — `HttpError: … body="<html><head>…"` — ended with that line)
      ((inHtmlBody(pending.text) && !startsOwnRecord(pending, text)) ||
        chainsOn(pending, text) ||
        ((isContinuation(text) || (inJsonBody(pending.text) && pending.endLine - pending.line < MAX_JSON_FOLD)) &&
          (continuesIndented(pending.format, text) ||
            (underCauseHeader(pending.text) && /^\s/.test(text)) ||
            (!tryFormats.some((f) => applyFormat(f, text)) && !indentedRecords.some((f) => applyFormat(f, text))))))
    ) {
      pending.text += '\n'.repeat(blanks + 1) + text;
      blanks = 0;
      pending.endLine = n;
      if (headerOnly.has(pending)) {
        const t = text.trim();
        if (pending.endLine === pending.line + 1) pending.message = t;
        else if (pending.message.length < MAX_HEADER_MESSAGE && !/^at /.test(t)) pending.message += `\n${t}`;
      }
      // an unparsed line's wrapped continuation is still unparsed text, not a traceback — unless frames follow
      if (pending.kind === 'raw') {
        stats.unparsed++;
        if (/^\s+(?:at |File ")/.test(text)) pending.kind = 'block';
      } else pending.kind = 'block';
      return;
    }
    blanks = 0;
    for (const folder of blockFolders) {
      if (folder.starts(text)) {
        // Only a block that is not itself a log line (a bare "Traceback …") belongs to the error line above it.
        const owner =
          pending && pending.endLine === n - 1 && (pending.level === 'error' || pending.level === 'fatal' || pending.level === 'warn') && !matchLine(text) ? pending : null;
        if (owner) pending = null;
        else {
          const p = flush();
          if (p) yield p;
        }
        block = { folder, lines: [text], start: n, end: n, owner };
        return;
      }
    }
    const p = flush();
    if (p) yield p;
    const hit = matchLine(text);
    if (hit) {
      const { f, parsed } = hit;
      const e = emptyEvent({ file: opts.file, line: n, source, format: f.spec.id, kind: 'line', text });
      Object.assign(e, parsed);
      if (!parsed.message) {
        e.message = text;
        // a log header (it has a level) with no message of its own (`fail: Orders.Agent[0]`): the
        // message is on the lines under it
        if (parsed.level) headerOnly.add(e);
      }
      readLine(e, f, parsed, clock());
      ownOrCarriedTs(e);
      pending = e;
      return;
    }
    // a writer's gutter no prefix rule took off (`api-1  | [GIN] … | 500 | …` under the command that started it): a
    // format may read what follows it; the line keeps its gutter, the event its writer
    const gutter = containerGutter(text);
    const inner = gutter ? matchLine(gutter.rest) : null;
    if (gutter && inner) {
      const e = emptyEvent({ file: opts.file, line: n, source, format: inner.f.spec.id, kind: 'line', text });
      Object.assign(e, inner.parsed);
      if (!inner.parsed.message) e.message = gutter.rest;
      if (e.attrs.container === undefined) e.attrs.container = gutter.name;
      // (what the line reader tells of the writer — `pid=71` after the level — as it would of the line without its format)
      const writer = readLinePrefix(gutter.rest, clock());
      if (writer) writerAttrs(e, writer);
      readLine(e, inner.f, inner.parsed, clock());
      ownOrCarriedTs(e);
      pending = e;
      return;
    }
    stats.unparsed++;
    const e = emptyEvent({ file: opts.file, line: n, source, format: 'unknown', kind: 'raw', text });
    // No format read it: the line reader reads its prefix in any order, the wording gives a level.
    readLine(e, null, null, clock());
    ownOrCarriedTs(e);
    // held like a parsed line, so a message wrapped onto indented lines stays one event
    pending = e;
  };

  // Events before the file's first time (a banner, a config dump, an error printed before the first timed
  // line) take a millisecond before it, carried back: ordered by time they stay where the file put them,
  // before its first timed line, instead of after every timed line of the incident — as a collector that
  // stamps each line as it arrives would have it — without claiming that line's very moment (one record).
  // At most MAX_UNTIMED_HEAD wait; past that (or in a file with no time at all) they go out untimed.
  let head: Event[] | null = [];
  const release = (out: Event[], e: Event): void => {
    if (head === null) {
      out.push(emit(e));
      return;
    }
    if (e.ts === null && head.length < MAX_UNTIMED_HEAD) {
      head.push(e);
      return;
    }
    for (const h of head) {
      if (e.ts !== null) {
        h.ts = e.ts - 1;
        carried.add(h);
      }
      out.push(emit(h));
    }
    head = null;
    out.push(emit(e));
  };
  for await (const b of batches) {
    const { text, cut, ansi, stamp, origin } = b;
    knownBefore = known;
    known = b.signals ? { first: lineNo + 1, text, signals: b.signals } : null;
    const out: Event[] = [];
    for (let i = 0; i < text.length; i++) for (const e of handle(text[i]!, cut[i]!, ansi[i]!, stamp[i]!, origin?.[i] ?? null)) release(out, e);
    if (out.length) yield out;
  }
  const out: Event[] = [];
  const tail = closeBlock();
  if (tail) release(out, tail);
  const again = held;
  held = [];
  for (const h of again) for (const e of handleText(h.n, h.text)) release(out, e);
  for (const last of [closeBlock(), flush()]) if (last) release(out, last);
  // a file with no time at all
  if (head !== null) for (const h of head) out.push(emit(h));
  if (out.length) yield out;
  if (stats.format === 'unknown' || (primary && primary.spec.priority < 0)) {
    // No line format led the sample, or only a last-resort one (a pasted traceback, a bare error):
    // name the file after whatever read most of its lines, so "unknown" means nothing understood it.
    const best = Object.entries(stats.formatLines)
      .filter(([id]) => id !== 'unknown')
      .sort((a, b) => b[1] - a[1])[0];
    if (best) {
      stats.format = best[0];
      const f = opts.formats.find((x) => x.spec.id === best[0]);
      const folder = blockFolders.find((x) => x.id === best[0]);
      if (stats.source === 'unknown') stats.source = resolveSource(f ? formatSource(f, sample) : folder?.source, opts.file, sample, plan.ident, prefix?.source);
    }
  }
}

/** Whole-file JSON documents (HAR, OTLP): one event per item, wrapper lines counted but not events. */
async function* parseDocument(
  reader: DocumentReader,
  head: readonly RawLine[],
  it: AsyncIterator<RawLine>,
  opts: ParseFileOptions,
  stats: FileStats,
  prefix: PrefixRule | null,
): AsyncGenerator<Event> {
  stats.format = reader.id;
  stats.source = resolveSource(reader.sideOf?.(head.map((r) => r.text.slice(0, 20_000)).join('\n')) ?? reader.source, opts.file, []);
  const scanner = new ItemScanner(reader);
  let last = 0;
  const step = function* (raw: RawLine): Generator<Event> {
    stats.lines++;
    last = raw.n;
    if (raw.cut) stats.truncatedLines++;
    const a = stripAnsi(raw.text);
    if (a.stripped) stats.ansiLines++;
    const cleaned = stripPrefix(a.text, prefix);
    if (FENCE_LINE.test(cleaned)) {
      stats.skippedLines++;
      return;
    }
    const text = opts.redact(cleaned);
    for (const item of scanner.push(text, raw.n)) yield toEvent(item);
  };
  const toEvent = (item: ReturnType<ItemScanner['push']>[number]): Event => {
    const e = itemEvent(item);
    stats.events++;
    countCoverage(stats.coverage, e, false);
    return e;
  };
  const itemEvent = (item: ReturnType<ItemScanner['push']>[number]): Event => {
    stats.formatLines[reader.id] = (stats.formatLines[reader.id] ?? 0) + (item.endLine - item.startLine + 1);
    if (item.kind !== 'item' || !item.obj) {
      stats.unparsed++;
      const why =
        item.kind === 'oversize' ? `${reader.id} item over the size cap (${item.cut} characters dropped)` : `${reader.id} item that is not valid JSON (truncated export?)`;
      const e = emptyEvent({ file: opts.file, line: item.startLine, source: stats.source, format: 'unknown', kind: 'raw', text: why });
      e.endLine = item.endLine;
      return e;
    }
    const { fields, lines } = reader.toItem(item.obj, item.context);
    const text = lines.map((l) => opts.redact(l)).join('\n');
    const e = emptyEvent({ file: opts.file, line: item.startLine, source: stats.source, format: reader.id, kind: item.endLine > item.startLine ? 'block' : 'line', text });
    Object.assign(e, fields);
    e.endLine = item.endLine;
    e.message = text.split('\n', 1)[0] ?? '';
    return enrich(e);
  };
  for (const raw of head) yield* step(raw);
  for (;;) {
    const r = await it.next();
    if (r.done) break;
    yield* step(r.value);
  }
  for (const item of scanner.finish(last)) yield toEvent(item);
}

const MAX_FOLDED_LINES = 500;

/**
 * A syslog-style header's fields in the event's attrs, under their own names: the application's own host
 * and pid (a JSON line's `hostname`, a format's pid) stay what the line says, the header's name the process
 * that printed it as the system saw it (journald's _HOSTNAME, SYSLOG_IDENTIFIER, _PID).
 */
function headerAttrs(e: Event, h: LineHeader): void {
  const a = e.attrs;
  if (h.host !== null) a.syslogHost ??= h.host;
  if (h.ident !== null) a.syslogIdent ??= h.ident;
  if (h.pid !== null) a.syslogPid ??= h.pid;
}

function countCoverage(c: Coverage, e: Event, carriedTs: boolean, unwrapped = false): void {
  if (e.ts !== null && !carriedTs) c.ts++;
  if (e.level !== null) c.level++;
  // A raw line keeps its whole text as message unless the line reader (or the file's wrapper) took a prefix off.
  if (e.kind !== 'raw' || unwrapped || (e.message !== '' && !e.text.startsWith(e.message))) c.message++;
}

/** An HTML error page printed into a log line (`Error POSTing to endpoint: <!DOCTYPE html>`) continues until `</html>`. */
function inHtmlBody(text: string): boolean {
  // asked of the event above every line: most have no `<` at all
  if (!text.includes('<')) return false;
  const open = text.search(/<!DOCTYPE html|<html[\s>]/i);
  if (open < 0 || /<\/html>/i.test(text.slice(open))) return false;
  // (a page quoted inside a string — a JSON record's `"body":"<!DOCTYPE html>\n<html…"`, its line breaks escaped —
  // ended with its line, however much of it was cut: the next line is another record)
  const page = text.slice(open, open + 4000);
  return !(page.includes('\\n') || page.includes('\\"') || /^\s*\{[^\n]*\}\s*$/.test(text));
}

/** A JSON error body printed across lines (`… error (404): {"jsonrpc":"2.0","error":{"code":-32001,`) continues until it closes. */
const MAX_JSON_FOLD = 20;
function inJsonBody(text: string): boolean {
  const open = text.indexOf('{');
  if (open < 0 || text.length - open > 8192) return false;
  let depth = 0;
  let quoted = false;
  // char codes, not text[i]: this runs over every JSON line of a JSON-lines file
  for (let i = open, n = text.length; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 92 /* \\ */) i++;
    else if (c === 34 /* " */) quoted = !quoted;
    else if (!quoted && c === 123 /* { */) depth++;
    else if (!quoted && c === 125 /* } */) depth--;
  }
  // a string cut by the line end (`"message":"Not Found: MCP session is …`) leaves the object open too
  return depth > 0;
}

/** How many lines back a prefix's stamp is kept for the event that opens there (a block's first line). */
const STAMP_LINES = 4096;
/** Events held at a file's start until its first time is seen (parsePreparedBatches: carried back to them). */
const MAX_UNTIMED_HEAD = 10_000;

/** An unparsed line continues only as wrapped prose or frames (`   dropped before the result…`, `    at f (x.js:1)`), never as a document. */
function wrapsProse(pendingText: string, line: string): boolean {
  return /[A-Za-z]{3}/.test(pendingText) && /^\s+(?:[A-Za-z(]|at |File ")/.test(line);
}

/**
 * The next link of an exception chain printed under a stack (`Caused by: …` after `\tat …` frames, Python's
 * "During handling of the above exception…") continues that block even when the link alone reads like
 * a log line of some format: a chain is one error, its links are not separate failures.
 */
function chainsOn(pending: { text: string; line: number; endLine: number }, line: string): boolean {
  if (pending.endLine === pending.line) return false;
  if (!/^(?:Caused by: |\[cause\]|During handling of the above|The above exception was)/.test(line)) return false;
  const last = pending.text.slice(pending.text.lastIndexOf('\n') + 1);
  return /^\s+(?:at |\.\.\. \d+ (?:more|common frames omitted)|File ")|^\s*\^+\s*$|^\s*$/.test(last) || /^\s+\S/.test(last);
}

/**
 * Rust anyhow's chain (`Error: …`, a blank line, `Caused by:`, then each cause indented): an indented
 * line under a bare `Caused by:` is the cause, even when it reads like a line of its own.
 */
function underCauseHeader(pendingText: string): boolean {
  return /\nCaused by:\s*$/.test(pendingText.slice(-40));
}

/** Lines that continue the previous event rather than start one: indented frames, object dumps. */
const PADDED_LEVEL = /^ {1,4}(?:TRACE|DEBUG|INFO|WARN|ERROR) [\w:.-]+(?:[:{]| - )/;

/** How much of the lines under a message-less header become its message. */
const MAX_HEADER_MESSAGE = 2000;

function isContinuation(line: string): boolean {
  // a padded level word starts a record (Rust tracing's ` INFO target: …` once a container stamp is cut off)
  if (PADDED_LEVEL.test(line)) return false;
  // (a terminal frame's lines — `╭────╮`, `│    MCP error …`, `╰────╯` — belong to the event the frame is printed under)
  return /^(?:\s+\S|[}\]]\s*,?\s*$|Caused by:(?: |$)|\[cause\]|During handling of the above|The above exception was|\s{0,4}[│╰╭]─|│\s)/.test(line);
}
