// What an ingest reads: named byte streams, from paths (files, folders, .gz, .zip, .tar.gz) or
// from uploads. Each entry can be opened more than once (pass 1 collects ids, pass 2 parses).
// Archives are read in place, never extracted to disk: a small zip reader (central directory +
// raw inflate) and a tar reader over gunzip, with caps on entries, total size and ratio, and
// refusal of absolute paths, `..`, links and devices.
import { closeSync, createReadStream, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { constants as zc, createGunzip, createInflateRaw, gunzipSync } from 'node:zlib';
import { pipeline, Readable, Transform, type TransformCallback } from 'node:stream';
import { TriageError } from '../errors.ts';

export interface InputEntry {
  /** Name shown to people and stored: relative to the PATH given (its basename for a single file). */
  name: string;
  size: number;
  open(): AsyncIterable<Buffer>;
}

/**
 * What a folder's or an archive's file must be named to be read (the screen then decides by content): logs and
 * exports as people save them — a process's captured streams (`.stdout`, `.stderr`, `.out`, `.err`), `journalctl`
 * output saved as `.journal` (the binary journal itself is refused by the screen), Serilog's compact JSON as Seq and
 * its file sink name it (`.clef`), and rotated copies
 * (`app.log.1`, `app.log-20261201`, either gzipped).
 */
export const LOG_EXTENSIONS = /\.(log|txt|json|jsonl|ndjson|clef|har|out|err|csv|tsv|stdout|stderr|journal|trace)(?:\.\d{1,3}|-\d{8})?(\.gz)?$|\.gz$/i;

/**
 * One file on disk. A gzip file (by extension, or `gz: true` when the caller sniffed the magic
 * bytes) is inflated streaming with byte counters on both sides: the output may not run ahead
 * of `maxRatio`× the compressed bytes read so far (floor 16 MiB), nor past `maxTotalBytes`,
 * whatever the header or trailer says. A gzip bomb is refused after a few MiB of work.
 */
export function fileEntry(path: string, name: string, opts: { gz?: boolean } = {}): InputEntry {
  const gz = opts.gz ?? (/\.gz$/i.test(path) && !/\.tar\.gz$/i.test(path));
  const size = statSync(path).size;
  const shown = gz ? name.replace(/\.gz$/i, '') : name;
  if (!gz) return { name: shown, size, open: () => createReadStream(path) };
  return { name: shown, size, open: () => inflating(shown, createReadStream(path)) };
}

/** Most bytes a gzip stream of `compressed` bytes may inflate to (small outputs are always fine: bounded work). */
export function gzipLimit(compressed: number): number {
  return Math.min(ARCHIVE_LIMITS.maxTotalBytes, Math.max(ARCHIVE_LIMITS.ratioFloorBytes, compressed * ARCHIVE_LIMITS.maxRatio));
}

function refuseBomb(name: string, limit: number): never {
  throw new TriageError(
    'TRIAGE_ERR_TOO_LARGE',
    `${name}: expands past ${limit} bytes (more than ${ARCHIVE_LIMITS.maxRatio}× its compressed size, or over ${ARCHIVE_LIMITS.maxTotalBytes} bytes); refused as a likely decompression bomb`,
  );
}

/**
 * Inflate a gzip stream with a running ratio cap. Truncated input (a log gzipped while still
 * written, a cut download) yields what it holds; damaged data is a clear 415/exit-1 error, never
 * a hang: streams are joined with pipeline() so an error anywhere reaches the reader.
 */
export function inflating(name: string, src: NodeJS.ReadableStream): AsyncIterable<Buffer> {
  let consumed = 0;
  let produced = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb: TransformCallback) {
      consumed += chunk.length;
      cb(null, chunk);
    },
  });
  const guard = new Transform({
    transform(chunk: Buffer, _enc, cb: TransformCallback) {
      produced += chunk.length;
      const limit = gzipLimit(consumed);
      if (produced > limit) {
        try {
          refuseBomb(name, limit);
        } catch (e) {
          return cb(e as Error);
        }
      }
      cb(null, chunk);
    },
  });
  return readable(name, [src, counter, createGunzip({ finishFlush: zc.Z_SYNC_FLUSH }), guard]);
}

