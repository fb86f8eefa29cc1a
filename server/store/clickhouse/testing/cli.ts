// Tests: run the CLI in this process (server/cli/main.ts) and capture what it prints.
import { PassThrough } from 'node:stream';
import { main } from '../../../cli/main.ts';
import { REPO } from '../../../testing/helpers.ts';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function cli(args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  const code = await main(args, { stdout, stderr, stdin: new PassThrough(), cwd: REPO, env });
  return { code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}

/** The id `analyze --store` reports on stderr ("stored as inc_… in …"). */
export function storedId(stderr: string): string {
  const m = /stored as (inc_[a-z0-9]+) in /.exec(stderr);
  if (!m) throw new Error(`no "stored as" line in: ${stderr.slice(-500)}`);
  return m[1]!;
}
