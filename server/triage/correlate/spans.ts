// Join events into logical requests. Every join records the key that made it; time alone
// joins only together with status (and session/path when both sides have them), and says so.
import type { Event, RpcId, Source } from '../../../parsers/contract/event.ts';

export type JoinKey = 'session+rpcId' | 'x-request-id' | 'rpcId' | 'method+path+status+time' | 'adjacent-lines' | 'proxy-error+access';

export interface SpanBuild {
  id: number;
  events: Event[];
  joinedBy: Set<JoinKey>;
  rpcId: RpcId | null;
  method: string | null;
  tool: string | null;
  session: string | null;
  sources: Source[];
  start: number | null;
  end: number | null;
}

export interface CorrelateOptions {
  /** How far apart two lines of one exchange may be logged (after skew). */
  windowMs?: number;
}

class UnionFind {
  parent: number[];
  constructor(n: number) {
    this.parent = Array.from({ length: n }, (_, i) => i);
  }
  find(i: number): number {
    while (this.parent[i] !== i) {
      this.parent[i] = this.parent[this.parent[i]!]!;
      i = this.parent[i]!;
    }
    return i;
  }
  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent[Math.max(ra, rb)] = Math.min(ra, rb);
  }
}

export function buildSpans(events: readonly Event[], opts: CorrelateOptions = {}): SpanBuild[] {
  const windowMs = opts.windowMs ?? 2000;
  const uf = new UnionFind(events.length);
  const edges = new Map<number, Set<JoinKey>>(); // event index → keys that joined it
  const mark = (i: number, k: JoinKey) => {
    let s = edges.get(i);
    if (!s) edges.set(i, (s = new Set()));
    s.add(k);
  };
  const byKey = (keyOf: (e: Event) => string | null, key: JoinKey) => {
    const first = new Map<string, number>();
    events.forEach((e, i) => {
      const k = keyOf(e);
      if (k === null) return;
      const j = first.get(k);
      if (j === undefined) first.set(k, i);
      else {
        uf.union(i, j);
        mark(i, key);
        mark(j, key);
      }
    });
  };
  // Ids restart per session, so the session is part of the key.
  byKey((e) => (e.session && e.rpcId !== null ? `${e.session}\u0000${JSON.stringify(e.rpcId)}` : null), 'session+rpcId');
  byKey((e) => e.requestId, 'x-request-id');
  // Before a session exists (initialize) or in sessionless eras: the same rpc id in the same file, close in time.
  const lastByFileRpc = new Map<string, number>();
  events.forEach((e, i) => {
    if (e.rpcId === null || e.session) return;
    const k = `${e.file}\u0000${JSON.stringify(e.rpcId)}`;
    const j = lastByFileRpc.get(k);
    if (j !== undefined && near(events[j]!, e, windowMs * 5)) {
      uf.union(i, j);
      mark(i, 'rpcId');
      mark(j, 'rpcId');
    }
    lastByFileRpc.set(k, i);
  });
  // Proxy access lines carry no rpc id: pair each with the nearest client (or server) exchange of the same status.
  const proxyLines = events.map((e, i) => [e, i] as const).filter(([e]) => e.source === 'proxy' && e.httpStatus !== null && e.ts !== null);
  const used = new Set<string>(); // proxy file + target event: each access log pairs a target at most once
  for (const target of ['client', 'server'] as const) {
    const candidates = events.map((e, i) => [e, i] as const).filter(([e]) => e.source === target && e.httpStatus !== null && e.ts !== null);
    for (const [p, pi] of proxyLines) {
      if (target === 'server' && edges.get(pi)?.has('x-request-id')) continue;
      let best = -1;
      let bestGap = Infinity;
      for (const [c, ci] of candidates) {
        if (used.has(`${p.file}\u0000${ci}`) || c.httpStatus !== p.httpStatus) continue;
        if (p.session && c.session && p.session !== c.session) continue;
        if (p.httpPath && c.httpPath && stripQuery(p.httpPath) !== stripQuery(c.httpPath)) continue;
        if (p.httpMethod && c.httpMethod && p.httpMethod !== c.httpMethod) continue;
        const gap = Math.abs(c.ts! - p.ts!);
        // Access logs in `combined` format have one-second resolution.
        if (gap <= windowMs + 1000 && gap < bestGap) {
          best = ci;
          bestGap = gap;
        }
      }
      if (best >= 0) {
        used.add(`${p.file}\u0000${best}`);
        uf.union(pi, best);
        mark(pi, 'method+path+status+time');
        mark(best, 'method+path+status+time');
      }
    }
  }
  // A proxy error-log line ("… while connecting to upstream, request: "POST /mcp …"") belongs to the
  // access line of the same request: same method and path, logged within the same second or two.
  for (const [e, i] of events.map((x, k) => [x, k] as const)) {
    if (e.source !== 'proxy' || e.httpStatus !== null || !e.httpMethod || e.ts === null || (e.level !== 'error' && e.level !== 'warn')) continue;
    let best = -1;
    let bestGap = Infinity;
    for (const [p, pi] of proxyLines) {
      if (p.httpStatus! < 500 || p.httpMethod !== e.httpMethod || (p.httpPath && e.httpPath && stripQuery(p.httpPath) !== stripQuery(e.httpPath))) continue;
      const gap = p.ts! - e.ts;
      if (gap >= -1000 && gap <= 2000 && Math.abs(gap) < bestGap) {
        best = pi;
        bestGap = Math.abs(gap);
      }
    }
    if (best >= 0) {
      uf.union(i, best);
      mark(i, 'proxy-error+access');
      mark(best, 'proxy-error+access');
    }
  }
  // Lines that follow an exchange in the same file and carry no id of their own (the response
  // body, the thrown error, its traceback) belong to that exchange.
  let anchor = -1;
  let reach = 0; // last line attached to the current anchor: a chain of adjacent lines stays together
  events.forEach((e, i) => {
    const isAnchor = e.rpcId !== null || e.requestId !== null;
    if (isAnchor) {
      anchor = i;
      reach = e.endLine;
      return;
    }
    if (anchor < 0) return;
    const a = events[anchor]!;
    if (a.file !== e.file || e.line - reach > 3 || e.line < a.line) return;
    if (e.ts !== null && a.ts !== null && Math.abs(e.ts - a.ts) > 1000) return;
    if (e.session && a.session && e.session !== a.session) return;
    uf.union(i, anchor);
    mark(i, 'adjacent-lines');
    reach = e.endLine;
  });
  const groups = new Map<number, number[]>();
  events.forEach((_, i) => {
    const r = uf.find(i);
    const g = groups.get(r);
    if (g) g.push(i);
    else groups.set(r, [i]);
  });
  const spans: SpanBuild[] = [];
  for (const idx of groups.values()) {
    const evs = idx.map((i) => events[i]!);
    const joinedBy = new Set<JoinKey>();
    for (const i of idx) for (const k of edges.get(i) ?? []) joinedBy.add(k);
    const ts = evs.map((e) => e.ts).filter((t): t is number => t !== null);
    spans.push({
      id: spans.length,
      events: evs,
      joinedBy,
      rpcId: evs.find((e) => e.rpcId !== null)?.rpcId ?? null,
      method: evs.find((e) => e.rpcMethod)?.rpcMethod ?? null,
      tool: evs.find((e) => e.tool)?.tool ?? null,
      session: evs.find((e) => e.session)?.session ?? null,
      sources: [...new Set(evs.map((e) => e.source))].sort(),
      start: ts.length ? Math.min(...ts) : null,
      end: ts.length ? Math.max(...ts) : null,
    });
  }
  return spans;
}

function near(a: Event, b: Event, ms: number): boolean {
  return a.ts === null || b.ts === null || Math.abs(a.ts - b.ts) <= ms;
}

function stripQuery(p: string): string {
  const q = p.indexOf('?');
  return q < 0 ? p : p.slice(0, q);
}
