// `npm run bench -- --load`: the server as a team meets it, over loopback only, for a bounded time.
//
// Starts `mcp-triage serve --port 0` (a real process: the built CLI, or `--bin PATH` for another
// checkout's server/cli/bin.mjs, which is how "before" numbers are taken) on 127.0.0.1 with a
// fresh workspace, then:
//   1. ingest: uploads a small sample incident, then the generated corpus (--size MiB, default 64;
//      or --corpus DIR), and while that one ingests, the small sample again: its answer time, the
//      phases and queue places its progress showed, and reads (analysis, an events page) meanwhile;
//   2. load: for each concurrency in --levels (default 1,8,32,64), that many clients loop over the
//      UI's read endpoints on the corpus incident for --seconds (default 8): per endpoint the
//      answers per second (2xx), p50/p95/p99 of every answer's time, the 429s and 503s, and the
//      longest queue wait the server reported (Server-Timing: queue;dur=…);
//   3. the SQL console's memory: the server's RSS idle, then around the largest answer it allows
//      and two queries whose answers are far larger (every text; 100 000 events as one list), 5 s after each.
// Timings are printed, never asserted. Every request has a 60 s client timeout (an upload 10 min), and the whole
// run is bounded by --max-minutes (default 15): past it the server is killed and the run stops.
import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { generateCorpus } from './corpus.ts';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : dflt;
};
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const BIN = arg('bin', join(REPO, 'server/cli/bin.mjs'));
const sizeMiB = Number(arg('size', '64'));
const seconds = Number(arg('seconds', '8'));
const levels = arg('levels', '1,8,32,64').split(',').map(Number);
const maxMinutes = Number(arg('max-minutes', '15'));
const keep = process.argv.includes('--keep');
const SMALL = join(REPO, 'samples', 'restart-stale-session');
const HOST = '127.0.0.1'; // loopback only, never configurable
const CLIENT_TIMEOUT_MS = 60_000;
/** An upload's answer comes after its ingest: minutes on a busy 2-core machine. */
const UPLOAD_TIMEOUT_MS = 600_000;

interface Answer {
  status: number;
  ms: number;
  bytes: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const agent = new Agent({ keepAlive: true, maxSockets: 512 });
let base = '';

function send(method: string, path: string, opts: { headers?: Record<string, string>; body?: Buffer | Readable; keepBody?: boolean; timeoutMs?: number } = {}): Promise<Answer> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = httpRequest(
      `${base}${path}`,
      { method, agent, headers: { ...(method === 'GET' ? {} : { 'x-requested-with': 'mcp-triage' }), ...opts.headers }, timeout: opts.timeoutMs ?? CLIENT_TIMEOUT_MS },
      (res) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          if (opts.keepBody !== false && bytes < 1 << 20) chunks.push(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0, bytes, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', () => resolve({ status: -1, ms: performance.now() - t0, bytes, headers: res.headers, body: Buffer.alloc(0) }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('client timeout')));
    req.on('error', () => resolve({ status: -1, ms: performance.now() - t0, bytes: 0, headers: {}, body: Buffer.alloc(0) }));
    if (opts.body && !Buffer.isBuffer(opts.body)) opts.body.pipe(req);
    else req.end(opts.body);
  });
}

/** A multipart body streamed from files on disk (Content-Length known up front). */
function multipartFiles(paths: string[]): { body: Readable; headers: Record<string, string> } {
  const boundary = `----mcptriageload${Math.random().toString(16).slice(2)}`;
  const heads = paths.map((p) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${basename(p)}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
  );
  const tail = Buffer.from(`--${boundary}--\r\n`);
  const length = heads.reduce((n, h, i) => n + h.length + statSync(paths[i]!).size + 2, 0) + tail.length;
  const out = new PassThrough();
  void (async () => {
    for (const [i, p] of paths.entries()) {
      out.write(heads[i]);
      for await (const c of createReadStream(p)) if (!out.write(c)) await new Promise((r) => out.once('drain', r));
      out.write('\r\n');
    }
    out.end(tail);
  })();
  return { body: out, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(length) } };
}

