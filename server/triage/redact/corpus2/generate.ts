// corpus2 generator: writes logs/*.{log,txt,jsonl,har} and logs/manifest.json from a fixed seed.
//
//   npx tsx server/triage/redact/corpus2/generate.ts [--out DIR]
//
// Written from BRIEF.md (the kinds) and the log layouts of samples/ only; the redaction rules were
// never opened. Every value is random from SEED: real formats, never real credentials or people.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Corpus, R, b64, b64url, fakes, group4, iban, luhn, type Manifest } from './core.ts';

export const SEED = 0x5eed_2026;
export const LOGS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'logs');

// ---------------------------------------------------------------------------------------------
// clocks and people

class Clock {
  constructor(
    private r: R,
    private ms: number,
  ) {}
  tick(lo = 1, hi = 350): this {
    this.ms += this.r.int(lo, hi);
    return this;
  }
  jump(s: number): this {
    this.ms += s * 1000;
    return this;
  }
  private get d() {
    return new Date(this.ms);
  }
  get epoch() {
    return this.ms;
  }
  iso() {
    return this.d.toISOString();
  }
  py() {
    return this.iso().replace('T', ' ').replace('Z', '').replace('.', ',');
  }
  java() {
    return this.iso().replace('T', ' ').replace('Z', '');
  }
  ngx() {
    return this.iso().slice(0, 19).replace(/-/g, '/').replace('T', ' ');
  }
  clf() {
    const d = this.d;
    const mon = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][d.getUTCMonth()];
    return `${String(d.getUTCDate()).padStart(2, '0')}/${mon}/${d.getUTCFullYear()}:${this.iso().slice(11, 19)} +0000`;
  }
  syslog() {
    const mon = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][this.d.getUTCMonth()];
    return `${mon} ${String(this.d.getUTCDate()).padStart(2, ' ')} ${this.iso().slice(11, 19)}`;
  }
  haproxy() {
    return `${this.clf().slice(0, 20)}.${this.iso().slice(20, 23)}`;
  }
  rich() {
    const i = this.iso();
    return `[${i.slice(5, 7)}/${i.slice(8, 10)}/${i.slice(2, 4)} ${i.slice(11, 19)}]`;
  }
}

const FIRST = [
  'Marguerite',
  'Tobias',
  'Priya',
  'Oluwaseun',
  'Henrik',
  'Camila',
  'Rafael',
  'Ingrid',
  'Mateus',
  'Siobhan',
  'Kwame',
  'Leonie',
  'Anders',
  'Beatriz',
  'Yusuf',
  'Greta',
  'Declan',
  'Noor',
];
const LAST = [
  'Okonkwo',
  'Lindqvist',
  'Raghunathan',
  'Adeyemi',
  'Vasquez',
  'Brennan',
  'Castellanos',
  'Fairweather',
  'Nakashima',
  'Thorsen',
  'Delacroix',
  'Abernathy',
  'Kowalczyk',
  'Moreau',
  'Achterberg',
  'Quintero',
];
const NON_LATIN = [
  '山田 花子',
  '佐藤 健太',
  'Дмитрий Волков',
  'Анна Смирнова',
  'Γιώργος Παπαδόπουλος',
  'محمد الأحمد',
  'Zoë Müller-Łukasiewicz',
  'José Ñúñez Peña',
  'Søren Kjærgård-Holm',
  '김민준',
  'Ελένη Κωνσταντίνου',
  'Łucja Wójcik-Żak',
];
const DOMAINS = ['example.com', 'example.org', 'example.net', 'mail.example.co.uk', 'northwind.example', 'kestrel-dynamics.example'];
const COMPANIES = [
  'Kestrel Dynamics GmbH',
  'Bluewater Freight Ltd',
  'Harrow & Finch LLP',
  'Okapi Textiles SARL',
  'Lumen Dental Group',
  'Northgate Cold Storage',
  'Saffron Lane Bakeries',
  'Tidewater Marine Supply',
  'Alder & Rowe Architects',
  'Quillfeather Publishing',
];
const NOTES = [
  'leave parcel behind the blue shed, gate code 4471',
  'refund two dented kettles from the March batch',
  'quote 14% volume discount if they sign before Q3',
  'contract renewal at risk, CFO unhappy with SLA',
  'customer disputes invoice, wants credit note',
  'deliver after 6pm only, dog in the yard',
  'replace cracked display under warranty',
  'VIP account: waive the restocking fee',
  'second complaint this month about late delivery',
  'ship the replacement before the original is returned',
  'price match against the competitor quote of 1180 EUR',
  'pallet damaged in transit, photos attached to ticket',
];
const PRODUCTS = [
  'Ceramic kettle 1.7L, matte black',
  'Espresso grinder Pro 64mm',
  'Oak standing desk 160x80',
  'Cold-brew tower, 8 cups',
  'Noise-cancelling headset NC-700',
  'Industrial shelving unit, 5 tiers',
];
const STREETS = [
  '1428 Elm Street, Springfield, IL 62704',
  '221 Harbour Road, Leith, Edinburgh EH6 6LD',
  'Hauptstraße 12, 10115 Berlin',
  '12 rue des Lilas, 75011 Paris',
  'Calle de Alcalá 48, 28014 Madrid',
  '東京都千代田区丸の内1-9-2',
  '88 Kingfisher Close, Bristol BS4 2QP',
  'Keizersgracht 418, 1016 GC Amsterdam',
  'ul. Marszałkowska 84/92, 00-514 Warszawa',
  '7 Wattle Grove, Fitzroy VIC 3065',
  'Rua Augusta 1508, 01304-001 São Paulo',
  'улица Тверская 7, Москва 125009',
];

function people(r: R) {
  return {
    name: () => `${r.pick(FIRST)} ${r.pick(LAST)}`,
    nonLatin: () => r.pick(NON_LATIN),
    email: (name?: string) => {
      const [f, l] = (name ?? `${r.pick(FIRST)} ${r.pick(LAST)}`).toLowerCase().split(' ');
      const tag = r.next() < 0.3 ? `+${r.pick(['mcp', 'billing', 'test', 'orders'])}` : '';
      return `${f}.${l}${tag}@${r.pick(DOMAINS)}`;
    },
    e164: () =>
      r.pick([
        `+1415555${r.int(100, 199).toString().slice(1)}${r.int(10, 99)}`,
        `+44 20 7946 0${r.int(100, 999)}`,
        `+49 30 9018${r.int(1000, 9999)}`,
        `+33 6 ${r.int(10, 99)} ${r.int(10, 99)} ${r.int(10, 99)} ${r.int(10, 99)}`,
        `+81 3-5555-${r.int(1000, 9999)}`,
      ]),
    national: () =>
      r.pick([
        `(415) 555-01${r.int(10, 99)}`,
        `020 7946 0${r.int(100, 999)}`,
        `030 9018 ${r.int(1000, 9999)}`,
        `06 ${r.int(10, 99)} ${r.int(10, 99)} ${r.int(10, 99)} ${r.int(10, 99)}`,
        `0171 ${r.int(100, 999)} ${r.int(1000, 9999)}`,
      ]),
    address: () => r.pick(STREETS),
    company: () => r.pick(COMPANIES),
    note: () => r.pick(NOTES),
    product: () => r.pick(PRODUCTS),
    card: (sep: '' | ' ' | '-' = '') => luhn('400000' + r.str(9, '0123456789')).replace(/(\d{4})(?=\d)/g, `$1${sep}`),
    amex: () => luhn('3782' + r.str(10, '0123456789')),
    iban: (country: 'DE' | 'GB' | 'FR' | 'NL' = 'DE') =>
      country === 'DE'
        ? iban('DE', r.str(18, '0123456789'))
        : country === 'GB'
          ? iban('GB', r.upper(4) + r.str(14, '0123456789'))
          : country === 'NL'
            ? iban('NL', r.upper(4) + r.str(10, '0123456789'))
            : iban('FR', r.str(23, '0123456789')),
    ssn: () => `${r.int(100, 665)}-${r.int(10, 99)}-${r.int(1000, 9999)}`,
    order: () => `ORD-${r.digits(5)}`,
    sku: () => `${r.pick(['KTL', 'GRD', 'DSK', 'CBT', 'HDS', 'SHV'])}-${r.digits(4)}-${r.pick(['BLK', 'WHT', 'OAK', 'STL'])}`,
    customer: () => `CUST-${r.digits(6)}`,
    amount: () => `${r.int(12, 9800)}.${String(r.int(0, 99)).padStart(2, '0')}`,
    po: () => `PO-2026-${r.digits(5)}`,
  };
}

function net(r: R) {
  return {
    ip10: () => `10.${r.int(0, 255)}.${r.int(0, 255)}.${r.int(2, 254)}`,
    ip172: () => `172.${r.int(16, 31)}.${r.int(0, 255)}.${r.int(2, 254)}`,
    ip192: () => `192.168.${r.int(0, 255)}.${r.int(2, 254)}`,
    pub: () => r.pick([`198.51.100.${r.int(2, 254)}`, `203.0.113.${r.int(2, 254)}`]),
    v6: () => r.pick([`fd${r.hex(2)}:${r.hex(4)}:${r.hex(4)}:1::${r.hex(2)}`, `fe80::${r.hex(4)}:${r.hex(2)}ff:fe${r.hex(2)}:${r.hex(4)}`, `2001:db8:${r.hex(4)}::${r.hex(3)}`]),
    mac: (sep = ':') => Array.from({ length: 6 }, () => r.hex(2)).join(sep),
    internal: () =>
      r.pick([
        `mcp-gw-${r.int(1, 9)}.prod.internal`,
        `orders-api.${r.pick(['eu', 'us'])}-west.internal`,
        `ip-10-${r.int(1, 250)}-${r.int(1, 250)}-${r.int(1, 250)}.eu-west-1.compute.internal`,
        `build-${r.int(10, 99)}.acme.lan`,
        `wiki.intranet`,
        `crm-db.acme.corp`,
        `mcp-${r.lower(4)}.local`,
        `vault.ops.acme-intra.internal`,
      ]),
    svc: () => r.pick([`orders-mcp.tools.svc.cluster.local`, `billing-mcp.finance.svc.cluster.local`, `redis-master.cache.svc`, `keycloak.auth.svc.cluster.local`]),
  };
}

// ---------------------------------------------------------------------------------------------
// the files

type B = { c: Corpus; r: R; f: ReturnType<typeof fakes>; p: ReturnType<typeof people>; n: ReturnType<typeof net> };

/** Python logging client (httpx, mcp), loguru-style diagnosed traceback. */
function pyClient({ c, r, f, p, n }: B) {
  const { s, k } = c;
  const t = new Clock(r, Date.UTC(2026, 2, 14, 9, 12, 44, 101));
  const user = 'mhernandez';
  const host = 'mcp-orders.prod.internal';
  const dbHost = 'pg-orders-01.db.internal';
  const sid = r.uuid();
  const bearer = f.bearerOpaque();
  const name1 = p.name();
  const venv = `/home/${s('home-path-username', user)}/projects/orders-agent/.venv/lib/python3.12/site-packages`;
  const L = [
    `${k(t.tick().py())} - orders_agent - INFO - Starting orders-agent 2.3.1 (python 3.12.2, ${k('mcp 1.9.4')}, httpx 0.28.1)`,
    `${t.tick().py()} - orders_agent.config - DEBUG - Loaded settings from /home/${s('home-path-username', user)}/projects/orders-agent/.env`,
    `${t.tick().py()} - orders_agent.config - DEBUG - settings: {'mcp_url': 'https://${s('internal-hostname', host)}/mcp', 'api_key': '${s('api-key-env', r.hex(40))}', 'db': ('${s('internal-hostname', dbHost)}', 5432, 'orders_ro', '${s('password-tuple', 'Winter2025!')}'), 'timeout': 30}`,
    `${t.tick().py()} - httpx - INFO - HTTP Request: POST https://${s('internal-hostname', host)}/mcp "${k('HTTP/1.1 200 OK')}"`,
    `${t.tick().py()} - mcp.client.streamable_http - DEBUG - Received session ID: ${s('session-id-text', sid)}`,
    `${t.tick().py()} - mcp.client.streamable_http - DEBUG - Negotiated protocol version: ${k('2025-06-18')}`,
    `${t.tick().py()} - orders_agent.http - DEBUG - request headers: {'accept': 'application/json, text/event-stream', 'content-type': 'application/json', 'authorization': 'Bearer ${s('bearer-token', bearer)}', 'mcp-session-id': '${s('session-id-header', sid)}', 'mcp-protocol-version': '2025-06-18', 'x-request-id': '${s('x-request-id', r.hex(32))}'}`,
    `${t.tick().py()} - orders_agent.tools - INFO - call_tool name='${k('lookup_customer')}' arguments={'email': '${s('email', p.email(name1))}', 'full_name': '${s('person-name', name1)}', 'note': '${s('tool-args-python-repr', p.note())}'}`,
    `${t.tick().py()} - httpx - INFO - HTTP Request: POST https://${s('internal-hostname', host)}/mcp "HTTP/1.1 200 OK"`,
    `${t.tick().py()} - orders_agent.tools - DEBUG - result: CallToolResult(meta=None, content=[TextContent(type='text', text='Customer ${s('person-name', p.name())} (${s('phone-e164', p.e164())}), open balance ${s('tool-result-text', p.amount() + ' EUR overdue since February')}, IBAN ${s('iban', p.iban('DE'))}', annotations=None)], structuredContent=None, isError=False)`,
    `${t.tick().py()} - orders_agent.tools - INFO - call_tool name='create_refund' arguments={'order_id': '${s('tool-args-python-repr', p.order())}', 'card': '${s('credit-card', p.card(' '))}', 'ship_to': '${s('postal-address', p.address())}'}`,
    `${k(t.jump(30).py())} - orders_agent.tools - ERROR - call_tool 'create_refund' failed after 30.0s`,
    `Traceback (most recent call last):`,
    `  File "${venv}/httpx/_transports/default.py", line 101, in map_httpcore_exceptions`,
    `    yield`,
    `  File "${venv}/httpx/_transports/default.py", line 394, in handle_async_request`,
    `    resp = await self._pool.handle_async_request(req)`,
    `${k('httpcore.ReadTimeout')}`,
    ``,
    `The above exception was the direct cause of the following exception:`,
    ``,
    `Traceback (most recent call last):`,
    `> File "/home/${s('home-path-username', user)}/projects/orders-agent/orders_agent/tools.py", line 88, in call`,
    `    result = await session.call_tool(name, arguments)`,
    `                   │       │         │     └ {'order_id': 'ORD-${r.digits(5)}', 'amount': '${s('tool-args-python-repr', p.amount())}', 'reason': '${s('tool-args-python-repr', p.note())}', 'customer': '${s('person-name', p.name())}'}`,
    `                   │       │         └ 'create_refund'`,
    `                   │       └ <function ClientSession.call_tool at 0x7f3a2c1b9e40>`,
    `                   └ <mcp.client.session.ClientSession object at 0x7f3a2c0d5f10>`,
    `  File "${venv}/mcp/client/session.py", line 279, in call_tool`,
    `    return await self.send_request(`,
    `${k('httpx.ReadTimeout')}`,
    `${t.tick().py()} - orders_agent.db - WARNING - retrying with psycopg.connect(host='${s('internal-hostname', dbHost)}', port=5432, user='orders_rw', password='${s('password-kv', 'summer2024')}')`,
    `${t.tick().py()} - orders_agent.db - ERROR - psycopg.OperationalError: connection to server at "${s('internal-hostname', dbHost)}" (${s('private-ipv4', n.ip10())}), port 5432 failed: FATAL:  ${k('password authentication failed')} for user "orders_rw"`,
    `${t.tick().py()} - orders_agent.http - DEBUG - raw request line: b'POST /mcp HTTP/1.1\\r\\nHost: ${s('internal-hostname', host)}\\r\\nAuthorization: Bearer ${s('bearer-token', f.bearerOpaque())}\\r\\nCookie: mcp_sess=${s('cookie', r.b64url(40))}\\r\\n\\r\\n'`,
    `${t.tick().py()} - orders_agent - INFO - transports reference: ${k('https://modelcontextprotocol.io/specification/2025-06-18/basic/transports')}`,
    `${t.tick().py()} - orders_agent.http - WARNING - retrying POST https://${s('internal-hostname', host)}/mcp?api_key=${s('api-key-query', r.alnum(32))} after ${k('httpx.ConnectError')}: [Errno 111] Connection refused`,
  ];
  c.file('py-client.log', 'Python logging client (httpx, mcp) with a loguru-diagnosed traceback', L);
}

