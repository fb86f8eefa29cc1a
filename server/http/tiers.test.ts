// Every exit applies the exit tier (redaction.md "Tiers"): an incident stored in standard mode
// keeps personal and business data in the local database — the loopback UI shows them, that is
// the point — but the report, the HTML export and the SQL console never let them out, and a
// server reachable from the network answers with the exit tier and stores every upload strict.
import type { FastifyInstance } from 'fastify';
import { tableFromIPC } from 'apache-arrow';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseServeArgs } from '../cli/commands/serve.ts';
import { openContext, type Context } from '../incidents.ts';
import { multipart, sampleFiles, tempWorkspace } from '../testing/helpers.ts';
import { buildApp } from './app.ts';

/** Personal and business data planted into the evidence lines of a real sample. */
const PLANTED = ['alice.smith@acme-corp.example', '203.0.113.57', 'db7.corp.internal', '/home/alicesmith', '+1 415 555 0123', 'Jane Roe'];
const PLANT = ` [user alice.smith@acme-corp.example from 203.0.113.57 via db7.corp.internal cwd /home/alicesmith phone +1 415 555 0123 arguments: {"customer": "Jane Roe"}]`;

function plantedFiles() {
  return sampleFiles('restart-stale-session').map((f) =>
    f.name === 'client.log'
      ? {
          name: f.name,
          data: Buffer.from(
            f.data
              .toString('utf8')
              .split('\n')
              .map((l, i) => (i >= 39 && i <= 46 && l ? l + PLANT : l))
              .join('\n'),
          ),
        }
      : f,
  );
}
const leaks = (text: string) => PLANTED.filter((p) => text.includes(p));

const ws = tempWorkspace();
let ctx: Context;
let app: FastifyInstance;
let net: FastifyInstance;
let standard = '';
let strict = '';

beforeAll(async () => {
  ctx = await openContext({ env: ws.env, db: join(ws.dir, 'tiers.duckdb'), keyFile: ws.keyFile });
  app = await buildApp({ ctx });
  // The same store behind a server that answers beyond loopback (as serve --host 0.0.0.0 sets it up).
  net = await buildApp({ ctx: { ...ctx, strict: true, network: true }, uploadDir: join(ws.dir, 'net-uploads') });
  standard = (await app.inject({ method: 'POST', url: '/api/incidents', ...multipart(plantedFiles()) })).json().id;
  strict = (await app.inject({ method: 'POST', url: '/api/incidents?privacy=strict', ...multipart(plantedFiles()) })).json().id;
});
afterAll(async () => {
  await net.close();
  await app.close();
  await ctx.store.close();
  ws.cleanup();
});

const events = async (a: FastifyInstance, id: string) => {
  const r = await a.inject({ url: `/api/incidents/${id}/events?limit=100000` });
  expect(r.statusCode, r.body).toBe(200);
  return tableFromIPC(r.rawPayload)
    .toArray()
    .map((row) => `${row.text}\n${row.message}`)
    .join('\n');
};

