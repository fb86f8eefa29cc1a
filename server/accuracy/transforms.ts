// Metamorphic transforms of an incident bundle: the same incident written another way — another
// client log style, other file names, another order, gzip, CRLF, a shifted clock, a skewed server
// clock, unrelated healthy sessions and GET-stream reconnect noise spliced in. The diagnosis must
// not change: same headline decision, same failing request.
import { gzipSync } from 'node:zlib';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { LOG_EXTENSIONS } from '../ingest/inputs.ts';
import { isPolicyFile } from '../triage/classify/policy.ts';
import { join } from 'node:path';

/** A bundle in memory: file name → content, in the order the files are handed to the analyser. */
export interface Bundle {
  files: { name: string; data: Buffer }[];
}

export type TransformId =
  | 'style'
  | 'server-style'
  | 'rename'
  | 'reorder'
  | 'gzip'
  | 'crlf'
  | 'clock'
  | 'skew'
  | 'noise'
  | 'container'
  | 'timestamps'
  | 'ansi'
  | 'names'
  | 'journald'
  | 'docker-json'
  | 'cloud-json'
  | 'quote'
  | 'kubectl-prefix'
  | 'syslog';

/**
 * The collectors users copy logs out of, in both metamorphic suites: a `journalctl` / syslog header (read as a
 * line prefix, its host, program and pid kept in attrs), docker's json-file record, a cloud logging export, a
 * GitHub-issue quote or fence, `kubectl logs --prefix`.
 */
export const COLLECTOR_TRANSFORMS: readonly TransformId[] = ['journald', 'syslog', 'docker-json', 'cloud-json', 'quote', 'kubectl-prefix'];

/** The names of a bundle directory's logs (not its labels, READMEs, expected output or style variants). */
/** A saved document (a browser's HAR), not a log: it never passes through a container's log or a terminal. */
const isDocument = (name: string) => name.endsWith('.har');

export function readBundleNames(dir: string): string[] {
  return (
    readdirSync(dir)
      // (the names the CLI reads from a folder, ingest/inputs.ts)
      .filter((f) => LOG_EXTENSIONS.test(f) && !f.startsWith('expected.') && f !== 'label.json' && statSync(join(dir, f)).isFile())
      .sort()
  );
}

export function readBundle(dir: string): Bundle {
  return { files: readBundleNames(dir).map((name) => ({ name, data: readFileSync(join(dir, name)) })) };
}

export function writeBundle(b: Bundle, dir: string): string {
  mkdirSync(dir, { recursive: true });
  for (const f of b.files) writeFileSync(join(dir, f.name), f.data);
  return dir;
}

/** A small seeded generator (mulberry32): the same seed gives the same transform everywhere. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const frac = (ms: number, digits: number) => (digits === 0 ? '' : String(ms).padStart(3, '0').padEnd(digits, '0').slice(0, digits));

/**
 * Every timestamp of a log line moved by `ms`, written back in its own layout: ISO 8601 (T or space,
 * with or without a zone), nginx error-log and CLF/HAProxy times, epoch seconds or milliseconds as
 * JSON numbers. Zone-less times are read as UTC and stay zone-less.
 */
