// Key and header names whose VALUE is sensitive (redaction.md §3 kind 1). One table used by
// every container: JSON keys, `k=v`, `k: v`, headers, query/form params, HAR name/value
// pairs, env dumps. Names are compared lower-case without `-_.` and whitespace. We never
// redact because a value *contains* "token": `error="invalid_token"` must survive.
import { detach } from '../../../../parsers/engine/lines.ts';
import { isOurOutput } from '../vocabulary.ts';

export type KeyClass = 'authorization' | 'cookie' | 'set-cookie' | 'api-key' | 'secret' | 'oauth-code' | 'session' | 'env-secret';

export const normaliseKey = (name: string) => name.toLowerCase().replace(/[-_.\s]/g, '');

const EXACT: Record<string, KeyClass> = {
  authorization: 'authorization',
  proxyauthorization: 'authorization',
  cookie: 'cookie',
  setcookie: 'set-cookie',
  xapikey: 'api-key',
  apikey: 'api-key',
  xgoogapikey: 'api-key',
  ocpapimsubscriptionkey: 'api-key',
  privatetoken: 'api-key',
  xauthtoken: 'api-key',
  dpop: 'api-key',
  xamzsecuritytoken: 'api-key',
  codeverifier: 'secret',
  clientassertion: 'secret',
  auth: 'secret',
  authz: 'secret',
  sig: 'secret',
  pass: 'secret',
  pw: 'secret',
  code: 'oauth-code',
  state: 'oauth-code',
  mcpsessionid: 'session',
  sessionid: 'session',
  session: 'session',
  sid: 'session',
  // SSE resumption ids encode the stream's identity (failure-signatures (f)): never published.
  lasteventid: 'secret',
};

const CONTAINS = [
  'password',
  'passwd',
  'pwd',
  'secret',
  'token',
  'credential',
  'privatekey',
  'signature',
  'dsn',
  'databaseurl',
  'dburl',
  'apikey',
  'accesskey',
  'signingkey',
  'encryptionkey',
  'masterkey',
  'clientkey',
  'sessionkey',
  'connectionstring',
  'passphrase',
  'cookie',
  'ticket',
];

// Names that contain a sensitive word but describe it (types, endpoints, counts, diagnostics).
const SAFE_EXACT = new Set([
  'maxtokens',
  'maxoutputtokens',
  'inputtokens',
  'outputtokens',
  'totaltokens',
  'completiontokens',
  'prompttokens',
  'tokencount',
  'tokentype',
  'error',
  'errordescription',
  'codechallenge',
  'codechallengemethod',
  'resourcemetadata',
  'requestid',
  'xrequestid',
  'traceparent',
  'tracestate',
  'wwwauthenticate',
  'secretname',
  'tokenname',
  'passwordpolicy',
  'signaturemethod',
  'signedheaders',
  'cookiename',
  'progresstoken',
  'nexttoken',
  'pagetoken',
  'nextpagetoken',
  'csrftokenname',
  // OAuth error codes (RFC 6750 §3.1 invalid_token, RFC 8628 §3.5 expired_token): `invalid_token: The access token
  // expired` names what went wrong; what follows is the server's description, not a token.
  'invalidtoken',
  'expiredtoken',
  // .NET assembly names: `PublicKeyToken=b77a5c561934e089` is a hash of the signer's PUBLIC key (ECMA-335 §II.6.3)
  'publickeytoken',
]);
const SAFE_SUFFIX = [
  'type',
  'endpoint',
  'url',
  'uri',
  'method',
  'methods',
  'supported',
  'expiresin',
  'expiresat',
  'expiry',
  'expires',
  'count',
  'len',
  'length',
  'hint',
  'usage',
  'limit',
  'ttl',
  'present',
  'set',
  'required',
  'file',
  'path',
  'version',
  'algorithm',
  'alg',
];

/** Upper-case env names: FOO_KEY, FOO_TOKEN, FOO_SECRET, FOO_PASSWORD, FOO_PAT, FOO_DSN. */
const ENV_NAME = /^[A-Z][A-Z0-9_]{0,80}_(?:KEY|TOKEN|SECRET|PASSWORD|PASS|PWD|PAT|DSN|CREDENTIALS|API_KEY)$/;

// classifyKey is pure and runs for every JSON member and every `k=v` on every line, over a
// small vocabulary of key names: remember the answers (bounded; cleared when full).
const CLASS_CACHE = new Map<string, KeyClass | null>();
const CLASS_CACHE_MAX = 20_000;

export function classifyKey(rawName: string): KeyClass | null {
  if (rawName.length > 128) return classifyKeyUncached(rawName);
  let c = CLASS_CACHE.get(rawName);
  if (c === undefined) {
    c = classifyKeyUncached(rawName);
    if (CLASS_CACHE.size >= CLASS_CACHE_MAX) CLASS_CACHE.clear();
    CLASS_CACHE.set(detach(rawName), c); // not the line's whole read chunk with it
  }
  return c;
}

