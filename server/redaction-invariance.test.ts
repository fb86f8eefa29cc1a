// Masking everything is not redaction (issue #18): for every sample incident (samples/* and
// samples/recorded/*), analysing the output of `mcp-triage redact` must give the same decisions
// as analysing the logs themselves — the same headline, and each failure with the same decision,
// rule, role, stage, request and evidence lines. Redact keeps line numbers, session pseudonyms
// (same workspace key) and everything triage reads; this test proves it on every incident. And
// `report` succeeds on every incident, from the logs and from their redacted copy.
import { copyFileSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { redactCommand } from './cli/commands/redact.ts';
import type { Analysis } from './contract/analysis.ts';
import { incidentReport, ingestIncident, type Context } from './incidents.ts';
import { entriesFromPaths } from './ingest/inputs.ts';
import { recordedCases } from './accuracy/corpora.ts';
import { sampleDirs } from './samples.ts';
import { isPolicyFile } from './triage/classify/policy.ts';
import { withMemoryContext } from './testing/context.ts';
import { tempWorkspace } from './testing/helpers.ts';

const ws = tempWorkspace();
let ctx: Context;
withMemoryContext(ws, (c) => (ctx = c));

const incidents = [...sampleDirs(), ...recordedCases().map((c) => c.path)];

/** The files an incident is made of: its logs (and a tool policy, which is configuration). */
function inputFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => /\.(log|jsonl?|ndjson|txt|har)$/.test(f) && !f.startsWith('expected.') && f !== 'label.json' && statSync(join(dir, f)).isFile())
    .sort();
}

/** What triage decided, without the prose (rationales quote redacted text). */
function decisions(a: Analysis) {
  return {
    decision: a.decision,
    failures: a.failures.map((f) => ({
      decision: f.decision,
      rule: f.rule,
      role: f.role,
      stage: f.stage,
      method: f.method,
      tool: f.tool,
      rpcId: f.rpcId,
      httpStatus: f.httpStatus,
      session: f.session,
      evidence: f.evidence,
    })),
  };
}

/** The analysis of the files, and the incident's public report (which must not be refused). */
async function analyse(dir: string, files: string[], name: string): Promise<Analysis> {
  const r = await ingestIncident(ctx, entriesFromPaths(files.map((f) => join(dir, f))), { name });
  try {
    const report = await incidentReport(ctx.store, r.id, { secrets: r.secrets, key: ctx.key });
    expect(report.markdown).toContain('### Timeline');
  } finally {
    await ctx.store.deleteIncident(r.id);
  }
  return r.analysis;
}

async function redactInto(dir: string, logs: string[], out: string): Promise<void> {
  let err = '';
  const io = { stdout: new PassThrough(), stderr: new PassThrough(), stdin: Readable.from([]), cwd: dir, env: ws.env };
  io.stderr.on('data', (c) => (err += String(c)));
  const code = await redactCommand.run([...logs, '--out-dir', out, '--key-file', ws.keyFile], io);
  expect(code, err).toBe(0);
}

describe('analyze(redact(x)) gives the same decisions as analyze(x), and report(x) is never refused', () => {
  it('covers the samples and the recorded incidents', () => expect(incidents.length).toBeGreaterThanOrEqual(100));
  for (const dir of incidents) {
    const name = dir.split('/').slice(-2).join('/');
    it(name, async () => {
      const files = inputFiles(dir);
      const logs = files.filter((f) => !isPolicyFile(f));
      const out = mkdtempSync(join(tmpdir(), 'mcp-triage-invariance-'));
      try {
        const before = await analyse(dir, files, name);
        await redactInto(dir, logs, out);
        for (const f of files.filter((x) => isPolicyFile(x))) copyFileSync(join(dir, f), join(out, f));
        const after = await analyse(out, files, name);
        expect(decisions(after)).toEqual(decisions(before));
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    });
  }
});
