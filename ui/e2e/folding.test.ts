// Browser end-to-end for failure roles and signals: the decision table leads with primary
// failures and folds the rest under their episode (click, keyboard, the URL's `expand`); an
// incident whose failures are all optional says nothing needs action; signal chips carry the
// titles from GET /api/signals; the timeline filters by a signal.
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Analysis } from '../../server/contract/analysis.ts';
import type { SignalInfo } from '../../server/contract/signals.ts';
import { start, type Harness, watchErrors, screenshotsDir, upload } from './support/harness.ts';

const SAMPLE = resolve('samples/restart-stale-session');
/** A TS-SDK client log whose only failures are the standalone GET stream's 404s (optional). */
const OPTIONAL_ONLY = resolve('ui/e2e/fixtures/optional-stream-client.log');
/** Text that screens as a log (lines with numbers and words) but holds no MCP traffic at all. */
const NO_MCP = resolve('ui/e2e/fixtures/no-mcp-services.txt');
const SHOTS = screenshotsDir();

let h: Harness;
let page: Page;
let id = '';
let analysis: Analysis;
let signals: SignalInfo[];
const pageErrors: string[] = [];
const consoleErrors: string[] = [];

beforeAll(async () => {
  h = await start();
  id = await upload(
    h,
    readdirSync(SAMPLE)
      .filter((n) => n.endsWith('.log'))
      .map((n) => join(SAMPLE, n)),
  );
  analysis = await (await fetch(`${h.base}/api/incidents/${id}/analysis`)).json();
  signals = await (await fetch(`${h.base}/api/signals`)).json();
  page = await h.browser.newPage({ viewport: { width: 1440, height: 900 } });
  watchErrors(page, { pageErrors, consoleErrors });
});

afterAll(async () => {
  await h?.close();
});

const table = () => page.getByTestId('decision-table');
const rowsShown = () =>
  table()
    .locator('tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) =>
        (tr as HTMLElement).dataset.group !== undefined ? `group:${(tr as HTMLElement).dataset.group}` : `${(tr as HTMLElement).dataset.role}:${(tr as HTMLElement).dataset.index}`,
      ),
    );
const current = () =>
  table()
    .locator('tr[aria-current=true]')
    .evaluate((tr) =>
      (tr as HTMLElement).dataset.group !== undefined ? `group:${(tr as HTMLElement).dataset.group}` : `${(tr as HTMLElement).dataset.role}:${(tr as HTMLElement).dataset.index}`,
    );
const expandParam = () => new URL(page.url()).searchParams.get('expand');

