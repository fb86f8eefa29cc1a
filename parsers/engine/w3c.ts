// The W3C Extended Log File Format (w3.org/TR/WD-logfile): IIS and Azure App Service's HTTP logs, CloudFront's
// standard logs. Its columns are not fixed: a `#Fields:` directive names them (`date time s-ip cs-method
// cs-uri-stem … sc-status time-taken cs(Mcp-Method)`), and a server may write a new one mid-file. So this is a
// wrapper bound to the file's own directive (clean.ts PrefixRule): each entry is rewritten as key=value pairs the
// logfmt format reads (method, path, status, duration, the MCP headers logged as `cs(Header)` columns), and the
// directives stay as they are. Dates and times are UTC (the format's own rule).
import type { PrefixRule } from './clean.ts';

export const W3C_ID = 'w3c';
const DIRECTIVE = /^#(?:Software|Version|Date|Fields|Start-Date|End-Date|Remark):/;
const FIELDS = /^#Fields:[ \t]{0,8}(\S[^\r\n]{0,4000})$/;
const ENTRY_START = /^\d{4}-\d\d-\d\d[ \t]\d\d:\d\d:\d\d/;

/** The column names of the last `#Fields:` directive among these lines, or null when none names a date or time. */
export function w3cFieldsIn(lines: readonly string[]): string | null {
  let out: string | null = null;
  for (const l of lines) {
    const m = FIELDS.exec(l.trim());
    if (m && /(?:^|\s)(?:date|time)(?:\s|$)/.test(m[1]!)) out = m[1]!.trim();
  }
  return out;
}

/** A header a `cs(Name)` column carries, as the pairs the formats and enrich read name it. */
const HEADER_KEYS: Record<string, string> = {
  'mcp-method': 'Mcp-Method',
  'mcp-name': 'Mcp-Name',
  'mcp-session-id': 'mcp_session_id',
  'mcp-protocol-version': 'protocol_version',
  'user-agent': 'user_agent',
  'x-request-id': 'request_id',
};
/** The fixed columns (w3.org/TR/WD-logfile "Fields"; IIS's names). */
const COLUMN_KEYS: Record<string, string> = {
  'cs-method': 'method',
  'sc-status': 'status',
  'sc-substatus': 'substatus',
  'sc-win32-status': 'win32_status',
  'c-ip': 'c_ip',
  's-ip': 's_ip',
  's-port': 's_port',
  's-sitename': 'site',
  's-computername': 'host',
  'cs-host': 'cs_host',
  'cs-username': 'cs_username',
  'sc-bytes': 'sc_bytes',
  'cs-bytes': 'cs_bytes',
  'x-edge-result-type': 'edge_result',
  'x-edge-detailed-result-type': 'edge_detail',
};

const quote = (v: string) => (/^[^\s"=]{1,500}$/.test(v) ? v : `"${v.slice(0, 2000).replace(/["\\]/g, '\\$&')}"`);

/** A wrapper bound to one file's `#Fields:` directive (space-separated names). */
export function w3cRule(fieldsLine: string): PrefixRule {
  let fields = fieldsLine.split(/\s+/);
  let last: string | null = null;
  let out: { text: string; stamp: number | null } | null = null;
  const read = (line: string): { text: string; stamp: number | null } | null => {
    const t = line.trim();
    if (DIRECTIVE.test(t)) {
      const f = FIELDS.exec(t);
      if (f) fields = f[1]!.trim().split(/\s+/);
      return { text: t, stamp: null };
    }
    if (!ENTRY_START.test(t)) return null;
    const parts = t.split(/[ \t]+/);
    if (parts.length !== fields.length) return null;
    const col = new Map<string, string>();
    fields.forEach((name, i) => {
      const v = parts[i]!;
      if (v !== '-') col.set(name.toLowerCase(), v);
    });
    const date = col.get('date');
    const time = col.get('time');
    const stamp = date && time ? Date.parse(`${date}T${time}Z`) : Number.NaN;
    const kv: string[] = [];
    if (Number.isFinite(stamp)) kv.push(`time=${new Date(stamp).toISOString()}`);
    const method = col.get('cs-method');
    const path = col.has('cs-uri-stem') ? `${col.get('cs-uri-stem')}${col.has('cs-uri-query') ? `?${col.get('cs-uri-query')}` : ''}` : col.get('cs-uri');
    const status = col.get('sc-status');
    const said = [method, path, status].filter((x) => x !== undefined).join(' ');
    if (said) kv.push(`msg=${quote(said)}`);
    if (path !== undefined) kv.push(`path=${quote(path)}`);
    for (const [name, v] of col) {
      if (name === 'date' || name === 'time' || name === 'cs-uri-stem' || name === 'cs-uri-query' || name === 'cs-uri') continue;
      if (name === 'time-taken') {
        // IIS writes milliseconds, CloudFront seconds with a fraction
        const n = Number(v);
        if (Number.isFinite(n)) kv.push(`duration_ms=${v.includes('.') ? Math.round(n * 1000) : n}`);
        continue;
      }
      const h = /^(?:cs|sc)\((.{1,80})\)$/.exec(name);
      // (IIS writes a header value's spaces as `+`)
      if (h) kv.push(`${HEADER_KEYS[h[1]!] ?? `${name.startsWith('sc') ? 'sc' : 'cs'}_${h[1]!.replace(/\W/g, '_')}`}=${quote(v.replace(/\+/g, ' '))}`);
      else kv.push(`${COLUMN_KEYS[name] ?? name.replace(/\W/g, '_')}=${quote(v)}`);
    }
    return { text: kv.join(' '), stamp: Number.isFinite(stamp) ? stamp : null };
  };
  return {
    id: W3C_ID,
    arg: fieldsLine,
    re: /^(?:#[A-Z][A-Za-z-]{1,20}:|\d{4}-\d\d-\d\d[ \t]\d\d:\d\d:\d\d)/,
    stamp: true,
    strong: true,
    // (a directive is read for its columns — unwrap below — and is no record: the `#Software` and `#Date` lines too)
    skip: (line) => {
      const t = line.trim();
      if (!DIRECTIVE.test(t)) return false;
      read(line);
      return true;
    },
    unwrap: (line) => {
      if (line !== last) {
        out = read(line);
        last = line;
      }
      return out;
    },
  };
}
