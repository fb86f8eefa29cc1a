// The probe's public shapes. ProbeResult is the `probe --json` document of cli-contract.md
// (fields may be added, never removed or renamed).

export type StepName = 'reach' | 'initialize' | 'tools/list' | 'tools/call' | 'second-connection' | 'close';

export interface ProbeStep {
  name: StepName;
  ok: boolean;
  /** wall time of the step, whole milliseconds */
  ms: number;
  /** one line a person can check (already redacted) */
  evidence: string;
  /** on failure (or refusal): what it means and what to look at */
  diagnosis?: string;
  /** 1 for the first connection; 2…N for each `second-connection` step */
  connection?: number;
  /** initialize / second-connection: the exact request headers of the initialize POST (redacted) */
  requestHeaders?: Record<string, string>;
  /** initialize / second-connection: whether that initialize carried an Mcp-Session-Id (it never should) */
  sessionIdSent?: boolean;
  /** tools/call: the call was refused before sending (the tool is not marked read-only) */
  refused?: boolean;
  /**
   * A passed step with something to look at: "the tool reported an application error" when the
   * call (tools/call, or the repeat on a second-connection) came back complete with isError: true
   */
  warning?: string;
}

export type TransportKind = 'streamable-http' | 'legacy-sse';

export interface ProbeResult {
  ok: boolean;
  /** the URL probed (redacted: userinfo and secret query values removed) */
  url: string;
  /** the protocol version the server negotiated, null when initialize did not complete */
  protocolVersion: string | null;
  /** whether the server assigned a session (Mcp-Session-Id, or a legacy sessionId endpoint) */
  sessionAssigned: boolean;
  transport: TransportKind;
  steps: ProbeStep[];
  /** the first failed (or refused) step, null when every step passed */
  failedStep: StepName | null;
  /** set when the call was refused: the probe never sends a call that may write unless told to */
  refused: { tool: string; reason: string } | null;
  /** set when Streamable HTTP failed and the legacy HTTP+SSE transport answered instead */
  fallback: { from: 'streamable-http'; reason: string } | null;
  server: { name: string; version: string } | null;
  /**
   * Set once a tool call completed: true when the tool answered isError: true (an application
   * error; transport and session are fine, ok and the exit code say so). Absent without --tool.
   */
  isError?: boolean;
  /** with isError: the error result's text, its first 200 characters, redacted */
  errorText?: string;
  /** 0 every step passed, 3 the endpoint failed a step, 1 refused (a usage decision) */
  exitCode: 0 | 1 | 3;
}

/** One line of the `--log` file (json-lines, read by parsers/formats/json-lines.json). */
export interface ProbeLogEvent {
  time: number;
  level: 'debug' | 'info' | 'warn' | 'error';
  msg: string;
  probe: true;
  step: StepName | 'start' | 'done';
  connection?: number;
  method?: string;
  url?: string;
  statusCode?: number;
  durationMs?: number;
  rpcId?: string | number;
  rpcMethod?: string;
  tool?: string;
  /** RAW session id: the analyzer pseudonymises it at ingest, and it must join the server's raw id */
  mcpSessionId?: string;
  mcpProtocolVersion?: string;
  contentType?: string;
  ok?: boolean;
  diagnosis?: string;
}

export interface ProbeOptions {
  /** http(s) URL of the MCP endpoint */
  url: string;
  /** the workspace key: session pseudonyms in the output match `analyze` and the UI */
  key: Uint8Array;
  /** call this tool once per connection (only if it is marked read-only, see allowWrites) */
  tool?: string;
  /** arguments for the tool (a JSON object) */
  args?: Record<string, unknown>;
  /** connections in total, 1…10 (default 2: the first plus one second fresh connection) */
  connections?: number;
  /** per-step timeout in milliseconds (default 10000) */
  timeoutMs?: number;
  /** sent as `Authorization: Bearer …`; never printed or logged */
  bearer?: string;
  /** call the tool even if its annotations do not mark it read-only (once, on the first connection) */
  allowWrites?: boolean;
  /** each log event as it happens (for `--log`) */
  onEvent?: (e: ProbeLogEvent) => void;
  /** each step as it completes (for progress) */
  onStep?: (s: ProbeStep) => void;
  /** tests: a name for clientInfo (default mcp-triage-probe) */
  clientName?: string;
}
