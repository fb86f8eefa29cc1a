// The side-effect axis (triage-rules.md §6): is a call safe to repeat? Evidence, in order:
//   1. the user's policy file `mcp-triage.tools.json` — {"tools": {"create_order": "write", "get_order": "read"}}
//   2. tool annotations in a logged tools/list result (readOnlyHint / destructiveHint / idempotentHint) —
//      hints from the server, shown as hints, never proof
//   3. unknown — treated as a write.
// A tool's NAME never decides it ("get_…" proves nothing). Non-tool methods that only read
// (tools/list, resources/read, initialize, …) are read-only by the protocol.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { namespaced } from '../correlate/tool-names.ts';

export const POLICY_FILE = 'mcp-triage.tools.json';

export const ToolPolicy = z.object({
  tools: z.record(z.string().min(1), z.enum(['read', 'write'])),
});
export type ToolPolicy = z.infer<typeof ToolPolicy>;

export type ToolClass = 'read' | 'write' | 'unknown';

export interface ToolClassification {
  class: ToolClass;
  source: 'method' | 'policy' | 'annotations' | 'unknown';
  /** Annotation hints, for the rationale ("readOnlyHint: true, idempotentHint: true"). */
  hints: string | null;
}

/**
 * The hints logged under the tool's other name: a gateway's catalog lists an upstream's tool as the upstream names it
 * (`search_pages`) while its clients call it in the gateway's namespace (`wiki__search_pages`), or the other way round
 * (correlate/tool-names.ts `namespaced`). Only when exactly one annotated name fits.
 */
function namespacedAnnotations(tool: string, annotations: ReadonlyMap<string, Record<string, boolean>>): Record<string, boolean> | undefined {
  const fits = [...annotations].filter(([name]) => namespaced(tool, name, NO_HOSTS) || namespaced(name, tool, NO_HOSTS));
  return fits.length === 1 ? fits[0]![1] : undefined;
}
const NO_HOSTS: ReadonlySet<string> = new Set();

export function classifyTool(
  method: string | null,
  tool: string | null,
  policy: ToolPolicy | null,
  annotations: ReadonlyMap<string, Record<string, boolean>>,
  readMethods: ReadonlySet<string>,
): ToolClassification {
  if (method && method !== 'tools/call') {
    if (readMethods.has(method)) return { class: 'read', source: 'method', hints: null };
    if (method.startsWith('notifications/')) return { class: 'read', source: 'method', hints: null };
    return { class: 'unknown', source: 'unknown', hints: null };
  }
  const ann = tool ? (annotations.get(tool) ?? namespacedAnnotations(tool, annotations)) : undefined;
  const hints = ann
    ? Object.entries(ann)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ')
    : null;
  const fromPolicy = tool ? policy?.tools[tool] : undefined;
  if (fromPolicy) return { class: fromPolicy, source: 'policy', hints };
  if (ann) {
    // read-only, or explicitly non-destructive and idempotent: repeatable per D6
    if (ann.readOnlyHint === true || (ann.destructiveHint === false && ann.idempotentHint === true)) return { class: 'read', source: 'annotations', hints };
    if (ann.readOnlyHint === false || ann.destructiveHint === true || ann.idempotentHint === false) return { class: 'write', source: 'annotations', hints };
  }
  return { class: 'unknown', source: 'unknown', hints };
}

/** Parse a policy file's text; a broken file is an error that names the file (never silently ignored). */
export function parseToolPolicy(text: string, where = POLICY_FILE): ToolPolicy {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`${where}: not JSON (${(err as Error).message}); expected {"tools": {"<tool>": "read" | "write"}}`);
  }
  const r = ToolPolicy.safeParse(json);
  if (!r.success)
    throw new Error(`${where}: ${r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}; expected {"tools": {"<tool>": "read" | "write"}}`);
  return r.data;
}

/**
 * Find the policy for an analysis: `mcp-triage.tools.json` beside the inputs (in a folder given,
 * or beside a file given), else in the workspace directory. The first found wins; entries of
 * several files beside the inputs are merged, earlier paths first.
 */
export function loadToolPolicy(paths: readonly string[], workspaceDir?: string | null): ToolPolicy | null {
  const candidates: string[] = [];
  for (const p of paths) {
    if (!existsSync(p)) continue;
    const dir = statSync(p).isDirectory() ? p : dirname(p);
    candidates.push(join(dir, POLICY_FILE));
  }
  const found = [...new Set(candidates)].filter((f) => existsSync(f));
  if (found.length) {
    const merged: ToolPolicy = { tools: {} };
    for (const f of found.reverse()) Object.assign(merged.tools, parseToolPolicy(readFileSync(f, 'utf8'), f).tools);
    return merged;
  }
  if (workspaceDir) {
    const f = join(workspaceDir, POLICY_FILE);
    if (existsSync(f)) return parseToolPolicy(readFileSync(f, 'utf8'), f);
  }
  return null;
}

/** The policy file is configuration, not a log: inputs with this name are left out of the analysis. */
export const isPolicyFile = (file: string) => file === POLICY_FILE || file.endsWith(`/${POLICY_FILE}`) || file.endsWith(`\\${POLICY_FILE}`);
