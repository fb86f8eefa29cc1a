// Format detection: score every format on a bounded prefix of the file and pick the best.
// Also used by `formats --explain` to say why each format did or did not match.
import type { Source } from '../contract/event.ts';
import { blockFolders } from '../special/index.ts';
import { applyFormat, type CompiledFormat } from './apply.ts';

export const SAMPLE_LINES = 200;

export interface FormatScore {
  id: string;
  matched: number;
  considered: number;
  score: number;
  /** First line (1-based within the sample) that this format did not match, for --explain. */
  firstMiss: { n: number; text: string } | null;
}

export interface Detection {
  format: CompiledFormat | null;
  scores: FormatScore[];
  /** Formats that matched at least one sampled line: tried, in order, on lines the main format misses. */
  fallbacks: CompiledFormat[];
}

function isBlockish(line: string): boolean {
  return /^\s/.test(line) || blockFolders.some((b) => b.starts(line));
}

export function detectFormat(sample: readonly string[], formats: readonly CompiledFormat[]): Detection {
  const lines = sample.filter((l) => l.trim() !== '' && !isBlockish(l)).slice(0, SAMPLE_LINES);
  const scores: FormatScore[] = [];
  for (const f of formats) {
    let matched = 0;
    let firstMiss: FormatScore['firstMiss'] = null;
    lines.forEach((l, i) => {
      if (applyFormat(f, l)) matched++;
      else if (!firstMiss) firstMiss = { n: i + 1, text: l.slice(0, 300) };
    });
    scores.push({ id: f.spec.id, matched, considered: lines.length, score: lines.length ? matched / lines.length : 0, firstMiss });
  }
  const byId = new Map(formats.map((f) => [f.spec.id, f]));
  const ranked = [...scores].sort((a, b) => b.score - a.score || byId.get(b.id)!.spec.priority - byId.get(a.id)!.spec.priority);
  const best = ranked[0];
  const format = best && best.matched > 0 && best.score >= 0.3 ? byId.get(best.id)! : null;
  const fallbacks = ranked.filter((s) => s.matched > 0 && s.id !== format?.spec.id).map((s) => byId.get(s.id)!);
  return { format, scores: ranked, fallbacks };
}

/**
 * Strong hints: an SDK's client or server modules and messages, and a server's start banner. A client named
 * `claude-ai (via mcp-remote 0.3.2)` is the clientInfo mcp-remote sends (its name, then `(via mcp-remote <version>)`):
 * the side that logs it by that name is the server it connected to. Also Go's HTTP client
 * error (net/url Error: `Post "https://host/mcp": context canceled`, quotes escaped inside a JSON or logfmt value):
 * only the side that sent the request writes the URL it sent to that way.
 */
// (an HTTP client library's error naming the MCP endpoint it called: Spring's RestTemplate/RestClient `I/O error on POST request
// for "https://…": Read timed out`, node-fetch's `request to https://… failed, reason: …`)
const CLIENT_HINT =
  /\b(?:Get|Post|Put|Delete|Patch|Head) \\?"https?:\/\/[^"\s\\]{1,300}\/(?:mcp|sse|messages)\b[^"\s\\]{0,100}\\?": |mcp[./:]client|fastmcp[./]client|streamablehttp_client|sse_client|StreamableHTTPClientTransport|SSEClientTransport|[Cc]lient transport|\w{0,40}ClientTransport|Received session ID|Error POSTing to endpoint|\[Local→Remote\]|Connecting to (?:SSE|StreamableHTTP) endpoint|I\/O error on (?:GET|POST|DELETE) request for \\?"https?:\/\/[^"\s\\]{1,300}\/(?:mcp|sse)\b|\brequest to https?:\/\/[^\s/]{1,300}\/(?:[^\s]{0,200}\/)?(?:mcp|sse)\b\S{0,100} failed, reason: /;
