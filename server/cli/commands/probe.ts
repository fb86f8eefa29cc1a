// `mcp-triage probe URL …`: prove an MCP endpoint works again with brand-new connections, tool
// discovery and, if asked, one read-only call; the logic is server/probe/ (runProbe).
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { parseArgs } from '../args.ts';
import type { Command } from '../command.ts';
import { TriageError } from '../../errors.ts';
import type { ProbeLogWriter } from '../../probe/index.ts';
import { DEFAULT_CONNECTIONS, DEFAULT_TIMEOUT_MS, MAX_CONNECTIONS } from '../../probe/limits.ts';
import { loadOrCreateKey, resolveWorkspace } from '../../workspace.ts';

const HELP = `Usage: mcp-triage probe URL [--tool NAME [--args JSON]] [--connections N] [--timeout S]
                        [--json] [--log FILE] [--bearer-stdin] [--i-know-it-writes] [--key-file FILE]

After a "reinitialize" or "fix_route_or_config" decision, prove the MCP path works again
without repeating a write. Every connection is a NEW client object that sends a fresh
initialize (never an old session id), then:

  reach              DNS, TCP and (https) TLS to the host
  initialize         negotiated protocol version, server info, session assigned or not, and
                     the exact request headers sent (no Mcp-Session-Id)
  tools/list         every page (nextCursor followed)
  tools/call         only with --tool, and only a tool annotated readOnlyHint=true; a result with
                     isError=true (an unknown id, bad arguments) still passes, as a warning
                     (!): the connection works. --json then adds isError and errorText (the
                     first 200 characters of the error text, redacted)
  second-connection  another fresh connection doing the same (N−1 of them with --connections N)
  close              DELETE for sessions the server assigned (405 is fine)

Streamable HTTP is tried first; if the POST is refused (400/404/405) the legacy HTTP+SSE
transport is tried and, if it answers, REPORTED as transport "legacy-sse".

Options:
  --tool NAME          call this tool once per connection; refused (exit 1) unless the server
                       lists it with readOnlyHint=true and not destructiveHint
  --args JSON          the tool's arguments, a JSON object (default {})
  --i-know-it-writes   call the tool even if it may write; it is then called ONCE (first
                       connection only)
  --connections N      connections in total, 1…${MAX_CONNECTIONS} (default ${DEFAULT_CONNECTIONS})
  --timeout S          per-step timeout in seconds (default ${DEFAULT_TIMEOUT_MS / 1000})
  --json               print the result document on stdout (cli-contract.md "probe --json")
  --log FILE           also write a JSON-lines log the analyzer reads as a client log; name it
                       e.g. probe-client.log and upload it beside the incident's logs
  --bearer-stdin       read the bearer token from stdin (else env MCP_TRIAGE_BEARER); tokens are
                       never taken from the command line and never printed
  --key-file FILE      pseudonymisation key (default: the workspace key, so session pseudonyms
                       match analyze and the UI)

Everything printed is redacted: session ids appear as sess_… pseudonyms, credentials never.
Exit codes: 0 every step passed (warnings included) · 3 the endpoint failed a step (the checklist names it) ·
1 unusable input (bad URL, bad --args, unknown option) or a refused call · 2 internal error.

Examples (the first two against the repository's sample server, started with
npx tsx samples/record/mcp-server.ts '{"port":3000}'):
  mcp-triage probe http://127.0.0.1:3000/mcp
  mcp-triage probe http://127.0.0.1:3000/mcp --tool get_order --args '{"order_id":"ORD-1001"}'
  MCP_TRIAGE_BEARER=… mcp-triage probe https://mcp.example.com/mcp --tool get_order --args '{"order_id":"ORD-1"}' --json
  mcp-triage probe http://127.0.0.1:3000/mcp --log probe-client.log && mcp-triage analyze incident/ probe-client.log`;

async function readStdin(stdin: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stdin) {
    chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
    if (chunks.reduce((a, b) => a + b.length, 0) > 64 * 1024) throw new TriageError('TRIAGE_ERR_INPUT', 'probe: --bearer-stdin read more than 64 KiB; pipe only the token');
  }
  return Buffer.concat(chunks).toString('utf8');
}