// ISO 8601 (groups: y, mo, d, separator, h, mi, s, fraction separator, fraction, zone) and CLF/HAProxy
// (d, month, y, h, mi, s, fraction, zone) times, as shiftTimes rewrites them and earliestOwnTime reads them
const ISO_TIME = /\b(\d{4})-(\d\d)-(\d\d)([T ])(\d\d):(\d\d):(\d\d)(?:([.,])(\d{1,9}))?(Z|[+-]\d\d:?\d\d)?/g;
const CLF_TIME = /\b(\d\d)\/([A-Z][a-z]{2})\/(\d{4}):(\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?( [+-]\d{4})?/g;
/** Go's `log` default and others: `2026/06/11 14:07:52` (no zone: UTC, as shiftTimes treats it). */
const SLASH_TIME = /\b(\d{4})\/(\d\d)\/(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?\b/g;
const slashInstant = (y: string, mo: string, d: string, h: string, mi: string, s: string, fr: string | undefined) => Date.UTC(+y, +mo - 1, +d, +h, +mi, +s, fractionMs(fr));
/** java.util.logging's SimpleFormatter head: `Nov 26, 2026 1:39:58 PM` (no zone: UTC, as the line reader treats it). */
const JUL_TIME = /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{1,2}), (\d{4}) (\d{1,2}):(\d\d):(\d\d) ([AP]M)\b/g;
const julInstant = (mon: string, d: string, y: string, h: string, mi: string, s: string, ap: string) =>
  Date.UTC(+y, MONTHS.indexOf(mon), +d, (+h % 12) + (ap === 'PM' ? 12 : 0), +mi, +s);
/** A zone suffix (`Z`, `+02:00`, `-0400`, ` -0400`) in minutes east of UTC; none is UTC. */
const zoneMinutes = (zone: string | undefined) => {
  const z = zone?.trim();
  return z && z !== 'Z' ? (z[0] === '-' ? -1 : 1) * (Number(z.slice(1, 3)) * 60 + Number(z.slice(-2))) : 0;
};
const fractionMs = (fr: string | undefined) => (fr ? Number(fr.padEnd(3, '0').slice(0, 3)) : 0);
/** The instant an ISO_TIME match names (epoch ms). */
const isoInstant = (y: string, mo: string, d: string, h: string, mi: string, s: string, fr: string | undefined, zone: string | undefined) =>
  Date.UTC(+y, +mo - 1, +d, +h, +mi, +s, fractionMs(fr)) - zoneMinutes(zone) * 60_000;
/** The instant a CLF_TIME match names (epoch ms). */
const clfInstant = (d: string, mon: string, y: string, h: string, mi: string, s: string, fr: string | undefined, zone: string | undefined) =>
  Date.UTC(+y, MONTHS.indexOf(mon), +d, +h, +mi, +s, fractionMs(fr)) - zoneMinutes(zone) * 60_000;

export function shiftTimes(text: string, ms: number): string {
  const iso = new RegExp(ISO_TIME);
  const slash = /\b(\d{4})\/(\d\d)\/(\d\d) (\d\d):(\d\d):(\d\d)\b/g;
  const clf = new RegExp(CLF_TIME);
  const epoch = /("(?:time|ts|timestamp|msec|start_time|startTime)"\s*:\s*)(\d{10})(\d{3})?(\.\d{1,6})?\b/g;
  const syslog = /^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ([ \d]\d) (\d\d):(\d\d):(\d\d)(?=\s)/gm;
  // (behind an ANSI colour as a terminal logger writes it: `\x1b[90m13:05:09.402\x1b[39m`)
  const timeOfDay = /^((?:\x1b\[[0-9;]{0,12}m)?\[?)(\d\d):(\d\d):(\d\d)([.,]\d{1,6})?(\]?)(?=[\s\]\x1b])/gm;
  let out = text.replace(iso, (m, y, mo, d, sep, h, mi, s, fsep, fr, zone) => {
    const offMin = zoneMinutes(zone);
    const t = isoInstant(y, mo, d, h, mi, s, fr, zone) + ms;
    const l = new Date(t + offMin * 60_000);
    const rest = fr ? `${fsep}${frac(l.getUTCMilliseconds(), fr.length)}${fr.length > 3 ? fr.slice(3) : ''}` : '';
    return `${l.getUTCFullYear()}-${pad(l.getUTCMonth() + 1)}-${pad(l.getUTCDate())}${sep}${pad(l.getUTCHours())}:${pad(l.getUTCMinutes())}:${pad(l.getUTCSeconds())}${rest}${zone ?? ''}`;
  });
  out = out.replace(slash, (_m, y, mo, d, h, mi, s) => {
    const l = new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +s) + ms);
    return `${l.getUTCFullYear()}/${pad(l.getUTCMonth() + 1)}/${pad(l.getUTCDate())} ${pad(l.getUTCHours())}:${pad(l.getUTCMinutes())}:${pad(l.getUTCSeconds())}`;
  });
  out = out.replace(clf, (_m, d, mon, y, h, mi, s, fr, zone) => {
    const offMin = zoneMinutes(zone);
    const t = clfInstant(d, mon, y, h, mi, s, fr, zone) + ms;
    const l = new Date(t + offMin * 60_000);
    return `${pad(l.getUTCDate())}/${MONTHS[l.getUTCMonth()]}/${l.getUTCFullYear()}:${pad(l.getUTCHours())}:${pad(l.getUTCMinutes())}:${pad(l.getUTCSeconds())}${fr ? `.${frac(l.getUTCMilliseconds(), fr.length)}` : ''}${zone ?? ''}`;
  });
  out = out.replace(epoch, (_m, key, secs, msPart, fr) => {
    if (msPart !== undefined) return `${key}${Number(secs + msPart) + ms}`;
    if (fr) {
      const digits = fr.length - 1;
      const v = Math.round((Number(secs + fr) * 1000 + ms) * 1000) / 1000;
      return `${key}${(v / 1000).toFixed(digits)}`;
    }
    return `${key}${Number(secs) + Math.round(ms / 1000)}`;
  });
  out = out.replace(new RegExp(JUL_TIME), (_m, mon, d, y, h, mi, s, ap) => {
    const l = new Date(julInstant(mon, d, y, h, mi, s, ap) + ms);
    const hh = l.getUTCHours();
    return `${MONTHS[l.getUTCMonth()]} ${l.getUTCDate()}, ${l.getUTCFullYear()} ${hh % 12 === 0 ? 12 : hh % 12}:${pad(l.getUTCMinutes())}:${pad(l.getUTCSeconds())} ${hh < 12 ? 'AM' : 'PM'}`;
  });
  // syslog's `Mar 02 10:00:01` (no year: the arithmetic uses one, the output has none)
  out = out.replace(syslog, (_m, mon, d, h, mi, s) => {
    const l = new Date(Date.UTC(2026, MONTHS.indexOf(mon), Number(d), +h, +mi, +s) + ms);
    const day = d.startsWith(' ') ? String(l.getUTCDate()).padStart(2, ' ') : pad(l.getUTCDate());
    return `${MONTHS[l.getUTCMonth()]} ${day} ${pad(l.getUTCHours())}:${pad(l.getUTCMinutes())}:${pad(l.getUTCSeconds())}`;
  });
  // a stamp with the time of day only (`[09:14:02] …`, `09:12:31.402 IP …`) at a line's start: the same clock,
  // so it moves too (within its day: the reader dates such lines from the other files)
  out = out.replace(timeOfDay, (_m, open, h, mi, s, fr, close) => {
    const day = 86_400_000;
    const t = (((Date.UTC(1970, 0, 1, +h, +mi, +s, fr ? Number(fr.slice(1).padEnd(3, '0').slice(0, 3)) : 0) + ms) % day) + day) % day;
    const l = new Date(t);
    return `${open}${pad(l.getUTCHours())}:${pad(l.getUTCMinutes())}:${pad(l.getUTCSeconds())}${fr ? `${fr[0]}${frac(l.getUTCMilliseconds(), Math.min(3, fr.length - 1))}${fr.slice(4)}` : ''}${close}`;
  });
  return out;
}