/** Join streams so errors propagate to the reader (a.pipe(b) drops a's errors and b never ends). */
function readable(name: string, streams: NodeJS.ReadableStream[]): AsyncIterable<Buffer> {
  const last = streams.length === 1 ? streams[0]! : (pipeline as unknown as (...a: unknown[]) => NodeJS.ReadableStream)(...streams, () => undefined);
  return (async function* () {
    try {
      for await (const c of last as AsyncIterable<Buffer>) yield c;
    } catch (e) {
      if (e instanceof TriageError) throw e;
      const code = String((e as { code?: unknown }).code ?? '');
      if (code.startsWith('Z_') || code === 'ERR_ZLIB_INITIALIZATION_FAILED') {
        throw new TriageError('TRIAGE_ERR_UNSUPPORTED_MEDIA', `${name}: damaged compressed data (${(e as Error).message}); re-create the file or upload it uncompressed`);
      }
      throw e;
    } finally {
      for (const s of streams) (s as unknown as { destroy?: () => void }).destroy?.();
    }
  })();
}

/**
 * An archive that cannot be opened at all (no zip directory, a damaged tar header, not gzip): not
 * an error of the whole ingest but of this input, which is named and skipped like any other input
 * that is not a log (screen.ts). Refusals for safety (links, `..`, bombs, nesting) stay errors.
 */
export class DamagedInput extends TriageError {
  constructor(message: string) {
    super('TRIAGE_ERR_UNSUPPORTED_MEDIA', message);
  }
}

function damaged(archive: string, msg: string): never {
  throw new DamagedInput(`${archive}: ${msg}`);
}

/** An entry standing for an archive that could not be opened: reading it fails with the damage, and pass 1 names it. */
export function damagedEntry(name: string, size: number, err: DamagedInput): InputEntry {
  return {
    name,
    size,
    open(): AsyncIterable<Buffer> {
      return {
        [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(err) }),
      };
    },
  };
}

/** The entries of an archive on disk, or one damaged entry when it cannot be opened. */
export function archiveEntries(path: string, display: string, list: (path: string, display: string) => InputEntry[]): InputEntry[] {
  try {
    return list(path, display);
  } catch (e) {
    if (e instanceof DamagedInput) return [damagedEntry(display, statSync(path).size, e)];
    throw e;
  }
}

/** Expand CLI paths into entries. Unreadable paths and empty folders are errors that say what to do. */
export function entriesFromPaths(paths: string[]): InputEntry[] {
  if (!paths.length) throw new TriageError('TRIAGE_ERR_USAGE', 'no PATH given; pass log files, folders or archives (see --help)');
  const out: InputEntry[] = [];
  for (const p of paths) {
    if (!existsSync(p)) throw new TriageError('TRIAGE_ERR_INPUT', `${p}: no such file or directory`);
    const st = statSync(p);
    if (st.isDirectory()) {
      const found: InputEntry[] = [];
      walk(p, p, found);
      if (!found.length)
        throw new TriageError(
          'TRIAGE_ERR_EMPTY',
          `${p}: no log files found in this folder (looked for .log .txt .json .jsonl .ndjson .clef .har .out .err .stdout .stderr .journal, rotated copies such as app.log.1, and .gz)`,
        );
      out.push(...found);
    } else if (st.isFile()) {
      if (/\.zip$/i.test(p)) out.push(...archiveEntries(p, basename(p), zipEntries));
      else if (/\.(tar\.gz|tgz)$/i.test(p)) out.push(...archiveEntries(p, basename(p), tarGzEntries));
      else out.push(fileEntry(p, basename(p)));
    } else throw new TriageError('TRIAGE_ERR_INPUT', `${p}: not a regular file or folder`);
  }
  return out;
}

function walk(root: string, dir: string, out: InputEntry[]): void {
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('.')) continue;
    const full = join(dir, name);
    const st = statSync(full);
    if (st.isDirectory()) walk(root, full, out);
    else if (st.isFile() && /\.zip$/i.test(name)) out.push(...archiveEntries(full, relative(root, full), zipEntries));
    else if (st.isFile() && /\.(tar\.gz|tgz)$/i.test(name)) out.push(...archiveEntries(full, relative(root, full), tarGzEntries));
    // Which files of a folder are candidates goes by extension; whether one is a log, by its content (screen.ts).
    else if (st.isFile() && LOG_EXTENSIONS.test(name)) out.push(fileEntry(full, relative(root, full)));
  }
}