export const probeCommand: Command = {
  name: 'probe',
  summary: 'verify a live MCP endpoint with fresh connections and, if asked, one read-only call',
  help: HELP,
  async run(args, io) {
    for (const a of args) {
      const name = a.split('=')[0]!;
      if (/^--(bearer|token|auth|authorization|header|api-key)$/.test(name))
        throw new TriageError(
          'TRIAGE_ERR_USAGE',
          `probe: ${name} is not accepted: credentials never go on the command line (process lists, shell history); set MCP_TRIAGE_BEARER or pipe the token with --bearer-stdin`,
        );
    }
    const a = parseArgs('probe', args, {
      tool: { type: 'string' },
      args: { type: 'string' },
      connections: { type: 'number' },
      timeout: { type: 'number' },
      json: { type: 'boolean' },
      log: { type: 'string' },
      'bearer-stdin': { type: 'boolean' },
      'i-know-it-writes': { type: 'boolean' },
      'key-file': { type: 'string' },
    });
    if (a.help) {
      io.stdout.write(HELP + '\n');
      return 0;
    }
    // The probe (and with it the MCP SDK) loads once the options parse (main.ts).
    const { isArgsObject, openProbeLog, parseProbeUrl, probeJson, renderProbe, runProbe } = await import('../../probe/index.ts');
    if (a.positionals.length !== 1)
      throw new TriageError(
        'TRIAGE_ERR_USAGE',
        a.positionals.length ? `probe: give exactly one URL (got ${a.positionals.length})` : 'probe: give the MCP endpoint URL, e.g. mcp-triage probe http://127.0.0.1:3000/mcp',
      );
    const url = parseProbeUrl(a.positionals[0]!);
    if (url.username || url.password || /[?&](token|access_token|api_key|apikey|key|auth)=/i.test(url.search))
      io.stderr.write(
        'mcp-triage: warning: the URL carries credentials, which the command line exposes (process lists, shell history); prefer MCP_TRIAGE_BEARER or --bearer-stdin. They are redacted from the output.\n',
      );

    let toolArgs: Record<string, unknown> | undefined;
    if (a.options.args !== undefined) {
      let v: unknown;
      try {
        v = JSON.parse(a.options.args as string);
      } catch (e) {
        throw new TriageError('TRIAGE_ERR_USAGE', `probe: --args is not valid JSON (${(e as Error).message}); give an object, e.g. --args '{"order_id":"ORD-1"}'`);
      }
      if (!isArgsObject(v)) throw new TriageError('TRIAGE_ERR_USAGE', `probe: --args must be a JSON object, got ${v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v}`);
      toolArgs = v;
    }
    const tool = a.options.tool as string | undefined;
    if (toolArgs && !tool) throw new TriageError('TRIAGE_ERR_USAGE', 'probe: --args needs --tool NAME');
    if (a.options['i-know-it-writes'] && !tool) throw new TriageError('TRIAGE_ERR_USAGE', 'probe: --i-know-it-writes only makes sense with --tool NAME');
    const connections = (a.options.connections as number | undefined) ?? DEFAULT_CONNECTIONS;
    if (!Number.isInteger(connections) || connections < 1 || connections > MAX_CONNECTIONS)
      throw new TriageError('TRIAGE_ERR_USAGE', `probe: --connections takes a whole number from 1 to ${MAX_CONNECTIONS}, got ${connections}`);
    const timeoutS = (a.options.timeout as number | undefined) ?? DEFAULT_TIMEOUT_MS / 1000;
    if (!(timeoutS > 0) || timeoutS > 600) throw new TriageError('TRIAGE_ERR_USAGE', `probe: --timeout takes seconds, more than 0 and at most 600, got ${timeoutS}`);

    let bearer = io.env.MCP_TRIAGE_BEARER?.trim() || undefined;
    if (a.options['bearer-stdin']) {
      const t = (await readStdin(io.stdin))
        .split(/\r?\n/)
        .find((l) => l.trim())
        ?.trim();
      if (!t)
        throw new TriageError('TRIAGE_ERR_INPUT', 'probe: --bearer-stdin got nothing on stdin; pipe the token, e.g. pass show mcp/token | mcp-triage probe URL --bearer-stdin');
      bearer = t.replace(/^Bearer\s+/i, '');
    }

    const ws = resolveWorkspace({ env: io.env, ...(a.options['key-file'] ? { keyFile: resolve(io.cwd, a.options['key-file'] as string) } : {}) });
    const key = loadOrCreateKey(ws.keyFile);
    let log: ProbeLogWriter | undefined;
    if (a.options.log) log = openProbeLog(resolve(io.cwd, a.options.log as string));

    const tty = (io.stderr as NodeJS.WriteStream).isTTY === true;
    try {
      const r = await runProbe({
        url: url.href,
        key,
        ...(tool ? { tool } : {}),
        ...(toolArgs ? { args: toolArgs } : {}),
        connections,
        timeoutMs: Math.round(timeoutS * 1000),
        ...(bearer ? { bearer } : {}),
        allowWrites: a.options['i-know-it-writes'] === true,
        ...(log ? { onEvent: (e) => log!.write(e) } : {}),
        ...(tty ? { onStep: (s) => io.stderr.write(`probe: ${!s.ok ? '✘' : s.warning ? '!' : '✔'} ${s.name} ${s.ms} ms${s.warning ? ` (${s.warning})` : ''}\n`) } : {}),
      });
      io.stdout.write(a.options.json ? JSON.stringify(probeJson(r), null, 2) + '\n' : renderProbe(r));
      if (r.refused)
        io.stderr.write(
          `mcp-triage: probe refused to call ${r.refused.tool}: ${r.refused.reason}. The probe only makes side-effect-free calls; choose a read-only tool, or add --i-know-it-writes if a repeat is harmless.\n`,
        );
      else if (!r.ok) io.stderr.write(`mcp-triage: probe failed at ${r.failedStep}\n`);
      return r.exitCode;
    } finally {
      log?.close();
    }
  },
};

export default probeCommand;
