// What an exception means for triage, by type and message. Data, so a reviewer can read it.
import type { ExceptionNode } from './types.ts';

/** Cancellation noise: the effect of another failure, never its cause. */
const NOISE_TYPES = /(?:^|\.)(?:CancelledError|Cancelled|GeneratorExit|KeyboardInterrupt|SystemExit|AbortError)$/;
/** Wrappers that only carry other errors. */
const WRAPPER_TYPES = /(?:^|\.)(?:BaseExceptionGroup|ExceptionGroup|MultiError|AggregateError)$/;
/** Reports that an earlier failure closed the connection (python-sdk / TS SDK CONNECTION_CLOSED). */
const CONSEQUENCE = /^(?:MCP error -32000: )?Connection closed\.?$|CONNECTION_CLOSED/;
/** Teardown artefacts: real defects only when nothing earlier failed. */
const TEARDOWN = /Attempted to exit cancel scope in a different task|isn't the current tasks?'s current cancel scope|Attempted to exit a cancel scope that isn't the current/;

const NETWORK_TYPES =
  /(?:^|\.)(?:ConnectError|ConnectTimeout|ReadTimeout|WriteTimeout|PoolTimeout|ReadError|WriteError|RemoteProtocolError|LocalProtocolError|HTTPStatusError|ProtocolError|NetworkError|TimeoutException|TransportError|ConnectionRefusedError|ConnectionResetError|ConnectionAbortedError|ConnectionError|BrokenPipeError|TimeoutError|gaierror|SSLError|SSLCertVerificationError|CertificateError|SocketError|ConnectException|SocketException|SocketTimeoutException|UnknownHostException|PrematureCloseException|SSLHandshakeException|HttpTimeoutException|ClientDisconnect|BodyTimeoutError|HeadersTimeoutError|ConnectTimeoutError|InternalServerError|APIConnectionError|APIStatusError)$/;
const NETWORK_CODES =
  /\b(?:ECONNREFUSED|ECONNRESET|ECONNABORTED|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EPIPE|EHOSTUNREACH|ENETUNREACH|UND_ERR_[A-Z_]{1,40}|CERT_[A-Z_]{1,40}|UNABLE_TO_VERIFY_LEAF_SIGNATURE|DEPTH_ZERO_SELF_SIGNED_CERT|ERR_TLS_[A-Z_]{1,40})\b/;
const NETWORK_GO = /^(?:syscall\.|net\.|io\.|context\.DeadlineExceeded)/;
const MCP_TYPES = /(?:^|\.)(?:McpError|MCPError|StreamableHTTPError|SseError|SdkHttpError|UnauthorizedError|ToolError|ClientError)$/;
const ANYIO_STREAM = /(?:^|\.)(?:ClosedResourceError|BrokenResourceError|EndOfStream|WouldBlock)$/;

export type Tier = 'network' | 'mcp' | 'anyio' | 'other' | 'teardown' | 'consequence' | 'noise' | 'wrapper';

export function text(n: ExceptionNode): string {
  const props = n.props
    ? Object.entries(n.props)
        .map(([k, v]) => `${k}: ${v}`)
        .join(' ')
    : '';
  return `${n.type}: ${n.message} ${props}`.trim();
}

export function tierOf(n: ExceptionNode): Tier {
  if (NOISE_TYPES.test(n.type)) return 'noise';
  if (n.isGroup || WRAPPER_TYPES.test(n.type)) {
    // A group carrying its own network code (AggregateError [ECONNREFUSED]) speaks for its hidden members.
    return NETWORK_CODES.test(n.props?.code ?? '') ? 'network' : 'wrapper';
  }
  if (TEARDOWN.test(n.message)) return 'teardown';
  if (CONSEQUENCE.test(n.message.trim()) || n.props?.code === 'CONNECTION_CLOSED') return 'consequence';
  if (NETWORK_TYPES.test(n.type) || NETWORK_GO.test(n.type) || NETWORK_CODES.test(n.props?.code ?? '') || NETWORK_CODES.test(n.message)) return 'network';
  if (MCP_TYPES.test(n.type)) return 'mcp';
  if (ANYIO_STREAM.test(n.type)) return 'anyio';
  return 'other';
}

/** Lower is preferred (failure-signatures.md (e) step 3, then the fall-backs of step 2). */
export const TIER_RANK: Record<Tier, number> = {
  network: 0,
  mcp: 1,
  anyio: 2,
  other: 3,
  teardown: 4,
  consequence: 5,
  wrapper: 6,
  noise: 7,
};
