// `mcp-triage redact [FILE…|-] [--out-dir DIR] [--key-file FILE]`: the inputs with secrets
// removed and session ids pseudonymised, line for line (same line count, CRLF kept).
// Several files: pass 1 reads all of them first, so an id seen in one file resolves a masked
// id in another; pass 2 streams each file to DIR/<same name>. Both passes stream: a
// multi-GB log is never held in memory (only one line at a time, capped at 1 MiB).
import { closeSync, createReadStream, createWriteStream, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { CliIO, Command } from '../command.ts';
import { TriageError } from '../../errors.ts';
import { collectSessionIds, createLineRedactor, MAX_LINE, SecretLedger, SessionIdBook, type LineRedactor, type MaskedResolution } from '../../triage/redact/index.ts';
import { loadOrCreateKey, resolveWorkspace } from '../../workspace.ts';
import { binaryKind, shownName, SNIFF_BYTES } from '../../ingest/screen.ts';

const HELP = `Usage: mcp-triage redact [FILE…|-] [--out-dir DIR] [--key-file FILE]

Remove secrets (tokens, keys, passwords, cookies, PEM blocks), personal data and MCP
business data (tool arguments and results) from log files, and replace session ids with
stable pseudonyms (sess_…), line for line: the output has the same number of lines.

  FILE…            one or more log files; "-" or nothing reads stdin
  --out-dir DIR    where to write the redacted files (DIR/<same name>); required with
                   several files. With one file or stdin the output goes to stdout.
  --key-file FILE  the pseudonymisation key (default: the workspace key, created on first
                   use), so the same session id gets the same pseudonym in every run.
  -h, --help       this text

Binary input (an image, an executable, a compressed file) is refused with exit 1 and one line on
stderr, before anything is written.

Several files are read twice: first all of them to collect session ids, so a masked id
(abcd1234****) in one file resolves to the full id seen in another; stdin can only
resolve ids already seen earlier in the same stream.`;

interface Args {
  files: string[];
  outDir?: string;
  keyFile?: string;
  help: boolean;
}

function parseArgs(args: string[]): Args {
  const out: Args = { files: [], help: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const takeValue = (name: string): string => {
      const eq = a.indexOf('=');
      if (eq !== -1) return a.slice(eq + 1);
      const v = args[++i];
      if (v === undefined || v === '') throw new TriageError('TRIAGE_ERR_USAGE', `${name} needs a value; see mcp-triage redact --help`);
      return v;
    };
    if (a === '-h' || a === '--help') out.help = true;
    else if (a === '--out-dir' || a.startsWith('--out-dir=')) out.outDir = takeValue('--out-dir');
    else if (a === '--key-file' || a.startsWith('--key-file=')) out.keyFile = takeValue('--key-file');
    else if (a === '--') {
      out.files.push(...args.slice(i + 1));
      break;
    } else if (a.startsWith('-') && a !== '-') throw new TriageError('TRIAGE_ERR_USAGE', `unknown option ${a}; see mcp-triage redact --help`);
    else out.files.push(a);
  }
  return out;
}

/**
 * Split a stream into lines, keeping each line's terminator ("\n", "\r\n" or none for a
 * last line without newline). A line longer than MAX_LINE keeps its head; the rest is only
 * counted, so memory stays bounded whatever the input.
 */
async function* lines(stream: AsyncIterable<Buffer | string>): AsyncGenerator<{ text: string; eol: string; dropped: number }> {
  const dec = new StringDecoder('utf8');
  let buf = '';
  let dropped = 0;
  const push = (s: string) => {
    const room = MAX_LINE + 1 - buf.length; // +1 keeps a trailing \r
    if (room >= s.length) buf += s;
    else {
      if (room > 0) buf += s.slice(0, room);
      dropped += s.length - Math.max(room, 0);
    }
  };
  const emit = (eolLen: number) => {
    let text = buf;
    let eol = '\n';
    if (text.endsWith('\r') && dropped === 0) {
      text = text.slice(0, -1);
      eol = '\r\n';
    }
    const out = { text, eol: eolLen ? eol : '', dropped };
    buf = '';
    dropped = 0;
    return out;
  };
  for await (const chunk of stream) {
    const s = typeof chunk === 'string' ? chunk : dec.write(chunk as Buffer);
    let from = 0;
    let nl: number;
    while ((nl = s.indexOf('\n', from)) !== -1) {
      push(s.slice(from, nl));
      yield emit(1);
      from = nl + 1;
    }
    push(s.slice(from));
  }
  push(dec.end());
  if (buf.length > 0 || dropped > 0) yield emit(0);
}

function write(out: Writable, s: string): Promise<void> | void {
  if (!out.write(s)) return new Promise((res) => out.once('drain', () => res()));
}

async function redactStream(input: AsyncIterable<Buffer | string>, out: Writable, redactor: LineRedactor, book: SessionIdBook): Promise<number> {
  let n = 0;
  for await (const l of lines(input)) {
    collectSessionIds(l.text, book); // stdin: ids become known as the stream goes
    let text: string;
    if (l.dropped > 0) {
      const head = l.text.slice(0, MAX_LINE);
      text = redactor.line(head).text + `[REDACTED:line-truncated ${l.dropped + l.text.length - head.length} chars]`;
    } else text = redactor.line(l.text).text;
    const p = write(out, text + l.eol);
    if (p) await p;
    n++;
  }
  return n;
}

function openInput(path: string): Readable {
  return createReadStream(path);
}

function checkReadable(path: string, shown: string): void {
  let st;
  try {
    st = statSync(path);
  } catch (e) {
    throw new TriageError('TRIAGE_ERR_INPUT', `cannot read ${shown}: ${(e as NodeJS.ErrnoException).code ?? 'error'}; check the path and permissions`);
  }
  if (!st.isFile()) throw new TriageError('TRIAGE_ERR_INPUT', `${shown} is not a regular file; pass log files (folders and archives are for analyze)`);
}

/** Redact reads text: binary input (an image, an executable, a .gz) is refused before anything is written (ingest/screen.ts decides). */
function refuseBinary(shown: string, head: Buffer, complete: boolean): void {
  const kind = binaryKind(head, complete);
  if (kind) throw new TriageError('TRIAGE_ERR_UNSUPPORTED_MEDIA', `${shownName(shown)} is not text: ${kind}; redact reads plain-text logs`);
}

function checkText(path: string, shown: string): void {
  const fd = openSync(path, 'r');
  try {
    const b = Buffer.alloc(SNIFF_BYTES);
    const n = readSync(fd, b, 0, b.length, 0);
    refuseBinary(shown, b.subarray(0, n), n < SNIFF_BYTES);
  } finally {
    closeSync(fd);
  }
}

/** stdin, with its first bytes read ahead and checked to be text; then the whole stream, unchanged. */
async function textStdin(stream: Readable): Promise<AsyncIterable<Buffer | string>> {
  const it = (stream as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]();
  const head: (Buffer | string)[] = [];
  let n = 0;
  let ended = false;
  while (n < SNIFF_BYTES) {
    const r = await it.next();
    if (r.done) {
      ended = true;
      break;
    }
    head.push(r.value);
    n += r.value.length;
  }
  refuseBinary('stdin', Buffer.concat(head.map((c) => (typeof c === 'string' ? Buffer.from(c) : c))), ended);
  return (async function* () {
    yield* head;
    if (ended) return;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      yield r.value;
    }
  })();
}

