// `npm start`: serve the UI on 127.0.0.1 (PORT or 8765) with the sample incidents loaded.
// The cheap checks run first — PORT/--port is a valid port, the workspace is not owned by
// another serve, the port can be bound — and only then the UI build (vite) and the sample load,
// inside serve's warm-up while the port is held. A busy port is one line within a second, not
// after a 10 s build. `--no-build` skips the UI build (npm run dev, with vite serving the UI).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { CliIO } from './cli/command.ts';
import { parsePort, parseServeArgs, serve } from './cli/commands/serve.ts';
import { TriageError } from './errors.ts';
import { repoPath } from '../parsers/engine/repo.ts';

const REPO = repoPath('');

async function buildUi(): Promise<void> {
  const vite = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
  // vite's progress goes to our stderr: stdout stays for data, as with every command.
  const code = await new Promise<number | null>((done, fail) => {
    const p = spawn(process.execPath, [vite, 'build'], { cwd: REPO, stdio: ['ignore', process.stderr, process.stderr] });
    p.once('error', fail);
    p.once('exit', (c) => done(c));
  });
  if (code !== 0) throw new TriageError('TRIAGE_ERR_INTERNAL', `the UI build failed (vite build exited ${code}); see its output above`);
}

const io: CliIO = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, cwd: process.cwd(), env: process.env };
const argv = process.argv.slice(2);
const build = !argv.includes('--no-build');
try {
  const port = parsePort(process.env.PORT, 'PORT');
  const o = parseServeArgs(['--port', String(port), ...argv.filter((a) => a !== '--no-build')]);
  process.exitCode = await serve(o, io, async (ctx) => {
    if (build) await buildUi();
    const { loadSamples } = await import('./samples.ts');
    const n = await loadSamples(ctx, undefined, (s) => io.stderr.write(`mcp-triage: ${s}\n`));
    io.stderr.write(`mcp-triage: ${n} new sample incident(s) loaded into ${ctx.store.path}\n`);
  });
} catch (e) {
  if (e instanceof TriageError) {
    io.stderr.write(`mcp-triage: ${e.message}\n`);
    process.exitCode = e.exitCode;
  } else {
    io.stderr.write(`mcp-triage: internal error: ${(e as Error).stack ?? e}\nPlease report it with the command you ran.\n`);
    process.exitCode = 2;
  }
}
