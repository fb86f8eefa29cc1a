// Node / TypeScript errors as util.inspect prints them (console.error(err)): a header,
// `    at` frames, then an own-properties object with `[cause]:` and `[errors]:` nested by indentation.
import { rawExc, type Frame, type RawExc } from './types.ts';
import type { ParseResult } from './python.ts';

const TYPE = String.raw`(?:[A-Z][\w$]{0,200}(?:Error|Exception)|Error)`;
// Header: optional prefix ("Error from MCP server: ", "[cause]: "), type, optional [CODE], message.
const HEADER = new RegExp(String.raw`^(\s*)(?:(?:\[cause\]|cause|\[errors\]): )?(.{0,200}?)(?:Uncaught )?(\[)?(${TYPE})(?: \[([A-Z][A-Z0-9_]{0,60})\])?(?:: ?(.*)| \{)?$`);
const FRAME = /^\s{1,80}at \S/;
const PROP = /^(\s*)(\[[\w$.() ]{1,80}\]|[\w$]{1,80}|'[^']{1,80}'): (.*?),?$/;
const PLACEHOLDER = /\[(Error|[A-Z][\w$]{0,80}(?:Error|Exception))\]/g;

export function looksNode(lines: readonly string[]): boolean {
  return (
    lines.some((l) => /^\s+at (?:async )?\S.{0,500}(?:\(|:\d)/.test(l) && !/^\s+at [\w$.]+\([\w$]+\.(?:java|kt|scala)/.test(l)) || lines.some((l) => /^\s+\[cause\]: /.test(l))
  );
}

function indentOf(l: string): number {
  return l.length - l.trimStart().length;
}

export function parseNode(lines: readonly string[]): ParseResult | null {
  const ctx: ParseResult = { roots: [], truncated: false, notes: [], cut: null };
  let i = 0;
  while (i < lines.length) {
    const h = matchHeader(lines[i]!);
    if (h) {
      const { exc, next } = parseError(lines, i, ctx, 0);
      ctx.roots.push(exc);
      i = Math.max(next, i + 1);
    } else i++;
  }
  return ctx.roots.length ? ctx : null;
}

interface Header {
  indent: number;
  type: string;
  code: string | null;
  message: string;
  opened: boolean;
}

// Lines are cut to 2000 characters before matching: log content is hostile.
function matchHeader(line: string): Header | null {
  const l = line.length > 2000 ? line.slice(0, 2000) : line;
  const m = HEADER.exec(l);
  if (!m) return null;
  // A prefix is only allowed when it ends where a label would ("…: "), so words like "Error in" never count.
  if (m[2] && !/(?:^|: |\] )$/.test(m[2])) return null;
  const opened = / \{$/.test(l);
  let message = m[6] ?? '';
  if (opened) message = message.replace(/ ?\{$/, '');
  message = message.replace(/,$/, '');
  if (m[3]) message = message.replace(/\]$/, '');
  if (m[4] === 'Error' && m[6] === undefined && !m[3] && !opened) return null;
  return { indent: m[1]!.length, type: m[4]!, code: m[5] ?? null, message: message.trim(), opened };
}

function parseError(lines: readonly string[], start: number, ctx: ParseResult, depth: number): { exc: RawExc; next: number } {
  const h = matchHeader(lines[start]!)!;
  const base = h.indent;
  const exc = rawExc(h.type, h.message);
  if (h.code) (exc.props ??= {}).code = h.code;
  if (h.type === 'AggregateError') exc.isGroup = true;
  let i = start + 1;
  let opened = h.opened;
  // Message continues on following lines until the first frame (multi-line messages).
  while (!opened && i < lines.length && !FRAME.test(lines[i]!) && lines[i]!.trim() !== '' && indentOf(lines[i]!) > base && !PROP.test(lines[i]!)) {
    exc.message = `${exc.message}\n${lines[i]!.trim()}`.trim();
    i++;
  }
  while (!opened && i < lines.length) {
    if (!FRAME.test(lines[i]!)) break;
    const { frame, opens } = frameOf(lines[i]!);
    exc.frames.push(frame);
    if (opens) opened = true;
    i++;
  }
  if (!opened && i < lines.length && /^\s*\{$/.test(lines[i]!)) {
    opened = true;
    i++;
  }
  if (!opened && i < lines.length && indentOf(lines[i]!) > base && PROP.test(lines[i]!) && exc.frames.length === 0) opened = true; // dev-style "code: 404" under a header
  if (!opened) return { exc, next: i };
  // Own properties, closed by "}" at the header's indentation.
  while (i < lines.length) {
    const l = lines[i]!;
    const ind = indentOf(l);
    const t = l.trim();
    if (t === '') break;
    if (ind <= base && /^[}\]]/.test(t)) return { exc, next: i + 1 };
    if (ind < base) break;
    const pm = PROP.exec(l);
    if (pm && depth < 50) {
      const key = pm[2]!;
      const value = pm[3]!;
      if (key === '[cause]' || key === 'cause') {
        if (matchHeader(l)) {
          const sub = parseError(lines, i, ctx, depth + 1);
          exc.cause = sub.exc;
          exc.causeKind = 'cause';
          i = sub.next;
          continue;
        }
      }
      if (key === '[errors]' || key === 'errors') {
        exc.isGroup = true;
        const inline = [...value.matchAll(PLACEHOLDER)];
        if (inline.length) {
          // util.inspect hid them ([Error]): nothing to parse, the group's own code speaks for them.
          ctx.truncated = true;
          ctx.notes.push(`${inline.length} inner errors hidden by util.inspect depth`);
          i++;
          continue;
        }
        i++;
        while (i < lines.length && indentOf(lines[i]!) > ind) {
          if (matchHeader(lines[i]!)) {
            const sub = parseError(lines, i, ctx, depth + 1);
            exc.children.push(sub.exc);
            i = sub.next;
          } else i++;
        }
        if (i < lines.length && /^\s*\],?$/.test(lines[i]!)) i++;
        continue;
      }
      if (!/^[{[]$/.test(value) && !key.startsWith('[Symbol')) (exc.props ??= {})[key.replace(/^'|'$/g, '')] = value.replace(/^'|'$/g, '');
    }
    i++;
  }
  return { exc, next: i };
}

// "    at fn (file:line:col) {" → frame; done in code, not one big regex, to stay linear.
function frameOf(line: string): { frame: Frame; opens: boolean } {
  let t = line.trim().slice(3);
  if (t.startsWith('async ')) t = t.slice(6);
  const opens = t.endsWith(' {');
  if (opens) t = t.slice(0, -2);
  if (t.endsWith(',')) t = t.slice(0, -1);
  let fn: string | null = null;
  let loc = t;
  const paren = t.lastIndexOf(' (');
  if (t.endsWith(')') && paren > 0) {
    fn = t.slice(0, paren);
    loc = t.slice(paren + 2, -1);
  }
  const m = /:(\d{1,9})(?::\d{1,9})?$/.exec(loc);
  return { frame: { function: fn, file: m ? loc.slice(0, m.index) : loc, line: m ? Number(m[1]) : null }, opens };
}
