// The probe's option limits, apart from run.ts (which loads the MCP SDK), so `probe --help` and
// option errors do not load the SDK.
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_CONNECTIONS = 2;
export const MAX_CONNECTIONS = 10;