const isClient = (name: string) => /client/i.test(name);
const isServer = (name: string) => /server/i.test(name);

/** Lines of `extra` merged into `base` by their leading timestamp (lines without one stay with the line before). */
function mergeByTime(base: string, extra: string): string {
  const stamp = (l: string) => {
    const m =
      /\b(\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?)|"time"\s*:\s*(\d{13})|\[(\d\d\/[A-Z][a-z]{2}\/\d{4}:\d\d:\d\d:\d\d[^\]]*)\]|^(\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d)/.exec(
        l,
      );
    if (!m) return null;
    if (m[2]) return Number(m[2]);
    if (m[3]) return Date.parse(m[3].replace(/^(\d\d)\/(\w{3})\/(\d{4}):/, '$2 $1 $3 ').replace(/\.\d+/, ''));
    const s = (m[1] ?? m[4]!).replace(',', '.').replace(/\//g, '-').replace(' ', 'T');
    return Date.parse(/[Zz+-]\d?\d?:?\d?\d?$/.test(s.slice(19)) ? s : `${s}Z`);
  };
  type Rec = { t: number; lines: string[]; from: number };
  const records = (text: string, from: number): Rec[] => {
    const out: Rec[] = [];
    let last = -Infinity;
    for (const l of text.replace(/\n$/, '').split('\n')) {
      const t = stamp(l);
      if (t !== null && !Number.isNaN(t)) {
        last = t;
        out.push({ t, lines: [l], from });
      } else if (out.length) out.at(-1)!.lines.push(l);
      else out.push({ t: last, lines: [l], from });
    }
    return out;
  };
  const all = [...records(base, 0), ...records(extra, 1)];
  // stable: equal times keep base lines first
  const sorted = all.map((r, i) => ({ r, i })).sort((a, b) => a.r.t - b.r.t || a.r.from - b.r.from || a.i - b.i);
  return sorted.flatMap(({ r }) => r.lines).join('\n') + '\n';
}

/** The earliest dated time the logs tell themselves (ISO 8601, with its zone or read as UTC; CLF with its offset), or null. */
function earliestOwnTime(files: readonly { name: string; data: Buffer }[]): number | null {
  let best: number | null = null;
  const keep = (t: number) => {
    if (Number.isFinite(t) && (best === null || t < best)) best = t;
  };
  for (const f of files) {
    if (isDocument(f.name)) continue;
    const text = f.data.toString('utf8');
    for (const m of text.matchAll(new RegExp(ISO_TIME))) keep(isoInstant(m[1]!, m[2]!, m[3]!, m[5]!, m[6]!, m[7]!, m[9], m[10]));
    for (const m of text.matchAll(new RegExp(CLF_TIME))) keep(clfInstant(m[1]!, m[2]!, m[3]!, m[4]!, m[5]!, m[6]!, m[7], m[8]));
    for (const m of text.matchAll(new RegExp(SLASH_TIME))) keep(slashInstant(m[1]!, m[2]!, m[3]!, m[4]!, m[5]!, m[6]!, m[7]));
    for (const m of text.matchAll(new RegExp(EPOCH_TIME))) keep(epochInstant(m[1]!, m[2], m[3]));
    for (const m of text.matchAll(new RegExp(JUL_TIME))) keep(julInstant(m[1]!, m[2]!, m[3]!, m[4]!, m[5]!, m[6]!, m[7]!));
  }
  return best;
}

/**
 * An epoch time in a JSON line's time field (pino's `"time":1795942947337`, `"ts":1795942947.466`), as shiftTimes moves
 * it: a log whose lines tell their time so is dated too — a collector stamps its lines at those times, not a year away.
 */
const EPOCH_TIME = /"(?:time|ts|timestamp|msec|start_time|startTime)"\s*:\s*(\d{10})(\d{3})?(\.\d{1,6})?\b/g;
const EPOCH_TIME_ONE = new RegExp(EPOCH_TIME.source);
const epochInstant = (secs: string, msPart: string | undefined, fr: string | undefined) =>
  msPart !== undefined ? Number(secs + msPart) : Math.round(Number(secs + (fr ?? '')) * 1000);

const TIME_OF_DAY = /^(?:\x1b\[[0-9;]{0,12}m)?\[?(\d\d):(\d\d):(\d\d)(?:[.,](\d{1,6}))?\]?(?=[\s\]\x1b])/;
/** A line that starts with the time of day alone (`15:02:11 [info]`, `[10:10:10.5]`): ms since midnight; null if not. */
function timeOfDay(line: string): number | null {
  const m = TIME_OF_DAY.exec(line);
  return m ? ((+m[1]! * 60 + +m[2]!) * 60 + +m[3]!) * 1000 + fractionMs(m[4]) : null;
}
function earliestTimeOfDay(files: readonly { name: string; data: Buffer }[]): number | null {
  let best: number | null = null;
  for (const f of files) {
    if (isDocument(f.name)) continue;
    for (const l of f.data.toString('utf8').split('\n')) {
      const t = timeOfDay(l);
      if (t !== null && (best === null || t < best)) best = t;
    }
  }
  return best;
}

