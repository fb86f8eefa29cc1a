/** Everything one recording owns; shut down in reverse order at the end. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerConfig } from '../mcp-server.ts';
import { ServerProcess, sleep } from './proc.ts';
import { Nginx, type NginxOptions } from './nginx.ts';
import { Haproxy, type HaproxyOptions } from './haproxy.ts';
import { Caddy, type CaddyOptions } from './caddy.ts';
import type { Log, Connected } from './client.ts';
import type { StyleFanout } from './styles.ts';

export class RecordingContext {
  servers: ServerProcess[] = [];
  nginx?: Nginx;
  /** HAProxy / Caddy (samples/recorded/ scenarios) */
  proxies: (Haproxy | Caddy)[] = [];
  clients: Connected[] = [];
  /** styled client log (samples/recorded/): its record count at snapshot() */
  fanout?: StyleFanout;
  cutRecords?: number;
  /** byte sizes of the log files at the moment the on-call engineer "pulled the logs" (see snapshot()) */
  cut?: Map<string, number>;
  constructor(
    public tmp: string,
    public logDir: string,
    public log: Log,
    fanout?: StyleFanout,
  ) {
    this.fanout = fanout;
  }

  /** start an MCP server process; `file` is server.log / server-2.log (appended, so a restart continues the same file) */
  async startServer(cfg: Partial<ServerConfig> & { file?: string } = {}): Promise<ServerProcess> {
    const { file = 'server.log', ...rest } = cfg;
    const s = new ServerProcess({
      port: 0,
      name: 'orders-mcp',
      unknownSession: '404',
      jsonResponse: false,
      ...rest,
      log: join(this.logDir, file),
      db: join(this.tmp, 'orders-db.json'),
    });
    await s.start();
    this.servers.push(s);
    return s;
  }

  /** restart = stop (SIGTERM, like a deploy) and start a new process on the same port, same log file */
  async restartServer(old: ServerProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<ServerProcess> {
    await old.stop(signal);
    const s = new ServerProcess({ ...old.cfg });
    await s.start();
    this.servers.push(s);
    return s;
  }

  async startNginx(o: Omit<NginxOptions, 'prefix' | 'logDir'>): Promise<string> {
    this.nginx = new Nginx({ ...o, prefix: join(this.tmp, 'nginx'), logDir: this.logDir });
    const port = await this.nginx.start();
    return `http://127.0.0.1:${port}${o.location ?? '/mcp'}`;
  }

  async startHaproxy(o: Omit<HaproxyOptions, 'prefix' | 'logDir'>): Promise<string> {
    const h = new Haproxy({ ...o, prefix: join(this.tmp, 'haproxy'), logDir: this.logDir });
    this.proxies.push(h);
    return `http://127.0.0.1:${await h.start()}`;
  }

  async startCaddy(o: Omit<CaddyOptions, 'prefix' | 'logDir'>): Promise<string> {
    const c = new Caddy({ ...o, prefix: join(this.tmp, 'caddy'), logDir: this.logDir });
    this.proxies.push(c);
    return `http://127.0.0.1:${await c.start()}`;
  }

  /**
   * Freeze the bundle at this moment: later lines (e.g. a write that commits after the logs were pulled,
   * or the recorder's own shutdown) are not copied into samples/<incident>/.
   */
  snapshot(): void {
    this.cut = new Map();
    for (const f of readdirSync(this.logDir)) this.cut.set(f, statSync(join(this.logDir, f)).size);
    this.cutRecords = this.fanout?.count;
  }

  async shutdown(): Promise<void> {
    for (const c of this.clients) await c.client.close().catch(() => {});
    await sleep(100);
    for (const s of this.servers) await s.stop();
    await this.nginx?.stop();
    for (const p of this.proxies) await p.stop();
  }
}
