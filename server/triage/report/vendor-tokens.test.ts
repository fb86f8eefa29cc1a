// Issue #18: `report` refused a client log holding an OpenAI, GitHub or Slack token ("its leak
// check found 2 suspect value(s) (@secret-key)") while `redact` masked the same tokens. Here a
// client log carries one token of every vendor kind the redactor knows, on the evidence lines
// too; the report must be written by the CLI and served by the HTTP API, with none of them in it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { reportCommand } from '../../cli/commands/report.ts';
import { withHttpApp } from '../../testing/context.ts';
import { multipart, REPO, tempWorkspace } from '../../testing/helpers.ts';
import { FORMAT_RULES } from '../redact/rules/formats.ts';

const SAMPLE = join(REPO, 'samples', 'restart-stale-session');

/** One token per vendor rule, taken from the rule's own first true positive. */
function vendorTokens(): Array<{ rule: string; token: string }> {
  const out: Array<{ rule: string; token: string }> = [];
  for (const rule of FORMAT_RULES) {
    if (!rule.id.startsWith('@vendor-token:') && rule.id !== '@jwt') continue;
    const re = new RegExp(rule.pattern.source, rule.pattern.flags);
    const m = re.exec(rule.tps[0]!);
    out.push({ rule: rule.id, token: m!.groups?.v ?? m![0] });
  }
  return out;
}
const TOKENS = vendorTokens();

/** The sample's client log with tokens spread over every line (so the evidence lines hold some). */
function clientLog(): string {
  const lines = readFileSync(join(SAMPLE, 'client.log'), 'utf8').split('\n');
  return lines.map((l, i) => (l.trim() ? `${l} using ${TOKENS[i % TOKENS.length]!.token}` : l)).join('\n');
}

const leaked = (text: string) => TOKENS.filter((t) => text.includes(t.token)).map((t) => t.rule);

describe('report with one token of every vendor kind', () => {
  it('knows many vendor kinds', () => expect(TOKENS.length).toBeGreaterThanOrEqual(20));

  it('the CLI writes it (exit 0) and none of the tokens is in it', async () => {
    const ws = tempWorkspace();
    try {
      const { writeFileSync, copyFileSync } = await import('node:fs');
      writeFileSync(join(ws.dir, 'client.log'), clientLog());
      for (const f of ['nginx-access.log', 'nginx-error.log', 'server.log']) copyFileSync(join(SAMPLE, f), join(ws.dir, f));
      let out = '';
      let err = '';
      const io = { stdout: new PassThrough(), stderr: new PassThrough(), stdin: Readable.from([]), cwd: ws.dir, env: ws.env };
      io.stdout.on('data', (c) => (out += String(c)));
      io.stderr.on('data', (c) => (err += String(c)));
      const code = await reportCommand.run(['client.log', 'nginx-access.log', 'nginx-error.log', 'server.log', '--key-file', ws.keyFile], io);
      expect(code, err).toBe(0);
      expect(out).toContain('### Timeline');
      expect(leaked(out)).toEqual([]);
      // The footer names the vendor rules that fired, and the verifier did not mistake the names for tokens.
      expect(out).toMatch(/`@vendor-token:openai` ×\d+/);
      expect(out).toMatch(/`@vendor-token:github` ×\d+/);
      expect(out).toMatch(/`@vendor-token:slack` ×\d+/);
    } finally {
      ws.cleanup();
    }
  });
});

describe('HTTP report with one token of every vendor kind', () => {
  let app: FastifyInstance;
  withHttpApp(tempWorkspace(), 'vendor.duckdb', { maxUploadMb: 8 }, (h) => (app = h.app));

  it('is served (200, Markdown and JSON) and none of the tokens is in it', async () => {
    const files = [
      { name: 'client.log', data: clientLog() },
      ...['nginx-access.log', 'nginx-error.log', 'server.log'].map((f) => ({ name: f, data: readFileSync(join(SAMPLE, f)) })),
    ];
    const up = await app.inject({ method: 'POST', url: '/api/incidents', ...multipart(files) });
    expect(up.statusCode, up.body).toBe(201);
    const { id } = up.json() as { id: string };
    const md = await app.inject({ url: `/api/incidents/${id}/report` });
    expect(md.statusCode, md.body).toBe(200);
    expect(leaked(md.body)).toEqual([]);
    const js = await app.inject({ url: `/api/incidents/${id}/report?format=json` });
    expect(js.statusCode, js.body).toBe(200);
    expect(leaked(js.body)).toEqual([]);
    const html = await app.inject({ url: `/api/incidents/${id}/export.html` });
    expect(html.statusCode, html.body.slice(0, 300)).toBe(200);
    expect(leaked(html.body)).toEqual([]);
  });

  it('takes evidence lines to leave out, and refuses a malformed one', async () => {
    const list = (await app.inject({ url: '/api/incidents' })).json() as Array<{ id: string }>;
    const id = list[0]!.id;
    const ok = await app.inject({ url: `/api/incidents/${id}/report?exclude=client.log:1&exclude=server.log:2,nginx-access.log:3` });
    expect(ok.statusCode).toBe(200);
    const bad = await app.inject({ url: `/api/incidents/${id}/report?exclude=not-a-place` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: { code: 'TRIAGE_ERR_USAGE' } });
  });
});
