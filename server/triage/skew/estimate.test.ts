// Skew estimation recovers a known offset injected into a recorded bundle's server log (±50 ms),
// and reports ~0 for the bundle as recorded (one machine, one clock).
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestIncident, type Context } from '../../incidents.ts';
import { entriesFromPaths } from '../../ingest/inputs.ts';
import { REPO, tempWorkspace } from '../../testing/helpers.ts';
import { withMemoryContext } from '../../testing/context.ts';

const ws = tempWorkspace();
let ctx: Context;
withMemoryContext(ws, (c) => (ctx = c));

/** A copy of a sample whose server.log clock runs `shiftMs` ahead (pino `time` is epoch ms). */
function shifted(sample: string, shiftMs: number): string {
  const src = join(REPO, 'samples', sample);
  const dir = mkdtempSync(join(ws.dir, `${sample}-`));
  for (const f of readdirSync(src).filter((n) => n.endsWith('.log'))) {
    let text = readFileSync(join(src, f), 'utf8');
    if (f === 'server.log') text = text.replace(/"time":(\d{13})/g, (_, t: string) => `"time":${Number(t) + shiftMs}`);
    writeFileSync(join(dir, f), text);
  }
  return dir;
}

describe('clock offsets', () => {
  for (const shift of [0, 1234, -750]) {
    it(`recovers a server clock shifted by ${shift} ms`, async () => {
      const { analysis } = await ingestIncident(ctx, entriesFromPaths([shifted('restart-stale-session', shift)]), { name: 'skew' });
      const server = analysis.clockOffsets?.find((o) => o.file === 'server.log');
      expect(server, JSON.stringify(analysis.clockOffsets)).toBeDefined();
      expect(server!.pairs).toBeGreaterThanOrEqual(3);
      expect(Math.abs(server!.offsetMs - -shift)).toBeLessThanOrEqual(50);
      // the other files did not move
      const client = analysis.clockOffsets?.find((o) => o.file === 'client.log');
      if (client) expect(Math.abs(client.offsetMs)).toBeLessThanOrEqual(50);
    });
  }
  it('never reports a whole-second log as if it had a measurable offset', async () => {
    const { analysis } = await ingestIncident(ctx, entriesFromPaths([join(REPO, 'samples', 'restart-stale-session')]), { name: 'plain' });
    expect(analysis.clockOffsets?.some((o) => o.file === 'nginx-access.log')).toBe(false);
  });
});