/** mcp-remote on macOS: OAuth flow, tokens, proxied messages, SDK stack. */
function mcpRemote({ c, r, f, p }: B) {
  const { s, k } = c;
  const pid = r.int(20000, 69999);
  const user = 'tlindqvist';
  const code = r.b64url(43);
  const verifier = r.b64url(64);
  const refresh = r.b64url(48);
  const clientId = 'mcp-remote-' + r.hex(6);
  const authHost = 'auth.acme.corp';
  const email = p.email();
  const P = `[${pid}]`;
  const L = [
    `${P} Using automatically selected callback port: 3334`,
    `${P} Discovering OAuth server configuration...`,
    `${P} [${pid}] Connecting to remote server: https://mcp.orders.example.com/mcp`,
    `${P} Using transport strategy: http-first`,
    `${P} Received error: Error POSTing to endpoint (HTTP 401): {"error":"${k('invalid_token')}","error_description":"Missing or invalid access token"}`,
    `${P} Authentication required. Initializing auth...`,
    `${P} Please authorize this client by visiting:`,
    `https://${s('internal-hostname', authHost)}/oauth2/authorize?response_type=code&client_id=${clientId}&code_challenge=${r.b64url(43)}&code_challenge_method=S256&redirect_uri=http%3A%2F%2F${k('localhost')}%3A3334%2Foauth%2Fcallback&state=${r.b64url(22)}&login_hint=${s('email-encoded', encodeURIComponent(email))}`,
    `${P} Browser opened automatically.`,
    `${P} Auth code received, resolving promise`,
    `${P} OAuth callback: GET /oauth/callback?code=${s('oauth-code', code)}&state=${r.b64url(22)}`,
    `${P} Exchanging code for tokens: POST https://${s('internal-hostname', authHost)}/oauth2/token grant_type=authorization_code&code=${s('oauth-code', code)}&redirect_uri=http%3A%2F%2Flocalhost%3A3334%2Foauth%2Fcallback&client_id=${clientId}&code_verifier=${s('oauth-code-verifier', verifier)}`,
    `${P} Token response: {"access_token":"${s('oauth-access-token', f.opaque(48))}","token_type":"Bearer","expires_in":3600,"refresh_token":"${s('oauth-refresh-token', refresh)}","scope":"mcp:tools","id_token":"${s('jwt', f.idToken(email))}"}`,
    `${P} Saved tokens to /Users/${s('home-path-username', user)}/.mcp-auth/mcp-remote-0.1.29/${r.hex(32)}_tokens.json`,
    `${P} Connected to remote server using StreamableHTTPClientTransport`,
    `${P} Local STDIO server running`,
    `${P} Proxy established successfully between local STDIO and remote StreamableHTTPClientTransport`,
    `${P} Press Ctrl+C to exit`,
    `${P} [Local→Remote] tools/call`,
    `${P} [Local→Remote] ${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search_contacts', arguments: { query: s('person-name', p.name()), company: s('tool-args-json', p.company()), region: 'EMEA' } } })}`,
    `${P} [Remote→Local] 3`,
    `${P} [Remote→Local] ${JSON.stringify({ result: { content: [{ type: 'text', text: s('tool-result-text', `3 contacts at ${p.company()}, last deal closed at ${p.amount()} EUR`) }], isError: false }, jsonrpc: '2.0', id: 3 })}`,
    `${P} Error from remote server: Error: Streamable HTTP error: Error POSTing to endpoint (HTTP 404): {"jsonrpc":"2.0","error":{"code":${k('-32001')},"message":"${k('Session not found')}"},"id":null}`,
    `    at StreamableHTTPClientTransport.send (file:///Users/${s('home-path-username', user)}/.npm/_npx/3b8f2c6d91e0a457/node_modules/${k('@modelcontextprotocol/sdk')}/dist/esm/client/streamableHttp.js:387:23)`,
    `    at process.processTicksAndRejections (node:internal/process/task_queues:105:5)`,
    `${P} Refreshing tokens: POST https://${s('internal-hostname', authHost)}/oauth2/token grant_type=refresh_token&refresh_token=${s('oauth-refresh-token', refresh)}&client_id=${clientId}&client_secret=${s('oauth-client-secret', r.alnum(40))}`,
    `${P} Token refresh failed: 400 {"error":"${k('invalid_grant')}","error_description":"Token has been revoked"}`,
    `${P} Shutting down...`,
  ];
  c.file('mcp-remote-stderr.log', 'mcp-remote (TS SDK) stderr on macOS, OAuth flow', L);
}

/** TS SDK client with an iso-level logger (like samples/healthy-control). */
function tsClient({ c, r, p }: B) {
  const { s, k } = c;
  const t = new Clock(r, Date.UTC(2026, 2, 14, 9, 20, 1, 101));
  const sid = r.uuid();
  const base = `https://${s('k8s-service-hostname', 'orders-mcp.tools.svc.cluster.local')}:8443/mcp`;
  const url = 'https://orders-mcp.tools.svc.cluster.local:8443/mcp';
  const xr = () => s('x-request-id', r.hex(32));
  const order = p.order();
  const L = [
    `${k(t.tick().iso())} INFO [host-app] orders-assistant 0.9.0 starting (node ${k('v20.20.2')})`,
    `${t.tick().iso()} INFO [host-app] Connecting to MCP server at ${base} (transport=streamable-http, ${k('@modelcontextprotocol/sdk 1.32.2')})`,
    `${t.tick().iso()} DEBUG [mcp-client] ${k('POST')} ${url.replace('orders-mcp.tools.svc.cluster.local', s('k8s-service-hostname', 'orders-mcp.tools.svc.cluster.local'))} rpc=0 method=${k('initialize')} mcp-session-id=- mcp-protocol-version=- -> 200 (24 ms) content-type=text/event-stream x-request-id=${xr()}`,
    `${t.tick().iso()} INFO [mcp-client] Received session ID: ${s('session-id-text', sid)}`,
    `${t.tick().iso()} DEBUG [mcp-client] POST https://${s('k8s-service-hostname', 'orders-mcp.tools.svc.cluster.local')}:8443/mcp rpc=- method=notifications/initialized mcp-session-id=${s('session-id-header', sid)} mcp-protocol-version=2025-11-25 -> ${k('202')} (5 ms) content-type=- x-request-id=${xr()}`,
    `${t.tick().iso()} INFO [mcp-client] Connected to orders-mcp 1.4.2`,
    `${t.tick().iso()} INFO [host-app] Calling tool get_order {"order_id":"${s('tool-args-free-text', order)}","customer_email":"${s('email', p.email())}"}`,
    `${t.tick().iso()} INFO [host-app] Tool get_order returned isError=false in 5 ms: {"id":"${order}","sku":"${s('tool-result-text', p.sku())}","qty":2,"status":"shipped","ship_to":"${s('postal-address', p.address())}"}`,
    `${t.tick().iso()} INFO [host-app] Calling tool create_order with args: customer=${s('kv-customer', p.customer())} sku=${s('kv-sku', p.sku())} qty=3 amount=${s('kv-amount', p.amount())} note="${s('tool-args-free-text', p.note())}"`,
    `${t.tick().iso()} DEBUG [mcp-client] POST https://${s('k8s-service-hostname', 'orders-mcp.tools.svc.cluster.local')}:8443/mcp rpc=4 method=tools/call tool=create_order mcp-session-id=${s('session-id-header', sid)} -> 200 (31 ms) x-request-id=${xr()}`,
    `${t.tick().iso()} INFO [host-app] create_order committed order=${s('kv-order', p.order())} customer=${s('kv-customer', p.customer())} total=${s('kv-amount', p.amount())} currency=EUR`,
    `${k(t.jump(7).iso())} WARN [mcp-client] POST https://${s('k8s-service-hostname', 'orders-mcp.tools.svc.cluster.local')}:8443/mcp rpc=5 method=tools/call -> ${k('404')} (3 ms): ${k('Session not found')}; session ${s('session-id-masked', sid.slice(0, 4) + '…' + sid.slice(-4))} is gone, reinitializing`,
    `${t.tick().iso()} ERROR [host-app] McpError: MCP error -32001: Session not found (session ${s('session-id-masked', sid.slice(0, 8) + '****')})`,
    `${t.tick().iso()} INFO [host-app] see ${k('https://github.com/modelcontextprotocol/typescript-sdk/issues')} for known issues`,
  ];
  c.file('ts-client.log', 'TS SDK client, ISO timestamp + level + [component] logger', L);
}

/** nginx combined access log. */
function nginxAccess({ c, r, f, p, n }: B) {
  const { s, k } = c;
  const t = new Clock(r, Date.UTC(2026, 2, 14, 9, 20, 1, 0));
  const ua = 'python-httpx/0.28.1';
  const mz = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.4 Safari/605.1.15';
  const akia = f.akia();
  const L = [
    `${s('public-ipv4', n.pub())} - ${s('account-name', 'jsmith-ops')} [${k(t.tick(900, 2000).clf())}] "${k('POST /mcp HTTP/1.1')}" 200 201 "-" "node"`,
    `${s('public-ipv4', n.pub())} - - [${t.tick(900, 2000).clf()}] "GET /sse?api_key=${s('api-key-query', r.hex(32))} HTTP/1.1" 200 0 "-" "${ua}"`,
    `${s('private-ipv4', n.ip10())} - - [${t.tick(900, 2000).clf()}] "POST /messages/?session_id=${s('session-id-query', r.hex(32))} HTTP/1.1" ${k('404')} 9 "-" "${ua}"`,
    `${s('public-ipv4', n.pub())} - - [${t.tick(900, 2000).clf()}] "GET /oauth/callback?code=${s('oauth-code', r.b64url(40))}&state=${r.b64url(16)} HTTP/1.1" 302 0 "https://login.acme-idp.example/authorize?client_id=orders&login_hint=${s('email-encoded', encodeURIComponent(p.email()))}" "${mz}"`,
    `${s('private-ipv4', n.ip172())} - - [${t.tick(900, 2000).clf()}] "GET /exports/orders-march.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${s('aws-access-key-id', akia)}%2F20260314%2Feu-west-1%2Fs3%2Faws4_request&X-Amz-Date=20260314T092001Z&X-Amz-Expires=900&X-Amz-SignedHeaders=host&X-Amz-Signature=${s('signed-url-signature', f.sigv4())} HTTP/1.1" 200 48213 "-" "${ua}"`,
    `${s('public-ipv4', n.pub())} - - [${t.tick(900, 2000).clf()}] "POST /hooks/${s('webhook-path-token', r.alnum(32))} HTTP/1.1" 204 0 "-" "GitHub-Hookshot/8f2a1c3"`,
    `${s('public-ipv4', n.pub())} - - [${t.tick(900, 2000).clf()}] "GET /invite/${s('webhook-path-token', r.b64url(24))} HTTP/1.1" 200 5123 "-" "${mz}"`,
    `${s('public-ipv4', n.pub())} - - [${t.tick(900, 2000).clf()}] "GET /mcp?token=${s('jwt', f.accessJwt())} HTTP/1.1" 401 57 "-" "node"`,
    `${s('ipv6-address', n.v6())} - - [${t.tick(900, 2000).clf()}] "POST /mcp HTTP/1.1" 200 1210 "-" "node"`,
    `${s('public-ipv4', n.pub())} - ${s('account-name', 'r.fairweather')} [${t.tick(900, 2000).clf()}] "DELETE /mcp HTTP/1.1" 200 5 "-" "node"`,
    `${s('private-ipv4', n.ip192())} - - [${t.tick(900, 2000).clf()}] "GET /sse?sessionId=${s('session-id-query', r.uuid())}&apikey=${s('api-key-query', r.alnum(40))} HTTP/1.1" 200 0 "-" "${ua}"`,
    `${s('public-ipv4', n.pub())} - - [${t.tick(900, 2000).clf()}] "GET /reset-password/${s('webhook-path-token', r.b64url(32))} HTTP/1.1" 200 2211 "https://mail.example.com/" "${mz}"`,
    `${s('public-ipv4', n.pub())} - - [${t.tick(900, 2000).clf()}] "GET /callback?access_token=${s('oauth-access-token', r.b64url(40))}&scope=repo&token_type=bearer HTTP/1.1" 400 0 "-" "${mz}"`,
    `127.0.0.1 - - [${t.tick(900, 2000).clf()}] "GET /healthz HTTP/1.1" 200 2 "-" "kube-probe/1.31"`,
    `${s('public-ipv4', n.pub())} - - [${t.tick(900, 2000).clf()}] "GET /mcp/search?q=${encodeURIComponent('invoice')}&customer=${s('kv-customer', p.customer())}&email=${s('email-encoded', encodeURIComponent(p.email()))} HTTP/1.1" 405 0 "-" "curl/8.7.1"`,
    `${s('private-ipv4', n.ip10())} - - [${t.tick(900, 2000).clf()}] "GET /t/${s('webhook-path-token', r.alnum(28))} HTTP/1.1" 302 0 "-" "Slackbot-LinkExpanding 1.0"`,
  ];
  c.file('nginx-access.log', 'nginx combined access log', L);
}

