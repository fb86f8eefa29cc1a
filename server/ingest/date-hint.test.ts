// A log that stamps only the time of day (`[13:55:29] ERROR …`: console transcripts, `debug`, Python's
// `%H:%M:%S`) is dated by the incident: the earliest date-and-time any file's head shows
// (pipeline.ts dateHint, parse-file.ts firstDatedTime), or a placeholder day when none does. Without it
// such a file had no times at all and joined nothing by time. The answer must not depend on which file comes first.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ingestIncident, openContext } from '../incidents.ts';
import { tempWorkspace } from '../testing/helpers.ts';
import { entriesFromPaths } from './inputs.ts';

const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-date-hint-'));
const ws = tempWorkspace();
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  ws.cleanup();
});

const CLIENT = ['[23:59:58] calling tool list_bins args={"zone":"b"}', '[23:59:59] ERROR tools/call list_bins failed: HTTP 502', '[00:00:01] tool list_bins ok rows=4'];
const PROXY = [
  '10.3.0.8 - - [14/Mar/2026:23:59:59 +0000] "POST /mcp HTTP/1.1" 502 157 "-" "node"',
  '10.3.0.8 - - [15/Mar/2026:00:00:01 +0000] "POST /mcp HTTP/1.1" 200 310 "-" "node"',
];

async function clientTimes(files: Record<string, string[]>): Promise<Array<string | null>> {
  const paths = Object.entries(files).map(([name, lines]) => {
    const p = join(dir, name);
    writeFileSync(p, lines.join('\n') + '\n');
    return p;
  });
  const ctx = await openContext({ env: ws.env, db: ':memory:', keyFile: ws.keyFile });
  try {
    const { id } = await ingestIncident(ctx, entriesFromPaths(paths), { name: 'date-hint' });
    const rows = await ctx.store.query<{ ts: number | null }>(`SELECT epoch_ms(ts) AS ts FROM events WHERE incident_id = $id AND file LIKE 'agent%' ORDER BY line`, { id });
    return rows.map((r) => (r.ts === null ? null : new Date(Number(r.ts)).toISOString()));
  } finally {
    await ctx.store.close();
  }
}

describe('times of day are dated by the incident', () => {
  it("takes the proxy's date, and the next day after midnight", async () => {
    expect(await clientTimes({ 'agent.log': CLIENT, 'edge-access.log': PROXY })).toEqual(['2026-03-14T23:59:58.000Z', '2026-03-14T23:59:59.000Z', '2026-03-15T00:00:01.000Z']);
  });

  it('whichever file comes first', async () => {
    expect(await clientTimes({ 'zz-edge-access.log': PROXY, 'agent.log': CLIENT })).toEqual(await clientTimes({ 'agent.log': CLIENT, 'edge-access.log': PROXY }));
  });

  it("takes the date a log stream's wrapper stamps on each line (Heroku's drain: `<RFC 3339> app[web.1]: …`)", async () => {
    // (the wrapper's stamp is taken off the line before formats read it: the head's date is in the stamp)
    const HEROKU = [
      '2026-03-14T23:59:59.120000+00:00 app[web.1]: level=warn msg="tool call failed" tool=list_bins',
      '2026-03-14T23:59:59.121000+00:00 heroku[router]: at=info method=POST path="/mcp" host=bins.herokuapp.com dyno=web.1 connect=0ms service=3ms status=502 bytes=0',
    ];
    expect(await clientTimes({ 'agent.log': CLIENT, 'heroku-logs.txt': HEROKU })).toEqual(['2026-03-14T23:59:58.000Z', '2026-03-14T23:59:59.000Z', '2026-03-15T00:00:01.000Z']);
  });

  it('alone, with no dated file beside it, a time of day is placed on the placeholder day: its times still order and time', async () => {
    // (the day means nothing — README of server/ingest — but 23:59:59 → 00:00:01 is still two seconds)
    expect(await clientTimes({ 'agent.log': CLIENT })).toEqual(['2000-01-01T23:59:58.000Z', '2000-01-01T23:59:59.000Z', '2000-01-02T00:00:01.000Z']);
  });
});
