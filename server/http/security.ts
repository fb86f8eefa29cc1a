// Cross-site and rebinding guards (redaction.md §5.6–7): state changes need our custom header
// and a same-origin (or absent) Origin; the Host must be one we are bound to; strict headers.
import type { FastifyPluginAsync } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { hostname, networkInterfaces } from 'node:os';
import fp from './fp.ts';
import { TriageError } from '../errors.ts';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
export const MIN_TOKEN_LENGTH = 16;

/** A wildcard bind (0.0.0.0, ::) is reached by this machine's names and addresses: those are the Hosts to accept. */
function expandHosts(hosts: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of hosts) {
    const h = raw.toLowerCase();
    if (h === '0.0.0.0' || h === '::' || h === '[::]') {
      out.push(hostname().toLowerCase());
      for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) out.push(a.family === 'IPv6' ? `[${a.address.split('%')[0]}]` : a.address);
    } else out.push(h.includes(':') && !h.startsWith('[') ? `[${h}]` : h);
  }
  return out;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

function hostName(h: string | undefined): string {
  if (!h) return '';
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  return h.split(':')[0]!.toLowerCase();
}

export const securityPlugin: FastifyPluginAsync<{ allowedHosts?: string[]; token?: string }> = fp(async (app, opts) => {
  const allowed = new Set([...LOOPBACK, ...expandHosts(opts.allowedHosts ?? [])]);
  if (opts.token !== undefined && opts.token.length < MIN_TOKEN_LENGTH) {
    throw new TriageError(
      'TRIAGE_ERR_USAGE',
      `the access token is shorter than ${MIN_TOKEN_LENGTH} characters; put a long random one in the token file (e.g. openssl rand -hex 32)`,
    );
  }
  const expected = opts.token ? digest(`Bearer ${opts.token}`) : null;
  app.addHook('onRequest', async (req, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header(
      'Content-Security-Policy',
      "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
    );
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('Cross-Origin-Resource-Policy', 'same-origin');
    reply.header('Cross-Origin-Opener-Policy', 'same-origin');
    const host = hostName(req.headers.host);
    if (!host) throw new TriageError('TRIAGE_ERR_FORBIDDEN', 'requests must carry a Host header (DNS rebinding guard)');
    if (!allowed.has(host)) throw new TriageError('TRIAGE_ERR_FORBIDDEN', `Host "${host.slice(0, 100)}" is not a name this server is bound to (DNS rebinding guard)`);
    // Compare digests in constant time: the token's length and prefix do not leak through timing.
    if (expected && !timingSafeEqual(digest(String(req.headers.authorization ?? '')), expected))
      throw new TriageError('TRIAGE_ERR_FORBIDDEN', 'missing or wrong access token; send Authorization: Bearer <token>');
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return;
    if (req.headers['x-requested-with'] !== 'mcp-triage')
      throw new TriageError('TRIAGE_ERR_FORBIDDEN', 'state-changing requests must carry the header X-Requested-With: mcp-triage');
    const site = req.headers['sec-fetch-site'];
    if (site && site !== 'same-origin' && site !== 'none')
      throw new TriageError('TRIAGE_ERR_FORBIDDEN', `cross-site request refused (Sec-Fetch-Site: ${String(site).slice(0, 40)})`);
    const origin = req.headers.origin;
    if (origin && origin !== 'null') {
      let oh = '';
      let own = '';
      try {
        oh = new URL(origin).host;
        own = new URL(`http://${req.headers.host}`).host; // same normalisation (default port, case)
      } catch {
        /* unparseable origin: refused below */
      }
      if (!oh || oh !== own) throw new TriageError('TRIAGE_ERR_FORBIDDEN', `cross-origin request from ${origin.slice(0, 100)} refused`);
    } else if (origin === 'null') throw new TriageError('TRIAGE_ERR_FORBIDDEN', 'requests from an opaque origin are refused');
  });
});
