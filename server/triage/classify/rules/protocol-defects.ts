import type { Rule } from '../rule.ts';
import { describe, has } from '../rule.ts';

// spec basic/lifecycle.mdx (the client MUST send notifications/initialized before other requests);
// python-sdk server/session.py ("Received request before initialization was complete"): the client
// broke the protocol order — a client defect no setting fixes.
export const clientProtocolDefect: Rule = {
  id: 'client-protocol-defect',
  decision: 'escalate',
  source: 'spec basic/lifecycle.mdx · python-sdk src/mcp/server/session.py',
  when(f) {
    if (!has(f, 'client-protocol-error')) return 'the client did not break the protocol order';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} reached a server session that had not finished initialization: the client sent requests before notifications/initialized (the lifecycle requires it first). A defect in the MCP client; escalate to its owners (or upgrade it). Retrying or reinitializing with the same client repeats it.`,
  examples: [
    { name: 'Received request before initialization was complete', facts: { causes: ['client-protocol-error', 'exception-wrapper'] }, fires: true },
    { name: 'Server not initialized', facts: { causes: ['server-not-initialized'] }, fires: false },
  ],
};

// spec 2024-11-05 basic/transports: on HTTP+SSE the server's first event, `endpoint`, carries the URI the
// client must POST its messages to — it is not a JSON-RPC message. A client that logs it as an unparseable
// message (VS Code: `Failed to parse message: "/messages/?session_id=…"`) is still reading the stream as
// Streamable HTTP after it fell back: it never learns where to POST, so initialize hangs. The server answered
// as the old transport should, and the URL the user gave was served; the client's fallback is the defect
// (microsoft/vscode PR 249914: a Streamable HTTP server never sends `endpoint`, so seeing one means fall back).
export const endpointEventMisread: Rule = {
  id: 'client-misread-endpoint-event',
  decision: 'escalate',
  source: 'spec 2024-11-05 basic/transports · microsoft/vscode PR 249914',
  when(f) {
    if (!has(f, 'endpoint-event-misread')) return "the client did not fail to parse the server's endpoint event";
    return true;
  },
  rationale: (f) =>
    `${describe(f)}: the client could not parse the server's legacy \`endpoint\` event (the message URL it must POST to) as a JSON-RPC message — it fell back to the HTTP+SSE transport but kept reading the stream as Streamable HTTP, so it never learns where to send initialize and waits forever. The server answered as an HTTP+SSE server should; this is a client defect. Escalate to the client's owners or upgrade the client; meanwhile, configure it for the SSE transport explicitly if it offers that, or serve Streamable HTTP.`,
  examples: [
    { name: 'VS Code: Failed to parse message "/messages/?session_id=…" after the fallback', facts: { causes: ['endpoint-event-misread'], era: 'legacy-sse' }, fires: true },
    { name: 'near miss: the endpoint origin refused (a server announcing another host)', facts: { causes: ['endpoint-origin-mismatch'], era: 'legacy-sse' }, fires: false },
    { name: 'near miss: the fallback announced, nothing else wrong', facts: { causes: ['transport-fallback'] }, fires: false },
  ],
};

// spec basic/utilities/ping.mdx (the receiver MUST respond promptly), 2026-07-28 server/discover (servers
// MUST implement it): -32601 for a method every server must answer is a non-compliant server, not a
// capability the client may live without.
const REQUIRED = new Set(['ping', 'initialize', 'server/discover']);

export const requiredMethodMissing: Rule = {
  id: 'required-method-unsupported',
  decision: 'escalate',
  source: 'spec basic/utilities/ping.mdx, basic/lifecycle.mdx · failure-signatures (a.1) 2026-07-28 handshake row',
  when(f) {
    if (!has(f, 'method-not-found') && f.jsonRpcCode !== -32601) return 'no -32601 answer';
    // (or one a capability requires, when the server is seen serving that capability: prompts/list answered,
    // prompts/get -32601 — spec server/prompts, server/resources, server/tools)
    if (f.capabilityServed) return true;
    if (f.method === null || !REQUIRED.has(f.method)) return 'not a method every server must implement, nor one of a capability the server serves';
    if (f.method === 'server/discover' && f.era !== 'sessionless') return 'server/discover is required from 2026-07-28 only';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was answered -32601 Method not found, but ${f.capabilityServed ? `the server serves that capability (another ${f.method?.split('/')[0]} method was answered), and a server that declares it implements ${f.method}` : `every MCP server must implement ${f.method}`}: the server is not compliant. Escalate to its owners; a client may tolerate it (treat the missing ${f.method} as non-fatal) until it is fixed.`,
  examples: [
    { name: 'ping -32601', facts: { method: 'ping', causes: ['method-not-found'], jsonRpcCode: -32601 }, fires: true },
    { name: 'resources/subscribe -32601', facts: { method: 'resources/subscribe', causes: ['method-not-found'] }, fires: false },
    { name: 'prompts/get -32601 after prompts/list answered', facts: { method: 'prompts/get', causes: ['method-not-found'], capabilityServed: true }, fires: true },
    {
      name: 'near miss: prompts/list -32601 with no prompts served (an empty menu)',
      facts: { method: 'prompts/list', causes: ['method-not-found'], capabilityServed: false },
      fires: false,
    },
  ],
};

