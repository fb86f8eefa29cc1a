// The ingest tier's gates (redaction.md "Tiers"). Before storage, in every privacy mode, a string
// goes through the session and ledger sweeps and then the `ingest` rules: credentials (formats,
// auth schemes, secret keys in any container) and the entropy net (@opaque). Most log lines hold
// none of them, so the rules sit behind two cheap gates:
//
// - the credential gate: ONE test over the string for every substring some credential rule or
//   secret key name needs (the alternatives below, each naming the rules it admits);
// - the entropy gate: a scan for a run of 32+ base64-ish characters with 3 upper-case letters, 3
//   lower-case letters and 3 digits (what @opaque's pattern and validate need).
//
// A string that passes neither is left after the sweeps: no ingest rule can fire on it. That is a
// claim, and tiers.test.ts holds it: every ingest rule's own true positives, the planted corpora
// (corpus/, corpus2/) and fuzzed lines give the same output gated and ungated.
//
// Conservative by construction where exactness is hard: any backslash (JSON / repr escapes, whose
// decoded leaves may spell a keyword the raw text does not) opens both gates.

import { asciiAutomaton } from '../../../parsers/engine/aho-corasick.ts';

/**
 * Substrings of the normalised string (lower case, `-_.` and blanks removed) that every secret key
 * name contains: keys.ts classifyKey's EXACT and CONTAINS tables and its `…auth` suffix rule,
 * for the key/value rules in every container (JSON walk, HAR name/value, `k=v`, `k: v`, headers,
 * query, XML, CLI flags, padded config dumps), and OAuth's context words for `code`/`state`.
 */
export const KEY_WORDS = [
  // CONTAINS, shortened to the shortest word each entry contains that stays rare in logs
  'pass', // password, passwd, passphrase, pass (EXACT), userpassword
  'pw', // pwd, pw (EXACT)
  'secret',
  'token', // …token…, /token (OAuth context)
  'credential',
  'privatekey',
  'sig', // signature, sig (EXACT)
  'dsn',
  'databaseurl',
  'dburl',
  'apikey', // apikey, xapikey, xgoogapikey
  'accesskey',
  'signingkey',
  'encryptionkey',
  'masterkey',
  'clientkey',
  'sessionkey',
  'subscriptionkey', // ocp-apim-subscription-key
  'connectionstring',
  'cookie',
  'ticket',
  // EXACT
  'auth', // authorization, proxyauthorization, auth, authz, …auth, oauth, /authorize
  'dpop',
  'codeverifier',
  'clientassertion',
  'lasteventid',
  // OAUTH_CONTEXT (code and state are secrets only there)
  'callback',
  'granttype',
  'redirecturi',
] as const;

/**
 * Raw-text alternatives (ASCII case-insensitive, as the rules' `/i` patterns match), each with the
 * rules whose patterns imply it. `triggers` are literals the alternative needs; `check` (optional)
 * is the rest of it: sticky at a trigger's start when `at: 'trigger'`, anywhere when `at: 'line'`.
 * An alternative without a check is admitted by its trigger alone.
 */
export interface RawAlternative {
  triggers: readonly string[];
  check?: RegExp;
  at?: 'trigger' | 'line';
  rules: readonly string[];
}

