import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['{server,parsers,samples,ui}/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'ui/dist/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // DuckDB, nginx and chromium are heavy on a 2-core machine: keep parallelism modest.
    maxWorkers: 2,
    reporters: ['default', './.ci/summary-reporter.ts'],
    // Tests spawn the built CLI (dist/): rebuild it first if a source is newer than it.
    globalSetup: ['./server/build/test-setup.mjs'],
  },
});
