// A signal: what one log line says happened, whatever its format or wording. Signals are data
// (parsers/signals/<group>.json), evaluated once per event at ingest over its message (and a
// block's text), stored with the event, and read by triage facts and rules by id and meaning.
import { z } from 'zod';

/**
 * What the line says, in the words triage facts use. A fixed vocabulary: facts and rules read
 * causes and ids, never the wording, so a new phrasing is a new pattern, not new code.
 */
export const SignalCause = z.enum([
  // sessions
  'session-unknown', // the server does not know the session id it got (restart, eviction, other replica)
  'session-terminated-client', // a client synthesised "Session terminated" for a 404 (Python SDK 1.x: any 404)
  'session-missing', // a request that needed a session id came without one
  'session-none-sent', // the client's own error shows the request carried no session id (Java SDK `[missing_session_id]`, Go SDK `(session ID: )`)
  'legacy-message-rejected', // the legacy (2024-11-05) message endpoint refused a POSTed message: its URL came from the server
  'session-invalid', // "no valid session id": unknown OR missing — which one depends on whether the request carried one
  'session-id-malformed', // the server or gateway could not parse the session id's structure (a composite id missing its separator): not an unknown id, an id its own parser refuses
  'server-not-initialized', // the transport that got the request never saw initialize
  'already-initialized', // initialize re-sent on a live session
  'client-protocol-error', // the client broke the protocol order (a request before initialization completed)
  'endpoint-event-misread', // a client read the legacy endpoint event (a message URL) as a JSON-RPC message: it never switched to the HTTP+SSE transport it fell back to
  'session-created',
  'session-deleted',
  'session-termination-failed',
  'session-attached', // the client says it sent (reused) its session id with the request
  'session-evicted',
  // routes, transports and headers
  'route-missing', // nothing is mounted at that path (framework or proxy "not found" page)
  'route-ambiguous', // a gateway federating several servers could not route the call: the tool name or resource URI exists on more than one of them
  'html-response', // an HTML page answered where MCP JSON/SSE was expected
  'redirect', // a redirect the client had to follow (trailing slash)
  'transport-legacy', // the HTTP+SSE (2024-11-05) transport is in use
  'transport-streamable', // a client connected over Streamable HTTP (a fallback to legacy SSE, if any, is past)
  'transport-fallback', // the client falls back from Streamable HTTP to legacy SSE
  'version-fallback', // a 2026-07-28 client falls back to initialize (a 2025-era server refused its sessionless request)
  'sse-connect-rejected', // a legacy SSE connection (GET /sse) got a non-200
  'transport-mismatch', // the client itself concluded the endpoint speaks the other transport (mcp-go: any 4xx to its initialize POST)
  'content-type-wrong',
  'not-acceptable',
  'unsupported-media-type',
  'protocol-version-unsupported',
  'protocol-version-malformed', // initialize offers a version that is no MCP revision (not YYYY-MM-DD: "2", "1.0", "latest")
  'header-mismatch',
  'host-origin-rejected',
  'cors-refused', // a browser's cross-origin check refused the request: the server's or proxy's CORS settings lack what it needs
  'endpoint-origin-mismatch', // a legacy SSE client refused the POST endpoint the server announced on another origin
  'endpoint-event-missing', // a legacy SSE client's wait for the server's `endpoint` event ran out: the URL serves no HTTP+SSE stream (most often a Streamable HTTP endpoint), or something held the event
  'edge-challenge', // a CDN/WAF bot challenge page (Cloudflare `cf-mitigated: challenge`) instead of the server's answer
  'body-too-large',
  'headers-too-large', // the request's header block is over a proxy's or server's limit (431, nginx's "Request Header Or Cookie Too Large", Node's HPE_HEADER_OVERFLOW): a big token or cookie, or Mcp-Param-* headers carrying a large argument
  'response-too-large', // the platform in front of the server refused to deliver the server's answer for its size (Cloud Run, Lambda, Vercel): the call ran, its result never arrived
  // auth
  'auth-rejected',
  'auth-token-expired',
  'oauth-flow-failed',
  'client-metadata-unreachable', // an authorization server could not fetch a client's metadata document (its client_id URL): non-2xx status
  'auth-challenge',
  'credentials-missing', // the client has no credential to send: the setting meant to hold it is unset or empty
  'credentials-not-received', // the server says the request carried no credential (no Authorization header, no token arrived)
  'credentials-sent', // a client line shows a credential on the request (an Authorization header sent)
  'health-probe', // a load balancer's or orchestrator's health, readiness or metrics probe of the upstream: not an MCP request
  'health-path-missing', // a health or readiness probe answered 404/405: the server is up, the probe's path is wrong
  'discovery-probe', // a client looking for metadata (OAuth well-known documents) or a browser asset: a 404 there is an answer, not a broken route
  // network and proxies
  'conn-refused',
  'stream-refused', // the peer refused the HTTP/2 stream before processing it (REFUSED_STREAM, or above a graceful GOAWAY's last stream id): not processed, safe to send again (RFC 9113 §8.7)
  'network-error', // a client's network failure whose cause was not logged (undici `fetch failed`): most often at connect
  'dns-failure', // the resolver could not answer now (EAI_AGAIN): transient
  'dns-name-unknown', // the resolver answered that the name does not exist (ENOTFOUND, no such host): the URL or DNS record is wrong
  'connect-timeout',
  'tls-failure',
  'conn-reset',
  'peer-closed-before-response',
  'stream-cut',
  'proxy-upstream-unavailable',
  'proxy-timeout-before-headers',
  'proxy-timeout-mid-stream',
  'client-closed-request',
  'client-timeout',
  'client-idle-timeout', // the client's own idle timer on a response body (undici bodyTimeout) cut a quiet stream
  'connection-closed',
  'client-object-closed', // the client object is closed or never connected: calls on it are not sent
  'client-config-invalid', // the client's own settings for the server are unusable (no or malformed URL, no transport): nothing was sent
  'target-blocked-by-policy', // the client's own address policy (an SSRF guard) refused the server's private/loopback URL: nothing was sent
  'forward-proxy', // the request went through (or failed at) a forward HTTP(S) proxy from the client's environment or settings
  'forward-proxy-denied', // the forward proxy's access rules refused the tunnel to the MCP host (Squid TCP_DENIED, `Tunnel connection failed: 403`)
  'deployment-broken', // a process cannot run as deployed (a module or library missing, a mounted app whose startup never ran): no retry fixes it
  // SDK streams
  'stream-disconnected',
  'stream-reconnecting',
  'reconnect-exhausted',
  'stream-open-failed',
  'stream-resumed',
  'sse-read-failed', // the client's read of an SSE stream failed (python-sdk `Error reading SSE stream:`): the error printed with it says how; a read timeout there is the stream's idle timer
  // JSON-RPC answers
  'method-not-found',
  'invalid-params',
  'jsonrpc-internal-error',
  'parse-error',
  'error-in-stream', // an error object carried in an SSE event (`event: message` / `data: {…"error"…}`): the server answered through a stream it had opened, not with an error status
  'response-malformed', // a JSON-RPC response carrying neither `result` nor `error` (JSON-RPC 2.0 §5 requires exactly one): the sender is not compliant, the caller waits for an answer it cannot read
  // processes, defects, the tool and the model
  'server-exited',
  'worker-timeout', // a supervisor killed the worker because the request it served outran the worker timeout (gunicorn --timeout, uWSGI harakiri): the call outlasts a timer, like a proxy's read timeout
  'server-crashed', // the process died of an error it did not handle (uncaught exception, panic): a defect, not a kill
  'server-error',
  'code-defect', // a programming error in the code that ran (null dereference, missing attribute): the same input fails the same way
  'cancel-scope-defect',
  'exception-wrapper', // an ExceptionGroup/TaskGroup wrapper: the real error is a leaf
  'tool-error',
  'output-schema-mismatch', // a tool's result was refused for not matching the outputSchema the tool declares (by the server's SDK after the tool ran, a gateway, or the client): a defect in the tool definition or the validating layer
  'model-api-error',
  'dependency-unavailable', // the server could not reach its own backend (a database, a pool, a cache): the MCP path worked
  'telemetry-error',
  'tool-schema-invalid', // the model API refused a tool's schema: the server's tool definition is wrong
  'cancel-sent',
  'caller-cancelled', // the calling application or its user cancelled the request on purpose (a Stop button, `User requested cancellation`): the call ended by choice, not by a fault
  'retry-attempt',
  'retries-exhausted',
  'shutdown',
  'call-finished', // a server's handler logged the end of one call by its id, nothing wrong said (`done {"id": "ag-91f2c0", "ms": 167}`)
  'idle-at-stop', // a stopping process says no request was in flight (`inflight: 0`, `no active requests`): its stop cut no call
  'process-started',
  'workers-several', // the server runs several worker processes side by side (a supervisor's start line, a command line or setting with a worker count ≥ 2): each keeps its own in-memory sessions
  // progress and outcome
  'handshake-ok',
  'initialized-before', // the line comes from client code that runs only after initialize succeeded (mcp-go's standalone listener): this client had completed the handshake
  'connected',
  'request-received',
  'write-started',
  'write-committed',
  'write-not-done',
  'duplicate-refused', // the server refused a call as a duplicate of a write that exists (a duplicate or idempotency guard): the first write happened // the handler said the call changed nothing (rolled back, no changes made, not merged): the write question is answered — no effect exists
  'call-succeeded', // a client saying a call returned (no status logged)
  'progress', // a progress notification for a running call (spec basic/utilities/progress)
  'task-created', // a task-augmented call was accepted as a task (spec 2025-11-25 tasks): its outcome is read with tasks/get
  'tls-certificate', // the server's certificate was refused (self-signed, unknown issuer, expired, wrong name): deterministic, a retry cannot pass it
  'tls-scheme-mismatch', // TLS spoken to a plain-HTTP port (https:// on an http listener): the URL's scheme is wrong, a retry cannot pass it
  'object-not-found', // the server's MCP layer answered that the tool, prompt or resource the request names does not exist there: the endpoint and the session worked
  'handle-unknown', // a tool said it does not know a handle it gave out (a browser context, a sandbox, a cursor): application state, not the protocol session
  'rate-limited', // refused for rate or quota (HTTP 429, a gateway's rate limit): rejected before it ran
  'unavailable-retry-after', // 503 with Retry-After or a maintenance page: unavailable for now, refused before it ran
  'update-conflict', // an optimistic-concurrency conflict: the store refused a change because the object changed since it was read (Kubernetes 409 Conflict): nothing was applied, a re-read and retry passes
  'success-status-rejected', // a caller's strict status check refused a 2xx that says the work was done (201 Created, 204 No Content, 205 Reset Content): the effect exists
  'late-response', // the answer to a request the client had already given up on
  'tool-annotations', // a logged tools/list result with side-effect hints
  'keepalive-noise',
  'downstream-handshake', // one downstream connection's TLS handshake with the front end failed before any request (scanners, old TLS stacks)
  'address-attempt', // one address of several a client tries in turn failed (curl's happy eyeballs): the next may connect
  'server-stream-noise', // a server noting a stream closed after its client left (nothing failed)
  'roots-request-failed', // the server's start-up roots/list request to the client failed; it keeps the roots it was started with
  'finalizer-noise', // Python ignored an exception while finalizing an abandoned async generator (unraisable, after the work): it reached no request
  'oauth-request-invalid', // the authorization server refused the client's token request as malformed (RFC 6749 §5.2 invalid_request, unsupported_grant_type): not the credentials
  'wait-started', // an HTTP client's trace: it began waiting for an answer (httpcore `receive_response_headers.started`): what times a timeout that names no call
  'still-waiting', // a host's note that a call it sent is still waiting for its answer (`Tool 'x' still running (30s elapsed)`): neither a send nor an answer
]);
export type SignalCause = z.infer<typeof SignalCause>;

