import type { Rule } from '../rule.ts';
import { has } from '../rule.ts';

// Kubernetes probes, cloud load balancers' health checks, actuator and metrics scrapes share the proxy's logs
// with the MCP traffic (signal health-check-probe). Failing while the upstream restarts they show the outage —
// the MCP requests around them say what it did to the client — but they are no MCP request, and a GET to
// /healthz is not the legacy SSE stream: optional, never the headline.
export const healthProbe: Rule = {
  id: 'health-check-failed',
  decision: 'no_action',
  source: 'Kubernetes liveness/readiness probes, ELB/ALB/GCP health checks, Prometheus scrapes · cli-contract.md (optional)',
  role: 'optional',
  when(f) {
    if (!has(f, 'health-probe')) return 'not a health or metrics probe';
    if (f.method !== null || f.tool !== null) return 'the failing exchange is an MCP request';
    return true;
  },
  rationale: (f) =>
    `A health or metrics probe of the upstream${f.httpPath ? ` (${f.httpMethod ?? 'GET'} ${f.httpPath})` : ''} failed${f.httpStatus ? ` (HTTP ${f.httpStatus})` : ''}: the load balancer's or orchestrator's check, not a request of the MCP client. It shows the upstream was unavailable at that moment; the MCP requests of the same minutes say what that did to the client.`,
  examples: [
    { name: 'nginx: connect() refused for GET /healthz', facts: { httpMethod: 'GET', httpPath: '/healthz', causes: ['health-probe', 'conn-refused'] }, fires: true },
    { name: 'readiness 503', facts: { httpMethod: 'GET', httpPath: '/readyz', httpStatus: 503, causes: ['health-probe'] }, fires: true },
    { name: 'a tools/call refused', facts: { httpMethod: 'POST', httpPath: '/mcp', method: 'tools/call', causes: ['conn-refused'] }, fires: false },
    { name: 'the GET stream refused', facts: { httpMethod: 'GET', httpPath: '/mcp', httpStatus: 502 }, fires: false },
  ],
};
