// The real server in-process (buildApp on a temp DuckDB file and a temp workspace) and a
// headless Debian chromium, for the browser end-to-end tests.
//
// The suite runs against both stores (issue #20): `MCP_TRIAGE_E2E_STORE=clickhouse` (the vitest
// project `e2e-clickhouse`, part of `npm test`) serves a shared ClickHouse store instead — Debian's
// clickhouse-server started on free ports for the file (store/clickhouse/testing/server.ts),
// missing it is a failure, never a skip.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../../server/http/app.ts';
import { openContext, type Context } from '../../../server/incidents.ts';
import { ClickHouseStore } from '../../../server/store/clickhouse/store.ts';
import { parseStoreUrl } from '../../../server/store/clickhouse/target.ts';
import { TestClickHouse } from '../../../server/store/clickhouse/testing/server.ts';

/** Which store the e2e server answers from. */
export const E2E_STORE: 'embedded' | 'clickhouse' = process.env.MCP_TRIAGE_E2E_STORE === 'clickhouse' ? 'clickhouse' : 'embedded';

/**
 * Where the browser tests write their screenshots: a temp folder, so a test run never rewrites a tracked
 * file. `npm run screenshots` points it at ui/e2e/screenshots to refresh the README's pictures on purpose.
 */
export function screenshotsDir(): string {
  // The ClickHouse run keeps its own pictures: the README's come from the embedded store.
  const root = process.env.MCP_TRIAGE_SCREENSHOTS ?? join(tmpdir(), 'mcp-triage-e2e-screenshots');
  const dir = E2E_STORE === 'clickhouse' ? join(root, 'clickhouse') : root;
  mkdirSync(dir, { recursive: true });
  return dir;
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Harness {
  base: string;
  browser: Browser;
  close(): Promise<void>;
}

export interface Served {
  base: string;
  close(): Promise<void>;
}

/** The server alone, on the store of this run (E2E_STORE), in a temp workspace; `opts` as buildApp's. */
export async function serve(opts: Omit<AppOptions, 'ctx' | 'shared'> = {}): Promise<Served> {
  const home = mkdtempSync(join(tmpdir(), 'mcp-triage-ui-e2e-'));
  let ctx: Context | undefined;
  let app: FastifyInstance | undefined;
  let ch: TestClickHouse | undefined;
  try {
    const env = { ...process.env, MCP_TRIAGE_HOME: home };
    if (E2E_STORE === 'clickhouse') {
      ch = await TestClickHouse.start(1);
      ctx = { ...(await openContext({ env, db: ':memory:', keyFile: join(home, 'key') })), strict: true };
      const shared = await ClickHouseStore.open(parseStoreUrl(ch.url('e2e'), 'env'));
      app = await buildApp({ uiDist: 'ui/dist', ...opts, ctx, shared, uploadDir: join(home, 'uploads') });
    } else {
      ctx = await openContext({ env, db: join(home, 'e2e.duckdb'), keyFile: join(home, 'key') });
      app = await buildApp({ uiDist: 'ui/dist', ...opts, ctx });
    }
    await app.listen({ host: '127.0.0.1', port: 0 });
  } catch (e) {
    await app?.close().catch(() => {});
    await ctx?.store.close().catch(() => {});
    await ch?.stop().catch(() => {});
    rmSync(home, { recursive: true, force: true });
    throw e;
  }
  const addr = app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('server has no TCP address');
  const a = app;
  const c = ctx;
  return {
    base: `http://127.0.0.1:${addr.port}`,
    async close() {
      await a.close().catch(() => {});
      await c.store.close().catch(() => {});
      await ch?.stop().catch(() => {});
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export async function start(): Promise<Harness> {
  const served = await serve();
  let browser: Browser;
  try {
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  } catch (e) {
    await served.close();
    throw e;
  }
  const b = browser;
  return {
    base: served.base,
    browser: b,
    async close() {
      await b.close().catch(() => {});
      await served.close();
    },
  };
}

/**
 * Collect a page's uncaught errors and console errors (CSP violations included), so a test can end by
 * asserting there were none.
 */
export function watchErrors(page: import('playwright-core').Page, into: { pageErrors: string[]; consoleErrors: string[] }): void {
  page.on('pageerror', (e) => into.pageErrors.push(e.message));
  // Chromium logs a failed fetch as "Failed to load resource" without its URL: keep the URLs so a
  // failure says which request it was
  const failed: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const text = m.text();
    into.consoleErrors.push(text.startsWith('Failed to load resource') && failed.length ? `${text} [${failed.at(-1)}]` : text);
  });
}

/** Upload log files (or every `.log` of a sample folder) over real HTTP, as the UI does; the new incident's id. */
export async function upload(h: Harness, paths: string | readonly string[]): Promise<string> {
  const files =
    typeof paths === 'string'
      ? readdirSync(paths)
          .filter((n) => n.endsWith('.log'))
          .map((n) => join(paths, n))
      : paths;
  const form = new FormData();
  for (const f of files) form.append('files', new Blob([readFileSync(f)]), basename(f));
  const res = await fetch(`${h.base}/api/incidents`, { method: 'POST', body: form, headers: { 'X-Requested-With': 'mcp-triage' } });
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}
