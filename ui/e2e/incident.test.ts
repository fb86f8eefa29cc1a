// Browser end-to-end: the real server (buildApp) + the built UI (ui/dist) + Debian chromium.
// Upload a recorded incident through the file input, read the decision, follow evidence,
// reload the deep link, and prove log text can never become markup.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeZip } from '../../server/hardening/fixtures.ts';
import { E2E_STORE, serve, start, type Harness, watchErrors, screenshotsDir } from './support/harness.ts';
import { INGEST_LIMITS, IngestQueue } from '../../server/http/ingest-queue.ts';

const SAMPLE = resolve('samples/restart-stale-session');
const SHOTS = screenshotsDir();

let h: Harness;
let page: Page;
const pageErrors: string[] = [];
/** Console errors on the main page, CSP violations included (the server's CSP has no 'unsafe-eval'). */
const consoleErrors: string[] = [];

beforeAll(async () => {
  h = await start();
  page = await h.browser.newPage({ viewport: { width: 1440, height: 900 } });
  watchErrors(page, { pageErrors, consoleErrors });
});

afterAll(async () => {
  await h?.close();
});

async function analysisOf(
  id: string,
): Promise<{ decision: string; failures: { decision: string; rejected?: { rule: string; why: string }[]; evidence: { file: string; line: number }[] }[] }> {
  const res = await fetch(`${h.base}/api/incidents/${id}/analysis`);
  expect(res.status).toBe(200);
  return res.json();
}