function classifyKeyUncached(rawName: string): KeyClass | null {
  // OTel style `http.request.header.authorization`: the last segment names the header.
  const name = rawName.includes('.') ? rawName.slice(rawName.lastIndexOf('.') + 1) : rawName;
  if (ENV_NAME.test(name) || ENV_NAME.test(rawName)) return 'env-secret';
  const n = normaliseKey(name);
  if (n.length === 0 || n.length > 80) return null;
  const exact = EXACT[n];
  if (exact) return exact;
  if (SAFE_EXACT.has(n)) return null;
  if (n.endsWith('sessionid') && n.length <= 20) return 'session';
  // `x-upstream-auth`, `proxy_auth`: a header or key that ends in auth carries credentials.
  if (n.endsWith('auth') && n.length > 4 && !/(?:oauth|author)$/.test(n)) return 'secret';
  if (!CONTAINS.some((w) => n.includes(w))) return null;
  if (SAFE_SUFFIX.some((s) => n.endsWith(s) && n !== s)) return null;
  return n.includes('cookie') ? 'cookie' : 'secret';
}

/** A key naming a password (any container): its value goes whatever it looks like, digits too. */
export function passwordLike(rawName: string): boolean {
  const n = normaliseKey(rawName.includes('.') ? rawName.slice(rawName.lastIndexOf('.') + 1) : rawName);
  return /pass(?:word|wd|phrase)?$|pwd$|^pass|^pw$|^pin$|password/.test(n) && !SAFE_EXACT.has(n) && !SAFE_SUFFIX.some((x) => n.endsWith(x) && n !== x);
}

/** Keys whose value names a person's account (pseudonymised as `user-…`, like a user in a home path). */
export const USER_KEYS = new Set([
  'logname',
  'user',
  'username',
  'usrname',
  'login',
  'loginname',
  'account',
  'accountname',
  'owner',
  'remoteuser',
  'principal',
  'upn',
  'samaccountname',
  'userprincipalname',
  'dbuser',
  'pguser',
  'mysqluser',
  'userid',
]);
export const isUserKey = (rawName: string) => USER_KEYS.has(normaliseKey(rawName.includes('.') ? rawName.slice(rawName.lastIndexOf('.') + 1) : rawName));

/** Lines in which `code` and `state` are OAuth material rather than an error code or a state name. */
export const OAUTH_CONTEXT = /\/authorize|\/callback|\/token\b|grant_type|redirect_uri|oauth|code_verifier/i;

/** Values that are placeholders, pseudonyms or empty: nothing left to redact. */
export function isInert(v: string): boolean {
  // An auth scheme in front of a placeholder (`Bearer%20[REDACTED:jwt]`) is still inert.
  const s = v
    .trim()
    .replace(/^["'\\]+|["'\\]+$/g, '')
    .replace(/^(?:bearer|basic|token|dpop)(?:\s{1,8}|%20|\+)(?=\[REDACTED)/i, '');
  if (s.length === 0 || /^(?:bearer|basic|dpop)(?:\s{1,8}|%20|\+)$/i.test(s)) return true;
  if (/^(?:null|none|nil|undefined|true|false|-|\*+|\[filtered\]|\[redacted\]|<redacted>|redacted|n\/a|<hidden>|\.\.\.|…)$/i.test(s) || isOurOutput(s)) return true;
  // `auth=valid`, `'serverWithAuth': Error: …`, `Bearer <your-token>`: a state or log word, or a placeholder someone
  // typed in place of the value, is what a log says about a credential, not the credential
  // — and a protocol word is what a line says next after a component's name (`token-service: POST /mcp -> 401`,
  // `secrets-mcp: tools/call x id=14`): an HTTP method or an MCP method, never a credential
  return (
    /^(?:valid|invalid|ok|error|exception|failed|failure|missing|present|expired|unknown|pending|required|optional|enabled|disabled|success|granted|denied|yes|no)[:.,]?$/i.test(
      s,
    ) ||
    /^<[\w .:-]{1,40}>$/.test(s) ||
    /^(?:GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS)$/.test(s) ||
    /^(?:tools|resources|prompts|notifications|completion|logging|sampling|elicitation|tasks|server|subscriptions|roots)\/[A-Za-z_]{2,30}(?:\/[A-Za-z_]{2,30})?$/.test(s)
  );
}

/** Keys whose value names a host (JSON log fields of proxies and servers). */
export const HOST_KEYS = new Set([
  'host',
  'hostname',
  'upstream',
  'upstreamaddr',
  'upstreamhost',
  'upstreamcluster',
  'upstreamname',
  'backend',
  'backendhost',
  'servername',
  'targethost',
  'proxyhost',
  'dbhost',
  'databasehost',
  'redishost',
  'smtphost',
  'peeraddress',
  'serveraddress',
  'netpeername',
  'netpeerhost',
  'authority',
  'xforwardedhost',
]);
export const isHostKey = (rawName: string) => HOST_KEYS.has(normaliseKey(rawName));
