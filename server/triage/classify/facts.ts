// Facts about one failing request, derived from its correlated span. Rules read only these.
import type { Event, RpcId, Source } from '../../../parsers/contract/event.ts';
import type { Evidence, Stage } from '../../contract/analysis.ts';
import { chooseRoot, inferStage, parseExceptionText } from '../exceptions/index.ts';
import type { SpanBuild } from '../correlate/spans.ts';

export type BodyKind = 'html' | 'jsonrpc-error' | 'empty' | 'text' | 'unknown';
export type Era = 'legacy-sse' | 'session' | 'sessionless' | 'unknown';

export interface Facts {
  rpcId: RpcId | null;
  method: string | null;
  tool: string | null;
  session: string | null;
  httpStatus: number | null;
  /** HTTP method of the failing exchange (GET = the optional standalone SSE stream). */
  httpMethod: string | null;
  stage: Stage;
  stageEvidence: string | null;
  rootException: { type: string; message: string } | null;
  exceptionChain: string[];
  protocolVersion: string | null;
  era: Era;
  /** The failing request carried a session id. */
  sessionSent: boolean;
  /** That session id had been assigned by the server before the failure (seen working or announced). */
  sessionAssignedEarlier: boolean;
  /** The failing request is the very first exchange (initialize, or nothing earlier on that connection). */
  firstRequest: boolean;
  bodyKind: BodyKind;
  jsonRpcCode: number | null;
  sources: Source[];
  /** All text of the span, for signature rules (redacted). */
  text: string;
  /** A later exchange on a new session succeeded (the client recovered on its own). */
  recoveredLater: boolean;
}

export interface FailureCandidate {
  span: SpanBuild;
  facts: Facts;
  evidence: Evidence[];
  ts: number | null;
}

const HTML = /<html|<title>|<center>nginx|<!doctype html|text\/html/i;

export function isFailureEvent(e: Event): boolean {
  return (e.httpStatus !== null && e.httpStatus >= 400) || e.level === 'error' || e.level === 'fatal' || e.kind === 'block';
}

/** A block folded under a log line starts with that line's prefix: start at the first exception type on it. */
export function exceptionText(e: Event): string {
  if (e.format === 'python-traceback' || e.format === 'node-error' || e.kind !== 'block') return e.text;
  const nl = e.text.indexOf('\n');
  const first = nl < 0 ? e.text : e.text.slice(0, nl);
  const m = /\b(?:[a-z_][\w]*\.)*[A-Z][\w$]*(?:Error|Exception|Group)\b(?: \[[A-Z_]+\])?:/.exec(first);
  return m ? first.slice(m.index) + (nl < 0 ? '' : e.text.slice(nl)) : e.text;
}

export function deriveFacts(span: SpanBuild, all: readonly Event[], ctx: { protocolVersions: string[] }): Facts {
  const evs = span.events;
  const text = evs.map((e) => e.text).join('\n').slice(0, 100_000);
  const statusOf = (src: Source) => evs.find((e) => e.source === src && e.httpStatus !== null && e.httpStatus >= 400)?.httpStatus ?? null;
  const httpStatus = statusOf('proxy') ?? statusOf('server') ?? statusOf('client') ?? evs.find((e) => e.httpStatus !== null && e.httpStatus >= 400)?.httpStatus ?? null;
  const start = span.start;
  const session = span.session;
  const before = (e: Event) => start === null || (e.ts !== null && e.ts < start);
  const sessionEvents = session ? all.filter((e) => e.session === session && !evs.includes(e)) : [];
  const sessionAssignedEarlier =
    !!session &&
    sessionEvents.some((e) => before(e) && ((e.httpStatus !== null && e.httpStatus < 400) || /Received session ID|Created new (?:transport|session)|session assigned/i.test(e.text)));
  const method = span.method;
  const firstRequest =
    method === 'initialize' || method === 'server/discover' || (!session && !all.some((e) => before(e) && e.source === 'client' && e.httpStatus !== null && e.httpStatus < 400));
  let bodyKind: BodyKind = 'unknown';
  const codeMatch = /"code"\s*:\s*(-?\d{1,6})/.exec(text);
  if (HTML.test(text)) bodyKind = 'html';
  else if (/"jsonrpc"[^\n]{0,400}"error"|"error"\s*:\s*\{\s*"code"/.test(text)) bodyKind = 'jsonrpc-error';
  const blocks = evs.filter((e) => e.kind === 'block');
  let rootException: Facts['rootException'] = null;
  let exceptionChain: string[] = [];
  let stage: Stage = 'unknown';
  let stageEvidence: string | null = null;
  for (const b of blocks) {
    const tree = parseExceptionText(exceptionText(b));
    if (!tree) continue;
    const choice = chooseRoot(tree);
    const guess = inferStage(tree, choice.root);
    rootException = choice.root ? { type: choice.root.type, message: choice.root.message } : null;
    exceptionChain = choice.chain;
    stage = guess.stage;
    stageEvidence = guess.evidence;
    if (rootException) break;
  }
  if (stage === 'unknown' && httpStatus !== null && httpStatus !== 502 && httpStatus !== 504 && httpStatus !== 499) {
    stage = 'http_status';
    stageEvidence = `a complete HTTP ${httpStatus} answer`;
  }
  const pv = evs.find((e) => e.protocolVersion)?.protocolVersion ?? (ctx.protocolVersions.length === 1 ? ctx.protocolVersions[0]! : null);
  const era: Era = pv === null ? 'unknown' : pv >= '2026-07-28' ? 'sessionless' : pv >= '2025-03-26' ? 'session' : 'legacy-sse';
  const end = span.end ?? start;
  const recoveredLater = all.some(
    (e) => e.source === 'client' && e.ts !== null && end !== null && e.ts > end && e.httpStatus !== null && e.httpStatus < 300 && e.session !== null && e.session !== session && e.rpcMethod !== 'initialize' && e.rpcMethod !== null,
  );
  return {
    rpcId: span.rpcId,
    method,
    tool: span.tool,
    session,
    httpStatus,
    httpMethod: evs.find((e) => e.httpMethod && e.httpStatus !== null && e.httpStatus >= 400)?.httpMethod ?? evs.find((e) => e.httpMethod)?.httpMethod ?? null,
    stage,
    stageEvidence,
    rootException,
    exceptionChain,
    protocolVersion: pv,
    era,
    sessionSent: !!session,
    sessionAssignedEarlier,
    firstRequest,
    bodyKind,
    jsonRpcCode: codeMatch ? Number(codeMatch[1]) : null,
    sources: span.sources,
    text,
    recoveredLater,
  };
}