describe('the decision table folds what needs no action', () => {
  // restart-stale-session: one primary tools/call (reinitialize) and two optional GET-stream failures, all episode 1.
  const primary = () => analysis.failures.map((f, i) => ({ f, i })).filter(({ f }) => f.role === 'primary');
  const folded = () => analysis.failures.map((f, i) => ({ f, i })).filter(({ f }) => f.role !== 'primary');

  it('leads with the primary failures; the others are one collapsed row under their episode', async () => {
    expect(primary().length).toBe(1);
    expect(folded().map(({ f }) => [f.role, f.episode])).toEqual([
      ['optional', 1],
      ['optional', 1],
    ]);
    await page.goto(`${h.base}/incidents/${id}`);
    await table().waitFor();
    expect(await rowsShown()).toEqual([`primary:${primary()[0]!.i}`, 'group:1']);
    const group = page.getByTestId('fold-1');
    expect(await group.getAttribute('data-expanded')).toBe('false');
    expect(await group.locator('button').getAttribute('aria-expanded')).toBe('false');
    expect((await group.textContent())!.replace(/\s+/g, ' ').trim()).toBe('▸ Episode 1 — 2 folded: 2 optional (the standalone GET SSE stream failed)');
    // A primary failure leads the episode, so it is not "no action needed".
    expect(await group.getByText('no action needed').count()).toBe(0);
    expect(await table().locator('tr[data-role=optional]').count()).toBe(0);
    // The headline decision is the primary's; the header and the stat say how much was folded.
    expect(await page.getByTestId('headline-decision').textContent()).toContain(analysis.decision);
    expect((await page.getByTestId('failure-count').textContent())!.trim()).toBe('1 primary · 2 folded of 3 failures');
    expect((await page.getByTestId('stat-failures').locator('dd').textContent())!.replace(/\s+/g, ' ').trim()).toBe('1 primary of 3 2 folded');
    expect(await page.getByTestId('nothing-to-do').count()).toBe(0);
  });

  it('opens and closes a folded group with the keyboard; j/k walk only the rows shown; a reload keeps it open', async () => {
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('j');
    expect(await current()).toBe(`primary:${primary()[0]!.i}`);
    await page.keyboard.press('j');
    expect(await current()).toBe('group:1');
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.group)).toBe('1');
    // Closed: nothing below the group to walk into.
    await page.keyboard.press('j');
    expect(await current()).toBe('group:1');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('expand') === '1');
    expect(await page.getByTestId('fold-1').getAttribute('data-expanded')).toBe('true');
    const members = folded().map(({ i }) => `optional:${i}`);
    expect(await rowsShown()).toEqual([`primary:${primary()[0]!.i}`, 'group:1', ...members]);
    // Each folded failure: its role and why, its decision, its evidence.
    for (const { f, i } of folded()) {
      const row = table().locator(`tr[data-index="${i}"]`);
      expect((await row.getByTestId('role-reason').textContent())!.replace(/\s+/g, ' ').trim()).toBe(`optional: ${f.roleReason}`);
      expect(await row.locator(`[data-decision="${f.decision}"]`).count()).toBe(1);
      expect(await row.locator('a[data-evidence]').count()).toBe(Math.min(6, f.evidence.length));
    }
    await page.keyboard.press('j');
    expect(await current()).toBe(members[0]);
    await page.keyboard.press('j');
    expect(await current()).toBe(members[1]);

    await page.reload();
    await table().waitFor();
    expect(await page.getByTestId('fold-1').getAttribute('data-expanded')).toBe('true');
    expect(await rowsShown()).toEqual([`primary:${primary()[0]!.i}`, 'group:1', ...members]);

    // k back up to the group; Space closes it and drops it from the URL.
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('k');
    expect(await current()).toBe(members[1]);
    await page.keyboard.press('k');
    await page.keyboard.press('k');
    expect(await current()).toBe('group:1');
    await page.keyboard.press(' ');
    await page.waitForFunction(() => !new URL(location.href).searchParams.has('expand'));
    expect(await rowsShown()).toEqual([`primary:${primary()[0]!.i}`, 'group:1']);
    expect(await current()).toBe('group:1');
  });

  it('opens a folded group by click, and its evidence links lead to the timeline', async () => {
    const button = page.getByTestId('fold-1').locator('button');
    await button.click();
    await page.waitForFunction(() => new URL(location.href).searchParams.get('expand') === '1');
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    expect(await table().locator('tr[data-role=optional]').count()).toBe(2);
    // The panel in page coordinates, so the sticky top bar does not cover its header.
    await page.evaluate(() => window.scrollTo(0, 0));
    const box = (await page.locator('section.panel', { has: table() }).boundingBox())!;
    await page.screenshot({ path: join(SHOTS, 'folded.png'), fullPage: true, clip: { x: box.x, y: box.y, width: box.width, height: box.height } });
    const { f, i } = folded()[1]!;
    const link = table().locator(`tr[data-index="${i}"] a[data-evidence]`).first();
    expect(await link.getAttribute('data-evidence')).toBe(`${f.evidence[0]!.file}:${f.evidence[0]!.line}`);
    await link.click();
    await page.locator('[data-testid=timeline-table] tr.hl').waitFor({ timeout: 20_000 });
    expect(await current()).toBe(`optional:${i}`);
    // Closing the group while its failure is selected moves the cursor to the group's row.
    await button.click();
    await page.waitForFunction(() => !new URL(location.href).searchParams.has('expand'));
    expect(await current()).toBe('group:1');
    expect(await table().locator('tr[data-role=optional]').count()).toBe(0);
  });

  it('opens a deep link with ?expand= already open', async () => {
    await page.goto(`${h.base}/incidents/${id}?expand=1`);
    await table().waitFor();
    expect(await table().locator('tr[data-role=optional]').count()).toBe(2);
  });
});

