// corpus2 core: the kinds (from BRIEF.md), a seeded PRNG, fake values in real formats, and the
// marker mechanism that records on which line of which file each planted value landed.
//
// Nothing here knows how the redactor works: it was written from BRIEF.md alone.

export type Group = 'auth' | 'vendor' | 'password' | 'session' | 'network' | 'pii' | 'business';

/** The kinds of BRIEF.md, in its order. */
export const KINDS: ReadonlyArray<{ id: string; group: Group }> = [
  // auth material
  ...[
    'bearer-token',
    'bearer-token-odd-spelling',
    'basic-auth',
    'proxy-authorization',
    'cookie',
    'set-cookie',
    'api-key-header',
    'api-key-query',
    'api-key-env',
    'generic-secret-kv',
    'oauth-code',
    'oauth-code-verifier',
    'oauth-access-token',
    'oauth-refresh-token',
    'oauth-client-secret',
    'jwt',
    'jwt-wrapped',
    'jwt-base64',
    'pem-private-key',
    'pem-private-key-escaped',
    'private-key-id',
    'signed-url-signature',
    'webhook-path-token',
    'base64-encoded-secret',
    'docker-registry-auth',
    'unknown-vendor-token',
  ].map((id) => ({ id, group: 'auth' as const })),
  ...[
    'openai-key',
    'openai-key-legacy',
    'anthropic-key',
    'github-pat-classic',
    'github-pat-fine-grained',
    'github-app-token',
    'slack-token',
    'slack-webhook',
    'aws-access-key-id',
    'aws-secret-access-key',
    'aws-session-token',
    'google-api-key',
    'google-oauth-token',
    'stripe-key',
    'stripe-webhook-secret',
    'gitlab-token',
    'huggingface-token',
    'npm-token',
    'sendgrid-key',
    'digitalocean-token',
    'pypi-token',
    'azure-storage-key',
    'azure-client-secret',
  ].map((id) => ({ id, group: 'vendor' as const })),
  ...['url-userinfo-password', 'dsn-password-sql', 'dsn-password-other', 'password-kv', 'password-json', 'password-tuple', 'password-cli'].map((id) => ({
    id,
    group: 'password' as const,
  })),
  ...['session-id-header', 'session-id-query', 'session-id-json', 'session-id-text', 'session-id-masked', 'session-id-other-format'].map((id) => ({
    id,
    group: 'session' as const,
  })),
  ...['internal-hostname', 'k8s-service-hostname', 'upstream-name', 'private-ipv4', 'public-ipv4', 'ipv6-address', 'mac-address', 'x-request-id'].map((id) => ({
    id,
    group: 'network' as const,
  })),
  ...[
    'email',
    'email-encoded',
    'phone-e164',
    'phone-national',
    'postal-address',
    'person-name',
    'person-name-non-latin',
    'credit-card',
    'iban',
    'ssn',
    'home-path-username',
    'windows-path-username',
    'account-name',
    'cloud-account-id',
  ].map((id) => ({ id, group: 'pii' as const })),
  ...[
    'tool-args-json',
    'tool-args-python-repr',
    'tool-args-free-text',
    'tool-args-non-english',
    'tool-result-text',
    'tool-structured-content',
    'resource-contents',
    'prompt-arguments',
    'sampling-elicitation',
    'sse-data-payload',
    'escaped-json-payload',
    'kv-sku',
    'kv-order',
    'kv-customer',
    'kv-amount',
  ].map((id) => ({ id, group: 'business' as const })),
];
export type Kind = string;
const KIND_IDS = new Set(KINDS.map((k) => k.id));

/**
 * Kinds issue #18 asks to remove but redaction.md §8 deliberately keeps (request ids correlate
 * proxy and server lines). Measured and shown, but apart from the headline recall.
 */
export const DISPUTED: ReadonlySet<string> = new Set(['x-request-id']);

