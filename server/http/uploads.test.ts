// Uploads a team can share (issue #20): an upload id makes a retry idempotent (same incident, no
// duplicate), a client that goes away before the commit leaves nothing behind (and a consistent
// database), uploads wait in two lines by size with their place in the progress, and the uploads
// held at once are bounded (503 + Retry-After). Not timed: order and outcomes only.
import type { FastifyInstance } from 'fastify';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IngestProgress } from '../contract/progress.ts';
import { openContext, type Context } from '../incidents.ts';
import { multipart, sampleFiles, tempWorkspace } from '../testing/helpers.ts';
import { buildApp } from './app.ts';

/** A client log whose ingest takes a few seconds (~2.3 MB: over the test's 1 MiB line split). */
function bigLog(seed = 0, lines = 15_000): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    out.push(
      `2026-11-29T08:${String(Math.floor(i / 1000) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000Z DEBUG [mcp-client] POST http://127.0.0.1:8080/mcp rpc=${i} method=tools/call tool=get_order -> 200 (12 ms) x-request-id=${(i + seed * 1_000_000).toString(16).padStart(32, '0')}`,
    );
  }
  return out.join('\n') + '\n';
}

const ws = tempWorkspace();
let ctx: Context;
let app: FastifyInstance;
let base: string;
beforeAll(async () => {
  ctx = await openContext({ env: ws.env, db: join(ws.dir, 'uploads.duckdb'), keyFile: ws.keyFile });
  // Every upload over 1 MiB takes the large line (default 8 MiB): the test files stay small.
  app = await buildApp({ ctx, ingestLimits: { smallBytes: 1024 * 1024 } });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await app.close();
  await ctx.store.close();
  ws.cleanup();
});

interface Sent {
  done: Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  /** Close the connection (the client goes away). */
  destroy(): void;
}

/** POST over a real connection (inject cannot hang up): the whole body is sent, then it waits. */
function post(path: string, files: { name: string; data: string | Buffer }[], uploadId?: string): Sent {
  const m = multipart(files);
  const req = request(`${base}${path}`, {
    method: 'POST',
    headers: { ...m.headers, 'content-length': String(m.payload.length), ...(uploadId ? { 'x-upload-id': uploadId } : {}) },
  });
  const done = new Promise<{ status: number; body: any; headers: Record<string, unknown> }>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null, headers: res.headers });
      });
    });
    req.on('error', reject);
  });
  req.end(m.payload);
  return { done, destroy: () => req.destroy() };
}

async function progress(uploadId: string): Promise<IngestProgress | null> {
  const r = await app.inject({ method: 'GET', url: `/api/uploads/${uploadId}/progress` });
  return r.statusCode === 200 ? IngestProgress.parse(r.json()) : null;
}

async function until(what: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const incidents = async () => (await app.inject({ method: 'GET', url: '/api/incidents' })).json() as { id: string; events: number }[];

/** No rows of an incident that does not exist, no incident left half-stored. */
async function consistent(): Promise<void> {
  for (const t of ['events', 'files', 'text_blocks', 'redactions', 'skipped_files', 'uploads']) {
    const [{ n }] = await ctx.store.query<{ n: bigint }>(`SELECT count(*) AS n FROM ${t} WHERE incident_id NOT IN (SELECT id FROM incidents)`);
    expect(Number(n), t).toBe(0);
  }
  const [{ n }] = await ctx.store.query<{ n: bigint }>(`SELECT count(*) AS n FROM incidents WHERE state <> 'ready'`);
  expect(Number(n)).toBe(0);
}

describe('an upload id makes a retried upload idempotent', () => {
  it('answers a retry with the incident the first try stored, without a second one', async () => {
    const files = sampleFiles('restart-stale-session');
    const first = await post('/api/incidents', files, 'retry-test-0001').done;
    expect(first.status).toBe(201);
    const before = await incidents();
    const again = await post('/api/incidents', files, 'retry-test-0001').done;
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['x-upload-replayed']).toBe('1');
    const after = await incidents();
    expect(after.length).toBe(before.length);
    expect(after.find((i) => i.id === first.body.id)!.events).toBe(before.find((i) => i.id === first.body.id)!.events);
    // Another id is another upload.
    const other = await post('/api/incidents', files, 'retry-test-0002').done;
    expect(other.status).toBe(201);
    expect(other.body.id).not.toBe(first.body.id);
  });

  it('makes a retry that arrives while the first try still runs wait for it, and answer the same', async () => {
    const before = (await incidents()).length;
    const a = post('/api/incidents', [{ name: 'client.log', data: bigLog(1) }], 'retry-test-0003');
    await until(async () => (await progress('retry-test-0003')) !== null);
    const b = post('/api/incidents', [{ name: 'client.log', data: bigLog(1) }], 'retry-test-0003');
    const [ra, rb] = await Promise.all([a.done, b.done]);
    expect(ra.status).toBe(201);
    expect(rb.status).toBe(201);
    expect(rb.body.id).toBe(ra.body.id);
    expect((await incidents()).length).toBe(before + 1);
    await consistent();
  });

  it('answers a retry of files added to an incident with what they added the first time', async () => {
    const files = sampleFiles('restart-stale-session');
    const { id } = (await post('/api/incidents', files.slice(0, 2)).done).body;
    const add = await post(`/api/incidents/${id}/files`, files.slice(2), 'retry-test-0004').done;
    expect(add.status).toBe(200);
    expect(add.body.added).toBe(files.length - 2);
    const events = (await incidents()).find((i) => i.id === id)!.events;
    const again = await post(`/api/incidents/${id}/files`, files.slice(2), 'retry-test-0004').done;
    expect(again.status).toBe(200);
    expect(again.body).toEqual(add.body);
    expect(again.headers['x-upload-replayed']).toBe('1');
    expect((await incidents()).find((i) => i.id === id)!.events).toBe(events);
    // The same id for another target is a mistake, said so: 409.
    const wrong = await post('/api/incidents', files, 'retry-test-0004').done;
    expect(wrong.status).toBe(409);
    expect(wrong.body.error).toMatchObject({
      code: 'TRIAGE_ERR_CONFLICT',
      message: expect.stringMatching(/already used for files added to incident/),
      details: { incidentId: id },
    });
  });

  it('forgets the upload ids of a deleted incident: a retry makes it again', async () => {
    const files = sampleFiles('restart-stale-session');
    const first = await post('/api/incidents', files, 'retry-test-0005').done;
    expect((await app.inject({ method: 'DELETE', url: `/api/incidents/${first.body.id}`, headers: { 'x-requested-with': 'mcp-triage' } })).statusCode).toBe(204);
    const again = await post('/api/incidents', files, 'retry-test-0005').done;
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(first.body.id);
    expect(again.headers['x-upload-replayed']).toBeUndefined();
  });
});

