// Browser end-to-end for the views added in round two: report (highlighted redactions, counts,
// copy, download, remove more), the offline HTML export, sessions, the unit-of-work drawer, the
// status histogram, the verify panel against a real SDK server, and keyboard navigation.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestMcpServer } from '../../server/probe/testing/servers.ts';
import { start, type Harness, watchErrors, screenshotsDir, upload } from './support/harness.ts';

const SAMPLE = resolve('samples/restart-stale-session');
const SHOTS = screenshotsDir();

let h: Harness;
let ctx: BrowserContext;
let page: Page;
let id = '';
let analysis: { decision: string; sessions: { session: string; state: string }[]; failures: { decision: string; evidence: { file: string; line: number }[] }[] };
const pageErrors: string[] = [];
const consoleErrors: string[] = [];
const tmp = mkdtempSync(join(tmpdir(), 'mcp-triage-views-e2e-'));

beforeAll(async () => {
  h = await start();
  id = await upload(h, SAMPLE);
  analysis = await (await fetch(`${h.base}/api/incidents/${id}/analysis`)).json();
  ctx = await h.browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.base });
  page = await ctx.newPage();
  watchErrors(page, { pageErrors, consoleErrors });
});

afterAll(async () => {
  await h?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

describe('report view', () => {
  let markdown = '';
  let redactions: Record<string, number> = {};

  it('renders the report with redaction placeholders highlighted and per-rule counts', async () => {
    const doc = await (await fetch(`${h.base}/api/incidents/${id}/report?format=json`)).json();
    markdown = doc.markdown;
    redactions = doc.redactions;
    await page.goto(`${h.base}/incidents/${id}/report`);
    const body = page.getByTestId('report-rendered');
    await body.waitFor();
    await body.locator('.h', { hasText: 'MCP connection failure' }).first().waitFor();
    expect(await body.locator('table').count()).toBeGreaterThan(0);
    expect(await body.locator('pre.code').count()).toBeGreaterThan(0);
    expect(await body.locator('ol li').count()).toBeGreaterThan(0);
    // Every session pseudonym in the text is a highlighted mark.
    const sessions = markdown.replace(/\\_/g, '_').match(/\bsess_(?:[a-z2-7]{10,}|…)/g) ?? [];
    expect(sessions.length).toBeGreaterThan(0);
    expect(await body.locator('mark[data-placeholder=session]').count()).toBe(sessions.length);
    for (const [rule, n] of Object.entries(redactions)) {
      expect(await page.getByTestId('redaction-counts').locator(`[data-rule="${rule}"]`).textContent()).toBe(String(n));
    }
    expect(await page.getByTestId('placeholder-counts').locator('[data-kind=session]').textContent()).toBe(String(sessions.length));
    // Nothing from the report became markup.
    expect(await body.locator('a, img, script, iframe').count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'report.png'), fullPage: true });
  });

  it('copies the exact Markdown to the clipboard', async () => {
    await page.getByTestId('report-copy').click();
    await page.getByTestId('report-status').getByText('Copied').waitFor();
    expect(await clipboard()).toBe(markdown);
  });

  it('downloads the Markdown as a .md file', async () => {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-download').click()]);
    expect(dl.suggestedFilename()).toBe(`${id}-report.md`);
    const path = join(tmp, 'report.md');
    await dl.saveAs(path);
    expect(readFileSync(path, 'utf8')).toBe(markdown);
  });

  it('removes more: a selected range and a whole line are blanked before copying', async () => {
    await page.getByTestId('report-remove-toggle').click();
    const src = page.getByTestId('report-source');
    await src.waitFor();
    const lines = markdown.split('\n');
    // Select the rationale text of the "decision … by rule" line, from "tools/call" to its end.
    const target = lines.findIndex((l) => l.includes('by rule'));
    const victim = lines[target]!.slice(lines[target]!.indexOf(':') + 2);
    await page.evaluate(
      ({ line, from }) => {
        const el = document.querySelector(`[data-testid=report-source] [data-line="${line}"] [data-text]`)!;
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        const nodes: Text[] = [];
        for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n as Text);
        // Map character offsets to (node, offset).
        const at = (off: number): [Text, number] => {
          for (const t of nodes) {
            if (off <= t.length) return [t, off];
            off -= t.length;
          }
          const last = nodes[nodes.length - 1]!;
          return [last, last.length];
        };
        const total = nodes.reduce((n, t) => n + t.length, 0);
        const r = document.createRange();
        r.setStart(...at(from));
        r.setEnd(...at(total));
        const sel = window.getSelection()!;
        sel.removeAllRanges();
        sel.addRange(r);
      },
      { line: target, from: lines[target]!.indexOf(':') + 2 },
    );
    await page.getByTestId('remove-selection').click();
    // And a whole line: the one with the first exception.
    const excLine = lines.findIndex((l) => l.includes('first exception'));
    await src.locator(`[data-line="${excLine}"] button.ln`).click();
    await page.getByTestId('report-copy').click();
    const copied = await clipboard();
    expect(copied).not.toContain(victim);
    expect(copied).not.toContain(lines[excLine]!.trim());
    expect(copied.split('\n')[target]).toBe(`${lines[target]!.slice(0, lines[target]!.indexOf(':') + 2)}[REMOVED]`);
    expect(copied.split('\n')[excLine]).toBe('[REMOVED]');
    // Never less: every other line is exactly as the server wrote it.
    const out = copied.split('\n');
    expect(out.length).toBe(lines.length);
    lines.forEach((l, i) => {
      if (i !== target && i !== excLine) expect(out[i]).toBe(l);
    });
    expect(await page.getByTestId('placeholder-counts').locator('[data-kind=removed]').textContent()).toBe('2');
    await page.screenshot({ path: join(SHOTS, 'report-remove.png'), fullPage: true });
    // Back to the rendered view: the removal shows there too.
    await page.getByTestId('report-remove-toggle').click();
    expect(await page.getByTestId('report-rendered').locator('mark[data-placeholder=removed]').count()).toBe(2);
  });
});

