// Our own errors: one catalog, each code mapped to an HTTP status and a CLI exit code.
// (MCP errors we observe in logs are data, never thrown.)
export const ERRORS = {
  TRIAGE_ERR_USAGE: { status: 400, exit: 1, what: 'the command or request is malformed' },
  TRIAGE_ERR_INPUT: { status: 400, exit: 1, what: 'an input cannot be read' },
  TRIAGE_ERR_EMPTY: { status: 400, exit: 1, what: 'no input files were found' },
  TRIAGE_ERR_UNSUPPORTED_MEDIA: { status: 415, exit: 1, what: 'the upload is not something we can read' },
  TRIAGE_ERR_NOT_A_LOG: { status: 422, exit: 1, what: 'text was read but no line of it is a log (README, prose, our own output, empty file)' },
  TRIAGE_ERR_TOO_LARGE: { status: 413, exit: 1, what: 'a size limit was exceeded' },
  TRIAGE_ERR_NOT_FOUND: { status: 404, exit: 1, what: 'no such incident or resource' },
  TRIAGE_ERR_FORBIDDEN: { status: 403, exit: 1, what: 'cross-site or unauthenticated state change refused' },
  TRIAGE_ERR_BUSY: { status: 409, exit: 1, what: 'the workspace or database is in use by another process' },
  TRIAGE_ERR_CONFLICT: { status: 409, exit: 1, what: 'the request contradicts an earlier one (an upload id used for another upload)' },
  TRIAGE_ERR_TOO_MANY_REQUESTS: { status: 429, exit: 1, what: 'too many requests already wait for the server; retry after Retry-After seconds' },
  TRIAGE_ERR_OVERLOADED: { status: 503, exit: 1, what: 'the server is busy: the request waited its longest and got no turn; retry after Retry-After seconds' },
  TRIAGE_ERR_QUERY_TIMEOUT: { status: 400, exit: 1, what: 'a SQL console query ran past its time limit' },
  TRIAGE_ERR_NOT_IMPLEMENTED: { status: 501, exit: 2, what: 'not built yet' },
  TRIAGE_ERR_FORMAT: { status: 500, exit: 2, what: 'a format file is invalid' },
  TRIAGE_ERR_KEY: { status: 500, exit: 2, what: 'the workspace key is unusable' },
  TRIAGE_ERR_REPORT_LEAK: { status: 500, exit: 2, what: 'the report failed its leak check and was refused' },
  TRIAGE_ERR_INTERNAL: { status: 500, exit: 2, what: 'an internal error' },
  // Added (issue #20): the shared store (ClickHouse) was unreachable, refused the credentials or a
  // statement; the message names the store and ClickHouse's error code, redacted, never the SQL or data.
  TRIAGE_ERR_STORE: { status: 502, exit: 2, what: 'the shared store (ClickHouse) is unreachable or refused a request' },
} as const;

export type ErrorCode = keyof typeof ERRORS;

export class TriageError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Added, optional: machine-readable details a client can act on (sent as `error.details`). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'TriageError';
  }
  get status(): number {
    return ERRORS[this.code].status;
  }
  get exitCode(): number {
    return ERRORS[this.code].exit;
  }
}