const SERVER_HINT =
  /\(via mcp-remote |mcp[./]server|fastmcp[./]server|Created new transport|Uvicorn running|Application startup complete|StreamableHTTPServerTransport|session manager|Processing request of type|\b[Ll]istening on https?:\/\//;

/** The reverse proxies whose logs the formats read, as their packages name the program (syslog ident, journald unit). */
const PROXY_IDENT = /^(?:nginx|envoy|haproxy|traefik|caddy)$/;

/** The side a file's format names for it, when its sample bears the format out (FormatSpec.sourceWhen). */
export function formatSource(f: CompiledFormat | null | undefined, sample: readonly string[]): Source | undefined {
  if (!f) return undefined;
  const when = f.sourceWhen;
  if (!when) return f.spec.source;
  for (const line of sample) {
    const l = line.slice(0, 2000);
    for (const re of when) if (re.test(l)) return f.spec.source;
  }
  return undefined;
}

/**
 * Which side wrote a file: the format's own source; else strong hints in the text (an SDK's client
 * or server module names); else the program a syslog/journald header names; else hints in the file name; else
 * weak hints in the text.
 * MCP "proxies" such as mcp-remote, mcp-proxy or the Inspector proxy are clients of the remote
 * server, so client hints are checked before the generic "proxy" name hint.
 */
export function resolveSource(formatSource: Source | undefined, fileName: string, sample: readonly string[], ident?: string | null, wrapperSource?: Source): Source {
  if (formatSource && formatSource !== 'unknown') return formatSource;
  const text = sample.slice(0, SAMPLE_LINES).join('\n').slice(0, 200_000);
  if (CLIENT_HINT.test(text)) return 'client';
  if (SERVER_HINT.test(text)) return 'server';
  // the program a syslog/journald header names for every line (`nginx[812]: …`): the proxy itself wrote them
  if (ident && PROXY_IDENT.test(ident)) return 'proxy';
  // the stream a wrapper around every line belongs to (Heroku's: the app's dynos and its router)
  if (wrapperSource && wrapperSource !== 'unknown') return wrapperSource;
  const name = fileName.toLowerCase();
  if (/(client|agent|host|claude|cursor|vscode|mcp-remote|mcp-proxy|inspector|desktop)/.test(name)) return 'client';
  if (/(nginx|envoy|haproxy|traefik|caddy|alb|elb|gateway|ingress|access|proxy)/.test(name)) return 'proxy';
  if (/(server|backend|upstream|uvicorn|gunicorn|fastmcp|app)/.test(name)) return 'server';
  // (a server names its clients — `client claude-ai (via mcp-remote)` — so the bare name is a weak hint)
  if (/mcp-remote/.test(text)) return 'client';
  // weak hints in the content, for files whose names say nothing (what fields a proxy or a server logs)
  if (
    /"(?:upstream_addr|upstream_status|upstream_response_time|remote_addr|request_method|upstream_cluster|DownstreamStatus|OriginStatus|RequestHost)"|\bhaproxy\[\d+\]:|"logger"\s*:\s*"http\.(?:log|handlers)\./.test(
      text,
    )
  )
    return 'proxy';
  if (/"(?:reqId|statusCode|responseTime|mcpSessionId)"|"msg"\s*:\s*"(?:incoming request|request completed?)"|listening on https?:\/\//.test(text)) return 'server';
  if (/uvicorn|"GET \/|"POST \//.test(text)) return 'server';
  return 'unknown';
}

export interface FormatExplanation extends FormatScore {
  /** For the first line the format misses: its sample closest to that line, and where they part. */
  nearest: { sample: number; line: string; agreeUpTo: number } | null;
}

/**
 * Why each format did or did not match (for `formats --explain`): the score, the first line it
 * misses and, for that line, the format's nearest sample (longest common prefix) and the column
 * where the two part — usually the field whose shape differs.
 */
export function explainDetection(d: Detection, formats: readonly CompiledFormat[]): FormatExplanation[] {
  const byId = new Map(formats.map((f) => [f.spec.id, f]));
  return d.scores.map((s) => {
    const f = byId.get(s.id);
    if (!f || !s.firstMiss) return { ...s, nearest: null };
    const miss = s.firstMiss.text;
    let best: FormatExplanation['nearest'] = null;
    f.spec.samples.forEach((smp, i) => {
      let k = 0;
      const max = Math.min(smp.line.length, miss.length, 2000);
      while (k < max && smp.line.charCodeAt(k) === miss.charCodeAt(k)) k++;
      if (!best || k > best.agreeUpTo) best = { sample: i, line: smp.line, agreeUpTo: k };
    });
    return { ...s, nearest: best };
  });
}
