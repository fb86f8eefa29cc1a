// What a failed step means, in one sentence a person can act on. Pure functions over what was
// recorded (the HTTP exchange, the error and its cause chain); unit-tested in diagnose.test.ts.
import type { Exchange } from './http.ts';

/** The first `.code` along an error's cause chain (ECONNREFUSED, ENOTFOUND, ERR_TLS_…, -32001). */
export function errorCode(e: unknown): string | undefined {
  for (let cur = e, depth = 0; cur && depth < 6; depth++) {
    const c = (cur as { code?: unknown }).code;
    if (typeof c === 'string' && c) return c;
    const errs = (cur as { errors?: unknown[] }).errors;
    if (Array.isArray(errs) && errs.length) {
      const inner = errorCode(errs[0]);
      if (inner) return inner;
    }
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The innermost error's message along the cause chain. */
export function innermostMessage(e: unknown): string {
  let cur = e;
  let msg = e instanceof Error ? e.message : String(e);
  for (let depth = 0; cur && depth < 6; depth++) {
    if (cur instanceof Error && cur.message) msg = cur.message;
    cur = (cur as { cause?: unknown }).cause;
  }
  return msg;
}

/** The probe itself gave up on the request (timeout → transport closed → fetch aborted). */
export function isAbort(e: unknown): boolean {
  return (e as { name?: unknown })?.name === 'AbortError' || errorCode(e) === 'ABORT_ERR';
}

export function isTimeout(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  return code === -32001 || errorCode(e) === 'PROBE_TIMEOUT' || /timed out|timeout/i.test(innermostMessage(e));
}

/** Diagnosis for an error without an HTTP response: DNS, TCP, TLS, timeouts. */
export function diagnoseNetwork(e: unknown, where: { host: string; port: number; timeoutMs: number; https: boolean }): string {
  const code = errorCode(e);
  const hp = `${where.host}:${where.port}`;
  switch (code) {
    case 'ECONNREFUSED':
      return `connection refused: nothing listens on ${hp} (server down or not started, wrong port, or a proxy with no listener)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NODATA':
      return `DNS: ${where.host} does not resolve here (a typo, or a name that only resolves inside another network/VPN)`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `no route to ${where.host}: the network path is down or firewalled`;
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
      return where.https
        ? `connection reset by ${hp}: the server or a proxy cut the connection (TLS to a plain-HTTP port, a crash, or a middlebox)`
        : `connection reset by ${hp}: the server process or a proxy cut the connection (crash, restart, or an idle/read timeout)`;
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return `no complete response from ${hp}: the server or a proxy stalled (proxy buffering or read timeout?)`;
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
    case 'EPROTO':
      return `TLS handshake failed: ${hp} probably speaks plain HTTP; try http:// instead of https://`;
    case 'CERT_HAS_EXPIRED':
      return `TLS: the server certificate has expired`;
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return `TLS: the certificate chain is not trusted here (self-signed or a private CA; NODE_EXTRA_CA_CERTS can add the CA)`;
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `TLS: the certificate does not name ${where.host} (wrong host name, or a proxy presenting its default certificate)`;
  }
  if (isTimeout(e))
    return `no answer within ${Math.round(where.timeoutMs / 1000)} s from ${hp}: a firewall dropping packets, a wrong host/port, or a server/proxy that accepts but never answers`;
  return `network error${code ? ` ${code}` : ''}: ${innermostMessage(e)}`;
}

function htmlish(x: Exchange): boolean {
  return /text\/html/i.test(x.contentType ?? '') || /^\s*<(!doctype|html)/i.test(x.bodySnippet ?? '');
}

function jsonRpcError(x: Exchange): { code?: number; message?: string } | undefined {
  if (!x.bodySnippet || !/json/i.test(x.contentType ?? '')) return undefined;
  try {
    const j = JSON.parse(x.bodySnippet) as { error?: { code?: number; message?: string } };
    return j.error && typeof j.error === 'object' ? j.error : undefined;
  } catch {
    const m = /"code"\s*:\s*(-?\d+)/.exec(x.bodySnippet);
    return m ? { code: Number(m[1]) } : undefined;
  }
}

function who(x: Exchange): string {
  return x.serverHeader ? ` from ${x.serverHeader.split('/')[0]}` : '';
}

export interface HttpContext {
  /** the request was the very first initialize (no session can be involved) */
  firstInitialize: boolean;
  /** the request carried an Mcp-Session-Id this probe was assigned */
  carriedSession: boolean;
  bearerSent: boolean;
  url: URL;
}

/** Diagnosis for a non-2xx (or unusable 2xx) HTTP answer. */
export function diagnoseHttp(x: Exchange, ctx: HttpContext): string {
  const s = x.status ?? 0;
  const html = htmlish(x);
  const rpc = jsonRpcError(x);
  const modelApi = /\/v1\/?$/.test(ctx.url.pathname) ? ' The URL ends in /v1: that looks like a model API base URL, not an MCP endpoint.' : '';
  if (s >= 300 && s < 400) return `${s} redirect${x.location ? ` to ${x.location}` : ''}: the endpoint moved (or http→https, or a login page); probe the final URL directly`;
  if (s === 401)
    return ctx.bearerSent
      ? `401: credentials — the token was refused (expired, revoked, wrong audience, or for another server)`
      : `401: credentials — the server wants a token${x.wwwAuthenticate ? ' (WWW-Authenticate present)' : ''}; give it via MCP_TRIAGE_BEARER or --bearer-stdin`;
  if (s === 403)
    return html
      ? `HTML 403${who(x)}: a proxy, WAF or access rule refused the request before the MCP server`
      : `403: the credentials lack permission, or the server refused the Origin/Host (DNS-rebinding protection)`;
  if (s === 404) {
    if (html) return `HTML 404${who(x) || ' from a proxy'}: the path or proxy route is wrong (not a session problem; re-initializing cannot fix it).${modelApi}`;
    if (ctx.carriedSession)
      return `404 for a request carrying the session this probe was just assigned: the server lost the session between requests (another worker without it, eviction, restart)`;
    if (ctx.firstInitialize)
      return `404 on the first initialize${rpc?.message ? ` (${rpc.message})` : ''}: the path or mount prefix is wrong (no session was involved; re-initializing cannot fix it).${modelApi}`;
    return `404: the path is wrong`;
  }
  if (s === 405) return `405: this URL does not accept ${x.method}; not a Streamable HTTP endpoint (an old HTTP+SSE server, or the wrong path)`;
  if (s === 406) return `406: the server refused the Accept header (a proxy rewriting Accept? the client sends "application/json, text/event-stream")`;
  if (s === 415) return `415: the server refused the Content-Type (a proxy rewriting it?)`;
  if (s === 400) {
    if (rpc?.message && /session/i.test(rpc.message) && ctx.firstInitialize)
      return `400 "${rpc.message}" on a fresh initialize: the server did not see this as an initialize (a proxy altering the body, or the server needs a different route)`;
    return `400: the server rejected the request${rpc?.message ? ` ("${rpc.message}")` : ''}; a required header missing or mismatched (protocol version, session), or a proxy altered it`;
  }
  if (s === 413) return `413: a proxy or the server rejected the body size`;
  if (s === 421) return `421: misdirected request (Host header / TLS name mismatch at a proxy)`;
  if (s === 429) return `429: rate limited; wait and retry later with backoff`;
  if (s === 502) return `502${who(x) || ' from a proxy'}: the proxy could not reach the upstream MCP server (down, crashed, wrong upstream address)`;
  if (s === 503) return `503${who(x)}: the service is unavailable (no healthy upstream, maintenance, overload)`;
  if (s === 504) return `504${who(x) || ' from a proxy'}: the proxy timed out waiting for the upstream (slow tool, or proxy_read_timeout too short)`;
  if (s >= 500) return `${s}: the server failed on this request (a server-side error; check the server's log at this time)`;
  if (s >= 200 && s < 300 && html) return `200 with an HTML page: this URL serves a web page (an SPA fallback or a login page), not an MCP endpoint`;
  if (s >= 200 && s < 300) return `${s} but the reply was not a usable MCP message (content type ${x.contentType ?? 'none'})`;
  return `HTTP ${s}`;
}

/** A short, checkable description of one exchange: `POST /mcp → 404 text/html (nginx/1.22.1)`. */
export function describeExchange(x: Exchange): string {
  let path: string;
  try {
    const u = new URL(x.url);
    path = u.pathname + u.search;
  } catch {
    path = x.url;
  }
  const what = x.rpc.map((r) => r.method ?? 'response').join('+');
  const head = `${x.method} ${path}${what ? ` (${what})` : ''}`;
  if (x.status === undefined && (x.error === undefined || isAbort(x.error))) return `${head} → no response headers (still waiting at the timeout)`;
  if (x.status === undefined) return `${head} → no response (${errorCode(x.error) ?? innermostMessage(x.error)})`;
  const ct = x.contentType ? ` ${x.contentType.split(';')[0]}` : '';
  const srv = x.serverHeader ? ` (${x.serverHeader})` : '';
  return `${head} → ${x.status}${ct}${srv}`;
}
