// Upload limits, decompression bombs and hostile archives through the HTTP API (inject):
// each limit answers 413 with a message that names it, unreadable things 415, and nothing
// is left behind in the upload folder.
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openContext, type Context } from '../incidents.ts';
import { buildApp } from '../http/app.ts';
import { sweepUploads, UPLOAD_LIMITS } from '../http/upload.ts';
import { tempWorkspace } from '../testing/helpers.ts';
import { gzipBombMultiMember, gzipBombSingle, makeZip, multipart, tarGz } from './fixtures.ts';

const ws = tempWorkspace();
const uploadDir = join(ws.dir, 'uploads');
let ctx: Context;
let app: FastifyInstance;

beforeAll(async () => {
  ctx = await openContext({ env: ws.env, db: join(ws.dir, 'upload.duckdb'), keyFile: ws.keyFile });
  app = await buildApp({ ctx, maxUploadMb: 8, uploadDir });
});
afterAll(async () => {
  await app.close();
  await ctx.store.close();
  ws.cleanup();
});
// Every request, refused or not, deletes its temp folder.
afterEach(() => {
  expect(readdirSync(uploadDir)).toEqual([]);
});

const post = (files: Parameters<typeof multipart>[0], fields?: Parameters<typeof multipart>[1]) =>
  app.inject({ method: 'POST', url: '/api/incidents', ...multipart(files, fields) });
const LOG = '2026-07-28 10:00:00,000 INFO mcp.client: hello\n';

describe('size and count limits answer 413 with the limit named', () => {
  it('one file over --max-upload-mb', async () => {
    const r = await post([{ name: 'big.log', data: Buffer.alloc(9 * 1024 ** 2, 97) }]);
    expect(r.statusCode).toBe(413);
    expect(r.json().error).toMatchObject({ code: 'TRIAGE_ERR_TOO_LARGE' });
    expect(r.json().error.message).toMatch(/8 MiB.*--max-upload-mb/);
  });

  it('several files each under the limit, together over it', async () => {
    const r = await post([0, 1, 2].map((i) => ({ name: `p${i}.log`, data: Buffer.alloc(3 * 1024 ** 2, 97) })));
    expect(r.statusCode).toBe(413);
    expect(r.json().error.message).toMatch(/all files together/);
  });

  it(`more than ${UPLOAD_LIMITS.files} files`, async () => {
    const r = await post(Array.from({ length: UPLOAD_LIMITS.files + 1 }, (_, i) => ({ name: `f${i}.log`, data: LOG })));
    expect(r.statusCode).toBe(413);
    expect(r.json().error.message).toMatch(new RegExp(`more than ${UPLOAD_LIMITS.files} files`));
  });

  it(`more than ${UPLOAD_LIMITS.fields} form fields`, async () => {
    const fields = Array.from({ length: UPLOAD_LIMITS.fields + 1 }, (_, i) => ({ name: `k${i}`, value: 'v' }));
    const r = await post([{ name: 'a.log', data: LOG }], fields);
    expect(r.statusCode).toBe(413);
    expect(r.json().error.message).toMatch(/form fields/);
  });

  it('an over-long line is cut and counted, never stored whole', async () => {
    const long = 'x'.repeat(3 * 1024 ** 2);
    const r = await post([{ name: 'long.log', data: `${LOG}${long}\n${LOG}` }]);
    expect(r.statusCode, r.body).toBe(201);
    const { id } = r.json();
    const inc = (await app.inject({ method: 'GET', url: `/api/incidents/${id}` })).json();
    expect(inc.inputs[0]).toMatchObject({ lines: 3, truncatedLines: 1 });
    const rows = await ctx.store.query<{ n: number }>('SELECT max(length(text))::INTEGER AS n FROM events WHERE incident_id = $id', { id });
    expect(rows[0]!.n).toBeLessThanOrEqual(1024 * 1024 + 200);
  });

  it('not multipart → 415; no file parts → 400; malformed multipart → 400', async () => {
    expect(
      (await app.inject({ method: 'POST', url: '/api/incidents', payload: 'x', headers: { 'content-type': 'text/plain', 'x-requested-with': 'mcp-triage' } })).statusCode,
    ).toBe(415);
    expect((await post([], [{ name: 'a', value: 'b' }])).statusCode).toBe(400);
    const bad = await app.inject({
      method: 'POST',
      url: '/api/incidents',
      payload: '--x\r\nContent-Disposition: form-data; name="f"; filename="a.log"\r\n\r\nabc',
      headers: { 'content-type': 'multipart/form-data; boundary=x', 'x-requested-with': 'mcp-triage' },
    });
    expect([400, 413]).toContain(bad.statusCode);
    expect(bad.json().error.message).toBeTruthy();
  });
});

