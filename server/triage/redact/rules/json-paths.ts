// MCP business data by structure (redaction.md §3 kind 10): values at these JSON paths become
// type/length summaries (`<string len=48>`); keys, tool name, method, id, isError,
// error.code and error.message stay. Paths are suffixes (the JSON-RPC message may sit inside
// a log wrapper, a HAR body or an SSE `data:` line): keys, `[]` = any array item.
import type { JsonPathRule } from '../types.ts';

/** Keys that hold a tool's arguments in log records and free text (business data whatever its language). */
export const ARGUMENT_KEYS = ['arguments', 'args', 'tool_args', 'toolArgs', 'tool_arguments', 'toolArguments', 'tool_input', 'toolInput'];

const CONTENT_KEEP = ['type', 'mimeType', 'annotations', 'name', 'title', 'uri', '_meta'];

export const JSON_PATH_RULES: JsonPathRule[] = [
  {
    id: '@tool-arguments',
    kind: 'json-path',
    description:
      'tool arguments wherever they sit (params.arguments, and any arguments/args/tool_input member of a log record): values become summaries, names kept; free-text `arguments: {…}`, `args=(…)` and util.inspect forms are handled by engine.ts argumentsPass',
    paths: ['params.arguments', ...ARGUMENT_KEYS],
    tps: [
      '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"create_order","arguments":{"customer":"ACME Ltd","qty":3}}}',
      '{"level":30,"msg":"tool call","tool":"create_order","args":{"name":"Jürgen Müller","street":"Hauptstraße 5"}}',
    ],
    fps: ['{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}'],
  },
  {
    id: '@completion-argument',
    kind: 'json-path',
    description: 'completion/complete params.argument.value',
    paths: ['params.argument'],
    keep: ['name'],
    tps: ['{"jsonrpc":"2.0","id":3,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"city","value":"Springfield"}}}'],
    fps: ['{"jsonrpc":"2.0","id":3,"method":"ping"}'],
  },
  {
    id: '@tool-result',
    kind: 'json-path',
    description: 'tools/call result.content[].text/data/resource and result.structuredContent; elicitation result.content',
    paths: ['result.content', 'result.structuredContent', 'result.toolResult', 'structuredContent'],
    keep: CONTENT_KEEP,
    tps: ['{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"Order 991 for ACME Ltd created"}],"structuredContent":{"order":991},"isError":false}}'],
    fps: ['{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Unknown tool: create_order"}}'],
  },
  {
    id: '@resource-contents',
    kind: 'json-path',
    description: 'resources/read result.contents[].text/blob (uri and mimeType kept)',
    paths: ['result.contents', 'contents'],
    keep: CONTENT_KEEP,
    tps: ['{"jsonrpc":"2.0","id":4,"result":{"contents":[{"uri":"file:///notes.txt","mimeType":"text/plain","text":"private notes"}]}}'],
    fps: ['{"jsonrpc":"2.0","id":4,"result":{"resources":[{"uri":"file:///notes.txt","name":"notes"}]}}'],
  },
  {
    id: '@prompt-messages',
    kind: 'json-path',
    description: 'prompts/get result.messages[].content, sampling/createMessage params.messages[].content and systemPrompt, elicitation/create params.message',
    paths: ['result.messages.[].content', 'params.messages.[].content', 'params.systemPrompt', 'params.message'],
    keep: CONTENT_KEEP,
    tps: ['{"jsonrpc":"2.0","id":5,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"summarise Q3 revenue"}}]}}'],
    fps: ['{"jsonrpc":"2.0","id":5,"result":{"prompts":[{"name":"summary"}]}}'],
  },
];

// Path suffixes split once (this runs for every member of every JSON value on every line).
const SPLIT = new WeakMap<string[], string[][]>();
function segmentsOf(r: JsonPathRule): string[][] {
  let segs = SPLIT.get(r.paths);
  if (!segs) SPLIT.set(r.paths, (segs = r.paths.map((p) => p.split('.'))));
  return segs;
}

export function matchJsonPath(path: string[]): { rule: string; keep: string[] } | null {
  const n = path.length;
  for (const r of JSON_PATH_RULES) {
    for (const segs of segmentsOf(r)) {
      if (segs.length > n) continue;
      const off = n - segs.length;
      let ok = true;
      for (let i = segs.length - 1; i >= 0; i--) {
        if (segs[i] !== path[off + i]) {
          ok = false;
          break;
        }
      }
      if (ok) return { rule: r.id, keep: r.keep ?? [] };
    }
  }
  return null;
}
