/**
 * Sample-incident recorder. NOT run by CI.
 *
 *   npx tsx samples/record/record.ts                 # all samples/<incident>/ scenarios
 *   npx tsx samples/record/record.ts healthy-control # one (or several) by name (either list)
 *   npx tsx samples/record/record.ts --recorded      # all samples/recorded/ incidents (+ _noise/)
 *   npx tsx samples/record/record.ts --family stream-cut   # the samples/recorded/ incidents of one family
 *   npx tsx samples/record/record.ts --index         # rebuild samples/recorded/README.md from the labels
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
process.env.TZ = 'UTC'; // the IDE and python client styles print local time
import { scenarios, type Scenario } from './scenarios.ts';
import { FAMILIES, recordedScenarios, type RecordedScenario } from './scenarios-recorded.ts';
import { STYLES, StyleFanout, StyledClientLog } from './lib/styles.ts';
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

export const RECORDED_DIR = join(SAMPLES_DIR, 'recorded');

/** one samples/recorded/ incident: all logs, the client log in every style (primary = client.log), label.json */
async function recordStyled(s: RecordedScenario): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), `mcp-rec-${s.name}-`));
  const logDir = join(tmp, 'logs');
  const styleDir = join(tmp, 'styles');
  mkdirSync(logDir, { recursive: true });
  mkdirSync(styleDir, { recursive: true });
  const fanout = new StyleFanout(styleDir);
  const ctx = new RecordingContext(tmp, logDir, new StyledClientLog(fanout), fanout);
  const t0 = Date.now();
  try {
    await s.run(ctx);
  } finally {
    await ctx.shutdown();
  }
  const styles = await fanout.close();
  const out = s.noise ? join(RECORDED_DIR, '_noise', s.name) : join(RECORDED_DIR, s.name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'styles'), { recursive: true });
  // the primary style rotates over the incidents (its index in the list), so each style leads ~1/6 of them
  const primary = STYLES[recordedScenarios.indexOf(s) % STYLES.length]!;
  const records = ctx.cutRecords ?? fanout.count;
  for (const st of styles) {
    const end = records ? st.offsets[records - 1]! : 0;
    const dest = st.style === primary ? join(out, 'client.log') : join(out, 'styles', `client.${st.style}.log`);
    writeFileSync(dest, readFileSync(st.file).subarray(0, end));
  }
  const copied: string[] = [];
  for (const f of readdirSync(logDir).sort()) {
    const cut = ctx.cut?.get(f);
    if (ctx.cut && cut === undefined) continue; // created after the snapshot
    const data = readFileSync(join(logDir, f));
    writeFileSync(join(out, f), cut === undefined ? data : data.subarray(0, cut));
    copied.push(`${f} (${statSync(join(out, f)).size} B)`);
  }
  const { name: _n, run: _r, noise: _x, ...label } = s;
  const json = {
    family: label.family,
    decision: label.decision,
    failing: label.failing,
    proxy: label.proxy,
    server: label.server,
    clients: label.clients,
    clientStyle: primary,
    styles: [...STYLES],
    why: label.why,
  };
  writeFileSync(join(out, 'label.json'), JSON.stringify(json, null, 2) + '\n');
  rmSync(tmp, { recursive: true, force: true });
  console.log(`recorded ${s.name} in ${Date.now() - t0} ms (${records} client records, primary ${primary}) -> ${copied.join(', ')}`);
}

