// Node / TypeScript errors: "TypeError: fetch failed" followed by "    at …" frames and the
// util.inspect object with "[cause]: …", "[errors]: [ … ]" and own properties ({ code: 'UND_ERR_SOCKET', … }).
// Also "[AggregateError: …] {" and a header after a label ("Connection error: SseError: …").
// A block of one line is an error line without a stack: the engine may keep it as a line event.
import type { BlockFolder } from '../index.ts';

const TYPE = String.raw`(?:[A-Z][\w$]{0,200}(?:Error|Exception)|Error)`;
const START = new RegExp(String.raw`^(?:Uncaught )?\[?${TYPE}(?: \[[A-Z][A-Z0-9_]{0,60}\])?(?::.*|\] \{| \{)?$`);
const LABELLED = new RegExp(String.raw`^.{0,160}?: (?:Uncaught )?${TYPE}(?: \[[A-Z][A-Z0-9_]{0,60}\])?: .{0,4000}$`);
// Node's report of an uncaught exception before the process exits: the throwing source location alone on
// a line, the source line and a caret, a blank, the error with its stack, a blank, and (Node >= 17) the
// version footer. (node: lib/internal/process/execution.js, src/node_errors.cc PrintException; the footer
// is printed by node::errors::TriggerUncaughtException.)
const LOCATION = /^(?:<anonymous(?:_script)?>|node:[\w/.-]{1,200}|(?:file:\/\/)?(?:[A-Za-z]:)?[\\/][^\s]{0,500}\.[cm]?[jt]sx?):\d{1,7}$/;
const FOOTER = /^Node\.js v\d{1,3}\.\d{1,3}\.\d{1,3}$/;
const ERROR_LINE = new RegExp(String.raw`^(?:Uncaught )?\[?${TYPE}(?: \[[A-Z][A-Z0-9_]{0,60}\])?(?::.*|\] \{| \{)?$`);
const CONT = /^\s{1,200}(?:at \S|\[cause\]:|\[errors\]:|\[Symbol\(|cause:|\.\.\. \d{1,9} more|[\w$]{1,80}: |'[^']{1,80}': |[}\]],?$|\{$|\[?[A-Z][\w$]{0,200}(?:Error|Exception)\b)/;

export const nodeError: BlockFolder = {
  id: 'node-error',
  source: 'unknown',
  level: 'error',
  maxLines: 2000,
  // every TYPE holds `Error` or `Exception`: a cheap test first (asked of every line of every file)
  starts: (line) =>
    ((line.includes('Error') || line.includes('Exception')) && (START.test(line) || (LABELLED.test(line) && !/^\s/.test(line)))) || (line.includes(':') && LOCATION.test(line)),
  continues(line, block) {
    if (FOOTER.test(line)) return hasErrorLine(block) && !FOOTER.test(block[block.length - 1]!);
    if (FOOTER.test(block[block.length - 1]!)) return false; // the footer is the report's last line
    if (LOCATION.test(block[0]!) && !hasErrorLine(block)) {
      // the source echo: the line, its caret; then the error line (after a blank, held provisionally)
      if (ERROR_LINE.test(line)) return true;
      return block.length < 4 && line.trim() !== '' && !block.some((l) => l.trim() === '');
    }
    if (CONT.test(line)) return true;
    // The closing brace of the top-level object.
    if (/^[}\]],?$/.test(line)) return openBraces(block) > 0;
    return false;
  },
  // a blank inside an uncaught-exception report (before the error line, before the footer)
  provisional: (line, block) => line.trim() === '' && (LOCATION.test(block[0]!) || hasErrorLine(block)) && !FOOTER.test(block[block.length - 1]!),
  summary: (block) => (LOCATION.test(block[0]!) ? (block.find((l) => ERROR_LINE.test(l)) ?? block[0]!) : block[0]!).trim(),
};

function hasErrorLine(block: readonly string[]): boolean {
  for (const l of block) if (ERROR_LINE.test(l)) return true;
  return false;
}

function openBraces(block: readonly string[]): number {
  let depth = 0;
  for (const l of block) {
    const t = l.trimEnd();
    if (/[{[]$/.test(t)) depth++;
    if (/^\s*[}\]]/.test(t)) depth--;
  }
  return depth;
}
