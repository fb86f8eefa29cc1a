// Personal and infrastructure data (redaction.md §3 kind 9) and the keyword-less entropy
// pass (kind 8). Values that help correlation (hosts, e-mails, IPs, user names, opaque
// ids) become keyed pseudonyms instead of a flat placeholder, so "the same host" still
// reads as the same host in a report.
import { isIPv6 } from 'node:net';
import { pseudonym } from '../pseudonym.ts';
import type { PatternRule } from '../types.ts';
import { LB } from './formats.ts';
import { isPrivateHostName, isPublicHost, NETWORK_SCHEMES, PRIVATE_SUFFIXES } from './hosts.ts';

export { isPublicHost };

const isIPv4 = (v: string) => /^(?:\d{1,3}\.){3}\d{1,3}$/.test(v) && v.split('.').every((o) => Number(o) <= 255);
const keepIp = (v: string) => v.startsWith('127.') || v === '0.0.0.0' || v === '255.255.255.255' || v === '::1' || v === '::';
/** A version key just before a dotted quad: `Version=`, `"version": "`, `FileVersion: `. */
const VERSION_KEY_BEFORE = /version["']?[ \t]{0,2}[:=][ \t]{0,2}["']?$/i;

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

// IBAN length per country (the registry): an upper-case id that starts with two letters and two
// digits is not an IBAN unless its country exists and its length is that country's.
const IBAN_LENGTH: Record<string, number> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MR: 27,
  MT: 31,
  MU: 30,
  NL: 18,
  NO: 15,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  SA: 24,
  SC: 31,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
};

function ibanOk(v: string): boolean {
  const s = v.replace(/ /g, '');
  if (IBAN_LENGTH[s.slice(0, 2)] !== s.length) return false;
  const r = s.slice(4) + s.slice(0, 4);
  let rem = 0;
  for (const ch of r) {
    const n = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of n) rem = (rem * 10 + Number(d)) % 97;
  }
  return rem === 1;
}

