// The same limits from the command line: exit 1 with a message naming the file and the limit.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../cli/main.ts';
import { tempWorkspace } from '../testing/helpers.ts';
import { gzipBombMultiMember, makeZip, tarGz } from './fixtures.ts';

const ws = tempWorkspace();
afterAll(() => ws.cleanup());

async function analyze(path: string): Promise<{ code: number; err: string }> {
  const err: string[] = [];
  const io = { stdout: { write: () => true }, stderr: { write: (s: string) => err.push(s) }, stdin: process.stdin, cwd: ws.dir, env: ws.env } as never;
  const code = await main(['analyze', path, '--key-file', ws.keyFile], io);
  return { code, err: err.join('') };
}

describe('analyze refuses hostile inputs with exit 1 and a clear message', () => {
  it('a gzip bomb', async () => {
    const p = join(ws.dir, 'zeros.log.gz');
    writeFileSync(p, gzipBombMultiMember());
    const r = await analyze(p);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/zeros\.log: expands past \d+ bytes.*decompression bomb/);
  });

  it('zip-slip, links and nested archives', async () => {
    const cases: [string, Buffer, RegExp][] = [
      ['slip.zip', makeZip([{ name: '../../x.log' }]), /climbs out/],
      ['link.zip', makeZip([{ name: 'l.log', mode: 0o120777 }]), /link or device/],
      ['nest.tar.gz', tarGz([{ name: 'a.zip', data: 'PK' }]), /nested archives/],
      ['sym.tar.gz', tarGz([{ name: 's.log', type: '2', linkname: '/etc/shadow' }]), /symbolic link/],
    ];
    for (const [name, data, msg] of cases) {
      const p = join(ws.dir, name);
      writeFileSync(p, data);
      const r = await analyze(p);
      expect(r.code, name).toBe(1);
      expect(r.err, name).toMatch(msg);
    }
  });
});
