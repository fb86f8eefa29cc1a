// Exception trees from text: parse, flatten (Sentry's shape), choose the root, infer the stage.
// PLACEHOLDER: the exception-analysis work replaces the bodies; the exported names and types are the seam.
import type { Stage } from '../../contract/analysis.ts';

export interface Frame {
  file: string | null;
  line: number | null;
  function: string | null;
}

export interface ExceptionNode {
  id: number;
  parentId: number | null;
  /** How this node hangs off its parent. */
  source: 'root' | '__cause__' | '__context__' | `exceptions[${number}]` | 'cause';
  isGroup: boolean;
  /** Type as logged, module path kept (httpx.ConnectError). */
  type: string;
  message: string;
  frames: Frame[];
}

export interface ExceptionTree {
  language: 'python' | 'node' | 'java' | 'go' | 'unknown';
  nodes: ExceptionNode[];
  /** A cap was hit or the text was cut: the tree is incomplete. */
  truncated: boolean;
}

export interface RootChoice {
  root: ExceptionNode | null;
  /** Types from the outermost wrapper down to the root. */
  chain: string[];
  /** When root is null: the best visible clue. */
  clue: string | null;
}

export interface StageGuess {
  stage: Stage;
  evidence: string;
}

const EXC = /^([A-Za-z_][\w.]*(?:Error|Exception|Group|Exit|Interrupt|Cancelled|Timeout|Closed)\w*)(?::\s*(.*))?$/;

export function parseExceptionText(text: string): ExceptionTree | null {
  const nodes: ExceptionNode[] = [];
  for (const raw of text.split('\n')) {
    const l = raw.replace(/^[\s|│+]+/, '').trim();
    const m = EXC.exec(l);
    if (m) {
      nodes.push({
        id: nodes.length,
        parentId: nodes.length ? nodes.length - 1 : null,
        source: nodes.length ? '__context__' : 'root',
        isGroup: /ExceptionGroup/.test(m[1]!),
        type: m[1]!,
        message: m[2] ?? '',
        frames: [],
      });
    }
  }
  return nodes.length ? { language: 'unknown', nodes, truncated: false } : null;
}

export function chooseRoot(tree: ExceptionTree): RootChoice {
  const real = tree.nodes.filter((n) => !n.isGroup && !/CancelledError|GeneratorExit/.test(n.type));
  const root = real[0] ?? null;
  return { root, chain: tree.nodes.map((n) => n.type), clue: root ? null : (tree.nodes.at(-1)?.message ?? null) };
}

export function inferStage(_tree: ExceptionTree, root: ExceptionNode | null): StageGuess {
  const t = `${root?.type ?? ''}: ${root?.message ?? ''}`;
  if (/ConnectError|ECONNREFUSED|ENOTFOUND|ConnectTimeout|Connection refused/.test(t)) return { stage: 'connect', evidence: t };
  if (/without sending a response/.test(t)) return { stage: 'before_headers', evidence: t };
  if (/incomplete chunked read/.test(t)) return { stage: 'mid_body', evidence: t };
  return { stage: 'unknown', evidence: t };
}
