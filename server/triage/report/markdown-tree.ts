// A tiny Markdown reader for the subset the report emits (server/triage/report): headings,
// paragraphs, GFM tables, fenced code, ordered/bulleted/task lists (nested by indent), inline
// code, **bold**, backslash escapes, &lt;/&gt;/&amp;, a thematic break and a <sub> footer line.
// It returns a plain tree of strings: the UI renders it as Svelte text nodes and the HTML export
// escapes every string, so no log text can ever become markup (redaction.md §5.5).
// Pure TS (no DOM), imported by the server's HTML export as well.

export type Inline = { t: 'text'; s: string } | { t: 'code'; s: string } | { t: 'strong'; c: Inline[] };

export interface ListItem {
  /** null: not a task item; otherwise whether the box is ticked */
  task: boolean | null;
  c: Inline[];
  children: Block[];
}

export type Block =
  | { t: 'heading'; level: number; c: Inline[] }
  | { t: 'paragraph'; c: Inline[]; small?: boolean }
  | { t: 'code'; lang: string; text: string }
  | { t: 'table'; head: Inline[][]; rows: Inline[][][] }
  | { t: 'list'; ordered: boolean; start: number; items: ListItem[] }
  | { t: 'hr' };

const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&#39;': "'" };

/** Inline text: code spans (any backtick run length), **bold**, escapes and the few entities. */
export function parseInline(src: string): Inline[] {
  const out: Inline[] = [];
  let text = '';
  const flush = () => {
    if (text) out.push({ t: 'text', s: text });
    text = '';
  };
  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    if (ch === '\\' && i + 1 < src.length && /[\\`*_[\]{}()#+\-.!|<>~]/.test(src[i + 1]!)) {
      text += src[i + 1];
      i += 2;
      continue;
    }
    if (ch === '`') {
      let n = 0;
      while (src[i + n] === '`') n++;
      const ticks = '`'.repeat(n);
      // The closing run must be exactly n backticks long.
      let j = i + n;
      let close = -1;
      while (j < src.length) {
        const k = src.indexOf(ticks, j);
        if (k < 0) break;
        if (src[k + n] !== '`' && src[k - 1] !== '`') {
          close = k;
          break;
        }
        j = k + 1;
        while (src[j] === '`') j++;
      }
      if (close >= 0) {
        flush();
        let s = src.slice(i + n, close);
        if (s.length > 2 && s.startsWith(' ') && s.endsWith(' ') && s.trim()) s = s.slice(1, -1);
        out.push({ t: 'code', s });
        i = close + n;
        continue;
      }
      text += ticks;
      i += n;
      continue;
    }
    if (ch === '*' && src[i + 1] === '*') {
      const close = src.indexOf('**', i + 2);
      if (close > i + 2) {
        flush();
        out.push({ t: 'strong', c: parseInline(src.slice(i + 2, close)) });
        i = close + 2;
        continue;
      }
    }
    if (ch === '&') {
      const m = /^&(?:lt|gt|amp|quot|#39);/.exec(src.slice(i, i + 6));
      if (m) {
        text += ENTITIES[m[0]]!;
        i += m[0].length;
        continue;
      }
    }
    text += ch;
    i++;
  }
  flush();
  return out;
}

/** Split a table row on unescaped pipes outside code spans. */
function cells(line: string): string[] {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  const out: string[] = [];
  let cur = '';
  let ticks = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === '\\' && s[i + 1] === '|') {
      cur += '\\|';
      i++;
      continue;
    }
    if (ch === '`') {
      let n = 0;
      while (s[i + n] === '`') n++;
      ticks = ticks === 0 ? n : ticks === n ? 0 : ticks;
      cur += '`'.repeat(n);
      i += n - 1;
      continue;
    }
    if (ch === '|' && ticks === 0) {
      out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += ch;
  }
  out.push(cur.trim());
  return out;
}