function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

function pct(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const ms = (n: number) => (Number.isNaN(n) ? '—' : n >= 10_000 ? `${(n / 1000).toFixed(1)} s` : `${Math.round(n)}`);

/** Queue wait the server reported for this answer (Server-Timing: queue;dur=N), if any. */
function queueWait(h: IncomingHttpHeaders): number | null {
  const m = /queue;dur=([\d.]+)/.exec(String(h['server-timing'] ?? ''));
  return m ? Number(m[1]) : null;
}

async function startServer(dir: string): Promise<{ proc: ChildProcess; url: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, MCP_TRIAGE_HOME: join(dir, 'home') };
  delete env.MCP_TRIAGE_FROM_SOURCE;
  const proc = spawn(process.execPath, [BIN, 'serve', '--host', HOST, '--port', '0', '--db', join(dir, 'load.duckdb')], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const url = await new Promise<string>((ok, fail) => {
    const t = setTimeout(() => fail(new Error(`server did not start in 120 s: ${err.slice(-500)}`)), 120_000);
    proc.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      const m = /serving (http:\/\/127\.0\.0\.1:\d+)\//.exec(err);
      if (m) {
        clearTimeout(t);
        ok(m[1]!);
      }
    });
    proc.once('exit', (code) => fail(new Error(`server exited ${code}: ${err.slice(-500)}`)));
  });
  if (/note: .*tsx/.test(err)) process.stderr.write(`warning: the server runs the sources through tsx, not dist/ (${BIN})\n`);
  return { proc, url };
}

function logFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => /\.(log|jsonl?|ndjson|txt)$/.test(f))
    .map((f) => join(dir, f))
    .sort();
}

async function upload(paths: string[], uploadId: string): Promise<Answer> {
  const m = multipartFiles(paths);
  return send('POST', '/api/incidents', { body: m.body, headers: { ...m.headers, 'x-upload-id': uploadId }, timeoutMs: UPLOAD_TIMEOUT_MS });
}

/** Poll an upload's progress until `done()`; returns the distinct states seen (phase, queue place) and when (s). */
async function follow(uploadId: string, done: () => boolean): Promise<string[]> {
  const seen: string[] = [];
  let last = '';
  const t0 = performance.now();
  while (!done()) {
    const r = await send('GET', `/api/uploads/${uploadId}/progress`);
    if (r.status === 200) {
      const p = JSON.parse(r.body.toString()) as { phase: string; position?: number };
      const s = p.position !== undefined ? `${p.phase} #${p.position}` : p.phase;
      if (last !== s) seen.push(`${s}@${((performance.now() - t0) / 1000).toFixed(1)}`);
      last = s;
    }
    await new Promise((res) => setTimeout(res, 100));
  }
  return seen;
}

interface Stat {
  times: number[];
  ok: number;
  s429: number;
  s503: number;
  other: number;
  maxQueue: number | null;
  retryAfter: Set<string>;
}