/** samples/recorded/README.md: the incident table, rebuilt from every label.json after a recording */
function writeRecordedIndex(): void {
  const names = recordedScenarios.filter((s) => !s.noise && existsSync(join(RECORDED_DIR, s.name, 'label.json'))).map((s) => s.name);
  const rows = names.map((n) => JSON.parse(readFileSync(join(RECORDED_DIR, n, 'label.json'), 'utf8')) as Record<string, unknown> & { failing: Record<string, unknown> | null });
  const f = (x: { method?: unknown; tool?: unknown; rpcId?: unknown; httpStatus?: unknown } | null) =>
    x
      ? [x.rpcId === null ? '' : `rpc ${String(x.rpcId)} `, String(x.method ?? 'GET stream'), x.tool ? ` ${String(x.tool)}` : '', ` → ${x.httpStatus ?? 'no status'}`].join('')
      : '—';
  const count = (k: string) => {
    const m = new Map<string, number>();
    for (const r of rows) m.set(String(r[k]), (m.get(String(r[k])) ?? 0) + 1);
    return [...m].map(([v, n]) => `${v} ${n}`).join(' · ');
  };
  const text = `# samples/recorded — labelled incidents recorded several ways

Generated by \`npx tsx samples/record/record.ts --recorded\` (see [../record/README.md](../record/README.md#samplesrecorded--labelled-variants)):
real MCP server and client on \`@modelcontextprotocol/sdk\` 1.32.2, behind nginx 1.22.1, HAProxy 2.6.12, Caddy 2.6.2 or
nothing, with the host app's log written by six logging setups. Each folder holds \`label.json\` (the expected triage,
from the scenario's construction and the decision rules D1–D20 of failure-signatures.md), \`client.log\` (primary
style), \`styles/client.<style>.log\` (the other five) and the proxy and server logs. Session ids are random UUIDs
from local runs; tokens are fake (\`test-token-*\`). This table is rebuilt from the labels after every recording.

${rows.length} incidents. Families: ${count('family')}.
Decisions: ${count('decision')}.
Proxies: ${count('proxy')}. Server modes: ${count('server')}. Clients: ${count('clients')}. Primary style: ${count('clientStyle')}.

| incident | family | proxy | mode | clients | style | failing request | decision |
|---|---|---|---|---|---|---|---|
${rows.map((r, i) => `| [${names[i]}](${names[i]}/label.json) | ${r.family} | ${r.proxy} | ${r.server} | ${r.clients} | ${r.clientStyle} | ${f(r.failing)} | \`${r.decision}\` |`).join('\n')}

## Noise material (\`_noise/\`)

Not incidents; bundles to splice into an incident for metamorphic tests (the decision must not change). Each has the
client log in all six styles and a label.json (\`no_action\`).

- [\`_noise/healthy-sessions\`](_noise/healthy-sessions/label.json): three healthy conversations doing reads with their GET streams open (nginx, stateful).
- [\`_noise/get-reconnect\`](_noise/get-reconnect/label.json): one healthy session whose idle GET stream nginx cuts every 2 s (\`proxy_read_timeout\`) and the SDK reopens.
`;
  writeFileSync(join(RECORDED_DIR, 'README.md'), text);
}

async function main() {
  const args = process.argv.slice(2);
  if (args.includes('--list')) {
    console.log('# samples/<incident>/ (hand-documented bundles)');
    for (const s of scenarios) console.log(`${s.name.padEnd(48)} ${s.expected}`);
    console.log('\n# samples/recorded/<incident>/ (labelled variants; --recorded, --family F)');
    for (const s of recordedScenarios)
      console.log(`${(s.noise ? '_noise/' + s.name : s.name).padEnd(48)} ${s.family.padEnd(18)} ${s.decision.padEnd(26)} ${s.proxy.padEnd(8)} ${s.server.padEnd(10)} ${s.clients}`);
    return;
  }
  const t0 = Date.now();
  const fam = args.indexOf('--family');
  if (args.includes('--index')) {
    writeRecordedIndex();
  } else if (fam >= 0) {
    const f = args[fam + 1];
    if (!FAMILIES.includes(f as never)) fail(`unknown family ${f}; known: ${FAMILIES.join(', ')}`);
    for (const s of recordedScenarios.filter((x) => x.family === f && !x.noise)) await recordStyled(s);
    writeRecordedIndex();
  } else if (args.includes('--recorded')) {
    for (const s of recordedScenarios) await recordStyled(s);
    writeRecordedIndex();
  } else if (args.length) {
    for (const a of args) {
      const old = scenarios.find((s) => s.name === a);
      const rec = recordedScenarios.find((s) => s.name === a);
      if (old) await recordOne(old);
      else if (rec) await recordStyled(rec);
      else fail(`unknown scenario ${a}`);
    }
    if (args.some((a) => recordedScenarios.some((s) => s.name === a))) writeRecordedIndex();
  } else {
    for (const s of scenarios) await recordOne(s);
  }
  console.log(`done in ${Math.round((Date.now() - t0) / 1000)} s`);
}

function fail(msg: string): never {
  console.error(msg);
  console.error(`known: ${[...scenarios, ...recordedScenarios].map((s) => s.name).join(', ')}`);
  process.exit(2);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
