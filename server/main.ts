// `npm start`: build is done by the npm script; this loads the sample incidents into the
// workspace database and serves the UI on 127.0.0.1 (PORT or 8765).
import { main } from './cli/main.ts';
import { openContext } from './incidents.ts';
import { loadSamples } from './samples.ts';

const ctx = await openContext();
const n = await loadSamples(ctx, undefined, (s) => process.stderr.write(`mcp-triage: ${s}\n`));
process.stderr.write(`mcp-triage: ${n} new sample incident(s) loaded into ${ctx.store.path}\n`);
await ctx.store.close();
process.exitCode = await main(['serve', '--port', process.env.PORT ?? '8765', ...process.argv.slice(2)]);
