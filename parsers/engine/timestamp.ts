// One forgiving timestamp reader for every format, so format files need no layout strings.
// Returns epoch ms (UTC) or null. Times without a zone are read as UTC (and said so nowhere
// else: clock offsets between files are estimated later, never by rewriting stored times).
const MONTHS: Record<string, number> = { jan: 0, feb: 1, mar: 2, apr: 3, may: 4, jun: 5, jul: 6, aug: 7, sep: 8, oct: 9, nov: 10, dec: 11 };

// 2026-11-29T10:00:00.123Z · 2026-11-29 10:00:00,123 · 2026/11/29 10:00:00.123456+01:00
// · 2026/11/29 - 10:00:00 (Go's gin: its Logger's `2006/01/02 - 15:04:05`, gin-gonic/gin logger.go)
const ISO = /^(\d{4})[-/](\d{2})[-/](\d{2})(?:[T ]| - )(\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?\s?(Z|[+-]\d{2}:?\d{2}|UTC)?$/i;
// 10/Oct/2000:13:55:36 -0700 (nginx, Apache, CLF)
// (HAProxy writes it with milliseconds and without a zone)
const CLF = /^(\d{2})\/([A-Za-z]{3})\/(\d{4}):(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(?: ([+-]\d{4}))?$/;
// 11/29/26 10:00:01 (Rich's default `[%x %X]`, en_US month first) · 11/29/2026 10:00:01
const MDY = /^(\d{2})\/(\d{2})\/(\d{2}|\d{4}) (\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,6}))?$/;
// Nov 29 10:00:00 (syslog, no year) · Nov 29, 2026 10:00:00 AM
const SYSLOG = /^([A-Za-z]{3})\s+(\d{1,2})\s+(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?$/;
// 29/Nov/2026 10:00:00 (uvicorn-ish / Django)
const DMY = /^(\d{2})\/([A-Za-z]{3})\/(\d{4})[ :](\d{2}):(\d{2}):(\d{2})$/;

function frac(s: string | undefined): number {
  if (!s) return 0;
  return Number((s + '000').slice(0, 3));
}

/** Offsets by spelling: a log repeats one or two (`Z`, `+0000`); short strings, bounded. */
const ZONES = new Map<string, number>();

function zone(z: string | undefined): number {
  if (!z) return 0;
  let v = ZONES.get(z);
  if (v === undefined) {
    v = zoneOf(z);
    if (ZONES.size < 256) ZONES.set(z, v);
  }
  return v;
}

function zoneOf(z: string): number {
  if (/^(z|utc)$/i.test(z)) return 0;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(z);
  if (!m) return 0;
  const mins = Number(m[2]) * 60 + Number(m[3]);
  return (m[1] === '+' ? 1 : -1) * mins * 60_000;
}

/**
 * What gives a date logged without its year (syslog's `Dec  1 10:00:00`) its year: an instant of the same log —
 * the file's last own time, else the incident's first dated time — and then the year that puts the date nearest
 * it; `null`, none known: now's year, or the year before when that would be more than a day ahead (logs are not
 * from the future); `'none'`: no year to give, so no time (what the incident's first dated time is found with, so
 * that it never depends on the day the analysis runs).
 */
export type YearRef = number | null | 'none';
const DAY = 86_400_000;
// (the year of an instant, remembered for the year it falls in: a syslog file asks once per line, and a Date per line
// was measurable at ingest)
let yearOf = { start: 0, end: -1, year: 1970 };
function utcYear(t: number): number {
  if (t < yearOf.start || t >= yearOf.end) {
    const year = new Date(t).getUTCFullYear();
    yearOf = { start: Date.UTC(year, 0, 1), end: Date.UTC(year + 1, 0, 1), year };
  }
  return yearOf.year;
}

export function yearlessUtc(mon: number, day: number, h: number, mi: number, s: number, msec: number, ref: YearRef): number | null {
  if (ref === 'none') return null;
  if (ref === null) {
    const now = Date.now();
    const y = utcYear(now);
    const t = Date.UTC(y, mon, day, h, mi, s, msec);
    return t > now + DAY ? Date.UTC(y - 1, mon, day, h, mi, s, msec) : t;
  }
  const y = utcYear(ref);
  let best = Date.UTC(y, mon, day, h, mi, s, msec);
  for (const t of [Date.UTC(y - 1, mon, day, h, mi, s, msec), Date.UTC(y + 1, mon, day, h, mi, s, msec)]) if (Math.abs(t - ref) < Math.abs(best - ref)) best = t;
  return best;
}

export function parseTimestamp(value: unknown, ref: YearRef = null): number | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') return fromEpoch(value);
  const s = String(value).trim();
  if (/^\d{9,16}(\.\d+)?$/.test(s)) return fromEpoch(Number(s));
  let m = ISO.exec(s);
  if (m) {
    const t = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, frac(m[7]));
    return t - zone(m[8]);
  }
  m = CLF.exec(s);
  if (m) {
    const mon = MONTHS[m[2]!.toLowerCase()];
    if (mon === undefined) return null;
    return Date.UTC(+m[3]!, mon, +m[1]!, +m[4]!, +m[5]!, +m[6]!, frac(m[7])) - zone(m[8]);
  }
  m = MDY.exec(s);
  if (m) {
    const y = m[3]!.length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
    return Date.UTC(y, +m[1]! - 1, +m[2]!, +m[4]!, +m[5]!, +m[6]!, frac(m[7]));
  }
  m = DMY.exec(s);
  if (m) {
    const mon = MONTHS[m[2]!.toLowerCase()];
    if (mon === undefined) return null;
    return Date.UTC(+m[3]!, mon, +m[1]!, +m[4]!, +m[5]!, +m[6]!);
  }
  m = SYSLOG.exec(s);
  if (m) {
    const mon = MONTHS[m[1]!.toLowerCase()];
    if (mon === undefined) return null;
    return yearlessUtc(mon, +m[2]!, +m[3]!, +m[4]!, +m[5]!, frac(m[6]), ref);
  }
  const d = Date.parse(s);
  return Number.isNaN(d) ? null : d;
}

/** Seconds, milliseconds or microseconds since the epoch, told apart by magnitude. */
function fromEpoch(n: number): number | null {
  if (!Number.isFinite(n) || n <= 0) return null;
  if (n < 1e11) return Math.round(n * 1000); // seconds (until year 5138)
  if (n < 1e14) return Math.round(n); // ms
  if (n < 1e17) return Math.round(n / 1000); // µs
  return Math.round(n / 1e6); // ns
}