/** The time a line tells at its start (its own stamp, not a time quoted in its message), epoch ms; null if none. */
// (the same patterns without the g flag: exec on them keeps no state between lines)
const ISO_TIME_ONE = new RegExp(ISO_TIME.source);
const CLF_TIME_ONE = new RegExp(CLF_TIME.source);
const SLASH_TIME_ONE = new RegExp(SLASH_TIME.source);
const JUL_TIME_ONE = new RegExp(JUL_TIME.source);
function lineOwnTime(line: string): number | null {
  const head = line.slice(0, 48);
  const m = ISO_TIME_ONE.exec(head);
  if (m) return isoInstant(m[1]!, m[2]!, m[3]!, m[5]!, m[6]!, m[7]!, m[9], m[10]);
  const c = CLF_TIME_ONE.exec(head);
  if (c) return clfInstant(c[1]!, c[2]!, c[3]!, c[4]!, c[5]!, c[6]!, c[7], c[8]);
  const g = SLASH_TIME_ONE.exec(head);
  if (g) return slashInstant(g[1]!, g[2]!, g[3]!, g[4]!, g[5]!, g[6]!, g[7]);
  const j = JUL_TIME_ONE.exec(head);
  if (j && j.index === 0) return julInstant(j[1]!, j[2]!, j[3]!, j[4]!, j[5]!, j[6]!, j[7]!);
  const e = line.startsWith('{') ? EPOCH_TIME_ONE.exec(line.slice(0, 200)) : null;
  return e ? epochInstant(e[1]!, e[2], e[3]) : null;
}

function firstTime(b: Bundle): number | null {
  let best: number | null = null;
  for (const f of b.files) {
    const m = /\b(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)/.exec(f.data.toString('utf8'));
    if (m) {
      const t = Date.parse(m[1]!);
      if (best === null || t < best) best = t;
    }
  }
  return best;
}

/**
 * Apply one transform. `styles` maps a client log style to its file (the same records written by
 * another logging library); `noise` is a list of bundles to splice in (healthy sessions, GET-stream
 * reconnects), matched to the incident's files by kind (client, proxy, server).
 */
// the tool policy file travels with a bundle: configuration, not a log, never rewritten
export function transform(b: Bundle, id: TransformId, seed: number, opts: { styles?: Map<string, Buffer>; noise?: Bundle[] } = {}): Bundle {
  // (names: the policy names the same tools, so it is renamed with the logs)
  if (id === 'names') return renameIdentifiers(b, seed);
  const config = b.files.filter((f) => isPolicyFile(f.name));
  const logs = transformLogs({ files: b.files.filter((f) => !isPolicyFile(f.name)) }, id, seed, opts);
  return { files: [...logs.files, ...config] };
}