describe('incident page', () => {
  let id = '';

  it('shows the empty state on a fresh workspace', async () => {
    await page.goto(h.base);
    await page.getByText('Drop client, proxy and server logs here').waitFor();
    await page.getByText('No incidents yet').waitFor();
    await page.screenshot({ path: join(SHOTS, 'empty.png') });
  });

  it('uploads a recorded bundle through the file input and lands on the incident', async () => {
    const files = readdirSync(SAMPLE)
      .filter((f) => f.endsWith('.log'))
      .map((f) => join(SAMPLE, f));
    expect(files.length).toBeGreaterThanOrEqual(3);
    await page.setInputFiles('[data-testid=file-input]', files);
    await page.getByRole('list', { name: 'Files to upload' }).waitFor();
    await page.click('[data-testid=upload-submit]');
    await page.waitForURL(/\/incidents\/[^/?]+$/, { timeout: 30_000 });
    id = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]!);

    const analysis = await analysisOf(id);
    const table = page.getByRole('table', { name: /failing request/ });
    await table.waitFor();
    await expect(page.getByTestId('headline-decision').textContent()).resolves.toContain(analysis.decision);
    // A shared store keeps every incident strict (redaction.md "Tiers"); the embedded one defaults to standard.
    await expect(page.getByTestId('privacy-mode').textContent()).resolves.toBe(
      E2E_STORE === 'clickhouse' ? 'privacy mode: strict (everything redacted at ingest)' : 'privacy mode: standard (PII redacted at exits)',
    );
    // The headline decision also appears on the row(s) that produced it.
    expect(await table.locator(`[data-decision="${analysis.decision}"]`).count()).toBeGreaterThan(0);
    expect(await table.locator('a[data-evidence]').count()).toBeGreaterThan(0);
    await page.getByTestId('timeline-table').waitFor();
  });

  it('shows why the rules before the deciding one did not fire', async () => {
    const analysis = await analysisOf(id);
    const decided = analysis.failures.find((f) => f.decision === analysis.decision)!;
    const rejected = decided.rejected ?? [];
    expect(rejected.length).toBeGreaterThan(0);
    const row = page.locator('[data-testid=decision-table] tbody tr', { has: page.locator(`[data-decision="${analysis.decision}"]`) }).first();
    const whyNot = row.getByTestId('why-not');
    await whyNot.locator('summary').click();
    const items = await whyNot.locator('li').allTextContents();
    expect(items).toHaveLength(rejected.length);
    rejected.forEach((r, i) => expect(items[i]).toBe(`${r.rule}: ${r.why}`));
  });

  it('follows an evidence link to the highlighted timeline row', async () => {
    const link = page.locator('[data-testid=decision-table] a[data-evidence]').first();
    const key = (await link.getAttribute('data-evidence'))!;
    await link.click();
    const row = page.locator('[data-testid=timeline-table] tr.hl');
    await row.waitFor({ timeout: 20_000 });
    // Either the exact line, or the first line of the block that contains it (and a notice says so).
    const rowKey = (await row.getAttribute('data-key'))!;
    const [file, line] = [key.slice(0, key.lastIndexOf(':')), Number(key.slice(key.lastIndexOf(':') + 1))];
    expect(rowKey.startsWith(`${file}:`)).toBe(true);
    expect(Number(rowKey.slice(rowKey.lastIndexOf(':') + 1))).toBeLessThanOrEqual(line);
    expect(await row.getAttribute('aria-current')).toBe('true');
    expect(await row.isVisible()).toBe(true);
    expect(new URL(page.url()).searchParams.get('ev')).toBe(key);
    await page.screenshot({ path: join(SHOTS, 'evidence.png') });
  });

  it('survives a reload of the deep link, evidence included', async () => {
    await page.reload();
    await page.getByTestId('decision-table').waitFor();
    await page.locator('[data-testid=timeline-table] tr.hl').waitFor({ timeout: 20_000 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, 'incident.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: join(SHOTS, 'incident-dark.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });

    // And a plain deep link typed into the address bar.
    await page.goto(`${h.base}/incidents/${encodeURIComponent(id)}`);
    await page.getByTestId('decision-table').waitFor();
  });

  it('supports the keyboard: / focuses search, j/k walk the failures', async () => {
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('filter-q');
    await page.keyboard.press('Escape');
    await page.keyboard.press('j');
    await page.locator('[data-testid=decision-table] tr.selected').waitFor();
    // The first row shown: primary failures lead (the others are folded, see folding.test.ts).
    const selected = page.locator('[data-testid=decision-table] tr[aria-current=true]');
    expect(await selected.getAttribute('data-role')).toBe('primary');
    const index = await page.locator('[data-testid=decision-table] tbody tr').first().getAttribute('data-index');
    expect(await selected.getAttribute('data-index')).toBe(index);
    // Enter on the selected failure opens its first evidence line in the timeline.
    const first = await selected.locator('a[data-evidence]').first().getAttribute('data-evidence');
    await page.keyboard.press('Enter');
    await page.waitForFunction((k) => new URL(location.href).searchParams.get('ev') === k, first);
    await page.locator('[data-testid=timeline-table] tr.hl').waitFor();
  });

  it('filters the timeline by source and text', async () => {
    await page.selectOption('[data-testid=filter-source]', 'server');
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll('[data-testid=timeline-table] tbody tr')];
      return rows.length > 0 && rows.every((r) => r.querySelector('td:nth-child(2)')?.textContent?.trim() === 'server');
    });
    await page.selectOption('[data-testid=filter-source]', '');
    await page.fill('[data-testid=filter-q]', 'no-such-text-anywhere-xyzzy');
    await page.getByText('No events match these filters').waitFor();
    // A search's page comes before its count; the count then fills in "of N" (the server's number).
    await page.fill('[data-testid=filter-q]', 'mcp');
    const counted = await page.waitForResponse((r) => r.url().includes('/events/count?') && r.url().includes('q=mcp'));
    const { total } = (await counted.json()) as { total: number };
    expect(total).toBeGreaterThan(0);
    await page.locator('.timeline .count', { hasText: `of ${total.toLocaleString('en')}` }).waitFor();
    await page.fill('[data-testid=filter-q]', 'no-such-text-anywhere-xyzzy');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.locator('[data-testid=timeline-table] tbody tr').first().waitFor();
  });

  it('zooms and pans the swimlane from the keyboard; the window is in the URL and filters the timeline', async () => {
    await page.goto(`${h.base}/incidents/${encodeURIComponent(id)}`);
    const svg = page.getByTestId('swimlane');
    await svg.waitFor();
    await page.getByTestId('timeline-table').locator('tbody tr').first().waitFor();
    const win = async () => ({ from: Number(await svg.getAttribute('data-from')), to: Number(await svg.getAttribute('data-to')) });
    const ticks = () => svg.locator('text.tick').allTextContents();
    const whole = await win();
    const wholeTicks = await ticks();
    expect(whole.to).toBeGreaterThan(whole.from);
    expect(await svg.getAttribute('data-zoomed')).toBeNull();

    await svg.focus();
    const filtered = page.waitForResponse((r) => r.url().includes('/events?') && /[?&]from=\d+/.test(r.url()) && /[?&]to=\d+/.test(r.url()));
    // The strip re-samples the window too (limit=5000), so a zoom shows that stretch in detail.
    const sampled = page.waitForResponse((r) => r.url().includes('/events?') && r.url().includes('limit=5000') && /[?&]from=\d+/.test(r.url()));
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    await page.waitForFunction(() => new URL(location.href).searchParams.has('from'));
    const res = await filtered;
    expect(new URL((await sampled).url()).searchParams.get('to')).toBe(new URL(page.url()).searchParams.get('to'));
    const zoomed = await win();
    const url = new URL(page.url());
    expect(Number(url.searchParams.get('from'))).toBe(zoomed.from);
    expect(Number(url.searchParams.get('to'))).toBe(zoomed.to);
    // Two zoom-ins around the middle: a quarter of the span, inside the whole range.
    expect(zoomed.to - zoomed.from).toBeLessThan((whole.to - whole.from) / 3);
    expect(zoomed.from).toBeGreaterThan(whole.from);
    expect(zoomed.to).toBeLessThan(whole.to);
    expect(await ticks()).not.toEqual(wholeTicks);
    // The timeline asked the events API for exactly that window.
    const asked = new URL(res.url());
    expect(Number(asked.searchParams.get('from'))).toBe(zoomed.from);
    expect(Number(asked.searchParams.get('to'))).toBe(zoomed.to);

    // → pans later by a quarter of the span.
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((f) => Number(new URL(location.href).searchParams.get('from')) > f, zoomed.from);
    const panned = await win();
    expect(panned.from).toBeGreaterThan(zoomed.from);
    expect(Math.abs(panned.to - panned.from - (zoomed.to - zoomed.from))).toBeLessThanOrEqual(2);

    // A reload keeps the window.
    await page.reload();
    await svg.waitFor();
    expect(await win()).toEqual(panned);
    expect(await svg.getAttribute('data-zoomed')).toBe('true');

    // Panning stops at the first event: the window keeps its span and starts at the whole range's start.
    await svg.focus();
    for (let i = 0; i < 8; i++) await page.keyboard.press('ArrowLeft');
    await page.waitForFunction((f) => Number(new URL(location.href).searchParams.get('from')) === f, whole.from);
    const start = await win();
    expect(start.from).toBe(whole.from);
    expect(Math.abs(start.to - start.from - (panned.to - panned.from))).toBeLessThanOrEqual(2);

    // Reset restores the whole incident and drops the window from the URL.
    await page.getByTestId('swimlane-reset').click();
    await page.waitForFunction(() => !new URL(location.href).searchParams.has('from'));
    expect(await win()).toEqual(whole);
    expect(await ticks()).toEqual(wholeTicks);
    expect(new URL(page.url()).searchParams.has('to')).toBe(false);
  });

  it('zooms around the pointer with ctrl + wheel and pans by dragging', async () => {
    const svg = page.getByTestId('swimlane');
    const whole = { from: Number(await svg.getAttribute('data-from')), to: Number(await svg.getAttribute('data-to')) };
    const box = (await svg.boundingBox())!;
    // Over the right part of the plot: the time under the pointer stays put, so the window moves right.
    await page.mouse.move(box.x + box.width * 0.8, box.y + 10);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -200);
    await page.keyboard.up('Control');
    await page.waitForFunction(() => new URL(location.href).searchParams.has('from'));
    const z = { from: Number(await svg.getAttribute('data-from')), to: Number(await svg.getAttribute('data-to')) };
    expect(z.to - z.from).toBeLessThan(whole.to - whole.from);
    expect(z.from - whole.from).toBeGreaterThan(whole.to - z.to);
    // Drag right by 100px: the window moves earlier.
    await page.mouse.move(box.x + box.width * 0.5, box.y + 10);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5 + 50, box.y + 10, { steps: 3 });
    await page.mouse.move(box.x + box.width * 0.5 + 100, box.y + 10, { steps: 3 });
    await page.mouse.up();
    await page.waitForFunction((f) => Number(new URL(location.href).searchParams.get('from')) < f, z.from);
    expect(Number(await svg.getAttribute('data-from'))).toBeLessThan(z.from);
    await page.getByTestId('swimlane-reset').click();
    await page.waitForFunction(() => !new URL(location.href).searchParams.has('from'));
  });

  it('highlights a lane when its label is clicked and filters the timeline to that source', async () => {
    const label = page.getByTestId('lane-server');
    await label.click();
    expect(await label.getAttribute('aria-pressed')).toBe('true');
    expect(await label.getAttribute('class')).toContain('hl');
    expect(await page.getByTestId('lane-client').getAttribute('aria-pressed')).toBe('false');
    expect(await page.locator('[data-testid=filter-source]').inputValue()).toBe('server');
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll('[data-testid=timeline-table] tbody tr')];
      return rows.length > 0 && rows.every((r) => r.querySelector('td:nth-child(2)')?.textContent?.trim() === 'server');
    });
    expect(new URL(page.url()).searchParams.get('source')).toBe('server');
    // Clicking it again clears the highlight and the filter.
    await label.click();
    expect(await label.getAttribute('aria-pressed')).toBe('false');
    await page.waitForFunction(() => !new URL(location.href).searchParams.has('source'));
  });

  it('lists the incident on the home page with its decision', async () => {
    await page.goto(h.base);
    const row = page.getByTestId('incidents-table').locator('tbody tr').first();
    await row.waitFor();
    const analysis = await analysisOf(id);
    expect(await row.locator(`[data-decision="${analysis.decision}"]`).count()).toBe(1);
    await page.screenshot({ path: join(SHOTS, 'list.png') });
    expect(pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});

describe('upload control', () => {
  it('accepts files dropped on the drop zone', async () => {
    const p = await h.browser.newPage({ viewport: { width: 1280, height: 800 } });
    await p.goto(h.base);
    await p.getByTestId('dropzone').waitFor();
    await p.evaluate(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['2026-11-29T09:02:26.857Z INFO [host-app] dropped\n'], 'dropped-client.log', { type: 'text/plain' }));
      const zone = document.querySelector('[data-testid=dropzone]')!;
      for (const type of ['dragenter', 'dragover', 'drop']) zone.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    await p.getByRole('list', { name: 'Files to upload' }).getByText('dropped-client.log').waitFor();
    await p.close();
  });

  it("shows the API's error, attached to the file it names", async () => {
    const p = await h.browser.newPage({ viewport: { width: 1280, height: 800 } });
    await p.goto(h.base);
    await p.setInputFiles('[data-testid=file-input]', [
      { name: 'client.log', mimeType: 'text/plain', buffer: Buffer.from('2026-11-29T09:02:26.857Z INFO hello\n') },
      // An archive refused outright (an entry climbs out with ".."). A damaged one would not do: it is
      // skipped and named while client.log is analysed (issue #18; ui/e2e/junk.test.ts).
      { name: 'bundle.zip', mimeType: 'application/zip', buffer: makeZip([{ name: '../evil.log', data: '2026-11-29T09:02:26.857Z INFO x\n' }]) },
    ]);
    await p.click('[data-testid=upload-submit]');
    const banner = p.getByTestId('upload-error');
    await banner.waitFor({ timeout: 20_000 });
    const text = (await banner.textContent()) ?? '';
    expect(text).toMatch(/TRIAGE_ERR_/);
    expect(text).toMatch(/HTTP 4\d\d/);
    // The server's message names bundle.zip, so that row carries the error and client.log does not.
    const rows = p.getByRole('list', { name: 'Files to upload' }).locator('li');
    expect(await rows.filter({ hasText: 'bundle.zip' }).locator('[role=alert]').count()).toBe(1);
    expect(await rows.filter({ hasText: 'client.log' }).locator('[role=alert]').count()).toBe(0);
    expect(new URL(p.url()).pathname).toBe('/');
    await p.screenshot({ path: join(SHOTS, 'upload-error.png') });
    await p.close();
  });
});