// ---------------------------------------------------------------------------------------------
// Archives

export const ARCHIVE_LIMITS = {
  /** Log entries taken from one archive. */
  maxEntries: 2000,
  /** Sum of the uncompressed sizes of the entries taken from one archive. */
  maxTotalBytes: 4 * 1024 ** 3,
  /** Uncompressed / compressed, per zip entry over 1 MiB and per tar.gz archive over 1 MiB. */
  maxRatio: 200,
  /** Output below this is never refused for its ratio (a 2 MiB line of one character gzips to 1 KiB). */
  ratioFloorBytes: 16 * 1024 ** 2,
  /** Folder depth of an entry's path. */
  maxDepth: 32,
  /** Central directory of a zip. */
  maxCentralDirectory: 64 * 1024 ** 2,
};

function refuse(archive: string, msg: string, code: 'TRIAGE_ERR_INPUT' | 'TRIAGE_ERR_TOO_LARGE' = 'TRIAGE_ERR_INPUT'): never {
  throw new TriageError(code, `${archive}: ${msg}`);
}

/** Entry names must be relative, without `..` segments, drive letters or NUL. */
function safeName(archive: string, name: string): string {
  const n = name.replace(/\\/g, '/');
  if (n.startsWith('/') || /^[A-Za-z]:/.test(n) || n.includes('\0')) refuse(archive, `entry "${name}" has an absolute path; archives may only hold relative paths`);
  if (n.split('/').some((seg) => seg === '..')) refuse(archive, `entry "${name}" climbs out of the archive with ".."; refused`);
  if (n.split('/').length > ARCHIVE_LIMITS.maxDepth)
    refuse(archive, `entry "${name.slice(0, 200)}" is nested more than ${ARCHIVE_LIMITS.maxDepth} folders deep; refused`, 'TRIAGE_ERR_TOO_LARGE');
  return n.replace(/^(\.\/)+/, '');
}

/** Fails a stream past an inflation cap (ratio or total), with the decompression-bomb message. */
function capGuard(limit: number, what: string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb: TransformCallback) {
      seen += chunk.length;
      if (seen > limit) {
        try {
          refuseBomb(what, limit);
        } catch (e) {
          cb(e as Error);
        }
      } else cb(null, chunk);
    },
  });
}

/** Counts bytes through a stream and fails it past a limit (the declared size or the ratio cap). */
function byteGuard(limit: number, what: string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb: TransformCallback) {
      seen += chunk.length;
      if (seen > limit) cb(new TriageError('TRIAGE_ERR_TOO_LARGE', `${what}: more data than declared or allowed (${limit} bytes); refused`));
      else cb(null, chunk);
    },
  });
}

/** Archives inside archives are not opened (no nesting): say so rather than skip them silently. */
const NESTED_ARCHIVE = /\.(zip|tar|tgz|tar\.gz|7z|rar|jar)$/i;

function wanted(name: string, archive?: string): boolean {
  const base = name.split('/').pop() ?? '';
  if (archive && NESTED_ARCHIVE.test(base) && !base.startsWith('.') && !name.split('/').includes('__MACOSX')) {
    refuse(archive, `entry "${name.slice(0, 200)}" is an archive inside the archive; nested archives are not read — extract it and upload its files`);
  }
  return !base.startsWith('.') && !name.split('/').some((s) => s === '__MACOSX') && LOG_EXTENSIONS.test(base);
}

function readAt(fd: number, pos: number, len: number): Buffer {
  const b = Buffer.alloc(len);
  let got = 0;
  while (got < len) {
    const n = readSync(fd, b, got, len - got, pos + got);
    if (n === 0) break;
    got += n;
  }
  return got === len ? b : b.subarray(0, got);
}