/** Failure: the line reports something went wrong. Recovery: it got better. Completion: work finished. Context: a fact. Noise: benign. */
export const SignalOutcome = z.enum(['failure', 'recovery', 'completion', 'context', 'noise']);
export type SignalOutcome = z.infer<typeof SignalOutcome>;

export const SignalStage = z.enum(['connect', 'before_headers', 'mid_body', 'between_sse_events', 'after_response', 'http_status']);

export const SignalSpec = z
  .object({
    /** Stable id, lower-case words with dashes: what rules and the UI name. */
    id: z.string().regex(/^[a-z][a-z0-9-]{1,62}$/),
    title: z.string().min(3),
    meaning: z
      .object({
        cause: SignalCause,
        outcome: SignalOutcome,
        /** The request stage such a line shows (failure-signatures (c)), when it shows one. */
        stage: SignalStage.optional(),
        /** Who writes such lines, when only one side can. */
        side: z.enum(['client', 'proxy', 'server', 'any']).default('any'),
      })
      .strict(),
    /** JavaScript regexes (no lookbehind, bounded repeats): any one matching fires the signal. */
    patterns: z.array(z.string().min(2)).min(1),
    /** "i" for case-insensitive patterns. */
    flags: z.enum(['', 'i']).default(''),
    /**
     * Lower-case substrings, one of which every match holds: the gate that keeps the patterns off
     * lines that cannot match. The loader proves every sample passes the gate.
     */
    literals: z.array(z.string().min(2)).min(1),
    /** Where the wording comes from: a row of failure-signatures.md, the spec, an SDK file, a proxy's docs. */
    source: z.string().min(5),
    /** Lines that must fire the signal. */
    samples: z.array(z.string()).min(1),
    /** Lines that look alike and must not. */
    nearMisses: z.array(z.string()).min(1),
  })
  .strict();
export type SignalSpec = z.infer<typeof SignalSpec>;

export const SignalGroup = z
  .object({
    group: z.string().regex(/^[a-z][a-z0-9-]{1,40}$/),
    title: z.string(),
    signals: z.array(SignalSpec).min(1),
  })
  .strict();
export type SignalGroup = z.infer<typeof SignalGroup>;
