// Read-only routes behind the UI's views:
//   GET /api/incidents/:id/unit?file=F&line=N      every event of the request that line belongs to
//   GET /api/incidents/:id/histogram?buckets=N     events per source per time bucket, by status class
//   GET /api/incidents/:id/export.html             one self-contained HTML file to share offline
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { TriageError } from '../errors.ts';
import { incidentReport, type Context } from '../incidents.ts';
import { excludeOf } from './incidents.ts';
import { Serving } from './serving.ts';
import type { ServedStore } from './backend.ts';
import { verifyRedacted } from '../triage/redact/index.ts';
import type { Event } from '../../parsers/contract/event.ts';
import type { Analysis } from '../contract/analysis.ts';
import { reportRefused, type Report } from '../triage/report/report.ts';
import { ANALYSIS_KEEP, apiExit, exitAnalysis, exitRows, primedExit } from './exposure.ts';
import { PRIVACY_MODE_TEXT, type PrivacyMode } from '../contract/privacy.ts';
import type { Verification } from '../store/verifications.ts';
import { DECISION_INFO } from '../contract/decisions.ts';
import { blocksToHtml, escapeHtml, parseMarkdown, splitPlaceholders } from '../triage/report/markdown-tree.ts';

const ID = /^inc_[a-z0-9]{6,40}$/;

export function incidentIdOf(req: FastifyRequest): string {
  const id = (req.params as { id: string }).id;
  if (!ID.test(id)) throw new TriageError('TRIAGE_ERR_NOT_FOUND', `no incident ${JSON.stringify(id.slice(0, 80))}`);
  return id;
}

function parse<T>(schema: z.ZodType<T>, v: unknown): T {
  const r = schema.safeParse(v);
  if (!r.success) throw new TriageError('TRIAGE_ERR_USAGE', `bad query: ${r.error.issues.map((i) => `${i.path.join('.') || 'query'}: ${i.message}`).join('; ')}`);
  return r.data;
}

const UnitQuery = z.object({ file: z.string().min(1).max(1000), line: z.coerce.number().int().min(1).max(2_147_483_647) });
const HistogramQuery = z.object({ buckets: z.coerce.number().int().min(1).max(1000).default(120) });

export const viewsPlugin: FastifyPluginAsync<{ ctx: Context; store: ServedStore; serving?: Serving }> = async (app, opts) => {
  const { ctx, store } = opts;
  const serving = opts.serving ?? new Serving(store);

  app.get('/api/incidents/:id/unit', async (req, reply) => {
    const id = incidentIdOf(req);
    await serving.incident(id);
    const q = parse(UnitQuery, req.query);
    return serving.read(reply, async () => {
      const unit = await store.unit(id, q.file, q.line, await store.analysis(id));
      const exit = await apiExit(ctx, store, id);
      return exit ? { ...unit, events: exitRows(unit.events, exit) } : unit;
    });
  });

  // Cached per incident version, like the analysis (answers.ts).
  app.get('/api/incidents/:id/histogram', async (req, reply) => {
    const id = incidentIdOf(req);
    await serving.incident(id);
    const q = parse(HistogramQuery, req.query);
    const body = await serving.cached(reply, await serving.answers.key('histogram', id, String(q.buckets)), async () => JSON.stringify(await store.histogram(id, q.buckets)));
    return reply.type('application/json; charset=utf-8').send(body);
  });

  app.get('/api/incidents/:id/export.html', async (req, reply) => {
    const id = incidentIdOf(req);
    const row = await serving.incident(id);
    const html = await serving.read(reply, () => exportOf(id, row, req.query));
    return reply.type('text/html; charset=utf-8').header('Content-Disposition', `attachment; filename="${id}-export.html"`).header('Cache-Control', 'no-store').send(html);
  });

  async function exportOf(id: string, row: { name: string; createdAt: string; privacyMode?: PrivacyMode }, query: unknown): Promise<string> {
    const analysis = await store.analysis(id);
    if (!analysis) throw new TriageError('TRIAGE_ERR_NOT_FOUND', `incident ${id} has no analysis yet`);
    const [report, evidence, verification] = await Promise.all([
      incidentReport(store, id, { key: ctx.key, exclude: excludeOf(query) }),
      store.eventsAt(
        id,
        analysis.failures.flatMap((f) => f.evidence),
      ),
      store.lastVerification(id),
    ]);
    // The evidence lines and the analysis go out in full: through the same exit pass as the report
    // (first reading what the incident's head and evidence lines name; request ids pseudonymised),
    // then the same verifier (fail closed, naming the line and the rule). In standard mode the
    // stored text still holds personal data; in strict mode this changes nothing but request ids.
    const excluded = new Set(excludeOf(query));
    const exit = await primedExit(
      store,
      ctx.key,
      id,
      evidence.map((ev) => ev.text),
      { requestIds: evidence.map((ev) => ev.requestId).filter((v): v is string => !!v) },
    );
    const shown = evidence
      .filter((ev) => !excluded.has(`${ev.file}:${ev.line}`))
      .map((ev) => ({ ...ev, text: exit.text(ev.text), requestId: ev.requestId ? exit.text(`request_id=${ev.requestId}`).slice('request_id='.length) : null }));
    const shownAnalysis = exitAnalysis(analysis, exit);
    const analysisText = exitStrings(shownAnalysis, ANALYSIS_KEEP);
    const scan = verifyRedacted([...shown.map((ev) => ev.text), ...analysisText].join('\n'), { rawValues: [], independentLines: true });
    if (!scan.ok) {
      const starts: number[] = [];
      shown.reduce((at, ev) => (starts.push(at), at + ev.text.split('\n').length), 1);
      const place = (line: number) => {
        let k = 0;
        while (k + 1 < starts.length && starts[k + 1]! <= line) k++;
        return shown[k] ? { file: shown[k]!.file, line: shown[k]!.line } : null;
      };
      throw reportRefused(
        scan.hits.map((h) => ({ reportLine: h.line, rule: h.rule, evidence: place(h.line) })),
        'export',
      );
    }
    return exportHtml({
      id,
      name: row.name,
      createdAt: row.createdAt,
      analysis: shownAnalysis,
      report,
      evidence: shown,
      verification,
      generatedAt: new Date(),
      privacyMode: row.privacyMode,
    });
  }
};