async function ingestPhase(corpusFiles: string[]): Promise<string> {
  const small = logFiles(SMALL);
  const first = await upload(small, `load-small-${Date.now()}`);
  if (first.status !== 201) throw new Error(`small upload: HTTP ${first.status} ${first.body}`);
  const smallId = (JSON.parse(first.body.toString()) as { id: string }).id;

  const bigUpload = `load-big-${Date.now()}`;
  let bigDone = false;
  const t0 = performance.now();
  const big = upload(corpusFiles, bigUpload).finally(() => (bigDone = true));
  const bigSeen = follow(bigUpload, () => bigDone);
  // Wait until the large upload is being read by the server (past receive), then the small one.
  while (!bigDone) {
    const r = await send('GET', `/api/uploads/${bigUpload}/progress`);
    if (r.status === 200 && !/"receive"/.test(r.body.toString())) break;
    await new Promise((res) => setTimeout(res, 100));
  }
  const startedAt = (performance.now() - t0) / 1000;
  // Reads of the small incident while the large one ingests.
  const reads: number[] = [];
  const readStatus = new Map<number, number>();
  const reading = (async () => {
    let k = 0;
    while (!bigDone) {
      const path = k++ % 2 ? `/api/incidents/${smallId}/analysis` : `/api/incidents/${smallId}/events?limit=200`;
      const r = await send('GET', path, { keepBody: false });
      reads.push(r.ms);
      readStatus.set(r.status, (readStatus.get(r.status) ?? 0) + 1);
      await new Promise((res) => setTimeout(res, 200));
    }
  })();
  // The server's own responsiveness meanwhile: /api/health does no work, so its time is the wait
  // for the server's event loop.
  const health: number[] = [];
  const probing = (async () => {
    while (!bigDone) {
      health.push((await send('GET', '/api/health', { keepBody: false })).ms);
      await new Promise((res) => setTimeout(res, 100));
    }
  })();
  const smallTimes: string[] = [];
  for (let i = 0; i < 3 && !bigDone; i++) {
    const id = `load-small2-${Date.now()}-${i}`;
    let done = false;
    const r = upload(small, id).finally(() => (done = true));
    const seen = await follow(id, () => done);
    const a = await r;
    smallTimes.push(`${(a.ms / 1000).toFixed(2)} s (HTTP ${a.status}; progress: ${seen.join(' → ') || '—'}; large upload ${((performance.now() - t0) / 1000).toFixed(0)} s in)`);
    await new Promise((res) => setTimeout(res, 1500));
  }
  const b = await big;
  await reading;
  await probing;
  const seenBig = await bigSeen;
  if (b.status !== 201) throw new Error(`large upload: HTTP ${b.status} ${b.body.toString().slice(0, 300)}`);
  const bigId = (JSON.parse(b.body.toString()) as { id: string }).id;
  const mib = corpusFiles.reduce((n, f) => n + statSync(f).size, 0) / 1048576;
  const sr = [...reads].sort((x, y) => x - y);
  console.log(`\n## ingest\n`);
  console.log(
    `- large upload: ${mib.toFixed(1)} MiB, ${corpusFiles.length} files, answered in ${(b.ms / 1000).toFixed(1)} s (server reading it after ${startedAt.toFixed(1)} s); progress: ${seenBig.join(' → ')}`,
  );
  console.log(`- small upload (${small.length} files, ${(small.reduce((n, f) => n + statSync(f).size, 0) / 1024).toFixed(0)} KiB) before it: ${(first.ms / 1000).toFixed(2)} s`);
  for (const s of smallTimes) console.log(`- small upload while the large one ingests: ${s}`);
  const sh = [...health].sort((x, y) => x - y);
  console.log(
    `- GET /api/health meanwhile (every 100 ms; the server's event loop): ${health.length}, p50 ${ms(pct(sh, 50))} ms, p95 ${ms(pct(sh, 95))} ms, max ${ms(sh[sh.length - 1] ?? NaN)} ms`,
  );
  console.log(
    `- reads of the small incident meanwhile (analysis / events page, one at a time): ${reads.length}, p50 ${ms(pct(sr, 50))} ms, p95 ${ms(pct(sr, 95))} ms, max ${ms(sr[sr.length - 1] ?? NaN)} ms; statuses ${[...readStatus].map(([s, n]) => `${s}×${n}`).join(' ')}`,
  );
  return bigId;
}

