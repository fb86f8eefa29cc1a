// One name for each tool across the logs. A host names a server's tool in its own namespace — Claude
// Code `mcp__crm__lookup_account` (mcp__<server>__<tool>), LibreChat `lookup_account_mcp_crm`
// (`Constants.mcp_delimiter = '_mcp_'`: <tool>_mcp_<server>), a gateway `crm.lookup_account` or
// `crm:lookup_account`, a chat UI `crm_lookup_account` — while the server and the proxy log the tool
// as it is. Until the names agree, a host's failed call and the server's line for the same call are
// two calls, and a retry the server answered is not seen as the host's recovery.
import type { Event } from '../../../parsers/contract/event.ts';

/** Separators no tool name holds by chance between a namespace and a tool. */
const STRONG_SEP = ['__', '.', ':', '/'];
/** Separators tool names use inside themselves (`get_order`): a prefix before them must name the server. */
const WEAK_SEP = ['_', '-'];
const LIBRECHAT = '_mcp_';
/** A URL's host in a line (`https://mcp-crm.internal.example.com/mcp`): the names a log gives the server. */
const URL_HOST = /\bhttps?:\/\/([A-Za-z0-9.-]{1,253})/g;
const MAX_TOOLS = 256;

/**
 * Whether `long` is `short` in a namespace: `<prefix><sep><short>` with a strong separator,
 * `<short>_mcp_<server>`, or `<prefix>_<short>` / `<prefix>-<short>` where the prefix is a label of a host
 * the same log connects to (`crm` of `mcp-crm.internal…`).
 */
export function namespaced(long: string, short: string, hostLabels: ReadonlySet<string>): boolean {
  if (long.length <= short.length + 1) return false;
  if (long.startsWith(short + LIBRECHAT) && long.length > short.length + LIBRECHAT.length) return true;
  if (!long.endsWith(short)) return false;
  const head = long.slice(0, long.length - short.length);
  for (const sep of STRONG_SEP) if (head.endsWith(sep) && head.length - sep.length >= 2) return true;
  for (const sep of WEAK_SEP) {
    if (!head.endsWith(sep)) continue;
    const prefix = head.slice(0, -sep.length).toLowerCase();
    if (prefix.length >= 2 && prefix !== 'mcp' && hostLabels.has(prefix)) return true;
  }
  return false;
}

/**
 * Rename a namespaced tool to the name another log gives it. Only when the two logs keep to their own
 * vocabularies (the long name is never logged where the short one is, nor the short where the long
 * one is) and exactly one short name fits: a server that itself has both `order` and `get_order`
 * keeps both.
 */
export function oneNameForEachTool(events: Event[]): Event[] {
  const filesOf = new Map<string, Set<string>>();
  for (const e of events) {
    if (e.tool === null) continue;
    let s = filesOf.get(e.tool);
    if (!s) {
      if (filesOf.size >= MAX_TOOLS) continue;
      filesOf.set(e.tool, (s = new Set()));
    }
    s.add(e.file);
  }
  if (filesOf.size < 2) return events;
  const names = [...filesOf.keys()];
  let hosts: Map<string, Set<string>> | null = null;
  const labelsOf = (file: string): ReadonlySet<string> => {
    hosts ??= hostLabelsByFile(events);
    return hosts.get(file) ?? EMPTY;
  };
  const rename = new Map<string, string>();
  for (const long of names) {
    const longFiles = filesOf.get(long)!;
    let labels: Set<string> | null = null;
    const fits = names.filter((short) => {
      if (short === long || [...filesOf.get(short)!].some((f) => longFiles.has(f))) return false;
      if (!labels) {
        labels = new Set<string>();
        for (const f of longFiles) for (const l of labelsOf(f)) labels.add(l);
      }
      return namespaced(long, short, labels);
    });
    if (fits.length === 1) rename.set(long, fits[0]!);
  }
  if (!rename.size) return events;
  return events.map((e) => (e.tool !== null && rename.has(e.tool) ? { ...e, tool: rename.get(e.tool)! } : e));
}

const EMPTY: ReadonlySet<string> = new Set();

function hostLabelsByFile(events: readonly Event[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const e of events) {
    if (!e.text.includes('://')) continue;
    let s = out.get(e.file);
    for (const m of e.text.slice(0, 4000).matchAll(URL_HOST)) {
      if (!s) out.set(e.file, (s = new Set()));
      for (const label of m[1]!.toLowerCase().split(/[.-]/)) if (label) s.add(label);
    }
  }
  return out;
}