describe('gzip bombs are refused fast, streaming, and the server stays up', () => {
  it('1 GiB of zeros in one member: 413 after a few MiB of inflation', async () => {
    const bomb = await gzipBombSingle();
    const r = await post([{ name: 'zeros.log.gz', data: bomb }]);
    expect(r.statusCode).toBe(413);
    expect(r.json().error.message).toMatch(/decompression bomb/);
  });

  it('1 GiB of zeros in 64 members (trailer lies): the byte counter stops it; memory stays bounded', async () => {
    const bomb = gzipBombMultiMember();
    expect(bomb.length).toBeLessThan(2 * 1024 ** 2);
    const before = process.memoryUsage().rss;
    let peak = before;
    const t = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const started = Date.now();
    try {
      // Named .log: the gzip is found by its magic bytes, not its name.
      const r = await post([{ name: 'renamed.log', data: bomb }]);
      expect(r.statusCode).toBe(413);
      expect(r.json().error.message).toMatch(/renamed\.log: expands past \d+ bytes.*decompression bomb/);
    } finally {
      clearInterval(t);
    }
    // Bounded work: at most 200× the compressed size is inflated (never 1 GiB), well within a minute.
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(peak - before).toBeLessThan(512 * 1024 ** 2);
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect((await post([{ name: 'after.log', data: LOG }])).statusCode).toBe(201);
    expect((await ctx.store.listIncidents()).some((i) => i.name === 'renamed.log')).toBe(false);
  });

  it('a damaged gzip is a 415, a truncated one keeps what it holds', async () => {
    const gz = gzipSync(Buffer.from(LOG.repeat(200)));
    const damaged = Buffer.from(gz);
    damaged.fill(0xaa, 20, 60);
    const r1 = await post([{ name: 'damaged.log.gz', data: damaged }]);
    expect(r1.statusCode).toBe(415);
    expect(r1.json().error.message).toMatch(/damaged compressed data/);
    const r2 = await post([{ name: 'cut.log.gz', data: gz.subarray(0, gz.length - 12) }]);
    expect(r2.statusCode, r2.body).toBe(201);
  });
});

