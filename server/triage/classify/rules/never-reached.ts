import type { Facts } from '../facts.ts';
import { CONNECT_WHY } from '../incident.ts';
import type { Rule } from '../rule.ts';
import { describe, has, signalWords } from '../rule.ts';

/**
 * Persistent in D1's sense: failed on every attempt, and on at least three. Two tries (the client's own
 * "retrying in 1000 ms") are the bounded retry D1 asks for, not yet evidence that the address is wrong;
 * a deploy or a restart outlasts them (our recordings: upstream down for a few seconds, tried twice).
 */
const PERSISTENT_ATTEMPTS = 3;
// (failures on every attempt while the server was down, when its log shows it starting afterwards, are a
// deploy or restart window — row 66 "backend down/restarting → SEND/RETRY" — not a wrong address)
// (nor when the server's log shows it stopped before them and not started since: row 66's "backend down" —
// the address is right, the server is not running there)
// (nor after the client had connected to that same server earlier in the logs: the address was right then —
// the server went away, row 66, and a host that gave up reconnecting must build a new connection)
const givenUp = (f: { persistent: boolean | null; attempts: number; serverStartedAfter: boolean; serverStoppedBefore: boolean; connectedBefore: string | null }) =>
  f.persistent === true && f.attempts >= PERSISTENT_ATTEMPTS && !f.serverStartedAfter && !f.serverStoppedBefore && f.connectedBefore === null;

/**
 * Every try timed out at connect for minutes, none refused, nothing of that target answering since (facts
 * connectDropped): a path that drops packets — a firewall, a security group, a network policy, a route, a DNS
 * answer this client cannot reach — whether or not the address worked before. Not while the server's own log
 * shows it down (stopped before, started after): that is its restart window.
 */
const dropped = (f: Facts) => f.connectDropped !== null && !f.serverStartedAfter && !f.serverStoppedBefore;
/**
 * "No such host" for a name the client reached this server by both before and after the failure: the name exists,
 * the resolver lost it for a moment (a VPN's split DNS going down with the tunnel, a network change) — not the
 * persistent answer of a wrong or deleted name (failure-signatures D1: persistent → fix DNS; transient → retry).
 */
const momentaryName = (f: Facts) => f.connectedBefore !== null && f.connectedAfter !== null;

/** Connect-stage failures: those that say why (incident.ts), and the bare network error that does not. */
const CONNECT = ['network-error', ...CONNECT_WHY] as const;
/** Connect failures no retry can pass: the same certificate, the same plain-HTTP port. */
const DETERMINISTIC = ['tls-certificate', 'tls-scheme-mismatch'] as const;
const deterministic = (f: Facts) => has(f, ...DETERMINISTIC);

/**
 * The host's first connection to this server failed with undici's bare `fetch failed` and nothing in the logs
 * names why (row 41: the wrapper means what its `cause` says; the host did not log it), the address never
 * worked in these logs (no line shows a server answering anything), and no server start or stop explains it.
 * Decided by connect-cause-hidden.
 */
const hiddenAtFirstConnect = (f: Facts) =>
  f.neverConnected === true &&
  f.connectCauseHidden &&
  f.serverNeverAnswered &&
  f.tool === null &&
  (f.method === 'initialize' || f.method === 'server/discover') &&
  !f.serverStartedAfter &&
  !f.serverStoppedBefore &&
  !f.writeEvidence;