const FENCE = /^(`{3,}|~{3,})\s*([\w-]*)\s*$/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const HR = /^(?:-{3,}|\*{3,}|_{3,})\s*$/;
const ITEM = /^(\s*)(?:([-*+])|(\d{1,9})[.)])\s+(.*)$/;
const TABLE_SEP = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;
const SUB = /^<sub>([\s\S]*)<\/sub>$/;

export function parseMarkdown(md: string): Block[] {
  const lines = md.replace(/\r\n?/g, '\n').split('\n');
  return parseBlocks(lines);
}

function parseBlocks(lines: string[]): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  let para: string[] = [];
  const endPara = () => {
    if (!para.length) return;
    const joined = para.join('\n').trim();
    const sub = SUB.exec(joined);
    if (sub) blocks.push({ t: 'paragraph', c: parseInline(sub[1]!), small: true });
    else blocks.push({ t: 'paragraph', c: parseInline(joined) });
    para = [];
  };
  while (i < lines.length) {
    const line = lines[i]!;
    const fence = FENCE.exec(line.trim());
    if (fence && line.search(/\S/) < 4) {
      endPara();
      const marker = fence[1]!;
      const body: string[] = [];
      i++;
      while (i < lines.length) {
        const l = lines[i]!.trim();
        if (l.startsWith(marker[0]!.repeat(marker.length)) && /^(`+|~+)\s*$/.test(l) && l.length >= marker.length) break;
        body.push(lines[i]!);
        i++;
      }
      i++; // the closing fence (or end of input)
      blocks.push({ t: 'code', lang: fence[2] ?? '', text: body.join('\n') });
      continue;
    }
    if (!line.trim()) {
      endPara();
      i++;
      continue;
    }
    const h = HEADING.exec(line);
    if (h) {
      endPara();
      blocks.push({ t: 'heading', level: h[1]!.length, c: parseInline(h[2]!) });
      i++;
      continue;
    }
    if (HR.test(line.trim()) && !para.length) {
      blocks.push({ t: 'hr' });
      i++;
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && TABLE_SEP.test(lines[i + 1]!) && !para.length) {
      const head = cells(line).map(parseInline);
      const rows: Inline[][][] = [];
      i += 2;
      while (i < lines.length && lines[i]!.includes('|') && lines[i]!.trim()) {
        rows.push(cells(lines[i]!).map(parseInline));
        i++;
      }
      blocks.push({ t: 'table', head, rows });
      continue;
    }
    const item = ITEM.exec(line);
    if (item && !para.length) {
      const { block, next } = parseList(lines, i);
      blocks.push(block);
      i = next;
      continue;
    }
    para.push(line);
    i++;
  }
  endPara();
  return blocks;
}

function parseList(lines: string[], start: number): { block: Block; next: number } {
  const first = ITEM.exec(lines[start]!)!;
  const indent = first[1]!.length;
  const ordered = first[3] !== undefined;
  const items: ListItem[] = [];
  let i = start;
  while (i < lines.length) {
    const m = ITEM.exec(lines[i]!);
    if (!m || m[1]!.length !== indent || (m[3] !== undefined) !== ordered) break;
    let body = m[4]!;
    let task: boolean | null = null;
    const tm = /^\[([ xX])\]\s+(.*)$/.exec(body);
    if (tm) {
      task = tm[1] !== ' ';
      body = tm[2]!;
    }
    i++;
    // Continuation: lines indented deeper than this item's marker (nested lists, wrapped text).
    const inner: string[] = [];
    while (i < lines.length && lines[i]!.trim() && lines[i]!.search(/\S/) > indent) {
      inner.push(lines[i]!);
      i++;
    }
    const cut = Math.min(...inner.map((l) => l.search(/\S/)));
    const children = inner.length ? parseBlocks(inner.map((l) => l.slice(cut))) : [];
    const c = parseInline(body);
    items.push({ task, c, children });
  }
  return { block: { t: 'list', ordered, start: ordered ? Number(first[3]) : 1, items }, next: i };
}

// ── redaction placeholders ─────────────────────────────────────────────────

/** What the redactor leaves behind: rule placeholders, session pseudonyms, elided strings. */
export const PLACEHOLDER =
  /\[REDACTED:[^\]\n]{1,80}\]|\[REDACTION FAILED[^\]\n]{0,40}\]|\[REMOVED\]|<string len=\d{1,12}>|&lt;string len=\d{1,12}&gt;|\bsess_(?:[a-z2-7]{10,}|…)|\b(?:req|host|ip|user|h)-[a-z2-7]{10,16}\b|\bemail_[a-z2-7]{10,16}\b/g;

