// The one list of what the redactor writes. The engine treats these tokens as inert (no rule
// redacts inside them), and since the verifier is the same engine, it never mistakes our own
// output for a leak: a placeholder, a pseudonym, a type summary, or a rule id named in a report
// footer (`@vendor-token:github` once read as `token: github` and refused reports, issue #18).
// Add a new kind of output here, or the verifier will flag it.
import { placeholder } from './types.ts';

/** Pseudonym prefixes by domain (pseudonym.ts writes them, `req-` is the report's request ids). */
export const PSEUDONYM_PREFIXES = ['sess_', 'h-', 'host-', 'email_', 'ip-', 'user-', 'req-'] as const;

const PSEUDONYM_SRC = String.raw`(?:sess_|h-|host-|email_|ip-|user-|req-)[a-z2-7]{10,16}`;
/** Type summaries written for business data (json.ts `summarise`). */
const SUMMARY_SRC = String.raw`<(?:string|array) len=\d{1,12}>|<object keys=\d{1,12}>|<(?:number|boolean|null)>`;
/** Placeholders: `[REDACTED:rule]`, `[REDACTED:line-truncated 12 chars]`, the report's `[REMOVED]` and `[cut]`. */
const PLACEHOLDER_SRC = String.raw`\[REDACTED:[^\]\n]{1,120}\]|\[REMOVED\]|\[cut\]`;

/** Rule ids that are not rows of a table (line state, engine and report passes). */
const EXTRA_RULE_IDS = [
  '@pem',
  '@jwt-continuation',
  '@mcp-session',
  '@mcp-session-masked',
  '@line-truncated',
  '@line-failed',
  '@base64',
  '@decoded',
  '@json-string',
  '@literal',
  '@verifier-failed',
  '@request-id',
  '@tool-arguments',
  '@business-kv',
];

let ruleIds: string[] | null = null;
let inertRe: RegExp | null = null;
let loader: (() => string[]) | null = null;

/** The engine registers its rule tables here (lazily read: the tables import this module). */
export function registerRuleIds(load: () => string[]): void {
  loader = load;
  ruleIds = null;
  inertRe = null;
}

export function knownRuleIds(): string[] {
  if (!ruleIds) ruleIds = [...new Set([...(loader ? loader() : []), ...EXTRA_RULE_IDS])].sort((a, b) => b.length - a.length);
  return ruleIds;
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function inertPattern(): RegExp {
  if (!inertRe) {
    // A rule id counts only as a whole word (`@secret-key` yes, `@secret-keys=…` no); a pseudonym
    // only when it does not run on into a longer name (`user-dashboard.corp.internal` is a host).
    const ids = knownRuleIds().map(esc).join('|');
    inertRe = new RegExp(`${PLACEHOLDER_SRC}|(?<![A-Za-z0-9_])${PSEUDONYM_SRC}(?![A-Za-z0-9_\\-]|\\.[A-Za-z0-9])|${SUMMARY_SRC}|(?:${ids})(?![A-Za-z0-9_:\\-])`, 'g');
  }
  return inertRe;
}

/** Cheap test: can the text hold any inert token at all? */
const MAY_HOLD = /\[RE|\[cut\]|<(?:string|number|boolean|null|array|object) |<(?:number|boolean|null)>|@[a-z]|(?:sess_|h-|host-|email_|ip-|user-|req-)[a-z2-7]/;
function mayHold(text: string): boolean {
  return MAY_HOLD.test(text);
}

/** Ranges [start, end) of every inert token in the text, in order. */
export function inertRanges(text: string): Array<[number, number]> {
  if (!mayHold(text)) return [];
  const re = inertPattern();
  re.lastIndex = 0;
  const out: Array<[number, number]> = [];
  for (const m of text.matchAll(re)) out.push([m.index, m.index + m[0].length]);
  return out;
}

const WHOLE_PSEUDONYM = new RegExp(`^${PSEUDONYM_SRC}$`);
const WHOLE_SUMMARY = new RegExp(`^(?:${SUMMARY_SRC})$`);

/** Is this whole value something the redactor wrote (or an empty / already-masked value)? */
export function isOurOutput(s: string): boolean {
  return /^\[REDACTED[^\]]{0,120}\]/.test(s) || s === '[REMOVED]' || s === '[cut]' || WHOLE_SUMMARY.test(s) || WHOLE_PSEUDONYM.test(s);
}

export { placeholder };
