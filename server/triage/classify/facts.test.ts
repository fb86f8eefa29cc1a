// The literals SQL tests before the handshake, legacy-SSE, recovery and fallback patterns (store/focus.ts) must be
// held by every match: each top-level alternative of the pattern has to begin with its literal.
import { describe, expect, it } from 'vitest';
import { FALLBACK, FALLBACK_LITERALS, HANDSHAKE, HANDSHAKE_LITERALS, LEGACY, LEGACY_LITERALS, RECOVERED, RECOVERED_LITERALS } from './facts.ts';

/** The top-level alternatives of a pattern's source (no alternation inside groups or classes is split). */
function alternatives(source: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let cur = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      cur += c + source[++i]!;
      continue;
    }
    if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      out.push(cur);
      cur = '';
      continue;
    }
    cur += c;
  }
  return [...out, cur];
}

/** The characters an alternative matches literally before its first group, class or quantified atom. */
function leadingLiteral(alt: string): string {
  let lit = '';
  for (let i = 0; i < alt.length; ) {
    const escaped = alt[i] === '\\';
    const ch = escaped ? alt[i + 1]! : alt[i]!;
    if (!escaped && '([.^$'.includes(ch)) break;
    if (escaped && /[A-Za-z0-9]/.test(ch)) break; // \d, \s, \b…: not a literal
    const next = alt[i + (escaped ? 2 : 1)];
    if (next === '?' || next === '*' || next === '{') break; // optional: not held by every match
    lit += ch;
    i += escaped ? 2 : 1;
    if (next === '+') break;
  }
  return lit;
}

describe.each([
  ['HANDSHAKE', HANDSHAKE, HANDSHAKE_LITERALS],
  ['LEGACY', LEGACY, LEGACY_LITERALS],
  ['RECOVERED', RECOVERED, RECOVERED_LITERALS],
  ['FALLBACK', FALLBACK, FALLBACK_LITERALS],
] as const)('%s prefilter literals', (_name, re, literals) => {
  it('has one literal per alternative, each a prefix of what the alternative must match', () => {
    const alts = alternatives(re.source);
    expect(alts.length).toBe(literals.length);
    alts.forEach((alt, i) => {
      expect(literals[i]!.length).toBeGreaterThan(3);
      expect(leadingLiteral(alt).startsWith(literals[i]!), `${alt} vs ${literals[i]}`).toBe(true);
    });
  });

  it('finds a literal in every string the pattern matches', () => {
    const samples = [
      'Received session ID: abc', 'Created new transport with session ID x', 'Created new session with ID y', 'Negotiated protocol version: 2025-06-18',
      'GET /messages/?session_id=abc', 'POST /messages?sessionId=1', 'event: endpoint', 'new SSEClientTransport(url)', 'mcp.client.sse_client',
      'Connected to remote server using SSEClientTransport', 'Proxy established successfully between local STDIO and remote', 'Reconnected to SSE stream',
      'Resumed the SSE stream', 'resuming stream 4', 'Successfully connected to server', 'client successfully connected', 'Connection established', 'connection established with upstream',
      'Recursively reconnecting for reason: falling-back-to-alternate-transport', 'falling back to SSE', 'Fall back to legacy', 'trying the SSE transport', 'Trying legacy transport', 'strategy: sse-only',
    ].filter((s) => re.test(s));
    expect(samples.length).toBeGreaterThanOrEqual(literals.length);
    for (const s of samples) expect(literals.some((l) => s.includes(l)), s).toBe(true);
  });
});
