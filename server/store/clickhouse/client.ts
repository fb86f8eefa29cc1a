// ClickHouse over its HTTP interface with plain fetch: statements in the body, rows in and out as
// JSONEachRow. Every failure becomes one TRIAGE_ERR_STORE line that names the store and
// ClickHouse's error code, scrubbed: no SQL, no data echoed by the server, no credentials.
//
// ClickHouse 18.16 (Debian's) has no query parameters over HTTP: values reach SQL only through
// sql.ts's literals, identifiers only from our own code.
import { randomBytes } from 'node:crypto';
import { TriageError } from '../../errors.ts';
import { redactText } from '../../triage/redact/index.ts';
import { secretsOf, type StoreTarget } from './target.ts';

export interface RequestOptions {
  /** ClickHouse settings, as URL parameters (names from our code only). */
  settings?: Record<string, string | number>;
  /** Reads are safe to send again once when the connection broke before an answer. */
  idempotent?: boolean;
  timeoutMs?: number;
  /** The database statements resolve names in; null: none (before it exists). Default: the store's. */
  database?: string | null;
}

const DEFAULT_TIMEOUT_MS = 120_000;
/** A throwaway key: error messages are scrubbed with the redaction rules, and no pseudonym in them needs to agree with anything. */
const SCRUB_KEY = randomBytes(32);

export class ClickHouseClient {
  constructor(
    readonly target: StoreTarget,
    /** http[s]://host:port of the node this client talks to. */
    readonly base: string = target.nodes[0]!,
  ) {}

  /** The same credentials, another node (DDL runs on every node of a cluster). */
  forNode(base: string): ClickHouseClient {
    return new ClickHouseClient(this.target, base);
  }

  /** The node as shown in messages: host:port, never credentials. */
  get where(): string {
    return this.target.nodes.length > 1 ? `${this.target.display} (node ${this.base.replace(/^https?:\/\//, '')})` : this.target.display;
  }

  /** Rows of a SELECT, decoded (64-bit integers arrive as strings). */
  async rows<T = Record<string, unknown>>(sql: string, opts: RequestOptions = {}): Promise<T[]> {
    const text = await this.request(`${sql}\nFORMAT JSONEachRow`, null, { idempotent: true, ...opts });
    const out: T[] = [];
    let at = 0;
    while (at < text.length) {
      let nl = text.indexOf('\n', at);
      if (nl < 0) nl = text.length;
      if (nl > at) out.push(JSON.parse(text.slice(at, nl)) as T);
      at = nl + 1;
    }
    return out;
  }

  /** A statement without a result (DDL). */
  async run(sql: string, opts: RequestOptions = {}): Promise<void> {
    await this.request(sql, null, opts);
  }

  /** Insert JSONEachRow text (one JSON object per line) into `table` (our identifier). */
  async insert(table: string, ndjson: string, opts: RequestOptions = {}): Promise<void> {
    if (!ndjson) return;
    await this.request(`INSERT INTO ${table} FORMAT JSONEachRow`, ndjson, opts);
  }

  /**
   * One statement whose answer is read as it arrives (the SQL console: it stops reading past its
   * size cap). Errors as for every request; `signal` calls the request off (TimeoutError/AbortError).
   */
  async stream(query: string, opts: RequestOptions & { signal: AbortSignal }): Promise<Response> {
    const params = new URLSearchParams();
    params.set('database', this.target.database);
    for (const [k, v] of Object.entries(opts.settings ?? {})) params.set(k, String(v));
    const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' };
    if (this.target.user !== null) headers.authorization = `Basic ${Buffer.from(`${this.target.user}:${this.target.password ?? ''}`).toString('base64')}`;
    let res: Response;
    try {
      res = await fetch(`${this.base}/?${params}`, { method: 'POST', headers, body: query, signal: opts.signal });
    } catch (e) {
      if (opts.signal.aborted) throw e;
      throw this.unreachable(e);
    }
    if (res.ok) return res;
    const text = await res.text().catch((e: unknown) => {
      if (opts.signal.aborted) throw e;
      throw this.unreachable(e);
    });
    throw this.refused(res.status, text);
  }

