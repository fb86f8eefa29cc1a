// Python tracebacks: plain, chained ("During handling…", "The above exception…"),
// PEP 654 ExceptionGroup renderings with "| " gutters, Rich box tracebacks, loguru's
// diagnose layout (blank lines between frames, "└" annotations) and fragments that start
// at a "File …" line. Blank lines are provisional: they join only if the traceback goes on.
import type { BlockFolder } from '../index.ts';

const HEADER = /^.{0,120}?(?:Traceback \(most recent call last\):|\+ Exception Group Traceback \(most recent call last\):)$/;
const RICH_START = /^\s{0,40}╭─{1,400} ?Traceback/;
// asyncio and friends print a line naming the task before the traceback.
const PRELUDE =
  /^(?:Task exception was never retrieved|future: <Task |an error occurred during closing of asynchronous generator|asyncgen: <|Exception in callback |Exception in thread |Exception ignored in)/;
// (a frame may sit in an ExceptionGroup's "| " gutter: a fragment pasted from inside a group)
const FRAME = /^\s{0,40}(?:\|\s{1,12})?>?\s{0,4}File "[^"]{1,2000}", line \d{1,9}/;
const CHAIN = /^\s{0,40}(?:\| )?(?:During handling of the above exception, another exception occurred:|The above exception was the direct cause of the following exception:)$/;
const EXC_LINE = /^[A-Za-z_]\w{0,200}(?:\.[A-Za-z_]\w{0,200}){0,20}(?::(?: .*)?)?$/;
const GUTTER = /^\s{0,200}[|+│╭╰┃]/;
const VIEWER_NUMBER = /^\s{0,8}\d{1,7}$/;
const CARETS = /^[\^~ ]{1,400}$/;
const CLOSING_RULE = /^\s{0,200}\+-{4,400}\s{0,8}$/;
const NEW_RECORD = /^(?:\d|\[|\{|<|(?:DEBUG|INFO|WARN|WARNING|ERROR|CRITICAL|FATAL|TRACE)\b)/;

function lastNonBlank(block: readonly string[]): { line: string; index: number } {
  for (let k = block.length - 1; k >= 0 && k >= block.length - 8; k--) if (block[k]!.trim() !== '') return { line: block[k]!, index: k };
  return { line: '', index: -1 };
}

/** Is the current traceback still waiting for its exception line? (look back a bounded distance) */
function awaitingException(block: readonly string[]): boolean {
  for (let k = block.length - 1; k >= 0 && k >= block.length - 400; k--) {
    const l = block[k]!;
    if (l.trim() === '' || /^\s/.test(l) || FRAME.test(l)) continue;
    if (HEADER.test(l) || RICH_START.test(l) || PRELUDE.test(l)) return true;
    if (/^╰/.test(l)) return true;
    if (EXC_LINE.test(l)) return false; // the exception line was seen
    // other column-0 text: source lines that lost their indentation (viewer copies)
  }
  return true;
}

export const pythonTraceback: BlockFolder = {
  id: 'python-traceback',
  source: 'unknown',
  level: 'error',
  maxLines: 5000,
  // both header forms hold the word: a cheap test first (asked of every line of every file)
  starts: (line) => (line.includes('Traceback') && (HEADER.test(line) || RICH_START.test(line))) || PRELUDE.test(line) || FRAME.test(line),
  continues(line, block) {
    if (line.trim() === '') return false; // blank: see provisional()
    const prev = lastNonBlank(block);
    const afterBlank = prev.index < block.length - 1;
    if (CHAIN.test(line)) return true;
    // Inside a group gutter everything continues, nested "| Traceback" headers included.
    if (GUTTER.test(line) && !(afterBlank && /^\s*\+ Exception Group/.test(line) && !CHAIN.test(prev.line))) return true;
    if (HEADER.test(line) || RICH_START.test(line)) return CHAIN.test(prev.line) || PRELUDE.test(prev.line);
    if (FRAME.test(line)) return true;
    // an ExceptionGroup rendering ends with its all-dash closing rule: the exceptions were inside the
    // gutter, so a column-0 line after it (`INFO:     … "POST /mcp" 200`) is the next record
    if (CLOSING_RULE.test(prev.line) && !/^\s/.test(line)) return false;
    if (/^\s/.test(line)) {
      // Source lines and loguru "└" annotations; after a blank only inside an open traceback.
      return !afterBlank || awaitingException(block);
    }
    if (PRELUDE.test(prev.line) && !afterBlank) return PRELUDE.test(line);
    // Log-viewer copies: line numbers on their own lines, carets and source lines without indentation.
    if (!afterBlank && (VIEWER_NUMBER.test(line) || CARETS.test(line))) return awaitingException(block);
    if (!afterBlank && (VIEWER_NUMBER.test(prev.line) || FRAME.test(prev.line)) && !EXC_LINE.test(line) && !NEW_RECORD.test(line)) return awaitingException(block);
    if (EXC_LINE.test(line) && awaitingException(block)) return true;
    // A message that runs on over a few lines after the exception line.
    if (!afterBlank && !NEW_RECORD.test(line) && !awaitingException(block)) {
      let k = block.length - 1;
      while (k > 0 && block.length - k < 4 && !EXC_LINE.test(block[k]!)) k--;
      return block.length - k < 4 && EXC_LINE.test(block[k]!) && !/^\s/.test(block[k]!);
    }
    return false;
  },
  provisional: (line, block) => line.trim() === '' && block.length > 0,
  summary(block) {
    for (let i = block.length - 1; i >= 0; i--) {
      const l = block[i]!.replace(/^[\s|│]+/, '');
      if (/^[A-Za-z_][\w.]*(Error|Exception|Group|Exit|Interrupt|Cancelled|Timeout)\b/.test(l)) return l.trim();
    }
    // a fragment cut before its exception line: its innermost frame says where it was
    for (let i = block.length - 1; i >= 0; i--) if (FRAME.test(block[i]!)) return block[i]!.replace(/^[\s|│]+/, '').trim();
    return block[block.length - 1]?.trim() ?? '';
  },
};
