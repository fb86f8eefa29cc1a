// Load the committed sample incidents (samples/<incident>/) into a store, once each: the id is
// derived from the folder name, and files already held are skipped by content hash.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ingestIncident, type Context } from './incidents.ts';
import { entriesFromPaths } from './ingest/inputs.ts';
import { repoPath } from '../parsers/engine/repo.ts';

export const SAMPLES_DIR = repoPath('samples/');

export function sampleDirs(root = SAMPLES_DIR): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((n) => n !== 'record' && !n.startsWith('.') && statSync(join(root, n)).isDirectory())
    .filter((n) => readdirSync(join(root, n)).some((f) => /\.(log|jsonl|json|txt)$/.test(f) && !f.startsWith('expected.')))
    .sort()
    .map((n) => join(root, n));
}

export const sampleId = (name: string) => `inc_s${createHash('sha256').update(name).digest('hex').slice(0, 12)}`;

export async function loadSamples(ctx: Context, root = SAMPLES_DIR, log: (s: string) => void = () => {}): Promise<number> {
  let loaded = 0;
  for (const dir of sampleDirs(root)) {
    const name = dir.split('/').pop()!;
    const r = await ingestIncident(ctx, entriesFromPaths([dir]), { id: sampleId(name), name: `sample: ${name}` });
    if (r.added) {
      loaded++;
      log(`loaded sample ${name}: ${r.analysis.decision}`);
    }
  }
  return loaded;
}
