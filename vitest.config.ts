import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    exclude: ['**/node_modules/**', 'ui/dist/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // (include: per project, below: extending projects merge arrays.)
    // DuckDB, nginx and chromium are heavy on a 2-core machine: keep parallelism modest.
    maxWorkers: 2,
    reporters: ['default', './.ci/summary-reporter.ts'],
    // Tests spawn the built CLI (dist/): rebuild it first if a source is newer than it.
    globalSetup: ['./server/build/test-setup.mjs'],
    projects: [
      { extends: true, test: { name: 'node', include: ['{server,parsers,samples,ui}/**/*.test.ts'] } },
      // The UI end-to-end suite once more, against a serve backed by ClickHouse (issue #20: "the UI
      // e2e suite passes against both stores"; ui/e2e/support/harness.ts).
      { extends: true, test: { name: 'e2e-clickhouse', include: ['ui/e2e/**/*.test.ts'], env: { MCP_TRIAGE_E2E_STORE: 'clickhouse' } } },
    ],
  },
});