/** nginx error log. */
function nginxError({ c, r, n }: B) {
  const { s, k } = c;
  const t = new Clock(r, Date.UTC(2026, 2, 14, 9, 21, 7, 0));
  const srv = 'mcp.acme.internal';
  const sid = r.uuid();
  const L = [
    `${k(t.tick(500, 900).ngx())} [notice] 8227#8227: ${k('nginx/1.22.1')}`,
    `${t.tick(500, 900).ngx()} [error] 39#39: *26 ${k('upstream timed out')} (110: Connection timed out) while reading upstream, client: ${s('private-ipv4', n.ip10())}, server: ${s('internal-hostname', srv)}, request: "GET /sse?sessionId=${s('session-id-query', sid)} HTTP/1.1", upstream: "http://${s('upstream-name', 'orders-mcp-blue')}:9190/sse?sessionId=${s('session-id-query', sid)}", host: "${s('internal-hostname', srv)}"`,
    `${t.tick(500, 900).ngx()} [error] 42#42: *31 connect() failed (111: ${k('Connection refused')}) while connecting to upstream, client: ${s('public-ipv4', n.pub())}, server: _, request: "POST /mcp HTTP/1.1", upstream: "http://${s('private-ipv4', n.ip172() + ':9631')}/mcp", host: "${s('internal-hostname', srv)}", referrer: "https://${s('internal-hostname', 'admin.acme.internal')}/tools"`,
    `${t.tick(500, 900).ngx()} [error] 42#42: *33 no live upstreams while connecting to upstream, client: ${s('public-ipv4', n.pub())}, server: _, request: "POST /mcp HTTP/1.1", upstream: "http://${s('upstream-name', 'billing_mcp_pool')}/mcp", host: "mcp.orders.example.com"`,
    `${t.tick(500, 900).ngx()} [error] 40#40: *35 user "${s('account-name', 'ops-admin')}": password mismatch, client: ${s('private-ipv4', n.ip192())}, server: ${s('internal-hostname', srv)}, request: "GET /admin/ HTTP/1.1", host: "${s('internal-hostname', srv)}"`,
    `${t.tick(500, 900).ngx()} [error] 40#40: *36 user "${s('account-name', 'k.nakashima')}" was not found in "/etc/nginx/.htpasswd", client: ${s('private-ipv4', n.ip10())}, server: ${s('internal-hostname', srv)}, request: "GET /admin/ HTTP/1.1"`,
    `${t.tick(500, 900).ngx()} [warn] 41#41: *40 an upstream response is buffered to a temporary file /var/cache/nginx/proxy_temp/3/07/0000000073 while reading upstream, client: ${s('ipv6-address', n.v6())}, server: _, request: "POST /mcp?access_token=${s('api-key-query', r.b64url(36))} HTTP/1.1", upstream: "http://${s('upstream-name', 'mcp-orders-v2')}:8080/mcp", host: "mcp.orders.example.com"`,
    `${t.tick(500, 900).ngx()} [error] 41#41: *44 client intended to send too large body: 1302233 bytes, client: ${s('public-ipv4', n.pub())}, server: _, request: "POST /mcp HTTP/1.1", host: "mcp.orders.example.com"`,
    `${t.tick(500, 900).ngx()} [error] 39#39: *51 upstream prematurely closed connection while reading response header from upstream, client: ${s('private-ipv4', n.ip10())}, server: _, request: "POST /messages/?session_id=${s('session-id-query', r.hex(32))} HTTP/1.1", upstream: "http://${s('k8s-service-hostname', 'orders-mcp.tools.svc.cluster.local')}:8000/messages/", host: "${k('localhost')}:8080"`,
  ];
  c.file('nginx-error.log', 'nginx error log', L);
}

/** nginx JSON access log with headers logged ($http_authorization, $http_cookie). */
function nginxJson({ c, r, f, n }: B) {
  const { s, k } = c;
  const t = new Clock(r, Date.UTC(2026, 2, 14, 9, 22, 0, 0));
  const sid = r.uuid();
  const line = (o: Record<string, unknown>) => JSON.stringify(o);
  const base = () => {
    t.tick(1, 900);
    return { time: k(t.iso().slice(0, 19) + '+00:00'), msec: (t.epoch / 1000).toFixed(3), request_id: s('x-request-id', r.hex(32)) };
  };
  const L = [
    line({
      ...base(),
      remote_addr: s('private-ipv4', n.ip10()),
      remote_user: '',
      request_method: 'POST',
      uri: '/mcp',
      status: 200,
      http_authorization: `Bearer ${s('bearer-token', f.bearerOpaque())}`,
      http_mcp_session_id: '',
      sent_http_mcp_session_id: s('session-id-json', sid),
      upstream_addr: s('private-ipv4', n.ip10() + ':8080'),
    }),
    line({
      ...base(),
      remote_addr: s('private-ipv4', n.ip10()),
      remote_user: '',
      request_method: 'POST',
      uri: '/mcp',
      status: 202,
      http_authorization: `bearer  ${s('bearer-token-odd-spelling', f.opaque(40))}`,
      http_mcp_session_id: s('session-id-json', sid),
      upstream_addr: s('private-ipv4', n.ip10() + ':8080'),
    }),
    line({
      ...base(),
      remote_addr: s('public-ipv4', n.pub()),
      remote_user: s('account-name', 'svc-orders-sync'),
      request_method: 'GET',
      uri: '/mcp',
      status: 200,
      http_authorization: `Basic ${s('basic-auth', b64('svc-orders-sync:' + 'Orders#2026'))}`,
      http_cookie: `_ga=GA1.2.1184471233.1773470000; mcp_session=${s('cookie', r.b64url(32))}; csrftoken=${s('cookie', r.alnum(32))}`,
      upstream_addr: s('private-ipv4', n.ip172() + ':8080'),
    }),
    line({
      ...base(),
      remote_addr: s('public-ipv4', n.pub()),
      request_method: 'POST',
      uri: '/mcp',
      status: 401,
      http_authorization: `Bearer ${s('jwt', f.accessJwt())}`,
      http_x_api_key: s('api-key-header', r.hex(32)),
      upstream_status: '401',
      upstream_addr: s('private-ipv4', n.ip10() + ':8080'),
    }),
    line({ ...base(), remote_addr: k('127.0.0.1'), request_method: 'GET', uri: '/healthz', status: 200, upstream_addr: '127.0.0.1:8080' }),
    line({
      ...base(),
      remote_addr: s('ipv6-address', n.v6()),
      request_method: 'DELETE',
      uri: '/mcp',
      status: k('404'),
      http_mcp_session_id: s('session-id-json', r.uuid()),
      upstream_addr: s('upstream-name', 'orders_mcp_backend'),
    }),
  ];
  c.file('nginx-access.json.log', 'nginx JSON access log (escape=json) with request headers', L);
}

/** Envoy default-format access log and a JSON-format one. */
function envoy({ c, r, f, n }: B) {
  const { s, k } = c;
  const t = new Clock(r, Date.UTC(2026, 2, 14, 9, 23, 5, 123));
  const hosts = ['mcp.orders.internal', 'billing-mcp.finance.svc.cluster.local'];
  const L: string[] = [];
  for (let i = 0; i < 5; i++) {
    t.tick(100, 4000);
    const authority = i % 2 ? s('k8s-service-hostname', hosts[1]!) : s('internal-hostname', hosts[0]!);
    const path = i === 3 ? `/mcp?session_id=${s('session-id-query', r.uuid())}` : '/mcp';
    L.push(
      `[${i === 0 ? k(t.iso()) : t.iso()}] "POST ${path} HTTP/1.1" ${i === 4 ? k('503') : 200} ${i === 4 ? k('UF') : '-'} ${r.int(100, 900)} ${r.int(100, 9000)} ${r.int(2, 90)} ${r.int(1, 80)} "${s('public-ipv4', n.pub())}" "node" "${s('x-request-id', r.uuid())}" "${authority}" "${s('private-ipv4', n.ip10() + ':8080')}"`,
    );
  }
  t.tick(100, 4000);
  L.push(
    JSON.stringify({
      start_time: t.iso(),
      method: 'POST',
      path: '/mcp',
      protocol: 'HTTP/1.1',
      response_code: 200,
      response_flags: '-',
      bytes_received: 512,
      bytes_sent: 1834,
      duration: 23,
      upstream_service_time: '21',
      x_forwarded_for: s('public-ipv4', n.pub()),
      user_agent: 'node',
      request_id: s('x-request-id', r.uuid()),
      authority: s('internal-hostname', 'mcp.orders.internal'),
      upstream_host: s('private-ipv4', n.ip10() + ':8080'),
      upstream_cluster: `outbound|8080||${s('k8s-service-hostname', 'orders-mcp.tools.svc.cluster.local')}`,
      mcp_session_id: s('session-id-json', r.uuid()),
    }),
  );
  t.tick(100, 4000);
  L.push(
    JSON.stringify({
      start_time: t.iso(),
      method: 'GET',
      path: `/download?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=orders-export%40acme-prod.iam.gserviceaccount.com%2F20260314%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date=20260314T092305Z&X-Goog-Expires=900&X-Goog-SignedHeaders=host&X-Goog-Signature=${s('signed-url-signature', r.hex(256))}`,
      protocol: 'HTTP/1.1',
      response_code: 200,
      authority: 'storage.googleapis.com',
      request_id: s('x-request-id', r.uuid()),
      upstream_cluster: s('upstream-name', 'gcs_egress_proxy'),
    }),
  );
  t.tick(100, 4000);
  L.push(
    `[${t.iso()}] "POST /mcp HTTP/2" 401 UAEX 0 61 1 - "${s('ipv6-address', n.v6())}" "claude-code/2.1.3" "${s('x-request-id', r.uuid())}" "${s('internal-hostname', 'mcp.orders.internal')}" "-" outbound|8080||${s('upstream-name', 'ext-authz-opa')} ${k('ext_authz_denied')}`,
  );
  c.file('envoy-access.log', 'Envoy access log, default text format and JSON format', L);
}

/** pino JSON-lines server log with request headers, tool arguments and results. */
function serverJsonl({ c, r, f, p, n }: B) {
  const { s, k } = c;
  const t = new Clock(r, Date.UTC(2026, 2, 14, 9, 24, 0, 0));
  const sid = r.uuid();
  const base = (extra: Record<string, unknown>) => {
    t.tick(1, 400);
    return JSON.stringify({ level: 30, time: t.epoch, pid: 8215, hostname: s('internal-hostname', 'orders-mcp-3.prod.internal'), service: 'orders-mcp', ...extra });
  };
  const name = p.name();
  const L = [
    base({ msg: `orders-mcp 1.4.2 (${k('@modelcontextprotocol/sdk 1.32.2')}) listening on http://${k('127.0.0.1:39979')}/mcp` }),
    base({
      reqId: s('x-request-id', r.hex(32)),
      req: {
        method: 'POST',
        url: '/mcp',
        headers: {
          host: s('internal-hostname', 'orders-mcp.prod.internal'),
          authorization: `Bearer ${s('bearer-token', f.bearerOpaque())}`,
          'mcp-session-id': s('session-id-header', sid),
          cookie: `mcp_sid=${s('cookie', r.b64url(36))}`,
          'x-api-key': s('api-key-header', 'om_live_' + r.alnum(32)),
          'user-agent': 'node',
        },
        remoteAddress: s('private-ipv4', n.ip10()),
      },
      msg: 'incoming request',
    }),
    base({
      mcpSessionId: s('session-id-json', sid),
      rpcId: 2,
      rpcMethod: k('tools/call'),
      tool: 'create_customer',
      params: {
        name: 'create_customer',
        arguments: {
          full_name: s('person-name', name),
          email: s('email', p.email(name)),
          phone: s('phone-national', p.national()),
          address: s('postal-address', p.address()),
          segment: s('tool-args-json', 'enterprise-tier-3-renewal-q3'),
        },
      },
      msg: 'tools/call arguments',
    }),
    base({
      mcpSessionId: s('session-id-json', sid),
      rpcId: 2,
      result: {
        content: [{ type: 'text', text: s('tool-result-text', `Customer ${p.customer()} created, credit limit ${p.amount()} EUR approved by finance`) }],
        structuredContent: {
          customerId: s('tool-structured-content', p.customer()),
          creditLimit: s('tool-structured-content', p.amount()),
          accountManager: s('person-name', p.name()),
        },
        isError: false,
      },
      msg: 'tools/call result',
    }),
    base({
      mcpSessionId: s('session-id-json', sid),
      rpcId: 3,
      tool: 'charge_card',
      params: { arguments: { card_number: s('credit-card', p.card()), holder: s('person-name', p.name()), amount: s('tool-args-json', p.amount()) } },
      msg: 'tools/call arguments',
    }),
    JSON.stringify({
      level: 50,
      time: t.tick().epoch,
      pid: 8215,
      hostname: 'orders-mcp-3',
      err: {
        type: 'Error',
        message: `getaddrinfo ENOTFOUND ${s('internal-hostname', 'pg-primary.orders.internal')}`,
        stack: `Error: connect ECONNREFUSED\n    at Client.connect (/home/${s('home-path-username', 'deploy')}/orders-mcp/node_modules/pg/lib/client.js:132:14)`,
        config: { connectionString: `postgres://orders_app:${s('dsn-password-sql', 'Tr1cky-But-Weak')}@${s('internal-hostname', 'pg-primary.orders.internal')}:5432/orders` },
      },
      msg: k('database unavailable'),
    }),
    base({
      mcpSessionId: s('session-id-json', sid),
      rpcId: 4,
      rpcMethod: 'resources/read',
      uri: 'orders://customers/' + p.customer(),
      contents: [{ uri: 'orders://customers/x', mimeType: 'text/plain', text: s('resource-contents', `Account notes: ${p.note()}`) }],
      msg: 'resources/read',
    }),
    base({
      mcpSessionId: s('session-id-json', sid),
      rpcId: 5,
      rpcMethod: 'prompts/get',
      params: { name: 'draft_apology', arguments: { customer_name: s('prompt-arguments', p.company()), incident: s('prompt-arguments', p.note()) } },
      msg: 'prompts/get',
    }),
    base({ level: 40, msg: `Session not found: ${s('session-id-text', r.uuid())}`, statusCode: k('404') }),
    base({
      msg: 'outbound webhook',
      url: `https://hooks.slack.com/services/${(() => {
        const h = f.slackHook();
        return `${h.team}/${h.bot}/${s('slack-webhook', h.secret)}`;
      })()}`,
      status: 200,
    }),
    base({ msg: 'stripe client ready', stripeKey: s('stripe-key', f.stripe('rk_live')), webhookSecret: s('stripe-webhook-secret', f.whsec()) }),
    base({
      msg: 'user login',
      user: { username: s('account-name', 'akowalczyk'), email: s('email', p.email()), ssn: s('ssn', p.ssn()), password: s('password-json', 'Kowalczyk1987') },
    }),
  ];
  c.file('server.jsonl', 'pino JSON-lines server log (Node MCP server)', L);
}