// triage-rules.md §6 ("request was definitely never sent" → send normally); failure-signatures D1, rows 6,
// 7, 41, 66, 67, 75, 85: a connect-stage failure; nothing reached the MCP server, so even a write is safe
// to send once it is reachable. Persistent (every attempt, never a success) → the route/DNS/TLS/address is
// wrong or the server is not running there: the "persistent → fix" half of D1.
export const neverReached: Rule = {
  id: 'never-reached-server',
  decision: 'retry',
  source: 'failure-signatures D1, rows 6, 41, 66, 67, 75 · triage-rules.md §6',
  when(f) {
    if (f.neverConnected !== true) return 'the failure is not at the connect stage';
    if (f.writeEvidence) return 'the server logged work for this request, so it was delivered';
    if (dropped(f)) return `every try timed out at connect from ${f.connectDropped} on, for minutes, and none was refused: a path that drops packets (unreachable-persistent)`;
    if (f.connectedBefore !== null && f.gaveUp) return 'the client gave up reconnecting to a server it had been connected to (reconnect-gave-up)';
    if (givenUp(f)) return `it failed on all ${f.attempts} attempts: persistent, not transient`;
    if (hiddenAtFirstConnect(f)) return "the host's first connection failed with a bare fetch failed whose cause no line names (connect-cause-hidden)";
    if (has(f, 'tls-certificate')) return "the server's certificate was refused: every attempt meets the same certificate";
    if (has(f, 'tls-scheme-mismatch')) return 'TLS met a plain-HTTP port: every attempt meets the same port';
    // (a compose service's name is unknown until its container starts: a server that started after is that window;
    // a name the client reached the server by before and after was missing only for a moment — momentaryName)
    if (has(f, 'dns-name-unknown') && !f.serverStartedAfter && !momentaryName(f))
      return 'the resolver answered that the host name does not exist: every attempt gets the same answer';
    return true;
  },
  rationale: (f) =>
    `${f.serverStoppedBefore ? "The server's own log shows it stopped before these attempts and not started again: " : ''}${describe(f)} failed while connecting (${signalWords(f, [...CONNECT], 'no connection')}${f.target ? ` to ${f.target.host}${f.target.port ? `:${f.target.port}` : ''}` : ''}): the request never reached the MCP server, so nothing ran — even a write is safe to send. Send it normally once the server is reachable, with bounded retries and backoff; if it persists, check that the server is up and the address, DNS, TLS and proxy upstream.`,
  examples: [
    {
      name: 'nginx connect() failed (111) on initialize',
      facts: { httpStatus: 502, method: 'initialize', neverConnected: true, interruption: 'connect', stage: 'connect', causes: ['proxy-upstream-unavailable'] },
      fires: true,
    },
    {
      name: 'httpx ConnectError on a write',
      facts: { method: 'tools/call', tool: 'create_order', neverConnected: true, interruption: 'connect', causes: ['conn-refused'] },
      fires: true,
    },
    { name: '502 prematurely closed while reading the header', facts: { httpStatus: 502, method: 'tools/call', interruption: 'closed-before-headers' }, fires: false },
    { name: 'refused on every one of 3 attempts', facts: { neverConnected: true, attempts: 3, persistent: true }, fires: false },
    { name: 'timeouts on every try for minutes (packets dropped)', facts: { neverConnected: true, connectDropped: 'agent.log:5', causes: ['connect-timeout'] }, fires: false },
    {
      name: 'refused on every one of 3 attempts, the server started afterwards',
      facts: { neverConnected: true, attempts: 3, persistent: true, serverStartedAfter: true },
      fires: true,
    },
    {
      name: 'refused on every one of 3 attempts after the server logged its shutdown',
      facts: { neverConnected: true, attempts: 3, persistent: true, serverStoppedBefore: true, causes: ['proxy-upstream-unavailable'] },
      fires: true,
    },
    { name: 'near miss of the fix: EAI_AGAIN once is transient', facts: { neverConnected: true, attempts: 1, causes: ['dns-failure'] }, fires: true },
    {
      name: 'bare fetch failed on a tool call (the host had connected): sent again',
      facts: {
        method: 'tools/call',
        tool: 'rebuild_forecast',
        neverConnected: true,
        connectCauseHidden: true,
        serverNeverAnswered: true,
        signals: ['fetch-failed'],
        causes: ['network-error'],
      },
      fires: true,
    },
    { name: 'ENOTFOUND: the name does not exist, a retry gets the same answer', facts: { neverConnected: true, attempts: 1, causes: ['dns-name-unknown'] }, fires: false },
    {
      name: 'a name lookup that failed once between calls that reached the same server (a VPN dropping its DNS)',
      facts: { neverConnected: true, attempts: 1, causes: ['dns-name-unknown'], connectedBefore: 'zed.log:9', connectedAfter: 'zed.log:20' },
      fires: true,
    },
    {
      name: 'near miss: the name worked before but not since (a record deleted, a renamed host)',
      facts: { neverConnected: true, attempts: 1, causes: ['dns-name-unknown'], connectedBefore: 'zed.log:9' },
      fires: false,
    },
    {
      name: 'ENOTFOUND for a compose service whose server started afterwards',
      facts: { neverConnected: true, attempts: 1, causes: ['dns-name-unknown'], serverStartedAfter: true },
      fires: true,
    },
    {
      name: 'proxy 503 (no server available) on both of 2 tries',
      facts: { httpStatus: 503, method: 'initialize', neverConnected: true, attempts: 2, persistent: true, causes: ['proxy-upstream-unavailable'] },
      fires: true,
    },
  ],
};

