// Python tracebacks: plain, chained ("During handling…", "The above exception…"),
// PEP 654 ExceptionGroup renderings with "| " gutters, and Rich box tracebacks.
import type { BlockFolder } from '../index.ts';

const START = /^(?:Traceback \(most recent call last\):|\s*\+ Exception Group Traceback \(most recent call last\):|\s*[╭┌]─+ Traceback)/;
const CHAIN = /^(?:During handling of the above exception, another exception occurred:|The above exception was the direct cause of the following exception:)\s*$/;
// The closing "Type: message" line of a traceback (module path allowed).
const EXC_LINE = /^[A-Za-z_][\w.]{0,200}(?::\s.*|:?)$/;

export const pythonTraceback: BlockFolder = {
  id: 'python-traceback',
  source: 'unknown',
  level: 'error',
  maxLines: 5000,
  starts: (line) => START.test(line),
  continues(line, block) {
    if (line === '') {
      // A blank line inside a chain: only if the traceback is not finished yet or a chain marker follows (decided on the next line).
      return false;
    }
    if (/^[\s|+│╭╰┃─]/.test(line)) return true;
    if (CHAIN.test(line) || START.test(line)) return true;
    const prev = block[block.length - 1] ?? '';
    // The exception line ends a traceback: accept it when the previous line was a frame or source line.
    if (EXC_LINE.test(line) && /^\s/.test(prev)) return true;
    return false;
  },
  summary(block) {
    for (let i = block.length - 1; i >= 0; i--) {
      const l = block[i]!.replace(/^[\s|│]+/, '');
      if (/^[A-Za-z_][\w.]*(Error|Exception|Group|Exit|Interrupt|Cancelled|Timeout)\b/.test(l)) return l.trim();
    }
    return block[block.length - 1]?.trim() ?? '';
  },
};
