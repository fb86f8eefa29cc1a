// Markdown that is safe to paste into a public issue: log text can neither break out of its
// fence, ping people, link issues, nor hide characters (redaction.md §5.5).

// ANSI/OSC escapes, C0/C1 controls (but tab and newline), bidi overrides and zero-width characters.
const ESCAPES = /\x1b\[[0-?]{0,64}[ -/]{0,8}[@-~]|\x1b\][^\x07\x1b]{0,4096}(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;
const INVISIBLE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

export function cleanText(s: string): string {
  return s.replace(ESCAPES, '').replace(INVISIBLE, '');
}

/** For prose (outside fences): no @mentions, no #123 / GH-123 auto-links, no raw HTML, no Markdown links. */
export function inline(s: string): string {
  return cleanText(s)
    .replace(/\r?\n/g, ' ')
    .replace(/[<>]/g, (c) => (c === '<' ? '&lt;' : '&gt;'))
    .replace(/@(?=[A-Za-z0-9_-])/g, '@\u200b')
    .replace(/(^|[^\w&])#(?=\d)/g, '$1#\u200b')
    .replace(/\b(GH)-(?=\d)/gi, '$1-\u200b')
    .replace(/([[\]`*_|])/g, '\\$1');
}

/** `code` span that survives any backticks inside. */
export function code(s: string): string {
  const t = cleanText(s).replace(/\r?\n/g, ' ');
  const longest = Math.max(0, ...(t.match(/`+/g) ?? []).map((r) => r.length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${/^`|`$/.test(t) ? ` ${t} ` : t}${ticks}`;
}

/** A fenced block longer than any backtick run in its text, so nothing can close it early. */
export function fence(text: string, lang = 'text'): string {
  const t = cleanText(text).replace(/\r/g, '');
  const longest = Math.max(2, ...(t.match(/`+/g) ?? []).map((r) => r.length));
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${t}\n${f}`;
}
