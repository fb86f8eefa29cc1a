import type { Rule } from '../rule.ts';
import { describe, has } from '../rule.ts';

const STARTUP = new Set(['initialize', 'server/discover', 'ping', 'tools/list']);

// failure-signatures section (c) timing fingerprints and D19 ("raise read/idle timeouts"), read for the
// host's start-up budget: a host gives each server a fixed time to come up — start or reach it, connect,
// initialize, list its tools (crewai-tools MCPServerAdapter connect_timeout, default 30 s; Codex
// startup_timeout_sec, default 10 s; strands MCPClient 30 s). Its own "could not start in N seconds" line
// is that budget running out, not a request the server took and left unanswered: no tool call was sent,
// so nothing is at stake but the connection, and the next start meets the same budget. The maintainers'
// answer in those projects is the setting (docs.crewai.com Connection Configuration, Codex's own message
// "Add or adjust startup_timeout_sec"); when the server never comes up at all, the same line means the
// URL or transport is wrong (mcpadapt's SSE default against a Streamable HTTP /mcp): fix_route_or_config
// either way. A server shown answering the handshake (handshake-answered-then-timed-out) or a transport
// error before the timeout is judged by its own rule first.
export const startupTimeout: Rule = {
  id: 'client-startup-timeout',
  decision: 'fix_route_or_config',
  source: 'failure-signatures section (c) timing fingerprints, D19 · crewai-tools MCPServerAdapter connect_timeout · Codex startup_timeout_sec',
  when(f) {
    if (f.interruption !== 'client-timeout') return 'not a client-local timeout';
    if (!f.signals.includes('client-startup-timeout')) return "no host line saying the server's start-up budget ran out";
    if (f.method !== null && !STARTUP.has(f.method)) return `${f.method} is a call on a running session, not its start-up`;
    if (f.tool !== null) return 'a named tool call, not the start-up';
    if (has(f, 'conn-refused', 'dns-name-unknown', 'tls-failure', 'stream-cut', 'conn-reset', 'peer-closed-before-response', 'proxy-upstream-unavailable'))
      return 'a transport error came before the timeout: the timeout is its consequence';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} did not come up within the client's start-up budget${f.clientTimeoutMs !== null ? ` (${f.clientTimeoutMs} ms)` : ''}: the host's own timer for starting or reaching the server, connecting and initializing ran out, with no connection error before it. No tool call was sent, so nothing ran that a retry could repeat — but the next start meets the same budget. Raise the start-up/connect timeout for this server (connect_timeout, startup_timeout_sec, the client's initialization timeout) if it is slow to start (a package download on first run, a cold start); if it never answers at all, check its URL and transport (a Streamable HTTP endpoint driven as legacy SSE waits until this timer ends).`,
  examples: [
    {
      name: 'crewai adapter: could not connect within 30 s',
      facts: { method: 'initialize', interruption: 'client-timeout', causes: ['client-timeout'], signals: ['client-startup-timeout'] },
      fires: true,
    },
    {
      name: 'Codex: failed to start, request timed out, call unknown',
      facts: { interruption: 'client-timeout', causes: ['client-timeout'], signals: ['client-startup-timeout', 'client-request-timeout'] },
      fires: true,
    },
    {
      name: 'a request timeout on initialize with no start-up line (the server silent on the handshake)',
      facts: { method: 'initialize', interruption: 'client-timeout', clientTimeoutMs: 60000, causes: ['client-timeout'], signals: ['client-request-timeout'] },
      fires: false,
    },
    {
      name: 'a tools/call timeout on a running session',
      facts: { method: 'tools/call', tool: 'export', interruption: 'client-timeout', causes: ['client-timeout'], signals: ['client-startup-timeout', 'client-request-timeout'] },
      fires: false,
    },
    {
      name: 'connection refused, then the start-up timer',
      facts: {
        method: 'initialize',
        interruption: 'connect',
        neverConnected: true,
        causes: ['conn-refused', 'client-timeout'],
        signals: ['connection-refused', 'client-startup-timeout'],
      },
      fires: false,
    },
  ],
};
