/**
 * Cheap checks on the committed bundles and the generated nginx config. Does NOT run the recorder
 * (no nginx, no processes): it only guards the documented formats against hand edits and drift.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { nginxConf } from './lib/nginx.ts';
import { scenarios } from './scenarios.ts';
import { RECORD_DIR } from './lib/proc.ts';

const SAMPLES = join(RECORD_DIR, '..');
// recorded/ holds the labelled variants (recorded.test.ts). hand-* bundles are written by hand from the 2026-07-28 spec (no SDK speaks it), not recorded;
// recorded-fresh/ holds an independent harness's recordings (its own formats: fresh-harness/), not this recorder's.
const bundles = readdirSync(SAMPLES).filter(
  (d) => !['record', 'recorded', 'recorded-fresh', 'real-world'].includes(d) && !d.startsWith('hand-') && statSync(join(SAMPLES, d)).isDirectory(),
);
const lines = (f: string) =>
  readFileSync(f, 'utf8')
    .split('\n')
    .filter((l) => l !== '');

describe('sample bundles', () => {
  it('every scenario has a bundle with a README, and every bundle has a scenario', () => {
    expect(bundles.sort()).toEqual(scenarios.map((s) => s.name).sort());
    for (const b of bundles) expect(existsSync(join(SAMPLES, b, 'README.md')), b).toBe(true);
  });

  for (const b of bundles) {
    const dir = join(SAMPLES, b);
    it(`${b}: logs follow the documented formats`, () => {
      for (const f of ['client.log', 'nginx-access.log', 'nginx-access.json.log', 'nginx-error.log']) {
        expect(existsSync(join(dir, f)), `${b}/${f}`).toBe(true);
      }
      // client: prefixed lines, or continuation lines of a console.error dump (never the first line)
      const client = lines(join(dir, 'client.log'));
      expect(client[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (DEBUG|INFO|WARN|ERROR) \[(mcp-client|host-app)\] /);
      // nginx combined
      for (const l of lines(join(dir, 'nginx-access.log'))) {
        expect(l).toMatch(/^\S+ - \S+ \[\d\d\/\w{3}\/\d{4}:\d\d:\d\d:\d\d [+-]\d{4}\] "[A-Z]+ \S+ HTTP\/1\.1" \d{3} \d+ "[^"]*" "[^"]*"$/);
      }
      for (const l of lines(join(dir, 'nginx-access.json.log'))) {
        const j = JSON.parse(l);
        expect(typeof j.status).toBe('number');
        expect(j.request_id).toMatch(/^[0-9a-f]{32}$/);
      }
      for (const l of lines(join(dir, 'nginx-error.log'))) {
        expect(l).toMatch(/^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d \[(debug|info|notice|warn|error|crit|alert|emerg)\] \d+#\d+: /);
      }
      for (const f of ['server.log', 'server-2.log']) {
        if (!existsSync(join(dir, f))) continue;
        for (const l of lines(join(dir, f))) {
          const j = JSON.parse(l);
          expect([30, 40, 50, 60]).toContain(j.level);
          expect(typeof j.time).toBe('number');
          expect(typeof j.pid).toBe('number');
          expect(typeof j.msg).toBe('string');
          expect(Object.keys(j).at(-1)).toBe('msg');
        }
      }
    });
  }
});

describe('nginx config', () => {
  it('has the SSE-safe proxy settings and both access logs', () => {
    const c = nginxConf({ prefix: '/tmp/p', logDir: '/tmp/l', upstreams: ['127.0.0.1:1', '127.0.0.1:2'] }, 8080);
    for (const d of [
      'daemon off;',
      'listen 127.0.0.1:8080;',
      'proxy_http_version 1.1;',
      'proxy_set_header Connection "";',
      'proxy_buffering off;',
      'proxy_set_header X-Request-ID $request_id;',
      'access_log /tmp/l/nginx-access.log combined;',
      'access_log /tmp/l/nginx-access.json.log mcp_json;',
      'error_log /tmp/l/nginx-error.log info;',
      'server 127.0.0.1:2;',
      'client_body_temp_path /tmp/p/client_body_temp;',
    ]) {
      expect(c).toContain(d);
    }
  });
});
