// Known SDK defects as data. A defect is recognised from its signature in the exception tree
// (and, when the caller knows it, the SDK version); matching never claims a fix that is not verified.
import type { ExceptionNode, ExceptionTree } from './types.ts';

export interface NodeTest {
  /** Regex source on the node type (module path kept). */
  type?: string;
  /** Regex source on the node message. */
  message?: string;
}

export interface KnownDefect {
  id: string;
  title: string;
  link: string;
  /** Affected SDK, as a package name and a regex source on its version. */
  sdk: { package: string; versions: string };
  status: 'open' | 'fixed';
  /** What happens, in the words a report should carry. */
  statement: string;
  /** Things that look like fixes and are not. */
  notFixes: string[];
  signature: {
    language: ExceptionTree['language'];
    /** Some group in the tree must contain (at any depth) a node matching this. */
    groupContains: NodeTest;
    /** Supporting evidence: in the tree, or in context.laterMessages (later calls on the same client). */
    alsoAny?: NodeTest[];
  };
}

export const KNOWN_DEFECTS: readonly KnownDefect[] = [
  {
    id: 'python-sdk-3522',
    title: 'One interrupted response closes the whole Python SDK 2.x client',
    link: 'https://github.com/modelcontextprotocol/python-sdk/issues/3522',
    sdk: { package: 'mcp', versions: '^2\\.' },
    status: 'open',
    statement:
      'python-sdk issue 3522 (mcp 2.2.0/2.3.0, open): one interrupted response closes the whole client; later calls on it fail with "Connection closed", concurrent calls on the same connection are cancelled, and cleanup raises "ExceptionGroup: unhandled errors in a TaskGroup" whose nested cause is a RemoteProtocolError. Create a new client object instead of calling the old one again. The TypeScript SDK reports the interrupted request and succeeds on the next call.',
    notFixes: [
      'PR https://github.com/modelcontextprotocol/python-sdk/pull/3584 was closed without merging: it is not a fix.',
      '"Upgrade to the latest version" is not a verified fix for this issue.',
    ],
    signature: {
      language: 'python',
      groupContains: { type: '(?:^|\\.)RemoteProtocolError$' },
      alsoAny: [{ message: '^Connection closed\\.?$' }, { type: '(?:^|\\.)(?:CancelledError|ClosedResourceError)$' }],
    },
  },
];

export interface DefectContext {
  /** e.g. "mcp 2.3.0" or "2.3.0" when the logs name it. */
  sdkVersion?: string | null;
  /** Messages of later failures on the same client (e.g. "Connection closed"). */
  laterMessages?: readonly string[];
}

export interface DefectMatch {
  id: string;
  title: string;
  link: string;
  statement: string;
  notFixes: string[];
  /** The lines of the tree that matched, as "Type: message". */
  evidence: string[];
  /** "signature" alone, or "signature+version" when the SDK version was known and in range. */
  confidence: 'signature' | 'signature+version';
}

const cache = new Map<string, RegExp>();
function re(src: string): RegExp {
  let r = cache.get(src);
  if (!r) cache.set(src, (r = new RegExp(src)));
  return r;
}

function nodeMatches(n: ExceptionNode, t: NodeTest): boolean {
  return (!t.type || re(t.type).test(n.type)) && (!t.message || re(t.message).test(n.message.trim()));
}

/** What follows the last exception type on a line (`…: pkg.McpError: Connection closed` → `Connection closed`). */
function afterType(m: string): string {
  const i = m.search(/(?:^|[\s:])(?:[a-z_][\w]*\.)*[A-Z]\w*(?:Error|Exception): [^:]*$/);
  if (i < 0) return m.trim();
  return m.slice(m.indexOf(': ', i) + 2).trim();
}

export function matchKnownDefects(tree: ExceptionTree, context: DefectContext = {}, table: readonly KnownDefect[] = KNOWN_DEFECTS): DefectMatch[] {
  const out: DefectMatch[] = [];
  const kids = new Map<number, ExceptionNode[]>();
  for (const n of tree.nodes) if (n.parentId !== null) (kids.get(n.parentId) ?? kids.set(n.parentId, []).get(n.parentId)!).push(n);
  const below = (id: number): ExceptionNode[] => {
    const acc: ExceptionNode[] = [];
    const stack = [...(kids.get(id) ?? [])];
    while (stack.length && acc.length < 1000) {
      const n = stack.pop()!;
      acc.push(n);
      stack.push(...(kids.get(n.id) ?? []));
    }
    return acc;
  };
  for (const d of table) {
    if (d.signature.language !== tree.language) continue;
    const version = context.sdkVersion?.match(/\d+\.\d+(?:\.\d+)?/)?.[0];
    if (version && !re(d.sdk.versions).test(version)) continue;
    const hit = tree.nodes
      .filter((g) => g.isGroup)
      .map((g) => ({ g, inner: below(g.id).find((n) => nodeMatches(n, d.signature.groupContains)) }))
      .find((x) => x.inner);
    if (!hit) continue;
    const support = d.signature.alsoAny ?? [];
    const inTree = tree.nodes.find((n) => support.some((t) => nodeMatches(n, t)));
    // (a later line may carry the message behind the host's own words and the exception's type:
    // `step 3/4 failed: mcp.shared.exceptions.McpError: Connection closed`)
    const later = (context.laterMessages ?? []).find((m) => support.some((t) => t.message && (re(t.message).test(m.trim()) || re(t.message).test(afterType(m)))));
    if (support.length && !inTree && !later) continue;
    const evidence = [`${hit.g.type}: ${hit.g.message}`, `${hit.inner!.type}: ${hit.inner!.message}`];
    if (inTree) evidence.push(`${inTree.type}: ${inTree.message}`);
    if (later) evidence.push(`later call: ${later}`);
    out.push({ id: d.id, title: d.title, link: d.link, statement: d.statement, notFixes: d.notFixes, evidence, confidence: version ? 'signature+version' : 'signature' });
  }
  return out;
}
