// The unit-of-work drawer on a shared store: the same events, reasons and order as units.ts
// unitOf, found with equality filters only (18.16 joins on equality alone, and a few small
// queries over the incident's visible events are cheaper than a self-join there):
//   seed        the event whose lines span file:line
//   hop 1       the keys (session+rpcId, request id) of the events sharing the seed's keys
//   hop 2       every event holding one of those keys ('session+rpcId' / 'requestId')
//   evidence    the evidence lines of the failures that cite the seed
// Then the first UNIT_LIMIT by (ts, NULLs last, seq), read in full.
import type { Analysis } from '../../contract/analysis.ts';
import { citing, UNIT_LIMIT, unitFromRows, type Unit, type UnitReason } from '../units.ts';
import type { ClickHouseStore } from './store.ts';
import { decodeTs } from './store.ts';
import { int, str } from './sql.ts';

const COLS = 'seq, ts, source, file, line, end_line, kind, level, message, text, session, rpc_id, rpc_method, tool, http_method, http_path, http_status, request_id';
/** Keys followed at most (each becomes a condition of one query). */
const MAX_KEYS = 2000;

interface KeyRow {
  session: string | null;
  rpc_id: string | null;
  request_id: string | null;
}

function keyConditions(keys: readonly KeyRow[]): { pairs: string[]; requests: string[] } {
  const pairs = new Map<string, string>();
  const requests = new Set<string>();
  for (const k of keys) {
    if (k.session !== null && k.rpc_id !== null) pairs.set(`${k.session}\u0000${k.rpc_id}`, `(session = ${str(k.session)} AND rpc_id = ${str(k.rpc_id)})`);
    if (k.request_id !== null) requests.add(k.request_id);
  }
  return { pairs: [...pairs.values()].slice(0, MAX_KEYS), requests: [...requests].slice(0, MAX_KEYS) };
}

export async function chUnitOf(store: ClickHouseStore, id: string, file: string, line: number, analysis: Analysis | null): Promise<Unit> {
  const scope = await store.scope(id);
  const rows = <T>(sql: string) => store.client.rows<T>(sql);
  const [s] = await rows<KeyRow & { seq: string; line: number; end_line: number }>(
    `SELECT seq, line, end_line, session, rpc_id, request_id FROM events WHERE ${scope} AND file = ${str(file)} AND line <= ${int(line)} AND end_line >= ${int(line)} ORDER BY line DESC, seq LIMIT 1`,
  );
  const seed = s ? { file, line: Number(s.line), endLine: Number(s.end_line) } : null;
  const { failures, refs } = citing(seed, analysis);
  const reasons = new Map<number, { ts: number | null; why: Set<UnitReason> }>();
  const pick = (seq: number, ts: number | null, why: UnitReason) => {
    let r = reasons.get(seq);
    if (!r) reasons.set(seq, (r = { ts, why: new Set() }));
    r.why.add(why);
  };

  if (s) {
    const seedTs = await rows<{ ts: string }>(`SELECT ts FROM events WHERE ${scope} AND seq = ${int(Number(s.seq))} LIMIT 1`);
    pick(Number(s.seq), decodeTs(seedTs[0]?.ts), 'seed');
    const first = keyConditions([s]);
    const ors = [...first.pairs, ...(first.requests.length ? [`request_id IN (${first.requests.map(str).join(', ')})`] : [])];
    if (ors.length) {
      const hop1 = await rows<KeyRow>(`SELECT DISTINCT session, rpc_id, request_id FROM events WHERE ${scope} AND (${ors.join(' OR ')})`);
      const { pairs, requests } = keyConditions([s, ...hop1]);
      const byPair = pairs.length ? `(${pairs.join(' OR ')})` : '0';
      const byRequest = requests.length ? `request_id IN (${requests.map(str).join(', ')})` : '0';
      const hop2 = await rows<{ seq: string; ts: string; p: number; q: number }>(
        `SELECT seq, ts, ifNull(${byPair}, 0) AS p, ifNull(${byRequest}, 0) AS q FROM events WHERE ${scope} AND (ifNull(${byPair}, 0) OR ifNull(${byRequest}, 0))`,
      );
      for (const r of hop2) {
        if (Number(r.p)) pick(Number(r.seq), decodeTs(r.ts), 'session+rpcId');
        if (Number(r.q)) pick(Number(r.seq), decodeTs(r.ts), 'requestId');
      }
    }
  }
  if (refs.length) {
    const ors = refs.slice(0, 200).map((r) => `(file = ${str(r.file)} AND line <= ${int(r.line)} AND end_line >= ${int(r.line)})`);
    for (const r of await rows<{ seq: string; ts: string }>(`SELECT seq, ts FROM events WHERE ${scope} AND (${ors.join(' OR ')})`)) pick(Number(r.seq), decodeTs(r.ts), 'evidence');
  }

  const chosen = [...reasons.entries()].sort(([sa, a], [sb, b]) => (a.ts === b.ts ? sa - sb : a.ts === null ? 1 : b.ts === null ? -1 : a.ts - b.ts)).slice(0, UNIT_LIMIT);
  const full = chosen.length ? await rows<Record<string, unknown>>(`SELECT ${COLS} FROM events WHERE ${scope} AND seq IN (${chosen.map(([seq]) => int(seq)).join(', ')})`) : [];
  const bySeq = new Map(full.map((r) => [Number(r.seq), r] as const));
  const ordered = chosen.flatMap(([seq, r]) => {
    const row = bySeq.get(seq);
    return row ? [{ ...row, ts: decodeTs(row.ts), reasons: [...r.why].sort() }] : [];
  });
  return unitFromRows(seed, failures, ordered, reasons.size);
}
