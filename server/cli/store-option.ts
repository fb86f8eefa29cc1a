// `--store URL`, `--store-credentials FILE` and `--incident ID` (issue #20): which store a command
// uses. Light: it parses and checks, the ClickHouse client loads only once a command runs.
import type { OptionSpec, Parsed } from './args.ts';
import { TriageError } from '../errors.ts';
import { resolveStore, type StoreTarget } from '../store/clickhouse/target.ts';

export const STORE_OPTIONS: OptionSpec = { store: { type: 'string' }, 'store-credentials': { type: 'string' }, incident: { type: 'string' } };

export const STORE_HELP = `  --store URL              keep the incident in a shared ClickHouse store instead of the embedded
                           DuckDB: clickhouse://host:8123/database[?cluster=NAME] (HTTP port; also
                           MCP_TRIAGE_STORE, the one place credentials may be written in the URL)
  --store-credentials FILE a private file (mode 0600) holding user:password for --store
  --incident ID            with a store: read (or add the PATHs to) the stored incident ID`;

const INCIDENT = /^inc_[a-z0-9]{6,40}$/;

export interface StoreChoice {
  target: StoreTarget | null;
  incident: string | null;
}

/** The store of a command: --store (or MCP_TRIAGE_STORE unless --db names a DuckDB file), else the embedded one. */
export function storeChoice(command: string, a: Parsed, env: NodeJS.ProcessEnv): StoreChoice {
  const flag = a.options.store as string | undefined;
  if (flag !== undefined && a.options.db !== undefined)
    throw new TriageError('TRIAGE_ERR_USAGE', `${command}: --db (a DuckDB file) and --store (a shared store) exclude each other`);
  // An explicit --db is a local choice: MCP_TRIAGE_STORE does not override it.
  const target = a.options.db !== undefined ? null : resolveStore({ flag, credentialsFile: a.options['store-credentials'] as string | undefined, env });
  if (a.options.db !== undefined && a.options['store-credentials'] !== undefined)
    throw new TriageError('TRIAGE_ERR_USAGE', `${command}: --store-credentials goes with --store, not --db`);
  const incident = (a.options.incident as string | undefined) ?? null;
  if (incident !== null && !target)
    throw new TriageError('TRIAGE_ERR_USAGE', `${command}: --incident reads a stored incident of a shared store; add --store URL (or set MCP_TRIAGE_STORE)`);
  if (incident !== null && !INCIDENT.test(incident)) throw new TriageError('TRIAGE_ERR_USAGE', `${command}: --incident takes an incident id as analyze --store prints it (inc_…)`);
  return { target, incident };
}