describe('HTML export', () => {
  it('opens from a file:// URL with the network blocked and shows the decision', async () => {
    const res = await fetch(`${h.base}/api/incidents/${id}/export.html`);
    expect(res.headers.get('content-disposition')).toContain('attachment');
    const file = join(tmp, `${id}-export.html`);
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const off = await h.browser.newContext({ offline: true, viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
    const requests: string[] = [];
    await off.route('**/*', (route) => {
      const u = route.request().url();
      if (u.startsWith('file:')) return route.continue();
      requests.push(u);
      return route.abort();
    });
    const p = await off.newPage();
    await p.goto(pathToFileURL(file).href);
    expect(await p.locator('#decision').textContent()).toBe(analysis.decision);
    expect(await p.locator('table').first().isVisible()).toBe(true);
    await p.getByText('session-expired-404').first().waitFor();
    expect(await p.locator('mark.ph-session').count()).toBeGreaterThan(0);
    expect(requests).toEqual([]);
    await p.screenshot({ path: join(SHOTS, 'export.png') });
    await off.close();
  });
});

describe('sessions view', () => {
  it('draws one lifecycle lane per pseudonymous session', async () => {
    await page.goto(`${h.base}/incidents/${id}/sessions`);
    const lanes = page.getByTestId('session-lanes');
    await lanes.waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=session-lanes] .lane a.mk').length > 0);
    expect(await lanes.locator('.lane').count()).toBe(analysis.sessions.length);
    for (const s of analysis.sessions) expect(await lanes.locator(`[data-session="${s.session}"]`).getAttribute('data-state')).toBe(s.state);
    expect(await lanes.locator('a.mk[data-kind=created]').count()).toBeGreaterThan(0);
    // The stale session ends in a 404: an expiry mark.
    expect(await lanes.locator('a.mk[data-kind=expired]').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(SHOTS, 'sessions.png') });
    // A mark is a deep link to its line in the timeline.
    await lanes.locator('a.mk[data-kind=expired]').last().click(); // the last is painted on top when marks overlap
    await page.waitForURL(/\/incidents\/[^/]+\?ev=/);
    await page.locator('[data-testid=timeline-table] tr.hl').waitFor();
  });
});

