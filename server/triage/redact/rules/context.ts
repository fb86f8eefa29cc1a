// Context rules: a value is secret because of the name in front of it (header, key, query
// parameter, env variable) or the auth scheme before it (redaction.md §3 kinds 1, 2, 6, 8).
// All the key/value rows share one scanner (KV) and differ in which key class they own
// (rules/keys.ts), so a JSON key, a `k=v`, a `Name: value` header and a query parameter
// are judged by the same table.
import type { PatternRule, RuleContext } from '../types.ts';
import { placeholder } from '../types.ts';
import { classifyKey, isInert, isUserKey, normaliseKey, OAUTH_CONTEXT, passwordLike, type KeyClass } from './keys.ts';
import { pseudonym } from '../pseudonym.ts';
import { inertRanges } from '../vocabulary.ts';
import { isPrivateHostName } from './hosts.ts';

// key, optional quote(s) around it (JSON escaped up to 3 levels: \\\"), an operator, an
// optional opening quote, then the value up to the next quote/backslash/newline.
const KV = String.raw`(?<=(?<pre>^|[^A-Za-z0-9_.\-]))(?<k>[A-Za-z_][A-Za-z0-9_.\-]{0,63})(?<q>\\{0,7}["']|)[ \t]{0,8}(?<op>=>|:=|[:=])[ \t]{0,8}(?<open>\\{0,7}["']|\[(?=[^\]\r\n]{1,2048}\])|)(?<v>[^\r\n"'\\]{1,2048})`;
const kvPattern = () => new RegExp(KV, 'gd');

const QUERY_PRE = new Set(['?', '&', ';', '#']);
const isQuery = (m: RegExpExecArray) => QUERY_PRE.has(m.groups!.pre ?? '');
const quoted = (m: RegExpExecArray) => (m.groups!.open ?? '') !== '' && m.groups!.open !== '[';
/** Go's `map[Authorization:[Bearer x]]` and `Cookie:[a=b]`: a value in brackets ends at `]`. */
const bracketed = (m: RegExpExecArray) => m.groups!.open === '[';
/** Length of the value: a quoted one is all of v, a bracketed one ends at `]`, a bare one at a delimiter. */
function valueLength(v: string, m: RegExpExecArray, query: boolean): number {
  if (quoted(m)) return v.length;
  if (bracketed(m)) {
    // The first `]` that is not the end of our own placeholder (`[a=[REDACTED:cookie]]`).
    const inert = inertRanges(v);
    for (let i = v.indexOf(']'); i !== -1; i = v.indexOf(']', i + 1)) if (!inert.some(([a, b]) => i >= a && i < b)) return i;
    return v.length;
  }
  return unquotedLength(v, query);
}