// JSON-RPC 2.0 §5: a response carries the request's id and exactly one of `result` and `error`; the MCP schema
// (JSONRPCResponse, JSONRPCError) says the same. A reply with the id alone is neither an answer nor an error: the
// caller cannot complete the request and waits (microsoft/agent-framework#1744: a C# SDK server's prompts/list).
// The sender is not compliant; no route, session or retry changes what it sends.
export const responseMalformed: Rule = {
  id: 'response-without-result',
  decision: 'escalate',
  source: 'JSON-RPC 2.0 §5 · MCP schema JSONRPCResponse/JSONRPCError · failure-signatures row 19 (a request answered 202 Accepted)',
  when(f) {
    if (!has(f, 'response-malformed')) return 'no response without result or error';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was answered ${f.signals.includes('request-answered-202') ? 'with 202 Accepted and no body — the answer the transport gives a notification or a response, never a request (failure-signatures row 19)' : 'with a JSON-RPC response that carries its id but neither `result` nor `error` — JSON-RPC 2.0 requires exactly one'}, so the caller cannot finish the request and keeps waiting. The sender (the server, or a gateway rewriting its answers) is not compliant: escalate to its owners with this response; a client-side workaround is to avoid the request (for a list the host can do without).`,
  examples: [
    { name: 'data: {"id":2,"jsonrpc":"2.0"} on an SSE response', facts: { causes: ['response-malformed'] }, fires: true },
    { name: 'a request answered 202 Accepted (row 19)', facts: { causes: ['response-malformed'], signals: ['request-answered-202'] }, fires: true },
    { name: 'near miss: a response with an error member', facts: { causes: ['method-not-found'], jsonRpcCode: -32601 }, fires: false },
  ],
};

// failure-signatures rows 23, 34: "Error in message router" + ClosedResourceError on the server after its
// client disconnected (or a stateless request finished) — noise; nothing failed client-side.
export const serverStreamNoise: Rule = {
  id: 'server-stream-noise',
  decision: 'no_action',
  source: 'failure-signatures rows 23, 34',
  role: 'optional',
  when(f) {
    if (f.seenBy.client || f.seenBy.proxy) return 'the client or proxy also logged a failure of this request';
    // row 23: anyio's Closed/BrokenResourceError at the server is a write to a stream whose client had
    // gone — noise when the traceback ends there and the server went on answering requests
    const peerGone = f.rootIsClosedStream && f.serverServedAfter;
    if (!has(f, 'server-stream-noise') && !peerGone) return 'no message-router/stream-closed note from the server';
    // (ClosedResourceError reads as a closed stream object, client-object-closed: at the server it is the server's own stream)
    const closedStream = (c: string) => c === 'connection-closed' || c === 'client-object-closed';
    if (peerGone && f.causes.every((c) => closedStream(c) || c === 'exception-wrapper' || c === 'request-received')) return true;
    if (f.causes.some((c) => c !== 'server-stream-noise' && !closedStream(c) && c !== 'exception-wrapper' && c !== 'request-received'))
      return 'the server logged another failure with it';
    return true;
  },
  rationale: () =>
    "The server's message router found its stream closed (ClosedResourceError) after the client had gone or the request had finished: log noise of the SDK (failure-signatures rows 23, 34), not a failed request. Nothing to do unless clients report failures at the same time.",
  examples: [
    {
      name: 'Error in message router + ClosedResourceError',
      facts: { causes: ['server-stream-noise', 'connection-closed'], seenBy: { client: false, proxy: false, server: true } },
      fires: true,
    },
    {
      name: 'ClosedResourceError crashing run_server',
      facts: { causes: ['connection-closed', 'exception-wrapper'], seenBy: { client: false, proxy: false, server: true } },
      fires: false,
    },
    {
      name: 'ClosedResourceError under a TaskGroup, and the server answered the next request',
      facts: {
        causes: ['connection-closed', 'exception-wrapper'],
        rootIsClosedStream: true,
        serverServedAfter: true,
        seenBy: { client: false, proxy: false, server: true },
      },
      fires: true,
    },
    {
      name: 'ClosedResourceError, and the server answered nothing after it',
      facts: { causes: ['connection-closed', 'exception-wrapper'], rootIsClosedStream: true, seenBy: { client: false, proxy: false, server: true } },
      fires: false,
    },
  ],
};

// A process noting, while it shuts down (a deploy, the end of a test), that connections it was
// waiting for did not close in time — Caddy's "server shutdown: context deadline exceeded" with SSE
// streams open, uvicorn cancelling tasks at exit. Not a request that failed: the requests cut by the
// shutdown fail on their own lines, at the client and the proxy.
export const shutdownNoise: Rule = {
  id: 'shutdown-noise',
  decision: 'no_action',
  source: 'failure-signatures stage X (teardown) · Caddy and uvicorn graceful shutdown',
  role: 'optional',
  when(f) {
    // (or the server's own line written while that process drained — `received SIGTERM` then `pubsub reader stopped:
    // context canceled`: its background work cancelled by the shutdown, no request of its own)
    if (!has(f, 'shutdown') && !(f.nearShutdown && f.seenBy.proxy && !f.seenBy.client) && f.drainingSince === null)
      return 'no shutdown in these lines, nor a proxy-only cut as a process shut down, nor a line of a process draining';
    if (f.identified || f.httpStatus !== null) return 'a request with its own identity or status failed here';
    if (f.rootException !== null || has(f, 'exception-wrapper')) return 'a traceback came with it: a real error, not a note';
    if (
      f.causes.some(
        (c) =>
          !['shutdown', 'client-timeout', 'connection-closed', 'stream-cut', 'conn-reset', 'server-stream-noise', 'process-started', 'peer-closed-before-response'].includes(c),
      )
    )
      return 'the shutdown came with another failure';
    return true;
  },
  rationale: () =>
    'A process logged, while shutting down (or a proxy, as its backend shut down), that connections did not close cleanly (open SSE streams, pending tasks): teardown noise, not a failed request. Requests the shutdown cut show as failures on their own lines at the client.',
  examples: [
    { name: 'caddy: server shutdown, context deadline exceeded', facts: { causes: ['shutdown', 'client-timeout'] }, fires: true },
    { name: 'a tools/call cut by the shutdown', facts: { causes: ['shutdown', 'stream-cut'], method: 'tools/call', tool: 'x', identified: true }, fires: false },
    {
      name: "the proxy's backend EOF as the server shut down, nothing at the client",
      facts: { causes: ['stream-cut', 'peer-closed-before-response'], nearShutdown: true, seenBy: { client: false, proxy: true, server: false } },
      fires: true,
    },
    {
      name: "a server's error line 4 s after its own SIGTERM, naming no request (its background reader cancelled)",
      facts: { causes: [], drainingSince: 'pods.txt:40', seenBy: { client: false, proxy: false, server: true } },
      fires: true,
    },
    {
      name: 'near miss: a request of its own failed while the process drained',
      facts: { causes: [], drainingSince: 'pods.txt:40', method: 'tools/call', tool: 'x', identified: true, seenBy: { client: false, proxy: false, server: true } },
      fires: false,
    },
  ],
};

