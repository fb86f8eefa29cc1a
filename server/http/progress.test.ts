// Ingest progress over HTTP: an upload that names itself (X-Upload-Id) can be followed with
// GET /api/uploads/:uploadId/progress while its POST runs; a well-formed id with nothing to report is
// 204 (a poll may overtake its POST), a finished upload keeps its last state for a grace period (then
// 204), a malformed id is 404, and a malformed X-Upload-Id on a POST is refused before anything
// is stored.
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { IngestProgress } from '../contract/progress.ts';
import { ProgressBoard } from './progress.ts';
import { withHttpApp } from '../testing/context.ts';
import { multipart, tempWorkspace } from '../testing/helpers.ts';

let app: FastifyInstance;
withHttpApp(tempWorkspace(), 'progress.duckdb', { maxUploadMb: 32 }, (h) => (app = h.app));

/** A client log big enough that its ingest takes a while (~6 MB). */
function bigLog(): string {
  const out: string[] = [];
  for (let i = 0; i < 40_000; i++) {
    out.push(
      `2026-11-29T08:${String(Math.floor(i / 1000) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000Z DEBUG [mcp-client] POST http://127.0.0.1:8080/mcp rpc=${i} method=tools/call tool=get_order -> 200 (12 ms) x-request-id=${i.toString(16).padStart(32, '0')}`,
    );
  }
  return out.join('\n') + '\n';
}

describe('GET /api/uploads/:uploadId/progress', () => {
  it('follows an ingest from the moment its POST arrives, and keeps its last state a moment after', async () => {
    const uploadId = 'test-upload-0001';
    const body = multipart([
      { name: 'client.log', data: bigLog() },
      { name: 'other.log', data: '2026-11-29 10:00:00,000 INFO mcp.client: other\n' },
    ]);
    let finished = false;
    const post = app
      .inject({ method: 'POST', url: '/api/incidents', payload: body.payload, headers: { ...body.headers, 'x-upload-id': uploadId } })
      .finally(() => (finished = true));
    const seen: IngestProgress[] = [];
    while (!finished) {
      const r = await app.inject({ method: 'GET', url: `/api/uploads/${uploadId}/progress` });
      if (r.statusCode === 200) seen.push(IngestProgress.parse(r.json()));
      else expect(r.statusCode).toBe(204); // the POST has not reached the handler yet
      await new Promise((res) => setTimeout(res, 5));
    }
    const created = await post;
    expect(created.statusCode, created.body).toBe(201);
    expect(seen.length).toBeGreaterThan(0);
    const order = ['receive', 'scan', 'parse', 'analyze'];
    for (let i = 1; i < seen.length; i++) expect(order.indexOf(seen[i]!.phase)).toBeGreaterThanOrEqual(order.indexOf(seen[i - 1]!.phase));
    for (const p of seen) if (p.phase === 'scan' || p.phase === 'parse') expect(p.done!).toBeLessThanOrEqual(p.total!);
    expect(seen.some((p) => p.phase === 'parse' && p.files === 2)).toBe(true);
    // a browser's last poll may land just after the POST ended: it reads the last state, not a 404
    const after = await app.inject({ method: 'GET', url: `/api/uploads/${uploadId}/progress` });
    expect(after.statusCode).toBe(200);
    expect(IngestProgress.parse(after.json()).phase).toBe('analyze');
  });

  it('forgets a finished upload after the grace period', async () => {
    const board = new ProgressBoard(30);
    board.receiving('grace-test-0001');
    expect(board.get('grace-test-0001')?.phase).toBe('receive');
    board.follow('grace-test-0001')!({ phase: 'analyze', file: '', fileIndex: 0, files: 1 });
    board.forget('grace-test-0001');
    expect(board.get('grace-test-0001')?.phase).toBe('analyze');
    await new Promise((r) => setTimeout(r, 80));
    expect(board.get('grace-test-0001')).toBeUndefined();
    const r = await app.inject({ method: 'GET', url: '/api/uploads/grace-test-0001/progress' });
    expect(r.statusCode).toBe(204);
    expect(r.body).toBe('');
  });

  it('refuses a malformed upload id before storing anything', async () => {
    const before = (await app.inject({ method: 'GET', url: '/api/incidents' })).json().length;
    const body = multipart([{ name: 'a.log', data: 'x\n' }]);
    for (const bad of ['short', 'has space in it', 'x'.repeat(65), '../../etc/passwd']) {
      const r = await app.inject({ method: 'POST', url: '/api/incidents', payload: body.payload, headers: { ...body.headers, 'x-upload-id': bad } });
      expect(r.statusCode, bad).toBe(400);
      expect(r.json().error).toMatchObject({ code: 'TRIAGE_ERR_USAGE', message: expect.stringMatching(/X-Upload-Id/) });
    }
    expect((await app.inject({ method: 'GET', url: '/api/incidents' })).json().length).toBe(before);
  });

  it('answers 204 for a well-formed id nobody uploads under (yet), 404 for a malformed one', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/uploads/never-used-0001/progress' })).statusCode).toBe(204);
    for (const id of ['%3Cscript%3E', 'short']) {
      const r = await app.inject({ method: 'GET', url: `/api/uploads/${id}/progress` });
      expect(r.statusCode, id).toBe(404);
      expect(r.json().error).toMatchObject({ code: 'TRIAGE_ERR_NOT_FOUND' });
    }
  });
});
