// Exception trees from text: parse, flatten (Sentry's shape), choose the root, infer the stage.
// Public face of the folder; the work lives in one file per concern (see README.md).
import { flatten } from './flatten.ts';
import { looksGo, looksJava, parseGo, parseJava, parseMessageLevel } from './java-go.ts';
import { looksNode, parseNode } from './node.ts';
import { normalizeText } from './normalize.ts';
import { looksPython, parsePython } from './python.ts';
import type { ExceptionTree } from './types.ts';

export type { ExceptionNode, ExceptionTree, Frame, RootChoice, StageGuess } from './types.ts';
export { chooseRoot } from './root.ts';
export { inferStage } from './stage.ts';
export { matchKnownDefects, KNOWN_DEFECTS, type KnownDefect, type DefectMatch, type DefectContext } from './known-defects.ts';
export { unescapeJsonText, looksJsonEscaped, stripAnsi, normalizeText } from './normalize.ts';
export { MAX_NODES, MAX_FRAMES } from './flatten.ts';

/** Text longer than this is cut (and the tree marked truncated): parsing stays bounded. */
export const MAX_TEXT = 2_000_000;

/**
 * Parse one exception report (a folded block, or a few lines) into a flattened tree.
 * Accepts: ANSI colours, CRLF, JSON-escaped text (literal \n), log-viewer line numbers,
 * a prefix shared by every line, interleaved foreign lines. Returns null when no exception is named.
 */
export function parseExceptionText(text: string): ExceptionTree | null {
  const cutText = text.length > MAX_TEXT;
  const lines = normalizeText(cutText ? text.slice(0, MAX_TEXT) : text);
  const attempts: [ExceptionTree['language'], (l: readonly string[]) => boolean, typeof parsePython][] = [
    ['python', looksPython, parsePython],
    ['java', looksJava, parseJava],
    ['node', looksNode, parseNode],
    ['go', looksGo, parseGo],
  ];
  for (const [language, looks, parse] of attempts) {
    if (!looks(lines)) continue;
    const parsed = parse(lines);
    if (parsed) return mark(flatten(language, parsed), cutText);
  }
  // No traceback shape: a Python exception line, a Node header, or a type named inside a message.
  const loose = parsePython(lines) ?? parseNode(lines);
  if (loose) return mark(flatten(parsePython(lines) ? 'python' : 'node', loose), cutText);
  const msg = parseMessageLevel(lines);
  return msg ? mark(flatten(/\b[a-z]\w*\.[a-z]\w*\.\w/.test(msg.roots[0]!.type) ? 'java' : 'unknown', msg), cutText) : null;
}

function mark(tree: ExceptionTree, cut: boolean): ExceptionTree {
  if (cut) {
    tree.truncated = true;
    (tree.notes ??= []).push(`text longer than ${MAX_TEXT} characters cut`);
  }
  return tree;
}
