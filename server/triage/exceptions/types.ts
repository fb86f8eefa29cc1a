// Shapes of the exception tree (Sentry's flattened model) and of the choices made on it.
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
  /** Added: scalar own properties as logged (Node: code, errno, syscall, bytesRead). */
  props?: Record<string, string>;
  /** Added: where the node came from when not a traceback of its own ("header": a `exception=X('…')` repr line). */
  origin?: 'header';
}

export interface ExceptionTree {
  language: 'python' | 'node' | 'java' | 'go' | 'unknown';
  nodes: ExceptionNode[];
  /** A cap was hit or the text was cut: the tree is incomplete. */
  truncated: boolean;
  /** Added: why the tree is incomplete ("15 more sub-exceptions not shown", "traceback cut before its exception line"). */
  notes?: string[];
  /** Added: frames of a traceback that ends before its exception line (a cut excerpt); parentId = the group it sat in. */
  cut?: { parentId: number | null; frames: Frame[] } | null;
}

export interface RootChoice {
  root: ExceptionNode | null;
  /** Types from the outermost wrapper down to the root. */
  chain: string[];
  /** When root is null: the best visible clue. */
  clue: string | null;
  /** Added: which rule decided, in words (the decision leaves a trace). */
  why?: string;
  /** Added: other real failures in the same tree (concurrent requests fail independently). */
  others?: ExceptionNode[];
}

export interface StageGuess {
  stage: Stage;
  evidence: string;
}

/** Parser output before flattening: a real tree with object links. */
export interface RawExc {
  type: string;
  message: string;
  frames: Frame[];
  isGroup: boolean;
  /** The exception this one was raised from / during (Python), or its `cause` (Node, Java, Go). */
  cause: RawExc | null;
  causeKind: '__cause__' | '__context__' | 'cause';
  /** Group members (PEP 654 sub-exceptions, AggregateError [errors]). */
  children: RawExc[];
  props?: Record<string, string>;
  origin?: 'header';
}

export function rawExc(type: string, message: string, frames: Frame[] = []): RawExc {
  return { type, message, frames, isGroup: false, cause: null, causeKind: 'cause', children: [] };
}
