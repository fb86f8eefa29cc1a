// GET /api/signals (the signal table for the UI) and the timeline's `signal` filter, through
// inject() on a real store.
import { tableFromIPC } from 'apache-arrow';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { signalTable } from '../../parsers/engine/signals.ts';
import { SignalList } from '../contract/signals.ts';
import { withHttpApp } from '../testing/context.ts';
import { multipart, sampleFiles, tempWorkspace } from '../testing/helpers.ts';

let app: FastifyInstance;
withHttpApp(tempWorkspace(), 'signals.duckdb', {}, (h) => (app = h.app));

const rowsOf = async (url: string) => {
  const r = await app.inject({ method: 'GET', url });
  expect(r.statusCode, r.body).toBe(200);
  return {
    rows: tableFromIPC(r.rawPayload)
      .toArray()
      .map((x) => x.toJSON() as Record<string, unknown>),
    total: Number(r.headers['x-total-count']),
  };
};
const ids = (row: Record<string, unknown>) => (row.signals === null ? [] : String(row.signals).split(' '));

describe('GET /api/signals', () => {
  it('lists every signal of the table with its title, cause and outcome', async () => {
    const r = await app.inject({ method: 'GET', url: '/api/signals' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toContain('application/json');
    const list = SignalList.parse(r.json());
    const table = signalTable().signals;
    expect(list.map((s) => s.id)).toEqual(table.map((s) => s.spec.id));
    expect(new Set(list.map((s) => s.id)).size).toBe(list.length);
    expect(list.find((s) => s.id === 'session-not-found')).toEqual({
      id: 'session-not-found',
      title: 'The server does not know the session id it got',
      cause: 'session-unknown',
      outcome: 'failure',
    });
    // Only what a person reads: no patterns, samples or sources travel.
    for (const s of r.json() as object[]) expect(Object.keys(s).sort()).toEqual(['cause', 'id', 'outcome', 'title']);
  });

  it('is read-only', async () => {
    const r = await app.inject({ method: 'POST', url: '/api/signals', headers: { 'x-requested-with': 'mcp-triage' }, payload: {} });
    expect(r.statusCode).toBe(404);
  });
});

describe('GET /events?signal=', () => {
  let id = '';
  it('uploads a sample', async () => {
    const r = await app.inject({ method: 'POST', url: '/api/incidents', ...multipart(sampleFiles('restart-stale-session')) });
    expect(r.statusCode, r.body).toBe(201);
    id = r.json().id;
  });

  it("carries each event's signals as a string column", async () => {
    const { rows } = await rowsOf(`/api/incidents/${id}/events?limit=100000`);
    const t = tableFromIPC((await app.inject({ method: 'GET', url: `/api/incidents/${id}/events?limit=1` })).rawPayload);
    expect(String(t.schema.fields.find((f) => f.name === 'signals')?.type)).toBe('Utf8');
    expect(rows.some((r) => ids(r).includes('session-not-found'))).toBe(true);
    expect(rows.some((r) => r.signals === null)).toBe(true);
  });

  it('keeps the rows whose signals hold that id, whole ids only, and counts them', async () => {
    const { rows: all } = await rowsOf(`/api/incidents/${id}/events?limit=100000`);
    for (const sig of ['session-not-found', 'http-404', 'standalone-stream-open-failed']) {
      const expected = all.filter((r) => ids(r).includes(sig));
      expect(expected.length, sig).toBeGreaterThan(0);
      const { rows, total } = await rowsOf(`/api/incidents/${id}/events?limit=100000&signal=${sig}`);
      expect(total).toBe(expected.length);
      expect(rows.map((r) => `${r.file}:${r.line}`)).toEqual(expected.map((r) => `${r.file}:${r.line}`));
      const count = await app.inject({ method: 'GET', url: `/api/incidents/${id}/events/count?signal=${sig}` });
      expect(count.json()).toEqual({ total: expected.length });
    }
    // A part of an id is not the id.
    expect((await rowsOf(`/api/incidents/${id}/events?signal=session`)).total).toBe(0);
    expect((await rowsOf(`/api/incidents/${id}/events?signal=not-found`)).total).toBe(0);
    // With the other filters: all of them apply.
    const both = await rowsOf(`/api/incidents/${id}/events?limit=100000&signal=http-404&source=proxy`);
    expect(both.total).toBe(all.filter((r) => ids(r).includes('http-404') && r.source === 'proxy').length);
    expect(both.total).toBeGreaterThan(0);
    const searched = await rowsOf(`/api/incidents/${id}/events?limit=100000&signal=session-not-found&q=tools`);
    expect(searched.rows.every((r) => ids(r).includes('session-not-found') && String(r.text).toLowerCase().includes('tools'))).toBe(true);
  });

  it('refuses anything but a signal id with a 400, and runs nothing', async () => {
    for (const bad of ['Session-Not-Found', 'x', 'a'.repeat(64), "x' OR 1=1 --", 'http_404', '%', 'a b', "session-not-found'); DROP TABLE events; --"]) {
      for (const path of ['events', 'events/count']) {
        const r = await app.inject({ method: 'GET', url: `/api/incidents/${id}/${path}?signal=${encodeURIComponent(bad)}` });
        expect(r.statusCode, `${path} ${bad}`).toBe(400);
        expect(r.json().error.code).toBe('TRIAGE_ERR_USAGE');
        expect(r.json().error.message).toMatch(/signal/);
      }
    }
    expect((await rowsOf(`/api/incidents/${id}/events?limit=1`)).total).toBeGreaterThan(0);
  });
});
