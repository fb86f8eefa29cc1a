// What a command needs to work against the shared store: the store (schema checked) and the
// workspace key and formats the ingest redacts and parses with (no DuckDB file of the workspace).
import { loadFormats } from '../../../parsers/engine/registry.ts';
import { loadOrCreateKey, resolveWorkspace } from '../../workspace.ts';
import { ClickHouseStore, type IngestKeys } from './store.ts';
import type { StoreTarget } from './target.ts';

export async function openShared(target: StoreTarget, opts: { env: NodeJS.ProcessEnv; keyFile?: string }): Promise<{ store: ClickHouseStore; keys: IngestKeys }> {
  const ws = resolveWorkspace({ env: opts.env, keyFile: opts.keyFile });
  const keys = { key: loadOrCreateKey(ws.keyFile), formats: loadFormats({ userDir: opts.env.MCP_TRIAGE_FORMATS }) };
  const store = await ClickHouseStore.open(target);
  return { store, keys };
}
