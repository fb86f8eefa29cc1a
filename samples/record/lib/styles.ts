/**
 * Client-log styles for samples/recorded/: one record interface, fanned out to six real logging setups at once,
 * so every incident carries the same client records in every style.
 *
 *   pino     pino 10 JSON lines (sync destination), child logger per component
 *   winston  winston 3 text through its format pipeline (timestamp, errors, printf) and a sync transport
 *   debug    the `debug` package's namespaced output as it prints to a non-TTY (ISO date, namespace, message)
 *   python   Python's `logging` module in a python3 child (records as JSON lines on its stdin)
 *   console  a Node `Console` (console.log / console.warn / console.error with util.inspect), no timestamps
 *   ide      an IDE output channel (`YYYY-MM-DD HH:MM:SS.mmm [info] …`, like VS Code's LogOutputChannel)
 *
 * Every sink writes synchronously (python: the child reports its file offset after each record), so the
 * byte offset after each record is known and a snapshot can cut all six files at the same record.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, statSync, writeFileSync } from 'node:fs';
import { Console } from 'node:console';
import { Writable } from 'node:stream';
import { formatWithOptions, inspect } from 'node:util';
import { join } from 'node:path';
import pino from 'pino';
import winston from 'winston';
import Transport from 'winston-transport';
import createDebug from 'debug';
import { RECORD_DIR } from './proc.ts';
import type { Level, Log } from './client.ts';

export const STYLES = ['pino', 'winston', 'debug', 'python', 'console', 'ide'] as const;
export type Style = (typeof STYLES)[number];

export type RecLevel = 'debug' | 'info' | 'warn' | 'error';

/** What the host app logs: one record, written in every style. */
export interface ClientRecord {
  /** epoch ms */
  time: number;
  level: RecLevel;
  /** logger / component: `mcp-client` (transport, SDK) or `host-app` */
  logger: string;
  msg: string;
  /** an error object logged with the message (printed the way each library prints errors) */
  err?: unknown;
  /** the conversation, when one host serves several (multi-client incidents) */
  conv?: string;
}

interface Sink {
  style: Style;
  file: string;
  write(r: ClientRecord): void;
  /** flush and stop; returns the file's byte offset after each record */
  close(): Promise<number[]>;
}

const sizeOf = (f: string) => statSync(f).size;

/** a sink whose library writes synchronously into `file`: offsets come from the file size after each record */
abstract class SyncSink implements Sink {
  offsets: number[] = [];
  constructor(
    public style: Style,
    public file: string,
  ) {
    writeFileSync(file, '');
  }
  protected abstract emit(r: ClientRecord): void;
  write(r: ClientRecord): void {
    this.emit(r);
    this.offsets.push(sizeOf(this.file));
  }
  async close(): Promise<number[]> {
    return this.offsets;
  }
}

class PinoSink extends SyncSink {
  private now = 0;
  private root: pino.Logger;
  private children = new Map<string, pino.Logger>();
  constructor(file: string) {
    super('pino', file);
    this.root = pino({ name: 'orders-assistant', level: 'debug', timestamp: () => `,"time":${this.now}` }, pino.destination({ dest: file, sync: true }));
  }
  protected emit(r: ClientRecord): void {
    this.now = r.time;
    const key = `${r.logger}|${r.conv ?? ''}`;
    let l = this.children.get(key);
    if (!l) {
      l = this.root.child(r.conv ? { component: r.logger, conversation: r.conv } : { component: r.logger });
      this.children.set(key, l);
    }
    if (r.err !== undefined) l[r.level]({ err: r.err }, r.msg);
    else l[r.level](r.msg);
  }
}

/** winston transport that appends each formatted line at once (a crash-safe file transport) */
class SyncFileTransport extends Transport {
  constructor(private file: string) {
    super();
  }
  override log(info: Record<string | symbol, unknown>, next: () => void): void {
    appendFileSync(this.file, String(info[Symbol.for('message')]) + '\n');
    next();
  }
}

