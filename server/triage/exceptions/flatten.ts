// Sentry's flattening (sentry_sdk/utils.py exceptions_from_error): depth-first, parent before
// its cause and members, with a cycle guard and explicit caps that leave `truncated: true`.
import type { ExceptionNode, ExceptionTree, RawExc } from './types.ts';
import type { ParseResult } from './python.ts';

export const MAX_NODES = 200;
export const MAX_FRAMES = 100;

export function flatten(language: ExceptionTree['language'], parsed: ParseResult): ExceptionTree {
  const nodes: ExceptionNode[] = [];
  const seen = new Set<RawExc>();
  const ids = new Map<RawExc, number>();
  let truncated = parsed.truncated;
  const notes = [...parsed.notes];
  const visit = (e: RawExc, parentId: number | null, source: ExceptionNode['source']): void => {
    if (seen.has(e)) {
      truncated = true;
      notes.push('cycle in the exception chain cut');
      return;
    }
    if (nodes.length >= MAX_NODES) {
      if (!notes.includes(`more than ${MAX_NODES} exceptions: the rest not kept`)) notes.push(`more than ${MAX_NODES} exceptions: the rest not kept`);
      truncated = true;
      return;
    }
    seen.add(e);
    let frames = e.frames;
    if (frames.length > MAX_FRAMES) {
      // The innermost frames say where it broke: keep the end of the stack.
      frames = frames.slice(-MAX_FRAMES);
      truncated = true;
      notes.push(`${e.type}: ${e.frames.length - MAX_FRAMES} outer frames dropped`);
    }
    const node: ExceptionNode = { id: nodes.length, parentId, source, isGroup: e.isGroup, type: e.type, message: e.message, frames };
    if (e.props && Object.keys(e.props).length) node.props = e.props;
    if (e.origin) node.origin = e.origin;
    nodes.push(node);
    ids.set(e, node.id);
    if (e.cause) visit(e.cause, node.id, e.causeKind);
    e.children.forEach((c, i) => visit(c, node.id, `exceptions[${i}]`));
  };
  for (const r of parsed.roots) visit(r, null, 'root');
  const tree: ExceptionTree = { language, nodes, truncated };
  if (notes.length) tree.notes = notes;
  if (parsed.cut) tree.cut = { parentId: parsed.cut.parent ? (ids.get(parsed.cut.parent) ?? null) : null, frames: parsed.cut.frames.slice(-MAX_FRAMES) };
  return tree;
}