export const unreachablePersistent: Rule = {
  id: 'unreachable-persistent',
  decision: 'fix_route_or_config',
  source: 'failure-signatures D1 ("persistent → fix route/DNS/TLS"), rows 6, 41',
  when(f) {
    if (f.neverConnected !== true) return 'the failure is not at the connect stage';
    if (!givenUp(f) && !deterministic(f) && !dropped(f) && !(has(f, 'dns-name-unknown') && !f.serverStartedAfter && !momentaryName(f)))
      return f.persistent === true ? `${f.attempts} attempts are the bounded retry, not yet persistent` : 'not shown to fail on every attempt';
    return true;
  },
  rationale: (f) =>
    dropped(f)
      ? `${describe(f)} could not connect: every try to ${f.target ? `${f.target.host}${f.target.port ? `:${f.target.port}` : ''}` : 'the server'} from ${f.connectDropped} on timed out at connect, for minutes, and none was refused (${signalWords(f, [...CONNECT], 'no connection')})${f.connectedBefore !== null ? `, although the same address worked before (${f.connectedBefore})` : ''}. A server that is up but not listening refuses at once and a restart is over in seconds; packets dropped for minutes are the path — a firewall, security group or network policy, a route or VPN, or a DNS answer this client cannot reach. Nothing reached the server, so nothing needs undoing; fix the network path or the address the client resolves (check from the client's machine: DNS answer, then a TCP connect to that address and port), then send again — retrying unchanged times out the same way.`
      : `${describe(f)} could not connect ${f.attempts > 1 ? `on any of ${f.attempts} attempts` : has(f, 'tls-certificate') ? "because it refused the server's certificate, which no retry changes" : has(f, 'tls-scheme-mismatch') ? 'because it spoke TLS to a port that answers plain HTTP (an https:// URL for an http listener, or the wrong port), which no retry changes' : has(f, 'dns-name-unknown') ? 'because its host name does not exist in DNS (an answer, not a timeout: no retry changes it)' : 'and never succeeded'} (${signalWords(f, [...CONNECT], 'no connection')}${f.target ? ` to ${f.target.host}${f.target.port ? `:${f.target.port}` : ''}` : ''}) and never succeeded: not a blip. Nothing listens at that address${f.localTarget ? ' on this machine' : ''}, or the name, port, TLS trust or proxy upstream is wrong. Fix the endpoint configuration or start the server; retrying unchanged repeats it.`,
  examples: [
    { name: 'refused on every one of 3 attempts', facts: { neverConnected: true, attempts: 3, persistent: true, causes: ['conn-refused'] }, fires: true },
    { name: 'one refused attempt', facts: { neverConnected: true, attempts: 1, persistent: null }, fires: false },
    { name: 'refused on both of 2 tries (the bounded retry itself)', facts: { neverConnected: true, attempts: 2, persistent: true, causes: ['conn-refused'] }, fires: false },
    {
      name: 'connect timeouts on every try for minutes, after the address had worked',
      facts: { neverConnected: true, attempts: 1, connectedBefore: 'agent.log:2', connectDropped: 'agent.log:5', causes: ['connect-timeout'] },
      fires: true,
    },
    {
      name: 'near miss: the same timeouts while the server logged its own restart',
      facts: { neverConnected: true, attempts: 1, connectDropped: 'agent.log:5', serverStartedAfter: true, causes: ['connect-timeout'] },
      fires: false,
    },
    { name: 'a self-signed certificate, once', facts: { neverConnected: true, attempts: 1, persistent: null, causes: ['tls-failure', 'tls-certificate'] }, fires: true },
    { name: 'getaddrinfo ENOTFOUND, once: the name does not exist', facts: { neverConnected: true, attempts: 1, persistent: null, causes: ['dns-name-unknown'] }, fires: true },
    {
      name: 'WRONG_VERSION_NUMBER, once: https:// to a plain-HTTP port',
      facts: { neverConnected: true, attempts: 1, persistent: null, causes: ['tls-scheme-mismatch'] },
      fires: true,
    },
    {
      name: 'near miss: EAI_AGAIN, once (the resolver could not answer now)',
      facts: { neverConnected: true, attempts: 1, persistent: null, causes: ['dns-failure'] },
      fires: false,
    },
  ],
};