// failure-signatures (e) step 2 (GeneratorExit is cancellation noise): Python reports an exception raised
// while finalizing an abandoned async generator (httpcore's response stream closed at garbage collection or
// exit) as "Exception ignored in" / asyncio's "an error occurred during closing of asynchronous generator" —
// unraisable, so it reached no request: the work it belonged to had already returned (EvoScientist#372,
// python-sdk#1214, trpc-agent-python#316). A cancel-scope teardown error is not this (row 22: a defect).
export const finalizerNoise: Rule = {
  id: 'finalizer-noise',
  decision: 'no_action',
  source: 'failure-signatures (e) step 2 · CPython sys.unraisablehook, asyncio async-generator finalizer',
  role: 'optional',
  when(f) {
    if (!has(f, 'finalizer-noise')) return 'no exception ignored while finalizing an async generator';
    if (f.httpStatus !== null) return 'a request with its own status failed here';
    if (f.causes.some((c) => c !== 'finalizer-noise' && c !== 'exception-wrapper')) return 'another failure came with it';
    return true;
  },
  rationale: () =>
    "Python ignored an exception while finalizing an abandoned async generator (an HTTP client's response stream closed at garbage collection or exit: `Exception ignored in …`, `async generator ignored GeneratorExit`): it is raised where it cannot propagate, after the work it belonged to had finished, so no request failed. Teardown noise; closing the client's streams and client explicitly, or a newer httpcore, silences it.",
  examples: [
    {
      name: 'Exception ignored in … async generator ignored GeneratorExit',
      facts: { causes: ['finalizer-noise'], rootException: { type: 'RuntimeError', message: 'async generator ignored GeneratorExit' } },
      fires: true,
    },
    { name: 'the same noise beside a connect failure', facts: { causes: ['finalizer-noise', 'conn-refused'] }, fires: false },
    {
      name: 'an unraisable exception that is not the finalizer of a generator',
      facts: { causes: ['exception-wrapper'], rootException: { type: 'RuntimeError', message: 'Event loop is closed' } },
      fires: false,
    },
  ],
};

