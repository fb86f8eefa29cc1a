import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from '../args.ts';
import type { Command } from '../command.ts';
import { buildApp } from '../../http/app.ts';
import { openContext } from '../../incidents.ts';
import { TriageError } from '../../errors.ts';

export const UI_DIST = fileURLToPath(new URL('../../../ui/dist/', import.meta.url));
const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|::1)$/;

export const serveCommand: Command = {
  name: 'serve',
  summary: 'start the web UI and HTTP API (127.0.0.1:8765 by default)',
  help: `Usage: mcp-triage serve [--port N] [--host H] [--db FILE] [--max-upload-mb N] [--token-file FILE]

Starts the web UI and the HTTP API on http://127.0.0.1:8765/.
  --port N            port (default 8765; 0 picks a free one)
  --host H            bind address (default 127.0.0.1); a non-loopback host also needs --token-file
  --db FILE           DuckDB file (default: the workspace database)
  --max-upload-mb N   largest upload accepted (default 2048)
  --token-file FILE   require Authorization: Bearer <token from this file> on every request`,
  async run(args, io) {
    const a = parseArgs('serve', args, { port: { type: 'number' }, host: { type: 'string' }, db: { type: 'string' }, 'max-upload-mb': { type: 'number' }, 'token-file': { type: 'string' }, 'key-file': { type: 'string' } });
    const host = (a.options.host as string | undefined) ?? '127.0.0.1';
    let token: string | undefined;
    if (a.options['token-file']) token = readFileSync(String(a.options['token-file']), 'utf8').trim();
    if (!LOOPBACK.test(host) && !token) throw new TriageError('TRIAGE_ERR_USAGE', `serve: binding to ${host} exposes your logs to the network; add --token-file FILE (a file holding a long random token)`);
    const ctx = await openContext({ env: io.env, db: a.options.db as string | undefined, keyFile: a.options['key-file'] as string | undefined });
    const app = await buildApp({ ctx, uiDist: existsSync(UI_DIST) ? UI_DIST : undefined, maxUploadMb: a.options['max-upload-mb'] as number | undefined, token, allowedHosts: LOOPBACK.test(host) ? [] : [host] });
    const port = (a.options.port as number | undefined) ?? 8765;
    let address: string;
    try {
      address = await app.listen({ host, port });
    } catch (e) {
      await app.close().catch(() => undefined);
      await ctx.store.close().catch(() => undefined);
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') throw new TriageError('TRIAGE_ERR_USAGE', `serve: ${host}:${port} is already in use (another mcp-triage?); stop it or pass --port N (PORT=N for npm start)`);
      if (code === 'EADDRNOTAVAIL' || code === 'EACCES') throw new TriageError('TRIAGE_ERR_USAGE', `serve: cannot listen on ${host}:${port} (${code}); pick another --host or --port`);
      throw e;
    }
    io.stderr.write(`mcp-triage: serving ${address.replace('0.0.0.0', host)}/ (database ${ctx.store.path})\n`);
    await new Promise<void>((done) => {
      const stop = () => void app.close().then(() => ctx.store.close()).then(done);
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    return 0;
  },
};