// ---------------------------------------------------------------------------------------------
// PRNG (mulberry32) and fake values

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const HEX = '0123456789abcdef';
const B64 = ALNUM + '+/';
const B64URL = ALNUM + '-_';
const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export class R {
  private a: number;
  constructor(seed: number) {
    this.a = seed >>> 0;
  }
  next(): number {
    this.a = (this.a + 0x6d2b79f5) | 0;
    let t = Math.imul(this.a ^ (this.a >>> 15), 1 | this.a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)]!;
  }
  /** n distinct picks, in order of drawing */
  take<T>(xs: readonly T[], n: number): T[] {
    const pool = [...xs];
    const out: T[] = [];
    while (out.length < n && pool.length) out.push(pool.splice(Math.floor(this.next() * pool.length), 1)[0]!);
    return out;
  }
  str(n: number, cs: string): string {
    let s = '';
    for (let i = 0; i < n; i++) s += cs[Math.floor(this.next() * cs.length)];
    return s;
  }
  hex(n: number) {
    return this.str(n, HEX);
  }
  HEX(n: number) {
    return this.str(n, HEX.toUpperCase());
  }
  alnum(n: number) {
    return this.str(n, ALNUM);
  }
  lower(n: number) {
    return this.str(n, LOWER);
  }
  upper(n: number) {
    return this.str(n, UPPER);
  }
  upperAlnum(n: number) {
    return this.str(n, UPPER + DIGITS);
  }
  lowerAlnum(n: number) {
    return this.str(n, LOWER + DIGITS);
  }
  digits(n: number) {
    return this.str(1, '123456789') + this.str(n - 1, DIGITS);
  }
  b64(n: number) {
    return this.str(n, B64);
  }
  b64url(n: number) {
    return this.str(n, B64URL);
  }
  b32(n: number) {
    return this.str(n, B32);
  }
  uuid(): string {
    const h = this.hex(32).split('');
    h[12] = '4';
    h[16] = this.pick(['8', '9', 'a', 'b']);
    const s = h.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
  ulid(): string {
    return '01J' + this.str(23, '0123456789ABCDEFGHJKMNPQRSTVWXYZ');
  }
}

export const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
export const b64url = (s: string | Buffer) => Buffer.from(s).toString('base64url');

/** Luhn-complete a digit string (the check digit is appended). */
export function luhn(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return body + String((10 - (sum % 10)) % 10);
}
export function luhnValid(digits: string): boolean {
  const d = digits.replace(/\D/g, '');
  return luhn(d.slice(0, -1)) === d;
}

function mod97(numeric: string): number {
  let rem = 0;
  for (const ch of numeric) rem = (rem * 10 + Number(ch)) % 97;
  return rem;
}
const ibanNumeric = (s: string) => s.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
export function iban(country: string, bban: string): string {
  const check = 98 - mod97(ibanNumeric(bban + country + '00'));
  return country + String(check).padStart(2, '0') + bban;
}
export function ibanValid(s: string): boolean {
  const t = s.replace(/\s/g, '');
  return mod97(ibanNumeric(t.slice(4) + t.slice(0, 4))) === 1;
}
export const group4 = (s: string) => s.replace(/(.{4})(?=.)/g, '$1 ');

