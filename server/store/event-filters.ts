// The timeline's filters (HTTP query string and `mcp-triage timeline` options) as a zod schema.
// Kept apart from events-query.ts, which needs DuckDB and Arrow, so the CLI can check options
// before it loads either.
import { z } from 'zod';

/** A signal id as the filter takes it (the table's ids and `http-NNN`): bound as a parameter, and no LIKE wildcard in it anyway. */
export const SIGNAL_ID = /^[a-z0-9-]{2,63}$/;

/** A page cursor: the (ts, seq) of the last row seen, as "ts,seq" ("null,seq" when ts is NULL). */
export const KEY = /^(-?\d{1,15}|null),(\d{1,15})$/;

export const EventFilters = z.object({
  source: z.enum(['client', 'proxy', 'server', 'unknown']).optional(),
  level: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal']).optional(),
  session: z.string().max(200).optional(),
  rpcId: z.string().max(200).optional(),
  method: z.string().max(200).optional(),
  status: z.coerce.number().int().min(100).max(999).optional(),
  file: z.string().max(1000).optional(),
  requestId: z.string().max(200).optional(),
  from: z.coerce.number().optional(),
  to: z.coerce.number().optional(),
  q: z.string().max(500).optional(),
  /** Added: rows whose signals (parsers/signals ids, or `http-NNN`) include this id. */
  signal: z.string().regex(SIGNAL_ID, 'expected a signal id: 2–63 of a-z, 0-9 and -, e.g. session-not-found').optional(),
  limit: z.coerce.number().int().min(1).max(100_000).default(1000),
  offset: z.coerce.number().int().min(0).default(0),
  /** Keyset paging (added): rows strictly after this "ts,seq" cursor; `offset` then counts from it. */
  after: z.string().regex(KEY, 'expected "ts,seq" (ts may be null), e.g. 1795939200000,42').optional(),
});
export type EventFilters = z.infer<typeof EventFilters>;