/** A HAR export (pretty-printed JSON, one header per object over several lines). */
function har({ c, r, f, p, n }: B) {
  const { s, k } = c;
  const sid = r.uuid();
  const name = p.name();
  const rpc = JSON.stringify({
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: {
      name: 'update_shipping',
      arguments: {
        recipient: s('person-name', name),
        street: s('postal-address', p.address()),
        phone: s('phone-e164', p.e164()),
        instructions: s('escaped-json-payload', p.note()),
      },
    },
  });
  const sse = `event: message\ndata: ${JSON.stringify({ result: { content: [{ type: 'text', text: s('escaped-json-payload', `Shipment for ${p.company()} rerouted to depot 7`) }], isError: false }, jsonrpc: '2.0', id: 7 })}\n\n`;
  const entry = {
    startedDateTime: k('2026-03-14T09:25:41.118Z'),
    time: 412.3,
    request: {
      method: 'POST',
      url: `https://${s('internal-hostname', 'mcp.orders.internal')}/mcp?tenant=${s('kv-customer', p.customer())}`,
      httpVersion: 'HTTP/1.1',
      headers: [
        { name: 'accept', value: 'application/json, text/event-stream' },
        { name: 'authorization', value: `Bearer ${s('jwt', f.accessJwt())}` },
        { name: 'mcp-session-id', value: s('session-id-header', sid) },
        { name: 'mcp-protocol-version', value: k('2025-11-25') },
        { name: 'cookie', value: `__Host-mcp=${s('cookie', r.b64url(44))}` },
        { name: 'x-upstream-auth', value: s('unknown-vendor-token', r.b64url(48)) },
        { name: 'x-request-id', value: s('x-request-id', r.uuid()) },
      ],
      cookies: [{ name: '__Host-mcp', value: s('cookie', r.b64url(44)), path: '/', httpOnly: true, secure: true }],
      queryString: [{ name: 'tenant', value: s('kv-customer', p.customer()) }],
      postData: { mimeType: 'application/json', text: rpc },
    },
    response: {
      status: 200,
      statusText: k('OK'),
      httpVersion: 'HTTP/1.1',
      headers: [
        { name: 'content-type', value: 'text/event-stream' },
        { name: 'mcp-session-id', value: s('session-id-header', sid) },
        { name: 'set-cookie', value: `AWSALB=${s('set-cookie', r.b64(88))}; Expires=Sat, 21 Mar 2026 09:25:41 GMT; Path=/` },
      ],
      content: { size: sse.length, mimeType: 'text/event-stream', text: sse },
    },
    serverIPAddress: s('private-ipv4', n.ip10()),
    connection: '443',
  };
  const entry2 = {
    startedDateTime: '2026-03-14T09:25:43.902Z',
    time: 88.1,
    request: {
      method: 'POST',
      url: 'https://auth.orders.example.com/oauth2/token',
      headers: [{ name: 'content-type', value: 'application/x-www-form-urlencoded' }],
      postData: {
        mimeType: 'application/x-www-form-urlencoded',
        text: `grant_type=client_credentials&client_id=orders-agent&client_secret=${s('oauth-client-secret', r.alnum(48))}&scope=mcp`,
      },
    },
    response: {
      status: 200,
      statusText: 'OK',
      headers: [],
      content: { mimeType: 'application/json', text: JSON.stringify({ access_token: s('oauth-access-token', r.b64url(64)), token_type: 'Bearer', expires_in: 300 }) },
    },
  };
  const harDoc = { log: { version: '1.2', creator: { name: 'WebInspector', version: k('537.36') }, pages: [], entries: [entry, entry2] } };
  c.file('session.har', 'HAR export (pretty-printed JSON)', JSON.stringify(harDoc, null, 2));
}

/** curl -v transcripts. */
function curlV({ c, r, f, p, n }: B) {
  const { s, k } = c;
  const sid = r.uuid();
  const tok = f.opaque(52);
  const L = [
    `$ curl -v -u ${s('account-name', 'admin')}:${s('password-cli', 'changeme42')} -H "x-api-key: ${s('api-key-header', r.hex(40))}" https://${s('internal-hostname', 'mcp-gw-2.prod.internal')}/mcp`,
    `* Host mcp-gw-2.prod.internal:443 was resolved.`,
    `* Uses proxy env variable HTTPS_PROXY == 'http://${s('account-name', 'proxyuser')}:${s('url-userinfo-password', 'autumn-leaves-42')}@${s('internal-hostname', 'squid.acme.lan')}:3128'`,
    `*   Trying ${s('private-ipv4', '10.20.0.15')}:3128...`,
    `* Proxy auth using Basic with user '${s('account-name', 'proxyuser')}'`,
    `> CONNECT mcp-gw-2.prod.internal:443 HTTP/1.1`,
    `> Proxy-Authorization: Basic ${s('proxy-authorization', b64('proxyuser:autumn-leaves-42'))}`,
    `>`,
    `< HTTP/1.1 200 Connection established`,
    `* Issue another request to this URL: 'https://app.orders.example.com/callback#access_token=${s('oauth-access-token', r.b64url(40))}&token_type=Bearer&expires_in=3600'`,
    `* SSL connection using TLSv1.3 / TLS_AES_256_GCM_SHA384 / x25519 / RSASSA-PSS`,
    `> POST /mcp HTTP/1.1`,
    `> Host: mcp-gw-2.prod.internal`,
    `> User-Agent: ${k('curl/8.7.1')}`,
    `> Accept: application/json, text/event-stream`,
    `> Authorization: Bearer ${s('bearer-token', tok)}`,
    `> Content-Type: application/json`,
    `> Mcp-Protocol-Version: 2025-11-25`,
    `> Content-Length: 212`,
    `>`,
    `< HTTP/1.1 200 OK`,
    `< content-type: text/event-stream`,
    `< mcp-session-id: ${s('session-id-header', sid)}`,
    `< set-cookie: __Host-mcp_session=${s('set-cookie', r.b64url(40))}; Path=/; Secure; HttpOnly; SameSite=Lax`,
    `< x-request-id: ${s('x-request-id', r.hex(32))}`,
    `< date: ${k('Sat, 14 Mar 2026 09:26:02 GMT')}`,
    `<`,
    `event: message`,
    `data: {"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"${k('orders-mcp')}","version":"1.4.2"}},"jsonrpc":"2.0","id":0}`,
    ``,
    `* Connection #0 to host mcp-gw-2.prod.internal left intact`,
    `$ curl -sS -N -H 'Authorization:Bearer ${s('bearer-token-odd-spelling', f.opaque(40))}' -H 'Mcp-Session-Id: ${s('session-id-header', sid)}' -d @call.json https://mcp-gw-2.prod.internal/mcp`,
    `event: message`,
    `data: {"result":{"content":[{"type":"text","text":"${s('sse-data-payload', `Invoice INV-${r.digits(6)} for ${p.company()}: 3 items, ${p.amount()} EUR, due 2026-04-13`)}"}],"isError":false},"jsonrpc":"2.0","id":3}`,
    ``,
    `$ curl -i -X DELETE -H "mcp-session-id: ${s('session-id-header', sid)}" -H "Authorization: token ${s('github-pat-classic', f.ghp())}" https://mcp-gw-2.prod.internal/mcp`,
    `HTTP/1.1 ${k('405 Method Not Allowed')}`,
    `allow: GET, POST`,
    ``,
    `$ curl -v "https://${k('api.github.com')}/user" -H "Authorization: Bearer ${s('github-app-token', f.ghApp('ghs'))}"`,
    `< HTTP/2 ${k('401')}`,
    `{"message":"${k('Bad credentials')}","documentation_url":"${k('https://docs.github.com/rest')}","status":"401"}`,
    `$ curl -s -X POST https://${k('api.anthropic.com')}/v1/messages -H "x-api-key: ${s('anthropic-key', f.anthropic())}" -H "anthropic-version: 2023-06-01"`,
    `{"type":"error","error":{"type":"${k('authentication_error')}","message":"invalid x-api-key"}}`,
    `$ curl -s -H "Authorization: Bearer ${s('github-pat-fine-grained', f.githubPat())}" https://api.github.com/repos/acme/orders-mcp`,
    `$ twine upload -u __token__ -p ${s('pypi-token', f.pypi())} dist/*`,
    `$ sshpass -p ${s('password-cli', 'Spring2026!')} ssh ${s('account-name', 'deploy')}@${s('private-ipv4', n.ip192())} 'journalctl -u orders-mcp --since "10 min ago"'`,
  ];
  c.file('curl-verbose.txt', 'curl -v transcripts pasted from a terminal', L);
}

/** printenv, a .env file and docker inspect's Env array. */
function envDump({ c, r, f, p }: B) {
  const { s, k } = c;
  const user = 'pkoval';
  const printenv = [
    `ANTHROPIC_API_KEY=${s('anthropic-key', f.anthropic())}`,
    `AWS_ACCESS_KEY_ID=${s('aws-access-key-id', f.akia())}`,
    `AWS_DEFAULT_REGION=${k('eu-west-1')}`,
    `AWS_SECRET_ACCESS_KEY=${s('aws-secret-access-key', f.awsSecret())}`,
    `AZURE_CLIENT_ID=${r.uuid()}`,
    `AZURE_CLIENT_SECRET=${s('azure-client-secret', f.azureClientSecret())}`,
    `AZURE_TENANT_ID=${s('cloud-account-id', r.uuid())}`,
    `DATABASE_URL=postgresql://orders:${s('dsn-password-sql', 'orders-dev-pw')}@${s('internal-hostname', 'db.orders.internal')}:5432/orders`,
    `DIGITALOCEAN_TOKEN=${s('digitalocean-token', f.dop())}`,
    `GITHUB_TOKEN=${s('github-pat-fine-grained', f.githubPat())}`,
    `GITLAB_TOKEN=${s('gitlab-token', f.glpat())}`,
    `GOOGLE_API_KEY=${s('google-api-key', f.googleKey())}`,
    `HF_TOKEN=${s('huggingface-token', f.hf())}`,
    `HOME=/home/${s('home-path-username', user)}`,
    `HOSTNAME=${s('internal-hostname', 'dev-ws-14.acme.lan')}`,
    `HTTPS_PROXY=http://${s('account-name', 'pkoval')}:${s('url-userinfo-password', 'Pr0xyPass!')}@proxy.acme.lan:3128`,
    `JWT_SECRET=${s('generic-secret-kv', 'local-dev-signing-secret-please-change')}`,
    `LOGNAME=${s('account-name', user)}`,
    `MCP_AUTH_TOKEN=${s('api-key-env', r.hex(48))}`,
    `MONGO_URL=mongodb+srv://orders-ro:${s('dsn-password-other', 'mongoReadOnly7')}@cluster0.${r.lower(5)}.mongodb.net/orders?retryWrites=true`,
    `NODE_ENV=${k('production')}`,
    `NPM_TOKEN=${s('npm-token', f.npm())}`,
    `OPENAI_API_KEY=${s('openai-key', f.openai())}`,
    `ORDERS_API_KEY=${s('api-key-env', r.alnum(40))}`,
    `PATH=/home/${s('home-path-username', user)}/.local/bin:/usr/local/bin:/usr/bin:/bin`,
    `PWD=/home/${s('home-path-username', user)}/src/orders-mcp`,
    `REDIS_URL=rediss://default:${s('dsn-password-other', r.alnum(32))}@${s('k8s-service-hostname', 'redis-master.cache.svc')}:6380/0`,
    `GCP_PRIVATE_KEY_ID=${s('private-key-id', r.hex(40))}`,
    `SLACK_WEBHOOK_URL=https://hooks.slack.com/services/${(() => {
      const h = f.slackHook();
      return `${h.team}/${h.bot}/${s('slack-webhook', h.secret)}`;
    })()}`,
    `STRIPE_WEBHOOK_SECRET=${s('stripe-webhook-secret', f.whsec())}`,
    `AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName=acmelogs;AccountKey=${s('azure-storage-key', f.azureAccountKey())};EndpointSuffix=core.windows.net`,
    `SENDGRID_API_KEY=${s('sendgrid-key', f.sendgrid())}`,
    `SLACK_BOT_TOKEN=${s('slack-token', f.xoxb())}`,
    `SLACK_APP_TOKEN=${s('slack-token', f.xapp())}`,
    `STRIPE_SECRET_KEY=${s('stripe-key', f.stripe('sk_live'))}`,
    `USER=${s('account-name', user)}`,
    `WEBHOOK_SIGNING_SECRET=${s('generic-secret-kv', r.hex(40))}`,
  ].sort((a, b) => a.split('=')[0]!.localeCompare(b.split('=')[0]!));
  const L = [
    `$ printenv | sort`,
    ...printenv,
    ``,
    `$ cat .env`,
    `# orders-mcp local`,
    `MCP_SERVER_URL=http://${k('localhost:8000')}/mcp`,
    `PGPASSWORD=${s('password-kv', 'postgres')}`,
    `AMQP_URL=amqp://orders:${s('dsn-password-other', 'rabbit4orders')}@${s('internal-hostname', 'mq.acme.internal')}:5672/orders`,
    `PYPI_TOKEN=${s('pypi-token', f.pypi())}`,
    `OPENAI_API_KEY="${s('openai-key-legacy', f.openaiLegacy())}"`,
    `GOOGLE_OAUTH_REFRESH_TOKEN='${s('google-oauth-token', f.googleRefresh())}'`,
    `export SUPPORT_PHONE="${s('phone-national', p.national())}"`,
    ``,
    `$ docker inspect orders-mcp --format '{{json .Config.Env}}'`,
    JSON.stringify([
      `PATH=/usr/local/bin:/usr/bin`,
      `HF_TOKEN=${s('huggingface-token', f.hf())}`,
      `ANTHROPIC_API_KEY=${s('anthropic-key', f.anthropicAdmin())}`,
      `DB_PASSWORD=${s('password-kv', 'dbpass123')}`,
      `AWS_SESSION_TOKEN=${s('aws-session-token', f.awsSession())}`,
      `NODE_VERSION=${k('20.20.2')}`,
    ]),
  ];
  c.file('env-dump.txt', 'printenv, a .env file and docker inspect Env (support bundle)', L);
}

