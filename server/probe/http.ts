// A fetch wrapper handed to the SDK transports: it records every HTTP exchange (the exact request
// headers, status, content type, and the first bytes of an error body) so each step's evidence
// shows what was really sent and received. Credentials are masked at capture time: the raw
// bearer token never enters a record.
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

export interface RpcInfo {
  id?: string | number;
  method?: string;
  tool?: string;
}

export interface Exchange {
  seq: number;
  connection: number;
  method: string;
  url: string;
  /** request headers, lower-case names; authorization/cookie values masked */
  requestHeaders: Record<string, string>;
  rpc: RpcInfo[];
  startedAt: number;
  ms?: number;
  status?: number;
  contentType?: string;
  /** the `Server` response header (nginx/1.22.1, …) */
  serverHeader?: string;
  /** Mcp-Session-Id the response assigned */
  assignedSessionId?: string;
  wwwAuthenticate?: boolean;
  location?: string;
  /** first 300 characters of a non-2xx body */
  bodySnippet?: string;
  /** network error (no response) */
  error?: unknown;
}

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-api-key']);

export function maskHeaderValue(name: string, value: string): string {
  if (!SECRET_HEADERS.has(name)) return value;
  const scheme = /^(\w+)\s/.exec(value)?.[1];
  return scheme ? `${scheme} [REDACTED:${name}]` : `[REDACTED:${name}]`;
}

function headersOf(init: RequestInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!init?.headers) return out;
  new Headers(init.headers).forEach((v, k) => (out[k] = maskHeaderValue(k, v)));
  return out;
}

function rpcOf(body: unknown): RpcInfo[] {
  if (typeof body !== 'string') return [];
  try {
    const j = JSON.parse(body) as unknown;
    const arr = Array.isArray(j) ? j : [j];
    return arr
      .filter((m): m is Record<string, unknown> => !!m && typeof m === 'object')
      .map((m) => {
        const params = m.params as { name?: unknown } | undefined;
        const r: RpcInfo = {};
        if (typeof m.id === 'string' || typeof m.id === 'number') r.id = m.id;
        if (typeof m.method === 'string') r.method = m.method;
        if (m.method === 'tools/call' && typeof params?.name === 'string') r.tool = params.name;
        return r;
      });
  } catch {
    return [];
  }
}

export class ExchangeLog {
  readonly all: Exchange[] = [];
  private seq = 0;
  constructor(private onDone?: (x: Exchange) => void) {}

  /** The fetch for one connection (1-based). */
  fetchFor(connection: number): FetchLike {
    return async (input, init) => {
      const url = typeof input === 'string' ? input : input.href;
      const x: Exchange = {
        seq: ++this.seq,
        connection,
        method: (init?.method ?? 'GET').toUpperCase(),
        url,
        requestHeaders: headersOf(init),
        rpc: rpcOf(init?.body),
        startedAt: Date.now(),
      };
      this.all.push(x);
      const t0 = performance.now();
      try {
        const res = await fetch(input, init);
        x.ms = Math.round(performance.now() - t0);
        x.status = res.status;
        x.contentType = res.headers.get('content-type') ?? undefined;
        x.serverHeader = res.headers.get('server') ?? undefined;
        x.assignedSessionId = res.headers.get('mcp-session-id') ?? undefined;
        x.wwwAuthenticate = res.headers.has('www-authenticate');
        x.location = res.headers.get('location') ?? undefined;
        if (!res.ok) {
          try {
            x.bodySnippet = (await withTimeout(res.clone().text(), 2000, 'error body')).slice(0, 300);
          } catch {
            /* the body could not be read; the status says enough */
          }
        }
        this.onDone?.(x);
        return res;
      } catch (e) {
        x.ms = Math.round(performance.now() - t0);
        x.error = e;
        this.onDone?.(x);
        throw e;
      }
    };
  }

  /** Exchanges of one connection since `fromSeq` (exclusive). */
  since(connection: number, fromSeq: number): Exchange[] {
    return this.all.filter((x) => x.connection === connection && x.seq > fromSeq);
  }

  get lastSeq(): number {
    return this.seq;
  }
}

/** Reject after ms with a PROBE_TIMEOUT error naming what stalled (diagnose.ts reads the code). */
export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(Object.assign(new Error(`${what} timed out after ${ms} ms`), { code: 'PROBE_TIMEOUT' })), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}
