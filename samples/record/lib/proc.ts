/** Process and port helpers for the recorder (loopback only). */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import type { ServerConfig } from '../mcp-server.ts';

export const RECORD_DIR = dirname(dirname(fileURLToPath(import.meta.url)));

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A free loopback TCP port (listen on 0, read it, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export function tcpOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = connect(port, '127.0.0.1');
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });
}

export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** One MCP server process (samples/record/mcp-server.ts run through tsx). */
export class ServerProcess {
  port = 0;
  pid = 0;
  private proc?: ChildProcess;
  constructor(public cfg: ServerConfig) {}

  async start(): Promise<number> {
    const p = spawn(process.execPath, ['--import', 'tsx', join(RECORD_DIR, 'mcp-server.ts'), JSON.stringify(this.cfg)], {
      stdio: ['ignore', 'pipe', 'inherit'],
      cwd: dirname(dirname(RECORD_DIR)),
    });
    this.proc = p;
    this.pid = p.pid ?? 0;
    this.port = await new Promise<number>((resolve, reject) => {
      let buf = '';
      p.stdout!.on('data', (c: Buffer) => {
        buf += c.toString();
        const m = /\{"listening":(\d+)\}/.exec(buf);
        if (m) resolve(Number(m[1]));
      });
      p.once('exit', (code) => reject(new Error(`mcp-server exited early (${code})`)));
    });
    this.cfg = { ...this.cfg, port: this.port };
    return this.port;
  }

  get running(): boolean {
    return !!this.proc && this.proc.exitCode === null && this.proc.signalCode === null;
  }

  /** resolves when the process has exited (e.g. after an injected crash) */
  exited(): Promise<void> {
    const p = this.proc;
    if (!p || !this.running) return Promise.resolve();
    return new Promise((r) => p.once('exit', () => r()));
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (!this.running) return;
    const done = this.exited();
    this.proc!.kill(signal);
    await done;
  }
}
