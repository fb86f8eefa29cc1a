// Format rules: secrets recognisable by prefix, charset and length alone (redaction.md §3
// kinds 3–6). One row per rule, each with true/false positive lines that rules.test.ts runs.
// Boundaries: the run simply ends at the first character outside the charset (no
// gitleaks-style whitespace terminators, so `&`, `,`, `)`, `}`, ANSI all end a token).
// The left boundary accepts an ANSI colour code (`\x1b[32m`) right before the token.
// Every quantifier is bounded; only run starts are tried, so matching stays linear.
import type { PatternRule } from '../types.ts';

/** Start of a token: beginning, a non-token char, or the end of an ANSI SGR sequence. */
export const LB = String.raw`(?<=^|[^A-Za-z0-9_\-]|\x1b\[[0-9;]{0,12}m|%[0-9A-Fa-f]{2})`;

// Fake-but-shaped sample bodies (never real secrets).
const A36 = 'Xq7Lr2Vb9Zk4Tn8Wc3Ym6Pd5Hs1Gf0Ja2Ue4';
const A40 = 'Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2H1g0';
const HEX64 = 'a3f1c2d4e5b6a7980b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6';

function token(id: string, description: string, body: string, tps: string[], fps: string[], keywords?: string[]): PatternRule {
  return { id, kind: 'free-text', tier: 'ingest', description, pattern: new RegExp(LB + `(?<v>${body})`, 'gd'), secretKind: 'secret', tps, fps, ...(keywords ? { keywords } : {}) };
}

