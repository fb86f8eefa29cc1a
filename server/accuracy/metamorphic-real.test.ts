// Metamorphic suite over the real shapes (the shared dev excerpts and the collected dev split; the held
// split is never run here) and the triage golden cases: the same excerpt as users paste it from other places — behind a compose
// service gutter, with docker/kubectl timestamps, coloured by a terminal, renamed, gzipped, with CRLF, read from
// docker's json-file driver or a cloud logging export, quoted in a GitHub issue, printed by `kubectl logs --prefix` —
// keeps its headline decision. The labels are not consulted: the answer on the plain excerpt is the
// reference, right or wrong, so this measures robustness, not accuracy.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCase, caseFiles } from './analyze-case.ts';
import { collectedCases, DEV_SPLITS, handWrittenCases, realDevCases, recordedFreshCases } from './corpora.ts';
import { COLLECTOR_TRANSFORMS, transform, writeBundle, type Bundle, type TransformId } from './transforms.ts';
import { REPO } from '../testing/helpers.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { basename } from 'node:path';

const TRANSFORMS: TransformId[] = ['rename', 'gzip', 'crlf', 'container', 'timestamps', 'ansi', 'clock', 'names', ...COLLECTOR_TRANSFORMS];
const realDev = realDevCases(); // ../shared beside the checkout; a bare clone may not have it
// the triage golden cases too: hand-written in the shapes the SDKs, hosts and proxies print, each
// pinning one kind of thing the diagnosis must get right — it must not hang on the paste's wrapping
const FIXTURES = join(REPO, 'server/triage/classify/fixtures');
const fixtures = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
  .map((d) => ({ id: `golden/${d.name}`, path: join(FIXTURES, d.name) }));
// and the bundles labelled by construction that metamorphic.test.ts does not run (the fresh recordings, the hand-written
// 2026 bundles read while building; never a held one): an nginx log stamping whole seconds beside millisecond logs
const constructed = [...recordedFreshCases(), ...handWrittenCases()].filter((c) => !c.corpus.endsWith('-held'));
// Real shapes the screen rightly refuses as not a log (server/ingest/screen.test.ts NOT_LOGS): nothing to transform
const NOT_LOGS = new Set(['uq-12']);
const cases: { id: string; path: string }[] = [...realDev, ...DEV_SPLITS.flatMap((s) => collectedCases(s)), ...fixtures, ...constructed].filter((c) => !NOT_LOGS.has(c.id));
// A second seed where the seed chooses what the reading must not depend on: the collector's clock (timestamps stands for
// the five stamping collectors, which share it) and the quote's shape (fence, `> `, both). One seed each let a fraction
// of a second in the clock's move and a fence's share of a short paste through (session 30)
const SECOND_SEED: TransformId[] = ['timestamps', 'quote'];
// Changes known and not fixed yet, asserted to still happen (remove an entry when it holds): a time-of-day-only client
// console (`[13:56:24] connecting to MCP server url=…`) named `incident-1.log` is not read as the client's, and its 4 s
// timeout on every attempt becomes a write of unknown outcome. The same gap, source from content (session 31): a
// Node server's log (`[time] INFO  codehost-mcp … tools/call x id=req-88`) named `incident-2.log` is of unknown side,
// joins the host's calls by their string ids, and its "not merged (no changes made)" answers the write question — the
// answer moves from a write of unknown outcome to the proxy timer (the label says escalate: neither is right yet)
const KNOWN_GAPS: Record<string, TransformId[]> = {
  'sse-proxy-buffering': ['rename'],
  'h26c-12-elicitation-request-on-post-stream': ['rename'],
  // (the same gap: renamed incident-N.log, the proxy's access log and the server's log lose the side their names told)
  'h26d-11-output-schema-violation-after-refund': ['rename'],
  'h26d-15-dual-era-fallback-session-lost-on-restart': ['rename'],
  // (a client's debug log that ends while its initialize waits — log-ended-waiting, itself not the label: the thread
  // found a wrong signing service, fix_auth — read under a collector's wrapper whose program name is not a client's:
  // the ended-waiting reading wants the client's own log, so the wrapped copy finds nothing failed. Found by the full
  // run of session 35)
  'ul-07': ['journald', 'syslog', 'docker-json', 'cloud-json'],
  // (found when hand batch 7's dev part joined this suite, session 37, not yet investigated: a completed MRTR exchange
  // read as nothing failed changes answer when one file's clock is shifted. Its batch-mate h26g-19 holds under every
  // transform since session 41 read HAProxy's kill of the request)
  'h26g-17-mrtr-elicitation-completed': ['clock'],
  // (an OpenTelemetry OTLP/JSON export is read as a document only when the file starts as one: wrapped line by line
  // in a collector's stamp, a journald/syslog header or a JSON envelope, or with its text times shifted while its
  // timeUnixNano stay, its records are not the server's known side and its db commit no longer joins the failed
  // call; the answer falls back to check the write, as before the OTLP side was read. Not fitted)
  'golden/otlp-server-db-commit-after-gateway-504': ['timestamps', 'clock', 'journald', 'syslog', 'docker-json', 'cloud-json'],
  'golden/otlp-server-db-commit-after-gateway-504#2': ['timestamps'],
  'h26i-15-credit-note-504': ['timestamps', 'clock', 'journald', 'syslog', 'docker-json', 'cloud-json'],
  'h26i-15-credit-note-504#2': ['timestamps'],
  // (session 41: two bundles whose logs tell their time only in epoch numbers — Kong's `started_at`, journald's
  // `__REALTIME_TIMESTAMP` — that the clock and collector transforms do not move: restamped or shifted, the gateway's
  // 499 lands months away from the client's stop of the same call, which the call's name joins only within one call's
  // time, and the 499 heads the incident again as a cut write. The transforms' gap, as the OTLP ones above)
  'h26e-11-user-cancel-noise': ['timestamps', 'journald', 'syslog', 'docker-json', 'cloud-json'],
  'h26e-11-user-cancel-noise#2': ['timestamps'],
  'golden/gateway-499-names-the-cancelled-call': ['timestamps', 'clock', 'journald', 'syslog', 'docker-json', 'cloud-json'],
  'golden/gateway-499-names-the-cancelled-call#2': ['timestamps'],
  // (session 41: a server log with no times, restamped by a collector transform, gets every line stamped at the
  // incident's first moment — so its later refusal of a call reads as before the client's re-sent call was answered,
  // and recovered; a real collector stamps a line when it is written. The untimed base stays fix_auth)
  'golden/untimed-server-401-twice-near-miss': ['timestamps', 'journald', 'syslog', 'docker-json', 'cloud-json'],
  'golden/untimed-server-401-twice-near-miss#2': ['timestamps'],
  // (session 42: the names transform renames a host's namespaced tool `mcp__stock__check_stock` as one identifier, unrelated to
  // the server's renamed `check_stock`, so the two logs no longer name one tool and the retry answered by the server is
  // not the host's. The transform's gap: a host derives the name from the server's)
  'golden/host-namespaced-tool-answered-on-retry': ['names'],
  // (the same transform's gap in a real-layout bundle: the host's `crm_lookup_account` and the server's
  // `lookup_account`, renamed apart, are no longer one tool, so the host's re-run answered by the server is not seen)
  'h26i-14-crm-lookup-chat': ['names'],
  // (session 46: the timestamps transform stamps every physical line, a traceback's too, with the line's own naive
  // local time read as UTC; the loguru host's traceback then splits, and its last line — `McpError: Server returned an
  // error response` — stands alone as a server error beside the call's 502, and heads the incident. A collector stamps
  // the moment it read the line, in UTC, and the traceback stays under its record: the transform's gap, and the tool's
  // reading of a traceback split by a collector's stamps)
  'h26l-16-parcel-status-chat-evening': ['timestamps'],
  'h26l-16-parcel-status-chat-evening#2': ['timestamps'],
  // (session 48, found when hand batch 13's dev part joined this suite, not yet fixed: the names transform renames the
  // gateway-namespaced tool `wiki__search_pages` as one identifier, so the catalog's hints under the upstream's own name
  // `search_pages` no longer fit it and the call reads as a possible write; renamed incident-N.log files lose the side
  // their names told, as h26d-11 above; and a collector's stamp or wrapper around a JST host log that names its calls
  // but no status takes the zone the calls both files name away, so the re-issued read no longer meets the server's
  // record of it)
  'h26m-03-wiki-search-accented-query': ['names'],
  // (session 49: the same names gap — `payouts__create_payout` renamed as one identifier no longer fits the server's
  // `create_payout`, so its commit, tied to the call by tool and time under the gateway's own id, is no longer this call's)
  'h26m-11-supplier-payout-slow-bank-submit': ['names'],
  // (and the rename gap: renamed incident-N.log files say neither which is the caller's nor which the server's, and a
  // caller's log naming no URL leaves the server's commit line unplaced)
  'golden/gateway-renumbered-ids-commit-by-tool-and-time': ['rename'],
  'h26m-07-inbound-lead-intake-slow-crm': ['rename'],
  'h26m-17-cline-handbook-docs-server-restart': ['timestamps', 'journald', 'syslog', 'docker-json', 'cloud-json'],
  'h26m-17-cline-handbook-docs-server-restart#2': ['timestamps'],
};
const seedOf = (name: string, t: TransformId) => createHash('sha256').update(`${name}:${t}`).digest().readUInt32LE(0);

