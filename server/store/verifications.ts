// The last "verify" probe of each incident (UI verify panel, POST /api/incidents/:id/verify).
// Its own table, created at first use so the shared schema stays untouched. The stored document
// is probeJson() output: every string in it was redacted by the probe before it got here.
import type { Store } from './store.ts';

export interface Verification {
  incidentId: string;
  /** epoch ms */
  at: number;
  ok: boolean;
  /** the probe --json document (cli-contract.md) */
  result: Record<string, unknown>;
}

const ready = new WeakSet<Store>();

async function ensure(store: Store): Promise<void> {
  if (ready.has(store)) return;
  const c = await store.reader();
  try {
    await c.run(`CREATE TABLE IF NOT EXISTS verifications (
      incident_id VARCHAR PRIMARY KEY,
      verified_at BIGINT NOT NULL,
      ok BOOLEAN NOT NULL,
      result JSON NOT NULL
    )`);
  } finally {
    c.closeSync();
  }
  ready.add(store);
}

export async function saveVerification(store: Store, incidentId: string, result: Record<string, unknown>): Promise<Verification> {
  await ensure(store);
  const v: Verification = { incidentId, at: Date.now(), ok: result.ok === true, result };
  const c = await store.reader();
  try {
    await c.run('INSERT OR REPLACE INTO verifications VALUES ($id, $at, $ok, $r)', { id: incidentId, at: v.at, ok: v.ok, r: JSON.stringify(result) });
  } finally {
    c.closeSync();
  }
  return v;
}

/** The last verification, or null. A deleted incident's row is never returned (joined on incidents). */
export async function lastVerification(store: Store, incidentId: string): Promise<Verification | null> {
  await ensure(store);
  const rows = await store.query<{ at: bigint; ok: boolean; result: string }>(
    `SELECT v.verified_at AS at, v.ok, v.result::VARCHAR AS result FROM verifications v JOIN incidents i ON i.id = v.incident_id WHERE v.incident_id = $id`,
    { id: incidentId },
  );
  const r = rows[0];
  return r ? { incidentId, at: Number(r.at), ok: Boolean(r.ok), result: JSON.parse(r.result) as Record<string, unknown> } : null;
}
