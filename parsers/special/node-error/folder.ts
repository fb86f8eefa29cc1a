// Node / TypeScript errors: "TypeError: fetch failed" followed by "    at …" frames and the
// util.inspect object with "[cause]: …", "[errors]: [ … ]" and own properties ({ code: 'UND_ERR_SOCKET', … }).
// Also "[AggregateError: …] {" and a header after a label ("Connection error: SseError: …").
// A block of one line is an error line without a stack: the engine may keep it as a line event.
import type { BlockFolder } from '../index.ts';

const TYPE = String.raw`(?:[A-Z][\w$]{0,200}(?:Error|Exception)|Error)`;
const START = new RegExp(String.raw`^(?:Uncaught )?\[?${TYPE}(?: \[[A-Z][A-Z0-9_]{0,60}\])?(?::.*|\] \{| \{)?$`);
const LABELLED = new RegExp(String.raw`^.{0,160}?: (?:Uncaught )?${TYPE}(?: \[[A-Z][A-Z0-9_]{0,60}\])?: .{0,4000}$`);
const CONT = /^\s{1,200}(?:at \S|\[cause\]:|\[errors\]:|\[Symbol\(|cause:|\.\.\. \d{1,9} more|[\w$]{1,80}: |'[^']{1,80}': |[}\]],?$|\{$|\[?[A-Z][\w$]{0,200}(?:Error|Exception)\b)/;

export const nodeError: BlockFolder = {
  id: 'node-error',
  source: 'unknown',
  level: 'error',
  maxLines: 2000,
  // every TYPE holds `Error` or `Exception`: a cheap test first (asked of every line of every file)
  starts: (line) => (line.includes('Error') || line.includes('Exception')) && (START.test(line) || (LABELLED.test(line) && !/^\s/.test(line))),
  continues(line, block) {
    if (CONT.test(line)) return true;
    // The closing brace of the top-level object.
    if (/^[}\]],?$/.test(line)) return openBraces(block) > 0;
    return false;
  },
  summary: (block) => block[0]!.trim(),
};

function openBraces(block: readonly string[]): number {
  let depth = 0;
  for (const l of block) {
    const t = l.trimEnd();
    if (/[{[]$/.test(t)) depth++;
    if (/^\s*[}\]]/.test(t)) depth--;
  }
  return depth;
}
