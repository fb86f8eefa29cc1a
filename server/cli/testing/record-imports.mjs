// node --import <this file>: appends the URL of every module the main thread's ESM loader
// resolves (node:fs, file:///…/node_modules/@duckdb/node-api/…, file:///…/dist/cli.mjs) to the
// file named by $MCP_TRIAGE_RECORD_IMPORTS, one per line. lazy.test.ts reads it to prove which
// packages a command loaded. The hooks run on their own thread; this file is also that thread's
// hooks module, hence the isMainThread guard.
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

let out = null;

export function initialize(data) {
  out = data.out;
}

export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (out) appendFileSync(out, r.url + '\n');
  return r;
}

if (isMainThread && process.env.MCP_TRIAGE_RECORD_IMPORTS) register(import.meta.url, { data: { out: process.env.MCP_TRIAGE_RECORD_IMPORTS } });
