// mcp-triage probe: verify a live MCP endpoint with fresh connections (see README.md).
export { runProbe, parseProbeUrl, readOnlyVerdict, isArgsObject, DEFAULT_CONNECTIONS, DEFAULT_TIMEOUT_MS, MAX_CONNECTIONS } from './run.ts';
export { renderProbe, probeJson } from './render.ts';
export { openProbeLog, type ProbeLogWriter } from './log.ts';
export type { ProbeOptions, ProbeResult, ProbeStep, ProbeLogEvent, StepName, TransportKind } from './types.ts';