describe('hostile archives', () => {
  const refused = async (name: string, data: Buffer, status: number, msg: RegExp) => {
    const r = await post([{ name, data }]);
    expect(r.statusCode, `${name}: ${r.body}`).toBe(status);
    expect(r.json().error.message).toMatch(msg);
  };

  it('zip-slip, absolute and drive-letter paths, links and devices are refused (zip)', async () => {
    await refused('slip.zip', makeZip([{ name: 'ok.log' }, { name: '../../evil.log' }]), 415, /climbs out/);
    await refused('slip2.zip', makeZip([{ name: 'logs/../../evil.log' }]), 415, /climbs out/);
    await refused('abs.zip', makeZip([{ name: '/etc/evil.log' }]), 415, /absolute path/);
    await refused('drive.zip', makeZip([{ name: 'C:\\evil.log' }]), 415, /absolute path/);
    await refused('link.zip', makeZip([{ name: 'link.log', data: '/etc/passwd', mode: 0o120777 }]), 415, /link or device/);
    await refused('dev.zip', makeZip([{ name: 'dev.log', mode: 0o020644 }]), 415, /link or device/);
    await refused('nested.zip', makeZip([{ name: 'a.log' }, { name: 'inner.zip', data: makeZip([{ name: 'b.log' }]) }]), 415, /nested archives/);
    await refused('deep.zip', makeZip([{ name: `${'d/'.repeat(40)}x.log` }]), 413, /nested more than 32 folders/);
    expect(existsSync(join(ws.dir, 'evil.log'))).toBe(false);
    expect(existsSync(join(uploadDir, '..', '..', 'evil.log'))).toBe(false);
  });

  it('zip bombs: a declared ratio, and overlapping entries sharing one compressed kernel', async () => {
    await refused('ratio.zip', makeZip([{ name: 'z.log', data: Buffer.alloc(64 * 1024 ** 2) }]), 413, /zip bomb/);
    const kernel = Buffer.alloc(900 * 1024, 10); // newlines: 900 KiB deflates to ~1 KiB (under the per-entry floor)
    const overlapping = makeZip([{ name: 'k0.log', data: kernel }, ...Array.from({ length: 400 }, (_, i) => ({ name: `k${i + 1}.log`, sameDataAs: 0 }))]);
    await refused('overlap.zip', overlapping, 413, /zip bomb/);
    // A declared size smaller than the data: the byte counter refuses the surplus.
    await refused('liar.zip', makeZip([{ name: 'l.log', data: LOG.repeat(100), declaredSize: 10 }]), 413, /more data than declared/);
  });

  it('tar.gz: .., absolute, symlink, hard link, device and fifo entries are refused', async () => {
    await refused('slip.tar.gz', tarGz([{ name: 'ok.log' }, { name: '../evil.log' }]), 415, /climbs out/);
    await refused('abs.tgz', tarGz([{ name: '/tmp/evil.log' }]), 415, /absolute path/);
    await refused('sym.tar.gz', tarGz([{ name: 'a.log', type: '2', linkname: '/etc/passwd' }]), 415, /symbolic link/);
    await refused('hard.tar.gz', tarGz([{ name: 'a.log', type: '1', linkname: '/etc/passwd' }]), 415, /hard link/);
    await refused('dev.tar.gz', tarGz([{ name: 'a.log', type: '3' }]), 415, /device/);
    await refused('fifo.tar.gz', tarGz([{ name: 'a.log', type: '6' }]), 415, /device or special/);
    await refused('nested.tar.gz', tarGz([{ name: 'inner.tar.gz', data: tarGz([{ name: 'x.log' }]) }]), 415, /nested archives/);
    await refused('bomb.tar.gz', tarGz([{ name: 'z.log', data: Buffer.alloc(300 * 1024 ** 2) }]), 413, /expands past/);
  });

  it('good archives are read in place, entries under the archive name', async () => {
    const r = await post([
      {
        name: 'bundle.zip',
        data: makeZip([
          { name: 'client.log', data: LOG },
          { name: 'sub/server.log', data: LOG.replace('client', 'server') },
          { name: 'notes.bin', data: 'x' },
        ]),
      },
      { name: 'more.tar.gz', data: tarGz([{ name: 'proxy.log', data: LOG.replace('client', 'proxy') }]) },
    ]);
    expect(r.statusCode, r.body).toBe(201);
    const inc = (await app.inject({ method: 'GET', url: `/api/incidents/${r.json().id}` })).json();
    expect(inc.inputs.map((i: { path: string }) => i.path).sort()).toEqual(['bundle.zip/client.log', 'bundle.zip/sub/server.log', 'more.tar.gz/proxy.log']);
  });

  it('an archive without log files, or not an archive at all, is a 415', async () => {
    await refused('empty.zip', makeZip([{ name: 'a.bin' }]), 415, /no log files/);
    await refused('fake.zip', Buffer.from('not a zip at all\n'), 415, /not a zip file/);
    await refused('x.tar', Buffer.alloc(1024), 415, /not read/);
  });

  it('a client file name is a display name only (busboy keeps its last segment), never a path', async () => {
    const r = await post([
      { name: '../../../../tmp/owned.log', data: LOG },
      { name: 'C:\\x\\..\\y.log\u202e', data: LOG.replace('hello', 'other') },
    ]);
    expect(r.statusCode, r.body).toBe(201);
    const inc = (await app.inject({ method: 'GET', url: `/api/incidents/${r.json().id}` })).json();
    expect(inc.inputs.map((i: { path: string }) => i.path)).toEqual(['owned.log', 'y.log']);
  });
});