describe('upload progress', () => {
  it('shows intermediate progress for a large file, then opens the incident', { timeout: 120_000 }, async () => {
    // ~10 MB of client log lines in a temp dir.
    const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-ui-upload-'));
    const file = join(dir, 'big-client.log');
    const t0 = Date.parse('2026-11-29T09:00:00.000Z');
    const lines: string[] = [];
    for (let i = 0; i < 110_000; i++) {
      lines.push(`${new Date(t0 + i * 7).toISOString()} INFO [host-app] tick ${i} ${'x'.repeat(48)}`);
    }
    writeFileSync(file, lines.join('\n') + '\n');
    const p = await h.browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await p.goto(h.base);
      await p.setInputFiles('[data-testid=file-input]', file);
      await p.getByRole('list', { name: 'Files to upload' }).getByText('big-client.log').waitFor();
      // Record every value the progress bar shows, from the moment it appears.
      await p.evaluate(() => {
        const seen: number[] = [];
        (window as unknown as { __progress: number[] }).__progress = seen;
        const record = () => {
          const v = document.querySelector('[role=progressbar][aria-label="Upload progress"]')?.getAttribute('aria-valuenow');
          if (v != null && seen[seen.length - 1] !== Number(v)) seen.push(Number(v));
        };
        new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] });
        // …and every status line, to see the server's ingest progress once the bytes are out.
        const status: string[] = [];
        (window as unknown as { __status: string[] }).__status = status;
        new MutationObserver(() => {
          const t = document.querySelector('[data-testid=upload-status]')?.textContent?.replace(/\s+/g, ' ').trim();
          if (t && status[status.length - 1] !== t) status.push(t);
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      // Loopback is too fast to see progress: throttle uploads to ~4 MB/s (~2.5 s for this file).
      const cdp = await p.context().newCDPSession(p);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 4 * 1024 * 1024 });
      await p.click('[data-testid=upload-submit]');
      await p.getByRole('progressbar', { name: 'Upload progress' }).waitFor();
      await p.waitForFunction(() => (window as unknown as { __progress: number[] }).__progress.some((v) => v >= 100), null, { timeout: 60_000 });
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      await p.waitForURL(/\/incidents\/[^/?]+$/, { timeout: 90_000 });
      const seen = await p.evaluate(() => (window as unknown as { __progress: number[] }).__progress);
      const between = seen.filter((v) => v > 0 && v < 100);
      expect(between.length).toBeGreaterThan(0);
      // Never goes backwards.
      expect([...seen].sort((a, b) => a - b)).toEqual(seen);
      // After the upload, the server's own progress: which file, which phase, how far.
      const status = await p.evaluate(() => (window as unknown as { __status: string[] }).__status);
      expect(
        status.some((t) => /^(Reading|Redacting and parsing) 1\/1 big-client\.log — \d+%(, \w+ left)?$/.test(t)),
        status.join(' | '),
      ).toBe(true);
      await p.getByTestId('decision-table').or(p.getByTestId('timeline-table')).first().waitFor({ timeout: 60_000 });
    } finally {
      await p.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('upload line', () => {
  it('shows where an upload waits behind another one, then ingests it and opens the incident', { timeout: 120_000 }, async () => {
    // A server of its own whose large line (server/http/ingest-queue.ts) is held by hand: every
    // upload takes that line (smallBytes 1), and the test decides when the one ahead finishes.
    const queue = new IngestQueue({ ...INGEST_LIMITS, smallBytes: 1 });
    const served = await serve({ ingestQueue: queue });
    let release!: () => void;
    const ahead = queue.run(
      1,
      new AbortController().signal,
      () => undefined,
      () => new Promise<void>((r) => (release = r)),
    );
    const p = await h.browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await p.goto(served.base);
      await p.evaluate(() => {
        const status: string[] = [];
        (window as unknown as { __status: string[] }).__status = status;
        new MutationObserver(() => {
          const t = document.querySelector('[data-testid=upload-status]')?.textContent?.replace(/\s+/g, ' ').trim();
          if (t && status[status.length - 1] !== t) status.push(t);
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      await p.setInputFiles('[data-testid=file-input]', resolve('samples/restart-stale-session/client.log'));
      await p.click('[data-testid=upload-submit]');
      await p
        .getByTestId('upload-status')
        .filter({ hasText: /waiting for its turn: next in line/ })
        .waitFor({ timeout: 60_000 });
      await p.screenshot({ path: join(SHOTS, 'upload-waiting.png') });
      expect(new URL(p.url()).pathname).toBe('/');
      release(); // the one ahead is done: this one's turn
      await ahead;
      await p.waitForURL(/\/incidents\/[^/?]+$/, { timeout: 60_000 });
      const status = await p.evaluate(() => (window as unknown as { __status: string[] }).__status);
      expect(
        status.some((t) => /waiting for its turn: next in line/.test(t)),
        status.join(' | '),
      ).toBe(true);
    } finally {
      release?.();
      await p.close();
      await served.close();
    }
  });
});

describe('log text is text', () => {
  it('renders HTML and script payloads from a log as plain text', async () => {
    const p = await h.browser.newPage({ viewport: { width: 1280, height: 800 } });
    const dialogs: string[] = [];
    p.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await p.goto(h.base);
    await p.setInputFiles('[data-testid=file-input]', resolve('ui/e2e/fixtures/xss-client.log'));
    await p.click('[data-testid=upload-submit]');
    await p.waitForURL(/\/incidents\/[^/?]+$/, { timeout: 30_000 });
    const timeline = p.getByTestId('timeline-table');
    await timeline.waitFor({ timeout: 20_000 });
    await timeline.getByText('onerror="window.__xss=1"', { exact: false }).first().waitFor();
    await timeline.getByText('<script>window.__xss=1</script>', { exact: false }).first().waitFor();
    expect(await p.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
    expect(await p.locator('main img, main script, main a[href^="javascript:"]').count()).toBe(0);
    expect(dialogs).toEqual([]);
    await p.screenshot({ path: join(SHOTS, 'xss.png') });
    await p.close();
  });
});
