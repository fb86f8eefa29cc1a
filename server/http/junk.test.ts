// Issue #18 through the HTTP API (fastify inject): an upload with nothing that is a log is 415
// (nothing was text) or 422 (text, no log line) in the contract's error shape, and creates nothing;
// a mixed upload is 201 and its analysis lists what was skipped and why.
import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { Analysis } from '../contract/analysis.ts';
import type { Context } from '../incidents.ts';
import { withHttpApp } from '../testing/context.ts';
import { multipart, REPO, sampleFiles, tempWorkspace } from '../testing/helpers.ts';
import { makeZip } from '../hardening/fixtures.ts';

let app: FastifyInstance;
let ctx: Context;
withHttpApp(tempWorkspace(), 'junk.duckdb', {}, (h) => ((app = h.app), (ctx = h.ctx)));

const SAMPLE = join(REPO, 'samples/restart-stale-session');
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(300, 0x11)]);
const ELF = readFileSync(process.execPath).subarray(0, 8192);
const LOG = '2026-11-29 10:00:00,000 ERROR mcp.client: connection refused\n';
const damagedGz = (() => {
  const gz = gzipSync(Buffer.from(LOG.repeat(100)));
  gz.fill(0xaa, 20, 60);
  return gz;
})();
const noise = Buffer.from(Array.from({ length: 6000 }, (_, i) => (i * 197 + 13) & 0xff));
const PROSE = [
  'These logs were collected on Tuesday afternoon, after the assistant stopped answering.',
  'The client was restarted twice before the problem went away, and nobody changed the proxy.',
  'We believe the server was redeployed during the afternoon, but nobody wrote down the time.',
  'The gateway team keeps its own logs for a week, so ask them if anything else is needed.',
  'Thanks for looking into this; the other files in this upload come straight from the hosts.',
].join('\n');

const post = (files: { name: string; data: string | Buffer }[]) => app.inject({ method: 'POST', url: '/api/incidents', ...multipart(files) });

describe('POST /api/incidents with nothing that is a log', () => {
  const cases: [string, string | Buffer, number, string, RegExp][] = [
    ['shot.png', PNG, 415, 'TRIAGE_ERR_UNSUPPORTED_MEDIA', /shot\.png: a PNG image/],
    ['node', ELF, 415, 'TRIAGE_ERR_UNSUPPORTED_MEDIA', /node: an ELF executable/],
    ['random.log', noise, 415, 'TRIAGE_ERR_UNSUPPORTED_MEDIA', /random\.log: binary data/],
    ['trace.log.gz', damagedGz, 415, 'TRIAGE_ERR_UNSUPPORTED_MEDIA', /trace\.log: damaged compressed data/],
    ['bundle.zip', Buffer.from('not a zip at all\n'), 415, 'TRIAGE_ERR_UNSUPPORTED_MEDIA', /bundle\.zip: not a zip file/],
    ['empty.log', '', 422, 'TRIAGE_ERR_NOT_A_LOG', /empty\.log: empty file/],
    ['README.md', readFileSync(join(SAMPLE, 'README.md')), 422, 'TRIAGE_ERR_NOT_A_LOG', /README\.md: a Markdown document/],
    ['notes.txt', PROSE, 422, 'TRIAGE_ERR_NOT_A_LOG', /notes\.txt: prose/],
    ['expected.analysis.json', readFileSync(join(SAMPLE, 'expected.analysis.json')), 422, 'TRIAGE_ERR_NOT_A_LOG', /expected\.analysis\.json: an mcp-triage analysis document/],
  ];
  for (const [name, data, status, code, message] of cases) {
    it(`${name}: ${status} ${code}`, async () => {
      const before = (await ctx.store.listIncidents()).length;
      const r = await post([{ name, data }]);
      expect(r.statusCode, r.body).toBe(status);
      expect(Object.keys(r.json())).toEqual(['error']);
      expect(r.json().error).toEqual({ code, message: expect.stringMatching(message) });
      expect((await ctx.store.listIncidents()).length, 'no incident is created').toBe(before);
    });
  }

  it('several files, binary only: 415; binary and text: 422; the message names each', async () => {
    const bin = await post([
      { name: 'a.png', data: PNG },
      { name: 'b.log', data: ELF },
    ]);
    expect(bin.statusCode).toBe(415);
    expect(bin.json().error.message).toMatch(/^nothing to analyse: none of the 2 files is a log — a\.png: a PNG image; b\.log: an ELF executable/);
    const mixed = await post([
      { name: 'a.png', data: PNG },
      { name: 'README.md', data: readFileSync(join(SAMPLE, 'README.md')) },
    ]);
    expect(mixed.statusCode).toBe(422);
    expect(mixed.json().error.message).toMatch(/a\.png: a PNG image; README\.md: a Markdown document/);
  });
});

