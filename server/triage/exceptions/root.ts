// chooseRoot: the earliest causal leaf, skipping wrappers and consequences. See README "How chooseRoot decides".
import { TIER_RANK, text, tierOf, type Tier } from './classes.ts';
import type { ExceptionNode, ExceptionTree, RootChoice } from './types.ts';

export function chooseRoot(tree: ExceptionTree): RootChoice {
  const kids = new Map<number, ExceptionNode[]>();
  for (const n of tree.nodes) if (n.parentId !== null) (kids.get(n.parentId) ?? kids.set(n.parentId, []).get(n.parentId)!).push(n);
  const tiers = new Map<number, Tier>(tree.nodes.map((n) => [n.id, tierOf(n)]));
  const isReal = (n: ExceptionNode) => !['wrapper', 'noise'].includes(tiers.get(n.id)!);

  // A real node is a causal leaf when nothing real hangs below it (its cause or members are only noise).
  const hasRealBelow = new Map<number, boolean>();
  for (let k = tree.nodes.length - 1; k >= 0; k--) {
    const n = tree.nodes[k]!; // children always have larger ids (depth-first flattening)
    hasRealBelow.set(
      n.id,
      (kids.get(n.id) ?? []).some((c) => isReal(c) || hasRealBelow.get(c.id)),
    );
  }
  const leaves = tree.nodes.filter((n) => isReal(n) && !hasRealBelow.get(n.id));
  // Stable: equal tiers keep document order, which is the order failures happened in a group.
  const ranked = [...leaves].sort((a, b) => TIER_RANK[tiers.get(a.id)!] - TIER_RANK[tiers.get(b.id)!] || a.id - b.id);
  const best = ranked[0];
  const byId = new Map(tree.nodes.map((n) => [n.id, n]));
  const chainTo = (id: number | null): string[] => {
    const out: string[] = [];
    for (let cur = id === null ? undefined : byId.get(id), k = 0; cur && k < 400; cur = cur.parentId === null ? undefined : byId.get(cur.parentId), k++) out.push(cur.type);
    return out.reverse();
  };

  if (best && tiers.get(best.id) !== 'consequence') {
    const tier = tiers.get(best.id)!;
    const others = ranked.slice(1).filter((n) => TIER_RANK[tiers.get(n.id)!] <= TIER_RANK.other);
    const why =
      tier === 'teardown'
        ? 'only a teardown artefact is visible and no earlier causal error: it is the root (a caller-side defect)'
        : `earliest causal leaf, preferred as ${tier} error${leaves.length > 1 ? ` over ${leaves.length - 1} other leaf/leaves` : ''}`;
    const choice: RootChoice = { root: best, chain: chainTo(best.id), clue: null, why };
    if (others.length) choice.others = others;
    return choice;
  }

  // The root is not in the excerpt: say what is visible.
  if (tree.cut && tree.cut.frames.length) {
    const f = tree.cut.frames.at(-1)!;
    return {
      root: null,
      chain: chainTo(tree.cut.parentId),
      clue: `traceback cut before its exception line; last frame ${f.file ?? '?'}:${f.line ?? '?'} in ${f.function ?? '?'}`,
      why: 'no causal leaf in the excerpt; the cut traceback is the nearest evidence',
    };
  }
  if (best) {
    return { root: null, chain: chainTo(best.id), clue: text(best), why: `only "${best.message.trim()}" is visible: it reports an earlier failure that is not in the excerpt` };
  }
  const visible = [...tree.nodes].reverse().find((n) => tiers.get(n.id) === 'noise') ?? deepestWrapper(tree.nodes, kids);
  return {
    root: null,
    chain: visible ? chainTo(visible.id) : [],
    clue: visible ? `${text(visible)}${tiers.get(visible.id) === 'wrapper' ? ' (nothing visible inside)' : ''}` : null,
    why: visible && tiers.get(visible.id) === 'noise' ? 'only cancellation noise is visible' : 'only wrappers are visible',
  };
}

function deepestWrapper(nodes: ExceptionNode[], kids: Map<number, ExceptionNode[]>): ExceptionNode | undefined {
  return [...nodes].reverse().find((n) => !(kids.get(n.id) ?? []).length) ?? nodes[0];
}
