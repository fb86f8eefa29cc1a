// The root README's probe example, run as written: the command that starts the sample MCP server
// and the probe command are read out of README.md (the one source of truth) and run through
// `sh -c` exactly as a reader would paste them. The only change is the port: the README's 3000
// becomes a free one, so the test cannot collide with anything already on 3000.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { probeCommand } from '../cli/commands/probe.ts';
import { REPO, tempWorkspace } from '../testing/helpers.ts';

const run = promisify(execFile);
const README = readFileSync(join(REPO, 'README.md'), 'utf8');
const ws = tempWorkspace();
let server: ChildProcess | undefined;
afterAll(() => {
  // sh → npx → tsx → node: the whole process group
  if (server?.pid && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
  ws.cleanup();
});

/** The command on the one line of the README's shell blocks that starts with `prefix` (its trailing `# comment` dropped). */
function readmeCommand(prefix: string): string {
  const blocks = [...README.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const lines = blocks.flatMap((b) => b.split('\n')).filter((l) => l.startsWith(prefix));
  expect(lines, `README.md: one sh line starting with "${prefix}"`).toHaveLength(1);
  return lines[0]!.split(/\s+#\s/)[0]!.trim();
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

describe("README's probe example", () => {
  const start = readmeCommand('npx tsx samples/record/mcp-server.ts ');
  const probe = readmeCommand('npx mcp-triage probe ');

  it('names the port once in each command, and the --help examples start the server the same way', () => {
    expect(start).toBe(`npx tsx samples/record/mcp-server.ts '{"port":3000}'`);
    expect(probe.match(/3000/g)).toHaveLength(1);
    expect(probe).toMatch(/^npx mcp-triage probe http:\/\/127\.0\.0\.1:3000\/mcp --tool get_order /);
    expect(probeCommand.help).toContain(start);
    expect(probeCommand.help).toContain(probe.replace(/^npx /, ''));
  });

  it('the server starts the way the README says, and the probe command as written passes every step (exit 0)', async () => {
    const port = String(await freePort());
    server = spawn('sh', ['-c', start.replace('3000', port)], { cwd: REPO, detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    await new Promise<void>((ok, fail) => {
      let out = '';
      server!.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes(`{"listening":${port}}`)) ok();
      });
      server!.once('exit', (c) => fail(new Error(`the sample server exited (${c}) before listening: ${out}`)));
    });
    let r: { code: number; stdout: string; stderr: string };
    try {
      const x = await run('sh', ['-c', probe.replace(':3000/', `:${port}/`)], { cwd: REPO, env: ws.env });
      r = { code: 0, stdout: x.stdout, stderr: x.stderr };
    } catch (e) {
      r = e as { code: number; stdout: string; stderr: string };
    }
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {2}✔ tools\/call .*isError=false/m);
    expect(r.stdout).toMatch(/tools\/list .*get_order \(read-only\)/);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('OK: every step passed (streamable-http, protocol 2025-11-25, session assigned)');
  });
});