async function loadPhase(id: string): Promise<void> {
  const count = await send('GET', `/api/incidents/${id}/events/count`);
  const total = count.status === 200 ? (JSON.parse(count.body.toString()) as { total: number }).total : 100_000;
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296;
  const endpoints: Array<{ name: string; path: () => string }> = [
    { name: 'events page', path: () => `/api/incidents/${id}/events?limit=200&offset=${Math.floor(rand() * Math.max(1, total - 200))}` },
    {
      name: 'events search',
      path: () =>
        `/api/incidents/${id}/events?limit=200&q=${encodeURIComponent(['session not found', 'upstream prematurely closed', 'tools/call', 'ZEBRA-QUOKKA'][Math.floor(rand() * 4)]!)}`,
    },
    { name: 'analysis', path: () => `/api/incidents/${id}/analysis` },
    { name: 'report', path: () => `/api/incidents/${id}/report` },
    { name: 'histogram', path: () => `/api/incidents/${id}/histogram?buckets=120` },
    { name: 'incident list', path: () => `/api/incidents` },
  ];
  console.log(`\n## load (${seconds} s per level, ${endpoints.length} endpoints in turn per client, ${total.toLocaleString('en')} events)\n`);
  console.log('| c | endpoint | answers | 2xx/s | p50 ms | p95 ms | p99 ms | max ms | 429 | 503 | other | max queue wait ms | Retry-After |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const c of levels) {
    const stats = new Map<string, Stat>(endpoints.map((e) => [e.name, { times: [], ok: 0, s429: 0, s503: 0, other: 0, maxQueue: null, retryAfter: new Set() }]));
    const t0 = performance.now();
    const until = t0 + seconds * 1000;
    await Promise.all(
      Array.from({ length: c }, async (_, w) => {
        for (let k = w; performance.now() < until; k++) {
          const e = endpoints[k % endpoints.length]!;
          const r = await send('GET', e.path(), { keepBody: false });
          const s = stats.get(e.name)!;
          s.times.push(r.ms);
          if (r.status >= 200 && r.status < 300) s.ok++;
          else if (r.status === 429) s.s429++;
          else if (r.status === 503) s.s503++;
          else s.other++;
          if (r.headers['retry-after']) s.retryAfter.add(String(r.headers['retry-after']));
          const q = queueWait(r.headers);
          if (q !== null) s.maxQueue = Math.max(s.maxQueue ?? 0, q);
          if (r.status === 429 || r.status === 503) await new Promise((res) => setTimeout(res, 50)); // a polite client backs off a little
        }
      }),
    );
    const elapsed = (performance.now() - t0) / 1000;
    const all: Stat = { times: [], ok: 0, s429: 0, s503: 0, other: 0, maxQueue: null, retryAfter: new Set() };
    for (const [name, s] of stats) {
      const t = [...s.times].sort((a, b) => a - b);
      all.times.push(...t);
      all.ok += s.ok;
      all.s429 += s.s429;
      all.s503 += s.s503;
      all.other += s.other;
      if (s.maxQueue !== null) all.maxQueue = Math.max(all.maxQueue ?? 0, s.maxQueue);
      for (const v of s.retryAfter) all.retryAfter.add(v);
      console.log(
        `| ${c} | ${name} | ${t.length} | ${(s.ok / elapsed).toFixed(1)} | ${ms(pct(t, 50))} | ${ms(pct(t, 95))} | ${ms(pct(t, 99))} | ${ms(t[t.length - 1] ?? NaN)} | ${s.s429} | ${s.s503} | ${s.other} | ${s.maxQueue === null ? '—' : ms(s.maxQueue)} | ${[...s.retryAfter].join(',') || '—'} |`,
      );
    }
    const t = all.times.sort((a, b) => a - b);
    console.log(
      `| ${c} | **all** (${elapsed.toFixed(1)} s) | ${t.length} | ${(all.ok / elapsed).toFixed(1)} | ${ms(pct(t, 50))} | ${ms(pct(t, 95))} | ${ms(pct(t, 99))} | ${ms(t[t.length - 1] ?? NaN)} | ${all.s429} | ${all.s503} | ${all.other} | ${all.maxQueue === null ? '—' : ms(all.maxQueue)} | ${[...all.retryAfter].join(',') || '—'} |`,
    );
  }
}