beforeAll(() => analyzeCase.open());
afterAll(() => analyzeCase.close());

describe('metamorphic over real shapes: pasted from elsewhere, same answer', () => {
  it('has real shapes to transform', () => expect(cases.length - fixtures.length).toBeGreaterThanOrEqual(realDev.length ? 90 : 45));
  for (const c of cases) {
    it(c.id, async () => {
      const base = (await analyzeCase(c)).decision;
      // (a gzipped log is given to the transforms as the text it holds, under its name without `.gz`: they rewrite lines,
      // and the gzip transform compresses again — the tool reads either)
      const bundle: Bundle = {
        files: caseFiles(c.path).map((p) =>
          p.endsWith('.gz') ? { name: basename(p).slice(0, -3), data: gunzipSync(readFileSync(p)) } : { name: basename(p), data: readFileSync(p) },
        ),
      };
      const changed: string[] = [];
      const runs = [...TRANSFORMS.map((t) => ({ t, name: c.id })), ...SECOND_SEED.map((t) => ({ t, name: `${c.id}#2` }))];
      for (const { t, name } of runs) {
        const tmp = mkdtempSync(join(tmpdir(), 'mcp-triage-meta-real-'));
        try {
          const got = (await analyzeCase({ path: writeBundle(transform(bundle, t, seedOf(name, t)), tmp), id: `${c.id}~${t}` })).decision;
          // (a gap of the second seed's run is listed under the case's id with `#2`)
          const known = (KNOWN_GAPS[name] ?? []).includes(t);
          if ((got !== base) !== known)
            changed.push(`${t}${name === c.id ? '' : ' (second seed)'}: ${base} → ${got}${known ? ' (a known gap that now holds: remove it from KNOWN_GAPS)' : ''}`);
        } finally {
          rmSync(tmp, { recursive: true, force: true });
        }
      }
      expect(changed, changed.join('\n')).toEqual([]);
    });
  }
});