// spec client/roots (roots/list is a request the server sends the client) and modelcontextprotocol/servers
// src/filesystem/index.ts: after initialize the filesystem server (and its forks) asks for the client's roots, and
// when that fails — a client that never answers it (-32001) or does not implement it (-32601) — logs `Failed to
// request initial roots from client` and keeps the directories it was started with. No request of the client's
// failed; the calls go on. Noise unless the tools then work on the wrong directories.
export const rootsRequestNoise: Rule = {
  id: 'roots-request-failed',
  decision: 'no_action',
  source: 'spec client/roots · modelcontextprotocol/servers src/filesystem/index.ts',
  role: 'optional',
  when(f) {
    if (!has(f, 'roots-request-failed')) return "no failed roots/list request of the server's";
    if (f.seenBy.client || f.seenBy.proxy) return 'the client or proxy also logged a failure of this request';
    const own = ['roots-request-failed', 'client-timeout', 'method-not-found', 'request-received', 'exception-wrapper'];
    if (f.causes.some((c) => !own.includes(c))) return 'another failure came with it';
    return true;
  },
  rationale: () =>
    "The server asked the client for its roots (roots/list, a server-to-client request) after initialize and got no answer or a refusal: the server logs it and keeps the directories it was started with (the filesystem server and its forks). None of the client's requests failed. Nothing to do unless the tools should work on the client's roots: then the client has to answer roots/list (or the server be started with the directories).",
  examples: [
    {
      name: 'roots/list timed out, server side',
      facts: { causes: ['roots-request-failed', 'client-timeout'], seenBy: { client: false, proxy: false, server: true } },
      fires: true,
    },
    { name: 'roots/list refused with -32601', facts: { causes: ['roots-request-failed', 'method-not-found'], seenBy: { client: false, proxy: false, server: true } }, fires: true },
    {
      name: 'near miss: the client also logged a failing call',
      facts: { causes: ['roots-request-failed', 'client-timeout'], seenBy: { client: true, proxy: false, server: true } },
      fires: false,
    },
    { name: 'near miss: a tools/call timeout', facts: { causes: ['client-timeout'], method: 'tools/call' }, fires: false },
  ],
};