/** Claude Desktop on Windows: CRLF, Windows paths raw and JSON-escaped. */
function claudeWindows({ c, r, f, p }: B) {
  const { s, k } = c;
  const t = new Clock(r, Date.UTC(2026, 2, 14, 9, 30, 1, 123));
  const user = 'akimura';
  const sid = r.uuid();
  const L = [
    `${k(t.tick().iso())} [orders] [info] Initializing server... { metadata: undefined }`,
    `${t.tick().iso()} [orders] [info] Using MCP server command: C:\\Users\\${s('windows-path-username', user)}\\AppData\\Roaming\\npm\\npx.cmd with args and path: {`,
    `  metadata: {`,
    `    args: [ 'mcp-remote', 'https://${s('internal-hostname', 'mcp.orders.internal')}/mcp', '--header', 'Authorization:\${AUTH_HEADER}', [length]: 4 ],`,
    `    paths: [ 'C:\\\\Users\\\\${s('windows-path-username', user)}\\\\AppData\\\\Roaming\\\\npm', 'C:\\\\Program Files\\\\nodejs', [length]: 2 ]`,
    `  }`,
    `} %o`,
    `${t.tick().iso()} [orders] [info] Server config: {"command":"npx","args":["mcp-remote","https://mcp.orders.internal/mcp","--header","Authorization:\${AUTH_HEADER}"],"env":{"AUTH_HEADER":"Bearer ${s('bearer-token', f.bearerOpaque())}","GITHUB_PERSONAL_ACCESS_TOKEN":"${s('github-pat-fine-grained', f.githubPat())}","APPDATA":"C:\\\\Users\\\\${s('windows-path-username', user)}\\\\AppData\\\\Roaming"}}`,
    `${t.tick().iso()} [orders] [info] Server started and connected successfully { metadata: undefined }`,
    `${t.tick().iso()} [orders] [info] Message from client: {"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"${k('claude-ai')}","version":"0.1.0"}},"jsonrpc":"2.0","id":0} { metadata: undefined }`,
    `${t.tick().iso()} [orders] [info] Message from client: {"method":"tools/call","params":{"name":"book_delivery","arguments":{"contact":"${s('person-name-non-latin', p.nonLatin())}","address":"${s('postal-address', p.address())}","phone":"${s('phone-e164', p.e164())}","notes":"${s('tool-args-non-english', 'Bitte beim Nachbarn im 2. OG abgeben, Klingel defekt')}"}},"jsonrpc":"2.0","id":4} { metadata: undefined }`,
    `${t.tick().iso()} [orders] [info] Message from server: {"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"${s('tool-result-text', `Delivery booked for slot 14:00-16:00, ref DLV-${r.digits(6)}`)}"}]}} { metadata: undefined }`,
    `${t.tick().iso()} [orders] [error] Error from remote server: Error: Error POSTing to endpoint (HTTP 404): Session not found (mcp-session-id ${s('session-id-text', sid)})`,
    `    at file:///C:/Users/${s('windows-path-username', user)}/AppData/Local/npm-cache/_npx/9a2c41f7/node_modules/mcp-remote/dist/chunk-7HNDQ3XB.js:11987:19`,
    `${t.tick().iso()} [orders] [info] Log file: C:\\Users\\${s('windows-path-username', user)}\\AppData\\Roaming\\Claude\\logs\\mcp-server-orders.log`,
    `${t.tick().iso()} [orders] [info] Message from client: {"method":"tools/call","params":{"name":"pay_invoice","arguments":{"iban":"${s('iban', group4(p.iban('FR')))}","amount":"${s('tool-args-json', p.amount())}","beneficiary":"${s('person-name-non-latin', p.nonLatin())}"}},"jsonrpc":"2.0","id":5} { metadata: undefined }`,
    `${k(t.tick().iso())} [orders] [info] Client transport closed { metadata: undefined }`,
  ];
  c.file('claude-desktop-windows.log', 'Claude Desktop mcp log on Windows (CRLF)', L, { crlf: true });
}

/** docker compose with ANSI colours: uvicorn, an MCP server, a colourised header dump. */
function composeAnsi({ c, r, f, p, n }: B) {
  const { s, k } = c;
  const E = '\x1b';
  const svc = (name: string, col: number) => `${E}[${col}m${name.padEnd(16)}|${E}[0m`;
  const mcp = svc('orders-mcp-1', 36);
  const gw = svc('gateway-1', 33);
  const sid = r.hex(32);
  const L = [
    `${mcp} ${E}[32mINFO${E}[0m:     Started server process [${k('1')}]`,
    `${mcp} ${E}[32mINFO${E}[0m:     Uvicorn running on ${E}[1mhttp://0.0.0.0:8000${E}[0m (Press CTRL+C to quit)`,
    `${mcp} ${E}[32mINFO${E}[0m:     ${s('private-ipv4', n.ip172())}:51122 - "${E}[1mPOST /mcp HTTP/1.1${E}[0m" ${E}[32m200 OK${E}[0m`,
    `${gw} ${E}[2m2026-03-14T09:31:10.044Z${E}[0m ${E}[34mDEBUG${E}[0m forwarding headers ${E}[33mauthorization${E}[0m: ${E}[2mBearer${E}[0m${E}[1m ${s('bearer-token-odd-spelling', f.opaque(44))}${E}[0m`,
    `${gw} ${E}[2m2026-03-14T09:31:10.045Z${E}[0m ${E}[34mDEBUG${E}[0m ${E}[33mmcp-session-id${E}[0m: ${E}[35m${s('session-id-other-format', sid)}${E}[0m`,
    `${gw} ${E}[2m2026-03-14T09:31:10.046Z${E}[0m ${E}[34mDEBUG${E}[0m upstream ${E}[4mhttp://${s('upstream-name', 'orders-mcp-1')}:8000/mcp${E}[0m`,
    `${mcp} ${E}[33mWARNING${E}[0m:  ${k('Invalid Host header')} from ${s('private-ipv4', n.ip172())}: ${s('internal-hostname', 'mcp.acme.local')}`,
    `${mcp} ${E}[31mERROR${E}[0m:    Exception in ASGI application`,
    `${mcp} Traceback (most recent call last):`,
    `${mcp}   File "/usr/local/lib/python3.12/site-packages/mcp/server/streamable_http.py", line 412, in _handle_post_request`,
    `${mcp}     raise ValueError(f"Unknown session {session_id}")`,
    `${mcp} ${E}[1;31mValueError${E}[0m: Unknown session ${s('session-id-other-format', sid)}`,
    `${gw} ${E}[2m2026-03-14T09:31:12.301Z${E}[0m ${E}[31mERROR${E}[0m openai call failed key=${E}[31m${s('openai-key', f.openaiSvc())}${E}[0m status=${k('429')}`,
    `${gw} ${E}[2m2026-03-14T09:31:12.302Z${E}[0m ${E}[34mDEBUG${E}[0m ${E}[36mAuthorization${E}[0m=${E}[1m"Bearer%20${s('bearer-token-odd-spelling', f.opaque(40))}"${E}[0m`,
    `${gw} ${E}[2m2026-03-14T09:31:12.303Z${E}[0m ${E}[34mDEBUG${E}[0m tool args ${E}[90m{"customer":"${s('person-name', p.name())}","email":"${s('email', p.email())}","card":"${s('credit-card', p.card('-'))}"}${E}[0m`,
    `${gw} ${E}[2m2026-03-14T09:31:12.304Z${E}[0m ${E}[33mWARN${E}[0m fallback key ${E}[1m${s('openai-key-legacy', f.openaiLegacy())}${E}[0m`,
    `${mcp} ${E}[32mINFO${E}[0m:     ${s('private-ipv4', n.ip172())}:51130 - "${E}[1mDELETE /mcp HTTP/1.1${E}[0m" ${E}[31m404 Not Found${E}[0m`,
    `${gw} ${E}[2m2026-03-14T09:31:13.000Z${E}[0m ${E}[32mINFO${E}[0m HF model pull with token ${E}[33m${s('huggingface-token', f.hf())}${E}[0m from ${k('https://huggingface.co')}`,
  ];
  c.file('compose-ansi.log', 'docker compose logs with ANSI colours (uvicorn, gateway)', L);
}

/** kubectl logs, get secret -o yaml, describe pod. */
function k8s({ c, r, f, p, n }: B) {
  const { s, k } = c;
  const saTok = f.k8sSaToken();
  const podIp = n.ip10();
  const dsn = `postgres://billing:${'B1ll1ng-' + r.alnum(6)}@pg.finance.svc.cluster.local:5432/billing`;
  const idJwt = f.accessJwt();
  const L = [
    `$ kubectl -n tools logs deploy/orders-mcp --since=10m`,
    `${k('2026-03-14T09:40:01.002Z')} info: orders-mcp 1.4.2 listening on :8080 (pod ${s('private-ipv4', podIp)})`,
    `2026-03-14T09:40:02.120Z info: upstream billing = http://${s('k8s-service-hostname', 'billing-mcp.finance.svc.cluster.local')}:8080/mcp`,
    `2026-03-14T09:40:02.121Z debug: auth to billing with Authorization: Bearer ${s('jwt', saTok)}`,
    `2026-03-14T09:40:05.993Z warn: ${k('fetch failed')} (cause: connect ECONNREFUSED ${s('private-ipv4', n.ip10())}:8080)`,
    `2026-03-14T09:40:06.000Z error: Session not found mcpSessionId=${s('session-id-header', r.uuid())} from ${s('private-ipv4', n.ip10())}`,
    `$ kubectl -n tools get secret orders-mcp-env -o yaml`,
    `apiVersion: v1`,
    `data:`,
    `  DATABASE_URL: ${s('base64-encoded-secret', b64(dsn))}`,
    `  MCP_CLIENT_SECRET: ${s('base64-encoded-secret', b64(r.alnum(40)))}`,
    `  SERVICE_JWT: ${s('jwt-base64', b64(idJwt))}`,
    `  STRIPE_KEY: ${s('base64-encoded-secret', b64(f.stripe('sk_live')))}`,
    `kind: Secret`,
    `metadata:`,
    `  name: orders-mcp-env`,
    `  namespace: tools`,
    `type: ${k('Opaque')}`,
    `$ kubectl -n tools describe pod orders-mcp-7d9f8c6b5-x2kqp`,
    `Name:             orders-mcp-7d9f8c6b5-x2kqp`,
    `Node:             ${s('internal-hostname', 'ip-10-42-7-19.eu-west-1.compute.internal')}/${s('private-ipv4', '10.42.7.19')}`,
    `IP:               ${s('private-ipv4', podIp)}`,
    `Image:            ${s('cloud-account-id', '493817264051')}.dkr.ecr.eu-west-1.amazonaws.com/orders-mcp:1.4.2`,
    `Environment:`,
    `  OPENAI_API_KEY:      ${s('openai-key', f.openai())}`,
    `  ORDERS_ADMIN_EMAIL:  ${s('email', p.email())}`,
    `  AWS_ROLE_ARN:        arn:aws:iam::${s('cloud-account-id', '493817264051')}:role/orders-mcp-irsa`,
    `Events:`,
    `  Warning  BackOff  2m (x4 over 5m)  kubelet  ${k('Back-off restarting failed container')}`,
    `$ kubectl get secret regcred -o jsonpath='{.data.\\.dockerconfigjson}' | base64 -d`,
    `{"auths":{"ghcr.io":{"auth":"${s('docker-registry-auth', b64('acme-ci:' + f.ghp()))}"}}}`,
  ];
  c.file('k8s-debug.txt', 'kubectl logs / get secret -o yaml / describe pod', L);
}

/** FastMCP (Python) server with rich console output, elicitation and sampling. */
function fastmcp({ c, r, p, n }: B) {
  const { s, k } = c;
  const t = new Clock(r, Date.UTC(2026, 2, 14, 9, 40, 12, 0));
  const sid = r.hex(32);
  const rp = (msg: string, src: string) => `${t.tick(100, 900).rich()} ${msg.padEnd(80)} ${src}`;
  const L = [
    rp(`INFO     Starting MCP server 'shipping' with transport 'sse' on http://${k('127.0.0.1')}:8000/sse`, 'server.py:1297'),
    `INFO:     ${s('private-ipv4', n.ip10())}:51822 - "GET /sse HTTP/1.1" 200 OK`,
    `INFO:     ${s('private-ipv4', n.ip10())}:51822 - "POST /messages/?session_id=${s('session-id-query', sid)} HTTP/1.1" ${k('202 Accepted')}`,
    rp(`INFO     Processing request of type ${k('CallToolRequest')}`, 'server.py:623'),
    rp(
      `DEBUG    tool call create_shipment args={'recipient': '${s('person-name-non-latin', p.nonLatin())}', 'address': '${s('postal-address', p.address())}', 'phone': '${s('phone-national', p.national())}'}`,
      'tools.py:88',
    ),
    rp(`DEBUG    tool call translate_note args={'text': '${s('tool-args-non-english', 'お客様は午前中の配達を希望しています')}', 'target': 'en'}`, 'tools.py:88'),
    rp(`DEBUG    tool call create_ticket arguments={'summary': '${s('tool-args-non-english', 'Клиент жалуется на повреждённую упаковку')}', 'priority': 'high'}`, 'tools.py:88'),
    rp(`INFO     elicitation/create message='${s('sampling-elicitation', `Confirm shipping ${p.product()} to the new address?`)}'`, 'elicit.py:41'),
    rp(`INFO     elicitation result action='accept' content={'confirm': True, 'contact_email': '${s('email', p.email())}'}`, 'elicit.py:57'),
    rp(
      `DEBUG    sampling/createMessage messages=[SamplingMessage(role='user', content=TextContent(type='text', text='${s('sampling-elicitation', `Summarise the dispute with ${p.company()} about ${p.note()}`)}'))]`,
      'sampling.py:30',
    ),
    rp(
      `WARNING  structured output: {'shipment_id': 'SHP-${r.digits(6)}', 'declared_value': '${s('tool-structured-content', p.amount() + ' EUR')}', 'consignee': '${s('person-name', p.name())}'}`,
      'tools.py:131',
    ),
    `INFO:     ${s('private-ipv4', n.ip10())}:51822 - "POST /messages/?session_id=${s('session-id-query', sid)} HTTP/1.1" ${k('404 Not Found')}`,
    rp(`WARNING  Could not find session for ID: ${s('session-id-text', sid.replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-'))}`, 'sse.py:219'),
    rp(
      `DEBUG    resources/read uri='notes://customer/${r.digits(4)}' -> TextResourceContents(text='${s('resource-contents', `Customer prefers invoices in Portuguese; disputes every late fee`)}')`,
      'resources.py:54',
    ),
    rp(`ERROR    Error in message router`, 'session.py:402'),
    `                             ${k('anyio.ClosedResourceError')}`,
    rp(
      `INFO     tool call lookup_customer kwargs: customer_id=${s('kv-customer', p.customer())}, name='${s('person-name-non-latin', p.nonLatin())}', iban='${s('iban', p.iban('NL'))}'`,
      'tools.py:88',
    ),
  ];
  c.file('fastmcp-server.log', 'FastMCP (Python) server, rich console + uvicorn access lines', L);
}