describe('analysis page', () => {
  it('opens the unit-of-work drawer from a timeline line, deep-linked', async () => {
    const f = analysis.failures.find((x) => x.decision === analysis.decision)!;
    const ev = f.evidence.find((e) => e.file === 'server.log')!;
    await page.goto(`${h.base}/incidents/${id}?ev=${encodeURIComponent(`${ev.file}:${ev.line}`)}`);
    const row = page.locator('[data-testid=timeline-table] tr.hl');
    await row.waitFor({ timeout: 20_000 });
    await row.locator('td.msg').click();
    const drawer = page.getByTestId('unit-drawer');
    await drawer.waitFor();
    await drawer.locator('li.ev').first().waitFor();
    expect(new URL(page.url()).searchParams.get('unit')).toBe(`${ev.file}:${ev.line}`);
    const files = new Set(await drawer.locator('li.ev').evaluateAll((els) => els.map((e) => e.getAttribute('data-key')!.replace(/:\d+$/, ''))));
    expect(files.size).toBeGreaterThanOrEqual(3);
    expect(await drawer.locator('li.ev.seed').count()).toBe(1);
    await drawer.locator('.fails [data-decision]').first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'unit.png') });
    // Reload: the drawer comes back from the URL. Escape closes it.
    await page.reload();
    await page.getByTestId('unit-drawer').locator('li.ev').first().waitFor({ timeout: 20_000 });
    await page.keyboard.press('Escape');
    await page.getByTestId('unit-drawer').waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('unit')).toBeNull();
  });

  it('renders the status histogram per source', async () => {
    const hist = page.getByTestId('histogram');
    await hist.waitFor();
    expect(await hist.locator('g.bar').count()).toBeGreaterThan(3);
    expect(await hist.locator('rect.c-4xx').count()).toBeGreaterThan(0);
    await hist.scrollIntoViewIfNeeded();
    await page.locator('section', { has: hist }).screenshot({ path: join(SHOTS, 'histogram.png') });
  });

  it('offers the skew-adjusted clock when the analysis measured offsets, and switches to it', async () => {
    const a = await (await fetch(`${h.base}/api/incidents/${id}/analysis`)).json();
    expect(a.clockOffsets.length).toBeGreaterThan(0);
    const toggle = page.getByTestId('skew-toggle');
    expect(await toggle.isDisabled()).toBe(false);
    const title = await page.locator('label', { has: toggle }).getAttribute('title');
    for (const o of a.clockOffsets) expect(title).toContain(o.file);
    await toggle.check();
    expect(await toggle.isChecked()).toBe(true);
    // Bars are drawn (one path per lane and colour; a non-empty one starts with M).
    expect(await page.locator('svg[aria-label^="Events per source"] path.bars[d^="M"]').count()).toBeGreaterThan(1);
  });

  it('keeps timeline filters in the URL', async () => {
    await page.selectOption('[data-testid=filter-source]', 'proxy');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('source') === 'proxy');
    await page.reload();
    await page.getByTestId('timeline-table').waitFor();
    expect(await page.locator('[data-testid=filter-source]').inputValue()).toBe('proxy');
    await page.selectOption('[data-testid=filter-source]', '');
    await page.waitForFunction(() => !new URL(location.href).searchParams.has('source'));
  });
});

