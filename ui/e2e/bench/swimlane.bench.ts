// Browser benchmark (not a test): a large generated incident in the real server, the incident
// page in headless chromium, then page load, timeline scrolling/paging and swimlane zoom/pan,
// each phase reporting the longest main-thread task (PerformanceObserver 'longtask', ≥ 50 ms)
// and the longest gap between animation frames. Timings are printed, never asserted.
//
//   npx vite build && npx tsx ui/e2e/bench/swimlane.bench.ts [--events 1000000] [--keep]
//
// The corpus is server/bench/corpus.ts (client, nginx access/error, pino server logs), sized
// in MiB from the wanted event count (~4 300 events per MiB of that corpus).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { generateCorpus } from '../../../server/bench/corpus.ts';
import { buildApp } from '../../../server/http/app.ts';
import { entriesFromPaths } from '../../../server/ingest/inputs.ts';
import { ingestIncident, openContext } from '../../../server/incidents.ts';
import { CHROMIUM_ARGS } from '../support/harness.ts';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : dflt;
};
const wanted = Number(arg('events', '1000000'));
const keep = process.argv.includes('--keep');
const EVENTS_PER_MIB = 4270;

interface Stats {
  longtasks: number;
  longestTask: number;
  maxFrameGap: number;
  frames: number;
}

/**
 * Installed before any page script: long tasks and rAF gaps, resettable per phase. A string,
 * not a function: tsx's transform adds helpers (__name) that do not exist in the page.
 */
const PROBE = `(() => {
  let tasks = [];
  let maxGap = 0;
  let frames = 0;
  let last = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) tasks.push(e.duration);
  }).observe({ type: 'longtask', buffered: true });
  const tick = (t) => {
    if (last) maxGap = Math.max(maxGap, t - last);
    last = t;
    frames++;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  window.__bench = {
    reset() { tasks = []; maxGap = 0; frames = 0; last = 0; },
    read() { return { longtasks: tasks.length, longestTask: tasks.reduce((m, d) => Math.max(m, d), 0), maxFrameGap: maxGap, frames }; },
  };
})();`;

async function phase(page: Page, name: string, run: () => Promise<void>): Promise<{ name: string; ms: number } & Stats> {
  await page.evaluate(() => (window as unknown as { __bench: { reset(): void } }).__bench.reset());
  const t0 = performance.now();
  await run();
  // Let the last frame and any trailing long task land.
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 100))));
  const ms = performance.now() - t0;
  const s = await page.evaluate(() => (window as unknown as { __bench: { read(): Stats } }).__bench.read());
  return { name, ms, ...s };
}

const timelineRows = (page: Page) => page.locator('[data-testid=timeline-table] tbody tr');
const svgWindow = (page: Page) => page.getByTestId('swimlane').evaluate((el) => `${el.getAttribute('data-from')}-${el.getAttribute('data-to')}`);

