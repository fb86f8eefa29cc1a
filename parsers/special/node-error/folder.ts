// Node / TypeScript errors: "TypeError: fetch failed" followed by "    at …" frames and
// "[cause]: …" / "cause: …" blocks (util.inspect rendering).
import type { BlockFolder } from '../index.ts';

const START = /^(?:Uncaught )?(?:[A-Z][\w$]*(?:Error|Exception)|Error|AggregateError)(?: \[[A-Z_]+\])?: .*$/;

export const nodeError: BlockFolder = {
  id: 'node-error',
  source: 'unknown',
  level: 'error',
  maxLines: 2000,
  starts: (line) => START.test(line),
  continues(line) {
    return /^\s+(?:at |\[cause\]|cause:|code:|errno:|syscall:|address:|port:|bytesRead:|bytesWritten:|\{|\}|\]|[a-zA-Z_$][\w$]*:)/.test(line) || /^\s*\}\s*$/.test(line);
  },
  summary: (block) => block[0]!.trim(),
};