/** OTel spans exported as JSON lines. */
function otel({ c, r, f, p, n }: B) {
  const { s, k } = c;
  const span = (name: string, attrs: Record<string, unknown>) =>
    JSON.stringify({
      traceId: r.hex(32),
      spanId: r.hex(16),
      name,
      kind: 'SPAN_KIND_SERVER',
      startTimeUnixNano: String(1773480000000000000n + BigInt(r.int(0, 9e8))),
      attributes: attrs,
      status: { code: 'STATUS_CODE_UNSET' },
    });
  const sid = r.uuid();
  const L = [
    span(k('POST /mcp'), {
      'http.request.method': 'POST',
      'url.full': `https://${s('internal-hostname', 'mcp.orders.internal')}/mcp`,
      'http.request.header.authorization': [`Bearer ${s('bearer-token', f.bearerOpaque())}`],
      'http.request.header.mcp-session-id': [s('session-id-header', sid)],
      'client.address': s('private-ipv4', n.ip10()),
      'server.address': s('k8s-service-hostname', 'orders-mcp.tools.svc.cluster.local'),
      'http.response.status_code': 200,
    }),
    span('tools/call create_invoice', {
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': k('create_invoice'),
      'gen_ai.tool.call.arguments': JSON.stringify({ customer: s('escaped-json-payload', p.company()), lines: [{ sku: p.sku(), qty: 4 }], billing_email: s('email', p.email()) }),
      'mcp.session.id': s('session-id-json', sid),
      'user.email': s('email', p.email()),
    }),
    span('GET /v1/models', {
      'url.full': `https://generativelanguage.googleapis.com/v1beta/models?key=${s('google-api-key', f.googleKey())}`,
      'http.response.status_code': k('403'),
      'error.type': k('PERMISSION_DENIED'),
    }),
    span('POST /token', {
      'url.full': 'https://oauth2.googleapis.com/token',
      'http.request.body': `grant_type=refresh_token&refresh_token=${s('google-oauth-token', f.googleRefresh())}&client_id=1234-abc.apps.googleusercontent.com`,
      'http.response.body': JSON.stringify({ access_token: s('google-oauth-token', f.ya29()), expires_in: 3599 }),
    }),
    span('s3.GetObject', {
      'aws.request_id': r.upperAlnum(16),
      'rpc.service': 'S3',
      'http.request.header.authorization': [
        `AWS4-HMAC-SHA256 Credential=${s('aws-access-key-id', f.asia())}/20260314/eu-west-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature=${s('signed-url-signature', f.sigv4())}`,
      ],
      'http.request.header.x-amz-security-token': [s('aws-session-token', f.awsSessionOld())],
    }),
    span('tools/call get_weather', {
      'gen_ai.tool.call.result': JSON.stringify({ content: [{ type: 'text', text: 'Sunny, 18°C' }] }),
      'net.peer.mac': s('mac-address', n.mac()),
      'client.address': s('ipv6-address', n.v6()),
    }),
  ];
  c.file('otel-spans.jsonl', 'OpenTelemetry spans exported as JSON lines', L);
}

/** agentgateway-style logfmt gateway log with business k=v pairs. */
function gatewayLogfmt({ c, r, f, p, n }: B) {
  const { s, k } = c;
  const t = new Clock(r, Date.UTC(2026, 2, 14, 9, 45, 0, 117));
  const L: string[] = [];
  const ln = (fields: string) => L.push(`${t.tick(50, 2000).iso()}     info    request gateway=tools/agentgateway ${fields}`);
  ln(
    `src.addr=${s('private-ipv4', n.ip10() + ':51873')} http.method=${k('POST')} http.host=${s('internal-hostname', 'mcp.orders.internal')} http.path=/mcp http.status=200 protocol=mcp mcp.method=tools/call mcp.tool=create_order sku=${s('kv-sku', p.sku())} order=${s('kv-order', p.order())} customer=${s('kv-customer', p.customer())} amount=${s('kv-amount', p.amount())} duration=31ms`,
  );
  ln(
    `src.addr=${s('private-ipv4', n.ip10() + ':51874')} http.method=POST http.path=/mcp http.status=${k('500')} mcp.method=tools/call mcp.tool=refund order_id=${s('kv-order', p.order())} total=${s('kv-amount', p.amount())} account=${s('account-name', 'acme-eu-billing')} error="${k('upstream connect error or disconnect/reset before headers')}"`,
  );
  ln(
    `src.addr=${s('ipv6-address', n.v6())} http.method=POST http.path=/mcp mcp.session=${s('session-id-header', r.uuid())} user=${s('email', p.email())} phone=${s('phone-e164', p.e164())} http.status=200`,
  );
  ln(
    `src.addr=${s('private-ipv4', n.ip192() + ':40022')} http.method=GET http.path=/mcp http.status=400 mcp.session=${s('session-id-other-format', r.ulid())} reason="${k('missing session ID')}"`,
  );
  ln(
    `src.addr=${s('private-ipv4', n.ip10() + ':51880')} backend=${s('upstream-name', 'mcp-billing-legacy')} backend.addr=${s('private-ipv4', n.ip10() + ':9000')} http.status=502 customer_id=${s('kv-customer', p.customer())} sku=${s('kv-sku', p.sku())}`,
  );
  ln(`src.addr=${s('private-ipv4', n.ip10() + ':51881')} http.path=/mcp jwt.sub=${s('email', p.email())} jwt.raw=${s('jwt', f.accessJwt())} http.status=${k('403')}`);
  ln(
    `src.addr=${s('private-ipv4', n.ip10() + ':51882')} http.path=/mcp db="host=${s('internal-hostname', 'crm-db.acme.corp')} port=5432 user=crm pwd=${s('password-kv', 'crm2024')} dbname=crm" http.status=500`,
  );
  ln(`src.addr=${s('private-ipv4', n.ip10() + ':51883')} http.path=/mcp x-tenant-ticket=${s('unknown-vendor-token', r.hex(48))} http.status=200`);
  c.file('gateway-logfmt.log', 'agentgateway-style logfmt (k=v) gateway log', L);
}

/** network diagnostics pasted into an issue: ip addr, arp, resolv.conf, /etc/hosts. */
function netdiag({ c, r, n }: B) {
  const { s, k } = c;
  const L = [
    `$ ip addr show`,
    `1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group default qlen 1000`,
    `    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00`,
    `    inet ${k('127.0.0.1')}/8 scope host lo`,
    `    inet6 ${k('::1')}/128 scope host`,
    `2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP group default qlen 1000`,
    `    link/ether ${s('mac-address', n.mac())} brd ff:ff:ff:ff:ff:ff`,
    `    inet ${s('private-ipv4', n.ip192())}/24 brd 192.168.1.255 scope global dynamic eth0`,
    `    inet6 ${s('ipv6-address', n.v6())}/64 scope link`,
    `3: wg0: <POINTOPOINT,NOARP,UP,LOWER_UP> mtu 1420`,
    `    inet ${s('private-ipv4', n.ip10())}/32 scope global wg0`,
    `$ arp -a`,
    `? (${s('private-ipv4', n.ip192())}) at ${s('mac-address', n.mac())} [ether] on eth0`,
    `${s('internal-hostname', 'printer-3f.acme.lan')} (${s('private-ipv4', n.ip192())}) at ${s('mac-address', n.mac())} [ether] on eth0`,
    `$ getmac /v (Windows)`,
    `Ethernet  Intel(R) Ethernet Connection  ${s('mac-address', n.mac('-').toUpperCase())}  \\Device\\Tcpip_{${r.uuid().toUpperCase()}}`,
    `$ cat /etc/resolv.conf`,
    `nameserver ${s('private-ipv4', n.ip10())}`,
    `search ${s('internal-hostname', 'corp.acme.internal')} tools.svc.cluster.local`,
    `$ cat /etc/hosts`,
    `127.0.0.1 localhost`,
    `${s('private-ipv4', n.ip172())} ${s('internal-hostname', 'mcp-dev.acme.local')}`,
    `${s('ipv6-address', n.v6())} ${s('internal-hostname', 'gitlab.acme.intranet')}`,
    `$ dig +short mcp.orders.example.com`,
    `${s('public-ipv4', n.pub())}`,
    `$ traceroute -n mcp.orders.example.com`,
    ` 1  ${s('private-ipv4', n.ip192())}  0.512 ms`,
    ` 2  ${s('public-ipv4', n.pub())}  8.104 ms`,
  ];
  c.file('netdiag.txt', 'network diagnostics (ip addr, arp, getmac, resolv.conf, hosts)', L);
}

/** Spring AI / langchain4j Java client with stack traces. */
function javaClient({ c, r, f, p, n }: B) {
  const { s, k } = c;
  const t = new Clock(r, Date.UTC(2026, 2, 14, 9, 50, 1, 234));
  const j = (lvl: string, thr: string, logger: string, msg: string) => `${t.tick().java()} ${lvl.padStart(5)} 1 --- [${thr.padStart(15)}] ${logger.padEnd(40)} : ${msg}`;
  const email = p.email();
  const L = [
    j(
      'INFO',
      'main',
      'c.a.orders.OrdersAgentApplication',
      `Starting OrdersAgentApplication v2.0.3 using ${k('Java 21.0.4')} with PID 1 (/app/orders-agent.jar started by ${s('account-name', 'svc_orders')} in /app)`,
    ),
    j('INFO', 'main', 'o.s.ai.mcp.client.McpClientAutoConfig', `MCP client 'orders' -> https://${s('internal-hostname', 'mcp.orders.internal')}/mcp (spring-ai ${k('1.1.0')})`),
    j(
      'DEBUG',
      'main',
      'c.zaxxer.hikari.HikariConfig',
      `jdbcUrl.........................jdbc:postgresql://${s('internal-hostname', 'pg.finance.internal')}:5432/orders?user=orders&password=${s('dsn-password-sql', 'Pa55word')}&sslmode=require`,
    ),
    j('DEBUG', 'main', 'c.zaxxer.hikari.HikariConfig', `password........................${s('password-kv', 'hikariSecret9')}`),
    j(
      'DEBUG',
      'main',
      's.a.a.c.AwsCredentialsProviderChain',
      `Loaded credentials: AwsSessionCredentials(accessKeyId=${s('aws-access-key-id', f.asia())}, secretAccessKey=${s('aws-secret-access-key', f.awsSecret())}, sessionToken=${s('aws-session-token', f.awsSession())})`,
    ),
    j('INFO', 'mcp-http-1', 'i.m.client.transport.HttpClientSse', `SSE connected, endpoint /mcp/message?sessionId=${s('session-id-query', r.uuid())}`),
    j(
      'DEBUG',
      'mcp-http-1',
      'i.m.spec.McpSchema',
      `tools/call {name=find_invoices, arguments={customer=${s('tool-args-free-text', p.company())}, contactEmail=${s('email', email)}, from=2026-01-01}}`,
    ),
    j('WARN', 'mcp-http-1', 'i.m.client.McpAsyncClient', `${k('Request timed out')} after 20s; MDC{user=${s('email', email)}, tenant=${s('kv-customer', p.customer())}}`),
    j('ERROR', 'mcp-http-2', 'i.m.client.transport.HttpClientSse', `Error sending message`),
    `${k('java.util.concurrent.CompletionException')}: java.net.ConnectException: Connection refused: ${s('internal-hostname', 'mcp.orders.internal')}/${s('private-ipv4', n.ip10())}:443`,
    `\tat java.base/java.util.concurrent.CompletableFuture.encodeThrowable(CompletableFuture.java:315)`,
    `\tat io.modelcontextprotocol.client.transport.HttpClientSseClientTransport.sendMessage(HttpClientSseClientTransport.java:241)`,
    `Caused by: ${k('java.net.ConnectException')}: Connection refused`,
    `\tat java.base/sun.nio.ch.Net.pollConnect(Native Method)`,
    `\t... 12 common frames omitted`,
    j(
      'DEBUG',
      'mcp-http-2',
      'o.s.web.client.RestTemplate',
      `HTTP POST https://${s('internal-hostname', 'mcp.orders.internal')}/mcp, headers=[Authorization:"Basic ${s('basic-auth', b64('orders-agent:' + r.alnum(16)))}", Content-Type:"application/json", Mcp-Session-Id:"${s('session-id-header', r.uuid())}"]`,
    ),
    j(
      'INFO',
      'scheduling-1',
      'c.a.orders.PayoutJob',
      `payout prepared iban=${s('iban', group4(p.iban('GB')))} holder=${s('person-name', p.name())} amount=${s('kv-amount', p.amount())}`,
    ),
    j(
      'INFO',
      'scheduling-1',
      'c.a.orders.Storage',
      `Azure blob: DefaultEndpointsProtocol=https;AccountName=acmeorders;AccountKey=${s('azure-storage-key', f.azureAccountKey())};EndpointSuffix=core.windows.net`,
    ),
    j(
      'INFO',
      'scheduling-1',
      'c.a.orders.Storage',
      `SAS url https://acmeorders.blob.core.windows.net/exports/march.csv?sv=2025-01-05&se=2026-03-15T00%3A00%3A00Z&sr=b&sp=r&sig=${s('azure-storage-key', encodeURIComponent(r.b64(43) + '='))}`,
    ),
    j(
      'DEBUG',
      'main',
      'c.g.auth.oauth2.ServiceAccountCreds',
      `loaded key private_key_id=${s('private-key-id', r.hex(40))} for orders-export@acme-orders-prod.iam.gserviceaccount.com`,
    ),
    j(
      'INFO',
      'main',
      'c.a.orders.Auth',
      `Entra app: clientId=${r.uuid()}, clientSecret=${s('azure-client-secret', f.azureClientSecret())}, authority=https://login.microsoftonline.com/${s('cloud-account-id', r.uuid())}`,
    ),
    j(
      'DEBUG',
      'main',
      'c.a.orders.Db',
      `MongoClientSettings{connectionString=mongodb://orders:${s('dsn-password-other', 'mongo-pass-1')}@${s('internal-hostname', 'mongo-0.db.internal')}:27017/orders}`,
    ),
  ];
  c.file('java-client.log', 'Spring Boot / Spring AI MCP client with Java stack traces', L);
}

