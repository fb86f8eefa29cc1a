// Python tracebacks: plain, chained (__cause__/__context__), PEP 654 groups with `| ` gutters,
// Rich boxes, loguru's diagnose layout, and fragments that start or end mid-traceback.
// Python prints the earliest exception first; we link each later one as the parent of the one
// before it, so the outermost exception is the tree's top and the first failure a leaf.
import { rawExc, type Frame, type RawExc } from './types.ts';

export interface ParseResult {
  roots: RawExc[];
  truncated: boolean;
  notes: string[];
  cut: { parent: RawExc | null; frames: Frame[] } | null;
}

const CAUSE = 'The above exception was the direct cause of the following exception:';
const CONTEXT = 'During handling of the above exception, another exception occurred:';
const TB_HEADER = /Traceback \(most recent call last\):$/;
const GROUP_TOP = /^.{0,200}?\+ Exception Group Traceback \(most recent call last\):$/;
const GROUP_REBASED = /^Exception Group Traceback \(most recent call last\):$/;
const FRAME = /^\s{0,40}>?\s{0,4}File "([^"]{1,2000})", line (\d{1,9})(?:, in (.{1,500}))?$/;
const RICH_START = /^\s{0,40}╭─{0,400} ?Traceback/;
const RICH_END = /^\s{0,40}╰─/;
const RICH_FRAME = /^\s{0,40}│ (.{1,1000}?):(\d{1,9}) in ([^\s│]{1,300})\s{0,400}│$/;
const EXC = /^([A-Za-z_]\w{0,200}(?:\.[A-Za-z_]\w{0,200}){0,20})(?::(?: (.*))?)?$/;
const LEVEL_WORD = /^(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL|TRACE|NOTICE|Note|Hint)$/;
const TYPE_SUFFIX = /(?:Error|Exception|Exit|Interrupt|Warning|Cancelled|Group|Timeout|Closed|Failure|Fault|Disconnect|Iteration|EndOfStream|WouldBlock)$/;
const REPR = /exception=([A-Za-z_][\w.]{0,200})\((['"])(.{0,2000}?)\2\)>?$/;
const GROUP_SEP = /^(?:\+-| {2})\+-{3,40} (\d{1,6}|\.\.\.) -{3,40}$/;
const GROUP_CLOSE = /^ {2}\+-{10,80}$/;
const MORE = /^and (\d{1,9}) more exceptions?$/;
const MAX_DEPTH = /^\.\.\. \(max_group_depth is (\d{1,4})\)$/;

/** Does this text look like Python traceback output? */
export function looksPython(lines: readonly string[]): boolean {
  return lines.some((l) => TB_HEADER.test(l) || GROUP_TOP.test(l) || FRAME.test(l) || RICH_START.test(l) || l.trim() === CAUSE || l.trim() === CONTEXT);
}

export function parsePython(lines: readonly string[]): ParseResult | null {
  const ctx: ParseResult = { roots: [], truncated: false, notes: [], cut: null };
  let repr: RawExc | null = null;
  for (const l of lines) {
    if (!/^(?:future: <Task|Task exception|.{0,200}exception=)/.test(l)) continue;
    const m = REPR.exec(l);
    if (m) {
      repr = rawExc(m[1]!, m[3]!);
      repr.origin = 'header';
      break;
    }
  }
  ctx.roots = parseSeq(lines, ctx, null);
  if (repr) attachRepr(ctx, repr);
  return ctx.roots.length || ctx.cut ? ctx : null;
}

// A task's header names its exception; when the traceback below was cut before showing it,
// that name is the best evidence of what sat where the cut is.
function attachRepr(ctx: ParseResult, repr: RawExc): void {
  const seen = new Set<string>();
  const walk = (e: RawExc, d = 0): void => {
    if (d > 200) return;
    seen.add(e.type);
    if (e.cause) walk(e.cause, d + 1);
    e.children.forEach((c) => walk(c, d + 1));
  };
  ctx.roots.forEach((r) => walk(r));
  if (seen.has(repr.type)) return;
  const parent = ctx.cut?.parent ?? emptyGroup(ctx.roots);
  if (parent) {
    parent.children.push(repr);
    ctx.notes.push(`${repr.type} taken from the task header: its traceback is not in the excerpt`);
  } else {
    ctx.roots.unshift(repr);
  }
}

function emptyGroup(roots: RawExc[]): RawExc | null {
  for (const r of roots) {
    let e: RawExc | null = r;
    for (let d = 0; e && d < 200; d++) {
      if (e.isGroup && e.children.length === 0) return e;
      e = e.children.at(-1) ?? null;
    }
  }
  return null;
}

function acceptableType(type: string, afterFrames: boolean): boolean {
  const last = type.slice(type.lastIndexOf('.') + 1);
  if (LEVEL_WORD.test(last) || !/^[A-Z]/.test(last)) return false;
  if (/^[A-Z0-9_]+$/.test(last) && last.length > 3) return false; // SHOUTING log words, not classes
  return afterFrames || TYPE_SUFFIX.test(last);
}

function parseFrame(m: RegExpExecArray): Frame {
  return { file: m[1]!, line: Number(m[2]), function: m[3] ?? null };
}

/** Parse one gutter level: chains of tracebacks and groups; returns the outermost exceptions. */
function parseSeq(lines: readonly string[], ctx: ParseResult, parentGroup: RawExc | null): RawExc[] {
  const roots: RawExc[] = [];
  let last: RawExc | null = null;
  let pending: '__cause__' | '__context__' | null = null;
  let frames: Frame[] | null = null; // open traceback: frames seen, exception line not yet
  let inRich = false;
  let continuation = -1; // lines appended to the last message
  const attach = (e: RawExc) => {
    if (pending && last) {
      e.cause = last;
      e.causeKind = pending;
    } else if (last) {
      roots.push(last);
    }
    last = e;
    pending = null;
    frames = null;
    continuation = 0;
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const t = line.trim();
    if (t === '') {
      if (continuation >= 0) continuation = -1;
      i++;
      continue;
    }
    if (t === CAUSE || t === CONTEXT) {
      if (frames && (frames as Frame[]).length) markCut(ctx, parentGroup, frames);
      pending = t === CAUSE ? '__cause__' : '__context__';
      frames = null;
      continuation = -1;
      i++;
      continue;
    }
    if (GROUP_TOP.test(line)) {
      const { rebased, next } = extractTopGroup(lines, i);
      attach(parseGroup(rebased, ctx));
      continuation = -1;
      i = next;
      continue;
    }
    if (GROUP_REBASED.test(line)) {
      let j = i + 1;
      while (j < lines.length && !/^\+-\+/.test(lines[j]!) && !(lines[j]!.trim() === CAUSE || lines[j]!.trim() === CONTEXT)) j++;
      if (j < lines.length && /^\+-\+/.test(lines[j]!)) {
        j++;
        while (j < lines.length && /^\s{2,}[|+]/.test(lines[j]!)) j++;
      }
      attach(parseGroup(lines.slice(i, j), ctx));
      continuation = -1;
      i = j;
      continue;
    }
    if (/^\+-\+-{3}/.test(line) && last && !frames) {
      let j = i + 1;
      while (j < lines.length && /^\s{2,}[|+]/.test(lines[j]!)) j++;
      parseChildren(last as RawExc, lines.slice(i, j), ctx);
      continuation = -1;
      i = j;
      continue;
    }
    if (TB_HEADER.test(line) || RICH_START.test(line)) {
      if (frames && (frames as Frame[]).length) markCut(ctx, parentGroup, frames);
      frames = [];
      inRich = RICH_START.test(line);
      continuation = -1;
      i++;
      continue;
    }
    if (inRich) {
      if (RICH_END.test(line)) inRich = false;
      else {
        const rm = RICH_FRAME.exec(line);
        if (rm && frames) (frames as Frame[]).push({ file: rm[1]!.trim(), line: Number(rm[2]), function: rm[3]! });
      }
      i++;
      continue;
    }
    const fm = FRAME.exec(line);
    if (fm) {
      (frames ??= []).push(parseFrame(fm));
      continuation = -1;
      i++;
      continue;
    }
    if (/^\s/.test(line)) {
      // Source, carets, loguru annotations; or the indented rest of a message.
      if (!frames && last && continuation >= 0 && continuation < 20) {
        (last as RawExc).message = joinMsg((last as RawExc).message, t);
        continuation++;
      }
      i++;
      continue;
    }
    const em = EXC.exec(line);
    // Without frames, a bare name ("Error") is a word, not an exception line.
    if (em && acceptableType(em[1]!, frames !== null) && (frames !== null || em[2] !== undefined || line.includes('.') || line.endsWith(':'))) {
      attach(rawExc(em[1]!, em[2] ?? '', frames ?? []));
      i++;
      continue;
    }
    if (last && !frames && continuation >= 0 && continuation < 20 && !/^(?:\d|\[|\{|<)/.test(t)) {
      (last as RawExc).message = joinMsg((last as RawExc).message, t);
      continuation++;
    }
    // Anything else is a foreign line interleaved from another log: skipped.
    i++;
  }
  if (frames && (frames as Frame[]).length) markCut(ctx, parentGroup, frames);
  if (pending) {
    ctx.truncated = true;
    ctx.notes.push('chain cut after "' + (pending === '__cause__' ? CAUSE : CONTEXT) + '"');
  }
  if (last) roots.push(last);
  return roots;
}

function joinMsg(a: string, b: string): string {
  return a ? `${a}\n${b}` : b;
}

function markCut(ctx: ParseResult, parent: RawExc | null, frames: Frame[]): void {
  ctx.truncated = true;
  if (!ctx.cut) {
    ctx.cut = { parent, frames };
    ctx.notes.push('traceback cut before its exception line');
  }
}

/** Top-form group (`+ Exception Group Traceback` at gutter column g) → rebased lines. */
function extractTopGroup(lines: readonly string[], start: number): { rebased: string[]; next: number } {
  let g = -1;
  for (let k = start + 1; k < lines.length && k < start + 4; k++) {
    const idx = lines[k]!.search(/[|+]/);
    if (idx >= 0 && /^\s*$/.test(lines[k]!.slice(0, idx))) {
      g = idx;
      break;
    }
  }
  if (g < 0) g = lines[start]!.indexOf('+ Exception Group');
  const rebased = ['Exception Group Traceback (most recent call last):'];
  let j = start + 1;
  let foreign = 0;
  while (j < lines.length) {
    const l = lines[j]!;
    if (isRegionLine(l, g)) {
      rebased.push(l[g] === '|' ? l.slice(g + 2) : l.slice(g));
      foreign = 0;
      j++;
      continue;
    }
    // Tolerate a few interleaved foreign lines when the gutter resumes after them.
    let k = j;
    while (k < lines.length && k - j < 3 && !isRegionLine(lines[k]!, g) && lines[k]!.trim() !== '') k++;
    if (k < lines.length && k > j && isRegionLine(lines[k]!, g) && foreign === 0) {
      foreign = k - j;
      j = k;
      continue;
    }
    break;
  }
  return { rebased, next: j };
}

function isRegionLine(l: string, g: number): boolean {
  if (l.length <= g || !/^\s*$/.test(l.slice(0, g))) return false;
  const c = l[g];
  return c === '|' || c === '+' || (c === ' ' && /^\s*[|+]/.test(l));
}

/** Rebased group: header, own traceback, then `+-+` children at column 0/2. */
function parseGroup(lines: readonly string[], ctx: ParseResult): RawExc {
  let k = 1;
  while (k < lines.length && !/^\+-\+/.test(lines[k]!)) k++;
  const own = parseSeq(lines.slice(1, k), ctx, null);
  const group = own.at(-1) ?? rawExc('ExceptionGroup', '');
  if (!own.length) {
    ctx.truncated = true;
    ctx.notes.push('exception group cut before its own exception line');
  }
  parseChildren(group, lines.slice(k), ctx);
  return group;
}

/** `+-+---- 1 ----` … `+----` children of a group, in rebased columns. */
function parseChildren(group: RawExc, lines: readonly string[], ctx: ParseResult): void {
  group.isGroup = true;
  let chunk: string[] | null = null;
  let title = '';
  const flush = () => {
    if (!chunk) return;
    const content = chunk;
    chunk = null;
    if (title === '...') {
      const more = content.map((c) => MORE.exec(c.trim())).find(Boolean);
      ctx.truncated = true;
      ctx.notes.push(more ? `${more[1]} more sub-exceptions not shown` : 'more sub-exceptions not shown');
      return;
    }
    const depth = content.map((c) => MAX_DEPTH.exec(c.trim())).find(Boolean);
    if (depth) {
      ctx.truncated = true;
      ctx.notes.push(`groups deeper than ${depth[1]} not shown`);
      return;
    }
    const sub = parseSeq(content, ctx, group);
    group.children.push(...sub.slice(-1));
  };
  for (let j = 0; j < lines.length; j++) {
    const l = lines[j]!;
    const sep = GROUP_SEP.exec(l);
    if (sep) {
      flush();
      chunk = [];
      title = sep[1]!;
      continue;
    }
    if (GROUP_CLOSE.test(l)) {
      flush();
      break;
    }
    if (chunk) (chunk as string[]).push(l.length > 2 && l[2] === '|' ? l.slice(4) : l.slice(2));
  }
  flush();
}
