/**
 * Sample-incident recorder. NOT run by CI.
 *
 *   npx tsx samples/record/record.ts                 # all scenarios
 *   npx tsx samples/record/record.ts healthy-control # one (or several) by name
 *   npx tsx samples/record/record.ts --list
 *
 * For each scenario: start real MCP server process(es) + Debian nginx in a temp dir, drive a real
 * SDK client through nginx, provoke the failure, stop everything, and copy the logs to
 * samples/<incident>/ (client.log, nginx-access.log, nginx-access.json.log, nginx-error.log,
 * server.log, server-2.log). The hand-written samples/<incident>/README.md is left alone.
 */
import { mkdtempSync, mkdirSync, readdirSync, copyFileSync, rmSync, existsSync, statSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { scenarios, type Scenario } from './scenarios.ts';
import { RECORD_DIR } from './lib/proc.ts';
import { ClientLog } from './lib/client.ts';
import { RecordingContext } from './lib/context.ts';

const SAMPLES_DIR = dirname(RECORD_DIR);
const LOG_FILES = ['client.log', 'nginx-access.log', 'nginx-access.json.log', 'nginx-error.log', 'server.log', 'server-2.log'];

async function recordOne(s: Scenario): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), `mcp-rec-${s.name}-`));
  const logDir = join(tmp, 'logs');
  mkdirSync(logDir, { recursive: true });
  const ctx = new RecordingContext(tmp, logDir, new ClientLog(join(logDir, 'client.log')));
  const t0 = Date.now();
  try {
    await s.run(ctx);
  } finally {
    await ctx.shutdown();
  }
  const out = join(SAMPLES_DIR, s.name);
  mkdirSync(out, { recursive: true });
  for (const f of LOG_FILES) if (existsSync(join(out, f))) rmSync(join(out, f));
  const copied: string[] = [];
  for (const f of readdirSync(logDir)) {
    if (!LOG_FILES.includes(f)) continue;
    const cut = ctx.cut?.get(f);
    if (ctx.cut && cut === undefined) continue; // created after the snapshot
    if (cut === undefined) copyFileSync(join(logDir, f), join(out, f));
    else writeFileSync(join(out, f), readFileSync(join(logDir, f)).subarray(0, cut));
    copied.push(`${f} (${statSync(join(out, f)).size} B)`);
  }
  rmSync(tmp, { recursive: true, force: true });
  console.log(`recorded ${s.name} in ${Date.now() - t0} ms -> samples/${s.name}/: ${copied.join(', ')}`);
}

async function main() {
  const args = process.argv.slice(2);
  if (args.includes('--list')) {
    for (const s of scenarios) console.log(`${s.name.padEnd(40)} ${s.expected}`);
    return;
  }
  const chosen = args.length ? args.map((a) => scenarios.find((s) => s.name === a) ?? fail(`unknown scenario ${a}`)) : scenarios;
  for (const s of chosen) await recordOne(s);
}

function fail(msg: string): never {
  console.error(msg);
  console.error(`known: ${scenarios.map((s) => s.name).join(', ')}`);
  process.exit(2);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
