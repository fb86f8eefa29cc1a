// Keyed pseudonyms: prefix + base32(HMAC-SHA256(key, domain ":" canonical(value)))[:10].
// Keyed (not a plain hash) so a guessed id cannot be confirmed; domain-separated so a
// session id and an email with the same bytes never link.
import { createHmac } from 'node:crypto';

const B32 = 'abcdefghijklmnopqrstuvwxyz234567';

export function base32(buf: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of buf) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += B32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += B32[(value << (5 - bits)) & 31];
  return out;
}

const UUIDISH = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** Canonical form: trimmed, quotes dropped, percent-decoded; UUIDs as lower-case 32 hex; otherwise exact bytes. */
export function canonicalId(raw: string): string {
  let v = raw.trim().replace(/^["']|["']$/g, '');
  if (v.includes('%')) {
    try {
      v = decodeURIComponent(v);
    } catch {
      /* keep as is: not valid percent-encoding */
    }
  }
  if (UUIDISH.test(v)) return v.replace(/-/g, '').toLowerCase();
  return v;
}

export type PseudonymDomain = 'mcp-session' | 'masked-session' | 'email' | 'host' | 'opaque' | 'ip' | 'user' | 'request';

const PREFIX: Record<PseudonymDomain, string> = {
  'mcp-session': 'sess_',
  'masked-session': 'sess_',
  email: 'email_',
  host: 'host-',
  opaque: 'h-',
  ip: 'ip-',
  user: 'user-',
  // Reports only (exit.ts): request ids stay raw inside the tool, where correlation joins on them.
  request: 'req-',
};

export function pseudonym(key: Uint8Array, domain: PseudonymDomain, value: string, length = 10): string {
  const mac = createHmac('sha256', key)
    .update(`${domain}:${domain === 'mcp-session' ? canonicalId(value) : value}`)
    .digest();
  return PREFIX[domain] + base32(mac).slice(0, length);
}

export const sessionPseudonym = (key: Uint8Array, raw: string) => pseudonym(key, 'mcp-session', raw);
