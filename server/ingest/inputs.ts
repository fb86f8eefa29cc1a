// What an ingest reads: named byte streams, from paths (files, folders, .gz) or from uploads.
// Each entry can be opened more than once (pass 1 collects ids, pass 2 parses).
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { createGunzip } from 'node:zlib';
import { TriageError } from '../errors.ts';

export interface InputEntry {
  /** Name shown to people and stored: relative to the PATH given (its basename for a single file). */
  name: string;
  size: number;
  open(): AsyncIterable<Buffer>;
}

export const LOG_EXTENSIONS = /\.(log|txt|json|jsonl|ndjson|har|out|err|csv)(\.gz)?$|\.gz$/i;

function fileEntry(path: string, name: string): InputEntry {
  const gz = /\.gz$/i.test(path) && !/\.tar\.gz$/i.test(path);
  return {
    name: gz ? name.replace(/\.gz$/i, '') : name,
    size: statSync(path).size,
    open: () => (gz ? createReadStream(path).pipe(createGunzip()) : createReadStream(path)),
  };
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
      if (!found.length) throw new TriageError('TRIAGE_ERR_EMPTY', `${p}: no log files found in this folder (looked for .log .txt .json .jsonl .ndjson .har .gz)`);
      out.push(...found);
    } else if (st.isFile()) {
      if (/\.(zip|tar\.gz|tgz)$/i.test(p)) throw new TriageError('TRIAGE_ERR_INPUT', `${p}: archives (.zip, .tar.gz) are not supported yet; extract it and pass the folder`);
      out.push(fileEntry(p, basename(p)));
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
    else if (st.isFile() && LOG_EXTENSIONS.test(name) && !/^expected\./.test(name)) out.push(fileEntry(full, relative(root, full)));
  }
}

export function entryFromBuffer(name: string, data: Buffer): InputEntry {
  const gz = data[0] === 0x1f && data[1] === 0x8b;
  return {
    name: gz ? name.replace(/\.gz$/i, '') : name,
    size: data.length,
    async *open() {
      if (!gz) {
        yield data;
        return;
      }
      const z = createGunzip();
      z.end(data);
      for await (const c of z) yield c as Buffer;
    },
  };
}