describe('standard mode (the default): the local view holds PII, every exit removes it', () => {
  it('the mode is recorded and stated', async () => {
    const a = (await app.inject({ url: `/api/incidents/${standard}/analysis` })).json();
    expect(a.privacyMode).toBe('standard');
    expect((await app.inject({ url: `/api/incidents/${standard}` })).json().privacyMode).toBe('standard');
    expect((await app.inject({ url: `/api/incidents/${strict}/analysis` })).json().privacyMode).toBe('strict');
  });

  it('the loopback timeline shows the planted data as logged (so this test can fail)', async () => {
    expect(leaks(await events(app, standard))).toEqual(PLANTED);
  });

  it('the report (Markdown and JSON) has none of it', async () => {
    const md = await app.inject({ url: `/api/incidents/${standard}/report` });
    expect(md.statusCode, md.body).toBe(200);
    expect(md.body).toContain('client.log:42'); // the planted lines are in its timeline
    expect(leaks(md.body)).toEqual([]);
    const json = await app.inject({ url: `/api/incidents/${standard}/report?format=json` });
    expect(leaks(json.body)).toEqual([]);
  });

  it('the HTML export has none of it (evidence lines and the analysis: the root exception quotes a planted line)', async () => {
    const a = (await app.inject({ url: `/api/incidents/${standard}/analysis` })).json();
    expect(leaks(JSON.stringify(a)).length).toBeGreaterThan(0); // the local analysis quotes it
    const r = await app.inject({ url: `/api/incidents/${standard}/export.html` });
    expect(r.statusCode, r.body.slice(0, 300)).toBe(200);
    expect(leaks(r.body)).toEqual([]);
    expect(r.body).toContain('privacy mode: standard');
  });

  it('the SQL console output has none of it', async () => {
    const r = await app.inject({
      method: 'POST',
      url: '/api/sql',
      headers: { 'x-requested-with': 'mcp-triage' },
      payload: { sql: `SELECT text, message, attrs FROM events WHERE incident_id = '${standard}'` },
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().rows.length).toBeGreaterThan(50);
    expect(leaks(r.body)).toEqual([]);
  });

  it('strict (asked per upload) stores none of it, and decides the same', async () => {
    expect(leaks(await events(app, strict))).toEqual([]);
    const a = (await app.inject({ url: `/api/incidents/${standard}/analysis` })).json();
    const b = (await app.inject({ url: `/api/incidents/${strict}/analysis` })).json();
    expect(b.decision).toBe(a.decision);
    expect(b.failures.map((f: { decision: string; rule: string; rpcId: unknown; session: string }) => [f.decision, f.rule, f.rpcId, f.session])).toEqual(
      a.failures.map((f: { decision: string; rule: string; rpcId: unknown; session: string }) => [f.decision, f.rule, f.rpcId, f.session]),
    );
  });
});

describe('a server reachable from the network', () => {
  it('serve on a non-loopback host is strict and answers as an exit; --strict alone is strict on loopback', () => {
    expect(parseServeArgs(['--host', '0.0.0.0', '--token-file', join(ws.dir, 'tiers.duckdb')])).toMatchObject({ strict: true, network: true });
    expect(parseServeArgs(['--strict'])).toMatchObject({ strict: true, network: false });
    expect(parseServeArgs([])).toMatchObject({ strict: false, network: false });
  });

  it('answers for a standard incident go through the exit tier: analysis, timeline, unit, inputs', async () => {
    const a = await net.inject({ url: `/api/incidents/${standard}/analysis` });
    expect(a.statusCode).toBe(200);
    expect(leaks(a.body)).toEqual([]);
    expect(a.json().decision).toBe((await app.inject({ url: `/api/incidents/${standard}/analysis` })).json().decision);
    expect(leaks(await events(net, standard))).toEqual([]);
    const unit = await net.inject({ url: `/api/incidents/${standard}/unit?file=client.log&line=42` });
    expect(unit.statusCode, unit.body).toBe(200);
    expect(unit.json().events.length).toBeGreaterThan(0);
    expect(leaks(unit.body)).toEqual([]);
    expect(leaks((await net.inject({ url: `/api/incidents/${standard}` })).body)).toEqual([]);
    for (const url of [`/api/incidents/${standard}/report`, `/api/incidents/${standard}/export.html`]) expect(leaks((await net.inject({ url })).body), url).toEqual([]);
  });

  it('refuses a text search over a standard incident (it would be an oracle for what the answers redact)', async () => {
    const r = await net.inject({ url: `/api/incidents/${standard}/events?q=alice` });
    expect(r.statusCode).toBe(403);
    expect(r.json().error.message).toMatch(/standard privacy mode/);
    expect((await net.inject({ url: `/api/incidents/${strict}/events?q=alice` })).statusCode).toBe(200);
  });

  it('stores every upload strict, whatever it asks for', async () => {
    const r = await net.inject({ method: 'POST', url: '/api/incidents?privacy=standard', ...multipart(plantedFiles()) });
    expect(r.statusCode, r.body).toBe(201);
    const id = r.json().id;
    expect((await net.inject({ url: `/api/incidents/${id}/analysis` })).json().privacyMode).toBe('strict');
    expect(leaks(await events(app, id))).toEqual([]); // even the loopback view of it: the database never held it
  });

  it('rejects a privacy value it does not know', async () => {
    const r = await app.inject({ method: 'POST', url: '/api/incidents?privacy=lax', ...multipart(plantedFiles()) });
    expect(r.statusCode).toBe(400);
  });
});
