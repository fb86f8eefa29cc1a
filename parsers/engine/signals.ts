// The signal table (parsers/signals/*.json) compiled and applied to events. Loaded once, proved
// by its own samples and near-misses at load (a broken table stops the process with the file,
// the signal and the line), evaluated once per event at ingest behind one cheap gate.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Event } from '../contract/event.ts';
import { SignalGroup, type SignalCause, type SignalOutcome, type SignalSpec } from '../contract/signal.ts';
import { repoPath } from './repo.ts';
import { asciiAutomaton } from './aho-corasick.ts';

export const SIGNALS_DIR = repoPath('parsers/signals/');

export interface CompiledSignal {
  spec: SignalSpec;
  group: string;
  file: string;
  patterns: RegExp[];
  literals: string[];
}

export interface SignalMeaning {
  cause: SignalCause | 'http-status';
  outcome: SignalOutcome;
  stage?: string;
  side: string;
}

export class SignalError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = 'SignalError';
  }
}

/** How much of an event the signals read: the first line and a block's text up to here. */
const SCAN_CHARS = 16 * 1024;
/** RE2 (DuckDB, ClickHouse) cannot run these; keep the table portable to native evaluation. */
const NOT_PORTABLE = /\(\?[=!<]|\\[1-9]/;

export function compileGroup(json: unknown, file: string): CompiledSignal[] {
  const parsed = SignalGroup.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `field "${i.path.join('.') || '(root)'}": ${i.message}`).join('; ');
    throw new SignalError(file, `${issues}. See parsers/signals/README.md for the fields`);
  }
  const out: CompiledSignal[] = [];
  for (const spec of parsed.data.signals) {
    const patterns = spec.patterns.map((p) => {
      if (NOT_PORTABLE.test(p)) throw new SignalError(file, `signal ${spec.id}: pattern /${p}/ uses a lookaround or a backreference; write it without (RE2 cannot run it)`);
      try {
        return new RegExp(p, spec.flags);
      } catch (e) {
        throw new SignalError(file, `signal ${spec.id}: pattern /${p}/ is not a valid regex (${(e as Error).message})`);
      }
    });
    const literals = spec.literals.map((l) => l.toLowerCase());
    out.push({ spec, group: parsed.data.group, file, patterns, literals });
  }
  return out;
}

/** Why a compiled signal disagrees with its own samples and near-misses (empty: it proves itself). */
export function checkSignal(s: CompiledSignal): string[] {
  const problems: string[] = [];
  for (const line of s.spec.samples) {
    const text = scanText(line);
    const lower = text.toLowerCase();
    if (!s.literals.some((l) => lower.includes(l)))
      problems.push(`sample "${line.slice(0, 120)}" holds none of the literals ${JSON.stringify(s.spec.literals)} (the gate would skip it)`);
    else if (!s.patterns.some((p) => p.test(text))) problems.push(`sample "${line.slice(0, 120)}" matches no pattern`);
  }
  for (const line of s.spec.nearMisses) {
    const text = scanText(line);
    if (s.patterns.some((p) => p.test(text))) problems.push(`near-miss "${line.slice(0, 120)}" matches a pattern`);
  }
  return problems;
}

export function loadSignalTable(dir = SIGNALS_DIR): CompiledSignal[] {
  const all: CompiledSignal[] = [];
  const ids = new Map<string, string>();
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const file = join(dir, name);
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new SignalError(file, `not valid JSON (${(e as Error).message})`);
    }
    for (const s of compileGroup(json, file)) {
      const prev = ids.get(s.spec.id);
      if (prev) throw new SignalError(file, `signal id ${s.spec.id} is already defined in ${prev}`);
      ids.set(s.spec.id, file);
      const problems = checkSignal(s);
      if (problems.length) throw new SignalError(file, `signal ${s.spec.id}: ${problems.join('; ')}`);
      all.push(s);
    }
  }
  return all;
}

/**
 * What the signals read of a line: JSON-escaped text unescaped (an error body quoted inside a
 * JSON log line, an SSE `data:` payload), so one pattern serves both spellings.
 */
