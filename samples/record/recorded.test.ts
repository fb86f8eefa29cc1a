/**
 * Cheap checks on samples/recorded/ (no processes, no recorder run): every incident has a label.json valid against
 * the label schema and equal to its scenario's definition, the client log in all six styles with the same number of
 * records in each, and at least one non-client log. The _noise/ bundles are checked the same way.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { RECORD_DIR } from './lib/proc.ts';
import { STYLES, type Style } from './lib/styles.ts';
import { DECISIONS, FAMILIES, recordedScenarios } from './scenarios-recorded.ts';

const RECORDED = join(RECORD_DIR, '..', 'recorded');

export const LabelSchema = z
  .object({
    family: z.enum(FAMILIES),
    decision: z.enum(DECISIONS),
    failing: z
      .object({
        method: z.string().nullable(),
        tool: z.string().nullable(),
        rpcId: z.union([z.number(), z.string()]).nullable(),
        httpStatus: z.number().int().min(100).max(599).nullable(),
      })
      .strict()
      .nullable(),
    proxy: z.enum(['nginx', 'haproxy', 'caddy', 'none']),
    server: z.enum(['stateful', 'stateless', 'json', 'legacy-sse']),
    clients: z.union([z.literal(1), z.literal(3)]),
    clientStyle: z.enum(STYLES),
    styles: z.array(z.enum(STYLES)),
    why: z.string().min(20),
  })
  .strict();

/** where a record starts in each style (continuation lines of errors never match) */
const RECORD_START: Record<Style, RegExp> = {
  pino: /^\{"level":\d+,"time":\d+,/,
  winston: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \[[\w-]+\] (debug|info|warn|error): /,
  debug: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z orders-assistant:[\w-]+(:warn|:error)? /,
  python: /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} - orders_assistant\.\w+ - (DEBUG|INFO|WARNING|ERROR) - /,
  console: /^\[(mcp-client|host-app)\] /,
  ide: /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \[(trace|debug|info|warning|error)\] /,
};

const CLIENT_FILES = (dir: string, style: Style, primary: Style) => (style === primary ? join(dir, 'client.log') : join(dir, 'styles', `client.${style}.log`));
const records = (file: string, style: Style) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => RECORD_START[style].test(l)).length;

const incidents = existsSync(RECORDED) ? readdirSync(RECORDED).filter((d) => d !== '_noise' && statSync(join(RECORDED, d)).isDirectory()) : [];
const noise = existsSync(join(RECORDED, '_noise')) ? readdirSync(join(RECORDED, '_noise')).map((d) => `_noise/${d}`) : [];

describe('samples/recorded', () => {
  it('every recorded scenario has a bundle, and every bundle a scenario', () => {
    expect(incidents.sort()).toEqual(
      recordedScenarios
        .filter((s) => !s.noise)
        .map((s) => s.name)
        .sort(),
    );
    expect(noise.sort()).toEqual(
      recordedScenarios
        .filter((s) => s.noise)
        .map((s) => `_noise/${s.name}`)
        .sort(),
    );
    expect(incidents.length).toBeGreaterThanOrEqual(60);
  });

  it('each style is the primary client.log of about a sixth of the incidents', () => {
    const counts = new Map<string, number>();
    for (const d of incidents) {
      const l = LabelSchema.parse(JSON.parse(readFileSync(join(RECORDED, d, 'label.json'), 'utf8')));
      counts.set(l.clientStyle, (counts.get(l.clientStyle) ?? 0) + 1);
    }
    for (const s of STYLES) expect(counts.get(s) ?? 0, s).toBeGreaterThanOrEqual(Math.floor(incidents.length / STYLES.length) - 1);
  });

  for (const d of [...incidents, ...noise]) {
    const dir = join(RECORDED, d);
    it(`${d}: label, client styles, other logs`, () => {
      const label = LabelSchema.parse(JSON.parse(readFileSync(join(dir, 'label.json'), 'utf8')));
      const s = recordedScenarios.find((x) => (x.noise ? `_noise/${x.name}` : x.name) === d)!;
      expect(s, 'scenario').toBeDefined();
      // the label is the scenario's construction, not something derived later
      expect(label).toMatchObject({ family: s.family, decision: s.decision, failing: s.failing, proxy: s.proxy, server: s.server, clients: s.clients });
      expect([...label.styles].sort()).toEqual([...STYLES].sort());
      if (label.family === 'healthy' || label.family === 'optional-channel') expect(label.failing).toBeNull();
      if (label.failing === null) expect(label.decision).toBe('no_action');

      expect(existsSync(join(dir, 'client.log'))).toBe(true);
      const counts = STYLES.map((st) => {
        const f = CLIENT_FILES(dir, st, label.clientStyle);
        expect(existsSync(f), f).toBe(true);
        return records(f, st);
      });
      expect(counts[0]).toBeGreaterThan(0);
      expect(new Set(counts).size, `records per style ${STYLES.map((st, i) => `${st}=${counts[i]}`).join(' ')}`).toBe(1);
      expect(readdirSync(join(dir, 'styles')).sort()).toEqual(
        STYLES.filter((st) => st !== label.clientStyle)
          .map((st) => `client.${st}.log`)
          .sort(),
      );

      // the failing request as the client logged it (ide style: one line per record) has the labelled status
      if (label.failing) {
        const f = label.failing;
        const ide = readFileSync(CLIENT_FILES(dir, 'ide', label.clientStyle), 'utf8').split('\n');
        const want = f.method === null ? / GET \S+ accept=/ : new RegExp(` rpc=${f.rpcId ?? '-'} method=${f.method.replace('/', '\\/')}${f.tool ? ` tool=${f.tool}` : ''} `);
        const line = ide.find((l) => want.test(l) && / -> (\d{3} |failed after)/.test(l));
        if (f.httpStatus === null) expect(line === undefined || / -> failed after /.test(line), line).toBe(true);
        else expect(line, `${want}`).toMatch(new RegExp(` -> ${f.httpStatus} `));
      }

      const others = readdirSync(dir).filter((f) => f.endsWith('.log') && f !== 'client.log');
      expect(others.length, 'non-client logs').toBeGreaterThan(0);
      if (label.proxy === 'nginx') expect(others).toEqual(expect.arrayContaining(['nginx-access.log', 'nginx-error.log']));
      if (label.proxy === 'haproxy') expect(others).toContain('haproxy.log');
      if (label.proxy === 'caddy') expect(others).toContain('caddy-access.log');
      if (label.proxy === 'none') expect(others.every((f) => f.startsWith('server'))).toBe(true);
      for (const f of readdirSync(dir)) if (f.endsWith('.log')) expect(statSync(join(dir, f)).size, f).toBeLessThan(150_000);
    });
  }
});
