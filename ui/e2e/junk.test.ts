// Browser end-to-end for issue #18: the real server + the built UI + Debian chromium. A PNG alone
// gets a clear message and no incident; a sample's logs uploaded with its README, its expected
// analysis and a screenshot become an incident whose page lists the skipped files and why.
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Harness, watchErrors } from './support/harness.ts';

const SAMPLE = resolve('samples/restart-stale-session');
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(400, 0x11)]);

let h: Harness;
let page: Page;
let dir = '';
const errors = { pageErrors: [] as string[], consoleErrors: [] as string[] };

beforeAll(async () => {
  h = await start();
  page = await h.browser.newPage({ viewport: { width: 1440, height: 900 } });
  watchErrors(page, errors);
  dir = mkdtempSync(join(tmpdir(), 'mcp-triage-junk-e2e-'));
  writeFileSync(join(dir, 'screenshot.png'), PNG);
});

afterAll(async () => {
  await h?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function incidentCount(): Promise<number> {
  return ((await (await fetch(`${h.base}/api/incidents`)).json()) as unknown[]).length;
}

describe('uploads that are not logs', () => {
  it('a PNG alone: a clear message naming it, no incident', async () => {
    await page.goto(h.base);
    await page.getByText('Drop client, proxy and server logs here').waitFor();
    await page.setInputFiles('[data-testid=file-input]', [join(dir, 'screenshot.png')]);
    await page.click('[data-testid=upload-submit]');
    const banner = page.getByTestId('upload-error');
    await banner.waitFor({ timeout: 30_000 });
    const text = (await banner.textContent()) ?? '';
    expect(text).toMatch(/Nothing to analyse \(HTTP 415\)/);
    expect(text).toMatch(/screenshot\.png: a PNG image/);
    expect(text).toContain('TRIAGE_ERR_UNSUPPORTED_MEDIA');
    expect(text).not.toMatch(/no_action|nothing failed/i);
    // The file's own row says so too, and the page stayed where it was.
    await expect(page.locator('.files li.bad').textContent()).resolves.toMatch(/screenshot\.png/);
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await incidentCount()).toBe(0);
  });

  it('a sample folder with its README, expected analysis and a screenshot: an incident listing what was skipped', async () => {
    // What "select all" in a sample folder gives: its logs, README.md, expected.*, plus a screenshot.
    const folder = mkdtempSync(join(dir, 'sample-'));
    for (const f of readdirSync(SAMPLE)) copyFileSync(join(SAMPLE, f), join(folder, f));
    copyFileSync(join(dir, 'screenshot.png'), join(folder, 'screenshot.png'));
    const files = readdirSync(folder).map((f) => join(folder, f));
    await page.goto(h.base);
    await page.setInputFiles('[data-testid=file-input]', files);
    await page.getByRole('list', { name: 'Files to upload' }).waitFor();
    await page.click('[data-testid=upload-submit]');
    await page.waitForURL(/\/incidents\/[^/?]+$/, { timeout: 30_000 });
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]!);

    const analysis = (await (await fetch(`${h.base}/api/incidents/${id}/analysis`)).json()) as {
      decision: string;
      skipped?: { file: string; reason: string; detail: string }[];
      inputs: { file: string }[];
    };
    expect(analysis.decision).toBe('reinitialize');
    expect(analysis.inputs.map((i) => i.file)).not.toContain('README.md');
    const want = new Map([
      ['README.md', 'not-a-log'],
      ['expected.analysis.json', 'not-a-log'],
      ['expected.report.md', 'not-a-log'],
      ['screenshot.png', 'binary'],
    ]);
    expect(new Map((analysis.skipped ?? []).map((s) => [s.file, s.reason]))).toEqual(want);

    const list = page.getByTestId('skipped-files');
    await list.waitFor();
    const rows = list.locator('tbody tr');
    expect(await rows.count()).toBe(want.size);
    for (const s of analysis.skipped!) {
      const row = list.locator(`tr[data-reason="${s.reason}"]`, { hasText: s.file });
      await expect(row.count()).resolves.toBe(1);
      await expect(row.locator('td').nth(2).textContent()).resolves.toBe(s.detail);
    }
    await expect(list.textContent()).resolves.toMatch(/a PNG image/);
    await expect(list.textContent()).resolves.toMatch(/a Markdown document/);
    await page.screenshot({ path: resolve('ui/e2e/screenshots/skipped.png'), fullPage: true });
    expect(errors.pageErrors).toEqual([]);
    // The 415 above, and the upload-progress poll's 404 before the ingest starts, are answers the UI expects.
    expect(errors.consoleErrors.filter((e) => !/^Failed to load resource: the server responded with a status of (?:404|415)\b/.test(e))).toEqual([]);
  });
});