// (names is not here: it renames the tool policy too, see transform)
function transformLogs(b: Bundle, id: Exclude<TransformId, 'names'>, seed: number, opts: { styles?: Map<string, Buffer>; noise?: Bundle[] }): Bundle {
  const r = rng(seed);
  const files = b.files.map((f) => ({ ...f }));
  switch (id) {
    case 'style': {
      const styles = [...(opts.styles ?? new Map())];
      if (!styles.length) return { files };
      const [, data] = styles[Math.floor(r() * styles.length)]!;
      const c = files.find((f) => isClient(f.name));
      if (c) c.data = data;
      return { files };
    }
    case 'server-style': {
      // the server's JSON lines (pino) written by another logging setup: pino-pretty, Go slog text,
      // Python logging with key=value extras, winston JSON — same records, other shape
      const styles = Object.keys(SERVER_STYLES);
      const style = styles[Math.floor(r() * styles.length)]!;
      return { files: files.map((f) => (isServer(f.name) ? { name: f.name, data: Buffer.from(restyleServer(f.data.toString('utf8'), style)) } : f)) };
    }
    case 'rename': {
      // names that say nothing about the source: the content must
      const order = files.map((_, i) => i).sort(() => r() - 0.5);
      return {
        files: files.map((f, i) => ({ name: `incident-${order[i]! + 1}${f.name.endsWith('.json.log') ? '.jsonl' : f.name.endsWith('.har') ? '.har' : '.log'}`, data: f.data })),
      };
    }
    case 'reorder':
      return { files: files.reverse() };
    case 'gzip':
      return { files: files.map((f, i) => (i % 2 === 0 || r() < 0.5 ? { name: `${f.name}.gz`, data: gzipSync(f.data) } : f)) };
    case 'crlf':
      return { files: files.map((f) => ({ name: f.name, data: Buffer.from(f.data.toString('utf8').replace(/\r?\n/g, '\r\n')) })) };
    case 'clock': {
      // every file moves together: days, hours and a few seconds
      const ms = (1 + Math.floor(r() * 40)) * 86_400_000 + Math.floor(r() * 23) * 3_600_000 + Math.floor(r() * 50) * 1000;
      return { files: files.map((f) => ({ name: f.name, data: Buffer.from(shiftTimes(f.data.toString('utf8'), ms)) })) };
    }
    case 'skew': {
      // the server's clock runs ahead of the others by 0.4–1.6 s
      const ms = 400 + Math.floor(r() * 1200);
      return { files: files.map((f) => (isServer(f.name) ? { name: f.name, data: Buffer.from(shiftTimes(f.data.toString('utf8'), ms)) } : f)) };
    }
    case 'container': {
      // `docker compose logs`: a service gutter on every line of every file
      const svc = ['api', 'mcp-gateway', 'worker', 'tools'][Math.floor(r() * 4)]!;
      const pad = ' '.repeat(2 + Math.floor(r() * 3)); // compose pads every line of a service alike
      return {
        files: files.map((f, i) => (isDocument(f.name) ? f : { name: f.name, data: Buffer.from(eachLine(f.data.toString('utf8'), (l) => `${svc}-${i + 1}${pad}| ${l}`)) })),
      };
    }
    case 'timestamps':
      // `docker logs -t` / `kubectl logs --timestamps`: RFC 3339 with nanoseconds before every line
      return { files: collectorStamped(files, r, (l, t) => `${t.iso9} ${l}`) };
    case 'journald': {
      // `journalctl -u <unit>` (journalctl(1), OUTPUT MODES): `short` is "mostly identical to the formatting of
      // classic syslog files" — `Mar 04 10:00:01 host ident[pid]: line`, the day zero-padded; `short-precise` the
      // same with microseconds; `short-iso` with an ISO 8601 wallclock stamp whose offset has no colon (`+0000`,
      // systemd issue #26639)
      const mode = (['short', 'short-precise', 'short-iso'] as const)[Math.floor(r() * 3)]!;
      const host = ['web-01', 'ip-10-0-3-17', 'mcp-host'][Math.floor(r() * 3)]!;
      return {
        files: collectorStamped(files, r, (l, t, f) => {
          const stamp =
            mode === 'short-iso' ? `${t.iso0.slice(0, 19)}+0000` : mode === 'short-precise' ? `${syslogStamp(t.ms, '0')}${t.iso6.slice(19, 26)}` : syslogStamp(t.ms, '0');
          return `${stamp} ${host} ${f.ident}[${f.pid}]: ${l}`;
        }),
      };
    }
    case 'syslog': {
      // a syslog collector's copy: RFC 5424 §6 (`<PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID SD MSG`, nil
      // values as `-`) or RFC 3164 §4.1 (`<PRI>Mmm dd hh:mm:ss HOSTNAME TAG[pid]: MSG`, the day space-padded).
      // PRI = facility local0 (16) × 8 + the line's own severity where it shows one, else notice (5). An RFC 5424
      // sender may add a MSGID and structured data (§6.3, its example SD-ELEMENT)
      const v5424 = r() < 0.5;
      const host = ['web-01', 'app-2.internal', 'mcp-host'][Math.floor(r() * 3)]!;
      const sd = r() < 0.5 ? '- -' : 'ID47 [exampleSDID@32473 iut="3" eventSource="Application" eventID="1011"]';
      return {
        files: collectorStamped(files, r, (l, t, f) => {
          const pri = 16 * 8 + SYSLOG_SEVERITY[levelWord(l) ?? ''];
          return v5424 ? `<${pri}>1 ${t.iso6} ${host} ${f.ident} ${f.pid} ${sd} ${l}` : `<${pri}>${syslogStamp(t.ms, ' ')} ${host} ${f.ident}[${f.pid}]: ${l}`;
        }),
      };
    }
    case 'docker-json': {
      // the json-file logging driver's own file (docs.docker.com/engine/logging/drivers/json-file): one object per
      // line, `{"log":"<line>\n","stream":"stdout","time":"<RFC 3339, nanoseconds>"}`, keys in that order
      return {
        files: collectorStamped(files, r, (l, t, f) => JSON.stringify({ log: `${l}\n`, stream: f.stream, time: t.iso9 })),
      };
    }
    case 'cloud-json': {
      // a cloud logging export, one entry per line. GCP (cloud.google.com/logging/docs/reference/v2/rest/v2/LogEntry):
      // the line in `textPayload`, `severity` (DEFAULT when none was assigned), `timestamp`, `resource`, `logName`.
      // Datadog-style (docs.datadoghq.com/logs/log_configuration/attributes_naming_convention): `message`, `status`,
      // `timestamp`, `host`, `service`. A shipper sets the severity only where it parsed the line's own level
      const gcp = r() < 0.5;
      const host = ['gke-pool-1-a3f9', 'ip-10-0-3-17', 'mcp-node-2'][Math.floor(r() * 3)]!;
      return {
        files: collectorStamped(files, r, (l, t, f) => {
          const level = levelWord(l);
          if (gcp)
            return JSON.stringify({
              insertId: `${f.pid.toString(36)}${t.n.toString(36)}`,
              resource: { type: 'k8s_container', labels: { container_name: f.ident, namespace_name: 'default' } },
              textPayload: l,
              timestamp: t.iso9,
              severity: level ? GCP_SEVERITY[level] : 'DEFAULT',
              logName: `projects/demo/logs/${f.stream}`,
              receiveTimestamp: t.iso9,
            });
          return JSON.stringify({ timestamp: t.iso0, host, service: f.ident, ...(level ? { status: level } : {}), message: l });
        }),
      };
    }
    case 'quote': {
      // a GitHub issue paste (GitHub Flavored Markdown spec, §4.5 fenced code blocks, §5.1 block quotes): the file in
      // a ``` fence (maybe with an info string), quoted with `> ` (a blank line quoted as `>`), or both
      const fence = r() < 0.75;
      const quoted = !fence || r() < 0.5;
      const info = ['', 'log', 'text', 'console', 'shell'][Math.floor(r() * 5)]!;
      return {
        files: files.map((f) => {
          if (isDocument(f.name)) return f;
          const text = f.data.toString('utf8');
          const eol = text.includes('\r\n') ? '\r\n' : '\n';
          let lines = text.replace(/\r?\n$/, '').split(/\r?\n/);
          if (fence) lines = [`\`\`\`${info}`, ...lines, '```'];
          if (quoted) lines = ['', ...lines, ''].map((l) => (l === '' ? '>' : `> ${l}`));
          return { name: f.name, data: Buffer.from(lines.join(eol) + eol) };
        }),
      };
    }
    case 'kubectl-prefix': {
      // `kubectl logs --prefix` (kubectl reference): `[pod/<pod>/<container>] ` before every line; one pod per file
      return {
        files: files.map((f, i) => {
          if (isDocument(f.name)) return f;
          const pod = `${['mcp-server', 'gateway', 'agent'][i % 3]}-${podHash(r, 10)}-${podHash(r, 5)}`;
          const container = ['app', 'server', 'main'][Math.floor(r() * 3)]!;
          return { name: f.name, data: Buffer.from(eachLine(f.data.toString('utf8'), (l) => `[pod/${pod}/${container}] ${l}`)) };
        }),
      };
    }
    case 'ansi': {
      // a terminal copy: level words coloured, the rest reset
      const colour: Record<string, string> = { ERROR: '31', error: '31', WARN: '33', WARNING: '33', warn: '33', INFO: '32', info: '32', DEBUG: '2', debug: '2' };
      return {
        files: files.map((f) =>
          isDocument(f.name)
            ? f
            : {
                name: f.name,
                data: Buffer.from(
                  eachLine(f.data.toString('utf8'), (l) => l.replace(/\b(ERROR|WARNING|WARN|INFO|DEBUG|error|warn|info|debug)\b/, (w) => `\x1b[${colour[w]}m${w}\x1b[0m`)),
                ),
              },
        ),
      };
    }
    case 'noise': {
      const start = firstTime(b);
      if (start === null || !opts.noise?.length) return { files };
      for (const n of opts.noise) {
        const nStart = firstTime(n);
        if (nStart === null) continue;
        const delta = start - nStart + Math.floor(r() * 2000) - 500;
        const kind = (name: string) => (isClient(name) ? 'client' : isServer(name) ? 'server' : /nginx|haproxy|caddy|proxy|access|error/i.test(name) ? 'proxy' : 'other');
        for (const nf of n.files) {
          // a client or server log takes the noise of its side; a proxy log only the same proxy's (same file name)
          const target = files.find((f) => f.name === nf.name) ?? files.find((f) => kind(f.name) === kind(nf.name) && (kind(f.name) === 'client' || kind(f.name) === 'server'));
          if (!target) continue;
          target.data = Buffer.from(mergeByTime(target.data.toString('utf8'), shiftTimes(nf.data.toString('utf8'), delta)));
        }
      }
      return { files };
    }
  }
}