describe('random binary uploads', () => {
  it('are 201, or refused with a named reason (413, 415 binary or damaged, 422 not a log); never a 500', async () => {
    const magic = fc.constantFrom(Buffer.alloc(0), Buffer.from([0x1f, 0x8b]), Buffer.from([0x1f, 0x8b, 8, 0]), Buffer.from('PK\x03\x04'), Buffer.from('\xff\xfe'));
    await fc.assert(
      fc.asyncProperty(
        magic,
        fc.uint8Array({ minLength: 1, maxLength: 4096 }),
        fc.constantFrom('blob.log', 'blob.gz', 'blob.zip', 'blob.tar.gz', 'blob'),
        async (m, bytes, name) => {
          const data = Buffer.concat([m, Buffer.from(bytes)]);
          const r = await post([{ name, data }]);
          expect([201, 413, 415, 422], `${name}: ${r.body}`).toContain(r.statusCode);
          if (r.statusCode !== 201) expect(r.json().error.message).toBeTruthy();
        },
      ),
      { numRuns: 60, seed: 11 },
    );
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('a random binary file is refused as binary (415), naming it; no incident is created', async () => {
    const bytes = Buffer.from(fc.sample(fc.uint8Array({ minLength: 20000, maxLength: 20000 }), { numRuns: 1, seed: 7 })[0]!);
    const before = (await ctx.store.listIncidents()).length;
    const r = await post([{ name: 'noise.bin', data: bytes }]);
    expect(r.statusCode, r.body).toBe(415);
    expect(r.json().error).toMatchObject({ code: 'TRIAGE_ERR_UNSUPPORTED_MEDIA', message: expect.stringMatching(/noise\.bin: binary data \(\d+% /) });
    expect((await ctx.store.listIncidents()).length).toBe(before);
  });
});

describe('the upload folder', () => {
  it('is private, and folders of dead processes are swept at startup', async () => {
    expect(statSync(uploadDir).mode & 0o777).toBe(0o700);
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    mkdirSync(join(uploadDir, `${dead}-stale`));
    writeFileSync(join(uploadDir, `${dead}-stale`, 'f1'), 'raw secret bytes');
    mkdirSync(join(uploadDir, `${process.pid}-live`));
    expect(sweepUploads(uploadDir)).toBe(1);
    expect(readdirSync(uploadDir)).toEqual([`${process.pid}-live`]);
    const { rmSync } = await import('node:fs');
    rmSync(join(uploadDir, `${process.pid}-live`), { recursive: true });
    const app2 = await buildApp({ ctx, uploadDir });
    await app2.close();
  });

  it('refuses a root that is a symlink or open to others', async () => {
    const real = join(ws.dir, 'real');
    mkdirSync(real);
    // chmod, not mkdir's mode: the umask (077 while a file database is open) would narrow it
    chmodSync(real, 0o755);
    const link = join(ws.dir, 'link');
    symlinkSync(real, link);
    await expect(buildApp({ ctx, uploadDir: link })).rejects.toThrow(/not a private folder/);
    await expect(buildApp({ ctx, uploadDir: real })).rejects.toThrow(/not a private folder/);
  });
});