// failure-signatures row 66 (backend down/restarting → send again once it is back) and triage-rules.md
// (REINIT: a closed client object must be re-created): the client had been connected to this server — the
// address, DNS and TLS were right — then every reconnect failed at connect until it gave up. The server went
// away (a restart, a deploy, an outage); the host's connection is dead, and nothing reconnects it by itself.
export const reconnectGaveUp: Rule = {
  id: 'reconnect-gave-up',
  decision: 'reinitialize',
  source: 'failure-signatures row 66, D1 · triage-rules.md (REINIT: a closed client object)',
  when(f) {
    if (f.neverConnected !== true) return 'the failure is not at the connect stage';
    if (f.connectedBefore === null) return 'nothing shows the client connected to this server before';
    if (!f.gaveUp) return 'the client did not give up reconnecting';
    if (deterministic(f)) return 'a certificate or scheme answer no reconnect passes (unreachable-persistent)';
    if (dropped(f)) return 'every reconnect timed out at connect for minutes, none refused: a path that drops packets, not a server that went away (unreachable-persistent)';
    return true;
  },
  rationale: (f) =>
    `The client had been connected to this server (${f.connectedBefore}), so its address, DNS and TLS were right; then ${describe(f)} failed at connect on every reconnect (${signalWords(f, [...CONNECT], 'no connection')}${f.attempts > 1 ? `, ${f.attempts} attempts` : ''}) until it gave up. The server went away — a restart, a deploy, an outage — not a misroute. Once the server answers again, reconnect the host to it (restart its MCP connection: a fresh initialize); if it does not come back, its owners need to know why it went down. Nothing was sent while it was down.`,
  examples: [
    {
      name: 'connected, then five fetch failed and "Max reconnection attempts" ',
      facts: { neverConnected: true, connectedBefore: 'host.log:1', gaveUp: true, attempts: 5, persistent: true, causes: ['network-error'] },
      fires: true,
    },
    {
      name: 'near miss: never connected, gave up',
      facts: { neverConnected: true, gaveUp: true, attempts: 5, persistent: true, causes: ['conn-refused', 'reconnect-exhausted'] },
      fires: false,
    },
    {
      name: 'near miss: connected, then every reconnect timed out for minutes (a dropped path)',
      facts: { neverConnected: true, connectedBefore: 'host.log:1', gaveUp: true, attempts: 5, persistent: true, connectDropped: 'host.log:3', causes: ['connect-timeout'] },
      fires: false,
    },
    {
      name: 'near miss: connected before, one refused reconnect, still trying',
      facts: { neverConnected: true, connectedBefore: 'host.log:1', attempts: 1, causes: ['conn-refused'] },
      fires: false,
    },
  ],
};