export function scanText(text: string): string {
  let t = text.length > SCAN_CHARS ? text.slice(0, SCAN_CHARS) : text;
  // a message wrapped onto an indented next line reads as one ("Session\n     not found")
  if (t.includes('\n')) t = t.replace(/\r?\n[ \t]+/g, ' ');
  if (!t.includes('\\')) return t;
  // (\u0027 is how .NET's and Python's JSON encoders write an apostrophe)
  return t.replace(/\\(["\\/nrt]|u003[cCeE]|u002[67])/g, (_, c: string) => {
    switch (c) {
      case 'n':
      case 'r':
      case 't':
        return ' ';
      case 'u003c':
      case 'u003C':
        return '<';
      case 'u003e':
      case 'u003E':
        return '>';
      case 'u0026':
        return '&';
      case 'u0027':
        return "'";
      default:
        return c;
    }
  });
}

export class SignalTable {
  readonly signals: readonly CompiledSignal[];
  /** Every literal of the table, longest first, as one case-insensitive alternation. */
  private readonly gate: RegExp;
  /** For a literal the gate found: the signals it opens, its own and those of every literal inside it. */
  private readonly opens = new Map<string, number[]>();
  private readonly meanings = new Map<string, SignalMeaning>();
  /**
   * The same gate for ASCII text as an Aho-Corasick automaton over lower-cased char codes: one
   * table step per character instead of the alternation trying ~500 literals at each start (the
   * largest single cost of ingest's main thread). Non-ASCII text keeps the regex, whose `i`
   * folding then differs from a lower-cased comparison.
   */
  private readonly step: Int32Array;
  /** For each automaton state: the signals the literals ending there open (null: none). */
  private readonly fires: (Uint16Array | null)[];
  constructor(signals: readonly CompiledSignal[]) {
    this.signals = signals;
    const lits = [...new Set(signals.flatMap((s) => s.literals))].sort((a, b) => b.length - a.length);
    this.gate = new RegExp(lits.map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'gi');
    for (const l of lits) {
      const idx: number[] = [];
      signals.forEach((sig, i) => {
        if (sig.literals.some((x) => l.includes(x))) idx.push(i);
      });
      this.opens.set(l, idx);
    }
    for (const s of signals) this.meanings.set(s.spec.id, { ...s.spec.meaning });
    ({ step: this.step, fires: this.fires } = gateAutomaton(lits, this.opens));
  }

  /**
   * Signal ids that fire on this text, in table order. One pass of the gate finds which literals the
   * text holds (at every start position, so overlapping ones too; a shorter literal inside a longer one
   * is opened with it); only the signals those literals open run their patterns. Most lines hold a
   * literal or two, so a line costs one scan and a few patterns rather than every signal's literals.
   */
  match(text: string): string[] {
    const t = scanText(text);
    let open = this.asciiOpen(t);
    if (open === undefined) open = this.regexOpen(t);
    if (!open) return [];
    const out: string[] = [];
    for (let i = 0; i < this.signals.length; i++) {
      if (!open[i]) continue;
      const s = this.signals[i]!;
      for (const p of s.patterns) {
        if (p.test(t)) {
          out.push(s.spec.id);
          break;
        }
      }
    }
    return out;
  }

  /** The signals the gate opens on ASCII text (null: none); undefined when the text is not ASCII. */
  private asciiOpen(t: string): Uint8Array | null | undefined {
    const step = this.step;
    let open: Uint8Array | null = null;
    // states are stored premultiplied by 128, with bit 0 set where a literal ends
    let state = 0;
    for (let i = 0, n = t.length; i < n; i++) {
      const c = t.charCodeAt(i);
      if (c > 127) return undefined;
      state = step[(state & ~1) + c]!;
      if (state & 1) {
        open ??= new Uint8Array(this.signals.length);
        const f = this.fires[state >> 7]!;
        for (let k = 0; k < f.length; k++) open[f[k]!] = 1;
      }
    }
    return open;
  }

  private regexOpen(t: string): Uint8Array | null {
    const re = this.gate;
    re.lastIndex = 0;
    let open: Uint8Array | null = null;
    for (let m = re.exec(t); m !== null; m = re.exec(t)) {
      open ??= new Uint8Array(this.signals.length);
      const idx = this.opens.get(m[0].toLowerCase());
      if (idx) for (const i of idx) open[i] = 1;
      else open.fill(1); // a case folding toLowerCase does not undo: test them all
      re.lastIndex = m.index + 1;
    }
    return open;
  }

  /**
   * The signals of one event: its text's, plus `http-NNN` for a non-2xx status the format or text gave.
   * `textIds`: match(e.text) computed beforehand (where the line was redacted: signalsOfLines).
   */
  forEvent(e: Pick<Event, 'text' | 'message' | 'httpStatus'>, textIds?: readonly string[]): string[] {
    let ids = e.text.length >= e.message.length ? (textIds !== undefined ? textIds.slice() : this.match(e.text)) : this.match(`${e.message}\n${e.text}`);
    // a structured line's message read on its own too: inside the JSON object a wording's end is a
    // closing quote (`"message":"journal entry committed","entry_id":…`), where a pattern that wants the
    // message to end there (`committed$`, `fetch failed$`) cannot see it
    if (e.message.length > 0 && e.text.length > e.message.length && e.text.includes('{"')) {
      const more = this.match(e.message);
      if (more.length) ids = this.inTableOrder(ids, more);
    }
    if (e.httpStatus !== null && e.httpStatus >= 300 && e.httpStatus !== 304) ids.push(`http-${e.httpStatus}`);
    return ids;
  }

  /** The union of two id lists, in table order. */
  private inTableOrder(a: readonly string[], b: readonly string[]): string[] {
    const have = new Set([...a, ...b]);
    if (have.size === a.length) return a.slice();
    return this.signals.map((s) => s.spec.id).filter((id) => have.has(id));
  }

  meaning(id: string): SignalMeaning | null {
    const m = this.meanings.get(id);
    if (m) return m;
    if (/^http-\d{3}$/.test(id)) return { cause: 'http-status', outcome: Number(id.slice(5)) >= 400 ? 'failure' : 'context', stage: 'http_status', side: 'any' };
    return null;
  }
}

/**
 * Aho-Corasick over the ASCII literals (a non-ASCII literal cannot occur in ASCII text): a dense
 * transition table on char codes 0–127 with upper-case letters folded, and per state the union of
 * `opens` for every literal ending there (through the failure links). A literal found anywhere
 * opens what the regex gate opens for the longest literal starting at the same place, since that
 * one contains it.
 */
function gateAutomaton(lits: readonly string[], opens: ReadonlyMap<string, number[]>): { step: Int32Array; fires: (Uint16Array | null)[] } {
  const ascii = lits.filter((l) => !/[^\x00-\x7f]/.test(l));
  const { next: step, out } = asciiAutomaton(ascii, (c) => (c >= 65 && c <= 90 ? c + 32 : c));
  const fires = out.map((words) => {
    if (!words.length) return null;
    const o = new Set<number>();
    for (const w of words) for (const x of opens.get(ascii[w]!)!) o.add(x);
    return Uint16Array.from([...o].sort((a, b) => a - b));
  });
  // premultiply the targets (one add per character) and mark the states that fire
  for (let i = 0; i < step.length; i++) step[i] = step[i]! * 128 + (fires[step[i]!] ? 1 : 0);
  return { step, fires };
}

/**
 * The signals of each line (`match`), as the ingest's runners compute them beside redaction so the
 * main thread's parse does not (parsers/engine/parse-file.ts PreparedLines.signals): `at[i]` is the
 * index in `sets` of line i's ids, NO_SIGNALS_KNOWN for a skipped line (null) or past 65 535 sets.
 */
export interface LineSignals {
  at: Uint16Array;
  sets: string[][];
}
export const NO_SIGNALS_KNOWN = 0xffff;

export function signalsOfLines(text: readonly (string | null)[], t: SignalTable = signalTable()): LineSignals {
  const at = new Uint16Array(text.length);
  const sets: string[][] = [];
  const index = new Map<string, number>();
  for (let i = 0; i < text.length; i++) {
    const line = text[i];
    if (line === null || line === undefined) {
      at[i] = NO_SIGNALS_KNOWN;
      continue;
    }
    const ids = t.match(line);
    const key = ids.join(' ');
    let k = index.get(key);
    if (k === undefined && sets.length < NO_SIGNALS_KNOWN) {
      k = sets.push(ids) - 1;
      index.set(key, k);
    }
    at[i] = k ?? NO_SIGNALS_KNOWN;
  }
  return { at, sets };
}

let table: SignalTable | null = null;
/** The built-in table, loaded on first use. */
export function signalTable(): SignalTable {
  return (table ??= new SignalTable(loadSignalTable()));
}
