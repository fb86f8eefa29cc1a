import type { Rule } from '../rule.ts';
import { has } from '../rule.ts';

// nginx ngx_event_openssl.c, Go net/http server.go (what Caddy and Traefik print), HAProxy's connection log: a
// front end logs each downstream connection whose TLS handshake failed, before any HTTP request on it. Internet
// scanners and clients with old TLS stacks cause them all day (nginx logs some, such as `bad key share`, at crit).
// Only when the server answered requests in the same incident is it someone else's connection: optional. With
// nothing answered it may be the client's own handshake, and a missing client certificate (mutual TLS) is a
// credential to fix.
export const downstreamHandshakeNoise: Rule = {
  id: 'downstream-handshake-noise',
  decision: 'no_action',
  source: 'nginx ngx_event_openssl.c (client handshake errors) · Go net/http server.go · HAProxy connection log · cli-contract.md (optional)',
  role: 'optional',
  when(f) {
    if (!has(f, 'downstream-handshake')) return "not a downstream connection's failed TLS handshake";
    if (f.method !== null || f.tool !== null) return 'the failing exchange is an MCP request';
    if (has(f, 'credentials-missing')) return 'the front end demanded a client certificate and got none (mutual TLS): a credential to fix';
    if (f.serverNeverAnswered) return "nothing in the incident was answered: it may be the client's own handshake";
    return true;
  },
  rationale: (f) =>
    `The front end logged a connection whose TLS handshake failed before any request on it, while the server answered requests in the same incident: another client's connection — internet scanners and old TLS stacks cause these all day. No MCP request failed.`,
  examples: [
    {
      name: "a stranger's handshake (bad key share) between answered calls",
      facts: { causes: ['downstream-handshake'], signals: ['downstream-tls-handshake-failed'], serverNeverAnswered: false },
      fires: true,
    },
    {
      name: 'near miss: nothing was answered in the incident',
      facts: { causes: ['downstream-handshake'], signals: ['downstream-tls-handshake-failed'], serverNeverAnswered: true },
      fires: false,
    },
    {
      name: 'near miss: the front end wanted a client certificate',
      facts: {
        causes: ['downstream-handshake', 'credentials-missing'],
        signals: ['downstream-tls-handshake-failed', 'tls-client-certificate-required'],
        serverNeverAnswered: false,
      },
      fires: false,
    },
    { name: 'near miss: an MCP call', facts: { method: 'tools/call', tool: 'get_order', causes: ['downstream-handshake'], serverNeverAnswered: false }, fires: false },
  ],
};