export function shannon(s: string): number {
  const freq = new Map<string, number>();
  for (const c of s) freq.set(c, (freq.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of freq.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

// Roles whose opaque values are harmless and needed for correlation (kept as they are).
const EXEMPT_BEFORE =
  /(?:(?:(?:request|trace|span|correlation|message|event)[-_ ]?id|requestid|traceparent|tracestate|x-amzn-trace-id|commit|sha|version|etag|nonce|code_challenge|kid|x5t|jti)["']?\s{0,3}[:=]?\s{0,3}["']?|(?:\bid|"id"|'id')\s{0,3}[:=]\s{0,3}["']?)$/i;
const EXEMPT_KEYS =
  /^(?:id|request_?id|requestid|x-request-id|traceparent|tracestate|trace_?id|span_?id|commit|sha|version|etag|code_challenge|kid|jti|nonce|message_?id|event_?id|protocolversion)$/i;

/** At least 3 upper-case letters, 3 lower-case letters and 3 digits. */
function mixed3(v: string): boolean {
  let upper = 0;
  let lower = 0;
  let digits = 0;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c >= 65 && c <= 90) upper++;
    else if (c >= 97 && c <= 122) lower++;
    else if (c >= 48 && c <= 57) digits++;
  }
  return upper >= 3 && lower >= 3 && digits >= 3;
}

/** Hex-and-colon text can only be an IPv6 address with '::' or with all 8 groups (7 colons). */
function ipv6Shaped(v: string): boolean {
  if (v.includes('::')) return true;
  let colons = 0;
  for (let i = 0; i < v.length; i++) if (v.charCodeAt(i) === 58) colons++;
  return colons === 7;
}

/**
 * For rules whose `v` group ends the match and whose validate needs no indices: validate also
 * serves as the gate, so a match is built with indices only once it is known to count.
 */
function gated(rule: PatternRule): PatternRule {
  const validate = rule.validate!;
  return { ...rule, gate: (m, ctx) => validate(m.groups!.v!, m, ctx) };
}

/** Words or keys that make a bare digit run a card number. */
const CARD_CONTEXT = /\b(?:card|pan|cc|ccnum|cc_?number|credit|debit|visa|mastercard|amex|payment)/i;
/** Words or keys that make a national-format digit group a phone number. */
const PHONE_CONTEXT = /\b(?:phone|tel|telephone|telefon|mobile|cell|fax|call|sms|whatsapp|contact)|phone|mobile/i;

/**
 * Ids, trace ids and timestamps that PII rules must never eat (issue #18: `@card` cut request
 * ids and broke their correlation). Every PII rule carries these as near-misses.
 */
export const ID_LOOKALIKES = [
  'X-Request-ID: 4111111111111111a3ce929d0e0e4736',
  'request_id=0af7651916cd43dd8448eb211c80319c',
  'id=req_4111111111111111 done',
  'traceparent: 00-4111111111111111a3ce929d0e0e4736-00f067aa0ba902b7-01',
  'traceparent: 00-41111111111111114111111111111111-5500000000000004-01',
  'trace_id=4bf92f3577b34da6a3ce929d0e0e4736 span_id=00f067aa0ba902b7',
  'corr f790ede9-8a4a-4913-849e-bc32ee245fe4 ok',
  'uuid 41111111-1111-4111-8111-111111111111',
  'at 2026-03-14T09:26:10.123+01:00 and 2026-03-14 09:26:10,101',
  '[14/Mar/2026:09:26:10 +0000] msec=1795942947.466',
  'epoch_ms=1718000000000 ts=20260314092610',
  'commit 4111111111111111111111111111111111111111',
  'pi_3MtwBwLkdIwHu7ix28a3tqPa charged',
];

/**
 * The pseudonym of a host named by a key (`"upstream_addr": "orders_mcp_backend:8080"`), the port
 * kept; null for loopback, public hosts, IPs (the IP rules take them), URLs and non-names.
 */
export function hostValue(key: Uint8Array, v: string): string | null {
  const m = /^(?<h>[A-Za-z][A-Za-z0-9\-_]{0,62}(?:\.[A-Za-z0-9\-_]{1,63}){0,10})(?<port>:\d{1,5})?$/.exec(v);
  if (!m) return null;
  const h = m.groups!.h!;
  if (isPublicHost(h) || /^(?:host|ip|user|email|sess|h|req)[-_][a-z2-7]{10,16}$/.test(h) || /^(?:unix|none|null|unknown|localhost|default)$/i.test(h)) return null;
  return pseudonym(key, 'host', h.toLowerCase()) + (m.groups!.port ?? '');
}

export const PII_RULES: PatternRule[] = [
  gated({
    id: '@email',
    tier: 'exit',
    kind: 'free-text',
    description: 'e-mail addresses (also %40 and +tags) → keyed pseudonym email_…',
    keywords: ['@', '%40'],
    pattern: /(?<![A-Za-z0-9._%+-])(?<v>[A-Za-z0-9._%+-]{1,64}(?:@|%40)[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,8})/dg,
    secretKind: 'pii',
    validate: (v) => {
      const at = v.includes('@') ? v.indexOf('@') : v.indexOf('%40');
      const local = v.slice(0, at);
      const tld = v.slice(v.lastIndexOf('.') + 1);
      return local !== 'git' && /^[A-Za-z]{2,24}$/.test(tld);
    },
    replace: (v, ctx) => pseudonym(ctx.key, 'email', v.replace('%40', '@').toLowerCase()),
    tps: ['user alice.smith+mcp@acme-corp.internal logged in', 'email=bob%40fakecorp.test'],
    fps: ['@modelcontextprotocol/sdk@1.32.2', 'mcp-remote@0.1.18', 'ssh://git@github.com/x', ...ID_LOOKALIKES],
  }),
  gated({
    id: '@ip',
    tier: 'exit',
    kind: 'free-text',
    description: 'IPv4 addresses except loopback/unspecified → ip-…',
    keywords: ['.'],
    pattern: /(?<![0-9.A-Za-z-])(?<v>(?:[0-9]{1,3}\.){3}[0-9]{1,3})(?![0-9.])/dg,
    secretKind: 'pii',
    // `Version=4.0.1.0` (.NET assembly names), `"version": "10.0.19041.1"`: four numbers after a version key are a version
    validate: (v, m, ctx) => isIPv4(v) && !keepIp(v) && !VERSION_KEY_BEFORE.test(ctx.line.slice(Math.max(0, m.index - 24), m.index)),
    replace: (v, ctx) => pseudonym(ctx.key, 'ip', v),
    tps: ['10.42.7.19 - - [01/Jan/2026:00:00:00 +0000] "POST /mcp HTTP/1.1" 200', 'connect to 203.0.113.57:443 failed'],
    fps: [
      '127.0.0.1 - - "GET /mcp"',
      'Python/3.11.4',
      'v1.2.3.4',
      "Could not load file or assembly 'System.Memory, Version=4.0.1.2, Culture=neutral'",
      '"fileVersion": "10.0.19041.1"',
      'listening on 0.0.0.0:8000',
      ...ID_LOOKALIKES,
    ],
  }),
  gated({
    id: '@ipv6',
    tier: 'exit',
    kind: 'free-text',
    description: 'IPv6 addresses except ::1 and :: → ip-…',
    keywords: [':'],
    pattern: /(?<![0-9A-Fa-f:.])(?<v>[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7})(?![0-9A-Fa-f:])/dg,
    secretKind: 'pii',
    validate: (v) => ipv6Shaped(v) && isIPv6(v) && !keepIp(v) && /[0-9a-f]{2}/i.test(v),
    replace: (v, ctx) => pseudonym(ctx.key, 'ip', v.toLowerCase()),
    tps: ['client [2001:db8:85a3::8a2e:370:7334]:51234 connected', 'from fe80::1ff:fe23:4567:890a'],
    fps: ['[::1]:8000', 'at 12:30:45', 'ts=2026-01-01T10:20:30.123Z', ...ID_LOOKALIKES],
  }),
  {
    id: '@mac',
    tier: 'exit',
    kind: 'free-text',
    description: 'MAC addresses',
    keywords: [':', '-'],
    pattern: /(?<![0-9A-Fa-f:-])(?<v>[0-9A-Fa-f]{2}(?:[:-][0-9A-Fa-f]{2}){5})(?![0-9A-Fa-f:-])/dg,
    secretKind: 'pii',
    tps: ['hwaddr 3c:22:fb:0a:1b:2c'],
    fps: ['at 12:30:45', '2026-01-01', ...ID_LOOKALIKES],
  },
  gated({
    id: '@card',
    tier: 'exit',
    minLength: 13,
    kind: 'free-text',
    description:
      'payment card numbers: Luhn-valid with a card IIN, and either grouped (4-4-4-4, 4-6-5, one separator) or bare after a card word/key; never a run inside a longer id, hex or timestamp',
    // Left: not after an id character or a separator that joins ids (`req_`, `00-`, `v1.`); right: not before one.
    pattern:
      /(?<![A-Za-z0-9_\-./+])(?<v>[2-6][0-9]{3}(?<sep>[ -])[0-9]{4}\k<sep>[0-9]{4}\k<sep>[0-9]{1,7}|3[47][0-9]{2}(?<asep>[ -])[0-9]{6}\k<asep>[0-9]{5}|[2-6][0-9]{12,18})(?![A-Za-z0-9_-]|\.[0-9])/dg,
    secretKind: 'pii',
    validate: (v, m, ctx) => {
      const d = v.replace(/[ -]/g, '');
      if (d.length < 13 || d.length > 19 || !/^(?:4|5[1-5]|2[2-7]|3[47]|6011|65)/.test(d) || !luhn(d)) return false;
      if (v.length !== d.length) return true; // grouped like a card
      // Bare digits are a timestamp, a count or an id unless a card word or key says otherwise.
      return CARD_CONTEXT.test(ctx.keyHint ?? '') || CARD_CONTEXT.test(ctx.line.slice(Math.max(0, m.index - 32), m.index));
    },
    tps: ['card=4111 1111 1111 1111', 'pan 5500-0000-0000-0004', 'amex 3782 822463 10005', '{"card_number": "4111111111111111"}', 'charged credit card 5500000000000004 ok'],
    fps: ['ts=1718000000000', 'id 4111111111111112', 'total 4111111111111111 bytes', ...ID_LOOKALIKES],
  }),
  gated({
    id: '@phone',
    tier: 'exit',
    minLength: 9,
    kind: 'free-text',
    description:
      'phone numbers: E.164 (+ and 8–15 digits, separators allowed) anywhere; national forms ((415) 555-0199, 020 7946 0958) after a phone word or key; never inside ids or timestamps',
    keywords: ['+', 'phone', 'tel', 'mobile', 'cell', 'fax', 'call', 'sms', 'whatsapp', 'contact', '('],
    // Digit groups are separated or parenthesised, so a run splits one way only (bounded backtracking).
    pattern:
      /(?<![A-Za-z0-9_\-./+])(?<v>\+[1-9][0-9]{6,14}|\+[1-9][0-9]{0,3}(?:[ .-]?\([0-9]{1,4}\)[0-9]{0,5}|[ .-][0-9]{1,8}){1,6}|\([0-9]{2,4}\) ?[0-9]{3,4}[ .-][0-9]{3,4}|0[0-9]{1,4}(?:[ .-][0-9]{2,4}){2,4}|[0-9]{3}[ .-][0-9]{3}[ .-][0-9]{4})(?![A-Za-z0-9_\-:+]|[.,][0-9])/dg,
    secretKind: 'pii',
    validate: (v, m, ctx) => {
      const digits = v.replace(/[^0-9]/g, '').length;
      if (v.startsWith('+')) {
        // `+0100`, `+00:00` are offsets, not numbers; an E.164 number has 8–15 digits.
        return digits >= 8 && digits <= 15 && !/^\+[0-9]{2}:[0-9]{2}$/.test(v);
      }
      if (digits < 9 || digits > 12) return false;
      if (v.startsWith('(')) return true;
      return PHONE_CONTEXT.test(ctx.keyHint ?? '') || PHONE_CONTEXT.test(ctx.line.slice(Math.max(0, m.index - 32), m.index));
    },
    tps: ['call me at +1 415 555 0123', 'contact +14155550123', '{"phone": "+33 1 42 68 53 00"}', 'phone: 020 7946 0958', 'or (415) 555-0199 after 5pm', 'tel 415-555-0123'],
    fps: ['ts=2026-03-14T09:26:10.123+01:00', 'offset +0100', 'took 415-555-0123ms', 'build 2026.03.14', 'range 100-200-3000', 'pid 4155550123', ...ID_LOOKALIKES],
  }),
  gated({
    id: '@iban',
    tier: 'exit',
    kind: 'free-text',
    description: 'IBAN (mod-97)',
    pattern: /(?<![A-Z0-9])(?<v>[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?)(?![A-Z0-9])/dg,
    secretKind: 'pii',
    validate: ibanOk,
    tps: ['iban DE89 3704 0044 0532 0130 00', 'GB82WEST12345698765432'],
    fps: ['DE12 not an iban', 'HTTP2 STREAM', ...ID_LOOKALIKES],
  }),
  gated({
    id: '@user-path',
    tier: 'exit',
    kind: 'free-text',
    description: 'the user name in home paths (/home/X, /Users/X, C:\\Users\\X, /mnt/c/Users/X) → user-…',
    keywords: ['/home/', 'users'],
    pattern: /(?:\/home\/|\/Users\/|[A-Za-z]:\\{1,4}[Uu]sers\\{1,4}|[A-Za-z]:\/[Uu]sers\/)(?<v>[A-Za-z0-9._$-]{1,64})/dg,
    secretKind: 'pii',
    validate: (v) => !/^(?:runner|root|node|app|shared|public|default|user|username|\$user|\.\.\.|<user>)$/i.test(v) && !v.startsWith('user-'),
    replace: (v, ctx) => pseudonym(ctx.key, 'user', v),
    tps: ['File "/home/alice/proj/server.py", line 10', 'C:\\\\Users\\\\Bob\\\\AppData\\\\Roaming', '~/Library at /Users/carol/Library/Logs/Claude/mcp.log'],
    fps: ['/home/runner/work/x', '/api/users/list'],
  }),
  {
    id: '@remote-user',
    tier: 'exit',
    kind: 'free-text',
    description: 'nginx $remote_user in access lines',
    pattern: /^(?:[0-9A-Za-z.:-]{3,64}) - (?<v>[^\s[\]-][^\s[\]]{0,63}) \[/dg,
    secretKind: 'pii',
    validate: (v) => !v.startsWith('ip-') && !v.startsWith('user-'),
    replace: (v, ctx) => pseudonym(ctx.key, 'user', v),
    tps: ['10.0.0.1 - dave [01/Jan/2026:00:00:00 +0000] "GET / HTTP/1.1" 200 1'],
    fps: ['127.0.0.1 - - [01/Jan/2026:00:00:00 +0000] "GET / HTTP/1.1" 200 1'],
  },
  gated({
    id: '@host',
    tier: 'exit',
    kind: 'free-text',
    description: 'host names in URLs and Host/:authority/server_name/upstream positions, except loopback and public SaaS hosts → host-… (path kept)',
    keywords: ['://', 'host', 'authority', 'server', 'upstream', 'backend'],
    pattern:
      /(?:[A-Za-z][A-Za-z0-9+.-]{0,20}:\/\/(?:[^\s/@"'<>]{1,256}@)?|(?<![A-Za-z0-9_-])(?:host|hostname|x-forwarded-host|x-forwarded-server|x-original-host|:authority|server_name|server|upstream|upstream_host|upstream_cluster|backend|backend_host|target_host|proxy_host|db_host|database_host|redis_host|smtp_host)["']?[ \t]{0,4}[:=][ \t]{0,4}["']?)(?<v>[A-Za-z0-9\-_]{1,63}(?:\.[A-Za-z0-9\-_]{1,63}){0,10})/dgi,
    secretKind: 'pii',
    // (A key's value that is a URL is the URL branch's: `upstream: "http://…"` names no host `http`.)
    // Only network schemes name a host: an MCP resource URI (`notes://customer/1240`) does not.
    validate: (v, m, ctx) =>
      (!m[0].includes('://') || NETWORK_SCHEMES.test(m[0].slice(0, m[0].indexOf('://')).replace(/^.*[^A-Za-z0-9+.:-]/, ''))) &&
      !(/^server/i.test(m[0]) && !v.includes('.')) &&
      !(!m[0].includes('://') && ctx.line.startsWith('://', m.index + m[0].length)) &&
      !isPublicHost(v) &&
      !isIPv4(v) &&
      /[A-Za-z]/.test(v) &&
      !/^(?:host|ip|user|email|sess|h)[-_][a-z2-7]{10,16}$/.test(v) &&
      !/^\[?REDACTED/.test(v),
    replace: (v, ctx) => pseudonym(ctx.key, 'host', v.toLowerCase()),
    tps: [
      'POST https://mcp.acme-corp.internal/mcp HTTP/1.1',
      'Host: mcp.acme-corp.internal',
      'upstream: "http://mcp-backend:8080/mcp"',
      'Host: mcp-gateway',
      'upstream_cluster=orders-v2',
      'db_host: pg-primary-3',
    ],
    fps: [
      'GET http://127.0.0.1:8000/mcp',
      'https://api.github.com/repos',
      'http://localhost:3000/sse',
      'Server: nginx/1.25.3',
      'resources/read uri=notes://customer/1240',
      'ui://widget/orders',
      ...ID_LOOKALIKES,
    ],
  }),
  gated({
    id: '@internal-host',
    tier: 'exit',
    minLength: 7,
    kind: 'free-text',
    description:
      'host names under a private DNS suffix anywhere in a line (.internal, .local, .svc.cluster.local, .corp, .lan, .home.arpa, .consul …) → host-…; public SDK/doc hosts and loopback are kept',
    keywords: PRIVATE_SUFFIXES.map((x) => '.' + x.split('.').pop()),
    pattern: new RegExp(
      String.raw`(?<![A-Za-z0-9_\-./\\])(?<v>[A-Za-z0-9][A-Za-z0-9\-_]{0,62}(?:\.[A-Za-z0-9\-_]{1,63}){0,10}\.(?:${PRIVATE_SUFFIXES.map((x) => x.replace('.', '\\.')).join('|')}))(?![A-Za-z0-9\-_]|\.[A-Za-z0-9])`,
      'dgi',
    ),
    secretKind: 'pii',
    validate: (v) => isPrivateHostName(v) && !/^(?:host|ip|user|email|sess|h|req)[-_][a-z2-7]{10,16}\./.test(v),
    replace: (v, ctx) => pseudonym(ctx.key, 'host', v.toLowerCase()),
    tps: [
      'connecting to db.corp.internal:5432',
      'resolved api.orders.svc.cluster.local to 10.0.0.3',
      'printer.local is down',
      'mDNS nas.home.arpa',
      'dial tcp: lookup vault.service.consul: no such host',
    ],
    fps: [
      'loaded .env.local',
      'settings.local.json',
      'see https://modelcontextprotocol.io/docs',
      'GET http://localhost:3000/mcp',
      'internal error',
      'a.local_var = 1',
      ...ID_LOOKALIKES,
    ],
  }),
  gated({
    id: '@upstream-name',
    tier: 'exit',
    minLength: 12,
    kind: 'free-text',
    description:
      'an upstream/backend/cluster name in proxy prose (proxying to upstream orders_backend, backend mcp-pool/srv2): an identifier with _ - or a digit, never an English word → host-…',
    keywords: ['upstream', 'backend', 'cluster'],
    pattern: /\b(?:upstream|backend|cluster)[ \t]{1,4}["']?(?<v>[A-Za-z][A-Za-z0-9]{0,40}[_\-0-9][A-Za-z0-9_\-.]{0,80})/dgi,
    secretKind: 'pii',
    validate: (v, m, ctx) =>
      !ctx.line.startsWith('://', m.index + m[0].length) &&
      !isPublicHost(v) &&
      !/^(?:host|ip|user|email|sess|h|req)-[a-z2-7]{10,16}$/.test(v) &&
      !/^(?:v?[0-9.]+|http[0-9.]*|h2c?|tcp|udp)$/i.test(v),
    replace: (v, ctx) => pseudonym(ctx.key, 'host', v.toLowerCase()),
    tps: ['proxying to upstream orders_backend', 'HAProxy backend mcp-pool/srv2 is DOWN', 'no healthy upstream in cluster outbound-8080'],
    fps: ['upstream prematurely closed connection', 'upstream timed out (110: Connection timed out)', 'backend error', 'upstream http2 settings'],
  }),
  gated({
    id: '@upstream-name:haproxy',
    tier: 'exit',
    minLength: 20,
    kind: 'free-text',
    description: "HAProxy's backend/server field (`fe_mcp~ be_mcp/mcp-orders-2 0/0/1/76/39`): the server name → host-…",
    keywords: ['/'],
    pattern: /\] [\w.-]{1,64}~? [\w.-]{1,64}\/(?<v>[A-Za-z][\w.-]{0,63}) -?\d{1,9}\/-?\d{1,9}\//dg,
    secretKind: 'pii',
    validate: (v) => !isPublicHost(v) && !/^(?:host|ip)-[a-z2-7]{10,16}$/.test(v),
    replace: (v, ctx) => pseudonym(ctx.key, 'host', v.toLowerCase()),
    tps: ['haproxy[1234]: 127.0.0.1:31154 [14/Mar/2026:10:10:03.767] fe_mcp~ be_mcp/mcp-orders-2 0/0/1/76/39 200 3281'],
    fps: ['haproxy[1234]: 127.0.0.1:31154 [14/Mar/2026:10:10:03.767] fe_mcp~ be_mcp/<NOSRV> -1/-1/-1/-1/0 503 217'],
  }),
  gated({
    id: '@upstream-name:envoy',
    tier: 'exit',
    minLength: 14,
    kind: 'free-text',
    description: 'Envoy/Istio cluster names (`outbound|8080||ext-authz-opa`): the service name → host-…',
    keywords: ['bound|'],
    pattern: /\b(?:outbound|inbound)\|\d{1,5}\|[\w.-]{0,64}\|(?<v>[A-Za-z][\w.-]{0,252})/dg,
    secretKind: 'pii',
    validate: (v) => !isPublicHost(v) && !/^(?:host|ip)-[a-z2-7]{10,16}$/.test(v),
    replace: (v, ctx) => pseudonym(ctx.key, 'host', v.toLowerCase()),
    tps: ['"mcp.orders.internal" "-" outbound|8080||ext-authz-opa ext_authz_denied'],
    fps: ['outbound|8080||host-abcdefghij ok'],
  }),
  gated({
    id: '@opaque',
    tier: 'ingest',
    kind: 'entropy',
    description:
      'keyword-less high-entropy base64/base64url strings (≥32 chars, mixed case and digits) → keyed pseudonym h-…; request/trace ids, commit SHAs, JSON-RPC ids and hex are exempt',
    pattern: new RegExp(LB.replace('_\\-', '_\\-+/=') + String.raw`(?<v>[A-Za-z0-9+\/_\-]{32,4096}={0,2})`, 'gd'),
    secretKind: 'opaque',
    minLength: 32,
    validate: (v, m, ctx) => {
      // (All checks are pure, so the cheap mixed-case count goes first: hex request ids fail it.)
      if (!mixed3(v)) return false;
      if (ctx.keyHint && EXEMPT_KEYS.test(ctx.keyHint)) return false;
      if (EXEMPT_BEFORE.test(ctx.line.slice(Math.max(0, m.index - 64), m.index))) return false;
      const segs = v.split('/');
      if (segs.length >= 3 && v.length / segs.length < 10) return false; // a path, not base64
      if (v.includes('-') && v.split('-').every((s) => /^[A-Za-z]*[0-9]*$/.test(s))) return false; // kebab words
      return shannon(v) >= 3.5;
    },
    replace: (v, ctx) => pseudonym(ctx.key, 'opaque', v),
    tps: ['upstream said Zk3QmL9xR2vT8bN5cW1yH7pJ4sD6fG0a ok', 'X-Custom: Qm9yZW0gaXBzdW0gZG9sb3Igc2l0IGFtZXQsIGNvbnNlY3RldHVy'],
    fps: [
      'X-Request-ID: 7f3a9c1e2b4d4e8f9a0b1c2d3e4f5a6b',
      'traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      'mcp-server v1.4.2 (commit 3f9ab12c4d5e6f708192a3b4c5d6e7f8091a2b3c)',
      'site-packages/mcp/client/streamable_http.py',
      '{"jsonrpc":"2.0","id":"Zk3QmL9xR2vT8bN5cW1yH7pJ4sD6fG0a","result":{}}',
    ],
  }),
];