async function sqlPhase(pid: number): Promise<void> {
  const settle = async () => {
    await new Promise((r) => setTimeout(r, 5000));
    return rssMiB(pid);
  };
  console.log(`\n## SQL console memory (server RSS, MiB)\n`);
  const idle = await settle();
  console.log(`idle (after the load, 5 s quiet): ${idle.toFixed(0)} MiB\n`);
  console.log('| query | HTTP | answer | ms | RSS before | RSS peak | RSS 5 s after | after / idle |');
  console.log('|---|---|---|---|---|---|---|---|');
  const queries = [
    // About 7.7 MiB of JSON: under the console's answer cap (8 MiB), so the largest kind it allows.
    { label: "1000 rows × 7.5 KiB (SELECT repeat('x', 7680) … range(1000))", sql: "SELECT repeat('x', 7680) AS s FROM range(1000)" },
    // Answered whole before (~70 MB and ~110 MB of JSON): the kind of query that grew the server by GiBs.
    { label: 'every text, a list per file (SELECT file, list(text) … GROUP BY file)', sql: 'SELECT file, list(text) AS texts FROM events GROUP BY file' },
    { label: '100 000 whole events as one list (SELECT list(e) FROM (… LIMIT 100000) e)', sql: 'SELECT list(e) AS rows FROM (SELECT * FROM events LIMIT 100000) e' },
  ];
  for (const q of queries) {
    for (let i = 0; i < 2; i++) {
      const before = rssMiB(pid);
      let peak = before;
      let running = true;
      const watch = (async () => {
        while (running) {
          peak = Math.max(peak, rssMiB(pid));
          await new Promise((r) => setTimeout(r, 50));
        }
      })();
      const r = await send('POST', '/api/sql', { headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ sql: q.sql })), keepBody: true });
      running = false;
      await watch;
      const after = await settle();
      let what = `${(r.bytes / 1048576).toFixed(1)} MiB`;
      if (r.status >= 400) {
        try {
          what += ` ${(JSON.parse(r.body.toString()) as { error: { code: string } }).error.code}`;
        } catch {
          /* a cut body */
        }
      }
      console.log(`| ${q.label} | ${r.status} | ${what} | ${Math.round(r.ms)} | ${before.toFixed(0)} | ${peak.toFixed(0)} | ${after.toFixed(0)} | ${(after / idle).toFixed(2)} |`);
    }
  }
}

const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-load-'));
let server: ChildProcess | null = null;
const bound = setTimeout(() => {
  process.stderr.write(`load bench: past --max-minutes ${maxMinutes}; stopping\n`);
  server?.kill('SIGKILL');
  process.exit(3);
}, maxMinutes * 60_000);
try {
  const given = arg('corpus', '');
  let corpusFiles: string[];
  if (given) corpusFiles = logFiles(given);
  else {
    process.stderr.write(`generating ${sizeMiB} MiB in ${dir}…\n`);
    corpusFiles = (await generateCorpus(join(dir, 'logs'), sizeMiB)).files;
  }
  if (!existsSync(BIN)) throw new Error(`no server at ${BIN}`);
  const s = await startServer(dir);
  server = s.proc;
  base = s.url;
  console.log(`# load bench: ${BIN.replace(REPO, '')} on ${base} (loopback), pid ${s.proc.pid}`);
  const id = await ingestPhase(corpusFiles);
  await loadPhase(id);
  await sqlPhase(s.proc.pid!);
} finally {
  clearTimeout(bound);
  agent.destroy();
  if (server) {
    server.kill('SIGTERM');
    await new Promise((r) => (server!.exitCode !== null ? r(null) : server!.once('exit', r)));
  }
  if (!keep) rmSync(dir, { recursive: true, force: true });
  else process.stderr.write(`kept ${dir}\n`);
}
