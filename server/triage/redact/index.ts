// Redaction at ingest: every line passes through here before it is parsed or stored.
// Pass 1 (collectSessionIds) reads all inputs for raw session ids; pass 2 (createLineRedactor)
// rewrites each line. Nothing raw goes past this module except through memory.
import { canonicalId, sessionPseudonym } from './pseudonym.ts';

export interface Remark {
  rule: string;
  start: number;
  end: number;
  originalLength: number;
}
export interface RedactResult {
  text: string;
  remarks: Remark[];
}

/** Raw session ids seen in the inputs (memory only; never persisted). */
export class SessionIdBook {
  readonly raw = new Set<string>();
  add(id: string): void {
    const v = id.trim();
    if (v.length >= 6 && v.length <= 256 && !/^sess_[a-z2-7]{10,}$/.test(v)) this.raw.add(v);
  }
  /** Every spelling of every id that the literal sweep must catch, longest first. */
  variants(): string[] {
    const out = new Set<string>();
    for (const id of this.raw) for (const v of idVariants(id)) out.add(v);
    return [...out].sort((a, b) => b.length - a.length);
  }
}

/** The spellings of one id: as logged, canonical, and for UUIDs hyphenated/hex32 in both cases. */
export function idVariants(id: string): string[] {
  const out = new Set([id, canonicalId(id)]);
  const c = canonicalId(id);
  if (/^[0-9a-f]{32}$/.test(c)) {
    const hy = `${c.slice(0, 8)}-${c.slice(8, 12)}-${c.slice(12, 16)}-${c.slice(16, 20)}-${c.slice(20)}`;
    for (const v of [hy, hy.toUpperCase(), c.toUpperCase()]) out.add(v);
  }
  return [...out].filter((v) => v.length >= 6);
}

// Places a raw session id shows up in MCP logs (redaction.md "What MCP puts into logs").
const ID = String.raw`([\x21-\x7e]{6,256}?)`;
const END = String.raw`(?=$|[\s"',;&)\]}>])`;
const SESSION_ID_PATTERNS: RegExp[] = [
  new RegExp(String.raw`mcp[-_]?session[-_]?id["']?\s*[:=]\s*["']?` + ID + END, 'gi'),
  new RegExp(String.raw`[?&;](?:session_id|sessionId|mcp_session_id)=` + ID + END, 'g'),
  new RegExp(String.raw`"(?:session_id|sessionId|mcp_session_id|mcpSessionId)"\s*:\s*"([^"\\]{6,256})"`, 'g'),
  new RegExp(
    String.raw`(?:Received session ID|Created new transport with session ID|Created new session with ID|Rejected request with unknown or expired session ID|Terminating session|Transport not found for sessionId|No transport found for sessionId|Session ID|session id|sessionId)[:=]?\s+` +
      ID +
      END,
    'g',
  ),
  new RegExp(String.raw`\bSession ` + ID + String.raw` (?:idle timeout|crashed|terminated)`, 'g'),
];

const NOT_IDS = new Set(['None', 'null', 'undefined', 'none', 'provided', 'required']);

export function collectSessionIds(line: string, book: SessionIdBook): void {
  if (!/session/i.test(line)) return;
  for (const re of SESSION_ID_PATTERNS) {
    re.lastIndex = 0;
    for (const m of line.matchAll(re)) {
      const id = m[1]!.replace(/[.:]+$/, '');
      if (!NOT_IDS.has(id) && !/^\*+$/.test(id) && !/\*{3,}|…|\.\.\.$/.test(id)) book.add(id);
    }
  }
}

const BEARER = /(bearer(?:\s+|%20|\+|\\u0020))([A-Za-z0-9._~+/-]{4,4096}=*)/gi;

export interface LineRedactor {
  line(text: string): RedactResult;
}

export function createLineRedactor(opts: { key: Uint8Array; ids: SessionIdBook }): LineRedactor {
  const variants = opts.ids.variants();
  const pseudo = new Map<string, string>();
  for (const id of opts.ids.raw) {
    const p = sessionPseudonym(opts.key, id);
    pseudo.set(id, p);
    for (const v of idVariants(id)) pseudo.set(v, p);
  }
  return {
    line(text: string): RedactResult {
      const remarks: Remark[] = [];
      let out = text.replace(BEARER, (m, scheme: string, cred: string, offset: number) => {
        if (/^sess_[a-z2-7]{10,}$/.test(cred) || cred.startsWith('[REDACTED')) return m;
        remarks.push({ rule: '@bearer', start: offset, end: offset + m.length, originalLength: cred.length });
        return `${scheme}[REDACTED:bearer]`;
      });
      for (const v of variants) {
        if (!out.includes(v)) continue;
        const p = pseudo.get(v)!;
        let idx = out.indexOf(v);
        while (idx !== -1) {
          remarks.push({ rule: '@mcp-session', start: idx, end: idx + p.length, originalLength: v.length });
          out = out.slice(0, idx) + p + out.slice(idx + v.length);
          idx = out.indexOf(v, idx + p.length);
        }
      }
      return { text: out, remarks };
    },
  };
}
