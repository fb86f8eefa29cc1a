// node --import <this file>: appends the URL of every module the main thread loads — through
// the ESM loader (node:fs, file:///…/dist/cli.mjs) and through require() (the bundle require()s
// DuckDB: server/build/build.mjs) — to the file named by $MCP_TRIAGE_RECORD_IMPORTS, one per line.
// lazy.test.ts reads it to prove which packages a command loaded. The ESM hooks run on their own
// thread, and this file is also that thread's hooks module, hence the isMainThread guard.
import { appendFileSync } from 'node:fs';
import Module, { isBuiltin, register } from 'node:module';
import { pathToFileURL } from 'node:url';
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

if (isMainThread && process.env.MCP_TRIAGE_RECORD_IMPORTS) {
  const file = process.env.MCP_TRIAGE_RECORD_IMPORTS;
  register(import.meta.url, { data: { out: file } });
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    const r = resolveFilename.call(this, request, ...rest);
    appendFileSync(file, (isBuiltin(r) ? (r.startsWith('node:') ? r : `node:${r}`) : pathToFileURL(r).href) + '\n');
    return r;
  };
}