// failure-signatures rows 25, 35 (a server's idle-session timeout): the server's own note that it closed an idle
// session (rmcp logs its keep-alive expiry at ERROR on every idle teardown) loses no request. A request that
// comes back with that session fails on its own line (404/400 → reinitialize), with this note as its cause.
// failure-signatures rows 25 and 35 (`Session <id> idle timeout` before the loss → REINIT), spec 2025-03-26..2025-11-25
// basic/transports (session management: a server MAY terminate a session; the client must then start a new one with
// a fresh initialize), findings (g) 4 (the Python and TypeScript clients do not re-initialize on their own): the
// server's note that it closed an idle session, and nothing after it in these logs — no request sent or answered,
// no client back on a new session. What the logs show is a session the server no longer holds, and the client that
// held it has not been seen to replace it; its next call on the old id is refused (404, or 400/401 from servers that
// word it otherwise) or hangs. The incident reported is that lost session (two independent threads with a lone
// eviction line: memorix#197, 30 min idle GC; blacktop/ida-mcp-rs#19, rmcp 300 s keep-alive — both resolved as
// "the client needs a new session").
export const idleSessionLost: Rule = {
  id: 'idle-session-lost',
  decision: 'reinitialize',
  source: 'failure-signatures rows 25, 35 · spec basic/transports (session management) · (g) finding 4',
  when(f) {
    if (!has(f, 'session-evicted')) return 'no idle session closed in these lines';
    if (f.identified || f.httpStatus !== null || f.rootException !== null) return 'a request with its own identity, status or traceback failed here';
    if (f.causes.some((c) => c !== 'session-evicted' && c !== 'shutdown' && c !== 'connection-closed')) return 'another failure came with it';
    if (f.requestedAfter !== false) return 'requests went on after it (idle-session-closed)';
    return true;
  },
  rationale: (f) =>
    `The server closed ${f.session ? `session ${f.session}` : 'a session'} after it sat idle past its keep-alive or idle timeout, and nothing after it in these logs shows a request sent or answered, or the client back on a new session: the session is gone and its client has not replaced it. Its next call on the old id is refused (a spec server answers 404; some answer 400 or 401) or hangs, and the SDK clients do not re-initialize on their own. Reinitialize — close the old transport, send a fresh initialize without the old id — then go on; raise the server's idle timeout if clients idle that long on purpose.`,
  examples: [
    { name: 'rmcp keep-alive expiry at ERROR, the last line of the logs', facts: { causes: ['session-evicted'], requestedAfter: false }, fires: true },
    { name: 'a session GC note worded as an error, nothing after', facts: { causes: ['session-evicted'], requestedAfter: false, session: 'sess_aaaaaaaaaa' }, fires: true },
    { name: 'near miss: requests went on after the expiry', facts: { causes: ['session-evicted'], requestedAfter: true }, fires: false },
    {
      name: 'near miss: a tools/call refused for the evicted session',
      facts: { causes: ['session-evicted', 'session-unknown'], method: 'tools/call', identified: true, httpStatus: 404, requestedAfter: false },
      fires: false,
    },
  ],
};

export const idleEvictionNotice: Rule = {
  id: 'idle-session-closed',
  decision: 'no_action',
  source: 'failure-signatures rows 25, 35 · rmcp LocalSessionWorkerError::KeepAliveTimeout',
  role: 'optional',
  when(f) {
    if (!has(f, 'session-evicted')) return 'no idle session closed in these lines';
    if (f.identified || f.httpStatus !== null || f.rootException !== null) return 'a request with its own identity, status or traceback failed here';
    if (f.causes.some((c) => c !== 'session-evicted' && c !== 'shutdown' && c !== 'connection-closed')) return 'another failure came with it';
    if (f.requestedAfter === false) return 'no request came after it: the logs end with the session closed (idle-session-lost)';
    return true;
  },
  rationale: () =>
    'The server closed a session that had been idle past its keep-alive or idle timeout: routine teardown, no request was in flight, and requests went on after it. A client that comes back with that session id is refused on its own line (reinitialize there); raise the timeout if clients idle longer on purpose.',
  examples: [
    { name: 'rmcp keep-alive expiry at ERROR, requests after it', facts: { causes: ['session-evicted'], requestedAfter: true }, fires: true },
    { name: 'near miss: the same expiry with nothing after it (idle-session-lost)', facts: { causes: ['session-evicted'], requestedAfter: false }, fires: false },
    {
      name: 'a tools/call refused for the evicted session',
      facts: { causes: ['session-evicted', 'session-unknown'], method: 'tools/call', identified: true, httpStatus: 404 },
      fires: false,
    },
  ],
};