type PinoRecord = Record<string, unknown> & { level?: number; time?: number; msg?: string; pid?: number; hostname?: string };

const LEVEL_NAME: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
const PY_LEVEL: Record<string, string> = { trace: 'DEBUG', debug: 'DEBUG', info: 'INFO', warn: 'WARNING', error: 'ERROR', fatal: 'CRITICAL' };
const OWN = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'service']);

/** Context fields of a record (all but the logger's own), `err` last as its own value. */
function contextOf(rec: PinoRecord): [string, unknown][] {
  return Object.entries(rec).filter(([k]) => !OWN.has(k));
}

const logfmtValue = (v: unknown) => {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return /^[^\s"=]+$/.test(s) ? s : JSON.stringify(s);
};

/** How each logging setup writes one pino record (a record may become several lines). */
const SERVER_STYLES: Record<string, (rec: PinoRecord, level: string, iso: string) => string> = {
  // pino-pretty --translateTime 'SYS:standard': header, then one indented `key: value` per field
  'pino-pretty': (rec, level, iso) => {
    const head = `[${iso.replace('T', ' ').replace('Z', ' +0000')}] ${level.toUpperCase()} (${rec.pid} on ${rec.hostname}): ${rec.msg ?? ''}`;
    const body = contextOf(rec).map(([k, v]) => {
      if (k === 'err' && v && typeof v === 'object') {
        const e = v as { type?: string; message?: string; stack?: string };
        const stack = (e.stack ?? '')
          .split('\n')
          .map((l) => `            ${l}`)
          .join('\n');
        return `    err: {\n      "type": ${JSON.stringify(e.type)},\n      "message": ${JSON.stringify(e.message)},\n      "stack":\n${stack}\n    }`;
      }
      return `    ${k}: ${JSON.stringify(v)}`;
    });
    return [head, ...body].join('\n');
  },
  // Go log/slog TextHandler: logfmt, groups flattened with dots
  slog: (rec, level, iso) => {
    const parts = [`time=${iso}`, `level=${level.toUpperCase()}`, `msg=${logfmtValue(rec.msg ?? '')}`, `pid=${rec.pid}`];
    for (const [k, v] of contextOf(rec)) {
      if (k === 'err' && v && typeof v === 'object') {
        const e = v as { type?: string; message?: string };
        parts.push(`err.type=${logfmtValue(e.type)}`, `err.message=${logfmtValue(e.message)}`);
      } else parts.push(`${k}=${logfmtValue(v)}`);
    }
    return parts.join(' ');
  },
  // Python logging, '%(asctime)s %(levelname)s [%(name)s] %(message)s' with the context appended by the app
  'python-logging': (rec, level, iso) => {
    const ctx = contextOf(rec).filter(([k]) => k !== 'err');
    const asctime = iso.replace('T', ' ').replace('.', ',').replace('Z', '');
    const line = `${asctime} ${PY_LEVEL[level]} [${String(rec.service ?? 'app').replace(/-/g, '_')}] ${rec.msg ?? ''}${ctx.length ? ` ${ctx.map(([k, v]) => `${k}=${logfmtValue(v)}`).join(' ')}` : ''}`;
    const err = rec.err as { stack?: string } | undefined;
    return err?.stack ? `${line}\n${err.stack}` : line;
  },
  // winston's json format with the timestamp format: message first, level by name, ISO time last
  winston: (rec, level, iso) => {
    const ctx = Object.fromEntries(contextOf(rec));
    return JSON.stringify({ level, message: rec.msg ?? '', service: rec.service, pid: rec.pid, ...ctx, timestamp: iso });
  },
};

/** A pino JSON-lines log rewritten in another style; lines that are not pino records stay. */
export function restyleServer(text: string, style: string): string {
  const write = SERVER_STYLES[style]!;
  return eachLine(text, (l) => {
    if (!l.startsWith('{')) return l;
    let rec: PinoRecord;
    try {
      rec = JSON.parse(l) as PinoRecord;
    } catch {
      return l;
    }
    if (typeof rec.level !== 'number' || typeof rec.time !== 'number') return l;
    return write(rec, LEVEL_NAME[rec.level] ?? 'info', new Date(rec.time).toISOString());
  });
}

/** A collector's view of one file: the process it names (identifier, pid) and the stream it read. */
interface Collected {
  ident: string;
  pid: number;
  stream: 'stdout' | 'stderr';
}

/** The time a collector stamped a line with: epoch ms, and RFC 3339 with 0, 6 and 9 fraction digits. */
interface Stamp {
  ms: number;
  n: number;
  iso0: string;
  iso6: string;
  iso9: string;
}

/**
 * Every line of every log (not a saved document) wrapped by a collector that stamps it when the app writes it,
 * lines microseconds apart (one print's lines arrive together). Where the logs tell their own time the
 * bundle's clock moves with the stamps (every file alike, as the clock transform does): a stamp a year away
 * from the line's own time is no real paste.
 */
function collectorStamped(files: { name: string; data: Buffer }[], r: () => number, wrap: (line: string, t: Stamp, f: Collected) => string) {
  // A collector stamps a line when the app writes it: where the logs tell their own time the bundle's clock moves
  // with the stamps (every file alike, as the clock transform does: a stamp a year away from the line's own time is
  // no real paste), a line that tells its time is stamped at that time (a time-of-day-only log keeps its times of
  // day), and lines between are microseconds apart (one print's lines arrive together); never back within a file.
  const day = Date.UTC(2026, 2, 4);
  let base = day + 10 * 3_600_000 + Math.floor(r() * 3_600_000);
  const own = earliestOwnTime(files);
  const tod = own === null ? earliestTimeOfDay(files) : null;
  if (tod !== null) base = day + tod;
  // the clock moves by whole seconds, as the clock transform's does: a log that stamps whole seconds (nginx's
  // access log, CLF) truncates its times, so a shift with a fraction would put its lines up to a second before
  // events in millisecond logs that happened first — no log writes that
  if (own !== null) base = own + Math.round((base - own) / 1000) * 1000;
  const moved = own === null ? files : files.map((f) => (isDocument(f.name) ? f : { name: f.name, data: Buffer.from(shiftTimes(f.data.toString('utf8'), base - own)) }));
  return moved.map((f) => {
    if (isDocument(f.name)) return f;
    const who: Collected = {
      ident: ['node', 'python3', 'mcp-server', 'gateway'][Math.floor(r() * 4)]!,
      pid: 1000 + Math.floor(r() * 60000),
      stream: r() < 0.5 ? 'stdout' : 'stderr',
    };
    let i = 0;
    let us = base * 1000 - 37;
    return {
      name: f.name,
      data: Buffer.from(
        eachLine(f.data.toString('utf8'), (l) => {
          const t = tod === null ? null : timeOfDay(l);
          const at = t === null ? lineOwnTime(l) : day + t;
          us = Math.max(us + 37, at === null ? 0 : at * 1000);
          const ms = Math.floor(us / 1000);
          const iso0 = new Date(ms).toISOString().slice(0, 19);
          const micros = `${String(ms % 1000).padStart(3, '0')}${String(us % 1000).padStart(3, '0')}`;
          return wrap(l, { ms, n: ++i, iso0: `${iso0}Z`, iso6: `${iso0}.${micros}Z`, iso9: `${iso0}.${micros}123Z` }, who);
        }),
      ),
    };
  });
}

/** syslog's `Mmm dd hh:mm:ss` (no year), the day padded with `pad` (journalctl: `0`, RFC 3164: a space). */
function syslogStamp(ms: number, pad: string): string {
  const d = new Date(ms);
  return `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, pad)} ${d.toISOString().slice(11, 19)}`;
}

/** The level a line shows in a level word of its own (what a shipper's parser would find), or null. */
function levelWord(line: string): 'error' | 'warn' | 'info' | 'debug' | null {
  const m = /\b(ERROR|FATAL|CRITICAL|WARNING|WARN|INFO|DEBUG|error|fatal|warning|warn|info|debug)\b/.exec(line.slice(0, 200));
  if (!m) return null;
  const w = m[1]!.toLowerCase();
  return w === 'fatal' || w === 'critical' || w === 'error' ? 'error' : w.startsWith('warn') ? 'warn' : (w as 'info' | 'debug');
}
// RFC 5424 §6.2.1 severities; notice (5) where the line shows none
const SYSLOG_SEVERITY: Record<string, number> = { error: 3, warn: 4, info: 6, debug: 7, '': 5 };
// LogEntry.severity (LogSeverity enum)
const GCP_SEVERITY: Record<string, string> = { error: 'ERROR', warn: 'WARNING', info: 'INFO', debug: 'DEBUG' };

/** A Kubernetes generated name part (lower-case letters and digits). */
const podHash = (r: () => number, n: number) => Array.from({ length: n }, () => 'bcdfghjklmnpqrstvwxz2456789'[Math.floor(r() * 27)]).join('');

/** Every non-empty line rewritten (line ends, CRLF included, kept). */
function eachLine(text: string, f: (line: string) => string): string {
  return text.replace(/[^\r\n]+/g, (l) => f(l));
}

/**
 * A noise bundle (samples/recorded/_noise/<kind>) with its client log in the given style, so what is
 * spliced into an incident's client log reads like the rest of it.
 */
export function noiseBundle(dir: string, style: string | undefined): Bundle {
  const b = readBundle(dir);
  const variant = style ? styleVariants(dir).get(style) : undefined;
  if (variant) for (const f of b.files) if (isClient(f.name)) f.data = variant;
  return b;
}

/** The client log written in the other styles (samples/recorded/<incident>/styles/client.<style>.log). */
export function styleVariants(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const sd = join(dir, 'styles');
  if (!existsSync(sd)) return out;
  for (const f of readdirSync(sd).sort()) {
    const m = /^client\.(.+)\.log$/.exec(f);
    if (m) out.set(m[1]!, readFileSync(join(sd, f)));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// names: the same incident with other tool and host names. Every tool name the logs call (`tool=x`,
// `"tool":"x"`, `calling tool x`, `tools/call x`, `"name":"x","arguments"`) and every DNS host in a URL
// is replaced, consistently in every file and the tool policy, by a made-up name of the same kind — so
// no answer may depend on what a tool or a host is called (never the tool's name: issue #17). Only
// identifiers that cannot be ordinary words are renamed (snake_case, kebab-case, camelCase), and never
// loopback, IP addresses or the TLD, which are evidence (a local or private target).
const TOOL_CONTEXTS = [
  /\btool[=:] ?"?([A-Za-z][\w.-]{1,60})/g,
  /"tool(?:Name|_name)?"\s*:\s*"([A-Za-z][\w.-]{1,60})"/g,
  /\b[Cc]all(?:ing|ed)? tool:? "?([A-Za-z][\w.-]{1,60})/g,
  // (not the key of the next pair: `Mcp-Method=tools/call Mcp-Name=x` names no tool `Mcp-Name`)
  /\btools\/call:? "?(?![\w.-]{1,60}=)([A-Za-z][\w.-]{1,60})/g,
  /"name"\s*:\s*"([A-Za-z][\w.-]{1,60})"\s*,\s*"arguments"/g,
];
const HOST_IN_URL = /\bhttps?:\/\/([a-z0-9-]+(?:\.[a-z0-9-]+)+)(?=[:/"'\s)\]>,]|$)/gi;
const distinctive = (w: string) => /[_-]/.test(w) || /[a-z][A-Z]/.test(w);

function renameIdentifiers(b: Bundle, seed: number): Bundle {
  const map = identifierRenames(b, seed);
  if (!map.size) return { files: b.files.map((f) => ({ ...f })) };
  const keys = [...map.keys()].sort((x, y) => y.length - x.length).map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  // (a dotted name is not the tool's, but the tool's own member is: `search_docs.annotations={…}`)
  const any = new RegExp(`(?<![\\w.-])(?:${keys.join('|')})(?![\\w-]|\\.(?!annotations\\b)[\\w-])`, 'gi');
  return {
    files: b.files.map((f) => {
      if (isGzip(f.data)) return { ...f };
      return { name: f.name, data: Buffer.from(f.data.toString('utf8').replace(any, (m) => map.get(m) ?? map.get(m.toLowerCase()) ?? m)) };
    }),
  };
}

/** What the `names` transform renames in this bundle with this seed (old name → new name; hosts lower-cased). */
export function identifierRenames(b: Bundle, seed: number): Map<string, string> {
  const r = rng(seed);
  const word = () => {
    const syl = ['ka', 'lo', 'mi', 'ru', 'te', 'so', 'vu', 'ne', 'da', 'pi'];
    return Array.from({ length: 3 }, () => syl[Math.floor(r() * syl.length)]).join('');
  };
  const texts = b.files.map((f) => (isGzip(f.data) ? null : f.data.toString('utf8')));
  const map = new Map<string, string>();
  for (const t of texts) {
    if (t === null) continue;
    for (const re of TOOL_CONTEXTS)
      for (const m of t.matchAll(re)) {
        const name = m[1]!.replace(/[.-]+$/, '');
        // a gateway's namespaced `server.tool` is the server's `tool`: the tool part is renamed, the namespace kept
        const dot = name.lastIndexOf('.');
        const tool = dot > 0 ? name.slice(dot + 1) : name;
        if (!distinctive(tool) || map.has(name)) continue;
        if (!map.has(tool)) {
          // keep its shape: snake_case stays snake_case, kebab-case kebab-case, camelCase camelCase
          const sep = tool.includes('_') ? '_' : tool.includes('-') ? '-' : '';
          map.set(tool, sep ? `${word()}${sep}${word()}` : `${word()}${word()[0]!.toUpperCase()}${word().slice(1)}`);
        }
        if (dot > 0) map.set(name, `${name.slice(0, dot + 1)}${map.get(tool)}`);
      }
    for (const m of t.matchAll(HOST_IN_URL)) {
      const host = m[1]!.toLowerCase();
      const labels = host.split('.');
      if (map.has(host) || host === 'localhost' || labels.every((l) => /^\d+$/.test(l)) || labels.length < 2) continue;
      map.set(host, [...labels.slice(0, -1).map(() => word()), labels.at(-1)!].join('.'));
    }
  }
  return map;
}

const isGzip = (b: Buffer) => b.length > 2 && b[0] === 0x1f && b[1] === 0x8b;