function summariseMasked(all: MaskedResolution[]): string {
  if (all.length === 0) return '';
  const c = { matched: 0, unresolved: 0, ambiguous: 0 };
  for (const r of all) c[r.status]++;
  return `masked session ids: ${c.matched} matched from a masked prefix/suffix, ${c.unresolved} unresolved, ${c.ambiguous} ambiguous (joined to none)\n`;
}

export const redactCommand: Command = {
  name: 'redact',
  summary: 'remove secrets and pseudonymise session ids in log files, line for line',
  help: HELP,
  async run(args: string[], io: CliIO): Promise<number> {
    const a = parseArgs(args);
    if (a.help) {
      io.stdout.write(HELP + '\n');
      return 0;
    }
    const files = a.files.length ? a.files : ['-'];
    if (files.length > 1 && files.includes('-')) throw new TriageError('TRIAGE_ERR_USAGE', 'stdin ("-") cannot be combined with files; redact files together, or pipe one stream');
    if (files.length > 1 && !a.outDir)
      throw new TriageError('TRIAGE_ERR_USAGE', `${files.length} files need --out-dir DIR (each is written to DIR/<same name>); or redact one file at a time to stdout`);

    const paths = files.map((f) => (f === '-' ? '-' : resolve(io.cwd, f)));
    for (let i = 0; i < files.length; i++) if (paths[i] !== '-') checkReadable(paths[i]!, files[i]!);
    // Every file is checked before any is read or written, so a refusal leaves nothing half done.
    for (let i = 0; i < files.length; i++) if (paths[i] !== '-') checkText(paths[i]!, files[i]!);
    const outDir = a.outDir ? resolve(io.cwd, a.outDir) : undefined;
    if (outDir && files.length > 0 && paths[0] !== '-') {
      const names = new Set<string>();
      for (const p of paths) {
        const name = basename(p);
        if (names.has(name))
          throw new TriageError('TRIAGE_ERR_USAGE', `two inputs are both named ${name}; their outputs would overwrite each other in --out-dir, so rename one or run twice`);
        names.add(name);
        if (resolve(outDir, name) === p) throw new TriageError('TRIAGE_ERR_USAGE', `--out-dir ${a.outDir} would overwrite the input ${name}; choose another directory`);
      }
    }

    const ws = resolveWorkspace({ env: io.env, ...(a.keyFile ? { keyFile: resolve(io.cwd, a.keyFile) } : {}) });
    const key = loadOrCreateKey(ws.keyFile);
    const book = new SessionIdBook();
    const ledger = new SecretLedger();
    const masked: MaskedResolution[] = [];

    if (paths[0] === '-') {
      const redactor = createLineRedactor({ key, ids: book, ledger });
      await redactStream(await textStdin(io.stdin), io.stdout, redactor, book);
      io.stderr.write(summariseMasked(redactor.maskedResolutions()));
      return 0;
    }

    // Pass 1: every file, so ids seen in one resolve masked forms in another.
    for (const p of paths) for await (const l of lines(openInput(p))) collectSessionIds(l.text, book);

    if (!outDir) {
      const redactor = createLineRedactor({ key, ids: book, ledger });
      await redactStream(openInput(paths[0]!), io.stdout, redactor, book);
      io.stderr.write(summariseMasked(redactor.maskedResolutions()));
      return 0;
    }
    try {
      mkdirSync(outDir, { recursive: true });
    } catch (e) {
      throw new TriageError('TRIAGE_ERR_INPUT', `cannot create --out-dir ${a.outDir}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    for (let i = 0; i < paths.length; i++) {
      const target = resolve(outDir, basename(paths[i]!));
      const out = createWriteStream(target);
      const redactor = createLineRedactor({ key, ids: book, ledger });
      const n = await redactStream(openInput(paths[i]!), out, redactor, book);
      await new Promise<void>((res, rej) => out.end((err?: Error | null) => (err ? rej(err) : res())));
      masked.push(...redactor.maskedResolutions());
      io.stderr.write(`redacted ${files[i]} → ${target} (${n} lines)\n`);
    }
    io.stderr.write(summariseMasked(masked));
    return 0;
  },
};

export default redactCommand;