export const RAW_ALTERNATIVES: readonly RawAlternative[] = [
  { triggers: ['-----begin'], rules: ['@pem'] },
  { triggers: ['eyj'], rules: ['@jwt', '@jwt-fragment'] },
  { triggers: ['zxlk'], rules: ['@jwt-base64'] },
  { triggers: ['://'], check: /:\/\/[^\s/?#@"'<>]{1,256}@/iy, at: 'trigger', rules: ['@url-userinfo'] },
  { triggers: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'], rules: ['@vendor-token:github', '@vendor-token:github-fine-grained'] },
  { triggers: ['sk-proj-', 'sk-svcacct-', 'sk-admin-', 't3blbkfj'], rules: ['@vendor-token:openai'] },
  { triggers: ['sk-ant-'], rules: ['@vendor-token:anthropic'] },
  // the AWS secret also follows our own placeholder for the access key (ledger sweep)
  { triggers: ['akia', 'asia', 'abia', 'acca', 'vendor-token:aws-access-key'], rules: ['@vendor-token:aws-access-key', '@cloud-secret-key'] },
  { triggers: ['iqojb3jpz2lux2vj', 'fwogzxiv'], rules: ['@vendor-token:aws-session-token'] },
  { triggers: ['aiza'], rules: ['@vendor-token:google-api-key'] },
  { triggers: ['ya29.'], rules: ['@vendor-token:google-oauth'] },
  { triggers: ['1//0'], rules: ['@vendor-token:google-refresh'] },
  { triggers: ['xoxa-', 'xoxb-', 'xoxp-', 'xoxo-', 'xoxs-', 'xoxe-', 'xoxr-'], rules: ['@vendor-token:slack'] },
  { triggers: ['xapp-'], rules: ['@vendor-token:slack-app'] },
  { triggers: ['hooks.slack.com/'], rules: ['@vendor-token:slack-webhook'] },
  { triggers: ['sk_live_', 'sk_test_', 'sk_prod_', 'rk_live_', 'rk_test_', 'rk_prod_'], rules: ['@vendor-token:stripe'] },
  { triggers: ['whsec_'], rules: ['@vendor-token:stripe-webhook'] },
  { triggers: ['glpat-'], rules: ['@vendor-token:gitlab'] },
  { triggers: ['hf_'], rules: ['@vendor-token:huggingface'] },
  { triggers: ['npm_'], rules: ['@vendor-token:npm'] },
  { triggers: ['sg.'], rules: ['@vendor-token:sendgrid'] },
  { triggers: ['dop_v1_', 'doo_v1_', 'dor_v1_'], rules: ['@vendor-token:digitalocean'] },
  { triggers: ['pypi-'], rules: ['@vendor-token:pypi'] },
  { triggers: ['shpat_', 'shpca_', 'shppa_', 'shpss_'], rules: ['@vendor-token:shopify'] },
  { triggers: ['sk'], check: /sk[0-9a-f]{32}/iy, at: 'trigger', rules: ['@vendor-token:twilio'] },
  { triggers: ['accountkey='], rules: ['@vendor-token:azure-storage'] },
  { triggers: ['bearer'], rules: ['@bearer'] },
  { triggers: ['basic'], check: /basic(?:[ \t]|%20|\+)/iy, at: 'trigger', rules: ['@basic-auth'] },
  { triggers: ['/reset-password/', '/reset/', '/t/', '/hooks/', '/webhooks/', '/invite/', '/invitations/', '/magic-link/', '/verify/', '/confirm/'], rules: ['@path-token'] },
  { triggers: [' -p', '\t-p'], check: /[ \t]-p[^\s"'-]/iy, at: 'trigger', rules: ['@mysql-password'] },
  // auth, credentials and UserPassword( are key words below
  { triggers: ['creds', 'login'], check: /(?:creds|login)\s{0,4}[=:]\s{0,4}[([]/iy, at: 'trigger', rules: ['@auth-tuple'] },
  { triggers: ['('], check: /['"]\s{0,4},\s{0,4}\d{2,5}\s{0,4},/, at: 'line', rules: ['@conn-tuple'] },
  { triggers: ['-u'], check: /(?<![a-z0-9_-])-(?:u|-user|-proxy-user)(?:[ \t]|=)/i, at: 'line', rules: ['@cli-userinfo'] },
  // env dumps: *_KEY and *_PAT end the name (*_TOKEN, *_SECRET, *_PASSWORD… are key words)
  { triggers: ['_key', '_pat'], check: /_(?:key|pat)(?![a-z0-9_])/iy, at: 'trigger', rules: ['@env-secret'] },
];

/** Rules admitted through KEY_WORDS (they fire only on a key name classifyKey calls secret). */
export const KEY_WORD_RULES = [
  '@authorization',
  '@auth-scheme',
  '@cookie',
  '@api-key',
  '@secret-key',
  '@query-secret',
  '@oauth-code',
  '@env-secret',
  '@cli-secret-flag',
  '@sshpass',
  '@xml-secret',
  '@dotted-secret',
  '@auth-tuple',
] as const;

// ---------- one pass: two Aho–Corasick automata over ASCII lower case ----------

interface Automaton {
  next: Int32Array; // state * 128 + char → state
  /** Per state: the words that end here (indices), through fail links. */
  out: Int32Array[];
  /** Per state: 1 when some word ends here (out[state] is not empty), one byte read per character. */
  ends: Uint8Array;
}

function automaton(words: readonly string[]): Automaton {
  const { next, out } = asciiAutomaton(words);
  return { next, out: out.map((e) => Int32Array.from(e)), ends: Uint8Array.from(out, (e) => (e.length ? 1 : 0)) };
}

const TRIGGERS: Array<{ word: string; alt: RawAlternative }> = RAW_ALTERNATIVES.flatMap((alt) => alt.triggers.map((word) => ({ word, alt })));
const RAW_AC = automaton(TRIGGERS.map((t) => t.word));
const KEY_AC = automaton(KEY_WORDS);

/** Non-ASCII characters: their lower case as toLowerCase gives it (key names are compared so). */
const folded = new Map<number, string>();
function foldOf(code: number): string {
  let f = folded.get(code);
  if (f === undefined) folded.set(code, (f = String.fromCharCode(code).toLowerCase()));
  return f;
}
const isSpace = (ch: string) => /\s/.test(ch);

/**
 * The credential gate: can any credential rule (or secret key name) fire on this string? One pass:
 * the raw automaton reads ASCII lower case (a non-ASCII character never matches an ASCII letter
 * of a `/i` pattern), the key automaton reads the key-name normal form (lower case, `-_.` and
 * blanks skipped, non-ASCII characters folded as toLowerCase folds them).
 */
export function credentialGate(text: string): boolean {
  const rawNext = RAW_AC.next;
  const keyNext = KEY_AC.next;
  const rawEnds = RAW_AC.ends;
  const keyEnds = KEY_AC.ends;
  let r = 0;
  let k = 0;
  let lineChecked = false;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c === 92) return true; // escapes: see the header
    if (c >= 128) {
      r = 0;
      const f = foldOf(c);
      for (let j = 0; j < f.length; j++) {
        const fc = f.charCodeAt(j);
        if (fc < 128) {
          if (fc === 45 || fc === 95 || fc === 46 || (fc >= 9 && fc <= 13) || fc === 32) continue;
          k = keyNext[k * 128 + fc]!;
          if (keyEnds[k]) return true;
        } else if (!isSpace(f[j]!)) k = 0;
      }
      continue;
    }
    if (c >= 65 && c <= 90) c += 32;
    r = rawNext[r * 128 + c]!;
    if (rawEnds[r]) {
      const hits = RAW_AC.out[r]!;
      for (let h = 0; h < hits.length; h++) {
        const t = TRIGGERS[hits[h]!]!;
        const alt = t.alt;
        if (!alt.check) return true;
        if (alt.at === 'line') {
          if (lineChecked) continue;
          lineChecked = true; // (both line checks are cheap; run them together once)
          for (const a of RAW_ALTERNATIVES) if (a.at === 'line' && a.check!.test(text)) return true;
          continue;
        }
        alt.check.lastIndex = i + 1 - t.word.length;
        if (alt.check.test(text)) return true;
      }
    }
    // key names skip - _ . and blanks
    if (c === 45 || c === 95 || c === 46 || (c >= 9 && c <= 13) || c === 32) continue;
    k = keyNext[k * 128 + c]!;
    if (keyEnds[k]) return true;
  }
  return false;
}

/**
 * The entropy gate: a run of 32+ characters of [A-Za-z0-9+/_=-] with at least 3 upper-case
 * letters, 3 lower-case letters and 3 digits (@opaque needs all of that in its value, which is
 * such a run or part of one). A backslash anywhere opens it (escapes decode into leaves).
 */
export function entropyGate(text: string): boolean {
  let len = 0;
  let upper = 0;
  let lower = 0;
  let digits = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : -1;
    if (c >= 65 && c <= 90) upper++;
    else if (c >= 97 && c <= 122) lower++;
    else if (c >= 48 && c <= 57) digits++;
    else if (c === 43 || c === 47 || c === 95 || c === 61 || c === 45) {
      // + / _ = -
    } else if (c === 92) return true;
    else {
      if (len >= 32 && upper >= 3 && lower >= 3 && digits >= 3) return true;
      len = upper = lower = digits = 0;
      continue;
    }
    len++;
  }
  return false;
}

/** The ingest tier runs its rules on a string only when one of the gates admits it. */
export function ingestGate(text: string, keyHint?: string): boolean {
  const t = keyHint === undefined ? text : `${text}\n${keyHint}`;
  return credentialGate(t) || entropyGate(t);
}
