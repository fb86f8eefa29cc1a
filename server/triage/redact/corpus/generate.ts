// Deterministic generator of the planted-secrets corpus (redaction.md §4 "A corpus gate").
// Run: npx tsx server/triage/redact/corpus/generate.ts
// Every value is synthetic: shaped like the real format, seeded PRNG, most marked FAKE.
// Output: logs/*.{log,txt,har,jsonl} and manifest.json (every secret with its kind and
// file, every must-keep string, and the session groups with their spellings).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = join(HERE, 'logs');

// mulberry32: small, seeded, reproducible.
let seed = 0x5eed1234;
function rand(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const AL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';
const B32U = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const B64URL = AL + '-_';
const pick = (alpha: string, n: number) => Array.from({ length: n }, () => alpha[Math.floor(rand() * alpha.length)]).join('');
const fake = (n: number, alpha = AL) => 'FAKE' + pick(alpha, n - 4);
const b64url = (s: string) => Buffer.from(s).toString('base64url');
const uuid = () => `${pick(HEX, 8)}-${pick(HEX, 4)}-4${pick(HEX, 3)}-8${pick(HEX, 3)}-${pick(HEX, 12)}`;

interface Secret {
  value: string;
  kind: string;
  file: string;
}
const secrets: Secret[] = [];
const files = new Map<string, string[]>();
let current = '';
const file = (name: string) => {
  current = name;
  files.set(name, []);
};
const line = (s: string) => files.get(current)!.push(s);
/** Register a planted secret in the current file and return it for interpolation. */
const S = (kind: string, value: string) => {
  secrets.push({ value, kind, file: current });
  return value;
};
const mustKeep = new Set<string>();
const K = (s: string) => {
  mustKeep.add(s);
  return s;
};

const jwt = (sub: string) =>
  `${b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: 'fake-kid' }))}.${b64url(JSON.stringify({ sub, iss: 'https://auth.fake.test', exp: 1900000000, scope: 'mcp' }))}.${pick(B64URL, 86)}`;

// ---------- session ids (several files, several spellings) ----------
const G1 = '3f2a9c1e-4b5d-4e6f-8a7b-9c0d1e2f3a4b';
const G1hex = G1.replace(/-/g, '');
const G2 = 'b7e4d2f0-1a3c-4e5b-9d8f-7c6b5a493827';
const G3 = 'Zm9v+YmFy/cXV4LTEyMzQ1Ng==';
const G3pct = encodeURIComponent(G3);
const G4 = 'c0ffee12-aaaa-4bbb-8ccc-111111111111';
const G5 = 'c0ffee12-dddd-4eee-9fff-222222222222';
const G6 = 'srv-sess-7Qm2Vx9LpRfZ';

const RID = () => pick(HEX, 32);
const TS = (i: number) => `2026-03-14T09:26:${String(10 + (i % 50)).padStart(2, '0')}.${String(100 + i).slice(-3)}Z`;

// ---------- client-python.log ----------
file('client-python.log');
const user1 = S('user-path', 'jdoe-fake7');
line(`2026-03-14 09:26:10,101 INFO mcp.client.streamable_http: ${K('Negotiated protocol version: 2025-06-18')}`);
line(`2026-03-14 09:26:10,102 INFO mcp.client.streamable_http: Received session ID: ${G1}`);
line(`2026-03-14 09:26:10,150 DEBUG httpx: HTTP Request: POST ${K('http://127.0.0.1:8000/mcp')} "${K('HTTP/1.1 200 OK')}"`);
line(
  `2026-03-14 09:26:10,151 DEBUG mcp.client: request headers {'authorization': 'Bearer ${S('bearer', fake(40))}', 'mcp-session-id': '${G1}', 'accept': '${K('text/event-stream')}'}`,
);
line(
  `2026-03-14 09:26:11,002 DEBUG mcp.client: Sending client message: root=JSONRPCRequest(method='tools/call', params={'name': '${K('create_order')}', 'arguments': {'customer': '${S('tool-arguments', 'Globex Fake Holdings plc')}', 'card': '${S('tool-arguments', 'ref-99812-fake')}'}}, jsonrpc='2.0', id=${K('42')})`,
);
line(
  `2026-03-14 09:26:11,003 DEBUG mcp.client: Sending client message: {"jsonrpc":"2.0","id":43,"method":"${K('tools/call')}","params":{"name":"${K('search_docs')}","arguments":{"query":"${S('tool-arguments', 'quarterly churn for Initech fake')}","limit":5}}}`,
);
line(`Traceback (most recent call last):`);
K('Traceback (most recent call last):');
line(`  File "/home/${user1}/proj/.venv/lib/python3.12/site-packages/mcp/client/streamable_http.py", line 311, in _handle_post_request`);
line(`  File "/home/${user1}/proj/.venv/lib/python3.12/site-packages/httpx/_transports/default.py", line 118, in map_httpcore_exceptions`);
line(`${K('httpx.RemoteProtocolError')}: ${K('Server disconnected without sending a response.')}`);
line(`2026-03-14 09:26:12,500 WARNING mcp.client: session ${'3f2a9c1e'}**** expired, reinitializing`);
line(`2026-03-14 09:26:12,501 INFO mcp.client: using ${K('OPENAI_MODEL=gpt-fake')} with key ${S('openai', 'sk-proj-' + fake(40) + pick(AL, 30))}`);
line(`2026-03-14 09:26:12,777 ERROR mcp.client: ${K('anyio.ClosedResourceError')} on session ${G2}`);
line(`2026-03-14 09:26:12,900 INFO mcp.client: retry with db ${S('conn-string-password', 'postgres://app:' + 'Pw' + fake(14))}@db.fake-corp.internal:5432/app`);
line(`2026-03-14 09:26:13,001 DEBUG mcp.client: ambiguous resume of session c0ffee12**** after ${K('Mcp-Session-Id')} mismatch`);
line(`2026-03-14 09:26:13,002 DEBUG mcp.client: cached session deadbeef42**** not found`);
line(`2026-03-14 09:26:13,010 INFO mcp.client: ${K('notifications/initialized')} sent; ${K('max_tokens=4096')}`);
line(`2026-03-14 09:26:13,020 INFO mcp.client: mailing report to ${S('email', 'ops.fake+mcp@fake-corp.internal')}`);
line(`2026-03-14 09:26:13,021 DEBUG anthropic: x-api-key=${S('anthropic', 'sk-ant-api03-' + fake(60) + 'AA')}`);

// ---------- proxy-access.log (nginx combined + $request_id) ----------
file('proxy-access.log');
const ips = [S('ipv4', '10.42.7.19'), S('ipv4', '203.0.113.57'), S('ipv4', '172.16.9.201'), S('ipv4', '198.51.100.23')];
const ru = S('remote-user', 'mallory-fake');
const rids: string[] = [];
for (let i = 0; i < 8; i++) rids.push(K(RID()));
line(`${ips[0]} - - [${K('14/Mar/2026:09:26:10 +0000')}] "POST /mcp HTTP/1.1" 200 512 "-" "python-httpx/0.28.1" ${rids[0]}`);
line(`${ips[0]} - - [14/Mar/2026:09:26:11 +0000] "GET /sse?access_token=${S('query-access-token', fake(32))} HTTP/1.1" 200 0 "-" "node" ${rids[1]}`);
line(`${ips[1]} - ${ru} [14/Mar/2026:09:26:12 +0000] "POST /messages/?session_id=${G1hex} HTTP/1.1" ${K('202')} 0 "-" "python-httpx/0.28.1" ${rids[2]}`);
line(`${ips[1]} - - [14/Mar/2026:09:26:13 +0000] "POST /mcp HTTP/1.1" ${K('404')} 0 "-" "node" ${rids[3]}`);
line(
  `${ips[2]} - - [14/Mar/2026:09:26:14 +0000] "GET /oauth/callback?code=${S('oauth-code', fake(30))}&state=${S('oauth-state', fake(22))} HTTP/1.1" 302 0 "-" "Mozilla/5.0" ${rids[4]}`,
);
line(`${ips[2]} - - [14/Mar/2026:09:26:15 +0000] "GET /messages?sessionId=${G2}&api_key=${S('query-api-key', fake(28))} HTTP/1.1" 202 0 "-" "node" ${rids[5]}`);
line(`${ips[3]} - - [14/Mar/2026:09:26:16 +0000] "GET /mcp?session=${G3pct};sig=${S('query-sig', pick(HEX, 64))} HTTP/1.1" 400 0 "-" "curl/8.5.0" ${rids[6]}`);
line(`${K('127.0.0.1')} - - [14/Mar/2026:09:26:17 +0000] "GET /healthz HTTP/1.1" 200 2 "-" "kube-probe/1.29" ${rids[7]}`);
line(
  `${ips[3]} - - [14/Mar/2026:09:26:18 +0000] "GET /authorize?response_type=code&client_id=fake-client&${K('code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')}&${K('code_challenge_method=S256')}&state=${S('oauth-state', fake(24))}&redirect_uri=${K('http%3A%2F%2F127.0.0.1%3A33418%2Fcallback')} HTTP/1.1" 302 0 "-" "Mozilla/5.0" ${RID()}`,
);
line(`[${'2001:db8:85a3::8a2e:370:7334'}]:51234 - - [14/Mar/2026:09:26:19 +0000] "POST /mcp HTTP/1.1" 200 10 "-" "node" ${RID()}`);
S('ipv6', '2001:db8:85a3::8a2e:370:7334');
line(`${K('::1')} - - [14/Mar/2026:09:26:20 +0000] "GET /healthz HTTP/1.1" 200 2 "-" "curl" ${RID()}`);

// ---------- proxy-error.log ----------
file('proxy-error.log');
const host1 = S('internal-host', 'mcp.fake-corp.internal');
const host2 = S('internal-host', 'mcp-backend-fake');
line(
  `2026/03/14 09:26:13 [error] 29#29: *1201 ${K('upstream prematurely closed connection')} while reading response header from upstream, client: ${ips[1]}, server: ${host1}, request: "POST /mcp HTTP/1.1", upstream: "http://${host2}:8080/mcp", host: "${host1}"`,
);
line(`2026/03/14 09:26:20 [warn] 29#29: *1202 an upstream response is buffered to a temporary file, ${K('proxy_read_timeout')} 60s`);
line(
  `2026/03/14 09:26:21 [error] 29#29: *1203 connect() failed (111: Connection refused) while connecting to upstream, client: ${ips[3]}, server: ${host1}, upstream: "http://${host2}:8080/mcp"`,
);

// ---------- server-node.jsonl (pino-style JSON lines) ----------
file('server-node.jsonl');
const push = (o: unknown) => line(JSON.stringify(o));
push({ level: 30, time: TS(1), msg: 'Created new session with ID: ' + G1, sessionId: G1 });
push({
  level: 30,
  time: K(TS(2)),
  msg: 'request',
  req: {
    method: 'POST',
    url: '/mcp',
    headers: { authorization: 'Bearer ' + S('jwt', jwt('fake-user-1')), 'mcp-session-id': G1, 'x-request-id': K(RID()), cookie: 'theme=dark; sid=' + S('cookie', fake(26)) },
  },
});
push({
  level: 30,
  time: TS(3),
  msg: 'rpc',
  body: {
    jsonrpc: '2.0',
    id: 44,
    method: 'tools/call',
    params: { name: 'create_order', arguments: { customer: S('tool-arguments', 'Umbrella Fake Corp'), notes: S('tool-arguments', 'deliver to back door, code 4411') } },
  },
});
push({
  level: 30,
  time: TS(4),
  msg: 'rpc result',
  body: {
    jsonrpc: '2.0',
    id: 44,
    result: {
      content: [{ type: 'text', text: S('tool-result', 'Order 7781 created for Umbrella Fake Corp at 1 Fake Street') }],
      structuredContent: { orderId: S('tool-result', 'ord_fake_7781_umbrella') },
      isError: false,
    },
  },
});
push({ level: 50, time: TS(5), msg: 'rpc error', body: { jsonrpc: '2.0', id: 45, error: { code: -32001, message: K('Session not found') } } });
K('-32001');
K('"isError":false');
push({
  level: 30,
  time: TS(6),
  msg: 'resources/read',
  body: {
    jsonrpc: '2.0',
    id: 46,
    result: { contents: [{ uri: 'file:///srv/fake/notes.md', mimeType: 'text/markdown', text: S('resource-contents', 'Board minutes: fake acquisition of Hooli') }] },
  },
});
push({
  level: 30,
  time: TS(7),
  msg: 'oauth token',
  token_response: {
    access_token: S('access-token', fake(48)),
    token_type: K('Bearer'),
    expires_in: 3600,
    refresh_token: S('refresh-token', fake(44)),
    id_token: S('jwt', jwt('fake-user-2')),
  },
});
push({
  level: 30,
  time: TS(8),
  msg: 'DCR',
  registration: {
    client_id: 'fake-client-id',
    client_secret: S('client-secret', fake(40)),
    registration_access_token: S('registration-access-token', fake(36)),
    token_endpoint_auth_method: K('client_secret_basic'),
  },
});
push({ level: 40, time: TS(9), msg: 'Rejected request with unknown or expired session ID: ' + G4 });
push({ level: 40, time: TS(10), msg: 'Terminating session ' + G5 });
push({
  level: 30,
  time: TS(11),
  msg: 'github sync',
  token: S('github', 'ghp_' + fake(36)),
  repo: 'fake-org/fake-repo',
  version: K('mcp-server 1.4.2 (commit 3f9ab12c4d5e6f708192a3b4c5d6e7f8091a2b3c)'),
});
push({ level: 30, time: TS(12), msg: 'session ****5a493827 resumed', protocolVersion: K('2025-11-25') });
push({ level: 30, time: TS(13), msg: 'traceparent', traceparent: K('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01') });
push({
  level: 30,
  time: TS(14),
  msg: 'upstream auth',
  headers: [
    { name: 'X-Api-Key', value: S('api-key-header', fake(32)) },
    { name: 'Accept', value: 'application/json' },
  ],
});
push({
  level: 30,
  time: TS(15),
  msg: `sampling`,
  body: {
    jsonrpc: '2.0',
    id: 47,
    method: 'sampling/createMessage',
    params: { messages: [{ role: 'user', content: { type: 'text', text: S('sampling-message', 'Summarise the fake merger memo for Vandelay') } }], maxTokens: 400 },
  },
});
push({ level: 30, time: TS(16), msg: 'session ' + G6 + ' opened', sessionId: G6 });

// ---------- curl-verbose.txt (CRLF, like a capture from Windows) ----------
file('curl-verbose.txt');
line(`*   Trying ${K('127.0.0.1:8000')}...`);
line(`> POST /mcp HTTP/1.1`);
line(`> Host: ${S('internal-host', 'gateway.fake-corp.internal')}`);
line(`> Authorization: Bearer ${S('bearer', fake(52, B64URL))}`);
line(`> Cookie: session_hint=abc; auth_session=${S('cookie', fake(30))}`);
line(`> ${K('Content-Type: application/json')}`);
line(`> Mcp-Session-Id: ${G2}`);
line(`> ${K('MCP-Protocol-Version: 2025-06-18')}`);
line(`>`);
line(`< ${K('HTTP/1.1 401 Unauthorized')}`);
line(
  `< WWW-Authenticate: Bearer ${K('error="invalid_token"')}, error_description="expired", ${K('resource_metadata=')}"http://127.0.0.1:8000/.well-known/oauth-protected-resource"`,
);
line(`< Set-Cookie: refresh=${S('set-cookie', fake(34))}; Path=/; ${K('HttpOnly')}; Secure`);
line(`< mcp-session-id: ${G2}`);
line(`< X-Request-ID: ${K('6c1d2e3f4a5b4c6d8e9f0a1b2c3d4e5f')}`);
line(`<`);
line(`* Connection #0 to host 127.0.0.1 left intact`);
line(`> Authorization: Basic ${S('basic-auth', Buffer.from('fake-client:' + fake(20)).toString('base64'))}`);
line(`> X-Amz-Security-Token: ${S('aws-session-token', 'IQoJb3JpZ2luX2Vj' + fake(60, AL + '+/'))}`);

// ---------- session.har (pretty-printed HAR-ish JSON) ----------
file('session.har');
const har = {
  log: {
    version: '1.2',
    entries: [
      {
        startedDateTime: K('2026-03-14T09:26:53.589Z'),
        request: {
          method: 'POST',
          url: `https://${S('internal-host', 'mcp-edge.fake-corp.internal')}/mcp?api-key=${S('query-api-key', fake(30))}`,
          headers: [
            { name: 'Authorization', value: 'Bearer ' + S('jwt', jwt('fake-user-3')) },
            { name: 'mcp-session-id', value: G3 },
            { name: 'X-Request-ID', value: K('0af7651916cd43dd8448eb211c80319c') },
          ],
          cookies: [{ name: 'csrftoken', value: S('cookie', fake(32)) }],
          queryString: [{ name: 'access_token', value: S('query-access-token', fake(36)) }],
          postData: {
            mimeType: 'application/json',
            text: JSON.stringify({
              jsonrpc: '2.0',
              id: 'req-7',
              method: 'tools/call',
              params: { name: 'send_invoice', arguments: { email: S('tool-arguments', 'billing@initech-fake.test'), amount: 1200 } },
            }),
          },
        },
        response: {
          status: 200,
          headers: [{ name: 'Set-Cookie', value: 'sid=' + S('set-cookie', fake(28)) + '; Path=/' }],
          content: {
            mimeType: 'text/event-stream',
            text: `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 'req-7', result: { content: [{ type: 'text', text: S('tool-result', 'Invoice INV-FAKE-2231 sent to Initech') }], isError: false } })}\n\n`,
          },
        },
      },
    ],
  },
};
for (const l of JSON.stringify(har, null, 2).split('\n')) line(l);
K('"id\\":\\"req-7\\"');
K('send_invoice');

// ---------- env-dump.txt (.env, export lines, PEM block) ----------
file('env-dump.txt');
line(`# dumped by fake-debug-script`);
line(`NODE_ENV=production`);
K('NODE_ENV=production');
line(`export GITHUB_TOKEN=${S('github', 'ghp_' + fake(36))}`);
line(`GH_FINE=${S('github-fine-grained', 'github_pat_11FAKE' + pick(AL, 16) + '_' + pick(AL, 59))}`);
line(`AWS_ACCESS_KEY_ID=${S('aws-access-key', 'AKIA' + 'FAKE' + pick(B32U, 12))}`);
line(`AWS_SECRET_ACCESS_KEY=${S('aws-secret-key', 'FaKe' + pick(AL + '+/', 36))}`);
line(`GOOGLE_API_KEY=${S('google-api-key', 'AIza' + 'FAKE' + pick(AL + '-_', 31))}`);
line(`SLACK_BOT=${S('slack', 'xoxb-1234567890-0987654321-' + fake(24))}`);
line(`SLACK_HOOK=https://hooks.slack.com/services/T0FAKE000/B0FAKE000/${S('slack-webhook', fake(24))}`);
line(`STRIPE_SECRET_KEY=${S('stripe', 'sk_live_' + fake(24))}`);
line(`GITLAB=${S('gitlab', 'glpat-' + fake(20))}`);
line(`HF=${S('huggingface', 'hf_' + fake(34))}`);
line(`NPM_CONFIG=//registry.npmjs.org/:_authToken=${S('npm', 'npm_' + fake(36))}`);
line(`SENDGRID=${S('sendgrid', 'SG.' + fake(22) + '.' + fake(43))}`);
line(`DO=${S('digitalocean', 'dop_v1_' + pick(HEX, 64))}`);
line(`DATABASE_URL=postgres://svc_fake:${S('conn-string-password', 'Pw' + fake(16))}@db.fake-corp.internal:5432/mcp`);
S('internal-host', 'db.fake-corp.internal');
line(`REDIS_PASSWORD=${S('password', 'Summer2026!Fake')}`);
line(`MY_SERVICE_PAT="${S('env-secret', fake(30))}"`);
line(`PORT=8000`);
K('PORT=8000');
line(
  `SERVICE_ACCOUNT={"type": "service_account", "private_key_id": "${S('private-key-id', pick(HEX, 40))}", "private_key": "-----BEGIN PRIVATE KEY-----\\n${S('pem-inline', 'MIIEvFAKE' + pick(AL + '+/', 60))}\\n-----END PRIVATE KEY-----\\n"}`,
);
line(`-----BEGIN RSA PRIVATE KEY-----`);
for (let i = 0; i < 6; i++) line(S('pem', 'MIIE' + (i === 0 ? 'FAKE' : pick(AL, 4)) + pick(AL + '+/', 56)));
line(`-----END RSA PRIVATE KEY-----`);
K('-----BEGIN RSA PRIVATE KEY-----');
K('-----END RSA PRIVATE KEY-----');

// ---------- mcp-remote-stderr.log (ANSI colours, header dumps) ----------
file('mcp-remote-stderr.log');
const E = '\x1b';
line(`[12345] ${K('Using transport strategy: http-first')}`);
line(`[12345] Connecting to remote server: https://${S('internal-host', 'tools.fake-corp.internal')}/mcp`);
line(`[12345] Custom headers: { Authorization: '${E}[32mBearer ${S('bearer', fake(40))}${E}[39m', 'X-Tenant': 'fake' }`);
line(`[12345] ${E}[33m${S('github', 'gho_' + fake(36))}${E}[0m loaded from keychain`);
line(`[12345] Received error: Error POSTing to endpoint (HTTP ${K('401')}): {"error":"${K('invalid_token')}","error_description":"token expired"}`);
line(`[12345] ${K('mcp-remote@0.1.18')} using ${K('@modelcontextprotocol/sdk@1.32.2')}`);
line(`[12345] Session: ${G1.toUpperCase()}`);
line(`[12345] refresh_token=${S('refresh-token', fake(40))}, token_type=Bearer`);
line(`[12345] ${K('Authorization server metadata')} at https://auth.example.com/.well-known/oauth-authorization-server`);
line(`[12345] user home C:\\Users\\${S('user-path', 'wsmith-fake')}\\AppData\\Roaming\\mcp-auth`);

// ---------- oauth-flow.log ----------
file('oauth-flow.log');
line(
  `09:26:30 POST /token ${K('grant_type=authorization_code')}&code=${S('oauth-code', fake(32))}&code_verifier=${S('code-verifier', fake(64, AL + '-._~'))}&client_id=fake-client&client_secret=${S('client-secret', fake(32))}&redirect_uri=http%3A%2F%2F127.0.0.1%3A33418%2Fcallback`,
);
line(
  `09:26:31 token response {"access_token":"${S('access-token', 'ya29.' + fake(60, AL + '-_'))}","expires_in":3599,"${K('token_type')}":"Bearer","refresh_token":"${S('google-refresh', '1//0' + fake(40, AL + '-_'))}"}`,
);
line(`09:26:32 DPoP proof: authorization: DPoP ${S('dpop', 'eyJ' + fake(30, B64URL))}`);
line(`09:26:33 client_secret_post password=${S('password', 'hunter2-fake-pw')} sent`);
line(`09:26:34 later login attempt echoed hunter2-fake-pw in message`);
line(`09:26:35 ${K('GET /.well-known/oauth-protected-resource')} -> ${K('200')}`);
line(`09:26:36 api key fallback: ${S('stripe', 'rk_test_' + fake(26))}, slack app ${S('slack-app', 'xapp-1-A0FAKE' + pick(AL, 10) + '-' + pick(AL, 20))}`);
line(`09:26:37 openai legacy ${S('openai', 'sk-' + fake(20) + 'T3BlbkFJ' + pick(AL, 20))}`);
line(`09:26:38 anthropic oauth ${S('anthropic', 'sk-ant-oat01-' + fake(70, AL + '-_'))}`);
line(
  `09:26:39 aws signed url X-Amz-Credential=${S('aws-access-key', 'ASIA' + 'FAKE' + pick(B32U, 12))}%2F20260314%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Signature=${S('aws-signature', pick(HEX, 64))}`,
);

// ---------- encoded.log (percent, JSON-escaped twice, base64, \u, HTML, split JWT) ----------
file('encoded.log');
const jA = jwt('fake-user-4');
const [h, p, sg] = jA.split('.');
const cut = Math.floor(p!.length / 2);
line(`dump authz=Bearer%20${S('jwt', jwt('fake-user-5'))}&foo=1`);
line(`body=${encodeURIComponent(JSON.stringify({ access_token: S('access-token', fake(40)) }))}`);
const inner = JSON.stringify({ client_secret: S('client-secret', fake(36)) });
line(`log {"payload": ${JSON.stringify(JSON.stringify(inner))}}`);
line(`wrapped token ${S('jwt-base64', Buffer.from(jwt('fake-user-6')).toString('base64'))}`);
line(`unicode Authorization:\\u0020Bearer\\u0020${S('bearer', fake(44))}`);
line(`html &lt;a href=&quot;https://app.fake.test/cb?x=1&amp;access_token=${S('query-access-token', fake(30))}&quot;&gt;`);
line(`split id_token=${S('jwt-split', h + '.' + p!.slice(0, cut))}`);
line(`${S('jwt-split', p!.slice(cut) + '.' + sg)}`);
line(`b64 config ${Buffer.from('db_password=' + S('password', 'Winter2027?Fake') + ' host=fake').toString('base64')}`);
line(`opaque upstream id ${S('opaque', 'Zk3QmL9xR2vT8bN5cW1yH7pJ4sD6fG0aFAKE')} accepted`);
line(`card on file ${S('card', '4111 1111 1111 1111')} (test card)`);
line(`iban ${S('iban', 'GB82WEST12345698765432')}`);
line(`twilio ${S('twilio', 'SK' + pick(HEX, 32))}`);
line(`shopify ${S('shopify', 'shpat_' + pick(HEX, 32))}`);
line(`pypi upload password = ${S('pypi', 'pypi-AgEIcHlwaS5vcmc' + fake(60, B64URL))}`);
line(`Mcp-Session-Id: ${G3}`);
line(`mcp_session_id%3D${G3pct}`);
line(`${K('event: message')}`);
line(`${K('id: 17')}`);

// ---------- sse-stream.log ----------
file('sse-stream.log');
line(`event: endpoint`);
line(`data: /messages/?session_id=${G1hex}`);
line(``);
line(`event: message`);
line(`data: {"jsonrpc":"2.0","id":48,"result":{"content":[{"type":"text","text":"${S('tool-result', 'Fake payroll total: 1,234,567 for Q3')}"}],"isError":true}}`);
line(`data: {"jsonrpc":"2.0","id":49,"error":{"code":${K('-32600')},"message":"${K('Invalid Request')}"}}`);
line(`data: {"jsonrpc":"2.0","method":"${K('notifications/progress')}","params":{"progressToken":"${K('pt-17')}","progress":50}}`);
line(`data: {"jsonrpc":"2.0","id":50,"result":{"protocolVersion":"${K('2025-03-26')}","serverInfo":{"name":"${K('fake-server')}","version":"${K('0.9.1')}"}}}`);
line(`: keep-alive`);
line(`data: {"jsonrpc":"2.0","id":51,"result":{"content":[{"type":"text","text":"see ${S('email', 'alice.fake@hooli-fake.test')}"}]}}`);
line(`session ${G6} idle timeout`);

// ---------- mixed-contexts.log: each token shape in many wrappers (redaction.md §4 generative) ----------
file('mixed-contexts.log');
const makers: Array<[string, () => string]> = [
  ['github', () => 'ghp_' + fake(36)],
  ['gitlab', () => 'glpat-' + fake(20)],
  ['slack', () => 'xoxp-1234567890-' + fake(26)],
  ['stripe', () => 'sk_test_' + fake(30)],
  ['openai', () => 'sk-proj-' + fake(64, AL + '-_')],
  ['anthropic', () => 'sk-ant-api03-' + fake(80, AL + '-_') + 'AA'],
  ['aws-access-key', () => 'AKIA' + 'FAKE' + pick(B32U, 12)],
  ['google-api-key', () => 'AIza' + 'FAKE' + pick(AL + '-_', 31)],
  ['huggingface', () => 'hf_' + fake(34)],
  ['npm', () => 'npm_' + fake(36)],
  ['jwt', () => jwt('fake-mixed-' + pick(HEX, 6))],
];
const wrappers: Array<(v: string) => string> = [
  (v) => `token (${v}) rejected`,
  (v) => `keys=[${v}]`,
  (v) => `{"k": "${v}", "n": 1}`,
  (v) => `value ${v}; next`,
  (v) => `<${v}>`,
  (v) => `|${v}|`,
  (v) => `${E}[31m${v}${E}[0m`,
  (v) => `url https://fake.test/x?a=1&t=${v}&b=2`,
  (v) => `tuple=('${v}',)`,
  (v) => `end of line ${v}`,
];
let wi = 0;
for (const [kind, make] of makers) {
  for (let r = 0; r < 5; r++) {
    const w = wrappers[wi++ % wrappers.length]!;
    line(`2026-03-14 09:27:${String(wi).padStart(2, '0')},000 DEBUG fake.module: ${w(S(kind, make()))}`);
  }
}
// nginx lines with token-bearing query strings, one per request
for (let i = 0; i < 12; i++) {
  const names = ['access_token', 'token', 'api_key', 'client_secret', 'id_token', 'refresh_token'];
  const n = names[i % names.length]!;
  const sep = i % 3 === 0 ? ';' : '&';
  line(
    `${K('127.0.0.1')} - - [14/Mar/2026:09:28:${String(i).padStart(2, '0')} +0000] "GET /sse?v=2${sep}${n}=${S('query-' + n.replace('_', '-'), fake(24 + i))} HTTP/1.1" 200 0 "-" "node" ${K(RID())}`,
  );
}

// ---------- issue #18: recall gaps by kind (hosts, phones, arguments, business k=v, passwords, users, cloud keys, cards) ----------
const NAMES = ['Ada Fakelace', 'Jürgen Müllerfake', 'Zoë Fake-Okafor', 'Björn Fakesson', 'Amélie Fauxbert', 'Kenji Fakemoto'];
const STREETS = ['12 Rue de la Fausse Paix, 75002 Paris', 'Hauptstraße 5, 10115 Fakeberlin', '221B Fake Street, London NW1', '1 Infinite Fake Loop, Cupertino CA 95014'];
const pick1 = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
const digits = (n: number) => pick('0123456789', n);

file('infra.log');
// Internal host names by structure: DNS suffix anywhere, or a host-naming position.
for (const [kind, make] of [
  ['host-dot-internal', () => `${pick('abcdefghijklmnop', 6)}.fake-${pick('abcdef', 3)}.internal`],
  ['host-dot-local', () => `nas-${pick('abcdef', 4)}.local`],
  ['host-svc-cluster', () => `orders-${pick('abcdef', 3)}.shop-fake.svc.cluster.local`],
  ['host-corp', () => `git.fake${pick('abcdef', 3)}.corp`],
  ['host-lan', () => `printer${digits(2)}.lan`],
  ['host-home-arpa', () => `pi-${pick('abcdef', 3)}.home.arpa`],
  ['host-consul', () => `vault-${pick('abcdef', 3)}.service.consul`],
] as Array<[string, () => string]>) {
  for (let r = 0; r < 4; r++) {
    const h = S(kind, make());
    line(
      `2026-03-14 09:30:${String(r * 7).padStart(2, '0')},120 WARNING httpx: ${pick1(['connecting to', 'lookup', 'retrying'])} ${h}${r === 1 ? ':5432' : ''} ${K('(attempt 2)')}`,
    );
  }
}
line(`> Host: ${S('host-header', 'mcp-gw-' + pick('abcdef', 5))}`);
line(`< Host: ${S('host-header', 'edge' + digits(2) + '.fakecorp-intra.net')}`);
line(
  `2026/03/14 09:30:40 [error] 31#31: *88 upstream timed out, client: 127.0.0.1, server: ${S('host-server-key', 'mcp.' + pick('abcdef', 5) + '-fake.io')}, request: "POST /mcp HTTP/1.1"`,
);
line(`envoy upstream_cluster=${S('host-upstream-key', 'outbound-8080-orders-' + pick('abcdef', 4))} response_code=503`);
line(`db_host: ${S('host-db-key', 'pg-primary-' + digits(1) + '-' + pick('abcdef', 4))}`);
line(`2026-03-14 09:30:41 nginx: proxying to upstream ${S('host-upstream-prose', 'orders_backend_' + pick('abcdef', 4))}, ${K('upstream prematurely closed connection')}`);
line(`HAProxy backend ${S('host-upstream-prose', 'mcp-pool-' + pick('abcdef', 4))}/srv2 is DOWN`);
line(`docs at ${K('https://modelcontextprotocol.io/specification/2025-06-18/basic/transports')} and ${K('https://github.com/modelcontextprotocol/typescript-sdk/issues/1211')}`);
line(`listening on ${K('http://localhost:3000/mcp')} and ${K('http://127.0.0.1:8000/mcp')}; loaded ${K('.env.local')}`);
// Passwords by position, whatever their entropy.
line(`REDIS_URL=redis://default:${S('password-low-entropy', 'password1fake')}@cache:6379`);
line(`password=${S('password-digits', digits(8))}`);
line(`{"db": {"user": "svc", "password": ${S('password-json-number', digits(9))}}}`);
line(`  password: ${S('password-yaml', 'letmein-' + pick('abcdef', 4))}`);
line(`$ mcp-server --port 8000 --password ${S('password-cli-flag', 'Autumn' + digits(4) + 'fake')} --verbose`);
line(`$ psql --password=${S('password-cli-flag', 'qwerty' + digits(3) + 'fake')} -h db`);
line(`$ mysql -u ${S('user-flag', 'shop_' + pick('abcdef', 4))} -p${S('password-mysql-p', 'S3cret' + pick('abcdef', 3))} shop`);
line(`Server=sql01;Database=app;User Id=sa;Password=${S('password-ado', 'weakpass' + digits(2))};Encrypt=true`);
line(`<config><username>svc</username><password>${S('password-xml', 'changeme' + digits(2))}</password></config>`);
line(`requests.get(url, auth=('${S('user-tuple', 'alice' + pick('abcdef', 3))}', '${S('password-auth-tuple', 'hunter' + digits(2) + 'fake')}'))`);
line(`psycopg.connect("dbname=app user=app password=${S('password-libpq', 'dragon' + digits(3))} host=127.0.0.1")`);
// User names outside home paths.
line(`user=${S('user-key', 'jdoe' + pick('abcdef', 3))} logged in from 127.0.0.1`);
line(`{"level":30,"msg":"login","username":"${S('user-json', 'mary.' + pick('abcdef', 5))}"}`);
line(`Logon failure: ${S('user-domain-full', 'FAKECORP\\' + 'bsmith' + pick('abcdef', 2))}`);
line(`$ ssh ${S('user-ssh', 'deploy' + pick('abcdef', 3))}@bastion-01`);
line(`$ mcp-proxy --user ${S('user-flag', 'ops' + pick('abcdef', 4))} --port 8080`);
line(`access denied for user ${S('user-prose', 'erin' + pick('abcdef', 3))}`);
line(`  File "/Users/${S('user-path-mac', 'kim' + pick('abcdef', 3))}/proj/server.py", line 4`);
// Cloud secret keys by context.
const akid = () => 'AKIA' + 'FAKE' + pick(B32U, 12);
const aws40 = () => 'Fk' + pick(AL, 10) + '/' + pick(AL, 12) + '+' + pick(AL, 14);
line(`aws configure: ${S('aws-access-key', akid())} ${S('aws-secret-after-id', aws40())}`);
line(`User name,Access key ID,Secret access key`);
line(`svc-bot,${S('aws-access-key', akid())},${S('aws-secret-csv', aws40())}`);
line(`{"Credentials": {"AccessKeyId": "${S('aws-access-key', 'ASIA' + 'FAKE' + pick(B32U, 12))}", "SecretAccessKey": "${S('aws-secret-json-key', aws40())}"}}`);
line(`aws_secret_access_key = ${S('aws-secret-env-lower', aws40())}`);

file('tool-args.log');
// Business data inside tool arguments, whatever the syntax or language.
for (let r = 0; r < 5; r++) {
  const n = S('args-python-repr', pick1(NAMES));
  const a = S('args-address', pick1(STREETS));
  line(`2026-03-14 09:31:0${r},000 DEBUG mcp.client: tool call arguments: {'customer': '${n}', 'address': '${a}', 'qty': ${r + 1}}`);
}
for (let r = 0; r < 5; r++) line(`[mcp-client] calling tool create_order args={ customer: '${S('args-inspect', pick1(NAMES))}', street: '${S('args-address', pick1(STREETS))}' }`);
for (let r = 0; r < 2; r++)
  line(`2026-03-14 09:31:2${r} DEBUG tool create_order args=customer=${S('args-free-text', pick1(NAMES))},note=${S('args-free-text', 'leave at back door ' + digits(4))}`);
for (let r = 0; r < 5; r++)
  push({ level: 20, time: TS(60 + r), msg: 'tool call', tool: 'create_order', args: { name: S('args-name-unicode', pick1(NAMES)), street: S('args-json-log', pick1(STREETS)) } });
line(`call_tool('send_invoice', arguments=('${S('args-tuple', pick1(NAMES))}', ${digits(3)}))`);
line(`tool_input: "${S('args-quoted', 'ship to ' + pick1(STREETS))}"`);
// Business values in k=v pairs of tool calls.
for (let r = 0; r < 5; r++) {
  line(`{"level":30,"tool":"create_order","msg":"tools/call create_order start sku=${S('kv-sku', 'SKU-' + pick('ABCDEFGH', 4) + '-FAKE')} ${K('qty=2')}"}`);
  line(`{"level":30,"tool":"create_order","msg":"tools/call create_order committed order=${S('kv-order', 'ORD-F' + digits(5))}"}`);
}
line(
  `tools/call send_invoice customer=${S('kv-customer', 'Initech-Fake-' + digits(3))} email=${S('kv-email', 'ap.' + pick('abcdef', 4) + '@initech-fake.test')} amount=${S('kv-amount', '1' + digits(3) + '.' + digits(2))}`,
);
line(`tool=ship_parcel address="${S('kv-address', pick1(STREETS))}" carrier=ups`);
line(`tools/call delete_project start project=${S('kv-project', 'prj-' + digits(5))} (removing 3 environments)`);
line(`${K('tools/call import_orders committed batch=b1 imported=42')}`);
// Phone numbers: E.164 anywhere, national forms with context; never inside ids or timestamps.
for (let r = 0; r < 5; r++) line(`contact ${S('phone-e164', '+1415555' + digits(4))} for escalations`);
line(`call me at ${S('phone-e164-spaced', '+44 20 7946 ' + digits(4))} or ${S('phone-nanp-parens', '(415) 555-' + digits(4))}`);
line(`phone: ${S('phone-national-uk', '020 7946 ' + digits(4))}`);
line(`tel ${S('phone-national-fr', '01 42 68 ' + digits(2) + ' ' + digits(2))}`);
push({ level: 30, time: TS(70), msg: 'profile', profile: { phone: S('phone-key-json', '+49 30 ' + digits(7)) } });
// Cards and IBANs: Luhn/mod-97 plus separators or context; ids that merely start with such digits stay.
line(`charged card ${S('card-grouped-dash', '5500-0000-0000-0004')} ok`);
line(`amex ${S('card-amex', '3782 822463 10005')} declined`);
line(`{"card_number": "${S('card-context-bare', '4012888888881881')}"}`);
line(`iban ${S('iban-de', 'DE89 3704 0044 0532 0130 00')}`);
line(`${K('X-Request-ID: 4111111111111111a3ce929d0e0e4736')}`);
line(`${K('traceparent: 00-4111111111111111a3ce929d0e0e4736-00f067aa0ba902b7-01')}`);
line(`${K('request_id=5500000000000004')}ffee ${K('ts=2026-03-14T09:26:10.123+01:00')} ${K('epoch_ms=1718000000000')}`);
// Masked and shortened session ids that must join their session's pseudonym.
line(`2026-03-14 09:32:00 WARNING mcp.client: session ${G1.slice(0, 4)}…${G1.slice(-4)} expired`);
line(`2026-03-14 09:32:01 WARNING mcp.client: resuming session …${G1.slice(-8)}`);
line(`2026-03-14 09:32:02 INFO mcp.client: session ${G1.slice(0, 8)} idle`);
line(`2026-03-14 09:32:03 DEBUG mcp.client: mcp-session-id: ${G2.slice(0, 8)}-xxxx-xxxx-xxxx-xxxxxx${G2.slice(-6)}`);

// ---------- issue #18, second pass: the shapes an outside corpus showed (one file, so earlier files keep their bytes) ----------
file('more-kinds.log');
const G7 = 'e7d1c0b2-5a4f-4c3e-9b2a-1f0e9d8c7b6a';
line(`2026-03-14 09:40:00 INFO server: Created new session with ID: ${G7}`);
line(`2026-03-14 09:40:01 WARN server: Session not found: ${G7}`);
line(
  `2026-03-14 09:40:02 request: &http.Request{Method:"POST", Proto:"${K('HTTP/1.1')}", Header:http.Header{"Mcp-Session-Id":[]string{"${G7}"}}, Host:"${S('host-go-dump', 'mcp.' + pick('abcdef', 5) + '.internal')}"}`,
);
line(`2026-03-14 09:40:03 headers: map[Authorization:[Bearer ${S('bearer', fake(40))}] Cookie:[grafana_session=${S('cookie-go-map', pick(HEX, 32))}]]`);
line(`${ips[0]} - - [14/Mar/2026:09:40:04 +0000] "GET /cb?access_token=${S('query-access-token', fake(30))}&token_type=bearer ${K('HTTP/1.1')}" 200 0 "-" "node"`);
line(
  `{"level":30,"msg":"resources/read","uri":"${K('notes://customer/1240')}","contents":[{"uri":"notes://x","text":"${S('resource-contents', 'Customer prefers invoices in ' + pick1(['Portuguese', 'Finnish', 'Welsh']))}"}]}`,
);
line(`[03/14/26 09:40:05] DEBUG resources/read -> TextResourceContents(text='${S('resource-repr', 'Deal desk: ' + pick1(NAMES) + ' asks for 90-day terms')}')`);
line(`[03/14/26 09:40:06] INFO elicitation/create message='${S('elicitation-repr', 'Confirm the refund of ' + digits(4) + '.00 EUR?')}'`);
line(
  `data: {"jsonrpc":"2.0","method":"elicitation/create","id":9,"params":{"message":"${S('elicitation-json', 'Please confirm shipping to ' + pick1(STREETS))}","requestedSchema":{"type":"object"}}}`,
);
line(`2026-03-14T09:40:07.000Z INFO [host-app] Calling tool get_order {"order_id":"${S('args-calling-tool', 'ORD-' + digits(5))}"}`);
line(`2026-03-14T09:40:08.000Z INFO [host-app] Tool get_order returned isError=false in 5 ms: {"ship_to":"${S('result-tool-returned', pick1(STREETS))}"}`);
line(`[03/14/26 09:40:09] WARNING structured output: {'consignee': '${S('result-structured', pick1(NAMES))}'}`);
line(`[03/14/26 09:40:10] INFO tool call lookup_customer kwargs: customer_id=${S('args-kwargs', 'CUST-' + digits(6))}, name='${S('args-kwargs', pick1(NAMES))}'`);
line(`2026/03/14 09:40:11 calling tool search_issues with arguments map[assignee:${S('args-go-map', pick1(NAMES))} project:payments]`);
line(
  `2026-03-14T09:40:12.000Z INFO [host-app] create_order committed order=${S('kv-order-anywhere', 'ORD-' + digits(5))} customer=${S('kv-customer-anywhere', 'CUST-' + digits(6))} total=${S('kv-money-anywhere', digits(4) + '.' + digits(2))}`,
);
line(`payout prepared holder=${S('kv-person', pick1(NAMES))} amount=${S('kv-amount', digits(3) + '.' + digits(2))}`);
line(`customer: ${S('kv-yaml-person', pick1(NAMES))}, ssn ${S('ssn', '5' + digits(2) + '-' + '3' + digits(1) + '-' + '8' + digits(3))}`);
push({
  level: 30,
  time: TS(80),
  msg: 'user login',
  user: {
    username: S('user-json', 'akow' + pick('abcdef', 4)),
    ssn: S('ssn-json', '4' + digits(2) + '-5' + digits(1) + '-7' + digits(3)),
    customer_id: S('kv-json', 'CUST-' + digits(6)),
  },
});
push({
  level: 30,
  time: TS(81),
  msg: 'proxied',
  upstream_addr: S('host-json-key', 'orders_backend_' + pick('abcdef', 4)),
  hostname: S('host-json-key', 'replica-' + pick('abcdef', 4)),
});
line(
  `Mar 14 09:40:13 lb1 haproxy[1234]: 127.0.0.1:31154 [14/Mar/2026:09:40:13.767] fe_mcp~ be_mcp/${S('upstream-haproxy', 'mcp-orders-' + digits(1))} 0/0/1/76/39 200 3281 - - ---- 1/1/0/0/0 0/0 "POST /mcp HTTP/1.1"`,
);
line(`[2026-03-14T09:40:14.792Z] "POST /mcp HTTP/2" 401 UAEX 0 61 1 - outbound|8080||${S('upstream-envoy', 'ext-authz-' + pick('abcdef', 4))} ext_authz_denied`);
line(`2026/03/14 09:40:15 [error] 40#40: *35 user "${S('user-quoted', 'ops-' + pick('abcdef', 4))}": password mismatch, client: 127.0.0.1`);
line(`* Proxy auth using Basic with user '${S('user-with', 'proxy' + pick('abcdef', 4))}'`);
line(`Starting OrdersAgentApplication v2.0.3 (/app/orders-agent.jar started by ${S('user-started-by', 'svc_' + pick('abcdef', 5))} in /app)`);
line(`LOGNAME=${S('user-logname', 'pkov' + pick('abcdef', 3))}`);
line(`{"level":"debug","message":"[MCP][User: ${S('user-objectid', pick(HEX, 24))}][crm-mcp] Removed connection entry."}`);
line(`DB = ("pg.${pick('abcdef', 5)}.internal", 5432, "finance", "${S('password-conn-tuple', 'Fin4nce' + digits(4))}")`);
line(`proxy: &url.URL{Scheme:"http", User:url.UserPassword("svc-mcp", "${S('password-go-userpassword', 'winter-is-' + pick('abcdef', 5))}")}`);
line(`$ curl -v -u admin:${S('password-curl-u', 'changeme' + digits(2))} https://mcp.example/mcp`);
line(`$ sshpass -p ${S('password-sshpass', 'Spring' + digits(4) + '!')} ssh deploy@10.0.0.9 'uptime'`);
line(`c.zaxxer.hikari.HikariConfig : password........................${S('password-dotted', 'hikariSecret' + digits(2))}`);
line(`auth-proxy level=debug msg="ticket" x-upstream-auth=${S('secret-auth-suffix', fake(40))} x-tenant-ticket=${S('secret-ticket', pick(HEX, 48))}`);
line(`AZURE_TENANT_ID=${S('cloud-tenant-id', uuid())}`);
line(`  subscriptionId: ${S('cloud-subscription-id', uuid())}`);
line(`Image: ${S('cloud-aws-account', digits(12))}.dkr.ecr.eu-west-1.amazonaws.com/orders-mcp:1.4.2`);
line(`role arn:aws:iam::${S('cloud-aws-account', digits(12))}:role/orders`);
line(`auth-proxy level=info msg="contact" tel=${S('phone-logfmt', '020 7946 ' + digits(4))} addr="${S('kv-addr', pick1(STREETS))}"`);
line(`connectionString=mongodb://orders:${S('conn-string-password', 'mongo-pass-' + digits(2))}@${S('internal-host', 'mongo-0.' + pick('abcdef', 3) + '.internal')}:27017/orders`);
line(
  `gateway-1 | \x1b[2m2026-03-14T09:40:16.045Z\x1b[0m DEBUG \x1b[33mmcp-session-id\x1b[0m: \x1b[35m${G7}\x1b[0m upstream \x1b[4mhttp://${S('host-ansi-url', 'orders-mcp-' + digits(1))}:8000/mcp\x1b[0m`,
);
line(`2026-03-14T09:40:17Z info request mcp.session=${G7} http.status=200`);

// More must-keeps that appear in the lines above.
const outputMustContain = ['session_id=sess_', 'Mcp-Session-Id: sess_', 'mcp-session-id: sess_', 'Received session ID: sess_', '"mcp-session-id":"sess_'];
for (const k of [
  '"jsonrpc":"2.0"',
  '"id":48',
  '"id":49',
  '"isError":true',
  'X-Request-ID: ',
  'mcp.client.streamable_http',
  '"method":"tools/call"',
  'error_description="expired"',
  '[error] 29#29',
  'python-httpx/0.28.1',
  'kube-probe/1.29',
  'GET /healthz HTTP/1.1',
  'Connection refused',
  '"type":"text"',
  'response_type=code',
  'redirect_uri=',
  'HTTP/1.1" 302',
])
  K(k);

// ---------- write ----------
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
for (const [name, ls] of files) {
  const eol = name === 'curl-verbose.txt' ? '\r\n' : '\n';
  writeFileSync(join(OUT, name), ls.join(eol) + eol);
}
const all = [...files.entries()].map(([n, ls]) => ({ n, text: ls.join('\n') }));
for (const k of mustKeep) if (!all.some((f) => f.text.includes(k))) throw new Error(`must-keep not planted: ${k}`);
for (const s of secrets)
  if (!files.get(s.file)!.join('\n').includes(s.value) && !['jwt-base64'].includes(s.kind) && !s.kind.startsWith('pem') && s.kind !== 'password') {
    throw new Error(`secret not planted: ${s.kind} ${s.value}`);
  }
const manifest = {
  note: 'Synthetic, obviously fake values in real formats. Generated by generate.ts; do not edit by hand.',
  secrets,
  mustKeep: [...mustKeep],
  outputMustContain,
  sessionGroups: [
    {
      name: 'uuid-python',
      raw: G1,
      spellings: [G1, G1hex, G1.toUpperCase()],
      masked: ['3f2a9c1e****', `${G1.slice(0, 4)}…${G1.slice(-4)}`, `…${G1.slice(-8)}`, `session ${G1.slice(0, 8)} idle`],
      files: ['client-python.log', 'proxy-access.log', 'server-node.jsonl', 'mcp-remote-stderr.log', 'sse-stream.log', 'tool-args.log'],
      expect: 'one-pseudonym',
    },
    {
      name: 'uuid-ts',
      raw: G2,
      spellings: [G2],
      masked: ['****5a493827', `${G2.slice(0, 8)}-xxxx-xxxx-xxxx-xxxxxx${G2.slice(-6)}`],
      files: ['client-python.log', 'proxy-access.log', 'curl-verbose.txt', 'server-node.jsonl', 'tool-args.log'],
      expect: 'one-pseudonym',
    },
    { name: 'opaque-percent', raw: G3, spellings: [G3, G3pct], masked: [], files: ['proxy-access.log', 'session.har', 'encoded.log'], expect: 'one-pseudonym' },
    { name: 'prefix-twin-a', raw: G4, spellings: [G4], masked: [], files: ['server-node.jsonl'], expect: 'one-pseudonym' },
    { name: 'prefix-twin-b', raw: G5, spellings: [G5], masked: [], files: ['server-node.jsonl'], expect: 'one-pseudonym' },
    { name: 'uuid-more-kinds', raw: G7, spellings: [G7], masked: [], files: ['more-kinds.log'], expect: 'one-pseudonym' },
    { name: 'opaque-server', raw: G6, spellings: [G6], masked: [], files: ['server-node.jsonl', 'sse-stream.log'], expect: 'one-pseudonym' },
    { name: 'ambiguous-mask', raw: null, spellings: [], masked: ['c0ffee12****'], candidates: [G4, G5], files: ['client-python.log'], expect: 'joins-none' },
    { name: 'unresolved-mask', raw: null, spellings: [], masked: ['deadbeef42****'], candidates: [], files: ['client-python.log'], expect: 'own-pseudonym' },
  ],
};
writeFileSync(join(HERE, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
const kinds = new Set(secrets.map((s) => s.kind));
console.log(`${secrets.length} secrets, ${kinds.size} kinds, ${mustKeep.size} must-keeps, ${files.size} files`);
