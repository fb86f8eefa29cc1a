// Each phrasing of a client's timeout setting gives its value in ms; lines that merely mention a
// duration, an attempt count or a non-timeout number give nothing.
import { describe, expect, it } from 'vitest';
import { statedTimeoutMs, TIMEOUT_PHRASINGS } from './stated-timeout.ts';

const SAMPLES: [string, number][] = [
  ['Timed out while waiting for response to ClientRequest. Waited 5.0 seconds.', 5000],
  ['mcp.shared.exceptions.McpError: Timed out while waiting for response to ClientRequest. Waited 0:00:30 seconds.', 30000],
  ['MCP client for `docs` timed out after 10 seconds. Add or adjust `startup_timeout_sec` in your config.toml', 10000],
  ['Connection to MCP server "docs" timed out after 30000ms', 30000],
  ['    timed out awaiting tools/call after 300s', 300000],
  ['tools/call search failed: Request timed out after 5000ms', 5000],
  ["WARN host: Tool call 'search' timed out after 8000 ms", 8000],
  ['list_tools timed out after 2.5 s', 2500],
  ['AxiosError: timeout of 10000ms exceeded', 10000],
  ['System.Threading.Tasks.TaskCanceledException: The request was canceled due to the configured HttpClient.Timeout of 100 seconds elapsing.', 100000],
  ['error=Request timeout after 5000ms', 5000],
  ["java.util.concurrent.TimeoutException: Did not observe any item or terminal signal within 20000ms in 'source(MonoCreate)'", 20000],
  ['MCP server "alumni": Tool \'run_read_query\' failed after 60s: Remote tool call timed out', 60000],
  ['McpError: MCP error -32001: Request timed out { data: { timeout: 60000 } }', 60000],
  ['{"level":"error","msg":"call failed","timeoutMs":15000,"err":"timed out"}', 15000],
  ['tool run timed out after 2 minutes', 120000],
  ['time=2026-03-04T09:12:00Z level=INFO msg="calling tool" method=tools/call timeout=5s', 5000],
  ['INFO rmcp::service: sending request method="tools/list" request_timeout=1.5s', 1500],
  ['sending request, timeout 5000 ms (tools/list, id=5)', 5000],
  ['{"msg":"request sent","timeout":"20s","method":"tools/call"}', 20000],
];

const NEAR_MISSES = [
  'tools/call answered after 5000ms', // a latency, not a timeout
  'retrying after 5 s', // a backoff
  'connect timed out after 3 attempts', // attempts have no unit
  'McpError: MCP error -32001: Request timed out', // the setting is not stated
  'timeout: 30', // seconds or ms? too short to be ms: not read
  'Timed out while waiting for response to ClientRequest. Waited 0.01 seconds.', // under 100 ms is no timer
  'timeout=5.0', // a Python float of seconds, unit not stated
  'keepalive timeout=75s', // the server's keep-alive timer, not the client's wait
  'Session 7f3a idle timeout 300s', // an idle timer closing a session
  'proxy_read_timeout 60s;', // a proxy's setting
  'timeout after 3 retries', // attempts, no unit
];

describe('stated client timeout', () => {
  it.each(SAMPLES)('%s', (line, ms) => {
    expect(statedTimeoutMs(line)).toBe(ms);
  });
  it.each(NEAR_MISSES)('near miss: %s', (line) => {
    expect(statedTimeoutMs(line)).toBeNull();
  });
  it('reads the first stated setting across lines, skipping lines with no timeout words', () => {
    expect(statedTimeoutMs('answered after 900ms\nRequest timed out after 5000ms\nWaited 30.0 seconds.')).toBe(5000);
  });
  it('every phrasing has a sample that it alone or first reads', () => {
    for (const p of TIMEOUT_PHRASINGS)
      expect(
        SAMPLES.some(([line]) => p.pattern.test(line)),
        p.id,
      ).toBe(true);
  });
  it('stays linear on long hostile lines', () => {
    const hostile = `${'timed out after 1'.repeat(200)}${'9'.repeat(3000)}`;
    const t = performance.now();
    statedTimeoutMs(hostile);
    statedTimeoutMs(`failed after 5s${' x'.repeat(1900)}`);
    // a ReDoS guard, not a speed test: catastrophic backtracking takes seconds, the bound is loose
    expect(performance.now() - t).toBeLessThan(2000);
  });
});
