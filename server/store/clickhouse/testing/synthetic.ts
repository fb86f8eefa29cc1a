// Tests: a synthetic incident written straight into a DuckDB store (no parsing), varied enough for
// the query parity tests: every source and level, statuses, sessions, numeric and string rpc ids
// (with quotes and backslashes), request ids, signals, durations with fractions, events without
// a time, non-ASCII and SQL-special text; and long enough for deep offsets (> 20 000 rows) and
// the DuckDB text index's blocks.
import type { Event } from '../../../../parsers/contract/event.ts';
import type { Analysis } from '../../../contract/analysis.ts';
import type { Store } from '../../store.ts';

/** A small deterministic PRNG (mulberry32), so a failure reproduces. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SOURCES = ['client', 'proxy', 'server', 'unknown'] as const;
const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', null] as const;
const STATUSES = [200, 202, 307, 400, 401, 404, 405, 499, 500, 502, 504, null, null, null] as const;
const METHODS = ['initialize', 'tools/call', 'tools/list', 'notifications/initialized', null] as const;
const SIGNALS = ['session-not-found', 'http-404', 'connection-reset', 'client-timeout'] as const;
const WORDS = [
  'POST /mcp',
  'Session not found',
  'Café ÜBER Straße',
  "it's done",
  'back\\slash',
  '100% sure',
  'snake_case',
  'ΣΊΣΥΦΟΣ',
  'emoji 😀 ok',
  'tab\there',
  'null\u0000byte',
];

export const STUB_ANALYSIS: Analysis = { schemaVersion: 1, inputs: [], protocolVersions: [], failures: [], sessions: [], spans: [], decision: 'no_action' };

/** Write `n` synthetic events over three files into incident `id` of `store`. */
export async function writeSynthetic(store: Store, id: string, n: number, seed = 20): Promise<void> {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const files = ['client.log', 'nginx-access.log', 'server.jsonl'];
  const lines = [0, 0, 0];
  const t0 = Date.parse('2026-11-29T09:00:00Z');
  await store.ingest(id, 'synthetic', async (writer) => {
    for (let i = 0; i < n; i++) {
      const f = Math.floor(r() * files.length);
      const line = ++lines[f]!;
      // Times mostly increase, with ties, jumps and some events without one.
      const ts = r() < 0.03 ? null : t0 + Math.floor(i * 40 + r() * 300) - (r() < 0.05 ? 5000 : 0);
      const status = pick(STATUSES);
      const rpcPick = r();
      const rpcId = rpcPick < 0.4 ? Math.floor(r() * 60) : rpcPick < 0.5 ? `req-${Math.floor(r() * 9)}` : rpcPick < 0.52 ? 'q"uo\\te' : null;
      const sigs = SIGNALS.filter(() => r() < 0.08);
      const word = pick(WORDS);
      const e: Event = {
        file: files[f]!,
        line,
        endLine: r() < 0.05 ? line + 3 : line,
        source: pick(SOURCES),
        format: f === 1 ? 'nginx-combined' : 'json-lines',
        kind: r() < 0.03 ? 'block' : r() < 0.05 ? 'raw' : 'line',
        ts,
        level: pick(LEVELS),
        message: `${word} #${i}`,
        text: `${i} ${word} status=${status ?? '-'}${r() < 0.1 ? '\nsecond line of a block' : ''}`,
        httpMethod: status === null ? null : r() < 0.8 ? 'POST' : 'DELETE',
        httpPath: status === null ? null : '/mcp',
        httpStatus: status,
        requestId:
          r() < 0.2
            ? `${Math.floor(r() * 40)
                .toString(16)
                .padStart(32, 'a')}`
            : null,
        rpcId,
        rpcMethod: pick(METHODS),
        tool: r() < 0.1 ? 'create_order' : null,
        session: r() < 0.6 ? `sess_${'abcdefghij'.slice(0, 5)}${'klmnopqrst'[Math.floor(r() * 10)]}2345` : null,
        protocolVersion: r() < 0.05 ? pick(['2025-06-18', '2025-03-26', '2025-11-25']) : null,
        durationMs: r() < 0.3 ? Math.round(r() * 1e9) / 1e6 : null,
        signals: status !== null && status >= 400 ? [...new Set([...sigs, `http-${status}`])] : [...sigs],
        attrs: r() < 0.2 ? { upstream: '127.0.0.1:3000', bytes: Math.floor(r() * 1000), ok: r() < 0.5, gone: null } : {},
      };
      writer.write(e);
    }
    return {
      files: files.map((path, i) => ({
        fileNo: i,
        path,
        sha256: `${i}`.repeat(64),
        bytes: 1000 * (i + 1),
        source: SOURCES[i]!,
        format: i === 1 ? 'nginx-combined' : 'json-lines',
        lines: lines[i]!,
        events: lines[i]!,
        unparsed: 0,
        truncatedLines: 0,
        prefix: null,
      })),
      redactions: { '@bearer': 3 },
    };
  });
}