/** A raw SSE stream dump. */
function sseStream({ c, r, p }: B) {
  const { s, k } = c;
  const ev = (id: number, obj: unknown) => [`event: message`, `id: ${r.hex(8)}_${id}`, `data: ${JSON.stringify(obj)}`, ``];
  const L = [
    `: stream opened ${k('2026-03-14T09:55:00Z')}`,
    ...ev(1, {
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: s('sse-data-payload', `Order ${p.order()} for ${p.company()} shipped, tracking 1Z${r.upperAlnum(16)}`) }], isError: false },
    }),
    ...ev(2, {
      jsonrpc: '2.0',
      id: 2,
      result: {
        contents: [
          { uri: 'crm://accounts/42', mimeType: 'text/markdown', text: s('resource-contents', `${p.company()}: renewal value ${p.amount()} EUR, champion left the company`) },
        ],
      },
    }),
    ...ev(3, {
      jsonrpc: '2.0',
      id: 3,
      result: {
        content: [{ type: 'text', text: 'ok' }],
        structuredContent: {
          patient: s('person-name', p.name()),
          dob: s('tool-structured-content', '1984-07-19'),
          insurer_ref: s('tool-structured-content', 'INS-' + r.digits(9)),
        },
      },
    }),
    ...ev(4, {
      jsonrpc: '2.0',
      method: 'elicitation/create',
      id: 9,
      params: {
        message: s('sampling-elicitation', `Please confirm the refund of ${p.amount()} EUR to card ending ${r.digits(4)}`),
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } },
      },
    }),
    ...ev(5, {
      jsonrpc: '2.0',
      method: 'sampling/createMessage',
      id: 10,
      params: { messages: [{ role: 'user', content: { type: 'text', text: s('sampling-elicitation', `Draft a reply to ${p.email()} about their late order`) } }], maxTokens: 400 },
    }),
    ...ev(6, {
      jsonrpc: '2.0',
      id: 4,
      result: { messages: [{ role: 'user', content: { type: 'text', text: s('prompt-arguments', `Write an apology to ${p.company()} regarding ${p.note()}`) } }] },
    }),
    ...ev(7, { jsonrpc: '2.0', id: 5, error: { code: -32602, message: k('Invalid params') } }).map((l) => l.replace('-32602', k('-32602'))),
    `data: ${JSON.stringify({ jsonrpc: '2.0', id: 6, result: { content: [{ type: 'text', text: s('sse-data-payload', `Card ${p.card()} declined for ${p.name()}`) }] } })}`,
    ``,
    `: keep-alive`,
    `event: message`,
    `data: {"jsonrpc":"2.0","id":8,"result":{"content":[{"type":"text","text":"${s('tool-result-text', 'Quarterly churn for enterprise tier: 4.2%, 3 accounts flagged')}"}]}}`,
    ``,
  ];
  c.file('sse-stream.txt', 'raw SSE stream dump (event/id/data lines)', L);
}

/** A terminal capture wrapped at 100 columns: JWTs and a PEM key spill over several lines. */
function terminalWrapped({ c, r, f }: B) {
  const { s, k } = c;
  const W = 100;
  const L: string[] = [];
  const wrapPlant = (prefix: string, value: string, kind: string) => {
    const first = W - prefix.length;
    const pieces = [value.slice(0, first)];
    for (let i = first; i < value.length; i += W) pieces.push(value.slice(i, i + W));
    if (pieces.length > 1 && pieces.at(-1)!.length < 8) pieces[pieces.length - 2] += pieces.pop()!; // a terminal would not, but a 1-char plant measures nothing
    L.push(prefix + s(kind, pieces[0]!));
    for (const piece of pieces.slice(1)) L.push(s(kind, piece));
  };
  L.push(`${k('2026-03-14 10:01:02')} DEBUG oauth: token endpoint returned ${k('200')}`);
  wrapPlant(
    '2026-03-14 10:01:02 DEBUG oauth: id_token=',
    f.jwt({ iss: 'https://login.acme-idp.example/', sub: r.uuid(), aud: 'orders-agent', email: 'ops@example.com', exp: 1773483662 }),
    'jwt-wrapped',
  );
  wrapPlant('2026-03-14 10:01:03 DEBUG http: > Authorization: Bearer ', f.accessJwt(), 'jwt-wrapped');
  L.push(`2026-03-14 10:01:03 ERROR http: < 401 Unauthorized: ${k('invalid_token')} (token expired)`);
  L.push(`2026-03-14 10:01:04 DEBUG tls: loaded client key from /etc/orders/client.key:`);
  const pem = (label: string, lines: number, first: string) => {
    L.push(`-----BEGIN ${label}-----`);
    for (let i = 0; i < lines; i++) {
      const body = i === 0 ? first + r.b64(64 - first.length) : i === lines - 1 ? r.b64(r.int(20, 60)) + '=' : r.b64(64);
      L.push(i === 0 || i === Math.floor(lines / 2) || i === lines - 1 ? s('pem-private-key', body) : body);
    }
    L.push(`-----END ${label}-----`);
  };
  pem('PRIVATE KEY', 9, 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ');
  L.push(`2026-03-14 10:01:04 DEBUG ssh: deploy key:`);
  L.push(`-----BEGIN OPENSSH PRIVATE KEY-----`);
  for (let i = 0; i < 5; i++) {
    const body = i === 0 ? 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW' : r.b64(70);
    L.push(i === 0 ? body : s('pem-private-key', body));
  }
  L.push(`-----END OPENSSH PRIVATE KEY-----`);
  L.push(`2026-03-14 10:01:05 DEBUG tls: EC key:`);
  pem('EC PRIVATE KEY', 3, 'MHcCAQEEI');
  L.push(`2026-03-14 10:01:06 INFO  retrying with refreshed credentials, see ${k('https://datatracker.ietf.org/doc/html/rfc6750')}`);
  c.file('terminal-wrapped.log', 'terminal capture wrapped at 100 columns (JWT, PEM blocks)', L);
}

/** mcp-go client: Go log lines and %+v struct dumps. */
function goClient({ c, r, f, p, n }: B) {
  const { s, k } = c;
  const t = new Clock(r, Date.UTC(2026, 2, 14, 10, 5, 1, 0));
  const sid = r.uuid();
  const L = [
    `${k(t.tick(200, 900).ngx())} mcp-go client 0.41.1 starting`,
    `${t.tick(200, 900).ngx()} request: &http.Request{Method:"POST", URL:(*url.URL)(0xc0001a4000), Proto:"HTTP/1.1", Header:http.Header{"Accept":[]string{"application/json, text/event-stream"}, "Authorization":[]string{"Bearer ${s('bearer-token', f.bearerOpaque())}"}, "Mcp-Session-Id":[]string{"${s('session-id-header', sid)}"}}, Host:"${s('internal-hostname', 'mcp.orders.internal')}"}`,
    `${t.tick(200, 900).ngx()} headers: map[Authorization:[Basic ${s('basic-auth', b64('grafana:' + 'admin123'))}] Cookie:[grafana_session=${s('cookie', r.hex(32))}] X-Grafana-Org-Id:[1]]`,
    `${t.tick(200, 900).ngx()} ${k('request failed with status 401: unauthorized')}`,
    `${t.tick(200, 900).ngx()} proxy: &url.URL{Scheme:"http", User:url.UserPassword("svc-mcp", "${s('url-userinfo-password', 'winter-is-here-7')}"), Host:"${s('internal-hostname', 'egress.acme.lan')}:3128"} header map[Proxy-Authorization:[Basic ${s('proxy-authorization', b64('svc-mcp:winter-is-here-7'))}]]`,
    `${t.tick(200, 900).ngx()} db config: &{Host:${s('internal-hostname', 'pg.grafana.internal')} Port:5432 User:grafana Password:${s('password-json', 'grafanaDB2025')} SSLMode:disable}`,
    `${t.tick(200, 900).ngx()} gitlab client: token=${s('gitlab-token', f.glpat())} url=https://${s('internal-hostname', 'gitlab.acme.intranet')}/api/v4`,
    `${t.tick(200, 900).ngx()} calling tool search_issues with arguments map[assignee:${s('tool-args-free-text', p.name())} project:${s('tool-args-free-text', 'payments-core-' + r.lower(4))}]`,
    `${t.tick(200, 900).ngx()} slack notify: POST https://hooks.slack.com/services/${(() => {
      const h = f.slackHook();
      return `${h.team}/${h.bot}/${s('slack-webhook', h.secret)}`;
    })()} -> ${k('200 OK')}`,
    `${t.tick(200, 900).ngx()} dial tcp ${s('private-ipv4', n.ip10())}:8080: connect: ${k('connection refused')}`,
    `${t.tick(200, 900).ngx()} GET /sse?sessionId=${s('session-id-query', r.uuid())}: ${k('context deadline exceeded')} (Client.Timeout exceeded while awaiting headers)`,
    `${t.tick(200, 900).ngx()} session ${s('session-id-masked', sid.slice(0, 6) + '...' + sid.slice(-4))} closed by server`,
    `${t.tick(200, 900).ngx()} digitalocean: GET https://api.digitalocean.com/v2/account Authorization: Bearer ${s('digitalocean-token', f.dop())} -> 401`,
    `${t.tick(200, 900).ngx()} npm publish with //registry.npmjs.org/:_authToken=${s('npm-token', f.npm())}`,
    `${t.tick(200, 900).ngx()} github app: installation token ${s('github-app-token', f.ghApp('ghu'))} refresh ${s('github-app-token', f.ghApp('ghr'))}`,
  ];
  c.file('go-client.log', 'mcp-go client (Go log package, %+v struct dumps)', L);
}

/** HAProxy syslog lines with captured headers. */
function haproxy({ c, r, f, n }: B) {
  const { s, k } = c;
  const t = new Clock(r, Date.UTC(2026, 2, 14, 10, 10, 1, 123));
  const L: string[] = [];
  const backends = ['mcp-orders-2', 'mcp-orders-3', 'mcp-billing-1'];
  for (let i = 0; i < 6; i++) {
    t.tick(10, 3000);
    const be = s('upstream-name', backends[i % 3]!);
    const cap =
      i % 2 === 0
        ? `{${s('internal-hostname', 'mcp.acme.internal')}|Bearer ${s('bearer-token', f.opaque(40))}|${s('session-id-header', r.uuid())}}`
        : `{${s('internal-hostname', 'mcp.acme.internal')}|-|-}`;
    const status = i === 5 ? k('504') : '200';
    L.push(
      `${i === 0 ? k(t.syslog()) : t.syslog()} ${s('internal-hostname', 'lb1.acme.internal')} haproxy[1234]: ${s('public-ipv4', n.pub())}:${r.int(30000, 65000)} [${t.haproxy()}] fe_mcp~ be_mcp/${be} 0/0/1/${r.int(2, 90)}/${r.int(3, 95)} ${status} ${r.int(100, 4000)} - - ---- 1/1/0/0/0 0/0 ${cap} "POST /mcp HTTP/1.1"`,
    );
  }
  c.file('haproxy.log', 'HAProxy syslog (httplog with captured request headers)', L);
}

/** A support bundle's config files: .npmrc, docker config, .pypirc, aws credentials, gcloud key... */
function supportBundle({ c, r, f, p }: B) {
  const { s, k } = c;
  const sa = {
    type: 'service_account',
    project_id: 'acme-orders-prod',
    private_key_id: s('private-key-id', r.hex(40)),
    private_key: `-----BEGIN PRIVATE KEY-----\\n${s('pem-private-key-escaped', 'MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQ' + r.b64(14))}\\n${s('pem-private-key-escaped', r.b64(64))}\\n${r.b64(64)}\\n${s('pem-private-key-escaped', r.b64(40) + '==')}\\n-----END PRIVATE KEY-----\\n`,
    client_email: 'orders-export@acme-orders-prod.iam.gserviceaccount.com',
    client_id: r.digits(21),
  };
  const L = [
    `==> ~/.npmrc <==`,
    `//registry.npmjs.org/:_authToken=${s('npm-token', f.npm())}`,
    `//npm.pkg.github.com/:_authToken=${s('github-pat-classic', f.ghp())}`,
    `==> ~/.docker/config.json <==`,
    `{"auths":{"registry.acme.internal:5000":{"auth":"${s('docker-registry-auth', b64('ci-bot:' + 'Registry!2026'))}"},"https://index.docker.io/v1/":{"auth":"${s('docker-registry-auth', b64('acmeorders:dckr_pat_' + r.b64url(27)))}"}}}`,
    `==> ~/.pypirc <==`,
    `[pypi]`,
    `username = __token__`,
    `password = ${s('pypi-token', f.pypi())}`,
    `==> ~/.aws/credentials <==`,
    `[default]`,
    `aws_access_key_id = ${s('aws-access-key-id', f.akia())}`,
    `aws_secret_access_key = ${s('aws-secret-access-key', f.awsSecret())}`,
    `[prod]`,
    `aws_access_key_id=${s('aws-access-key-id', f.akia())}`,
    `aws_secret_access_key=${s('aws-secret-access-key', f.awsSecret())}`,
    `==> ~/.config/gcloud/orders-export.json <==`,
    JSON.stringify(sa),
    `==> ~/.git-credentials <==`,
    `https://${s('account-name', 'mhernandez-acme')}:${s('github-pat-classic', f.ghp())}@github.com`,
    `https://oauth2:${s('gitlab-token', f.glpat())}@${s('internal-hostname', 'gitlab.acme.intranet')}`,
    `==> ~/.config/claude/claude_desktop_config.json <==`,
    `{"mcpServers":{"orders":{"command":"npx","args":["-y","mcp-remote","https://mcp.orders.internal/mcp","--header","Authorization: Bearer ${s('bearer-token', f.bearerOpaque())}"]},"github":{"command":"docker","args":["run","-i","--rm","-e","GITHUB_PERSONAL_ACCESS_TOKEN","ghcr.io/github/github-mcp-server"],"env":{"GITHUB_PERSONAL_ACCESS_TOKEN":"${s('github-pat-classic', f.ghp())}"}}}}`,
    `==> ~/.config/orders-agent/config.yaml <==`,
    `openai:`,
    `  api_key: ${s('openai-key', f.openai())}`,
    `  base_url: ${k('https://api.openai.com/v1')}`,
    `anthropic_key: "${s('anthropic-key', f.anthropic())}"`,
    `stripe:`,
    `  secret_key: ${s('stripe-key', f.stripe('sk_test'))}`,
    `  webhook_secret: ${s('stripe-webhook-secret', f.whsec())}`,
    `sendgrid: { apiKey: '${s('sendgrid-key', f.sendgrid())}' }`,
    `slack:`,
    `  user_token: ${s('slack-token', f.xoxp())}`,
    `  signing_secret: ${s('generic-secret-kv', r.hex(32))}`,
    `database:`,
    `  url: mysql://orders:${s('dsn-password-sql', 'mysql-orders-77')}@${s('internal-hostname', 'mysql.orders.internal')}:3306/orders`,
    `  password: ${s('password-kv', 'letmein2026')}`,
    `owner:`,
    `  name: ${s('person-name', p.name())}`,
    `  phone: ${s('phone-national', p.national())}`,
    `  email: ${s('email', p.email())}`,
    `credentials: ${s('generic-secret-kv', r.b64(40))}`,
    `google_maps_key: ${s('google-api-key', f.googleKey())}`,
    `legacy_openai: ${s('openai-key-legacy', f.openaiLegacy())}`,
    `==> mysql command history <==`,
    `mysql -h ${s('internal-hostname', 'mysql.orders.internal')} -u orders -p${s('password-cli', 'mysql-orders-77')} orders`,
    `psql "host=${s('internal-hostname', 'pg.finance.internal')} user=finance password=${s('password-kv', 'fin@nce')} dbname=finance"`,
    `orders-cli login --user ${s('account-name', 'b.castellanos')} --password ${s('password-cli', 'Castellanos!1')}`,
    `python -c "import pymysql; pymysql.connect('${s('internal-hostname', 'mysql.orders.internal')}', 'orders', '${s('password-tuple', 'mysql-orders-77')}', 'orders')"`,
    `==> /etc/orders/db.tuple <==`,
    `DB = ("pg.finance.internal", 5432, "finance", "${s('password-tuple', 'Fin4nce2026')}")`,
    `SERVICE_TOKEN_B64=${s('jwt-base64', b64(f.k8sSaToken()))}`,
    `azure:`,
    `  tenantId: ${s('cloud-account-id', r.uuid())}`,
    `  clientSecret: "${s('azure-client-secret', f.azureClientSecret())}"`,
    `==> billing profile <==`,
    `customer: ${s('person-name', p.name())}, card ${s('credit-card', p.amex())}, ssn ${s('ssn', p.ssn())}, IBAN ${s('iban', p.iban('GB'))}`,
  ];
  c.file('support-bundle-config.txt', 'support bundle: config files (.npmrc, docker, .pypirc, aws, gcloud, git-credentials, yaml)', L);
}

/** LibreChat: epoch TAB iso TAB JSON, with a message quoting an escaped JSON body. */
function librechat({ c, r, f, p }: B) {
  const { s, k } = c;
  const t = new Clock(r, Date.UTC(2026, 2, 14, 10, 15, 19, 552));
  const uid = r.hex(24);
  const line = (o: Record<string, unknown>) => `${t.tick().epoch}\t${t.iso()}\t${JSON.stringify({ ...o, timestamp: t.iso() })}`;
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 12,
    method: 'tools/call',
    params: {
      name: 'send_quote',
      arguments: { to: s('email', p.email()), company: s('escaped-json-payload', p.company()), total: s('escaped-json-payload', p.amount() + ' EUR') },
    },
  });
  const L = [
    line({ level: 'debug', message: `[MCP][User: ${s('account-name', uid)}][crm-mcp] Removed connection entry.` }),
    line({ level: 'info', message: `[MCP][User: ${s('account-name', uid)}][crm-mcp] Sending request body: ${body}` }),
    line({
      code: 401,
      level: 'error',
      message: `[MCP][User: ${uid}][crm-mcp] Failed to establish connection Streamable HTTP error: Error POSTing to endpoint: {"error": "${k('invalid_token')}", "error_description": "The provided bearer token is invalid"}`,
      headers: { Authorization: `Bearer ${s('bearer-token', f.bearerOpaque())}`, 'X-Goog-Api-Key': s('google-api-key', f.googleKey()) },
    }),
    line({
      level: 'warn',
      message: `[MCP][User: ${uid}][crm-mcp] OAuth tokens stored`,
      tokens: { access_token: s('oauth-access-token', r.b64url(56)), refresh_token: s('oauth-refresh-token', r.b64url(56)), expires_at: 1773483000 },
    }),
    line({
      level: 'info',
      message: `[MCP][crm-mcp] tool result: {"content":[{"type":"text","text":"${s('escaped-json-payload', `Quote Q-${r.digits(5)} accepted by ${p.company()}`)}"}],"isError":false}`,
    }),
    line({
      level: 'debug',
      message: `[MCP][crm-mcp] resources/read result`,
      contents: [{ uri: 'crm://deals/991', text: s('resource-contents', `Deal desk: ${p.company()} asks for 90-day payment terms`) }],
    }),
    line({ level: 'debug', message: `[MCP][crm-mcp] ocp-apim-subscription-key=${s('api-key-header', r.hex(32))} private-token=${s('api-key-header', f.glpat())}` }),
    line({
      level: 'debug',
      message: `[MCP][crm-mcp] dpop proof DPoP: ${s('jwt', f.jwt({ htm: 'POST', htu: 'https://mcp.crm.example.com/mcp', iat: 1773483000, jti: r.uuid() }, 'ES256'))}`,
    }),
    line({ level: 'error', message: `[MCP][crm-mcp] ${k('Error: Session not found')} for session ${s('session-id-masked', r.hex(8) + '****')}` }),
    line({ level: 'debug', message: `[MCP][crm-mcp] x-auth-token: ${s('api-key-header', r.uuid())} session=${s('session-id-other-format', r.b64url(43))}` }),
  ];
  c.file('librechat.log', 'LibreChat (epoch TAB iso TAB winston JSON), escaped bodies in messages', L);
}