// ── the single-file export ─────────────────────────────────────────────────
// No script, no external resource: inline CSS only, and a meta CSP that forbids everything else,
// so the file is inert wherever it is opened (file://, a mail client, an issue attachment).
// Every string from the store goes through escapeHtml (the Markdown via the UI's own reader).

interface ExportInput {
  id: string;
  name: string;
  createdAt: string;
  analysis: Analysis;
  report: Report;
  evidence: Event[];
  verification: Verification | null;
  generatedAt: Date;
  privacyMode?: PrivacyMode;
}

/** Every string of a JSON value outside the `keep` keys (what an exit pass went over), for the verifier. */
function exitStrings(v: unknown, keep: ReadonlySet<string>, key?: string, out: string[] = []): string[] {
  if (typeof v === 'string') {
    if (key === undefined || !keep.has(key)) out.push(v);
  } else if (Array.isArray(v)) for (const it of v) exitStrings(it, keep, key, out);
  else if (v && typeof v === 'object') for (const [k, it] of Object.entries(v)) exitStrings(it, keep, k, out);
  return out;
}

const e = escapeHtml;

function ph(s: string): string {
  return splitPlaceholders(s)
    .map((p) => (p.kind ? `<mark class="ph ph-${p.kind}">${e(p.s)}</mark>` : e(p.s)))
    .join('');
}

function badge(d: string): string {
  return `<span class="badge d-${e(d)}">${e(d)}</span>`;
}

function iso(ts: number | null | undefined): string {
  return ts === null || ts === undefined ? '—' : new Date(ts).toISOString();
}

const DECISION_COLOURS: Record<string, string> = {
  retry: '#1f6feb',
  reinitialize: '#0b7a86',
  fix_route_or_config: '#a15c00',
  fix_auth: '#7c3aed',
  read_result_no_repeat: '#18794e',
  check_write_then_escalate: '#b4232a',
  escalate: '#c2410c',
  no_action: '#5b6474',
};