describe('signals', () => {
  it("shows each failure's signals as chips titled from GET /api/signals", async () => {
    await page.goto(`${h.base}/incidents/${id}`);
    await table().waitFor();
    const f = analysis.failures.find((x) => x.role === 'primary')!;
    expect(f.signals).toContain('session-not-found');
    const row = table().locator('tr[data-role=primary]');
    const chips = row.locator('[data-signal]');
    expect(await chips.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.signal))).toEqual([...new Set(f.signals)]);
    const title = signals.find((s) => s.id === 'session-not-found')!.title;
    await page.waitForFunction(
      (t) => document.querySelector('[data-testid=decision-table] tr[data-role=primary] [data-signal=session-not-found]')?.getAttribute('title') === t,
      title,
    );
    expect(await row.locator('[data-signal=session-not-found]').textContent()).toBe('session-not-found');
    // http-NNN is not in the table: its title says what it is.
    expect(await row.locator('[data-signal=http-404]').getAttribute('title')).toMatch(/HTTP status 404/);
  });

  it("filters the timeline to a signal picked from a failure's chips", async () => {
    const expected = await fetch(`${h.base}/api/incidents/${id}/events?signal=session-not-found&limit=1`);
    const total = Number(expected.headers.get('x-total-count'));
    expect(total).toBeGreaterThan(0);
    await table().locator('tr[data-role=primary] button[data-signal=session-not-found]').click();
    await page.waitForFunction(() => new URL(location.href).searchParams.get('signal') === 'session-not-found');
    await page.locator('.timeline .count', { hasText: `of ${total}` }).waitFor();
    const rows = page.locator('[data-testid=timeline-table] tbody tr');
    expect(await rows.count()).toBe(Math.min(total, 100));
    for (const r of await rows.all()) expect(await r.locator('[data-signal=session-not-found]').count()).toBe(1);
    expect(await page.getByTestId('filter-signal').inputValue()).toBe('session-not-found');
    expect(await table().locator('tr[data-role=primary] button[data-signal=session-not-found]').getAttribute('aria-pressed')).toBe('true');
    // Timeline chips carry the same titles.
    const title = signals.find((s) => s.id === 'session-not-found')!.title;
    expect(await rows.first().locator('[data-signal=session-not-found]').getAttribute('title')).toBe(title);
  });

  it('filters by a signal typed in the filter bar, keeps it across a reload, refuses what is not an id', async () => {
    const expected = await fetch(`${h.base}/api/incidents/${id}/events?signal=http-404&limit=1`);
    const total = Number(expected.headers.get('x-total-count'));
    expect(total).toBeGreaterThan(0);
    const input = page.getByTestId('filter-signal');
    // The datalist offers the table's ids, the incident's own first.
    expect(await page.locator('datalist#signal-ids option[value="standalone-stream-open-failed"]').count()).toBe(1);
    expect(await page.locator('datalist#signal-ids option').count()).toBeGreaterThanOrEqual(signals.length);
    await input.fill('http-404');
    await input.press('Enter');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('signal') === 'http-404');
    await page.locator('.timeline .count', { hasText: `of ${total}` }).waitFor();
    for (const r of await page.locator('[data-testid=timeline-table] tbody tr').all()) expect(await r.locator('[data-signal=http-404]').count()).toBe(1);
    await page.locator('section.timeline').screenshot({ path: join(SHOTS, 'timeline-signal.png') });

    await page.reload();
    await page.locator('.timeline .count', { hasText: `of ${total}` }).waitFor();
    expect(await input.inputValue()).toBe('http-404');

    // Not an id: marked invalid, nothing sent, the filter in force stays.
    const asked: string[] = [];
    const onRequest = (r: { url(): string }) => {
      if (r.url().includes('/events')) asked.push(r.url());
    };
    page.on('request', onRequest);
    await input.fill("x' OR 1=1");
    await input.press('Enter');
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    await page.waitForTimeout(300);
    page.off('request', onRequest);
    expect(asked).toEqual([]);
    expect(new URL(page.url()).searchParams.get('signal')).toBe('http-404');

    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await page.waitForFunction(() => !new URL(location.href).searchParams.has('signal'));
    expect(await input.inputValue()).toBe('');
    expect(await input.getAttribute('aria-invalid')).toBe('false');
  });
});

describe('an incident whose failures are all optional', () => {
  it('says nothing needs action, and why, instead of "No failures found"', async () => {
    const calmId = await upload(h, [OPTIONAL_ONLY]);
    const doc = (await (await fetch(`${h.base}/api/incidents/${calmId}/analysis`)).json()) as Analysis;
    expect(doc.decision).toBe('no_action');
    expect(doc.failures.map((f) => [f.role, f.episode, f.rule])).toEqual([
      ['optional', 1, 'optional-stream-failure'],
      ['optional', 1, 'optional-stream-failure'],
    ]);
    await page.goto(`${h.base}/incidents/${calmId}`);
    const calm = page.getByTestId('nothing-to-do');
    await calm.waitFor();
    expect(await calm.locator('.title').textContent()).toBe('Nothing needs action');
    expect(await calm.textContent()).toContain('2 optional (a channel whose loss loses no request)');
    expect(await page.getByText('No failures found').count()).toBe(0);
    expect(await page.getByTestId('headline-decision').textContent()).toContain('no_action');
    expect(await page.getByTestId('headline-folded').textContent()).toContain('optional');
    expect((await page.getByTestId('stat-failures').locator('dd').textContent())!.replace(/\s+/g, ' ').trim()).toBe('0 primary of 2 2 folded');
    // One group, its own, "no action needed"; collapsed until asked.
    expect(await rowsShown()).toEqual(['group:1']);
    const group = page.getByTestId('fold-1');
    await group.getByText('no action needed').waitFor();
    expect(await group.getAttribute('data-expanded')).toBe('false');
    await page.screenshot({ path: join(SHOTS, 'nothing-to-do.png'), fullPage: true });
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('j');
    expect(await current()).toBe('group:1');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('expand') === '1');
    expect(await rowsShown()).toEqual(['group:1', 'optional:0', 'optional:1']);
    expect(expandParam()).toBe('1');
  });

  it('had no page or console errors', () => {
    expect(pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});

describe('files with no MCP traffic in them', () => {
  it('say there was nothing to decide, not that nothing failed', async () => {
    const noneId = await upload(h, [NO_MCP]);
    const doc = (await (await fetch(`${h.base}/api/incidents/${noneId}/analysis`)).json()) as Analysis;
    expect(doc.decision).toBe('no_action');
    expect(doc.seen).toEqual({ requests: 0, exchanges: 0, sessions: 0, errors: 0 });
    await page.goto(`${h.base}/incidents/${noneId}`);
    await page.getByTestId('nothing-recognised').waitFor();
    expect(await page.getByText('No failures found').count()).toBe(0);
    expect(await page.getByTestId('headline-nothing-recognised').textContent()).toContain('No MCP traffic recognised');
    expect(pageErrors).toEqual([]);
  });
});