export interface Piece {
  s: string;
  /** the placeholder kind, or null for plain text */
  kind: 'redacted' | 'session' | 'pseudonym' | 'string' | 'removed' | null;
}

/** Split text into plain pieces and placeholder pieces (for highlighting with text nodes). */
export function splitPlaceholders(s: string): Piece[] {
  const out: Piece[] = [];
  let last = 0;
  for (const m of s.matchAll(PLACEHOLDER)) {
    const at = m.index!;
    if (at > last) out.push({ s: s.slice(last, at), kind: null });
    const v = m[0];
    out.push({
      s: v,
      kind: v.startsWith('sess_') ? 'session' : v === '[REMOVED]' ? 'removed' : v.startsWith('[') ? 'redacted' : v.startsWith('<') || v.startsWith('&lt;') ? 'string' : 'pseudonym',
    });
    last = at + v.length;
  }
  if (last < s.length) out.push({ s: s.slice(last), kind: null });
  return out;
}

// ── "remove more": blank out ranges of the report before it leaves the machine ──

/** A range of one source line, [start, end) in UTF-16 code units. */
export interface Cut {
  line: number;
  start: number;
  end: number;
}

export const REMOVED = '[REMOVED]';

/**
 * Apply cuts to the Markdown: every maximal run of cut characters on a line becomes [REMOVED].
 * Cuts only ever take text away; the result never holds anything the input did not.
 */
export function applyCuts(md: string, cuts: readonly Cut[]): string {
  if (!cuts.length) return md;
  const lines = md.split('\n');
  const masks = new Map<number, Uint8Array>();
  for (const c of cuts) {
    const l = lines[c.line];
    if (l === undefined) continue;
    let m = masks.get(c.line);
    if (!m) masks.set(c.line, (m = new Uint8Array(l.length)));
    for (let k = Math.max(0, c.start); k < Math.min(l.length, c.end); k++) m[k] = 1;
  }
  for (const [n, m] of masks) {
    const l = lines[n]!;
    let out = '';
    for (let k = 0; k < l.length; k++) {
      if (!m[k]) out += l[k];
      else if (k === 0 || !m[k - 1]) out += REMOVED;
    }
    lines[n] = out;
  }
  return lines.join('\n');
}

// ── HTML (the offline export): every string escaped ────────────────────────

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function textHtml(s: string): string {
  return splitPlaceholders(s)
    .map((p) => (p.kind ? `<mark class="ph ph-${p.kind}">${escapeHtml(p.s)}</mark>` : escapeHtml(p.s)))
    .join('');
}

function inlineHtml(c: Inline[]): string {
  return c.map((n) => (n.t === 'text' ? textHtml(n.s) : n.t === 'code' ? `<code>${textHtml(n.s)}</code>` : `<strong>${inlineHtml(n.c)}</strong>`)).join('');
}

export function blocksToHtml(blocks: Block[]): string {
  return blocks
    .map((b) => {
      switch (b.t) {
        case 'heading':
          return `<h${b.level + 1}>${inlineHtml(b.c)}</h${b.level + 1}>`;
        case 'paragraph':
          return b.small ? `<p class="small">${inlineHtml(b.c)}</p>` : `<p>${inlineHtml(b.c)}</p>`;
        case 'code':
          return `<pre><code>${textHtml(b.text)}</code></pre>`;
        case 'hr':
          return '<hr>';
        case 'table':
          return `<table><thead><tr>${b.head.map((c) => `<th>${inlineHtml(c)}</th>`).join('')}</tr></thead><tbody>${b.rows
            .map((r) => `<tr>${r.map((c) => `<td>${inlineHtml(c)}</td>`).join('')}</tr>`)
            .join('')}</tbody></table>`;
        case 'list': {
          const tag = b.ordered ? 'ol' : 'ul';
          const items = b.items
            .map((it) => `<li>${it.task === null ? '' : `<span class="task">${it.task ? '☑' : '☐'}</span> `}${inlineHtml(it.c)}${blocksToHtml(it.children)}</li>`)
            .join('');
          return `<${tag}${b.ordered && b.start !== 1 ? ` start="${b.start}"` : ''}>${items}</${tag}>`;
        }
      }
    })
    .join('\n');
}
