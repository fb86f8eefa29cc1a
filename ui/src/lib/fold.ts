// The decision table's layout: primary failures lead, the rest are folded under their episode
// (cli-contract.md roles, as server/cli/render.ts prints them). Plain data, no runes, no DOM.
import type { Failure, FailureRole } from '../../../server/contract/analysis.ts';

export type FoldedRole = Exclude<FailureRole, 'primary'>;

/** A failure without a role (a document from before roles) counts as primary, as headlineOf reads it. */
export const roleOf = (f: Pick<Failure, 'role'>): FailureRole => f.role ?? 'primary';

export const FOLDED_ROLES: readonly FoldedRole[] = ['optional', 'consequence', 'recovered'];

/** What each folded role means, in the contract's words (shortened). */
export const ROLE_MEANING: Record<FoldedRole, string> = {
  optional: 'a channel whose loss loses no request',
  consequence: 'caused by an earlier failure',
  recovered: 'a later success of the same call',
};

export interface FoldGroup {
  /** The episode as a string ('0' for failures without one): the key in the URL's `expand`. */
  key: string;
  episode: number | null;
  /** Whether a primary failure of the same episode leads it; false: nothing in it needs action. */
  led: boolean;
  /** Indices into analysis.failures, in analysis order. */
  members: number[];
  counts: Record<FoldedRole, number>;
  /** "2 optional (the standalone GET SSE stream failed), 1 consequence (the same error reported again)". */
  summary: string;
}

/** One <tbody>: an episode's primary failures, then its folded group. */
export interface FoldSection {
  key: string;
  episode: number | null;
  primary: number[];
  group: FoldGroup | null;
}

export interface FoldLayout {
  primary: number[];
  folded: number;
  counts: Record<FoldedRole, number>;
  /** Episodes with a primary failure first (in the order their first primary appears), then episodes without one. */
  sections: FoldSection[];
  /** Folded failure index → its group's key. */
  groupOf: ReadonlyMap<number, string>;
}

export type RowRef = { kind: 'failure'; i: number } | { kind: 'group'; key: string };

const keyOf = (f: Pick<Failure, 'episode'>) => String(f.episode ?? 0);

/** A roleReason reduced to what a group's summary line needs: no parenthesised detail, no final stop, short. */
export function gist(f: Pick<Failure, 'role' | 'roleReason'>): string {
  const role = roleOf(f);
  let s = (f.roleReason ?? '')
    .replace(/\s*\([^()]*\)/g, '')
    .replace(/[.\s]+$/, '')
    .trim();
  if (!s) return role === 'primary' ? '' : ROLE_MEANING[role];
  if (/^[A-Z][a-z]/.test(s)) s = s[0]!.toLowerCase() + s.slice(1);
  if (s.length > 64) s = s.slice(0, 63).replace(/\s+\S*$/, '') + '…';
  return s;
}

const plural = (role: FoldedRole, n: number) => (role === 'consequence' && n !== 1 ? 'consequences' : role);

export function summarize(members: readonly Pick<Failure, 'role' | 'roleReason'>[]): { counts: Record<FoldedRole, number>; summary: string } {
  const counts: Record<FoldedRole, number> = { optional: 0, consequence: 0, recovered: 0 };
  const gists: Record<FoldedRole, string[]> = { optional: [], consequence: [], recovered: [] };
  for (const f of members) {
    const role = roleOf(f);
    if (role === 'primary') continue;
    counts[role]++;
    const g = gist(f);
    if (!gists[role].includes(g)) gists[role].push(g);
  }
  const parts = FOLDED_ROLES.filter((r) => counts[r] > 0).map((r) => {
    const g = gists[r];
    return `${counts[r]} ${plural(r, counts[r])} (${g.slice(0, 2).join('; ')}${g.length > 2 ? `; +${g.length - 2} more` : ''})`;
  });
  return { counts, summary: parts.join(', ') };
}

export function foldLayout(failures: readonly Failure[]): FoldLayout {
  const primary: number[] = [];
  const foldedBy = new Map<string, number[]>();
  const primaryBy = new Map<string, number[]>();
  const groupOf = new Map<number, string>();
  failures.forEach((f, i) => {
    const key = keyOf(f);
    if (roleOf(f) === 'primary') {
      primary.push(i);
      (primaryBy.get(key) ?? primaryBy.set(key, []).get(key)!).push(i);
    } else {
      (foldedBy.get(key) ?? foldedBy.set(key, []).get(key)!).push(i);
      groupOf.set(i, key);
    }
  });
  const group = (key: string, led: boolean): FoldGroup | null => {
    const members = foldedBy.get(key);
    if (!members) return null;
    const { counts, summary } = summarize(members.map((i) => failures[i]!));
    return { key, episode: key === '0' ? null : Number(key), led, members, counts, summary };
  };
  const sections: FoldSection[] = [];
  for (const [key, ps] of primaryBy) sections.push({ key, episode: key === '0' ? null : Number(key), primary: ps, group: group(key, true) });
  const orphans = [...foldedBy.keys()].filter((k) => !primaryBy.has(k)).sort((a, b) => Number(a) - Number(b));
  for (const key of orphans) sections.push({ key, episode: key === '0' ? null : Number(key), primary: [], group: group(key, false) });
  const counts: Record<FoldedRole, number> = { optional: 0, consequence: 0, recovered: 0 };
  for (const s of sections) for (const r of FOLDED_ROLES) counts[r] += s.group?.counts[r] ?? 0;
  return { primary, folded: groupOf.size, counts, sections, groupOf };
}

/** The table's rows as shown: each section's primaries, its group row, and the group's members when expanded. */
export function visibleRows(layout: FoldLayout, expanded: ReadonlySet<string>): RowRef[] {
  const out: RowRef[] = [];
  for (const s of layout.sections) {
    for (const i of s.primary) out.push({ kind: 'failure', i });
    if (!s.group) continue;
    out.push({ kind: 'group', key: s.group.key });
    if (expanded.has(s.group.key)) for (const i of s.group.members) out.push({ kind: 'failure', i });
  }
  return out;
}

/** `expand=1,3` ⇄ the set of expanded group keys (episode numbers; 0 for failures without one). */
export function parseExpand(v: string | null): Set<string> {
  return new Set(
    (v ?? '')
      .split(',')
      .filter((k) => /^\d{1,6}$/.test(k))
      .map((k) => String(Number(k))),
  );
}

export function formatExpand(keys: ReadonlySet<string>): string | null {
  return [...keys].sort((a, b) => Number(a) - Number(b)).join(',') || null;
}

/** Why nothing needs action when every failure was folded: "2 optional (…) and 1 recovered (…)". */
export function nothingNeedsAction(layout: FoldLayout): string {
  const parts = FOLDED_ROLES.filter((r) => layout.counts[r] > 0).map((r) => `${layout.counts[r]} ${plural(r, layout.counts[r])} (${ROLE_MEANING[r]})`);
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : (parts[0] ?? '');
  const n = layout.folded;
  return `Every failure ${n === 1 ? 'found is' : `of the ${n} found is`} optional, a consequence of another failure, or recovered: ${list}.`;
}