/** Length of an unquoted value: it ends at whitespace or a delimiter. */
function unquotedLength(v: string, query: boolean): number {
  const re = query ? /[\s&;#,<>{}()[\]|]/ : /[\s,;&<>{}()[\]|]/;
  const i = v.search(re);
  return i === -1 ? v.length : i;
}

function classOk(m: RegExpExecArray, ctx: RuleContext, classes: KeyClass[]): boolean {
  const k = m.groups!.k!;
  // `Bearer error="invalid_token"`: an auth-param after a scheme is a diagnostic, not a secret.
  const c = classifyKey(k);
  if (!c || !classes.includes(c)) return false;
  if (c === 'oauth-code' && !OAUTH_CONTEXT.test(ctx.line)) return false;
  return true;
}

function valueOk(raw: string, cls: KeyClass | null, key = ''): boolean {
  const v = raw.trim();
  if (isInert(v)) return false;
  // `connectionString=mongodb://[REDACTED:url-userinfo]@db:27017`, `DATABASE_URL=postgres://db/app`:
  // a URL's secrets are its userinfo and query, which the URL rules take; the scheme and host stay readable.
  if (/^[A-Za-z][A-Za-z0-9+.-]{1,20}:\/\//.test(v)) return false;
  // `x-tenant-ticket=…`: a ticket is a credential when it is long, a support ticket number when short.
  if (/ticket/i.test(key) && v.length < 16) return false;
  if (cls === 'oauth-code' && /^-?\d{1,6}$/.test(v)) return false;
  // max_tokens=4096 style counts; but a password is a password whatever it looks like (password=123456).
  if (cls === 'secret' && /^\d{1,10}$/.test(v) && !passwordLike(key)) return false;
  return true;
}

const AUTH_SCHEME = /^(bearer|basic|token|dpop|negotiate|ntlm|digest|aws4-hmac-sha256|mac|hoba|apikey|sso-key)(\s{1,8}|%20|\+)/i;
/** What precedes a scheme that opens an Authorization header's value: the header name, `:` or `=`, quotes. */
const AUTH_HEADER_BEFORE = /authori[sz]ation(?:[ _-]?header)?["']?[ \t]{0,4}[:=][ \t]{0,4}["']?$/i;
const MULTI_PARAM_SCHEME = /^(digest|aws4-hmac-sha256|mac|hoba)$/i;

function kvRow(
  id: string,
  kind: PatternRule['kind'],
  description: string,
  classes: KeyClass[],
  keywords: string[],
  tps: string[],
  fps: string[],
  extra: Partial<PatternRule> = {},
): PatternRule {
  return {
    id,
    kind,
    tier: 'ingest',
    description,
    keywords,
    pattern: kvPattern(),
    secretKind: 'secret',
    validate: (v, m, ctx) => classOk(m, ctx, classes) && valueOk(v.slice(0, valueLength(v, m, isQuery(m))), classifyKey(m.groups!.k!), m.groups!.k!),
    gate: (m, ctx) => classOk(m, ctx, classes),
    narrow: (v, m) => valueLength(v, m, isQuery(m)),
    tps,
    fps,
    ...extra,
  };
}

/** `'alice', 'hunter2'` of an auth tuple, in parts. */
const TUPLE = /^(?<q1>['"])(?<u>[^'"\n]{1,128})\k<q1>(?<sep>\s{0,4},\s{0,4})(?<q2>['"])(?<p>[^'"\n]{1,256})\k<q2>$/;
/** Keys whose values are business data or people wherever they appear. */
const STRONG_BUSINESS = [
  'sku',
  'order',
  'order_?id',
  'orderId',
  'order_?no',
  'order_?ref',
  'customer',
  'customer_?id',
  'customerId',
  'customer_?name',
  'client_?name',
  'amount',
  'invoice',
  'invoice_?id',
  'account_?id',
  'account_?number',
  'address',
  'addr',
  'street',
  'city',
  'zip',
  'zip_?code',
  'postcode',
  'postal_?code',
  'ship_?to',
  'bill_?to',
  'tenant',
  'recipient',
  'payee',
  'beneficiary',
  'holder',
  'account_?holder',
  'card_?holder',
  'assignee',
  'reporter',
  'consignee',
  'full_?name',
  'first_?name',
  'last_?name',
  'contact_?name',
  'display_?name',
];
/** Keys that are business data on a tool-call line, and often counters or diagnostics elsewhere. */
const WEAK_BUSINESS = ['total', 'price', 'project', 'product', 'email', 'e-mail', 'phone'];
const STRONG_RE = new RegExp(`^(?:${STRONG_BUSINESS.join('|')})$`, 'i');
/** A JSON member that is business data: a strong business key (and `order` only with a number in it). */
export function isBusinessKey(key: string, value: string): boolean {
  if (!STRONG_RE.test(key) || isInert(value) || value === '') return false;
  return !/^order$/i.test(key) || /[0-9]/.test(value);
}

/** People's names run on over blanks (`holder=Yusuf Moreau amount=…`); ids and amounts end at one. */
const PERSON_RE =
  /^(?:customer|customer_?name|client_?name|recipient|payee|beneficiary|holder|account_?holder|card_?holder|assignee|reporter|consignee|full_?name|first_?name|last_?name|contact_?name|display_?name|address|addr|street|ship_?to|bill_?to)$/i;

/** Where a business value ends: a quoted one at its quote; `k: v` (YAML) and people's names run to the next `k=` or a delimiter; else a blank. */
function businessLength(v: string, m: RegExpExecArray): number {
  if (quoted(m)) return v.length;
  if (m.groups!.op === ':' || PERSON_RE.test(m.groups!.k!)) {
    const stop = v.search(/[,;|&)\]}]|\s+[A-Za-z_][\w.-]{0,40}=|\s{2,}|$/);
    return v.slice(0, stop).replace(/\s+$/, '').length;
  }
  return v.search(/[\s,;&|)\]}]|$/);
}