/** Zip: read the central directory, then inflate each wanted entry on demand from its local header. */
export function zipEntries(path: string, display: string): InputEntry[] {
  const size = statSync(path).size;
  const fd = openSync(path, 'r');
  try {
    const tailLen = Math.min(size, 22 + 65535);
    const tail = readAt(fd, size - tailLen, tailLen);
    let eocd = -1;
    for (let i = tail.length - 22; i >= 0; i--)
      if (tail.readUInt32LE(i) === 0x06054b50) {
        eocd = i;
        break;
      }
    if (eocd < 0) damaged(display, 'not a zip file (no end of central directory); re-create the archive or pass the files');
    const count = tail.readUInt16LE(eocd + 10);
    const cdSize = tail.readUInt32LE(eocd + 12);
    const cdOffset = tail.readUInt32LE(eocd + 16);
    if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) refuse(display, 'ZIP64 archives are not supported; use .tar.gz or pass the folder');
    if (cdSize > ARCHIVE_LIMITS.maxCentralDirectory || cdOffset + cdSize > size) damaged(display, 'central directory is damaged or too large; re-create the archive');
    const cd = readAt(fd, cdOffset, cdSize);
    const out: InputEntry[] = [];
    let total = 0;
    let p = 0;
    for (let i = 0; i < count; i++) {
      if (p + 46 > cd.length || cd.readUInt32LE(p) !== 0x02014b50) damaged(display, 'central directory is damaged; re-create the archive');
      const flags = cd.readUInt16LE(p + 8);
      const method = cd.readUInt16LE(p + 10);
      const comp = cd.readUInt32LE(p + 20);
      const uncomp = cd.readUInt32LE(p + 24);
      const nameLen = cd.readUInt16LE(p + 28);
      const extraLen = cd.readUInt16LE(p + 30);
      const commentLen = cd.readUInt16LE(p + 32);
      const madeBy = cd.readUInt16LE(p + 4) >> 8;
      const mode = cd.readUInt32LE(p + 38) >>> 16;
      const local = cd.readUInt32LE(p + 42);
      const rawName = cd.subarray(p + 46, p + 46 + nameLen).toString(flags & 0x800 ? 'utf8' : 'latin1');
      p += 46 + nameLen + extraLen + commentLen;
      const name = safeName(display, rawName);
      if (name.endsWith('/')) continue;
      const type = mode & 0o170000;
      if (madeBy === 3 && type !== 0 && type !== 0o100000) refuse(display, `entry "${rawName}" is a link or device; archives may only hold regular files`);
      if (!wanted(name, display)) continue;
      if (flags & 1) refuse(display, `entry "${rawName}" is encrypted; remove the password`);
      if (method !== 0 && method !== 8) refuse(display, `entry "${rawName}" uses compression method ${method}; only stored and deflate are read`);
      if (uncomp > 1024 ** 2 && uncomp / Math.max(1, comp) > ARCHIVE_LIMITS.maxRatio)
        refuse(display, `entry "${rawName}" expands ${Math.round(uncomp / Math.max(1, comp))}×; refused as a likely zip bomb`, 'TRIAGE_ERR_TOO_LARGE');
      total += uncomp;
      if (total > ARCHIVE_LIMITS.maxTotalBytes) refuse(display, `more than ${ARCHIVE_LIMITS.maxTotalBytes} bytes uncompressed; split the upload`, 'TRIAGE_ERR_TOO_LARGE');
      if (out.length >= ARCHIVE_LIMITS.maxEntries) refuse(display, `more than ${ARCHIVE_LIMITS.maxEntries} log files; split the upload`, 'TRIAGE_ERR_TOO_LARGE');
      const lh = readAt(fd, local, 30);
      if (lh.length < 30 || lh.readUInt32LE(0) !== 0x04034b50) damaged(display, `entry "${rawName.slice(0, 200)}": local header is damaged; re-create the archive`);
      const dataStart = local + 30 + lh.readUInt16LE(26) + lh.readUInt16LE(28);
      const gz = /\.gz$/i.test(name);
      const shown = `${display}/${gz ? name.replace(/\.gz$/i, '') : name}`;
      out.push({
        name: shown,
        size: uncomp,
        open() {
          const raw: NodeJS.ReadableStream = comp === 0 ? Readable.from([]) : createReadStream(path, { start: dataStart, end: dataStart + comp - 1 });
          const chain: NodeJS.ReadableStream[] = [raw];
          if (method === 8) chain.push(createInflateRaw({ finishFlush: zc.Z_SYNC_FLUSH }));
          chain.push(byteGuard(uncomp, shown));
          if (gz) chain.push(createGunzip({ finishFlush: zc.Z_SYNC_FLUSH }), capGuard(gzipLimit(uncomp), shown));
          return readable(shown, chain);
        },
      });
    }
    // Entries may share compressed bytes (overlapping-entry bombs): cap the whole archive's ratio too.
    if (total > Math.max(1024 ** 2, size * ARCHIVE_LIMITS.maxRatio))
      refuse(display, `its entries expand ${Math.round(total / Math.max(1, size))}× the archive's size; refused as a likely zip bomb`, 'TRIAGE_ERR_TOO_LARGE');
    return out;
  } finally {
    closeSync(fd);
  }
}

