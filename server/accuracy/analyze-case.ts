// One labelled case analysed the way a user's upload is: ingested into a private in-memory store
// (same redaction, parsing, signals and analysis as `mcp-triage analyze`), then forgotten.
import { ingestIncident, openContext, type Context } from '../incidents.ts';
import { entriesFromPaths } from '../ingest/inputs.ts';
import type { Analysis } from '../contract/analysis.ts';
import { tempWorkspace } from '../testing/helpers.ts';
import type { LabelledCase } from './corpora.ts';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { readBundleNames } from './transforms.ts';

let ctx: Context | null = null;
let ws: ReturnType<typeof tempWorkspace> | null = null;

/** A bundle's own logs: the top-level log files of a directory (not its label, README or style variants). */
export function caseFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readBundleNames(path).map((f) => join(path, f));
}

export async function analyzeCase(c: Pick<LabelledCase, 'path' | 'id'>): Promise<Analysis> {
  if (!ctx) await analyzeCase.open();
  const { analysis, id } = await ingestIncident(ctx!, entriesFromPaths(caseFiles(c.path)), { name: c.id });
  await ctx!.store.deleteIncident(id);
  return analysis;
}
analyzeCase.open = async () => {
  ws = tempWorkspace();
  ctx = await openContext({ env: ws.env, db: ':memory:', keyFile: ws.keyFile });
};
analyzeCase.close = async () => {
  await ctx?.store.close();
  ws?.cleanup();
  ctx = null;
  ws = null;
};