export const FORMAT_RULES: PatternRule[] = [
  {
    id: '@pem',
    tier: 'ingest',
    kind: 'free-text',
    description: 'PEM / OpenSSH / PGP private key body on one line (JSON or repr with literal \\n); multi-line blocks are line-state in engine.ts',
    keywords: ['-----begin'],
    pattern: /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?<v>[^-]{1,65536})/dg,
    secretKind: 'secret',
    tps: [
      String.raw`{"private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n"}`,
      '-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEAAAAABG5vbmU -----END OPENSSH PRIVATE KEY-----',
    ],
    fps: ['-----BEGIN CERTIFICATE-----', 'loaded key from /etc/keys/server.pem'],
  },
  {
    id: '@jwt',
    tier: 'ingest',
    kind: 'free-text',
    description: 'JWS (3 segments) or JWE (5 segments) starting with a base64url JSON header',
    keywords: ['eyj'],
    pattern: new RegExp(LB + String.raw`(?<v>eyJ[A-Za-z0-9_\-]{8,8192}\.[A-Za-z0-9_\-]{8,16384}(?:\.[A-Za-z0-9_\-]{0,8192}){0,3})`, 'gd'),
    secretKind: 'secret',
    tps: [
      'Authorization: Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJmYWtlLXVzZXIifQ.c2lnbmF0dXJlLWZha2U',
      '{"id_token":"eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJmYWtlLXVzZXIifQ.c2lnbmF0dXJlLWZha2U"}',
      'authz=Bearer%20eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJmYWtlLXVzZXIifQ.c2lnbmF0dXJlLWZha2U&x=1',
      '\x1b[33meyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJmYWtlLXVzZXIifQ.c2lnbmF0dXJlLWZha2U\x1b[0m',
    ],
    fps: ['eyJ is the start of a JWT', 'version 1.2.3'],
  },
  {
    id: '@jwt-fragment',
    tier: 'ingest',
    kind: 'free-text',
    description: 'a JWT header or head without its other segments (a token wrapped across lines, or truncated by a logger)',
    keywords: ['eyj'],
    pattern: new RegExp(LB + String.raw`(?<v>eyJ[A-Za-z0-9_\-]{17,8192}\.?)`, 'gd'),
    secretKind: 'secret',
    tps: ['token=eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIi'],
    fps: ['eyJhbGci'],
  },
  {
    id: '@jwt-base64',
    tier: 'ingest',
    kind: 'free-text',
    description: 'a JWT that was base64-encoded once more (starts ZXlK)',
    keywords: ['zxlk'],
    pattern: new RegExp(LB + String.raw`(?<v>ZXlK[A-Za-z0-9+/]{20,16384}={0,2})`, 'gd'),
    secretKind: 'secret',
    tps: ['X-Forwarded-Token: ZXlKaGJHY2lPaUpTVXpJMU5pSjkuZXlKemRXSWlPaUptWVd0bElu'],
    fps: ['ZXlK'],
  },
  {
    id: '@url-userinfo',
    tier: 'ingest',
    kind: 'free-text',
    description: 'user:password@ in any URL, including connection strings (postgres://, mongodb+srv://, redis://, amqp://)',
    keywords: ['://'],
    requires: ['://', '@'],
    pattern: /[A-Za-z][A-Za-z0-9+.-]{0,20}:\/\/(?<v>[^\s/?#@"'<>]{1,256})@/dg,
    secretKind: 'secret',
    validate: (v) => v !== 'git' && !v.startsWith('[REDACTED'),
    // the password alone reappears in drivers' "authentication failed" messages and retries
    recordParts: (v) => (v.includes(':') ? [v.slice(v.indexOf(':') + 1)] : []),
    tps: ['DATABASE=postgres://app:S3cretPw@db.internal:5432/app', 'redis://:hunter2hunter2@cache:6379/0', 'https://f4k3d5n0000000000000000000000000@o123.ingest.sentry.io/42'],
    fps: ['ssh://git@github.com/org/repo.git', 'https://api.github.com/repos/x/y'],
  },
  token(
    '@vendor-token:github',
    'GitHub classic tokens ghp_/gho_/ghu_/ghs_/ghr_',
    String.raw`gh[pousr]_[A-Za-z0-9]{36,255}`,
    [`GITHUB_TOKEN=ghp_${A36}`, `"token": "gho_${A36}"`, `x=ghs_${A36}&y=1`],
    ['ghp_short', 'the ghp_ prefix'],
    ['gh'],
  ),
  token(
    '@vendor-token:github-fine-grained',
    'GitHub fine-grained PAT',
    String.raw`github_pat_[A-Za-z0-9_]{60,255}`,
    [`token github_pat_11ABCDEFG0${A36}_${A36}x`],
    ['github_pat_ is the prefix'],
    ['github_pat_'],
  ),
  token(
    '@vendor-token:openai',
    'OpenAI project/service/admin keys and legacy T3BlbkFJ keys',
    String.raw`sk-(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{20,300}|sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}`,
    [`OPENAI_API_KEY=sk-proj-${A40}${A36}`, `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`],
    ['sk-proj- prefix only', 'task-proj-alpha'],
    ['sk-'],
  ),
  token(
    '@vendor-token:anthropic',
    'Anthropic API, admin and OAuth (oat/ort) tokens',
    String.raw`sk-ant-[a-z]{2,10}[0-9]{2}-[A-Za-z0-9_\-]{20,300}`,
    [`x-api-key: sk-ant-api03-${A40}${A40}AA`, `sk-ant-oat01-${A40}`],
    ['sk-ant- keys look like sk-ant-api03-…'],
    ['sk-ant-'],
  ),
  token(
    '@vendor-token:aws-access-key',
    'AWS access key id',
    String.raw`(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}(?![A-Z2-7])`,
    ['aws_access_key_id = AKIAQ3EGFAKEKEY7EXMP', 'Credential=ASIAQ3EGFAKEKEY7EXMP/20250101/us-east-1/s3/aws4_request'],
    ['AKIA is a prefix', 'AKIAQ3EGFAKE'],
    ['akia', 'asia', 'abia', 'acca'],
  ),
  {
    id: '@cloud-secret-key',
    tier: 'ingest',
    kind: 'free-text',
    description:
      'an AWS secret access key by context: the 40-character base64 value that follows an access key id on the same line (CSV exports, `aws configure` echoes, `id secret` pairs), raw or already redacted',
    keywords: ['akia', 'asia', 'abia', 'acca', 'aws-access-key'],
    pattern:
      /(?:(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}|\[REDACTED:vendor-token:aws-access-key\])["']?[\s,;:|=]{1,8}(?:[A-Za-z_]{1,40}[ \t]{0,3}[=:][ \t]{0,3})?["']?(?<v>[A-Za-z0-9+/]{40})(?![A-Za-z0-9+/=])/dg,
    secretKind: 'secret',
    validate: (v) => /[A-Z]/.test(v) && /[a-z]/.test(v) && /[0-9+/]/.test(v),
    tps: [
      'keys AKIAQ3EGFAKEKEY7EXMP wJalrXUtnFEMI/K7MDENG/bPxRfiCYFAKEKEY001',
      'svc-bot,AKIAQ3EGFAKEKEY7EXMP,wJalrXUtnFEMI/K7MDENG/bPxRfiCYFAKEKEY001',
      'id=AKIAQ3EGFAKEKEY7EXMP secret=wJalrXUtnFEMI/K7MDENG/bPxRfiCYFAKEKEY001',
    ],
    fps: ['AKIA is the prefix; see the 40-character secret', 'ASIA list 1234567890123456789012345678901234567890'],
  },
  token(
    '@vendor-token:aws-session-token',
    'AWS STS session token',
    String.raw`(?:IQoJb3JpZ2luX2Vj|FwoGZXIvYXdz)[A-Za-z0-9+/=]{20,4096}`,
    [`X-Amz-Security-Token: IQoJb3JpZ2luX2VjEFAKE${A40}`],
    ['IQoJ'],
    ['iqojb3jpz2lux2vj', 'fwogzxiv'],
  ),
  token('@vendor-token:google-api-key', 'Google API key', String.raw`AIza[A-Za-z0-9_\-]{35}`, ['key=AIzaSyFAKE0000000000000000000000000000x'], ['AIza is the prefix'], ['aiza']),
  token('@vendor-token:google-oauth', 'Google OAuth access token', String.raw`ya29\.[A-Za-z0-9_\-]{20,2048}`, [`access_token: ya29.a0FAKE${A36}`], ['ya29.x'], ['ya29.']),
  token('@vendor-token:google-refresh', 'Google OAuth refresh token', String.raw`1//0[A-Za-z0-9_\-]{20,512}`, [`refresh=1//0gFAKE${A36}`], ['see 1//0 prefix'], ['1//0']),
  token(
    '@vendor-token:slack',
    'Slack bot/user/config tokens',
    String.raw`xox[abposer]-[A-Za-z0-9\-]{10,250}`,
    ['SLACK=xoxb-1234567890-0987654321-FAKEfakeFAKEfake'],
    ['xoxb-short'],
    ['xox'],
  ),
  token('@vendor-token:slack-app', 'Slack app-level token', String.raw`xapp-[0-9]-[A-Za-z0-9\-]{10,250}`, ['xapp-1-A0FAKE0000-1234567890-abcdef0123456789'], ['xapp-1'], ['xapp-']),
  {
    id: '@vendor-token:slack-webhook',
    tier: 'ingest',
    kind: 'free-text',
    description: 'Slack incoming webhook path',
    keywords: ['hooks.slack.com'],
    pattern: /hooks\.slack\.com\/(?:services|workflows|triggers)\/(?<v>[A-Za-z0-9/_+-]{10,300})/dg,
    secretKind: 'secret',
    tps: ['POST https://hooks.slack.com/services/T00FAKE00/B00FAKE00/FAKEfakeFAKEfake1234'],
    fps: ['https://hooks.slack.com/'],
  },
  token(
    '@vendor-token:stripe',
    'Stripe secret/restricted keys',
    String.raw`(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,99}`,
    ['stripe.api_key = "sk_live_FAKE00000000000000000000"'],
    ['sk_live_'],
    ['sk_', 'rk_'],
  ),
  token('@vendor-token:stripe-webhook', 'Stripe webhook signing secret', String.raw`whsec_[A-Za-z0-9+/=]{20,100}`, ['whsec_FAKEfakeFAKEfake0123456789'], ['whsec_x'], ['whsec_']),
  token('@vendor-token:gitlab', 'GitLab PAT', String.raw`glpat-[A-Za-z0-9_\-]{20,64}`, ['PRIVATE-TOKEN: glpat-FAKEfake0123456789ab'], ['glpat-'], ['glpat-']),
  token('@vendor-token:huggingface', 'Hugging Face token', String.raw`hf_[A-Za-z0-9]{30,64}`, ['HF_TOKEN=hf_FAKEfakeFAKEfakeFAKEfakeFAKEfake12'], ['hf_model_name'], ['hf_']),
  token('@vendor-token:npm', 'npm access token', String.raw`npm_[A-Za-z0-9]{36}`, [`//registry.npmjs.org/:_authToken=npm_${A36}`], ['npm_config_cache'], ['npm_']),
  token(
    '@vendor-token:sendgrid',
    'SendGrid API key',
    String.raw`SG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{16,64}`,
    ['SG.FAKEfakeFAKEfake01.FAKEfakeFAKEfakeFAKEfakeFAKEfake0123456789a'],
    ['SG.x.y'],
    ['sg.'],
  ),
  token('@vendor-token:digitalocean', 'DigitalOcean token', String.raw`do[por]_v1_[a-f0-9]{64}`, [`dop_v1_${HEX64}`], ['dop_v1_'], ['_v1_']),
  token(
    '@vendor-token:pypi',
    'PyPI upload token',
    String.raw`pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]{50,1000}`,
    [`password = pypi-AgEIcHlwaS5vcmc${A40}${A40}`],
    ['pypi-AgEIcHlwaS5vcmc'],
    ['pypi-'],
  ),
  token('@vendor-token:shopify', 'Shopify access tokens', String.raw`shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}`, ['shpat_0123456789abcdef0123456789abcdef'], ['shpat_'], ['shp']),
  token('@vendor-token:twilio', 'Twilio API key SID', String.raw`SK[0-9a-fA-F]{32}(?![0-9a-fA-F])`, ['TWILIO_KEY_SID=SK0123456789abcdef0123456789abcdef'], ['SKU12345'], ['sk']),
  {
    id: '@vendor-token:azure-storage',
    tier: 'ingest',
    kind: 'free-text',
    description: 'Azure storage connection-string AccountKey',
    keywords: ['accountkey='],
    pattern: /AccountKey=(?<v>[A-Za-z0-9+/]{40,100}={0,2})/dg,
    secretKind: 'secret',
    tps: [`DefaultEndpointsProtocol=https;AccountName=fake;AccountKey=${A40}${A40}==;EndpointSuffix=core.windows.net`],
    fps: ['AccountKey=<your key>'],
  },
];
