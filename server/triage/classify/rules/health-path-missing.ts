import type { Rule } from '../rule.ts';
import { describe, has } from '../rule.ts';

// A balancer sends traffic only to backends whose health probe passes. When the probe asks for a path the server
// no longer serves (a probe answered 404/405: Kubernetes `HTTP probe failed with statuscode: 404`, HAProxy
// `Layer7 wrong status, code: 404`, ELB `Health checks failed with these codes: [404]`, an access log's
// `GET /healthz 404`), every backend is marked unhealthy although it runs, and the balancer answers the MCP
// traffic itself: 'no healthy upstream', GCP `failed_to_pick_backend`, RFC 9209 `destination_unavailable`.
// Nothing reached the server, so nothing ran; waiting does not help — the probe's path (or the server's) is the
// configuration to fix (triage-rules.md decision table: deployment/config; failure-signatures D1: persistent →
// fix the route). A probe that fails 5xx or is refused is an outage, not this (never-reached-server).
export const healthPathMissing: Rule = {
  id: 'health-check-path-wrong',
  decision: 'fix_route_or_config',
  source: 'failure-signatures D1 (persistent → fix) · kubelet pkg/probe/http, HAProxy Layer7 checks, ELB Target.ResponseCodeMismatch, GCP healthCheckProbeResult · RFC 9209 §2.3.2',
  when(f) {
    if (!has(f, 'proxy-upstream-unavailable')) return 'the proxy did not say it had no upstream to send to';
    if (f.healthPathMissing === null) return "no health probe was answered 404/405 by the server (the probe's path is served, or the probes are not in the logs)";
    if (f.writeEvidence) return 'the server logged work for this request, so it was delivered';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} was answered by the proxy or load balancer itself: it had no healthy upstream to send it to (nothing reached the MCP server, so nothing ran). The server was up, but the balancer's health probe was being answered 404/405 (${f.healthPathMissing}): the probe asks for a path the server does not serve, so every backend was marked unhealthy. Point the health check at the server's health path (or serve the old one again); retrying meets the same empty backend pool until then.`,
  examples: [
    {
      name: "a tools/call answered 'no healthy upstream' while the server answers the probe 404",
      facts: { method: 'tools/call', tool: 'lookup_asset', httpStatus: 503, neverConnected: true, causes: ['proxy-upstream-unavailable'], healthPathMissing: 'server.log:22' },
      fires: true,
    },
    {
      name: 'near miss: no healthy upstream while the server is down (probes refused, not 404)',
      facts: { method: 'tools/call', tool: 'lookup_asset', httpStatus: 503, neverConnected: true, causes: ['proxy-upstream-unavailable'], healthPathMissing: null },
      fires: false,
    },
    {
      name: 'near miss: a 404 probe beside a tools/call the server answered 404',
      facts: { method: 'tools/call', httpStatus: 404, causes: ['route-missing'], healthPathMissing: null },
      fires: false,
    },
  ],
};
