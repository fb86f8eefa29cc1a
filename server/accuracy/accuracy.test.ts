// The diagnosis measured on every labelled corpus, inside `npm test`: the same figures `npm run
// accuracy` prints (headline decision right, failing request located, per family), held to floors we
// reach so a change that makes the diagnosis worse on logs it was not written from fails. The held
// corpora (recorded-held families, collected-held shapes) are scored, never listed case by case.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCase } from './analyze-case.ts';
import { allCases, type CorpusId } from './corpora.ts';
import { report, scoreCase, tally, type CaseResult } from './score.ts';

/**
 * Floors (share right on medium/high labels; labels by construction for recordings), raised as the
 * diagnosis improves. Targets of the issue: ≥ 95% on recordings, ≥ 85% on real excerpts.
 */
// (a corpus with no floor yet — a batch being collected — is reported by `npm run accuracy`, not held here)
const FLOORS: Partial<Record<CorpusId, { headline: number; located: number }>> = {
  recorded: { headline: 0.95, located: 0.98 },
  'recorded-held': { headline: 0.75, located: 0.95 },
  // an independent harness's recordings (first run 68%) and hand-written 2026-07-28 bundles (first run 10/12)
  'recorded-fresh': { headline: 0.85, located: 0.9 },
  'hand-2026': { headline: 0.9, located: 0.9 },
  'real-dev': { headline: 0.65, located: 0.8 },
  'collected-dev': { headline: 0.9, located: 0.8 },
  'collected-held': { headline: 0.65, located: 0.25 },
  // batch 2, collected 2026-12-02; first run before any work on it: dev 32% (11/34 m/h), held 33% (5/15)
  // 0.72 → 0.70 (24/34): mcp-go's "session terminated (404)" is its word for any 404 (like the Python SDK 1.x's
  // "Session terminated", row 1), so on initialize it reads as the wrong URL; gx-06 is labelled escalate (a
  // gateway client bug) and was right before only because the line was not read at all
  // session 22: 26/34 (gx-15 Quarkus unknown connection, hx-14 optimistic-lock conflict)
  'collected2-dev': { headline: 0.74, located: 0.75 },
  'collected2-held': { headline: 0.35, located: 0.7 }, // located 9→8 of 11 when benign lines stopped lending a span signals (507ddf2; held: not opened)
  // batch 3, collected and first run at the end of 2026-12-02, nothing changed for it yet: dev 50% (5/10), held 43% (3/7)
  'collected3-dev': { headline: 0.75, located: 0.9 },
  'collected3-held': { headline: 0.4, located: 0.7 },
  // batch 4 (53 shapes, session 15), first run before any work on it: dev 63% (19/30 m/h), held 57% (8/14)
  'collected4-dev': { headline: 0.78, located: 0.25 },
  'collected4-held': { headline: 0.55, located: 0.4 },
  // batch 5 (45 shapes, session 15; asked for retry/no_action/write-outcome threads), first run before any work on it: dev 56% (9/16 m/h), held 36% (4/11)
  // session 22: 11/16 (he-12 a 204 reported as a failure)
  'collected5-dev': { headline: 0.65, located: 0.25 },
  'collected5-held': { headline: 0.45, located: 0.3 },
  // batch 6 (48 shapes, session 16), first run on the labels' commit before any work on it: dev 33% (9/27 m/h,
  // located 10/27), held 85% (11/13, located 8/10); dev now 14/27 (most misses are labels from thread context)
  'collected6-dev': { headline: 0.55, located: 0.45 },
  'collected6-held': { headline: 0.8, located: 0.75 },
  // batch 7 (91 shapes, session 20): the probe sets helpers wrote from public threads outside every corpus,
  // read while building (dev only). Their first runs, as each set came in: 58 of 91 right (all labels)
  // session 22: 81/90 (SSRF guard, transport type, forward proxy, Java missing session, closed client sessions, stopped session manager)
  'collected7-dev': { headline: 0.86, located: 0 },
  // batch 8 (51 shapes, session 21: timeouts, connection setup, session lifecycle, auth-adjacent, cut streams
  // and the rare decisions), first run on the labels' commit before any work on it: dev 32% (8/25 m/h), held
  // 33% (5/15)
  // session 22: 14/25 (cn-01 forward proxy page, ss-06 idle timeout below SDK defaults)
  'collected8-dev': { headline: 0.5, located: 0.45 },
  'collected8-held': { headline: 0.3, located: 0.4 },
  // batch 9 (33 shapes, session 22): probe sets helpers wrote from threads outside every corpus, each labelled and
  // committed before it was run, then read while building (dev only). First runs: 13 of 22 medium/high; now 14
  'collected9-dev': { headline: 0.6, located: 0.25 },
  // batch 10 (38 shapes, session 23: gateways and edge hosts, agent frameworks, other SDKs; labelled and split
  // before the first run): first run dev 53% (8/15 m/h), held 67% (6/9); after this session's kinds dev 80% (12/15)
  'collected10-dev': { headline: 0.75, located: 0.5 },
  'collected10-held': { headline: 0.6, located: 0.25 },
  // batch 11 (24 shapes, session 23, asked for retry, no_action, reinitialize and write outcomes; labelled and split
  // before the first run): first run dev 3/11, held 3/8 (m/h); dev 4/12 with wo-11, moved from held after the screen refused it — most misses are labels from thread context
  // session 25: 6/12 (a lone idle eviction is the lost session)
  'collected11-dev': { headline: 0.45, located: 0.35 },
  'collected11-held': { headline: 0.35, located: 0.5 },
  // batch 12 (13 shapes, session 24: proxies, balancers and gateways between client and server; labelled and split
  // before the first run): first run dev 4/6 (m/h), held 0/2 — the held part is too small for a floor yet
  'collected12-dev': { headline: 0.6, located: 0.6 },
  // batch 13 (12 shapes, session 25: agent frameworks and IDE hosts as clients of remote servers; labelled and split
  // before the first run): first run dev 2/8 (m/h), held 3/4; dev now 4/8 — the held part is too small for a floor
  'collected13-dev': { headline: 0.45, located: 0.8 },
  // batch 14 (15 shapes, session 26: remote servers on serverless and cloud platforms and in the Go, Rust, Java, C#,
  // Ruby, PHP and Kotlin SDKs; labelled and split before the first run): first run dev 3/8 (m/h), held 2/5; dev now
  // 4/8 (a .NET server that cannot load an assembly is a deployment to fix) — the held part is too small for a floor
  'collected14-dev': { headline: 0.45, located: 0.8 },
  // batch 15 (13 shapes, session 27: the newest threads, 2025-10 on, any SDK, host or proxy; labelled and split before
  // the first run): first run dev 3/7 (m/h), held 2/4 — the held part is too small for a floor
  'collected15-dev': { headline: 0.4, located: 0.8 },
  // batch 16 (12 shapes, session 28: failures easy to miss — errors at info level or inside a 200, settings on the
  // way; labelled and split before the first run): first run dev 2/8 (m/h), held 1/3; dev 3/8 with a client that
  // misresolves the legacy endpoint event — the held part is too small for a floor
  'collected16-dev': { headline: 0.35, located: 0.3 },
  // batch 17 (12 shapes, session 28: projects the corpus held nothing of; labelled and split before the first run):
  // first run dev 2/6 (m/h), held 0/1; dev 3/6 with a curl command written over several lines — the held part is too small for a floor
  'collected17-dev': { headline: 0.3, located: 0.3 },
  // batch 18 (12 shapes, session 29: only threads whose cause a maintainer confirmed or a merged fix shows; labelled
  // and split before the first run): first run dev 3/8 (m/h), held 2/4; dev 4/8 once the screen read a client's
  // level-less line about its SSE stream — the held part is too small for a floor
  'collected18-dev': { headline: 0.45, located: 0.5 },
  // batch 19 (12 shapes, session 29: any remote-MCP thread with a log and a stated cause, collected after that
  // session's other changes; labelled and split before the first run): first run dev 3/8 (m/h), held 2/4; dev 4/8
  // with the Java SDK server's keep-alive ping to a gone session read as noise — the held part is too small for a floor
  'collected19-dev': { headline: 0.45, located: 0.5 },
  // batch 20 (13 shapes, session 30: threads like the shared real-dev excerpts; labelled and split before the first
  // run): first run dev 5/9, held 3/4; dev 6/9 with 'Invalid access token' read as an auth refusal
  'collected20-dev': { headline: 0.7, located: 0.45 },
  // the second batch of hand-written 2026-07-28 bundles (24, a third held back by a hash of the name, written by a
  // helper who did not read the code): first run dev 7/16, held 6/8; dev 11/16 with listen's -32601 optional, a
  // proxy's view of an optional failure folded under it, health probes and the era fallback read
  'hand-2026b-dev': { headline: 0.85, located: 0.6 },
  // batch 21 (13 shapes, session 31: the same aim as batch 20, another collector; labelled and split before the first
  // run): first run dev 4/9, held 3/4; dev 5/9 with Chromium's 'HTTP ERROR 503' read as a status
  'collected21-dev': { headline: 0.5, located: 0.45 },
  // batch 22 (12 shapes, session 32: the same aim, a third collector; labelled and split before the first run): first
  // run dev 4/8, held 2/4; dev 5/8 with 'Server already initialized' on a fresh initialize escalated
  'collected22-dev': { headline: 0.6, located: 0.45 },
  // the third batch of hand-written 2026-07-28 bundles (24, split the same way, another writer who did not read the
  // code): first run dev 7/16, held 5/8; dev 14/16 with a gateway's records joined to the host's calls, .stderr and
  // .journal files read, a task's polls joined to its call, a 2026 server's missing server/discover escalated
  'hand-2026c-dev': { headline: 0.7, located: 0.45 },
  // the fourth batch (24, split the same way, a fourth writer who did not read the code, asked for 2026-07-28 areas
  // the others skipped): first run dev 6/16 (failing request located 5/16), held 5/8; dev 12/16 with a resolver's log
  // folded under the client's DNS failure, a refused result of a logged write read first, string ids joined, python-sdk
  // 3522 behind a host's words, a 2025 server's session complaint to server/discover read as the fallback's cue;
  // 13/16 with a tool's handle split across replicas; 14/16 with a telemetry exporter's failure read as another path
  'hand-2026d-dev': { headline: 0.8, located: 0.45 },
  // the fifth batch (24, split the same way, two writers who did not read the code, given areas and log layouts no
  // earlier batch used): first run dev 4/16 (located 10/16), held 4/8; dev 5/16 with a memory quota no rate limit;
  // 11/16 with Apache's error log, CLEF, journald JSON and Heroku's stream read, CORS refusals, a server's dead
  // database, a telemetry or model-API path, a cancel after commit, a re-sent read; 14/16 (session 34) with an HTML
  // page quoted in a JSON record no longer swallowing the next records, a platform's response-size refusal, and one
  // request committed on two replicas
  'hand-2026e-dev': { headline: 0.8, located: 0.6 },
  // batches 23–25 (24 shapes each, session 34: threads like the shared real-dev excerpts, two collectors a batch who
  // read only the threads and reported counts only; labelled and split before each first run). First runs: 23 dev
  // 6/13, held 1/6; 24 (after 23's changes) dev 8/13, held 3/5; 25 (after 24's) dev 5/13, held 2/6. Now dev 10/13,
  // 9/13, 9/13 — OAuth redirect-URI refusals, the endpoint event in other decoders' words, npm's E404, mcp-remote's
  // http refusal, a relay's opening GET, padded access-log columns. uf-05 moved from held to dev after the first
  // fresh-clone run: the screen refused it (a host's line under a server's name), and a refused held shape cannot stay
  // unseen (the test that every real shape is read names it); dev 25 is 9/14 with it. The held parts are too small for floors
  'collected23-dev': { headline: 0.7, located: 0.3 },
  'collected24-dev': { headline: 0.65, located: 0.25 },
  'collected25-dev': { headline: 0.6, located: 0.25 },
  // batches 26–29 (24 shapes each, session 35, the same way: counts only, labelled and split before each first run).
  // First runs (medium/high): 26 dev 5/15, held 3/6; 27 (after 26's changes) dev 4/11, held 4/7; 28 dev 4/10, held
  // 2/7; 29 dev 5/11, held 3/5. Now dev 8/16, 7/11, 6/10, 6/11 — a browser's fetch error and a network that changed
  // under the request, named credential refusals, a bare 404 beside the server's unknown-session line, a wrapper whose
  // cause is on the next line, a legacy client named by its own words, an answer with no Content-Type. ug-01 moved
  // from held to dev (the screen refused it; dev 26 counts it)
  'collected26-dev': { headline: 0.45, located: 0.5 },
  'collected27-dev': { headline: 0.55, located: 0.2 },
  'collected28-dev': { headline: 0.5, located: 0.6 },
  'collected29-dev': { headline: 0.5, located: 0.6 },
  // batch 30 (OAuth and credential flows; the hosts and gateways held least): first run dev 5/12 (three refused), held 2/7
  'collected30-dev': { headline: 0.45, located: 0.6 },
  // batch 31 (session 36: client logs in the shared excerpts' proportions, and threads resolved by a setting, credentials,
  // a lost session, a blip or recovery): first run dev 9/13, held 5/6; dev 10/13 with a failed load ending in the 401
  // reason phrase read as a refusal
  'collected31-dev': { headline: 0.7, located: 0.45 },
  // the sixth hand-written batch (24, session 36, two writers given areas and layouts no earlier batch used): first run dev
  // 5/16, held 4/8; dev 10/16 with a minted id's late answer joined to its write, a 2026 result 'complete' read as a return,
  // mutual TLS's certificate_required alert as a missing credential, an idempotency replay the client received as done, a
  // task that expired before its result was fetched
  'hand-2026f-dev': { headline: 0.5, located: 0.5 },
  // batch 32 (session 37: client logs in the shared excerpts' proportions, and server, proxy and gateway logs of a
  // failed request): first run dev 7/12, held 2/5 (medium/high); dev 8/12 with an https request redirected to http://
  // read as configuration
  'collected32-dev': { headline: 0.6, located: 0.7 },
  // the seventh hand-written batch (24, session 37, two writers given areas and layouts no earlier batch used): first run
  // dev 6/16, held 3/8; dev 11/16 with a forward proxy's refused tunnel, a credential dropped on a redirect, a Bun code
  // frame read as code, a null dereference that a later call of the same tool did not recover, a write committed before
  // its client left
  'hand-2026g-dev': { headline: 0.6, located: 0.6 },
  // the eighth hand-written batch (24, session 38, two writers given areas and layouts no earlier batch used): first run
  // dev 6/16, held 2/8; dev 10/16 with a TLS host-name refusal in .NET's words, a 503 naming when to come back, one id
  // under two names (a JSON-RPC id a server logs as its rid) and Istio's overflow detail as a connect-stage refusal
  'hand-2026h-dev': { headline: 0.6, located: 0.6 },
  // the ninth hand-written batch (24, session 39, two writers given areas and layouts no earlier batch used): first run
  // dev 6/16, held 2/8; dev 9/16 with an application's 'blob fetch failed' no longer read as undici's, headers over a
  // size limit (431, HPE_HEADER_OVERFLOW), and a server's OTLP export read as the server's with its db commit as evidence
  'hand-2026i-dev': { headline: 0.5, located: 0.4 },
  // the tenth hand-written batch (24, session 43, two writers given areas and layouts no earlier batch used): first run
  // dev 4/16, held 4/8; dev 6/16 with Heroku's router errors read and a time-of-day log dated by a stamped wrapper, and an
  // HTTP/2 stream refused by a graceful GOAWAY read as never processed; 10/16 (session 44) with a gateway's record of the
  // refusal folded under the client's 403, a momentary DNS loss, a task poll's 502 recovered by the next poll, a drained
  // process's teardown line, a Langfuse exporter's failures and a HAR's refused CORS preflight read as what they are
  // (11/16)
  'hand-2026j-dev': { headline: 0.55, located: 0.65 },
  // the eleventh hand-written batch (24, session 45, two writers asked for the everyday incident of each decision in
  // the commonest layouts): first run dev 9/16, held 6/8; dev 13/16 with a stranger's TLS handshake at the proxy
  // folded, a commit logged on the request's servlet thread, a job's count after the client gave the call up, and a
  // proxy's line of the call joined to a client failure that names no status; 14/16 with a cut joined to the one
  // request in flight
  'hand-2026k-dev': { headline: 0.75, located: 0.75 },
  // the twelfth (24, session 46, incidents as an on-call engineer collects them: busy windows with other callers,
  // probes, skewed clocks and recovered noise around one failure): first run dev 8/16, held 6/8; 13/16 with a file's
  // zone found from the answers both files logged, another caller's failure in a shared proxy's log set aside, a
  // host's message trace read by its arrows and ids, structlog's key=value lines, and a proxy's mid-stream cut joined
  // to the client's report of it; 14/16 with a model provider's 529 read as the model path
  'hand-2026l-dev': { headline: 0.75, located: 0.65 },
  // the thirteenth (24, session 48, incidents as users hand them over: behind MCP gateways fronting several servers, and
  // pasted from terminals, Windows hosts and other locales): first run dev 4/16, held 5/8; 10/16 with an x'ed-out value
  // no session id, a proxy's timeout page no route, a request's head and body lines one send, journalctl's localized
  // months, a file's zone from the calls both files name, a gateway's "not forwarded" and a namespaced tool's hints;
  // 15/16 (session 49) with a Python host's pydantic annotations and a tool printed before its object, a commit under a
  // gateway's own rpc id tied by tool and time, a stop with nothing in flight, a handler's `done {"id":…}` line, and
  // kubectl port-forward losing its pod read as the local tunnel gone
  'hand-2026m-dev': { headline: 0.85, located: 0.65 },
};

const results: CaseResult[] = [];
beforeAll(async () => {
  await analyzeCase.open();
  for (const c of allCases()) results.push(await scoreCase(c, analyzeCase));
}, 300_000);
afterAll(() => analyzeCase.close());

describe('accuracy on the labelled corpora', () => {
  for (const corpus of Object.keys(FLOORS) as CorpusId[]) {
    it(`${corpus}: headline and failing request hold their floors`, () => {
      const rs = results.filter((r) => r.c.corpus === corpus);
      if (!rs.length) return expect(corpus === 'real-dev').toBe(true); // the shared corpus may be absent beside a clone
      console.log(report(corpus, rs));
      const firm = tally(rs.filter((r) => r.c.confidence !== 'low'));
      const all = tally(rs);
      expect(firm.right / firm.n, `${corpus} headline`).toBeGreaterThanOrEqual(FLOORS[corpus]!.headline);
      if (all.labelled) expect(all.located / all.labelled, `${corpus} located`).toBeGreaterThanOrEqual(FLOORS[corpus]!.located);
    });
  }
});