class WinstonSink extends SyncSink {
  private now = 0;
  private logger: winston.Logger;
  constructor(file: string) {
    super('winston', file);
    const { combine, timestamp, errors, printf } = winston.format;
    this.logger = winston.createLogger({
      level: 'debug',
      format: combine(
        timestamp({ format: () => new Date(this.now).toISOString() }),
        errors({ stack: true }),
        printf((i) => `${i.timestamp} [${i.component}] ${i.level}: ${i.message}${i.stack ? `\n${i.stack}` : ''}`),
      ),
      transports: [new SyncFileTransport(file)],
    });
  }
  protected emit(r: ClientRecord): void {
    this.now = r.time;
    const msg = (r.conv ? `${r.conv}: ` : '') + r.msg;
    // winston's own handling of `logger.error(msg, err)`: the error's message is appended, its stack kept
    if (r.err instanceof Error) this.logger.child({ component: r.logger })[r.level](msg + ':', r.err);
    else if (r.err !== undefined) this.logger.child({ component: r.logger })[r.level](`${msg}: ${inspect(r.err)}`);
    else this.logger.child({ component: r.logger })[r.level](msg);
  }
}

class DebugSink extends SyncSink {
  private fns = new Map<string, createDebug.Debugger>();
  constructor(file: string) {
    super('debug', file);
  }
  protected emit(r: ClientRecord): void {
    // one namespace per component (per conversation for host-app lines), `:warn` / `:error` for those levels
    const ns = `orders-assistant:${r.conv && r.logger === 'host-app' ? r.conv : r.logger}` + (r.level === 'warn' ? ':warn' : r.level === 'error' ? ':error' : '');
    let d = this.fns.get(ns);
    if (!d) {
      d = createDebug(ns);
      d.enabled = true;
      (d as createDebug.Debugger & { useColors: boolean }).useColors = false; // what debug decides when stderr is not a TTY
      const file = this.file;
      d.log = (...args: unknown[]) => appendFileSync(file, formatWithOptions((createDebug as unknown as { inspectOpts: object }).inspectOpts, ...args) + '\n');
      this.fns.set(ns, d);
    }
    if (r.err !== undefined) d('%s %O', r.msg + ':', r.err);
    else d('%s', r.msg);
  }
}

class ConsoleSink extends SyncSink {
  private con: Console;
  constructor(file: string) {
    super('console', file);
    const out = new Writable({
      write(chunk, _enc, cb) {
        appendFileSync(file, chunk);
        cb();
      },
    });
    this.con = new Console({ stdout: out, stderr: out, colorMode: false });
  }
  protected emit(r: ClientRecord): void {
    const head = `[${r.logger}] ${r.conv && r.logger === 'host-app' ? `${r.conv}: ` : ''}${r.msg}`;
    const fn = r.level === 'error' ? this.con.error : r.level === 'warn' ? this.con.warn : r.level === 'debug' ? this.con.debug : this.con.log;
    if (r.err !== undefined) fn.call(this.con, head + ':', r.err);
    else fn.call(this.con, head);
  }
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
/** VS Code LogOutputChannel: local time `YYYY-MM-DD HH:MM:SS.mmm`, level in brackets (the recorder runs with TZ=UTC) */
class IdeSink extends SyncSink {
  constructor(file: string) {
    super('ide', file);
  }
  protected emit(r: ClientRecord): void {
    const d = new Date(r.time);
    const ts = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
    const lvl = r.level === 'warn' ? 'warning' : r.level;
    let text = (r.conv && r.logger === 'host-app' ? `[${r.conv}] ` : '') + r.msg;
    if (r.err !== undefined) text += ': ' + errorText(r.err);
    appendFileSync(this.file, `${ts} [${lvl}] ${text}\n`);
  }
}

/** how an output channel shows an error: its stack, and the code / cause a developer would add */
function errorText(e: unknown): string {
  if (!(e instanceof Error)) return inspect(e);
  const x = e as Error & { code?: unknown; cause?: { code?: string; message?: string } };
  let t = x.stack ?? `${x.name}: ${x.message}`;
  if (x.code !== undefined) t += `\n    (code: ${String(x.code)})`;
  if (x.cause) t += `\n    (cause: ${x.cause.code ?? x.cause.message ?? String(x.cause)})`;
  return t;
}

export const PYTHON_BIN = process.env.PYTHON_BIN ?? '/usr/bin/python3';

class PythonSink implements Sink {
  style: Style = 'python';
  private proc: ChildProcess;
  private out = '';
  constructor(public file: string) {
    writeFileSync(file, '');
    this.proc = spawn(PYTHON_BIN, [join(RECORD_DIR, 'lib', 'pylog.py'), file], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, TZ: 'UTC', PYTHONIOENCODING: 'utf-8' },
    });
    this.proc.stdout!.on('data', (c: Buffer) => (this.out += c.toString()));
  }
  write(r: ClientRecord): void {
    const rec = { time: r.time, level: r.level, logger: r.logger, msg: r.msg, conv: r.conv, exc: r.err === undefined ? undefined : inspect(r.err) };
    this.proc.stdin!.write(JSON.stringify(rec) + '\n');
  }
  async close(): Promise<number[]> {
    const done = new Promise<number | null>((res) => this.proc.once('exit', (c) => res(c)));
    this.proc.stdin!.end();
    const code = await done;
    if (code !== 0) throw new Error(`pylog.py exited with ${code}`);
    return this.out
      .split('\n')
      .filter((l) => l !== '')
      .map(Number);
  }
}