const home = mkdtempSync(join(tmpdir(), 'mcp-triage-ui-bench-'));
try {
  const mib = Math.max(1, Math.round(wanted / EVENTS_PER_MIB));
  process.stderr.write(`generating ~${mib} MiB (for ~${wanted.toLocaleString('en')} events) in ${home}…\n`);
  let t = performance.now();
  const corpus = await generateCorpus(join(home, 'logs'), mib);
  const genS = (performance.now() - t) / 1000;
  const ctx = await openContext({ env: { ...process.env, MCP_TRIAGE_HOME: home }, db: join(home, 'bench.duckdb'), keyFile: join(home, 'key') });
  process.stderr.write(`ingesting ${(corpus.bytes / 1048576).toFixed(0)} MiB…\n`);
  t = performance.now();
  const r = await ingestIncident(ctx, entriesFromPaths([corpus.dir]), { name: `bench ${mib} MiB` });
  const ingestS = (performance.now() - t) / 1000;
  const events = r.analysis.inputs.reduce((n, i) => n + i.events, 0);
  process.stderr.write(`${events.toLocaleString('en')} events in ${ingestS.toFixed(1)} s; starting server + chromium…\n`);

  const app = await buildApp({ ctx, uiDist: 'ui/dist' });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  const results: Awaited<ReturnType<typeof phase>>[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.addInitScript({ content: PROBE });
    await page.goto(`${base}/`);
    await page.evaluate(() => new Promise((ok) => requestAnimationFrame(ok)));

    results.push(
      await phase(page, 'load incident page (analysis, swimlane sample, timeline page 1)', async () => {
        await page.goto(`${base}/incidents/${encodeURIComponent(r.id)}`);
        await page.getByTestId('swimlane').waitFor({ timeout: 120_000 });
        await timelineRows(page).first().waitFor({ timeout: 120_000 });
      }),
    );

    results.push(
      await phase(page, 'scroll the page through the timeline (40 wheel steps)', async () => {
        await page.mouse.move(720, 600);
        for (let i = 0; i < 40; i++) {
          await page.mouse.wheel(0, i < 30 ? 240 : -240);
          await page.evaluate(() => new Promise((ok) => requestAnimationFrame(ok)));
        }
      }),
    );

    results.push(
      await phase(page, 'page the timeline 20× with ] (100 rows each)', async () => {
        await page.locator('body').click({ position: { x: 5, y: 5 } });
        for (let i = 0; i < 20; i++) {
          const first = await timelineRows(page).first().getAttribute('data-key');
          await page.keyboard.press(']');
          await page.waitForFunction((k) => document.querySelector('[data-testid=timeline-table] tbody tr')?.getAttribute('data-key') !== k, first, { timeout: 60_000 });
        }
      }),
    );

    await page.evaluate(() => window.scrollTo(0, 0));
    const svg = page.getByTestId('swimlane');
    await svg.scrollIntoViewIfNeeded();

    results.push(
      await phase(page, 'zoom the swimlane: 6× + then 6× ctrl+wheel at the pointer', async () => {
        await svg.focus();
        for (let i = 0; i < 6; i++) {
          await page.keyboard.press('+');
          await page.evaluate(() => new Promise((ok) => requestAnimationFrame(ok)));
        }
        const box = (await svg.boundingBox())!;
        await page.mouse.move(box.x + box.width * 0.7, box.y + 20);
        await page.keyboard.down('Control');
        for (let i = 0; i < 6; i++) {
          await page.mouse.wheel(0, -120);
          await page.evaluate(() => new Promise((ok) => requestAnimationFrame(ok)));
        }
        await page.keyboard.up('Control');
        // The committed window re-queries the timeline.
        await page.waitForFunction(() => new URL(location.href).searchParams.has('from'), null, { timeout: 60_000 });
        await timelineRows(page).first().or(page.getByText('No events match these filters')).first().waitFor({ timeout: 60_000 });
      }),
    );

    results.push(
      await phase(page, 'pan the swimlane: 3 drags + 6 arrow keys', async () => {
        const box = (await svg.boundingBox())!;
        for (let i = 0; i < 3; i++) {
          const before = await svgWindow(page);
          await page.mouse.move(box.x + box.width * 0.6, box.y + 20);
          await page.mouse.down();
          for (let s = 1; s <= 10; s++) await page.mouse.move(box.x + box.width * 0.6 - s * 20, box.y + 20);
          await page.mouse.up();
          await page.waitForFunction((b) => {
            const el = document.querySelector('[data-testid=swimlane]');
            return `${el?.getAttribute('data-from')}-${el?.getAttribute('data-to')}` !== b;
          }, before);
        }
        await svg.focus();
        for (let i = 0; i < 6; i++) {
          await page.keyboard.press(i < 3 ? 'ArrowLeft' : 'ArrowRight');
          await page.evaluate(() => new Promise((ok) => requestAnimationFrame(ok)));
        }
      }),
    );

    results.push(
      await phase(page, 'reset the zoom (whole incident, timeline unfiltered)', async () => {
        await page.getByTestId('swimlane-reset').click();
        await page.waitForFunction(() => !new URL(location.href).searchParams.has('from'));
        await timelineRows(page).first().waitFor({ timeout: 60_000 });
      }),
    );
  } finally {
    await browser.close();
    await app.close();
    await ctx.store.close();
  }

  const f = (n: number, d = 0) => n.toLocaleString('en', { maximumFractionDigits: d, minimumFractionDigits: d });
  console.log(
    `\nincident: ${f(events)} events, ${f(corpus.bytes / 1048576, 1)} MiB, ${corpus.files.length} files; generated in ${f(genS, 1)} s, ingested in ${f(ingestS, 1)} s (${f(events / ingestS)} events/s)\n`,
  );
  console.log('| phase | wall ms | long tasks (≥50 ms) | longest task ms | max rAF gap ms | frames |');
  console.log('|---|---|---|---|---|---|');
  for (const p of results) console.log(`| ${p.name} | ${f(p.ms)} | ${p.longtasks} | ${f(p.longestTask)} | ${f(p.maxFrameGap)} | ${p.frames} |`);
  const worst = results.reduce((m, p) => Math.max(m, p.longestTask), 0);
  console.log(`\nlongest task overall: ${f(worst)} ms`);
} finally {
  if (keep) process.stderr.write(`kept ${home}\n`);
  else rmSync(home, { recursive: true, force: true });
}