const CSS = `
:root{color-scheme:light dark;--bg:#f6f7f9;--el:#fff;--sunk:#eef0f3;--bd:#dde1e7;--fg:#1d2330;--mut:#5b6474;--hl:#fff4c2;--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,'DejaVu Sans Mono',monospace}
@media (prefers-color-scheme:dark){:root{--bg:#111318;--el:#181b22;--sunk:#0d0f13;--bd:#2a2f3a;--fg:#d8dde6;--mut:#9aa3b2;--hl:#3b3411}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:13px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif}
main{max-width:1200px;margin:0 auto;padding:20px}
header.top{display:flex;align-items:baseline;gap:12px;flex-wrap:wrap;border-bottom:1px solid var(--bd);padding-bottom:10px;margin-bottom:16px}
header.top h1{font-size:18px;margin:0}.mut{color:var(--mut)}
section{background:var(--el);border:1px solid var(--bd);border-radius:6px;margin:0 0 14px;padding:12px 16px;overflow-x:auto}
section>h2{font-size:12px;text-transform:uppercase;letter-spacing:.05em;color:var(--mut);margin:0 0 10px}
.hero{border-left:4px solid var(--dc)}.hero .big{font-size:20px;font-weight:700;color:var(--dc)}
.badge{font:600 11.5px var(--mono);border:1px solid currentColor;border-radius:999px;padding:1px 8px;white-space:nowrap}
${Object.entries(DECISION_COLOURS)
  .map(([d, c]) => `.d-${d}{color:${c}}`)
  .join('')}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}th,td{text-align:left;vertical-align:top;padding:4px 8px;border-bottom:1px solid var(--bd)}
th{font-size:11px;text-transform:uppercase;letter-spacing:.03em;color:var(--mut);background:var(--sunk)}
code,pre,.mono{font-family:var(--mono);font-size:12px}pre{background:var(--sunk);border:1px solid var(--bd);border-radius:4px;padding:8px 10px;overflow-x:auto;white-space:pre-wrap;word-break:break-word}
.ev{margin:0 0 6px}.ev .where{font:600 11px var(--mono);color:var(--mut)}
mark.ph{background:var(--hl);color:inherit;border-radius:2px;outline:1px dashed #a15c00;padding:0 1px}
mark.ph-session,mark.ph-pseudonym{background:transparent;outline-color:#7c4ddb}
.report h2{font-size:16px}.report h3,.report h4{font-size:14px;margin:16px 0 6px}.report p.small{font-size:11.5px;color:var(--mut)}
.nw{white-space:nowrap}.ok{color:#18794e;font-weight:600}.bad{color:#c0262d;font-weight:600}
footer{color:var(--mut);font-size:11.5px;margin-top:16px}
`;

