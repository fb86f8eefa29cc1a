// The legacy HTTP+SSE transport's message URL, as the server announced it and as the client used it.
//
// Spec 2024-11-05 basic/transports (HTTP with SSE): on connect the server MUST send an `endpoint` event whose
// data is "a URI for the client to use for sending messages"; a relative one is resolved against the SSE URL by
// RFC 3986 §5.2 (an absolute path replaces the path: `/mcp/message?sessionId=…` → `/mcp/message`; a query-only
// reference keeps it: `?sessionId=…` against `/sse` → `/sse?sessionId=…`). A client that instead glues the
// reference onto its SSE path (`/sse/mcp/message`) or drops the path (`/?sessionId=…`) POSTs to a URL the server
// never named — a defect in the client's URL handling that no server route or setting on the user's side
// explains (java-sdk HttpClientSseClientTransport and mcptools' transport/http.go were both reported so; the
// python-sdk resolves it with urljoin, sse.py). Read from what one file shows: the announcement (`data:` after
// `event: endpoint`), the stream's GET when the reference needs a base, and the next URL in that file that
// carries the same session id. A path the server log shows shortened (a proxy strips a prefix on the way in)
// is never called misresolved: only a used path LONGER than the announced one by a glued-on prefix, or a
// query-only/relative reference resolved against the wrong base.
import type { Event } from '../../../parsers/contract/event.ts';
import { stripQuery } from '../correlate/path.ts';

export interface EndpointMisresolution {
  /** file:line of the endpoint event's data. */
  announcedAt: string;
  /** The reference the server sent (its session id pseudonymised like everywhere). */
  announced: string;
  /** file:line of the first use of that session id on another path. */
  usedAt: string;
  usedPath: string;
  /** The path RFC 3986 resolution gives. */
  expectedPath: string;
  file: string;
  usedLine: number;
}

// a session id in a URL's query (legacy transports name it in the query: sessionId= in the TS/Java SDKs,
// session_id= in the Python SDK)
const SESSION_PARAM = /[?&](?:sessionId|session_id|sessionid)=([^\s&"'#<>\\]{4,200})/g;
// the text right before an endpoint event's data
const DATA_BEFORE = /\bdata:\s?$/;
// a request line naming the stream's path (curl -v, tcpdump, access logs, transcripts)
const GET_LINE = /\bGET (\/[^\s"'?#]{0,500})[^\s"']{0,2000} HTTP\/\d/;
const TOKEN_STOP = new Set([' ', '\t', '"', "'", '<', '>', '(', ')', ',', ';', '`', '\\']);

interface Occurrence {
  line: number;
  token: string;
  announcement: boolean;
}

const memo = new WeakMap<readonly Event[], EndpointMisresolution[]>();

/** Every client (or capture) file whose announced message URL was then used on another path. */
export function endpointMisresolutions(all: readonly Event[]): EndpointMisresolution[] {
  const hit = memo.get(all);
  if (hit) return hit;
  const out: EndpointMisresolution[] = [];
  // (cheap gate: only lines naming a session parameter, and only files where one follows `data:`)
  const byFile = new Map<string, Event[]>();
  for (const e of all)
    if (e.text.includes('essionId=') || e.text.includes('ession_id=') || e.text.includes('essionid=')) (byFile.get(e.file) ?? byFile.set(e.file, []).get(e.file)!).push(e);
  for (const [file, evs] of byFile) if (!evs.some((e) => e.text.includes('data:'))) byFile.delete(file);
  if (byFile.size > 0)
    for (const e of all) if (byFile.has(e.file) && (e.httpMethod === 'GET' || e.text.includes('GET /')) && !e.text.includes('ession')) byFile.get(e.file)!.push(e);
  for (const [file, evs] of byFile) {
    evs.sort((a, b) => a.line - b.line);
    const bySession = new Map<string, Occurrence[]>();
    const gets: { line: number; path: string }[] = [];
    for (const e of evs) {
      if (e.httpMethod === 'GET' && e.httpPath !== null && !e.httpPath.includes('ession')) gets.push({ line: e.line, path: stripQuery(e.httpPath) });
      const lines = e.text.split('\n');
      lines.forEach((text, k) => {
        const line = e.line + k;
        const g = GET_LINE.exec(text);
        if (g && !text.includes('ession')) gets.push({ line, path: g[1]! });
        SESSION_PARAM.lastIndex = 0;
        for (let m = SESSION_PARAM.exec(text); m !== null; m = SESSION_PARAM.exec(text)) {
          let s = m.index;
          while (s > 0 && !TOKEN_STOP.has(text[s - 1]!)) s--;
          let end = m.index + m[0].length;
          while (end < text.length && !TOKEN_STOP.has(text[end]!)) end++;
          let token = text.slice(s, end);
          let announcement = DATA_BEFORE.test(text.slice(0, s));
          if (token.startsWith('data:')) {
            token = token.slice(5);
            announcement = true;
          }
          // (an announcement is the whole reference, relative ones too; a use starts at its URL or path)
          const url = announcement ? 0 : token.search(/https?:\/\/|[/?]/);
          if (url < 0) continue;
          token = token.slice(url);
          const list = bySession.get(m[1]!) ?? bySession.set(m[1]!, []).get(m[1]!)!;
          list.push({ line, token, announcement });
        }
      });
    }
    for (const occ of bySession.values()) {
      const a = occ.find((o) => o.announcement);
      if (!a) continue;
      const relative = !a.token.startsWith('/') && !/^https?:\/\//.test(a.token);
      const base = relative ? gets.filter((g) => g.line < a.line).at(-1)?.path : '/';
      if (base === undefined) continue;
      const expectedPath = pathOf(a.token, base);
      if (expectedPath === null) continue;
      for (const u of occ) {
        if (u.line <= a.line || u.announcement || u.token.startsWith('?')) continue;
        const usedPath = pathOf(u.token, '/');
        if (usedPath === null || usedPath === expectedPath) continue;
        // a path the server saw shortened: a proxy stripped a prefix, not the client's resolution
        if (expectedPath.endsWith(usedPath)) continue;
        if (!relative && !usedPath.endsWith(expectedPath)) continue;
        out.push({ announcedAt: `${file}:${a.line}`, announced: a.token, usedAt: `${file}:${u.line}`, usedPath, expectedPath, file, usedLine: u.line });
        break;
      }
    }
  }
  memo.set(all, out);
  return out;
}

function pathOf(ref: string, basePath: string): string | null {
  try {
    return new URL(ref, `http://base.invalid${basePath.startsWith('/') ? basePath : `/${basePath}`}`).pathname;
  } catch {
    return null;
  }
}
