// Cross-site and rebinding guards (redaction.md §5.6–7): state changes need our custom header
// and a same-origin (or absent) Origin; the Host must be one we are bound to; strict headers.
import type { FastifyPluginAsync } from 'fastify';
import fp from './fp.ts';
import { TriageError } from '../errors.ts';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

function hostName(h: string | undefined): string {
  if (!h) return '';
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  return h.split(':')[0]!.toLowerCase();
}

export const securityPlugin: FastifyPluginAsync<{ allowedHosts?: string[]; token?: string }> = fp(async (app, opts) => {
  const allowed = new Set([...LOOPBACK, ...(opts.allowedHosts ?? []).map((h) => h.toLowerCase())]);
  app.addHook('onRequest', async (req, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Content-Security-Policy', "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'");
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Referrer-Policy', 'no-referrer');
    const host = hostName(req.headers.host);
    if (host && !allowed.has(host)) throw new TriageError('TRIAGE_ERR_FORBIDDEN', `Host "${host}" is not a name this server is bound to (DNS rebinding guard)`);
    if (opts.token && req.headers.authorization !== `Bearer ${opts.token}`) throw new TriageError('TRIAGE_ERR_FORBIDDEN', 'missing or wrong access token; send Authorization: Bearer <token>');
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return;
    if (req.headers['x-requested-with'] !== 'mcp-triage') throw new TriageError('TRIAGE_ERR_FORBIDDEN', 'state-changing requests must carry the header X-Requested-With: mcp-triage');
    const site = req.headers['sec-fetch-site'];
    if (site && site !== 'same-origin' && site !== 'none') throw new TriageError('TRIAGE_ERR_FORBIDDEN', `cross-site request refused (Sec-Fetch-Site: ${site})`);
    const origin = req.headers.origin;
    if (origin && origin !== 'null') {
      let oh = '';
      try {
        oh = new URL(origin).host;
      } catch {
        /* unparseable origin: refused below */
      }
      if (!oh || oh !== req.headers.host) throw new TriageError('TRIAGE_ERR_FORBIDDEN', `cross-origin request from ${origin} refused`);
    } else if (origin === 'null') throw new TriageError('TRIAGE_ERR_FORBIDDEN', 'requests from an opaque origin are refused');
  });
});
