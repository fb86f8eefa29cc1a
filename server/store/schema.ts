// The DuckDB schema. Only redacted text and pseudonyms are ever written here.
// Times are BIGINT epoch milliseconds as logged (skew offsets live in file_offsets, never applied in place).
export const SCHEMA_VERSION = 1;

export const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR)`,
  `CREATE TABLE IF NOT EXISTS incidents (
     id VARCHAR PRIMARY KEY,
     name VARCHAR NOT NULL,
     created_at BIGINT NOT NULL,
     state VARCHAR NOT NULL,            -- ingesting | ready | incomplete
     analysis JSON                      -- the Analysis document, recomputed after every ingest
   )`,
  `CREATE TABLE IF NOT EXISTS files (
     incident_id VARCHAR NOT NULL,
     file_no INTEGER NOT NULL,
     path VARCHAR NOT NULL,
     sha256 VARCHAR NOT NULL,
     bytes BIGINT NOT NULL,
     source VARCHAR NOT NULL,
     format VARCHAR NOT NULL,
     lines INTEGER NOT NULL,
     events INTEGER NOT NULL,
     unparsed INTEGER NOT NULL,
     truncated_lines INTEGER NOT NULL,
     prefix VARCHAR,
     PRIMARY KEY (incident_id, file_no)
   )`,
  `CREATE TABLE IF NOT EXISTS events (
     incident_id VARCHAR NOT NULL,
     seq BIGINT NOT NULL,
     file VARCHAR NOT NULL,
     line INTEGER NOT NULL,
     end_line INTEGER NOT NULL,
     source VARCHAR NOT NULL,
     format VARCHAR NOT NULL,
     kind VARCHAR NOT NULL,
     ts BIGINT,
     level VARCHAR,
     message VARCHAR NOT NULL,
     text VARCHAR NOT NULL,
     http_method VARCHAR,
     http_path VARCHAR,
     http_status INTEGER,
     request_id VARCHAR,
     rpc_id VARCHAR,                    -- JSON-encoded: 7 or "abc", so number vs string survives
     rpc_method VARCHAR,
     tool VARCHAR,
     session VARCHAR,
     protocol_version VARCHAR,
     duration_ms DOUBLE,
     attrs JSON
   )`,
  // Added after schema 1 shipped: the user's tool side-effect policy for this incident.
  `ALTER TABLE incidents ADD COLUMN IF NOT EXISTS tool_policy JSON`,
  // Added later: the text search's skip index (text-index.ts). bits NULL: the block is always read.
  `CREATE TABLE IF NOT EXISTS text_blocks (
     incident_id VARCHAR NOT NULL,
     seq_lo BIGINT NOT NULL,
     seq_hi BIGINT NOT NULL,
     bits BLOB
   )`,
  // Added 2026-12: the ids of the signals that fired on the event (parsers/signals), space-separated;
  // NULL when none fired. Incidents stored before have NULL everywhere: re-ingest them to read signals.
  `ALTER TABLE events ADD COLUMN IF NOT EXISTS signals VARCHAR`,
  // Added 2026-12 (issue #18): inputs of the incident that were not read because they are not logs
  // (server/ingest/screen.ts); the analysis lists them as `skipped`. Names only, never content.
  `CREATE TABLE IF NOT EXISTS skipped_files (
     incident_id VARCHAR NOT NULL,
     file VARCHAR NOT NULL,
     reason VARCHAR NOT NULL,
     detail VARCHAR NOT NULL
   )`,
  // Added 2026-12 (issue #20): uploads that named themselves (X-Upload-Id), written in the ingest's
  // own transaction, so a retried upload finds the incident its first try committed instead of
  // making a second one. target: 'new' (POST /api/incidents) or the incident files were added to.
  `CREATE TABLE IF NOT EXISTS uploads (
     upload_id VARCHAR PRIMARY KEY,
     incident_id VARCHAR NOT NULL,
     target VARCHAR NOT NULL,
     result JSON NOT NULL,              -- {added, skipped, skippedFiles} as first answered
     created_at BIGINT NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS redactions (
     incident_id VARCHAR NOT NULL,
     rule VARCHAR NOT NULL,
     count BIGINT NOT NULL
   )`,
  // Added 2026-12 (issue #19, redaction tiers): what the stored text already had redacted,
  // 'standard' (session ids and credentials; PII and business data are redacted at every exit) or
  // 'strict' (everything). NULL: stored before tiers, when everything was redacted at ingest.
  `ALTER TABLE incidents ADD COLUMN IF NOT EXISTS privacy_mode VARCHAR`,
];