// failure-signatures row 41 (undici's `fetch failed` means what its cause says: refused or a DNS retry-able
// failure → send again; a name, certificate, proxy or scheme → fix; "persistent → FIX URL/DNS/TLS/proxy env")
// and D1; triage-rules.md §5.3 (a new connection that also fails → check endpoint, server and proxy). A host
// that logs only `TypeError: fetch failed` on its first connection to a server — nothing in the logs shows that
// address ever working, nothing names the cause — gives no ground for "transient": the causes threads resolve
// it with recur on every attempt (a dev or corporate certificate the host does not trust, a proxy the host
// must be told about, https to a plain-HTTP port, a name that does not resolve, a host that cannot reach that
// network), so the host's own retry meets the same wall. Threads: microsoft/vscode#282316 (a Codespace's
// localhost unreachable from the host), MicrosoftDocs/mcp#168 (maintainer: corporate network, VPN, proxy and
// strict-SSL settings first), microsoft/vscode#246572 (a config that produced no URL).
export const connectCauseHidden: Rule = {
  id: 'connect-cause-hidden',
  decision: 'fix_route_or_config',
  source: 'failure-signatures row 41, D1 · triage-rules.md §5.3',
  when(f) {
    if (f.neverConnected !== true) return 'the failure is not at the connect stage';
    if (!f.connectCauseHidden) return 'a line names why the connection failed (refused, DNS, timeout, TLS), or it is not a bare fetch failed';
    // (a host's state line — VS Code's "Connection state: Running" comes before its initialize is answered — is
    // not the address working: what counts is a line showing a server answering)
    if (!f.serverNeverAnswered) return 'a line shows a server answering (a status, a handshake, a completed call, a stream cut after it started): the address worked';
    if (f.tool !== null || (f.method !== null && f.method !== 'initialize' && f.method !== 'server/discover'))
      return 'a call on a connection that had been made: the address had worked';
    if (f.method === null) return 'not shown to be the first connection (no initialize or server/discover named)';
    if (f.serverStartedAfter || f.serverStoppedBefore) return "the server's own log shows it down then: a restart window";
    if (f.writeEvidence) return 'the server logged work for this request';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} failed on the host's first connection to ${f.target ? `${f.target.host}${f.target.port ? `:${f.target.port}` : ''}` : 'the server'} with a bare \`TypeError: fetch failed\`, and no line says why (undici puts the reason — refused, a DNS answer, a connect timeout, a certificate — in the error's cause, which the host did not log); nothing in these logs shows that address ever working. Nothing reached the server, so nothing needs undoing, but nothing shows the failure is transient either: the usual causes (a dev or corporate certificate the host does not trust, a proxy the host must use, https to a plain-HTTP port, a name that does not resolve${f.localTarget ? ', a local server not listening on that port' : ''}) fail every attempt the same way. Find the cause — fetch the same URL from the same machine (curl -v), check the host's proxy and certificate settings — and fix the endpoint, proxy or trust configuration; if the server was simply not running yet, start it and connect again.`,
  examples: [
    {
      name: 'VS Code: Error connecting to https://localhost:…/sse: TypeError: fetch failed',
      facts: {
        method: 'initialize',
        neverConnected: true,
        connectCauseHidden: true,
        serverNeverAnswered: true,
        signals: ['fetch-failed'],
        causes: ['network-error'],
        localTarget: true,
      },
      fires: true,
    },
    {
      name: 'near miss: fetch failed with ECONNREFUSED named',
      facts: {
        method: 'initialize',
        neverConnected: true,
        connectCauseHidden: false,
        serverNeverAnswered: true,
        signals: ['fetch-failed', 'connection-refused'],
        causes: ['network-error', 'conn-refused'],
      },
      fires: false,
    },
    {
      name: 'near miss: bare fetch failed while a stream of the same server had been open (cut later)',
      facts: { neverConnected: true, connectCauseHidden: true, serverNeverAnswered: false, signals: ['fetch-failed'], causes: ['network-error'] },
      fires: false,
    },
    {
      name: 'VS Code said Running, then waited for initialize and got a bare fetch failed; no server ever answered',
      facts: {
        method: 'initialize',
        neverConnected: true,
        connectCauseHidden: true,
        connectedBefore: 'host.log:1',
        serverNeverAnswered: true,
        signals: ['fetch-failed'],
        causes: ['network-error'],
      },
      fires: true,
    },
    {
      name: 'near miss: bare fetch failed, the request not named (not shown to be the first connection)',
      facts: { neverConnected: true, connectCauseHidden: true, serverNeverAnswered: true, signals: ['fetch-failed'], causes: ['network-error'] },
      fires: false,
    },
    {
      name: 'near miss: bare fetch failed on a tool call',
      facts: {
        method: 'tools/call',
        tool: 'rebuild_forecast',
        neverConnected: true,
        connectCauseHidden: true,
        serverNeverAnswered: true,
        signals: ['fetch-failed'],
        causes: ['network-error'],
      },
      fires: false,
    },
  ],
};

