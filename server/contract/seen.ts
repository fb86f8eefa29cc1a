// What an analysis found to decide on (Analysis.seen), without zod, so the UI can import it.

interface Seen {
  seen?: { requests: number; exchanges: number; sessions: number; errors: number } | undefined;
}

/** No MCP request, HTTP exchange, session or error line was recognised in the inputs: nothing to decide. */
export const nothingRecognised = (a: Seen): boolean => a.seen !== undefined && a.seen.requests + a.seen.exchanges + a.seen.sessions + a.seen.errors === 0;