/** Fake values in real vendor formats: random from the seed, never real credentials. */
export function fakes(r: R) {
  const jwt = (claims: Record<string, unknown>, alg: 'RS256' | 'ES256' | 'HS256' = 'RS256') => {
    const h = b64url(JSON.stringify({ alg, typ: 'JWT', kid: r.hex(16) }));
    const p = b64url(JSON.stringify(claims));
    return `${h}.${p}.${r.b64url(alg === 'RS256' ? 342 : alg === 'ES256' ? 86 : 43)}`;
  };
  const now = 1773479000;
  return {
    jwt,
    idToken: (email: string) =>
      jwt({ iss: 'https://login.acme-idp.example/', sub: r.uuid(), aud: 'mcp-remote-' + r.hex(6), email, iat: now, exp: now + 3600, nonce: r.b64url(16) }),
    accessJwt: () =>
      jwt(
        { iss: 'https://auth.orders.example/', sub: r.uuid(), aud: 'orders-mcp', scope: 'mcp:tools mcp:resources', iat: now, exp: now + 900, jti: r.uuid() },
        r.pick(['RS256', 'ES256'] as const),
      ),
    k8sSaToken: () =>
      jwt({
        aud: ['https://kubernetes.default.svc.cluster.local'],
        exp: now + 3607,
        iat: now,
        iss: 'https://kubernetes.default.svc.cluster.local',
        'kubernetes.io': { namespace: 'tools', pod: { name: 'orders-mcp-7d9f8c6b5-' + r.lowerAlnum(5), uid: r.uuid() }, serviceaccount: { name: 'orders-mcp', uid: r.uuid() } },
        sub: 'system:serviceaccount:tools:orders-mcp',
      }),
    opaque: (n = 43) => r.b64url(n),
    bearerOpaque: () => r.alnum(8) + '.' + r.b64url(30) + r.pick(['', '-', '~']) + r.alnum(6),
    openai: () => `sk-proj-${r.b64url(74)}T3BlbkFJ${r.b64url(74)}`,
    openaiSvc: () => `sk-svcacct-${r.b64url(74)}T3BlbkFJ${r.b64url(74)}`,
    openaiLegacy: () => `sk-${r.alnum(20)}T3BlbkFJ${r.alnum(20)}`,
    anthropic: () => `sk-ant-api03-${r.b64url(93)}AA`,
    anthropicAdmin: () => `sk-ant-admin01-${r.b64url(93)}AA`,
    ghp: () => `ghp_${r.alnum(36)}`,
    githubPat: () => `github_pat_11${r.upperAlnum(20)}_${r.alnum(59)}`,
    ghApp: (p: 'gho' | 'ghs' | 'ghu' | 'ghr') => `${p}_${r.alnum(36)}`,
    xoxb: () => `xoxb-${r.digits(12)}-${r.digits(13)}-${r.alnum(24)}`,
    xoxp: () => `xoxp-${r.digits(12)}-${r.digits(12)}-${r.digits(13)}-${r.hex(32)}`,
    xapp: () => `xapp-1-A${r.upperAlnum(10)}-${r.digits(13)}-${r.hex(64)}`,
    slackHook: () => ({ team: 'T' + r.upperAlnum(10), bot: 'B' + r.upperAlnum(10), secret: r.alnum(24) }),
    akia: () => 'AKIA' + r.b32(16),
    asia: () => 'ASIA' + r.b32(16),
    awsSecret: () => r.str(40, ALNUM + '+/'),
    awsSession: () => 'IQoJb3JpZ2luX2Vj' + r.b64(340) + '==',
    awsSessionOld: () => 'FwoGZXIvYXdz' + r.b64(200),
    googleKey: () => 'AIza' + r.b64url(35),
    ya29: () => 'ya29.a0' + r.b64url(150),
    googleRefresh: () => '1//0' + r.pick(['g', 'e', 'd']) + r.b64url(96),
    stripe: (p: 'sk_live' | 'rk_live' | 'sk_test') => `${p}_51${r.alnum(22)}${r.alnum(74)}`,
    whsec: () => 'whsec_' + r.alnum(32),
    glpat: () => 'glpat-' + r.b64url(20),
    hf: () => 'hf_' + r.str(34, UPPER + LOWER),
    npm: () => 'npm_' + r.alnum(36),
    sendgrid: () => `SG.${r.b64url(22)}.${r.b64url(43)}`,
    dop: () => 'dop_v1_' + r.hex(64),
    pypi: () => 'pypi-AgEIcHlwaS5vcmc' + r.b64url(70),
    azureAccountKey: () => r.b64(86) + '==',
    azureClientSecret: () => r.alnum(3) + r.digits(1) + 'Q~' + r.str(34, ALNUM + '_~.-'),
    sigv4: () => r.hex(64),
    uuid: () => r.uuid(),
  };
}

// ---------------------------------------------------------------------------------------------
// Corpus: files written with markers; finalize() swaps markers for values and records lines.

export type Plant = { kind: Kind; file: string; line: number; value: string };
export type Keep = { file: string; line: number; value: string };
export type Manifest = {
  seed: number;
  note: string;
  files: Array<{ name: string; lines: number; crlf: boolean; layout: string }>;
  kinds: Array<{ id: string; group: Group; disputed: boolean; planted: number }>;
  planted: Plant[];
  mustKeep: Keep[];
};

/**
 * Shapes a good redactor keeps, marked automatically in every file (outside planted values):
 * timestamps in the layouts used here, the HTTP version of a request/status line, JSON-RPC methods,
 * loopback. Each occurrence is one mustKeep entry; a line must still hold as many.
 */
const AUTO_KEEP: RegExp[] = [
  /\b\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d{3,9})?Z?/g, // ISO, Python logging, Java
  /\b\d\d\/[A-Z][a-z]{2}\/\d{4}:\d\d:\d\d:\d\d(?:\.\d{3})?(?: \+0000)?/g, // CLF, HAProxy
  /\b\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d\b/g, // nginx error log, Go log
  /\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d\d:\d\d:\d\d\b/g, // syslog
  /\bHTTP\/(?:1\.[01]|2)\b/g,
  /\b(?:tools\/call|tools\/list|notifications\/initialized|resources\/read|prompts\/get|elicitation\/create|sampling\/createMessage)\b/g,
  /\blocalhost\b|\b127\.0\.0\.1\b/g,
];

const OPEN = '\u27e6';
const CLOSE = '\u27e7';
const MARK = new RegExp(`${OPEN}([SK])(\\d+)${CLOSE}`, 'g');

export class Corpus {
  private marks: Array<{ t: 'S'; kind: Kind; value: string } | { t: 'K'; value: string }> = [];
  readonly files: Array<{ name: string; content: string; lines: number; crlf: boolean; layout: string }> = [];
  readonly planted: Plant[] = [];
  readonly mustKeep: Keep[] = [];