const CLOUD_KEY = /^(?:azure_?)?(?:tenant_?id|subscription_?id|directory_?id)$|^aws_?account(?:_?id)?$/i;
const CLOUD_BEFORE =
  /(?:tenant[_-]?id|subscription[_-]?id|directory[_-]?id|aws[_-]?account(?:[_-]?id)?)["']?\s{0,3}[:=]\s{0,3}["']?$|arn:aws[\w-]{0,20}:[\w-]{0,40}:[\w-]{0,40}:$|login\.microsoftonline\.com\/$|\/subscriptions\/$/i;

/** A line about a tool call: its k=v business values are arguments. */
const TOOL_LINE = /tools\/call|\btool[=:]|"tool"|call_tool|\btool call|\bcalling tool|tool_name|toolName/i;
/** A line about a remote login: `user@host` there names an account. */
const SSH_LINE = /\b(?:ssh|scp|sftp|rsync|login|logged in|sudo|su|git clone|connect(?:ing|ed)? (?:to|as))\b/i;
const DB_CLIENT = /\b(?:mysql|mysqldump|mysqladmin|mariadb|psql|pg_dump|pg_restore|mongo|mongosh|redis-cli|clickhouse-client|sqlcmd)\b/;
/** Service accounts and placeholders that name no person. */
const NOT_A_USER =
  /^(?:-|none|null|nil|undefined|anonymous|anon|guest|root|admin|administrator|system|nobody|daemon|www-data|git|runner|node|app|user|users|username|default|unknown|true|false|me|self|service|svc|ubuntu|ec2-user)$/i;

/** Does this value name an account (not a placeholder, a service account or a word like "agent")? */
export function isPersonAccount(v: string): boolean {
  return (
    !isInert(v) &&
    !NOT_A_USER.test(v) &&
    !/^(?:agent|data|name|id|info|input|interface|settings|session|sessions)$/i.test(v) &&
    /^[A-Za-z0-9][A-Za-z0-9._@\\-]{0,127}$/.test(v) &&
    !/^\d{1,6}$/.test(v)
  );
}

/** A user-name rule: the `v` group is an account name, pseudonymised as `user-…` (keyed, like a home path's user). */
function userRow(
  id: string,
  description: string,
  keywords: string[],
  source: string,
  ok: (m: RegExpExecArray, ctx: RuleContext) => boolean,
  tps: string[],
  fps: string[],
): PatternRule {
  return {
    id,
    kind: 'key-name',
    // An account name is personal data: redacted at exits (at ingest with --strict).
    tier: 'exit',
    description,
    keywords,
    minLength: 4,
    pattern: new RegExp(source, 'dg'),
    secretKind: 'pii',
    validate: (v, m, ctx) => isPersonAccount(v) && ok(m, ctx),
    replace: (v, ctx) => pseudonym(ctx.key, 'user', v),
    tps,
    fps: [...fps, 'request_id=0af7651916cd43dd8448eb211c80319c', 'at 2026-03-14T09:26:10.123+01:00'],
  };
}

export const CONTEXT_RULES: PatternRule[] = [
  {
    id: '@bearer',
    tier: 'ingest',
    kind: 'free-text',
    description: 'the credential after Bearer (any case, spaces, %20, +, \\u0020); ends at the token68 charset, not at whitespace',
    keywords: ['bearer'],
    pattern: /bearer(?:[ \t]{1,8}|%20|\+|\\u0020|\\\\u0020)(?<v>[A-Za-z0-9._~+/-]{1,8192}=*)/dgi,
    secretKind: 'secret',
    validate: (v, m, ctx) => {
      // `…&token_type=bearer HTTP/1.1"`: the word ends a query, and what follows is the protocol.
      if (/^HTTP\/\d/i.test(v)) return false;
      const after = ctx.line[m.index + m[0].length];
      if (/^[A-Za-z_]{1,32}=$/.test(v) && after === '"') return false; // auth-param: Bearer error="invalid_token"
      if (/^(?:token|tokens|undefined|null|none|error|realm|scope|auth|authentication|required|missing|expired|invalid|header|scheme|prefix|type)=*$/i.test(v)) return false;
      return v.length >= 6;
    },
    tps: [
      'Authorization: Bearer abcDEF123456',
      'headers={"authorization": "bearer tok-1234567890"}',
      'authz=Bearer%20tok-1234567890',
      '\x1b[1mBearer\x1b[0m tok-1234567890'.replace('\x1b[0m', ''),
    ],
    fps: [
      'WWW-Authenticate: Bearer error="invalid_token", resource_metadata="http://127.0.0.1:3000/.well-known/oauth-protected-resource"',
      'Bearer token expired',
      '"token_type": "Bearer"',
      'GET /cb?access_token=[REDACTED:query-secret]&token_type=bearer HTTP/1.1" 200',
    ],
  },
  {
    id: '@basic-auth',
    tier: 'ingest',
    kind: 'free-text',
    description: 'Basic credentials (base64 user:pass) after the Basic scheme',
    keywords: ['basic'],
    pattern: /basic(?:[ \t]{1,8}|%20|\+)(?<v>[A-Za-z0-9+/]{8,4096}={0,2})/dgi,
    secretKind: 'secret',
    tps: ['Authorization: Basic Y2xpZW50OnNlY3JldA==', 'proxy-authorization: basic dXNlcjpwYXNzd29yZA'],
    fps: ['Basic auth failed', 'basic usage'],
  },
  {
    id: '@auth-scheme',
    tier: 'ingest',
    kind: 'header',
    description: 'other Authorization schemes (token, DPoP, Negotiate, NTLM, Digest, AWS4-HMAC-SHA256): the credential or parameter list',
    keywords: ['authorization'],
    pattern: /(?<s>token|dpop|negotiate|ntlm|digest|aws4-hmac-sha256|apikey|sso-key)(?:[ \t]{1,8}|%20|\+)(?<v>[^\r\n"'\\]{6,4096})/dgi,
    secretKind: 'secret',
    // the scheme must open the header's value (`Authorization: token …`, `"authorization": "DPoP …"`), not merely
    // follow the word: `Authorization error: Error: Token exchange failed` (typescript-sdk auth.ts) is a message
    validate: (v, m, ctx) => AUTH_HEADER_BEFORE.test(ctx.line.slice(Math.max(0, m.index - 64), m.index)) && !isInert(v),
    narrow: (v, m) => (MULTI_PARAM_SCHEME.test(m.groups!.s!) ? v.length : unquotedLength(v, false)),
    tps: [
      'Authorization: token tok_FAKE_0123456789',
      'authorization: DPoP eyFAKEproof.0123456789',
      'Authorization: Digest username="bob", response="6629fae49393a05397450978507c4ef1"',
    ],
    fps: [
      'Authorization header missing',
      'authorization: token [REDACTED:bearer]',
      'Authorization error: Error: Token exchange failed: HTTP 401',
      'authorization failed while the token refresh was pending',
    ],
  },
  kvRow(
    '@authorization',
    'header',
    'the value of Authorization / Proxy-Authorization (the scheme word is kept)',
    ['authorization'],
    ['authorization'],
    ['> Authorization: c2VjcmV0LXdpdGhvdXQtc2NoZW1l', '{"Authorization": "s3cr3t-raw-credential"}'],
    ['Authorization: Bearer [REDACTED:bearer]', 'authorization_endpoint: https://auth.example.com/authorize', "-H 'Authorization: Bearer <your-token>'"],
    {
      narrow: (v, m) => {
        if (quoted(m)) return v.length;
        if (bracketed(m)) return valueLength(v, m, false);
        const s = AUTH_SCHEME.exec(v);
        if (s && MULTI_PARAM_SCHEME.test(s[1]!)) return v.length;
        if (s) return s[0].length + unquotedLength(v.slice(s[0].length), false);
        return unquotedLength(v, false);
      },
      validate: (v, m, ctx) => {
        if (!classOk(m, ctx, ['authorization'])) return false;
        const s = AUTH_SCHEME.exec(v);
        const rest = s ? v.slice(s[0].length) : v;
        return !isInert(rest.split(/\s/)[0] ?? '');
      },
      replace: (v) => {
        const s = AUTH_SCHEME.exec(v);
        return s ? s[0] + placeholder('@authorization') : placeholder('@authorization');
      },
    },
  ),
  kvRow(
    '@cookie',
    'header',
    'Cookie / Set-Cookie values (cookie names and attributes are kept)',
    ['cookie', 'set-cookie'],
    ['cookie'],
    ['< Set-Cookie: sid=Fak3SidValue0001; Path=/; HttpOnly', 'Cookie: theme=dark; auth_session=Fak3Cookie0002', '{"cookie": "a=b1c2d3e4f5"}'],
    ['cookie_name: sid', 'Set-Cookie: [REDACTED:cookie]'],
    {
      narrow: (v, m) => (quoted(m) || bracketed(m) ? valueLength(v, m, false) : v.replace(/\s+$/, '').length),
      replace: (v) => {
        let pairs = 0;
        const out = v.replace(/(^|;\s{0,8})([^=;\s]{1,128})=([^;]{0,4096})/g, (all, sep: string, name: string, val: string, off: number) => {
          pairs++;
          if (off > 0 && /^(?:path|domain|expires|max-age|samesite|priority|partitioned)$/i.test(name)) return all;
          return isInert(val) ? all : `${sep}${name}=${placeholder('@cookie')}`;
        });
        if (pairs === 0) return isInert(v) ? null : placeholder('@cookie');
        return out === v ? null : out;
      },
    },
  ),
  kvRow(
    '@api-key',
    'header',
    'API-key headers and keys: X-Api-Key, api-key, x-goog-api-key, Ocp-Apim-Subscription-Key, Private-Token, X-Auth-Token, DPoP, X-Amz-Security-Token',
    ['api-key'],
    ['api', 'key', 'token', 'dpop'],
    ['x-api-key: kEy-0123456789abcdef', 'X-Goog-Api-Key=FAKEgoogle0123456789', "{'apiKey': 'FAKE-apikey-0001'}"],
    ['api_key_present=true', 'x-api-key: [REDACTED:api-key]'],
  ),
  kvRow(
    '@secret-key',
    'key-name',
    'values of keys naming a secret (password, secret, *token*, credential, private_key, signature, dsn, database_url…)',
    ['secret'],
    ['pass', 'pwd', 'secret', 'token', 'credential', 'private', 'signature', 'dsn', 'url', 'auth', 'sig', 'cookie', 'key', 'pw', 'event', 'ticket'],
    [
      'password=Summer2026!',
      'password=123456',
      'PGPASSWORD=letmein1',
      '"client_secret": "FAKE-client-secret-01"',
      "refresh_token='FAKE-refresh-0001'",
      '\\"access_token\\":\\"FAKE-escaped-0001\\"',
      'db.password: hunter2x',
      'last-event-id=0b8f2c1e-7d3a-4e55-9c61-2a4b6d8e0f13_1795945950421',
    ],
    [
      'error="invalid_token"',
      'invalid_token: The access token expired',
      'expired_token: device code has expired',
      'conn=up,auth=valid -> conn=down,auth=valid',
      "Could not load file or assembly 'System.Memory, Version=4.0.1.2, Culture=neutral, PublicKeyToken=cc7b13ffcd2ddd51'",
      "server 'ledgerWithAuth': Error: schema rejected",
      'token_type=Bearer',
      'max_tokens=4096',
      'token_endpoint_auth_method: none',
      'password_policy: strong',
      'access_token=[REDACTED:jwt]',
      'token-service: POST /mcp -> 401',
      'secrets-mcp: tools/call archive_tenant id=14 started',
    ],
    {
      validate: (v, m, ctx) => !isQuery(m) && classOk(m, ctx, ['secret']) && valueOk(v.slice(0, valueLength(v, m, false)), 'secret', m.groups!.k!),
      gate: (m, ctx) => !isQuery(m) && classOk(m, ctx, ['secret']),
    },
  ),
  kvRow(
    '@query-secret',
    'query-key',
    'secret query/fragment/form parameters (?access_token=, &client_secret=, ;sig=, #id_token=); & and ; both split',
    ['secret', 'api-key', 'authorization'],
    ['pass', 'pwd', 'secret', 'token', 'credential', 'private', 'signature', 'sig', 'key', 'auth'],
    ['GET /sse?access_token=FAKEtok0001&x=1', 'GET /cb;sig=FAKEsig0001;a=b', 'https://app.example/#id_token=FAKEid0001&state=x', 'a=1&amp;client_secret=FAKEsec0001'],
    ['GET /.well-known/oauth-authorization-server?resource=x', '?code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256'],
    {
      validate: (v, m, ctx) => isQuery(m) && classOk(m, ctx, ['secret', 'api-key', 'authorization']) && valueOk(v.slice(0, unquotedLength(v, true)), 'secret', m.groups!.k!),
      gate: (m, ctx) => isQuery(m) && classOk(m, ctx, ['secret', 'api-key', 'authorization']),
    },
  ),
  kvRow(
    '@oauth-code',
    'query-key',
    'OAuth authorization code and state, only on OAuth lines (/authorize, /callback, /token, grant_type, redirect_uri)',
    ['oauth-code'],
    ['code', 'state'],
    ['GET /oauth/callback?code=FAKEauthcode0001&state=FAKEstate0001 HTTP/1.1', 'grant_type=authorization_code&code=FAKEauthcode0002&redirect_uri=http://127.0.0.1:33418/callback'],
    ['{"error":{"code":-32600,"message":"Invalid Request"}}', 'state=connected', 'GET /callback?code_challenge=abc'],
  ),
  kvRow(
    '@env-secret',
    'key-name',
    'env dumps: *_KEY, *_TOKEN, *_SECRET, *_PASSWORD, *_PAT, *_DSN',
    ['env-secret'],
    ['_key', '_token', '_secret', '_password', '_pass', '_pwd', '_pat', '_dsn', '_credentials'],
    ['export STRIPE_KEY=fake_0123456789', 'MY_SERVICE_PAT="fake-pat-0123456789"'],
    ['MCP_TRIAGE_HOME=/data', 'NODE_ENV=production'],
  ),
  {
    id: '@path-token',
    tier: 'ingest',
    kind: 'free-text',
    description: 'a token used as a path segment after token-bearing routes (/reset-password/, /t/, /hooks/, /webhooks/, /invite/, /magic-link/)',
    keywords: ['/reset', '/t/', '/hooks/', '/webhooks/', '/invite', '/magic', '/verify/', '/confirm/'],
    pattern: /\/(?:reset-password|reset|t|hooks|webhooks|invite|invitations|magic-link|verify|confirm)\/(?<v>[A-Za-z0-9_-]{16,512})/dg,
    secretKind: 'secret',
    validate: (v) => /[0-9]/.test(v) && /[A-Za-z]/.test(v),
    tps: ['POST /webhooks/FAKEwebhook0123456789abcd HTTP/1.1', 'GET /reset-password/Fake0123456789resetTok'],
    fps: ['GET /hooks/status', 'GET /t/short1'],
  },
  {
    id: '@cli-secret-flag',
    tier: 'ingest',
    minLength: 8,
    kind: 'key-name',
    description: 'command-line flags naming a secret (--password X, --password=X, --api-key X, --client-secret=X); the KV rules need a key not glued to a dash',
    keywords: ['--'],
    requires: ['--'],
    pattern: /(?<![A-Za-z0-9_-])--(?<k>[A-Za-z][A-Za-z0-9_-]{1,40})(?:=|[ \t]{1,4})(?<q>["']?)(?<v>[^\s"'][^\s"']{0,255})\k<q>/dg,
    secretKind: 'secret',
    validate: (v, m) => {
      const c = classifyKey(m.groups!.k!);
      return (c === 'secret' || c === 'api-key' || c === 'authorization' || c === 'env-secret') && !v.startsWith('-') && !isInert(v) && !/^(?:stdin|env|prompt|file)$/i.test(v);
    },
    tps: ['mcp-server --port 8000 --password hunter2', 'psql --password=Summer2026 -h db', 'run --api-key "kEy-0123456789" --verbose', 'login --client-secret=FAKEsec0001'],
    fps: ['--password-file /run/secrets/pw', '--token-endpoint https://auth.example.com/token', '--password -', 'npm run --silent', '--no-password'],
  },
  {
    id: '@mysql-password',
    tier: 'ingest',
    minLength: 10,
    kind: 'key-name',
    description: 'the MySQL/MariaDB client password glued to -p (mysql -u root -pS3cret)',
    keywords: ['mysql', 'mariadb'],
    pattern: /\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]{0,200}?[ \t]-p(?<v>[^\s"'-][^\s"']{0,127})/dg,
    secretKind: 'secret',
    tps: ['mysql -u root -pS3cret appdb', 'mysqldump -h db.internal -uapp -pweak1 shop'],
    fps: ['mysql -u root -p appdb', 'mysql --port 3306'],
  },
  {
    id: '@auth-tuple',
    tier: 'ingest',
    minLength: 12,
    kind: 'key-name',
    description: "a (user, password) pair by position: auth=('alice', 'hunter2') in requests/httpx, credentials/login tuples; the user becomes user-…, the password goes",
    keywords: ['auth', 'credential', 'login', 'userpassword'],
    pattern:
      /(?:(?<![A-Za-z0-9_])(?:auth|basic_auth|http_auth|proxy_auth|credentials|creds|login)\s{0,4}[=:]\s{0,4}[([]|\bUserPassword\()\s{0,4}(?<v>(?<uq>['"])[^'"\n]{1,128}\k<uq>\s{0,4},\s{0,4}(?<pq>['"])[^'"\n]{1,256}\k<pq>)/dg,
    secretKind: 'secret',
    validate: (v) => !/\[REDACTED/.test(v),
    recordParts: (v) => [TUPLE.exec(v)?.groups?.p ?? ''].filter((x) => x.length >= 6),
    replace: (v, ctx) => {
      const t = TUPLE.exec(v);
      if (!t) return placeholder('@auth-tuple');
      const user = isInert(t.groups!.u!) ? t.groups!.u! : pseudonym(ctx.key, 'user', t.groups!.u!);
      return `${t.groups!.q1}${user}${t.groups!.q1}${t.groups!.sep}${t.groups!.q2}${placeholder('@auth-tuple')}${t.groups!.q2}`;
    },
    tps: [
      "requests.get(url, auth=('alice', 'hunter2'))",
      'httpx.Client(auth=("svc-bot", "Winter2027?"))',
      "credentials = ['admin', 'changeme']",
      'User:url.UserPassword("svc-mcp", "winter-is-here-7")',
    ],
    fps: ["auth=('user-abcdefghij', '[REDACTED:auth-tuple]')", 'auth=None', "login=('x',)"],
  },
  {
    id: '@xml-secret',
    tier: 'ingest',
    minLength: 10,
    kind: 'key-name',
    description: 'XML/HTML elements naming a secret (<password>x</password>, <ns:ClientSecret>x</ns:ClientSecret>)',
    keywords: ['</'],
    pattern: /<(?<k>[A-Za-z][A-Za-z0-9_:.-]{0,40})>(?<v>[^<\n]{1,512})<\/\k<k>>/dg,
    secretKind: 'secret',
    validate: (v, m) => {
      const c = classifyKey(m.groups!.k!.replace(/^.*:/, ''));
      return (c === 'secret' || c === 'api-key' || c === 'authorization' || c === 'env-secret') && !isInert(v);
    },
    tps: ['<password>letmein</password>', '<ns:ClientSecret>FAKEsec0001</ns:ClientSecret>', '<apiKey>kEy-0123456789</apiKey>'],
    fps: ['<name>create_order</name>', '<password></password>', '<tokenType>Bearer</tokenType>'],
  },
  {
    id: '@business-kv',
    tier: 'exit',
    minLength: 5,
    kind: 'key-name',
    description:
      'business values and people in k=v / k: v pairs (sku, order id, customer, amount, address, account holder…) anywhere; weaker keys (total, price, product, project, email, phone) on tool-call lines; summarised like JSON arguments (<string len=N>, <number>)',
    keywords: [
      'sku',
      'order',
      'customer',
      'client',
      'amount',
      'total',
      'price',
      'invoice',
      'account',
      'addr',
      'street',
      'city',
      'zip',
      'post',
      'phone',
      'project',
      'product',
      'recipient',
      'payee',
      'tenant',
      'holder',
      'assignee',
      'reporter',
      'consignee',
      'ship',
      'bill',
      'name',
      'beneficiary',
      'email',
    ],
    pattern: new RegExp(
      String.raw`(?<![A-Za-z0-9_.\-])(?<k>${[...STRONG_BUSINESS, ...WEAK_BUSINESS].join('|')})(?<q>["']?)[ \t]{0,4}(?<op>[=:])[ \t]{0,4}(?<open>["']?)(?<v>[^\r\n"'\\]{1,256})`,
      'dgi',
    ),
    secretKind: 'pii',
    narrow: (v, m) => businessLength(v, m),
    validate: (v, m, ctx) => {
      const k = m.groups!.k!;
      const value = v.slice(0, businessLength(v, m)).trim();
      if (!value || isInert(value)) return false;
      if (/^order$/i.test(k) && !/[0-9]/.test(value)) return false; // `order=asc` sorts; an order has a number
      // Money (`total=7195.67`) is business data anywhere; a bare count (`total=3`) only on a tool line.
      return STRONG_RE.test(k) || TOOL_LINE.test(ctx.line) || (/^(?:total|price)$/i.test(k) && /^\d{1,12}\.\d{2}$/.test(value));
    },
    replace: (v) => (/^-?\d+(?:\.\d+)?$/.test(v.trim()) ? '<number>' : `<string len=${v.length}>`),
    tps: [
      'tools/call create_order start sku=SKU-RED-MUG qty=1',
      'tools/call create_order committed order=ORD-4711',
      'tool=send_invoice customer=acme amount=12.50',
      'calling tool create_order with customer: "Jane Roe"',
      "tool=ship address='1 Fake Street, Springfield'",
      'create_order committed order=ORD-32012 customer=CUST-762872 total=7195.67',
      'payout prepared holder=Yusuf Moreau amount=691.69',
      'customer: Rafael Lindqvist, card on file',
      'GET /mcp/search?q=x&customer=CUST-411096 HTTP/1.1',
    ],
    fps: [
      'tools/call create_order start qty=1',
      'GET /orders?order=asc HTTP/1.1',
      'tools/call import_orders committed batch=b1 imported=42',
      'tools/call create_order order=<string len=8>',
      'page total=3 items',
      'the customer was notified',
    ],
  },
  userRow(
    '@username',
    'the account a user/username/login/account/owner key names (any container) → user-…',
    ['user', 'login', 'logname', 'account', 'owner', 'principal', 'upn'],
    String.raw`(?<![A-Za-z0-9_.\-])(?<k>[A-Za-z_][A-Za-z0-9_.\-]{0,40})(?<q>\\{0,3}["']?)[ \t]{0,4}[=:][ \t]{0,4}(?<open>\\{0,3}["']?)(?<v>[A-Za-z0-9][A-Za-z0-9._@\-]{0,63})`,
    (m) => isUserKey(m.groups!.k!),
    [
      'user=alice logged in',
      'username: bob.smith',
      '{"login": "carol"}',
      'pguser=svc_reports',
      'owner="frank.o"',
      '[MCP][User: 00349818c85cab7715c178e4][crm-mcp]',
      'LOGNAME=pkoval',
    ],
    ['user=- anonymous', 'User-Agent: node', 'role=user', 'user_id_present=true', 'user=user-abcdefghij', 'user: root'],
  ),
  userRow(
    '@username:domain',
    'DOMAIN\\user account names (Windows logons, SQL Server, Kerberos)',
    ['\\'],
    String.raw`(?<![A-Za-z0-9_\\])(?<dom>[A-Z][A-Z0-9\-]{1,15})\\{1,2}(?<v>[A-Za-z][A-Za-z0-9._\-]{1,31})(?![A-Za-z0-9\\])`,
    (m) => !/^(?:HKLM|HKCU|HKCR|HKU|HKCC|HKEY)$/.test(m.groups!.dom!),
    ['ACME\\dave failed logon', 'login CORP\\\\erin.s ok'],
    ['HKLM\\Software\\Vendor', 'C:\\Windows\\Temp', 'escape \\n in text'],
  ),
  userRow(
    '@username:ssh',
    'user@host on a remote-login line (ssh, scp, sftp, rsync, login); with a TLD it is an e-mail (@email)',
    ['@'],
    String.raw`(?<![A-Za-z0-9._%+\-/@])(?<v>[a-z_][a-z0-9._\-]{0,31})(?=@[A-Za-z0-9][A-Za-z0-9\-]{0,62}(?:\.[A-Za-z0-9\-]{1,63}){0,6}(?![A-Za-z0-9.\-@/]))`,
    (m, ctx) => {
      if (!SSH_LINE.test(ctx.line)) return false;
      const host = /^@([A-Za-z0-9.-]{1,253})/.exec(ctx.line.slice(m.index + m[0].length))?.[1] ?? '';
      return !/\.[a-z]{2,24}$/i.test(host) || isPrivateHostName(host);
    },
    ['ssh deploy@bastion-01', 'rsync -a ./x backup@nas.corp.internal:/srv', "sshpass -p x ssh deploy@192.168.241.142 'journalctl'"],
    ['npx -y mcp-remote@0.1.18', 'ssh git@github.com', 'ssh login ok for node@20', 'npm i pkg@latest'],
  ),
  userRow(
    '@username:flag',
    'the account a command line names: --user X, --username=X, -U X (psql), -u X (mysql)',
    ['--user', '--login', '-u'],
    String.raw`(?<![A-Za-z0-9_\-])(?:--(?:user|username|login|db-user)(?:=|[ \t]{1,4})|-[uU][ \t]{0,4})(?<q>["']?)(?<v>[A-Za-z][A-Za-z0-9._@\-]{0,63})`,
    // -u / -U mean "user" only for database clients (`sort -u` does not).
    (m, ctx) => m[0].startsWith('--') || DB_CLIENT.test(ctx.line),
    ['mcp-proxy --user alice --port 8000', 'psql -U report_bot -h db', 'mysql -u svc_shop -p'],
    ['--user-agent node', 'sort -u file.txt', 'ls -U', 'mysql -u root -p'],
  ),
  userRow(
    '@username:prose',
    "prose that names an account: 'for user X', 'as user X', 'by account X'",
    ['user', 'account', 'login', 'started by'],
    String.raw`\b(?:(?:for|by|as|of|with) (?:the )?(?:user|account|login) ['"]?|\b(?:user|account|login) ["']|\bstarted by (?=[A-Za-z_][\w.\-]{0,31} in [/\\A-Za-z]))(?<v>[A-Za-z_][A-Za-z0-9._\-]{1,31})`,
    () => true,
    [
      'denied for user erin',
      "connected as user 'grace.h'",
      'user "ops-admin": password mismatch',
      "Proxy auth using Basic with user 'proxyuser'",
      '(/app/orders-agent.jar started by svc_orders in /app)',
    ],
    ['as user agent', 'for user data', 'for user-abcdefghij'],
  ),
  {
    id: '@conn-tuple',
    tier: 'ingest',
    minLength: 16,
    kind: 'key-name',
    description: 'a connection tuple by position: (host, port, user, password) — the password goes, the user becomes user-…',
    keywords: [','],
    pattern:
      /\(\s{0,4}(?<hq>['"])[^'"\n]{1,253}\k<hq>\s{0,4},\s{0,4}\d{2,5}\s{0,4},\s{0,4}(?<v>(?<uq>['"])[^'"\n]{1,128}\k<uq>\s{0,4},\s{0,4}(?<pq>['"])[^'"\n]{1,256}\k<pq>)\s{0,4}\)/dg,
    secretKind: 'secret',
    validate: (v) => !/\[REDACTED/.test(v),
    recordParts: (v) => [TUPLE.exec(v)?.groups?.p ?? ''].filter((x) => x.length >= 6),
    replace: (v, ctx) => {
      const t = TUPLE.exec(v);
      if (!t) return placeholder('@conn-tuple');
      const user = isInert(t.groups!.u!) ? t.groups!.u! : pseudonym(ctx.key, 'user', t.groups!.u!);
      return `${t.groups!.q1}${user}${t.groups!.q1}${t.groups!.sep}${t.groups!.q2}${placeholder('@conn-tuple')}${t.groups!.q2}`;
    },
    tps: ["'db': ('pg-orders-01.db.internal', 5432, 'orders_ro', 'Winter2025!')", 'DB = ("pg.finance.internal", 5432, "finance", "Fin4nce2026")'],
    fps: ["point = ('x', 10, 'a', 'b'"],
  },
  {
    id: '@cli-userinfo',
    tier: 'ingest',
    minLength: 8,
    kind: 'key-name',
    description: 'user:password on a command line (curl -u admin:pw, --proxy-user u:p); the user becomes user-…',
    keywords: ['-u', '--user', '--proxy-user'],
    pattern: /(?<![A-Za-z0-9_-])(?:-u|-U|--user|--proxy-user)(?:[ \t]{1,4}|=)(?<q>["']?)(?<v>[^\s:"']{1,128}:[^\s"']{1,256})\k<q>/dg,
    secretKind: 'secret',
    validate: (v) => !/\[REDACTED/.test(v) && !/^\d+:\d+$/.test(v),
    recordParts: (v) => [v.slice(v.indexOf(':') + 1)].filter((x) => x.length >= 6),
    replace: (v, ctx) => `${pseudonym(ctx.key, 'user', v.slice(0, v.indexOf(':')))}:${placeholder('@cli-userinfo')}`,
    tps: ['$ curl -v -u admin:changeme42 https://mcp.example/mcp', 'curl --proxy-user "proxyuser:S3cret!" x'],
    fps: ['docker run -u 1000:1000 image', 'curl -u [REDACTED:x]'],
  },
  {
    id: '@sshpass',
    tier: 'ingest',
    minLength: 12,
    kind: 'key-name',
    description: 'the password given to sshpass -p',
    keywords: ['sshpass'],
    pattern: /\bsshpass\b[^\n]{0,40}?[ \t]-p[ \t]{0,4}(?<q>["']?)(?<v>[^\s"'-][^\s"']{0,127})/dg,
    secretKind: 'secret',
    tps: ['$ sshpass -p Spring2026! ssh deploy@10.0.0.1'],
    fps: ['sshpass -f /run/pw ssh host'],
  },
  {
    id: '@dotted-secret',
    tier: 'ingest',
    minLength: 8,
    kind: 'key-name',
    description: 'config dumps that pad a secret key with dots (HikariConfig: password........hikariSecret9)',
    keywords: ['....'],
    pattern: /(?<![A-Za-z0-9_])(?<k>[A-Za-z][A-Za-z0-9]{1,40})\.{4,80}(?<v>[^\s.][^\s]{0,255})/dg,
    secretKind: 'secret',
    validate: (v, m) => classifyKey(m.groups!.k!) === 'secret' && !isInert(v) && !/^<(?:masked|hidden)>$/i.test(v),
    tps: ['c.zaxxer.hikari.HikariConfig : password........................hikariSecret9'],
    fps: ['c.zaxxer.hikari.HikariConfig : poolName........................HikariPool-1', 'password........................<masked>'],
  },
  {
    id: '@ssn',
    tier: 'exit',
    minLength: 11,
    kind: 'free-text',
    description: 'US social security numbers (AAA-GG-SSSS) with a context word or key (ssn, social security); never a date, id or phone',
    keywords: ['ssn', 'social', 'ss#'],
    pattern: /(?<![A-Za-z0-9_-])(?<v>[0-8][0-9]{2}-[0-9]{2}-[0-9]{4})(?![A-Za-z0-9_-])/dg,
    secretKind: 'pii',
    validate: (v, m, ctx) =>
      !/^(?:000|666)/.test(v) &&
      !/-00-/.test(v) &&
      !v.endsWith('-0000') &&
      (/ssn|social/i.test(ctx.keyHint ?? '') || /(?:\bssn|social security|ss#)[^A-Za-z0-9]{0,8}$/i.test(ctx.line.slice(Math.max(0, m.index - 24), m.index))),
    tps: ['customer: R. L., card on file, ssn 502-36-8131', 'ssn=519-43-1755', '{"ssn":"585-74-6161"}'],
    fps: ['order 502-36-8131 shipped', 'date 2026-03-14', 'ticket 415-55-0123 closed'],
  },
  {
    id: '@cloud-account-id',
    tier: 'exit',
    minLength: 12,
    kind: 'key-name',
    description:
      'cloud account, tenant and subscription ids by context (AZURE_TENANT_ID, subscriptionId, tenantId, AWS account in an ARN or an ECR registry, Entra authority URLs)',
    keywords: ['tenant', 'subscription', 'account', 'arn:aws', '.dkr.ecr.', 'microsoftonline', 'directory'],
    pattern: /(?<![A-Za-z0-9_-])(?<v>[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[0-9]{12})(?![A-Za-z0-9_-])/dg,
    secretKind: 'pii',
    validate: (v, m, ctx) => {
      if (CLOUD_KEY.test(ctx.keyHint ?? '')) return true;
      const before = ctx.line.slice(Math.max(0, m.index - 48), m.index);
      const after = ctx.line.slice(m.index + v.length, m.index + v.length + 12);
      return CLOUD_BEFORE.test(before) || (/^\d{12}$/.test(v) && /^\.dkr\.ecr\./.test(after));
    },
    tps: [
      'AZURE_TENANT_ID=b7efbb70-59d4-41af-8751-b8f30bcc692d',
      '  tenantId: b3fc9fbf-e86d-40d6-ac12-6e7882bd2cd5',
      'Image: 493817264051.dkr.ecr.eu-west-1.amazonaws.com/orders-mcp:1.4.2',
      'role arn:aws:iam::493817264051:role/orders',
      'authority=https://login.microsoftonline.com/ed2d0127-2c9b-4a97-a178-1c3ca6cb8eb4',
    ],
    fps: ['corr f790ede9-8a4a-4913-849e-bc32ee245fe4 ok', 'epoch 171800000000 ms', 'clientId=86d0d5ab-4e58-4c5e-8bde-b01c17e020ab'],
  },
  {
    id: '@tool-result-repr',
    tier: 'exit',
    minLength: 16,
    kind: 'key-name',
    description:
      "MCP content in Python reprs (TextContent(text='…'), TextResourceContents(text='…'), SamplingMessage(…)) and elicitation/create message='…': the text is business data, summarised",
    keywords: ['content(', 'contents(', 'message(', 'elicitation'],
    pattern:
      /(?:\b(?:TextContent|ImageContent|AudioContent|EmbeddedResource|TextResourceContents|BlobResourceContents|SamplingMessage|PromptMessage)\([^()\n]{0,200}?\b(?:text|blob|data)=|\belicitation\/create\b[^\n]{0,80}?\bmessage=)(?<q>['"])(?<v>(?:(?!\k<q>)[^\\\n]|\\.){1,65536})\k<q>/dg,
    secretKind: 'pii',
    validate: (v) => !isInert(v),
    replace: (v) => `<string len=${v.length}>`,
    tps: [
      "result: CallToolResult(content=[TextContent(type='text', text='Customer Siobhan F. owes 3697.44 EUR', annotations=None)], isError=False)",
      "INFO elicitation/create message='Confirm shipping to the new address?'",
      "resources/read -> TextResourceContents(text='Customer prefers invoices in Portuguese')",
    ],
    fps: ["TextContent(type='text', text='<string len=12>')", 'elicitation/create sent'],
  },
];