/** A Python requests/urllib3 debug dump and an auth proxy in logfmt, written in a few odd spellings. */
function oddSpellings({ c, r, f, p, n }: B) {
  const { s, k } = c;
  const L = [
    `send: b'POST /mcp HTTP/1.1\\r\\nHost: ${s('internal-hostname', 'mcp.orders.internal')}\\r\\nAuthorization: BEARER   ${s('bearer-token-odd-spelling', f.opaque(36))}\\r\\n'`,
    `reply: 'HTTP/1.1 ${k('401 Unauthorized')}\\r\\n'`,
    `header: WWW-Authenticate: Bearer error="${k('invalid_token')}", resource_metadata="https://mcp.orders.example.com/.well-known/oauth-protected-resource"`,
    `DEBUG:urllib3.connectionpool:https://${s('internal-hostname', 'mcp.orders.internal')}:443 "POST /mcp?authorization=Bearer+${s('bearer-token-odd-spelling', f.opaque(36))} HTTP/1.1" 401 57`,
    `proxy: upstream_request headers="{\\"Authorization\\": \\"Bearer ${s('bearer-token', f.opaque(38))}\\", \\"X-Api-Key\\": \\"${s('api-key-header', r.alnum(32))}\\"}"`,
    `auth-proxy level=debug msg="forwarding" authorization="Bearer\\u0020${s('bearer-token-odd-spelling', f.opaque(36))}" upstream=${s('upstream-name', 'mcp-orders-canary')} client=${s('private-ipv4', n.ip10())}`,
    `auth-proxy level=warn msg="session rejected" session=${(() => {
      const id = r.uuid();
      return s('session-id-masked', id.slice(0, 4) + '…' + id.slice(-4));
    })()} reason=${k('expired')}`,
    `auth-proxy level=debug msg="introspection" client_assertion=${s('jwt', f.jwt({ iss: 'orders-agent', sub: 'orders-agent', aud: 'https://auth.orders.example.com/token', exp: 1773483000, jti: r.uuid() }, 'RS256'))}`,
    `auth-proxy level=debug msg="egress" proxy-authorization="Negotiate ${s('proxy-authorization', r.b64(96))}" via=http://ops:${s('url-userinfo-password', 'opsOps2025')}@${s('internal-hostname', 'proxy.corp.acme.internal')}:8080`,
    `auth-proxy level=debug msg="set cookie" Set-Cookie="sid=${s('set-cookie', r.hex(40))}; HttpOnly"`,
    `auth-proxy level=info msg="login" username=${s('account-name', 'd.achterberg')} password=${s('password-kv', 'Achterberg2024')} result=${k('denied')}`,
    `auth-proxy level=info msg="user record" data="{'name': '${s('person-name', p.name())}', 'email': '${s('email', p.email())}', 'mobile': '${s('phone-e164', p.e164())}', 'password': '${s('password-json', 'qwerty123')}'}"`,
    `auth-proxy level=debug msg="github webhook" X-Hub-Signature-256=sha256=${s('signed-url-signature', r.hex(64))} x-github-delivery=${r.uuid()}`,
    `auth-proxy level=debug msg="anthropic admin" key=${s('anthropic-key', f.anthropicAdmin())}`,
    `auth-proxy level=debug msg="oauth app" client_id=Iv1.${r.hex(16)} token=${s('github-app-token', f.ghApp('gho'))}`,
    `auth-proxy level=debug msg="card on file" pan="${s('credit-card', p.card(' '))}" exp=09/28`,
    `auth-proxy level=debug msg="cookie jar" Cookie: "remember_me=${s('cookie', r.b64url(48))}; theme=dark"`,
    `auth-proxy level=debug msg="legacy sse" url=/sse?session_id=${s('session-id-query', r.hex(32))}&sessionId=${s('session-id-query', r.uuid())}`,
    `auth-proxy level=debug msg="home" cwd=/mnt/c/Users/${s('home-path-username', 'jbrennan')}/work/orders home=/Users/${s('home-path-username', 'sdelacroix')}/Library/Logs/Claude`,
    `auth-proxy level=info msg="contact" tel=${s('phone-national', p.national())} addr="${s('postal-address', p.address())}" ssn=${s('ssn', p.ssn())}`,
    `auth-proxy level=debug msg="ticket" x-upstream-auth=${s('unknown-vendor-token', r.b64url(40))} x-tenant-ticket=${s('unknown-vendor-token', r.alnum(44))}`,
    `auth-proxy level=debug msg="sendgrid" key=${s('sendgrid-key', f.sendgrid())} dop=${s('digitalocean-token', f.dop())} hf=${s('huggingface-token', f.hf())}`,
    `auth-proxy level=debug msg="jwt in base64" blob=${s('jwt-base64', b64(f.accessJwt()))}`,
    `auth-proxy level=debug msg="config blob" value=${s('base64-encoded-secret', b64(`{"password":"${'Blob-' + r.alnum(8)}","host":"db.internal"}`))}`,
    `auth-proxy level=debug msg="refresh" refresh_token=${s('oauth-refresh-token', r.b64url(40))} code_verifier=${s('oauth-code-verifier', r.b64url(50))} client_secret=${s('oauth-client-secret', r.alnum(32))}`,
    `auth-proxy level=debug msg="authorize" redirect=/callback?code=${s('oauth-code', r.hex(40))}&state=${r.hex(16)}`,
    `auth-proxy level=debug msg="kv" sku=${s('kv-sku', p.sku())} order=${s('kv-order', p.order())} customer=${s('kv-customer', p.customer())} amount=${s('kv-amount', p.amount())}`,
    `auth-proxy level=info msg="pkce" code_verifier="${s('oauth-code-verifier', r.b64url(43))}" grant_type=authorization_code`,
  ];
  c.file('odd-spellings.log', 'urllib3/http.client debug dump and an auth proxy in logfmt (odd spellings)', L);
}

const BUILDERS = [
  pyClient,
  mcpRemote,
  tsClient,
  nginxAccess,
  nginxError,
  nginxJson,
  envoy,
  serverJsonl,
  har,
  curlV,
  envDump,
  claudeWindows,
  composeAnsi,
  k8s,
  fastmcp,
  otel,
  gatewayLogfmt,
  netdiag,
  javaClient,
  sseStream,
  terminalWrapped,
  goClient,
  haproxy,
  supportBundle,
  librechat,
  oddSpellings,
];

export function build(seed = SEED): { files: Corpus['files']; manifest: Manifest } {
  const c = new Corpus();
  for (const builder of BUILDERS) {
    // each file draws from its own stream, so editing one file does not reshuffle the others
    const r = new R(seed ^ hash(builder.name));
    builder({ c, r, f: fakes(r), p: people(r), n: net(r) });
  }
  const manifest = c.manifest(
    seed,
    'corpus2: planted values (kind, file, 1-based line) and mustKeep values; written from BRIEF.md without reading the redaction rules. All values are random from the seed.',
  );
  return { files: c.files, manifest };
}

function hash(s: string): number {
  let h = 2166136261;
  for (const ch of s) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}

export function generate(outDir = LOGS_DIR): Manifest {
  const { files, manifest } = build();
  mkdirSync(outDir, { recursive: true });
  for (const old of readdirSync(outDir)) rmSync(join(outDir, old));
  for (const f of files) writeFileSync(join(outDir, f.name), f.content);
  writeFileSync(join(outDir, 'manifest.json'), JSON.stringify(manifest, null, 1) + '\n');
  return manifest;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const i = process.argv.indexOf('--out');
  const out = i > 0 ? process.argv[i + 1]! : LOGS_DIR;
  const m = generate(out);
  const thin = m.kinds.filter((k) => k.planted < 3).map((k) => `${k.id}=${k.planted}`);
  console.log(
    `corpus2: ${m.files.length} files, ${m.planted.length} planted values in ${m.kinds.filter((k) => k.planted).length}/${m.kinds.length} kinds, ${m.mustKeep.length} mustKeep → ${out}`,
  );
  if (thin.length) console.log(`kinds with fewer than 3 plants: ${thin.join(', ')}`);
}
