// The incident index answers its per-failure questions from summaries built once; each answer must be
// the one a scan of every line gives (the definitions, kept here as the references).
import { describe, expect, it } from 'vitest';
import { emptyEvent, type Event } from '../../../parsers/contract/event.ts';
import { signalTable } from '../../../parsers/engine/signals.ts';
import type { SpanBuild } from '../correlate/spans.ts';
import { IncidentIndex } from './incident.ts';

const RECOVERY_WINDOW_MS = 120_000;

/** laterSessionKept as first written: one pass over every line. */
function laterSessionKeptByScan(all: readonly Event[], from: number, lost: string | null): string | null {
  const seenBefore = new Set<string>();
  const answered = new Map<string, Map<string, Event[]>>();
  const failed = new Set<string>();
  for (const e of all) {
    if (e.session === null || e.session === lost) continue;
    if (e.ts === null || e.ts <= from) {
      seenBefore.add(e.session);
      continue;
    }
    if (seenBefore.has(e.session) || e.httpStatus === null) continue;
    if (e.httpStatus >= 400) failed.add(e.session);
    else if (e.httpStatus >= 200 && e.httpStatus < 300) {
      let byFile = answered.get(e.session);
      if (!byFile) answered.set(e.session, (byFile = new Map()));
      const list = byFile.get(e.file) ?? [];
      list.push(e);
      byFile.set(e.file, list);
    }
  }
  for (const [session, byFile] of answered) {
    if (failed.has(session)) continue;
    for (const [file, list] of byFile) if (list.length >= 3) return `${file}:${list[0]!.line}-${list[list.length - 1]!.line}`;
  }
  return null;
}

/** legacyConnectedAfter as first written. */
function legacyConnectedAfterByScan(all: readonly Event[], span: SpanBuild): string | null {
  const end = span.end ?? span.start;
  if (end === null) return null;
  const t = signalTable();
  for (const e of all) {
    if (e.source === 'client' || e.ts === null || e.ts < end || e.ts - end > RECOVERY_WINDOW_MS || span.events.includes(e)) continue;
    if (e.httpMethod !== 'POST' || e.httpStatus === null || e.httpStatus < 200 || e.httpStatus >= 300) continue;
    if (e.signals.some((id) => t.meaning(id)?.cause === 'transport-legacy')) return `${e.file}:${e.line}`;
  }
  return null;
}

/** serverReceived as first written (a span with times). */
function serverReceivedByScan(all: readonly Event[], span: SpanBuild): string | null {
  const end = span.end ?? span.start;
  if (span.tool === null && span.rpcId === null) return null;
  if (end === null) return 'untimed';
  const rpc = span.rpcId === null ? null : JSON.stringify(span.rpcId);
  for (const e of all) {
    if (e.source !== 'server') continue;
    if (e.ts === null || e.ts > end + 5_000 || e.ts < end - RECOVERY_WINDOW_MS) continue;
    const same = (span.tool !== null && e.tool === span.tool) || (rpc !== null && span.session !== null && e.session === span.session && JSON.stringify(e.rpcId) === rpc);
    if (same) return `${e.file}:${e.line}`;
  }
  return null;
}

function rng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

function event(over: Partial<Event>): Event {
  return { ...emptyEvent({ file: 'a.log', line: 1, source: 'server', format: 'test', kind: 'line', text: '' }), level: 'info', ...over };
}

function randomIncident(r: () => number): Event[] {
  const files = ['client.log', 'proxy.log', 'server.log'];
  const sources = ['client', 'proxy', 'server'] as const;
  const out: Event[] = [];
  for (let f = 0; f < files.length; f++) {
    const n = Math.floor(r() * 60);
    for (let i = 0; i < n; i++) {
      const status = r() < 0.3 ? null : [200, 200, 202, 204, 301, 400, 404, 500][Math.floor(r() * 8)]!;
      out.push(
        event({
          file: files[f]!,
          line: i + 1,
          endLine: i + 1,
          source: sources[f]!,
          ts: r() < 0.05 ? null : Math.floor(r() * 20) * 1000,
          session: r() < 0.15 ? null : `s${Math.floor(r() * 5)}`,
          httpStatus: status,
          httpMethod: r() < 0.7 ? 'POST' : 'GET',
          signals: r() < 0.2 ? ['legacy-sse-transport'] : [],
          tool: r() < 0.5 ? null : `t${Math.floor(r() * 3)}`,
          rpcId: r() < 0.3 ? null : r() < 0.5 ? Math.floor(r() * 4) : String(Math.floor(r() * 4)),
        }),
      );
    }
  }
  return out;
}

describe('IncidentIndex', () => {
  it('laterSessionKept, legacyConnectedAfter and serverReceived answer what a scan of every line answers', () => {
    const r = rng(25);
    for (let round = 0; round < 400; round++) {
      const all = randomIncident(r);
      const ix = new IncidentIndex(all, []);
      for (let q = 0; q < 8; q++) {
        const from = Math.floor(r() * 22) * 1000 - 1000;
        const lost = r() < 0.3 ? null : `s${Math.floor(r() * 5)}`;
        expect(ix.laterSessionKept(from, lost)).toBe(laterSessionKeptByScan(all, from, lost));
        const picked = all.filter(() => r() < 0.05);
        const ts = picked.map((e) => e.ts).filter((t): t is number => t !== null);
        const span = { events: picked, start: ts.length ? Math.min(...ts) : null, end: ts.length ? Math.max(...ts) : null } as unknown as SpanBuild;
        expect(ix.legacyConnectedAfter(span)?.where ?? null).toBe(legacyConnectedAfterByScan(all, span));
        if (span.end !== null) {
          const call = {
            ...span,
            tool: r() < 0.5 ? null : `t${Math.floor(r() * 3)}`,
            rpcId: r() < 0.3 ? null : Math.floor(r() * 4),
            session: r() < 0.3 ? null : `s${Math.floor(r() * 5)}`,
          } as SpanBuild;
          expect(ix.serverReceived(call)).toBe(serverReceivedByScan(all, call));
        }
      }
    }
  });
});
