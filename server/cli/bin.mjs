#!/usr/bin/env node
// The `mcp-triage` command. The sources are TypeScript run through tsx, so `npx mcp-triage`
// works in a fresh checkout after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2));
