// Issue #18: when the report's leak check refuses, the Report tab says which report line and rule
// fired and offers "Remove this line" (drop that evidence line and rebuild) instead of a "Try
// again" that can only fail the same way. A refusal should never happen with the real redactor,
// so the first answer is stubbed (the server's error shape, details included); the rebuild goes
// to the real server, which leaves the line out.
import { resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Harness, watchErrors, upload } from './support/harness.ts';

const SAMPLE = resolve('samples/restart-stale-session');

let h: Harness;
let ctx: BrowserContext;
let page: Page;
let id = '';
let place = { file: '', line: 0 };
const pageErrors: string[] = [];
const consoleErrors: string[] = [];

beforeAll(async () => {
  h = await start();
  id = await upload(h, SAMPLE);
  const analysis = (await (await fetch(`${h.base}/api/incidents/${id}/analysis`)).json()) as { failures: { role?: string; evidence: { file: string; line: number }[] }[] };
  place = analysis.failures.find((f) => (f.role ?? 'primary') === 'primary')!.evidence[0]!;
  ctx = await h.browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await ctx.newPage();
  watchErrors(page, { pageErrors, consoleErrors });
});

afterAll(async () => {
  await h?.close();
});

describe('a refused report', () => {
  it('names the line and the rule, and "Remove this line" rebuilds without that evidence line', async () => {
    const asked: string[] = [];
    let refused = false;
    await page.route('**/api/incidents/*/report?format=json*', async (route) => {
      const url = route.request().url();
      asked.push(url);
      if (!refused) {
        refused = true;
        return route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({
            error: {
              code: 'TRIAGE_ERR_REPORT_LEAK',
              message: `the report was refused: its leak check flagged report line 41 (evidence ${place.file}:${place.line}), rule @secret-key. Nothing was written.`,
              details: { refused: [{ reportLine: 41, rule: '@secret-key', evidence: place }] },
            },
          }),
        });
      }
      return route.continue();
    });
    await page.goto(`${h.base}/incidents/${id}/report`);
    const box = page.getByTestId('report-refusal');
    await box.waitFor();
    expect(await page.getByTestId('refused-line').textContent()).toBe('41');
    expect(await page.getByTestId('refused-rule').textContent()).toBe('@secret-key');
    expect(await page.getByTestId('refused-evidence').textContent()).toBe(`${place.file}:${place.line}`);
    expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);

    await page.getByTestId('refusal-remove-line').click();
    const body = page.getByTestId('report-rendered');
    await body.waitFor();
    await body.getByText('1 evidence line(s) left out by the reporter.').waitFor();
    expect(asked.length).toBe(2);
    expect(new URL(asked[1]!).searchParams.getAll('exclude')).toEqual([`${place.file}:${place.line}`]);
    expect(await page.getByTestId('report-excluded').textContent()).toContain(`${place.file}:${place.line}`);
    // The export follows the same choice.
    expect(await page.getByTestId('export-html').getAttribute('href')).toContain(`exclude=${encodeURIComponent(`${place.file}:${place.line}`)}`);

    // And it can be undone.
    await page.getByTestId('report-restore-evidence').click();
    await page.getByTestId('report-rendered').waitFor();
    await page.waitForFunction(() => !document.querySelector('[data-testid=report-excluded]'));
    expect(new URL(asked[asked.length - 1]!).searchParams.getAll('exclude')).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(consoleErrors.filter((e) => !/status of 500/.test(e))).toEqual([]);
  });
});
