// A raw session id from the inputs appears nowhere: not in the DuckDB file, the API answers,
// the report or the CLI output (issue: correlated timelines, "done when").
import { tableFromIPC } from 'apache-arrow';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './http/app.ts';
import { openContext } from './incidents.ts';
import { loadSamples, sampleDirs } from './samples.ts';
import { REPO, tempWorkspace } from './testing/helpers.ts';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const ws = tempWorkspace();
const db = join(ws.dir, 'privacy.duckdb');

/** Every UUID-shaped session id in the committed samples, in the spellings we look for. */
function rawIds(): string[] {
  const out = new Set<string>();
  for (const dir of sampleDirs())
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.log')))
      for (const m of readFileSync(join(dir, f), 'utf8').matchAll(UUID)) {
        out.add(m[0].toLowerCase());
        out.add(m[0].toLowerCase().replace(/-/g, ''));
      }
  return [...out];
}
const ids = rawIds();
const leaks = (text: string) => ids.filter((id) => text.toLowerCase().includes(id));

afterAll(() => ws.cleanup());

describe('no raw session id leaves ingest', () => {
  beforeAll(async () => {
    const ctx = await openContext({ env: ws.env, db, keyFile: ws.keyFile });
    await loadSamples(ctx);
    await ctx.store.close();
  });

  it('the samples do contain raw session ids (so this test can fail)', () => expect(ids.length).toBeGreaterThan(10));

  it('not in the database file', () => {
    const bytes = readFileSync(db).toString('latin1').toLowerCase();
    expect(ids.filter((id) => bytes.includes(id))).toEqual([]);
  });

  it('not in any API answer, Arrow timeline or report', async () => {
    const ctx = await openContext({ env: ws.env, db, keyFile: ws.keyFile });
    const app = await buildApp({ ctx });
    try {
      const list = await app.inject({ url: '/api/incidents' });
      expect(leaks(list.body)).toEqual([]);
      for (const inc of list.json() as { id: string }[]) {
        for (const url of [`/api/incidents/${inc.id}`, `/api/incidents/${inc.id}/analysis`, `/api/incidents/${inc.id}/report?format=json`]) {
          const r = await app.inject({ url });
          expect(r.statusCode, `${url}: ${r.body.slice(0, 300)}`).toBe(200);
          expect(leaks(r.body), url).toEqual([]);
        }
        const ev = await app.inject({ url: `/api/incidents/${inc.id}/events?limit=100000` });
        const t = tableFromIPC(ev.rawPayload);
        const text = t
          .toArray()
          .map((r) => `${r.text} ${r.message} ${r.session}`)
          .join('\n');
        expect(leaks(text), inc.id).toEqual([]);
      }
    } finally {
      await app.close();
      await ctx.store.close();
    }
  });

  it('not in CLI output (analyze, report, timeline)', async () => {
    const run = promisify(execFile);
    const dir = join(REPO, 'samples', 'restart-stale-session');
    for (const args of [
      ['analyze', dir, '--json'],
      ['analyze', dir],
      ['report', dir],
      ['timeline', dir, '--limit', '100000'],
    ]) {
      const r = await run(process.execPath, [join(REPO, 'server/cli/bin.mjs'), ...args, '--key-file', ws.keyFile], { env: ws.env, maxBuffer: 64 << 20 });
      expect(leaks(r.stdout + r.stderr), args[0]).toEqual([]);
    }
  });
});