/** The fan-out: one record in, one line (or block) in each style's file. */
export class StyleFanout {
  sinks: Sink[];
  count = 0;
  constructor(dir: string) {
    this.sinks = STYLES.map((s) => {
      const f = join(dir, `client.${s}.log`);
      switch (s) {
        case 'pino':
          return new PinoSink(f);
        case 'winston':
          return new WinstonSink(f);
        case 'debug':
          return new DebugSink(f);
        case 'python':
          return new PythonSink(f);
        case 'console':
          return new ConsoleSink(f);
        case 'ide':
          return new IdeSink(f);
      }
    });
  }
  write(r: ClientRecord): void {
    for (const s of this.sinks) s.write(r);
    this.count++;
  }
  /** stop all sinks; for each style its file and the byte offset after each record */
  async close(): Promise<{ style: Style; file: string; offsets: number[] }[]> {
    const out = [];
    for (const s of this.sinks) out.push({ style: s.style, file: s.file, offsets: await s.close() });
    return out;
  }
}

const LEVEL_OF = { DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;

/** The host app's log for samples/recorded/: same methods as the text ClientLog, every call one record in all styles. */
export class StyledClientLog implements Log {
  constructor(
    public fanout: StyleFanout,
    /** the conversation of a multi-client host (`conv-a`) */
    public conv?: string,
  ) {}
  tagged(prefix: string): StyledClientLog {
    return new StyledClientLog(this.fanout, prefix.replace(/:\s*$/, ''));
  }
  private rec(level: RecLevel, component: string, msg: string, err?: unknown): void {
    this.fanout.write({ time: Date.now(), level, logger: component, msg, err, conv: component === 'host-app' ? this.conv : undefined });
  }
  line(level: Level, component: string, msg: string): void {
    this.rec(LEVEL_OF[level], component, msg);
  }
  debug(msg: string, component = 'mcp-client') {
    this.rec('debug', component, msg);
  }
  info(msg: string, component = 'host-app') {
    this.rec('info', component, msg);
  }
  warn(msg: string, component = 'host-app') {
    this.rec('warn', component, msg);
  }
  error(msg: string, err?: unknown, component = 'host-app') {
    // the text log's header ends with ':' (console.error(header, err)); a record keeps the message alone
    this.rec('error', component, err === undefined ? msg : msg.replace(/:\s*$/, ''), err);
  }
}
