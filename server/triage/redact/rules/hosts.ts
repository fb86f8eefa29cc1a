// Which host names may be named in public and which are internal (redaction.md §3 kind 9).
// Public SaaS, SDK and documentation hosts help triage and leak nothing; loopback is what triage
// needs (`localhost`, `127.0.0.1`). Internal names are recognised by structure: their position
// (URL, Host, server, upstream) or a private DNS suffix (`.internal`, `.local`, `.svc.cluster.local`, …).

// Public SaaS, SDK and documentation hosts: naming them leaks nothing and helps triage.
const PUBLIC_HOST_SUFFIXES = [
  'github.com',
  'githubusercontent.com',
  'github.io',
  'huggingface.co',
  'microsoftonline.com',
  'docker.io',
  'docker.com',
  'openai.com',
  'anthropic.com',
  'claude.ai',
  'modelcontextprotocol.io',
  'googleapis.com',
  'google.com',
  'npmjs.org',
  'npmjs.com',
  'nodejs.org',
  'python.org',
  'pypi.org',
  'readthedocs.io',
  'python-httpx.org',
  'sentry.io',
  'slack.com',
  'stripe.com',
  'amazonaws.com',
  'cloudflare.com',
  'vercel.app',
  'mozilla.org',
  'w3.org',
  'ietf.org',
  'rfc-editor.org',
  'json-schema.org',
  'nginx.org',
  'haproxy.org',
  'caddyserver.com',
  'example.com',
  'example.org',
  'example.net',
  'example',
  'test',
  'invalid',
  'localhost',
];

export function isPublicHost(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (h === 'localhost' || h === '127.0.0.1' || h === '::1' || h === '0.0.0.0') return true;
  return PUBLIC_HOST_SUFFIXES.some((s) => h === s || h.endsWith('.' + s));
}

/**
 * DNS suffixes that only resolve inside an organisation (RFC 6762 `.local`, RFC 8375 `.home.arpa`,
 * ICANN's `.internal`, Kubernetes and Consul service names, and the common private ones).
 */
export const PRIVATE_SUFFIXES = [
  'internal',
  'local',
  'localdomain',
  'lan',
  'corp',
  'intranet',
  'intra',
  'home.arpa',
  'private',
  'consul',
  'svc',
  'cluster.local',
  'svc.cluster.local',
  'priv',
  'int',
];

/** A host name under a private DNS suffix (never loopback). */
export function isPrivateHostName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (h === 'localhost' || !h.includes('.')) return false;
  return PRIVATE_SUFFIXES.some((s) => h.endsWith('.' + s));
}

/**
 * URL schemes that name a network host (an MCP resource URI like `notes://customer/1` names none).
 * Anchored at the end only: an ANSI colour or a key glued in front (`\x1b[4mhttp://`) does not hide it.
 */
export const NETWORK_SCHEMES =
  /(?:https?|wss?|ftps?|sftp|ssh|grpcs?|h2c?|tcp|udp|tls|ldaps?|smtps?|imaps?|pop3s?|postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|redis|rediss|amqps?|kafka|nats|mqtts?|sqlserver|jdbc:[a-z0-9]+|clickhouse|cassandra|elasticsearch|memcached|socks[45]?h?|proxy)$/i;
