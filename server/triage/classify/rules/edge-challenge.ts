import type { Rule } from '../rule.ts';
import { describe, has } from '../rule.ts';

// developers.cloudflare.com cloudflare-challenges/…/detect-response: a Challenge Page response carries
// `cf-mitigated: challenge` (Vercel: `x-vercel-mitigated: challenge`) and is an HTML page a browser solves.
// An MCP client is no browser: the edge's bot or WAF rules must let the MCP path through. The 403 that
// comes with it is the edge's, not the server's verdict on the credentials.
export const edgeChallenge: Rule = {
  id: 'edge-bot-challenge',
  decision: 'fix_route_or_config',
  source: 'Cloudflare docs: Detect a Challenge Page response (cf-mitigated: challenge) · failure-signatures D12 (a proxy page, not MCP)',
  when(f) {
    if (has(f, 'edge-challenge')) return true;
    return 'no CDN/WAF challenge page';
  },
  rationale: (f) =>
    `${describe(f)} was answered by the CDN/WAF in front of the server with a bot challenge page${f.httpStatus ? ` (HTTP ${f.httpStatus})` : ''} — \`cf-mitigated: challenge\` / "Just a moment..." — not by the MCP server. A program cannot solve a browser challenge, so credentials and retries do not help: exempt the MCP path (or the client's traffic) from the bot-fight, under-attack or WAF custom rule that challenged it, then try again.`,
  examples: [
    { name: '403 with cf-mitigated: challenge', facts: { httpStatus: 403, causes: ['edge-challenge', 'html-response'] }, fires: true },
    { name: 'a 403 insufficient_scope from the server', facts: { httpStatus: 403, causes: ['auth-rejected'] }, fires: false },
  ],
};