export function exportHtml(x: ExportInput): string {
  const a = x.analysis;
  const info = DECISION_INFO[a.decision];
  const byPlace = new Map(x.evidence.map((ev) => [`${ev.file}:${ev.line}`, ev] as const));
  const failures = a.failures
    .map(
      (
        f,
        i,
      ) => `<tr><td class="mono">${i + 1}</td><td class="mono">${e(f.method ?? '—')}${f.tool ? ` · ${e(f.tool)}` : ''}${f.rpcId !== null ? ` <span class="mut">id ${e(String(f.rpcId))}</span>` : ''}</td>
<td class="mono">${f.session ? ph(f.session) : '—'}</td><td class="mono">${f.httpStatus ?? '—'}</td><td class="mono">${e(f.stage)}</td>
<td class="mono">${f.rootException ? `${e(f.rootException.type)}: ${ph(f.rootException.message)}` : '—'}</td><td>${badge(f.decision)}</td><td class="mono nw">${e(f.rule)}</td><td>${ph(f.rationale)}</td></tr>`,
    )
    .join('\n');
  const evidence = a.failures
    .map((f, i) => {
      const lines = f.evidence.map((ref) => {
        const ev = byPlace.get(`${ref.file}:${ref.line}`);
        return `<div class="ev"><div class="where">${e(`${ref.file}:${ref.line}`)} · ${e(ev?.source ?? '?')} · ${e(iso(ev?.ts))}</div><pre>${ev ? ph(ev.text) : '<span class="mut">(line not stored as an event start)</span>'}</pre></div>`;
      });
      return `<h3 class="mono">Failure ${i + 1}: ${e(f.method ?? 'request')} → ${badge(f.decision)}</h3>${lines.join('\n') || '<p class="mut">No evidence lines.</p>'}`;
    })
    .join('\n');
  const sessions = a.sessions.length
    ? `<table><thead><tr><th>Session</th><th>State</th><th>First seen</th><th>Last seen</th></tr></thead><tbody>${a.sessions
        .map(
          (s) =>
            `<tr><td class="mono">${ph(s.session)}</td><td class="mono">${e(s.state)}</td><td class="mono">${e(s.firstSeen ?? '—')}</td><td class="mono">${e(s.lastSeen ?? '—')}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '<p class="mut">No sessions were seen.</p>';
  const inputs = `<table><thead><tr><th>File</th><th>Source</th><th>Format</th><th>Lines</th><th>Events</th><th>Unparsed</th></tr></thead><tbody>${a.inputs
    .map(
      (i) => `<tr><td class="mono">${e(i.file)}</td><td>${e(i.source)}</td><td class="mono">${e(i.format)}</td><td>${i.lines}</td><td>${i.events}</td><td>${i.unparsed}</td></tr>`,
    )
    .join('')}</tbody></table>`;
  const redactions = Object.entries(x.report.redactions)
    .sort((p, q) => q[1] - p[1])
    .map(([r, n]) => `<tr><td class="mono">${e(r)}</td><td>${n}</td></tr>`)
    .join('');
  const v = x.verification;
  const verification = v
    ? `<section><h2>Verification probe (${e(new Date(v.at).toISOString())})</h2><p class="${v.ok ? 'ok' : 'bad'}">${v.ok ? 'every step passed' : 'a step failed'} · ${e(String(v.result.url ?? ''))}</p>
<table><thead><tr><th>Step</th><th>Result</th><th>ms</th><th>Evidence</th></tr></thead><tbody>${(
        (v.result.steps as { name: string; ok: boolean; ms: number; evidence: string; diagnosis?: string }[]) ?? []
      )
        .map(
          (s) =>
            `<tr><td class="mono">${e(s.name)}</td><td class="${s.ok ? 'ok' : 'bad'}">${s.ok ? 'ok' : 'failed'}</td><td>${s.ms}</td><td class="mono">${ph(s.evidence)}${s.diagnosis ? `<div class="mut">${ph(s.diagnosis)}</div>` : ''}</td></tr>`,
        )
        .join('')}</tbody></table></section>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="mcp-triage">
<title>${e(`mcp-triage: ${a.decision} — ${x.name}`)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
<header class="top"><h1>mcp-triage incident</h1><span class="mono">${e(x.name)}</span><span class="mut mono">${e(x.id)} · created ${e(x.createdAt)} · exported ${e(x.generatedAt.toISOString())}</span></header>
<section class="hero" style="--dc:${DECISION_COLOURS[a.decision] ?? '#5b6474'}"><h2>Headline decision</h2>
<div class="big" id="decision" data-decision="${e(a.decision)}">${e(a.decision)}</div><p><strong>${e(info.label)}.</strong> ${e(info.meaning)}</p>
<p class="mut">${a.failures.length} failure(s) · ${a.inputs.length} file(s) · ${a.sessions.length} session(s) · protocol ${e(a.protocolVersions.join(', ') || '—')}</p></section>
<section><h2>Decision table</h2>${a.failures.length ? `<table><thead><tr><th>#</th><th>Failure</th><th>Session</th><th>HTTP</th><th>Stage</th><th>Root exception</th><th>Decision</th><th>Rule</th><th>Rationale</th></tr></thead><tbody>${failures}</tbody></table>` : '<p class="mut">No failures found.</p>'}</section>
<section><h2>Evidence lines (redacted)</h2>${evidence || '<p class="mut">No evidence.</p>'}</section>
<section><h2>Sessions</h2>${sessions}</section>
${verification}
<section class="report"><h2>Report</h2>${blocksToHtml(parseMarkdown(x.report.markdown))}</section>
<section><h2>Inputs</h2>${inputs}</section>
<section><h2>Redactions at ingest</h2>${redactions ? `<table><thead><tr><th>Rule</th><th>Count</th></tr></thead><tbody>${redactions}</tbody></table>` : '<p class="mut">Nothing needed redaction.</p>'}</section>
<footer>Generated by mcp-triage${x.privacyMode ? ` (${e(PRIVACY_MODE_TEXT[x.privacyMode])})` : ''}. Secrets were removed at ingest, personal and business data at ingest or at this export; session ids are keyed pseudonyms (sess_…) that cannot be reversed without the reporter's workspace key. This file has no scripts and loads nothing.</footer>
</main>
</body>
</html>
`;
}