interface TarMember {
  name: string;
  size: number;
  /** Offset of the member's data in the uncompressed stream. */
  offset: number;
}

/**
 * Walks tar headers in an uncompressed byte stream fed chunk by chunk; data is skipped, never kept.
 * Handles ustar prefixes, GNU long names (L) and pax `path=` records.
 */
class TarWalker {
  private buf: Buffer = Buffer.alloc(0);
  private pos = 0; // uncompressed offset of buf[0]
  private skip = 0;
  private longName: string | null = null;
  private pending: { type: string; size: number } | null = null;
  private collected: Buffer[] = [];
  done = false;
  readonly members: TarMember[] = [];
  constructor(private readonly archive: string) {}

  push(chunk: Buffer): void {
    let data = chunk;
    while (data.length && !this.done) {
      if (this.skip) {
        const n = Math.min(this.skip, data.length);
        if (this.pending) this.collected.push(data.subarray(0, n));
        this.skip -= n;
        this.pos += n;
        data = data.subarray(n);
        if (!this.skip && this.pending) this.finishMeta();
        continue;
      }
      this.buf = this.buf.length ? Buffer.concat([this.buf, data]) : data;
      data = Buffer.alloc(0);
      while (this.buf.length >= 512 && !this.skip && !this.done) {
        const h = this.buf.subarray(0, 512);
        this.buf = this.buf.subarray(512);
        this.pos += 512;
        this.header(h);
      }
      if (this.skip && this.buf.length) {
        data = this.buf;
        this.buf = Buffer.alloc(0);
      }
    }
  }

  private header(h: Buffer): void {
    if (h.every((b) => b === 0)) {
      this.done = true;
      return;
    }
    const str = (a: number, b: number) =>
      h
        .subarray(a, b)
        .toString('utf8')
        .replace(/\0[\s\S]*$/, '');
    const size = parseInt(str(124, 136).trim() || '0', 8);
    if (!Number.isFinite(size) || size < 0) damaged(this.archive, 'damaged tar header; re-create the archive');
    const type = str(156, 157) || '0';
    const prefix = h.subarray(257, 263).toString('latin1').startsWith('ustar') ? str(345, 500) : '';
    let name = this.longName ?? (prefix ? `${prefix}/${str(0, 100)}` : str(0, 100));
    const padded = Math.ceil(size / 512) * 512;
    if (type === 'L' || type === 'x') {
      if (size > 1024 * 1024) refuse(this.archive, 'oversized tar metadata record');
      this.pending = { type, size };
      this.collected = [];
      this.skip = padded;
      if (!padded) this.finishMeta();
      return;
    }
    this.longName = null;
    if (type === 'g') {
      this.skip = padded;
      return;
    }
    if (type === '5') {
      this.skip = padded;
      return;
    }
    name = safeName(this.archive, name);
    if (type !== '0' && type !== '7')
      refuse(this.archive, `entry "${name}" is a ${type === '1' ? 'hard link' : type === '2' ? 'symbolic link' : 'device or special file'}; archives may only hold regular files`);
    if (wanted(name, this.archive)) {
      if (this.members.length >= ARCHIVE_LIMITS.maxEntries) refuse(this.archive, `more than ${ARCHIVE_LIMITS.maxEntries} log files; split the upload`, 'TRIAGE_ERR_TOO_LARGE');
      this.members.push({ name, size, offset: this.pos });
    }
    this.skip = padded;
  }