describe('verify panel', () => {
  let mcp: TestMcpServer;
  beforeAll(async () => {
    mcp = await startServer({ mode: 'stateful' });
  });
  afterAll(async () => {
    await mcp?.stop();
  });

  it('probes a healthy SDK server: ok', async () => {
    await page.goto(`${h.base}/incidents/${id}`);
    // the stored result prefills an empty URL field when it arrives: type after that, not during it
    const panel = page.locator('[data-testid=verify-panel][data-loaded=true]');
    await panel.waitFor();
    await page.getByTestId('verify-url').fill(mcp.url);
    await page.getByTestId('verify-tool').fill('get_order');
    await page.getByTestId('verify-args').fill('{"order_id": "ORD-1001"}');
    await page.getByTestId('verify-run').click();
    const result = page.locator('[data-testid=verify-result][data-ok=true]');
    await result.waitFor({ timeout: 30_000 });
    expect(await result.locator('tr[data-step="tools/call"][data-ok=true]').count()).toBe(1);
    await panel.screenshot({ path: join(SHOTS, 'verify-ok.png') });
  });

  it('a tool answering isError: true: ok with a warning and the redacted error text', async () => {
    await page.goto(`${h.base}/incidents/${id}`);
    await page.locator('[data-testid=verify-panel][data-loaded=true]').waitFor();
    await page.getByTestId('verify-url').fill(mcp.url);
    await page.getByTestId('verify-tool').fill('get_order');
    await page.getByTestId('verify-args').fill('{"order_id": "ORD-9999"}');
    // Wait for this probe's own answer first (a loaded machine is slow to probe), so a failure says
    // which side broke: the probe's JSON, or the panel that shows it.
    const posted = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith(`/api/incidents/${id}/verify`), {
      timeout: 120_000,
    });
    await page.getByTestId('verify-run').click();
    const body = await (await posted).json();
    expect({ ok: body.ok, isError: body.isError, errorText: body.errorText }, JSON.stringify(body.steps)).toEqual({
      ok: true,
      isError: true,
      errorText: 'order ORD-9999 not found',
    });
    const step = page.locator('[data-testid=verify-result][data-ok=true] tr[data-step="tools/call"][data-ok=true]');
    // the panel showed the previous test's stored result (ok, no warning) until now: wait for the warning
    // itself, which only this result has
    const warning = step.getByTestId('verify-warning');
    await warning.waitFor({ timeout: 20_000 }).catch(async (e) => {
      throw new Error(`${e}\npanel shows: ${await page.getByTestId('verify-panel').innerText()}`);
    });
    expect(await warning.textContent()).toBe('the tool reported an application error: order ORD-9999 not found');
    expect(await step.locator('.pill').textContent()).toBe('warning');
  }, 150_000);

  it('shows the failed step for a dead port', async () => {
    const dead = await new Promise<number>((res) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => res(p));
      });
    });
    await page.getByTestId('verify-url').fill(`http://127.0.0.1:${dead}/mcp`);
    await page.getByTestId('verify-tool').fill('');
    await page.getByTestId('verify-args').fill('');
    await page.getByTestId('verify-run').click();
    const result = page.locator('[data-testid=verify-result][data-ok=false]');
    await result.waitFor({ timeout: 30_000 });
    const failed = result.locator('tr[data-step=reach][data-ok=false]');
    await failed.waitFor();
    expect(await failed.locator('.diag').count()).toBe(1);
    await page.getByTestId('verify-panel').screenshot({ path: join(SHOTS, 'verify-failed.png') });
    // The last result is kept with the incident.
    await page.reload();
    await page.locator('[data-testid=verify-result][data-ok=false]').waitFor();
  });
});

describe('keyboard', () => {
  it('switches tabs with 1/2/3, copies with c, walks sessions with j, opens the request with o', async () => {
    await page.goto(`${h.base}/incidents/${id}`);
    await page.getByTestId('decision-table').waitFor();
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('3');
    await page.waitForURL(/\/report$/);
    await page.getByTestId('report-rendered').waitFor();
    await page.keyboard.press('c');
    await page.getByTestId('report-status').getByText('Copied').waitFor();
    expect(await clipboard()).toContain('MCP connection failure');
    await page.keyboard.press('2');
    await page.waitForURL(/\/sessions/);
    await page.getByTestId('session-lanes').locator('.lane').first().waitFor();
    await page.keyboard.press('j');
    await page.waitForFunction((s) => new URL(location.href).searchParams.get('session') === s, analysis.sessions[0]!.session);
    await page.keyboard.press('1');
    await page.waitForURL((u) => u.pathname === `/incidents/${id}`);
    await page.getByTestId('decision-table').waitFor();
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    await page.locator('[data-testid=timeline-table] tr.hl').waitFor({ timeout: 20_000 });
    await page.keyboard.press('o');
    await page.getByTestId('unit-drawer').locator('li.ev').first().waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('unit-drawer').waitFor({ state: 'detached' });
    // Theme: auto → light → dark, kept across a reload.
    await page.getByTestId('theme-toggle').click();
    await page.getByTestId('theme-toggle').click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.goto(`${h.base}/incidents/${id}/report`);
    await page.getByTestId('report-rendered').waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.screenshot({ path: join(SHOTS, 'report-dark.png') });
    await page.getByTestId('theme-toggle').click();
    expect(pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