  /** A planted secret: returns a marker to write where the value goes. */
  s = (kind: Kind, value: string): string => {
    if (!KIND_IDS.has(kind)) throw new Error(`unknown kind ${kind}`);
    // 5 characters at least: a shorter value would be found by chance in a redacted line
    if (value.length < 5 || /[\r\n]/.test(value) || value.includes(OPEN)) throw new Error(`bad value for ${kind}: ${JSON.stringify(value)}`);
    this.marks.push({ t: 'S', kind, value });
    return `${OPEN}S${this.marks.length - 1}${CLOSE}`;
  };
  /** A value a good redactor must keep. */
  k = (value: string): string => {
    if (!value || /[\r\n]/.test(value)) throw new Error(`bad keep ${JSON.stringify(value)}`);
    this.marks.push({ t: 'K', value });
    return `${OPEN}K${this.marks.length - 1}${CLOSE}`;
  };

  file(name: string, layout: string, text: string | string[], opts: { crlf?: boolean } = {}): void {
    if (this.files.some((f) => f.name === name)) throw new Error(`duplicate file ${name}`);
    let src = Array.isArray(text) ? text.join('\n') : text;
    if (!src.endsWith('\n')) src += '\n';
    let out = '';
    let line = 1;
    let lineStart = 0; // offset in `out` where the current line starts
    let last = 0;
    const seen = new Map<string, Kind>();
    const spans: Array<{ line: number; from: number; to: number; value: string }> = [];
    const keepSpans: Array<{ line: number; from: number; to: number }> = [];
    for (const m of src.matchAll(MARK)) {
      const before = src.slice(last, m.index);
      for (let i = 0; i < before.length; i++)
        if (before[i] === '\n') {
          line++;
          lineStart = out.length + i + 1;
        }
      out += before;
      const mark = this.marks[Number(m[2])]!;
      const col = out.length - lineStart;
      out += mark.value;
      if (mark.t === 'S') {
        spans.push({ line, from: col, to: col + mark.value.length, value: mark.value });
        const key = `${line}\u0000${mark.value}`;
        const prev = seen.get(key);
        if (prev !== undefined && prev !== mark.kind) throw new Error(`${name}:${line} ${mark.value} planted as ${prev} and ${mark.kind}`);
        if (prev === undefined) this.planted.push({ kind: mark.kind, file: name, line, value: mark.value });
        seen.set(key, mark.kind);
      } else {
        keepSpans.push({ line, from: col, to: col + mark.value.length });
        this.mustKeep.push({ file: name, line, value: mark.value });
      }
      last = m.index! + m[0].length;
    }
    out += src.slice(last);
    if (out.includes(OPEN) || out.includes(CLOSE)) throw new Error(`${name}: a marker was mangled`);
    // A planted value must not also stand in its line's ordinary text: it would count as leaked by chance.
    const outLines = out.split('\n');
    for (const ln of new Set(spans.map((x) => x.line))) {
      const mine = spans.filter((x) => x.line === ln);
      const chars = [...outLines[ln - 1]!.split('')];
      for (const sp of mine) for (let i = sp.from; i < sp.to; i++) chars[i] = '\u0000';
      const rest = chars.join('');
      for (const sp of mine) if (rest.includes(sp.value)) throw new Error(`${name}:${ln}: planted ${sp.value} also occurs unplanted on its line`);
    }
    // Must-keep shapes marked wherever they stand outside planted (and hand-marked) spans.
    for (let i = 0; i < outLines.length - 1; i++) {
      const taken = [...spans, ...keepSpans].filter((x) => x.line === i + 1);
      for (const re of AUTO_KEEP) {
        for (const m of outLines[i]!.matchAll(re)) {
          const from = m.index!;
          const to = from + m[0].length;
          if (taken.some((x) => x.from < to && from < x.to)) continue;
          this.mustKeep.push({ file: name, line: i + 1, value: m[0] });
          taken.push({ line: i + 1, from, to });
        }
      }
    }
    const lines = outLines.length - 1;
    if (opts.crlf) out = out.replace(/\n/g, '\r\n');
    this.files.push({ name, content: out, lines, crlf: !!opts.crlf, layout });
  }

  manifest(seed: number, note: string): Manifest {
    const byKind = new Map<string, number>();
    for (const p of this.planted) byKind.set(p.kind, (byKind.get(p.kind) ?? 0) + 1);
    return {
      seed,
      note,
      files: this.files.map((f) => ({ name: f.name, lines: f.lines, crlf: f.crlf, layout: f.layout })),
      kinds: KINDS.map((k) => ({ ...k, disputed: DISPUTED.has(k.id), planted: byKind.get(k.id) ?? 0 })),
      planted: this.planted,
      mustKeep: this.mustKeep,
    };
  }
}
