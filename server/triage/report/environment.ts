// What a maintainer asks first: which client/SDK, server, proxy and versions. Read from the
// (redacted) log text with a table of extractors; nothing is guessed.
import type { Event } from '../../../parsers/contract/event.ts';

interface Extractor {
  label: string;
  re: RegExp;
  /** Render the match. */
  value: (m: RegExpExecArray) => string;
}

export const ENVIRONMENT_EXTRACTORS: readonly Extractor[] = [
  { label: 'TypeScript SDK', re: /@modelcontextprotocol\/sdk[ @]v?(\d+\.\d+\.\d+)/, value: (m) => `@modelcontextprotocol/sdk ${m[1]}` },
  { label: 'Python SDK', re: /\bmcp(?:==| version:? |\/)(\d+\.\d+\.\d+)\b/, value: (m) => `mcp (python) ${m[1]}` },
  { label: 'mcp-remote', re: /\bmcp-remote[ @/]v?(\d+\.\d+\.\d+)/, value: (m) => `mcp-remote ${m[1]}` },
  { label: 'FastMCP', re: /\bFastMCP[ /]v?(\d+\.\d+(?:\.\d+)?)/, value: (m) => `FastMCP ${m[1]}` },
  { label: 'Node.js', re: /\bnode(?:\.js)? ?v(\d+\.\d+\.\d+)/i, value: (m) => `Node.js ${m[1]}` },
  { label: 'Python', re: /\bPython (3\.\d+(?:\.\d+)?)/, value: (m) => `Python ${m[1]}` },
  { label: 'server', re: /\bConnected to ([\w.-]{1,80}) v?(\d+\.\d+(?:\.\d+)?)/, value: (m) => `${m[1]} ${m[2]}` },
  { label: 'server', re: /"serverInfo"\s*:\s*\{\s*"name"\s*:\s*"([^"]{1,80})"\s*,\s*"version"\s*:\s*"([^"]{1,40})"/, value: (m) => `${m[1]} ${m[2]}` },
  { label: 'proxy', re: /\bnginx\/(\d+\.\d+\.\d+)/, value: (m) => `nginx ${m[1]}` },
  { label: 'proxy', re: /\benvoy[ /](\d+\.\d+\.\d+)/i, value: (m) => `Envoy ${m[1]}` },
  { label: 'transport', re: /transport[=: ]{1,3}(streamable-http|sse|stdio|legacy-sse)/i, value: (m) => m[1]!.toLowerCase() },
  { label: 'transport', re: /\b(StreamableHTTPClientTransport|SSEClientTransport|streamablehttp_client|sse_client)\b/, value: (m) => m[1]! },
];

export interface EnvironmentFact {
  label: string;
  value: string;
  source: string;
}

export function extractEnvironment(events: readonly Event[]): EnvironmentFact[] {
  const out = new Map<string, EnvironmentFact>();
  for (const e of events) {
    const text = e.text.length > 20_000 ? e.text.slice(0, 20_000) : e.text;
    for (const x of ENVIRONMENT_EXTRACTORS) {
      const m = x.re.exec(text);
      if (!m) continue;
      const value = x.value(m);
      const k = `${x.label}\u0000${value}`;
      if (!out.has(k)) out.set(k, { label: x.label, value, source: e.source });
    }
  }
  return [...out.values()];
}
