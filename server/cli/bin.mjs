#!/usr/bin/env node
// The `mcp-triage` command: runs dist/cli.mjs, the esbuild bundle of server/cli/main.ts that
// `npm ci` (prepare) and `npm run build` make; or the TypeScript sources through tsx when dist/ is
// missing or older than them (server/launch.mjs says why that is a fallback, not an error).
import { load } from '../launch.mjs';

const { main } = await load('cli', 'server/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
