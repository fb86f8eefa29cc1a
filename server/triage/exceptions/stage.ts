// inferStage: where in the request the failure happened (failure-signatures.md (c)), from the
// root, then the exceptions that wrap it in the same chain, with the text that proved it.
import { tierOf } from './classes.ts';
import type { ExceptionNode, ExceptionTree, Frame, StageGuess } from './types.ts';
import type { Stage } from '../../contract/analysis.ts';

interface Evidence {
  node: ExceptionNode;
  text: string;
  frames: Frame[];
  props: Record<string, string>;
  sse: boolean;
}

const SSE_FRAME = /(?:^|[^a-z])(?:sse|aiter_sse|sse_reader|sse_client|handle_sse\w{0,40}|eventsource|_eventsource)(?:[^a-z]|$)/i;
const BODY_FRAME = /receive_response_body|aiter_bytes|aiter_raw|aiter_text|aiter_lines|iter_bytes|iter_lines|\bjson\b|\btext\b|consumeBody|readAllBytes/;
const HEADER_FRAME = /receive_response_headers|_send_single_request|handle_request|handle_async_request/;

interface Rule {
  stage: Stage;
  name: string;
  test: (e: Evidence) => boolean;
}

const RULES: readonly Rule[] = [
  {
    stage: 'connect',
    name: 'connect failure (DNS/TCP/TLS): nothing was sent',
    test: (e) =>
      /ConnectError|ConnectTimeout|ConnectionRefusedError|ECONNREFUSED|Connection refused|connection refused|ENOTFOUND|EAI_AGAIN|gaierror|Name or service not known|nodename nor servname|Temporary failure in name resolution|UND_ERR_CONNECT_TIMEOUT|Connect Timeout Error|CERTIFICATE_VERIFY_FAILED|SSLCertVerification|SSLError|SSLHandshakeException|\bCERT_[A-Z_]{1,40}|UNABLE_TO_VERIFY_LEAF_SIGNATURE|DEPTH_ZERO_SELF_SIGNED_CERT|ERR_TLS_|ConnectException|UnknownHostException|no such host|dial tcp|All connection attempts failed|EHOSTUNREACH|ENETUNREACH|Connect call failed/.test(
        e.text,
      ),
  },
  {
    stage: 'http_status',
    name: 'a complete HTTP error answer',
    test: (e) =>
      /HTTPStatusError|(?:Client|Server) error '\d{3}|Error POSTing to endpoint|Non-200 status code|Error code: \d{3}|HTTP status (?:client|server) error|status code does not indicate success|Unexpected content type|Session terminated|\bHTTP \d{3}\b/.test(
        e.text,
      ),
  },
  {
    stage: 'before_headers',
    name: 'closed before any response byte',
    test: (e) =>
      /Server disconnected without sending a response|UND_ERR_HEADERS_TIMEOUT|HeadersTimeoutError|awaiting headers|while reading response header|before_response_started|prematurely closed BEFORE response/.test(
        e.text,
      ) ||
      (/other side closed|UND_ERR_SOCKET/.test(e.text) && e.props.bytesRead === '0'),
  },
  {
    stage: 'between_sse_events',
    name: 'SSE stream cut between events',
    test: (e) => /SSE stream disconnected|GET stream disconnected|Maximum reconnection attempts/.test(e.text) || (e.sse && READ_SIDE.test(e.text)),
  },
  {
    stage: 'mid_body',
    name: 'response started, body cut',
    test: (e) =>
      /incomplete chunked read|without sending complete message body|UND_ERR_BODY_TIMEOUT|BodyTimeoutError|SSE stream ended without a response|ASGI callable returned without completing response|DURING response|after_response_started/.test(
        e.text,
      ) ||
      (/other side closed|UND_ERR_SOCKET|TypeError: terminated/.test(e.text) && Number(e.props.bytesRead ?? '0') > 0) ||
      (READ_SIDE.test(e.text) && e.frames.some((f) => BODY_FRAME.test(f.function ?? ''))),
  },
  {
    stage: 'before_headers',
    name: 'read failed before the response headers',
    test: (e) =>
      READ_SIDE.test(e.text) &&
      !e.frames.some((f) => BODY_FRAME.test(f.function ?? '')) &&
      (e.frames.some((f) => HEADER_FRAME.test(f.function ?? '')) || /ReadTimeout/.test(e.text)),
  },
  { stage: 'after_response', name: 'teardown after the response', test: (e) => /Attempted to exit cancel scope|current cancel scope|Session termination failed/.test(e.text) },
  {
    stage: 'unknown',
    name: 'session-level timeout: the transport stage is not in the text',
    test: (e) => /Request timed out|Timed out while waiting for response|Request '[\w/]{1,80}' timed out/.test(e.text),
  },
];

const READ_SIDE =
  /ReadTimeout|ReadError|RemoteProtocolError|ConnectionResetError|ECONNRESET|other side closed|UND_ERR_SOCKET|TypeError: terminated|SocketTimeoutException|PrematureCloseException|TimeoutError|EndOfStream|BrokenResourceError|timed out/;

export function inferStage(tree: ExceptionTree, root: ExceptionNode | null): StageGuess {
  if (!root) {
    const teardown = tree.nodes.find((n) => tierOf(n) === 'teardown');
    if (teardown) return { stage: 'after_response', evidence: `${teardown.type}: ${teardown.message} (teardown; no earlier failure visible)` };
    return { stage: 'unknown', evidence: 'no root exception in the excerpt' };
  }
  const byId = new Map(tree.nodes.map((n) => [n.id, n]));
  // Root first, then its wrappers up to the nearest group: they describe the same failure.
  const path: ExceptionNode[] = [];
  for (let n: ExceptionNode | undefined = root, k = 0; n && k < 400; n = n.parentId === null ? undefined : byId.get(n.parentId), k++) {
    if (n !== root && n.isGroup) break;
    path.push(n);
  }
  const frames = path.flatMap((n) => n.frames);
  const sse = frames.some((f) => SSE_FRAME.test(f.function ?? '') || SSE_FRAME.test(f.file ?? '')) || path.some((n) => /\bSSE\b|\/sse\b|text\/event-stream/.test(n.message));
  const props: Record<string, string> = {};
  for (const n of [...path].reverse()) Object.assign(props, n.props ?? {});
  for (const n of path) {
    const e: Evidence = {
      node: n,
      text: `${n.type}: ${n.message} ${Object.entries(n.props ?? {})
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}`,
      frames,
      props,
      sse,
    };
    for (const r of RULES) {
      if (r.test(e)) {
        const bytes = props.bytesRead !== undefined ? ` (bytesRead ${props.bytesRead})` : '';
        const where = r.stage === 'between_sse_events' && sse ? ' inside SSE iteration' : '';
        const code = n.props?.code ? ` [${n.props.code}]` : '';
        return { stage: r.stage, evidence: `${n.type}${code}: ${firstLine(n.message)}${bytes}${where} → ${r.name}` };
      }
    }
  }
  if (tierOf(root) === 'teardown' || (frames.some((f) => /__aexit__|aclose|terminate_session/.test(f.function ?? '')) && tierOf(root) === 'anyio')) {
    return { stage: 'after_response', evidence: `${root.type}: ${firstLine(root.message)} → teardown after the response` };
  }
  return { stage: 'unknown', evidence: `${root.type}: ${firstLine(root.message)} → no stage signature` };
}

function firstLine(s: string): string {
  const l = s.split('\n')[0]!;
  return l.length > 200 ? `${l.slice(0, 200)}…` : l;
}