describe('a client that goes away before the commit calls the upload off', () => {
  it('leaves no incident and a consistent database when it hangs up during the ingest; a retry then stores it once', async () => {
    const before = (await incidents()).length;
    const sent = post('/api/incidents', [{ name: 'client.log', data: bigLog(2) }], 'abort-test-0001');
    sent.done.catch(() => undefined);
    // Hang up once the server reads the files (pass 1 or 2: before the commit, which ends pass 2).
    await until(async () => ['scan', 'parse'].includes((await progress('abort-test-0001'))?.phase ?? ''));
    sent.destroy();
    await new Promise((r) => setTimeout(r, 200));
    await ctx.store.settled(); // the ingest has rolled back
    expect((await incidents()).length).toBe(before);
    expect(await ctx.store.upload('abort-test-0001')).toBeNull();
    await consistent();
    const retry = await post('/api/incidents', [{ name: 'client.log', data: bigLog(2) }], 'abort-test-0001').done;
    expect(retry.status).toBe(201);
    expect(retry.headers['x-upload-replayed']).toBeUndefined();
    expect((await incidents()).length).toBe(before + 1);
    await consistent();
  });
});

describe('the upload lines', () => {
  it('lets a small upload through while a large one ingests', async () => {
    let largeDone = false;
    const large = post('/api/incidents', [{ name: 'client.log', data: bigLog(3) }], 'lines-test-0001');
    large.done.then(
      () => (largeDone = true),
      () => undefined,
    );
    await until(async () => ['scan', 'parse'].includes((await progress('lines-test-0001'))?.phase ?? ''));
    const small = await post('/api/incidents', sampleFiles('restart-stale-session'), 'lines-test-0002').done;
    expect(small.status).toBe(201);
    expect(largeDone).toBe(false);
    expect((await large.done).status).toBe(201);
  });

  it('says where a waiting upload stands, moves it up when one ahead leaves, and stores nothing of one that left', async () => {
    const before = (await incidents()).length;
    const tiny = (n: number) => [{ name: 'client.log', data: bigLog(10 + n, 8_000) }]; // 1.2 MB: the large line
    const first = post('/api/incidents', [{ name: 'client.log', data: bigLog(4) }], 'lines-test-0003');
    await until(async () => ['scan', 'parse'].includes((await progress('lines-test-0003'))?.phase ?? ''));
    const second = post('/api/incidents', tiny(1), 'lines-test-0004');
    second.done.catch(() => undefined);
    await until(async () => (await progress('lines-test-0004'))?.phase === 'queued');
    expect((await progress('lines-test-0004'))!.position).toBe(1);
    const third = post('/api/incidents', tiny(2), 'lines-test-0005');
    await until(async () => (await progress('lines-test-0005'))?.phase === 'queued');
    expect((await progress('lines-test-0005'))!.position).toBe(2);
    second.destroy(); // the client of the second goes away while it waits
    await until(async () => (await progress('lines-test-0005'))?.position === 1 || (await progress('lines-test-0005'))?.phase !== 'queued');
    expect((await first.done).status).toBe(201);
    expect((await third.done).status).toBe(201);
    await ctx.store.settled();
    expect((await incidents()).length).toBe(before + 2);
    expect(await ctx.store.upload('lines-test-0004')).toBeNull();
    await consistent();
  });

  it('bounds the uploads held at once: 503 with Retry-After, before the body is read', async () => {
    const tight = await buildApp({ ctx, ingestLimits: { held: 1 } });
    try {
      const m = multipart([{ name: 'client.log', data: bigLog(5) }]);
      const busy = tight.inject({ method: 'POST', url: '/api/incidents', payload: m.payload, headers: m.headers });
      await new Promise((r) => setTimeout(r, 50));
      const s = multipart(sampleFiles('restart-stale-session'));
      const refused = await tight.inject({ method: 'POST', url: '/api/incidents', payload: s.payload, headers: s.headers });
      expect(refused.statusCode).toBe(503);
      expect(refused.json().error).toMatchObject({ code: 'TRIAGE_ERR_OVERLOADED', message: expect.stringMatching(/uploads are being received or ingested/) });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect((await busy).statusCode).toBe(201);
      expect((await tight.inject({ method: 'POST', url: '/api/incidents', payload: s.payload, headers: s.headers })).statusCode).toBe(201);
    } finally {
      await tight.close();
    }
  });
});
