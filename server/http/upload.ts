// Receiving an upload (redaction.md §5.1–2, §5.8).
//
// Design: multipart file parts are streamed to disk, not buffered in memory. The default upload
// limit is 2 GiB and a zip can only be read with random access, so memory is not an option; the
// temp file is the "unavoidable" case of §5.8 and follows its rules:
//   - one folder per upload, made with mkdtemp inside a private (0700, ours, not a link) root;
//     files 0600, created exclusively, under generated names (f1, f2, …) — never the client's
//     name, which is only a display name, cleaned of separators, `..` and controls;
//   - the folder is deleted when the request ends (success or failure), and folders left by a
//     process that died are swept when the next server starts;
//   - archives are read in place from there (inputs.ts: caps on entries, depth, size and ratio,
//     no links, devices, absolute paths or `..`; entries are never written anywhere);
//   - raw bytes live there only for the duration of the ingest (redaction happens on the way
//     into DuckDB, pipeline.ts).
// Limits: every file part and the sum of all parts ≤ maxBytes (413); at most UPLOAD_LIMITS.files
// files and .parts parts (413); gzip, zip and tar.gz expansion capped by inputs.ts (413); at most
// ARCHIVE_LIMITS.maxEntries log files per upload (413); what cannot be read at all is a 415.
// Whether each file is a log is decided by content in pass 1 (ingest/screen.ts): files that are
// not are skipped and listed; when none is left, 415 (nothing was text) or 422 (no log line).
import type { FastifyRequest } from 'fastify';
import { closeSync, createWriteStream, lstatSync, mkdirSync, openSync, readdirSync, readSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { TriageError } from '../errors.ts';
import { ARCHIVE_LIMITS, archiveEntries, fileEntry, tarGzEntries, zipEntries, type InputEntry } from '../ingest/inputs.ts';

/** Per-upload part counts, registered on @fastify/multipart in app.ts. */
export const UPLOAD_LIMITS = {
  files: 500,
  parts: 1000,
  fields: 50,
  fieldSize: 64 * 1024,
  headerPairs: 200,
};

export interface Upload {
  entries: InputEntry[];
  /** Delete the upload's temp folder; safe to call twice. */
  dispose(): Promise<void>;
}

export interface UploadOptions {
  /** Private root holding one folder per upload in progress. */
  root: string;
  /** Largest upload: each file part and the sum of all parts. */
  maxBytes: number;
}

const mib = (n: number) => `${Math.round((n / 1024 ** 2) * 10) / 10} MiB`;

/** Default root: next to a file database (its folder is private), else in the OS temp dir. */
export function defaultUploadRoot(dbPath: string): string {
  if (dbPath !== ':memory:') return join(dirname(dbPath), '.mcp-triage-uploads');
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  return join(tmpdir(), `mcp-triage-uploads-${uid}`);
}

/** Make the root (0700) and refuse one that is a link, not a folder, or someone else's. */
export function ensureUploadRoot(root: string): void {
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const st = lstatSync(root);
  const uid = typeof process.getuid === 'function' ? process.getuid() : st.uid;
  if (!st.isDirectory() || st.isSymbolicLink() || st.uid !== uid || (st.mode & 0o077) !== 0) {
    throw new TriageError('TRIAGE_ERR_INTERNAL', `upload folder ${root} is not a private folder of this user (mode ${(st.mode & 0o777).toString(8)}); remove it`);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Remove upload folders left by processes that are gone (crash, kill -9). Returns how many. */
export function sweepUploads(root: string): number {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return 0;
  }
  let n = 0;
  for (const name of names) {
    const m = /^(\d+)-/.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || alive(pid)) continue;
    rmSync(join(root, name), { recursive: true, force: true });
    n++;
  }
  return n;
}

/** A display name for a client-supplied file name: never used as a path. */
export function displayName(filename: string | undefined, taken: Set<string>): string {
  let name =
    (filename || 'upload.log')
      .replace(/\\/g, '/')
      .split('/')
      .filter((s) => s && s !== '..' && s !== '.')
      .join('/')
      .replace(/[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '')
      .slice(-200) || 'upload.log';
  for (let i = 2; taken.has(name); i++) name = name.replace(/(-\d+)?(\.[^.]*)?$/, `-${i}$2`);
  taken.add(name);
  return name;
}

function head(path: string, n: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const b = Buffer.alloc(n);
    const got = readSync(fd, b, 0, n, 0);
    return b.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/**
 * What a stored part is: by name first, then by magic bytes (a renamed .gz or .zip still reads).
 * Whether it is a log is decided later, by content, for every entry (server/ingest/screen.ts).
 */
function entriesFor(path: string, name: string): InputEntry[] {
  const magic = head(path, 4);
  const isGz = magic[0] === 0x1f && magic[1] === 0x8b;
  const isZip = magic.length === 4 && magic.readUInt32LE(0) === 0x04034b50;
  try {
    // A damaged archive becomes one entry that pass 1 names as damaged (server/ingest/screen.ts).
    if (/\.(tar\.gz|tgz)$/i.test(name)) return archiveEntries(path, name, tarGzEntries);
    if (/\.zip$/i.test(name) || isZip) return archiveEntries(path, name, zipEntries);
    if (/\.(tar|7z|rar|bz2|xz|zst)$/i.test(name)) {
      throw new TriageError('TRIAGE_ERR_UNSUPPORTED_MEDIA', `${name}: this archive or compression type is not read; use .zip, .tar.gz or .gz, or upload the log files themselves`);
    }
    return [fileEntry(path, name, { gz: isGz })];
  } catch (e) {
    // An archive that cannot be opened at all is unreadable media, not a usage error.
    if (e instanceof TriageError && e.code === 'TRIAGE_ERR_INPUT') throw new TriageError('TRIAGE_ERR_UNSUPPORTED_MEDIA', e.message);
    throw e;
  }
}

/**
 * Read every file part of a multipart upload (any field name) into a private temp folder and
 * return the entries to ingest. The caller must call dispose() when the ingest is done.
 */
export async function receiveUpload(req: FastifyRequest, opts: UploadOptions): Promise<Upload> {
  if (!req.isMultipart()) throw new TriageError('TRIAGE_ERR_UNSUPPORTED_MEDIA', 'send the logs as multipart/form-data (one or more file parts)');
  ensureUploadRoot(opts.root);
  const dir = await mkdtemp(join(opts.root, `${process.pid}-`));
  let disposed = false;
  const dispose = async () => {
    if (disposed) return;
    disposed = true;
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const stored: { path: string; name: string }[] = [];
    const names = new Set<string>();
    let total = 0;
    const tooLarge = () =>
      new TriageError(
        'TRIAGE_ERR_TOO_LARGE',
        `upload too large: over the ${mib(opts.maxBytes)} limit for one upload (all files together); split it, or start the server with a larger serve --max-upload-mb`,
      );
    try {
      for await (const part of req.parts()) {
        if (part.type !== 'file') continue;
        const path = join(dir, `f${stored.length + 1}`);
        const counter = new Transform({
          transform(chunk: Buffer, _e, cb: TransformCallback) {
            total += chunk.length;
            if (total > opts.maxBytes) cb(tooLarge());
            else cb(null, chunk);
          },
        });
        await pipeline(part.file, counter, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
        if (part.file.truncated) throw tooLarge();
        stored.push({ path, name: displayName(part.filename, names) });
      }
    } catch (e) {
      if (e instanceof TriageError) throw e;
      const err = e as { code?: string; statusCode?: number; message?: string };
      if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
      if (err.code === 'FST_FILES_LIMIT')
        throw new TriageError(
          'TRIAGE_ERR_TOO_LARGE',
          `upload too large: more than ${UPLOAD_LIMITS.files} files in one upload; send them in batches (POST /api/incidents/:id/files adds to an incident)`,
        );
      if (err.code === 'FST_PARTS_LIMIT') throw new TriageError('TRIAGE_ERR_TOO_LARGE', `upload too large: more than ${UPLOAD_LIMITS.parts} parts in one multipart upload`);
      if (err.code === 'FST_FIELDS_LIMIT') throw new TriageError('TRIAGE_ERR_TOO_LARGE', `upload too large: more than ${UPLOAD_LIMITS.fields} form fields`);
      if (err.statusCode === 413) throw new TriageError('TRIAGE_ERR_TOO_LARGE', `upload too large: ${err.message}`);
      // busboy's messages are fixed strings about the framing, never file content.
      throw new TriageError('TRIAGE_ERR_USAGE', `malformed multipart upload (${String(err.message ?? e).slice(0, 120)}); send multipart/form-data with file parts`);
    }
    if (!stored.length) throw new TriageError('TRIAGE_ERR_USAGE', 'the upload holds no file parts; attach one or more log files');
    const entries: InputEntry[] = [];
    for (const s of stored) {
      entries.push(...entriesFor(s.path, s.name));
      if (entries.length > ARCHIVE_LIMITS.maxEntries) {
        throw new TriageError('TRIAGE_ERR_TOO_LARGE', `upload too large: more than ${ARCHIVE_LIMITS.maxEntries} log files (archives included); send them in batches`);
      }
    }
    if (!entries.length)
      throw new TriageError('TRIAGE_ERR_UNSUPPORTED_MEDIA', 'no log files in the upload (archives hold none with a log extension: .log .txt .json .jsonl .ndjson .clef .har .gz)');
    return { entries, dispose };
  } catch (e) {
    await dispose();
    throw e;
  }
}