describe('a mixed upload', () => {
  let id = '';
  const junk = [
    { name: 'README.md', data: readFileSync(join(SAMPLE, 'README.md')) },
    { name: 'expected.analysis.json', data: readFileSync(join(SAMPLE, 'expected.analysis.json')) },
    { name: 'expected.report.md', data: readFileSync(join(SAMPLE, 'expected.report.md')) },
    { name: 'screenshot.png', data: PNG },
    { name: 'empty.log', data: '' },
    { name: 'old.log.gz', data: damagedGz },
  ];

  it('is 201; the logs are read and the rest listed with why, in the response and the analysis', async () => {
    // Junk first: the incident is still named after its first log, not after the README.
    const r = await post([...junk, ...sampleFiles('restart-stale-session')]);
    expect(r.statusCode, r.body).toBe(201);
    id = r.json().id;
    const listed = ((await app.inject({ method: 'GET', url: '/api/incidents' })).json() as { id: string; name: string; files: number }[]).find((i) => i.id === id)!;
    expect(listed.name).toBe(`${sampleFiles('restart-stale-session')[0]!.name} +${sampleFiles('restart-stale-session').length - 1}`);
    expect(listed.files).toBe(sampleFiles('restart-stale-session').length);
    const reasons = {
      'README.md': 'not-a-log',
      'expected.analysis.json': 'not-a-log',
      'expected.report.md': 'not-a-log',
      'screenshot.png': 'binary',
      'empty.log': 'empty',
      'old.log': 'damaged',
    };
    expect(Object.fromEntries(r.json().skippedFiles.map((s: { file: string; reason: string }) => [s.file, s.reason]))).toEqual(reasons);
    const a = Analysis.parse((await app.inject({ method: 'GET', url: `/api/incidents/${id}/analysis` })).json());
    expect(a.skipped).toEqual(r.json().skippedFiles);
    expect(a.inputs.map((i) => i.file).sort()).toEqual(
      sampleFiles('restart-stale-session')
        .map((f) => f.name)
        .sort(),
    );
    // The junk changes nothing in the diagnosis of the logs.
    expect(a.decision).toBe('reinitialize');
    const inc = (await app.inject({ method: 'GET', url: `/api/incidents/${id}` })).json();
    expect(inc.inputs.map((i: { path: string }) => i.path)).not.toContain('README.md');
  });

  it('POST /files: junk among new files is listed and added to the analysis; junk alone is refused', async () => {
    const more = await app.inject({
      method: 'POST',
      url: `/api/incidents/${id}/files`,
      ...multipart([
        { name: 'extra.log', data: LOG },
        { name: 'photo.png', data: PNG },
      ]),
    });
    expect(more.statusCode, more.body).toBe(200);
    expect(more.json()).toMatchObject({ id, added: 1, skipped: 0, skippedFiles: [{ file: 'photo.png', reason: 'binary', detail: 'a PNG image' }] });
    const a = Analysis.parse((await app.inject({ method: 'GET', url: `/api/incidents/${id}/analysis` })).json());
    expect(a.skipped!.map((s) => s.file)).toEqual(['README.md', 'expected.analysis.json', 'expected.report.md', 'screenshot.png', 'empty.log', 'old.log', 'photo.png']);
    const only = await app.inject({ method: 'POST', url: `/api/incidents/${id}/files`, ...multipart([{ name: 'again.png', data: PNG }]) });
    expect(only.statusCode).toBe(415);
    expect(only.json().error.message).toMatch(/again\.png: a PNG image/);
  });

  it('a zip holding a log and a damaged inner .gz: 201, the inner one named', async () => {
    const zip = makeZip([
      { name: 'logs/client.log', data: readFileSync(join(SAMPLE, 'client.log')) },
      { name: 'logs/old.log.gz', data: damagedGz },
    ]);
    const r = await post([{ name: 'bundle.zip', data: zip }]);
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().skippedFiles).toEqual([expect.objectContaining({ file: 'bundle.zip/logs/old.log', reason: 'damaged' })]);
  });
});