  private finishMeta(): void {
    const p = this.pending!;
    const text = Buffer.concat(this.collected).subarray(0, p.size).toString('utf8');
    this.pending = null;
    this.collected = [];
    if (p.type === 'L') this.longName = text.replace(/\0[\s\S]*$/, '');
    else {
      const m = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(text);
      if (m) this.longName = m[1]!;
    }
  }
}

/**
 * Synchronous chunked gunzip for listing (entriesFromPaths is synchronous): Node's zlib handle
 * processes one chunk at a time (what gunzipSync does internally), so memory stays at one chunk's
 * output. Falls back to gunzipSync with an output cap if that internal ever disappears.
 */
function* gunzipChunksSync(path: string, display: string, limit: number): Generator<Buffer> {
  const z = createGunzip() as unknown as { _processChunk?: (b: Buffer, flush: number) => Buffer | Buffer[] | null; close(): void };
  const fd = openSync(path, 'r');
  try {
    if (typeof z._processChunk !== 'function') {
      const all = readAt(fd, 0, statSync(path).size);
      yield gunzipSync(all, { maxOutputLength: limit });
      return;
    }
    const b = Buffer.alloc(1024 * 1024);
    let pos = 0;
    let out = 0;
    for (;;) {
      const n = readSync(fd, b, 0, b.length, pos);
      if (n === 0) break;
      pos += n;
      const r = z._processChunk(Buffer.from(b.subarray(0, n)), zc.Z_SYNC_FLUSH);
      const bufs = r === null ? [] : Array.isArray(r) ? r : [r];
      for (const x of bufs) {
        out += x.length;
        if (out > limit) refuse(display, `expands past ${limit} bytes (ratio or total cap); refused`, 'TRIAGE_ERR_TOO_LARGE');
        yield x;
      }
    }
  } catch (e) {
    if (e instanceof TriageError) throw e;
    damaged(display, `not a readable gzip stream (${(e as Error).message}); re-create the archive`);
  } finally {
    closeSync(fd);
    z.close();
  }
}

export function tarGzEntries(path: string, display: string): InputEntry[] {
  const compressed = statSync(path).size;
  const limit = Math.min(ARCHIVE_LIMITS.maxTotalBytes, Math.max(1024 ** 2, compressed * ARCHIVE_LIMITS.maxRatio));
  const walker = new TarWalker(display);
  for (const chunk of gunzipChunksSync(path, display, limit)) {
    walker.push(chunk);
    if (walker.done) break;
  }
  return walker.members.map((m) => {
    const gz = /\.gz$/i.test(m.name);
    const shown = `${display}/${gz ? m.name.replace(/\.gz$/i, '') : m.name}`;
    return {
      name: shown,
      size: m.size,
      async *open() {
        // Re-read the archive up to this member and yield only its bytes; stop at its end.
        const src = createReadStream(path);
        const gunzip = readable(display, [src, createGunzip({ finishFlush: zc.Z_SYNC_FLUSH })]);
        let at = 0;
        let left = m.size;
        const inner = gz ? createGunzip() : null;
        const cap = Math.max(m.size, 1) * ARCHIVE_LIMITS.maxRatio;
        let inflated = 0;
        const emit = async function* (piece: Buffer): AsyncGenerator<Buffer> {
          if (!inner) {
            yield piece;
            return;
          }
          // Inner gzip: inflate synchronously per piece (bounded by the piece's output).
          const r = (inner as unknown as { _processChunk: (b: Buffer, f: number) => Buffer | Buffer[] | null })._processChunk(piece, zc.Z_SYNC_FLUSH);
          for (const x of r === null ? [] : Array.isArray(r) ? r : [r]) {
            inflated += x.length;
            if (inflated > cap) refuse(shown, `expands past ${cap} bytes; refused as a likely gzip bomb`, 'TRIAGE_ERR_TOO_LARGE');
            yield x;
          }
        };
        try {
          for await (const c of gunzip as AsyncIterable<Buffer>) {
            const end = at + c.length;
            if (end > m.offset && left > 0) {
              const from = Math.max(0, m.offset - at);
              const piece = c.subarray(from, Math.min(c.length, from + left));
              left -= piece.length;
              yield* emit(piece);
            }
            at = end;
            if (left <= 0) break;
          }
        } finally {
          src.destroy();
          inner?.close();
        }
      },
    };
  });
}
