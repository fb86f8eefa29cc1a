// A log that stamps only the time of day (`[13:55:29] ERROR …`: console transcripts, `debug`, Python's
// `%H:%M:%S`) is dated by the incident: the earliest date-and-time any file's head shows
// (pipeline.ts dateHint, parse-file.ts firstDatedTime), or a placeholder day when none does. Without it
// such a file had no times at all and joined nothing by time. The answer must not depend on which file comes first.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
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

async function clientTimes(files: Record<string, string[]>, like = 'agent%'): Promise<Array<string | null>> {
  const paths = Object.entries(files).map(([name, lines]) => {
    const p = join(dir, name);
    writeFileSync(p, lines.join('\n') + '\n');
    return p;
  });
  const ctx = await openContext({ env: ws.env, db: ':memory:', keyFile: ws.keyFile });
  try {
    const { id } = await ingestIncident(ctx, entriesFromPaths(paths), { name: 'date-hint' });
    const rows = await ctx.store.query<{ ts: number | null }>(`SELECT epoch_ms(ts) AS ts FROM events WHERE incident_id = $id AND file LIKE $like ORDER BY line`, { id, like });
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

  // A date logged without its year (Tyk's `time="Dec 01 09:00:07"`, syslog's `Dec  1 09:00:07`) takes the year of the
  // incident's dated logs — the nearest — not today's: the same bundle read next year must join the same lines
  // (timestamp.ts yearlessUtc). Only an incident whose every date lacks its year is dated by today.
  describe('a date without its year', () => {
    const GATEWAY = [
      'time="Dec 01 09:00:07" level=warning msg="Certificate has expired" mw=CertificateCheckMW path=/vendor/mcp',
      'Dec  1 09:00:09 gw1 tyk[88]: Certificate has expired',
    ];
    const DATED = ['2025-12-01T09:00:07.350Z ERROR tools/call pull_invoices failed: HTTP 403 Forbidden'];
    const at = async (now: string) => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date(now));
      try {
        return await clientTimes({ 'gateway.log': GATEWAY, 'agent.log': DATED }, 'gateway%');
      } finally {
        vi.useRealTimers();
      }
    };

    it("takes the dated logs' year, whatever day the analysis runs", async () => {
      const want = ['2025-12-01T09:00:07.000Z', '2025-12-01T09:00:09.000Z'];
      expect(await at('2026-11-30T05:00:00Z')).toEqual(want);
      expect(await at('2027-01-15T12:00:00Z')).toEqual(want);
    });

    it('takes the nearest year: a Jan 1 line beside a log of Dec 31 is the day after', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2031-06-01T00:00:00Z'));
      try {
        const got = await clientTimes(
          { 'gateway.log': ['Jan  1 00:00:01 gw1 tyk[88]: Certificate has expired'], 'agent.log': ['2025-12-31T23:59:58.000Z ERROR HTTP 403'] },
          'gateway%',
        );
        expect(got).toEqual(['2026-01-01T00:00:01.000Z']);
      } finally {
        vi.useRealTimers();
      }
    });

    it("alone, takes today's year (or last year's: logs are not from the future)", async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2027-01-15T12:00:00Z'));
      try {
        expect(await clientTimes({ 'gateway.log': GATEWAY }, 'gateway%')).toEqual(['2026-12-01T09:00:07.000Z', '2026-12-01T09:00:09.000Z']);
      } finally {
        vi.useRealTimers();
      }
    });
  });
});