  private async request(query: string, body: string | null, opts: RequestOptions): Promise<string> {
    const params = new URLSearchParams();
    const db = opts.database === undefined ? this.target.database : opts.database;
    if (db !== null) params.set('database', db);
    for (const [k, v] of Object.entries(opts.settings ?? {})) params.set(k, String(v));
    // An INSERT's statement goes in the URL and its rows in the body; anything else in the body.
    if (body !== null) params.set('query', query);
    const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' };
    if (this.target.user !== null) headers.authorization = `Basic ${Buffer.from(`${this.target.user}:${this.target.password ?? ''}`).toString('base64')}`;
    const attempts = opts.idempotent ? 2 : 1;
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(`${this.base}/?${params}`, {
          method: 'POST',
          headers,
          body: body ?? query,
          signal: AbortSignal.timeout(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS),
        });
      } catch (e) {
        if (attempt < attempts && brokenConnection(e)) continue;
        throw this.unreachable(e);
      }
      const text = await res.text().catch((e: unknown) => {
        throw this.unreachable(e);
      });
      if (res.ok) return text;
      // (a read that failed between the nodes of a cluster — a shard's connection broken mid-query — is asked again:
      // it changes nothing)
      if (attempt < attempts && INTER_NODE_CODES.has(scrubError(text).code ?? -1)) continue;
      throw this.refused(res.status, text);
    }
  }

  private unreachable(e: unknown): TriageError {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    // A system error's code (ECONNREFUSED, ENOTFOUND…), a timeout, or fetch's own reason ("bad port").
    const code = cause?.code ?? ((e as Error).name === 'TimeoutError' ? 'timed out' : String(cause?.message ?? (e as Error).message).slice(0, 80));
    return new TriageError('TRIAGE_ERR_STORE', `ClickHouse at ${this.where} is unreachable (${code}); check the host and the HTTP port (8123 by default) of --store`, {
      store: this.target.display,
      kind: 'unreachable',
    });
  }

  private refused(status: number, body: string): TriageError {
    const { code, message } = scrubError(body, secretsOf(this.target), this.target.user);
    const auth = status === 401 || status === 403 || code === 192 || code === 193 || code === 194 || code === 516;
    const what = auth ? 'refused the credentials' : 'refused a request';
    const hint = auth ? `; give them in MCP_TRIAGE_STORE (clickhouse://user:password@host:8123/db) or --store-credentials FILE` : '';
    return new TriageError('TRIAGE_ERR_STORE', `ClickHouse at ${this.where} ${what} (HTTP ${status}${code !== null ? `, code ${code}` : ''}: ${message})${hint}`, {
      store: this.target.display,
      kind: 'refused',
      ...(code !== null ? { clickhouseCode: code } : {}),
    });
  }
}

/**
 * ClickHouse's codes for a failure between two of its nodes, not of the query: UNEXPECTED_PACKET_FROM_SERVER (101),
 * SOCKET_TIMEOUT (209), NETWORK_ERROR (210), ALL_CONNECTION_TRIES_FAILED (279).
 */
const INTER_NODE_CODES = new Set([101, 209, 210, 279]);

function brokenConnection(e: unknown): boolean {
  const code = (e as { cause?: { code?: string } }).cause?.code ?? '';
  return ['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'].includes(code);
}

/**
 * ClickHouse's error text, made safe to show: its code and the first sentence of its message,
 * without what servers echo back (SQL after "failed at position", rows after "(at row", quoted
 * values), without known secrets, through the redaction rules, and short.
 *   18.16:  Code: 60, e.displayText() = DB::Exception: Table db.t doesn't exist., e.what() = DB::Exception
 *   newer:  Code: 60. DB::Exception: Table db.t does not exist. (UNKNOWN_TABLE) (version 24.3.1)
 */
export function scrubError(body: string, secrets: readonly string[] = [], user: string | null = null): { code: number | null; message: string } {
  const first = body.split('\n').find((l) => l.trim() !== '') ?? '';
  const code = /Code:\s*(\d+)/.exec(first)?.[1];
  let m = first
    .replace(/^.*?DB::Exception:\s*/, '')
    .replace(/,\s*e\.what\(\) = .*$/, '')
    .replace(/\s*\(version [^)]*\)\s*$/, '');
  // Everything after these is an echo of the statement or of the data.
  m = m.replace(/(failed at position \d+)[\s\S]*$/, '$1');
  m = m.replace(/\s*(\(at row \d+\)|: \(at row|Row \d+:|parsed text|while reading|: while executing|: while|Stack trace)[\s\S]*$/i, '');
  // Quoted fragments are values or SQL more often than names.
  m = m.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "'…'");
  for (const s of secrets) if (s) m = m.split(s).join('[REDACTED]');
  // The user name is ours (not a secret) and names the account to fix: kept out of the rules' reach.
  const USER = '\u0000user\u0000';
  if (user) m = m.split(user).join(USER);
  m = redactText(m, { key: SCRUB_KEY }).text;
  if (user) m = m.split(USER).join(user);
  if (m.length > 240) m = `${m.slice(0, 240)}…`;
  if (!m.trim()) m = 'no message';
  return { code: code === undefined ? null : Number(code), message: m.trim() };
}