// failure-signatures D1 ("transient → retry; persistent → fix the route, DNS, TLS or upstream") and rows 66, 75: a
// proxy that answers a call with its own page — no healthy upstream, 502/503 from the proxy itself — on every one of
// three or more attempts, with no restart of the server in the logs to wait out, is not a blip: the proxy cannot reach
// or route to the server it was given (an upstream address resolved once at start, a backend pool emptied, a health
// check failing). Retrying goes the same way; the proxy's upstream configuration is what to fix.
export const proxyRefusesEveryAttempt: Rule = {
  id: 'proxy-refuses-every-attempt',
  decision: 'fix_route_or_config',
  source: 'failure-signatures D1 ("persistent → fix"), rows 66, 75',
  when(f) {
    if (!has(f, 'proxy-upstream-unavailable')) return 'the proxy did not answer for an upstream it could not use';
    if (f.persistent !== true || f.attempts < PERSISTENT_ATTEMPTS)
      return f.persistent === true ? `${f.attempts} attempts are the bounded retry, not yet persistent` : 'not shown to fail on every attempt';
    if (f.serverStartedAfter || f.serverStoppedBefore) return "the server's own log shows it down or restarting: a window to wait out";
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was answered by the proxy itself (${signalWords(f, ['proxy-upstream-unavailable'], 'no healthy upstream')}) on all ${f.attempts} attempts, and never succeeded, with no restart of the server in the logs: not a blip. The proxy cannot reach or route to the server it was given — an upstream address it resolved once at start, an empty backend pool, a failing health check. Check the proxy's upstream for this route (the address it connects to, its DNS, the backends' health) and fix it; nothing reached the server, so nothing needs undoing, and retrying unchanged goes the same way.`,
  examples: [
    {
      name: "the proxy's 503 page on all 4 attempts",
      facts: { method: 'tools/call', tool: 'track', httpStatus: 503, interruption: 'bad-gateway', attempts: 4, persistent: true, causes: ['proxy-upstream-unavailable'] },
      fires: true,
    },
    {
      name: 'near miss: twice (the bounded retry)',
      facts: { method: 'tools/call', tool: 'track', httpStatus: 503, interruption: 'bad-gateway', attempts: 2, persistent: true, causes: ['proxy-upstream-unavailable'] },
      fires: false,
    },
    {
      name: "near miss: while the server's log shows it restarting",
      facts: {
        method: 'tools/call',
        httpStatus: 502,
        interruption: 'bad-gateway',
        attempts: 3,
        persistent: true,
        serverStartedAfter: true,
        causes: ['proxy-upstream-unavailable'],
      },
      fires: false,
    },
    { name: "near miss: the server's own 503", facts: { method: 'tools/call', httpStatus: 503, attempts: 4, persistent: true, causes: ['server-error'] }, fires: false },
  ],
};
