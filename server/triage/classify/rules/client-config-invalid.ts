import type { Rule } from '../rule.ts';
import { describe, has, signalWords } from '../rule.ts';

// triage-rules.md §1 (a wrong endpoint in the client's configuration is a route mistake) and failure-signatures
// D12 (fix the route or config; re-sending cannot help): the client could not even build the request — no URL,
// a malformed one (Node's ERR_INVALID_URL, httpx's UnsupportedProtocol), or no transport in its settings — so
// nothing reached any server. A retry repeats it; only the configuration changes the outcome.
export const clientConfigInvalid: Rule = {
  id: 'client-config-invalid',
  decision: 'fix_route_or_config',
  source: 'triage-rules.md §1 · failure-signatures D12',
  when(f) {
    if (!has(f, 'client-config-invalid')) return "the client's settings are not shown unusable (no invalid-URL or missing-transport error)";
    if (has(f, 'tool-error')) return "a tool's own error quoting a bad URL (its argument), not the client's settings";
    return true;
  },
  rationale: (f) =>
    `${describe(f)} never left the client: ${signalWords(f, ['client-config-invalid'], 'its settings for the server are unusable')}. ${f.signals.includes('server-command-not-found') ? 'The command configured to start the server (or the stdio bridge in front of it) does not exist on this machine: install it or fix the command and its PATH' : "The server's entry in the client's configuration has no usable URL or transport (a misspelt key, a missing scheme, an empty variable). Fix that entry — the URL with its scheme, host, port and path, and the transport type —"} and connect again; retrying the same settings fails the same way, and nothing ran on any server.`,
  examples: [
    { name: 'ERR_INVALID_URL while starting the server entry', facts: { causes: ['client-config-invalid'], interruption: 'connect' }, fires: true },
    { name: 'gemini-cli: missing httpUrl/url/command', facts: { causes: ['client-config-invalid'] }, fires: true },
    { name: "the stdio bridge's command is not installed (sh: 1: x: not found)", facts: { causes: ['client-config-invalid'], signals: ['server-command-not-found'] }, fires: true },
    {
      name: "near miss: a tool's error quoting an invalid URL argument",
      facts: { method: 'tools/call', tool: 'fetch_page', causes: ['tool-error', 'client-config-invalid'] },
      fires: false,
    },
    { name: 'near miss: connection refused (a real address that is down)', facts: { causes: ['conn-refused'], neverConnected: true }, fires: false },
  ],
};

// The MCP spec's lifecycle (version negotiation) and versioning pages: a protocol version is a revision
// date, YYYY-MM-DD. A client whose initialize offers "2", "1.0" or "latest" carries a wrong constant or
// setting: servers answer with a revision of their own that such a client then refuses, or reject it.
// The handshake failing after that offer is the client's setting to fix (triage-rules §3: FIX … protocol
// version), not the server's fault and not a blip.
export const protocolVersionMalformed: Rule = {
  id: 'protocol-version-malformed',
  decision: 'fix_route_or_config',
  source: 'MCP spec basic/lifecycle (version negotiation), versioning · triage-rules.md §3',
  when(f) {
    if (!has(f, 'protocol-version-malformed')) return 'the handshake names no malformed protocol version';
    if (f.method !== 'initialize') return 'not the initialize request';
    return true;
  },
  rationale: (f) =>
    `${describe(f)} offered a protocol version that is no MCP revision (revisions are dates, such as 2025-06-18 or 2025-11-25), and the handshake did not complete. The client's protocol constant or setting is wrong: set it (or upgrade the client, or the bridge in front of it such as mcp-remote, to a release that sends a revision) and connect again; retrying the same offer fails the same way.`,
  examples: [
    {
      name: 'initialize offered "2" and the log ends waiting',
      facts: { method: 'initialize', causes: ['protocol-version-malformed'], interruption: 'log-ended-waiting' },
      fires: true,
    },
    { name: 'near miss: an initialize offering 2025-06-18 that hung', facts: { method: 'initialize', interruption: 'log-ended-waiting' }, fires: false },
    { name: 'near miss: a tools/call after such a handshake', facts: { method: 'tools/call', tool: 'x', causes: ['protocol-version-malformed'] }, fires: false },
  ],
};

// triage-rules.md decision table (FIX covers deployment): the process that should speak MCP cannot run as it
// is deployed — a Python or Node module missing, a shared library too old, an entrypoint absent from the image,
// or an MCP app mounted in another web app without its startup (lifespan) ever running, which the Python SDK
// reports as "Task group is not initialized". Every attempt meets the same install: fix the deployment.
export const deploymentBroken: Rule = {
  id: 'deployment-broken',
  decision: 'fix_route_or_config',
  source: 'triage-rules.md decision table (deployment) · python-sdk streamable_http_manager.py',
  when(f) {
    if (!has(f, 'deployment-broken')) return 'no missing module, library or unstarted app in the logs';
    if (has(f, 'tool-error')) return "a tool's own failure (its code missing a module) is the tool's result";
    return true;
  },
  rationale: (f) =>
    `${describe(f)} failed because a process cannot run as deployed (${signalWords(f, ['deployment-broken'], 'a missing module or library')}). Install what is missing in the image or environment that runs it (the package with its extras, the right base image or runtime), or — for "Task group is not initialized" — run the mounted MCP app's lifespan (its session manager) in the host app. Retrying the same deployment fails the same way.`,
  examples: [
    { name: 'LiteLLM without the HTTP extra', facts: { causes: ['deployment-broken'] }, fires: true },
    { name: 'a mounted Python MCP app whose lifespan never ran (500)', facts: { httpStatus: 500, causes: ['deployment-broken', 'server-error'] }, fires: true },
    { name: "near miss: a tool's own ImportError in its result", facts: { method: 'tools/call', tool: 'run_script', causes: ['tool-error', 'deployment-broken'] }, fires: false },
    { name: 'near miss: a plain 500', facts: { httpStatus: 500, causes: ['server-error'] }, fires: false },
  ],
};
