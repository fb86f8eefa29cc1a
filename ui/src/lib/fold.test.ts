// The decision table's folding, without a browser: sections, summaries, visible rows, the URL form.
import { describe, expect, it } from 'vitest';
import type { Failure } from '../../../server/contract/analysis.ts';
import { foldLayout, formatExpand, gist, nothingNeedsAction, parseExpand, summarize, visibleRows } from './fold.ts';

const f = (over: Partial<Failure>): Failure => ({
  rpcId: null,
  method: null,
  tool: null,
  session: null,
  httpStatus: null,
  stage: 'unknown',
  rootException: null,
  exceptionChain: [],
  decision: 'no_action',
  rule: 'r',
  rationale: '',
  evidence: [],
  ...over,
});

describe('foldLayout', () => {
  const failures = [
    f({ role: 'optional', episode: 1, roleReason: 'The standalone GET SSE stream (server-initiated messages) failed (HTTP 502).' }),
    f({ role: 'primary', episode: 1, decision: 'reinitialize' }),
    f({ role: 'optional', episode: 1, roleReason: 'The standalone GET SSE stream (server-initiated messages) failed (HTTP 404).' }),
    f({ role: 'consequence', episode: 3, roleReason: 'the same error reported again (first at a.log:4)' }),
    f({ role: 'primary', episode: 2, decision: 'retry' }),
    f({ role: 'recovered', episode: 2, roleReason: 'resumed with Last-Event-ID' }),
    f({ role: 'primary', episode: 1, decision: 'reinitialize' }),
  ];
  const layout = foldLayout(failures);

  it('leads with the primaries, grouped by episode, and folds the rest under theirs', () => {
    expect(layout.primary).toEqual([1, 4, 6]);
    expect(layout.folded).toBe(4);
    expect(layout.sections.map((s) => [s.key, s.primary, s.group?.members ?? null, s.group?.led ?? null])).toEqual([
      ['1', [1, 6], [0, 2], true],
      ['2', [4], [5], true],
      ['3', [], [3], false],
    ]);
    expect(layout.groupOf.get(3)).toBe('3');
    expect(layout.counts).toEqual({ optional: 2, consequence: 1, recovered: 1 });
  });

  it('summarises a group by role, one gist per distinct reason', () => {
    expect(layout.sections[0]!.group!.summary).toBe('2 optional (the standalone GET SSE stream failed)');
    expect(layout.sections[2]!.group!.summary).toBe('1 consequence (the same error reported again)');
    const many = summarize(['a', 'b', 'c', 'b'].map((r) => f({ role: 'consequence', roleReason: r })));
    expect(many.summary).toBe('4 consequences (a; b; +1 more)');
    expect(gist(f({ role: 'optional' }))).toBe('a channel whose loss loses no request');
  });

  it("shows a group's members only when it is expanded", () => {
    const rows = (open: string[]) => visibleRows(layout, new Set(open)).map((r) => (r.kind === 'group' ? `g${r.key}` : String(r.i)));
    expect(rows([])).toEqual(['1', '6', 'g1', '4', 'g2', 'g3']);
    expect(rows(['1', '3'])).toEqual(['1', '6', 'g1', '0', '2', '4', 'g2', 'g3', '3']);
  });

  it('says why nothing needs action', () => {
    const all = foldLayout([f({ role: 'optional', episode: 1 }), f({ role: 'optional', episode: 1 }), f({ role: 'recovered', episode: 2 })]);
    expect(all.primary).toEqual([]);
    expect(nothingNeedsAction(all)).toBe(
      'Every failure of the 3 found is optional, a consequence of another failure, or recovered: 2 optional (a channel whose loss loses no request) and 1 recovered (a later success of the same call).',
    );
  });

  it('treats failures without a role (older documents) as primary', () => {
    const old = foldLayout([f({}), f({})]);
    expect(old.primary).toEqual([0, 1]);
    expect(old.sections).toHaveLength(1);
    expect(old.sections[0]!.group).toBeNull();
  });
});

describe('expand in the URL', () => {
  it('round-trips and drops what is not an episode number', () => {
    expect([...parseExpand('3,1,x,,01,-2')]).toEqual(['3', '1']);
    expect(formatExpand(new Set(['10', '2']))).toBe('2,10');
    expect(formatExpand(new Set())).toBeNull();
    expect(parseExpand(null).size).toBe(0);
  });
});
