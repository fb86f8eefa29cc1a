// The HTTP API as an exit (redaction.md "Tiers"). On loopback the API is the local user's view of
// their own database: the UI shows what is stored (in standard mode personal data, as logged; that
// is the point of it). Beyond loopback (`serve --host` another address: strict for every upload)
// every answer can reach another person, so the text of an incident stored in standard mode — one
// uploaded earlier, or by `analyze --db`, into the same workspace — goes out through the exit tier:
// the analysis, timeline pages, units of work and the input rows. Reports and exports always do.
import type { Analysis } from '../contract/analysis.ts';
import type { Context } from '../incidents.ts';
import type { ServedStore } from './backend.ts';
import { createExitRedactor, exitJson, type ExitRedactor } from '../triage/redact/exit.ts';
import { TriageError } from '../errors.ts';

/** Analysis fields the tool writes itself (enums, rule ids, pseudonyms): never touched by an exit pass. */
export const ANALYSIS_KEEP = new Set([
  'schemaVersion',
  'decision',
  'stage',
  'role',
  'rule',
  'source',
  'format',
  'state',
  'privacyMode',
  'signals',
  'joinedBy',
  'reason',
  'session',
  'ts',
  'firstSeen',
  'lastSeen',
]);

/** An exit redactor that has first read what the incident's head lines name (hosts by key, accounts). */
export async function primedExit(
  store: Pick<ServedStore, 'headEvents'>,
  key: Uint8Array,
  id: string,
  also: readonly string[] = [],
  opts: { pseudonymiseRequests?: boolean; requestIds?: Iterable<string> } = {},
): Promise<ExitRedactor> {
  const exit = createExitRedactor({ key, ...opts });
  for (const e of await store.headEvents(id)) exit.learn(e.text);
  for (const t of also) exit.learn(t);
  return exit;
}

/** The exit pass for this incident's API answers, or null when none is needed (loopback, or stored strict). */
export async function apiExit(ctx: Context, store: Pick<ServedStore, 'headEvents' | 'privacyMode'>, id: string): Promise<ExitRedactor | null> {
  if (!ctx.network) return null;
  if ((await store.privacyMode(id)) !== 'standard') return null;
  return primedExit(store, ctx.key, id, [], { pseudonymiseRequests: false });
}

export function exitAnalysis(a: Analysis, exit: ExitRedactor): Analysis {
  return exitJson(a, (s) => exit.text(s), ANALYSIS_KEEP);
}

/** Event rows (store shape): their log text through the exit. */
export function exitRows<R extends object>(rows: R[], exit: ExitRedactor, columns: readonly string[] = ['text', 'message', 'http_path', 'tool', 'attrs', 'httpPath']): R[] {
  return rows.map((r) => {
    const out: Record<string, unknown> = { ...(r as Record<string, unknown>) };
    for (const c of columns) if (typeof out[c] === 'string') out[c] = exit.text(out[c] as string);
    return out as R;
  });
}

/** A text search would be an oracle for what the exit removed: refused for such incidents beyond loopback. */
export function refuseSearch(exit: ExitRedactor | null, q: string | undefined): void {
  if (exit && q) {
    throw new TriageError(
      'TRIAGE_ERR_FORBIDDEN',
      'text search is off for this incident on a server reachable from the network: it was stored in standard privacy mode (personal data in the database), and a search would reveal what the answers redact. Search on a loopback serve, or upload the files again (stored strict)',
    );
  }
}
