// Hostile inputs built in memory for the hardening tests: multipart bodies, zip and tar.gz
// archives with chosen (bad) entry names and types, gzip bombs. No archive library: the
// formats are written by hand so the tests control every header field.
import { crc32, createGzip, deflateRawSync, gzipSync } from 'node:zlib';

export function multipart(
  files: { name: string; data: string | Buffer; field?: string }[],
  fields: { name: string; value: string }[] = [],
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----mcptriagehardening' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const f of fields) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.name}"\r\n\r\n${f.value}\r\n`));
  for (const f of files) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.field ?? 'files'}"; filename="${f.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    );
    parts.push(Buffer.isBuffer(f.data) ? f.data : Buffer.from(f.data));
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-requested-with': 'mcp-triage' } };
}

export interface ZipEntrySpec {
  name: string;
  data?: Buffer | string;
  /** Unix mode (upper 16 bits of external attributes, made-by Unix); e.g. 0o120777 for a symlink. */
  mode?: number;
  /** Declared uncompressed size (defaults to the real one). */
  declaredSize?: number;
  /** Point this entry's local header at an earlier entry's (overlapping-entry bomb). */
  sameDataAs?: number;
  store?: boolean;
}

/** A zip written by hand: local headers, deflated data, central directory, end record. */
export function makeZip(entries: ZipEntrySpec[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  const meta: { offset: number; comp: number; crc: number; size: number; method: number }[] = [];
  let offset = 0;
  entries.forEach((e, i) => {
    const name = Buffer.from(e.name, 'utf8');
    const raw = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data ?? `line of ${e.name}\n`);
    let m: (typeof meta)[number];
    if (e.sameDataAs !== undefined) {
      m = meta[e.sameDataAs]!;
    } else {
      const method = e.store ? 0 : 8;
      const comp = method === 8 ? deflateRawSync(raw) : raw;
      const lh = Buffer.alloc(30);
      lh.writeUInt32LE(0x04034b50, 0);
      lh.writeUInt16LE(20, 4);
      lh.writeUInt16LE(0x800, 6);
      lh.writeUInt16LE(method, 8);
      lh.writeUInt32LE(crc32(raw), 14);
      lh.writeUInt32LE(comp.length, 18);
      lh.writeUInt32LE(raw.length, 22);
      lh.writeUInt16LE(name.length, 26);
      m = { offset, comp: comp.length, crc: crc32(raw), size: raw.length, method };
      locals.push(lh, name, comp);
      offset += 30 + name.length + comp.length;
    }
    meta[i] = m;
    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0);
    ch.writeUInt16LE((3 << 8) | 20, 4); // made by Unix
    ch.writeUInt16LE(20, 6);
    ch.writeUInt16LE(0x800, 8);
    ch.writeUInt16LE(m.method, 10);
    ch.writeUInt32LE(m.crc, 16);
    ch.writeUInt32LE(m.comp, 20);
    ch.writeUInt32LE(e.declaredSize ?? m.size, 24);
    ch.writeUInt16LE(name.length, 28);
    ch.writeUInt32LE(((e.mode ?? 0o100644) << 16) >>> 0, 38);
    ch.writeUInt32LE(m.offset, 42);
    central.push(ch, name);
  });
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

export interface TarEntrySpec {
  name: string;
  data?: Buffer | string;
  /** '0' file, '1' hard link, '2' symlink, '3' char device, '4' block device, '5' dir, '6' fifo. */
  type?: string;
  linkname?: string;
}

function octal(n: number, len: number): string {
  return n.toString(8).padStart(len - 1, '0') + '\0';
}

/** A ustar archive (uncompressed); gzip it for .tar.gz. */
export function makeTar(entries: TarEntrySpec[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const data = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data ?? (e.type && e.type !== '0' ? '' : `line of ${e.name}\n`));
    const h = Buffer.alloc(512);
    h.write(e.name.slice(0, 100), 0, 'utf8');
    h.write(octal(0o644, 8), 100);
    h.write(octal(0, 8), 108);
    h.write(octal(0, 8), 116);
    h.write(octal(data.length, 12), 124);
    h.write(octal(0, 12), 136);
    h.write('        ', 148);
    h.write(e.type ?? '0', 156);
    if (e.linkname) h.write(e.linkname, 157);
    h.write('ustar\0', 257);
    h.write('00', 263);
    let sum = 0;
    for (const b of h) sum += b;
    h.write(octal(sum, 7) + ' ', 148);
    blocks.push(h, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

export const tarGz = (entries: TarEntrySpec[]) => gzipSync(makeTar(entries));

/**
 * 1 GiB of zeros as gzip, built cheaply: `members` concatenated gzip members of 1 GiB/members
 * each (valid gzip; gunzip reads them all). The last member's ISIZE is small, so a reader that
 * trusted the trailer would inflate everything: only a streaming byte counter stops it.
 */
export function gzipBombMultiMember(totalBytes = 1024 ** 3, members = 64): Buffer {
  const one = gzipSync(Buffer.alloc(totalBytes / members), { level: 9 });
  return Buffer.concat(Array.from({ length: members }, () => one));
}

/** The same 1 GiB of zeros as one gzip member (its ISIZE trailer says 1 GiB); ~4.6 MiB, ~1.5 s. */
export async function gzipBombSingle(totalBytes = 1024 ** 3): Promise<Buffer> {
  const z = createGzip({ level: 1 });
  const out: Buffer[] = [];
  z.on('data', (c: Buffer) => out.push(c));
  const chunk = Buffer.alloc(16 * 1024 ** 2);
  for (let done = 0; done < totalBytes; done += chunk.length) if (!z.write(chunk)) await new Promise((r) => z.once('drain', r));
  z.end();
  await new Promise((r) => z.on('end', r));
  return Buffer.concat(out);
}
