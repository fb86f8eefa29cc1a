// A small JSON scanner that keeps source offsets, so the redactor can rewrite one value in
// place and leave every other byte (spacing, number spelling, big JSON-RPC ids) untouched.
// `loose` also reads Python reprs: 'single quotes', True/False/None. Hand-written and
// linear: no regex backtracking, depth-capped.

export type JNode =
  | { t: 'obj'; start: number; end: number; members: JMember[] }
  | { t: 'arr'; start: number; end: number; items: JNode[] }
  | { t: 'str'; start: number; end: number; value: string; quote: '"' | "'" }
  | { t: 'num' | 'bool' | 'null'; start: number; end: number; raw: string };

export interface JMember {
  key: string;
  value: JNode;
}

const MAX_DEPTH = 64;

// One preallocated sentinel: constructing an Error (and its stack trace) per failed parse attempt
// was the single most expensive thing on text lines that merely contain `[`.
const FAIL = { fail: true } as const;

export function parseJsonAt(text: string, start: number, loose = false): JNode | null {
  let i = start;
  const ws = () => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const str = (): JNode => {
    const q = text[i] as '"' | "'";
    const s = i;
    i++;
    let hasEscape = false;
    while (i < text.length) {
      const c = text[i]!;
      if (c === '\\') {
        hasEscape = true;
        i += 2;
        continue;
      }
      if (c === q) break;
      if (q === '"' && c.charCodeAt(0) < 0x20) throw FAIL;
      i++;
    }
    if (i >= text.length) throw FAIL;
    i++;
    const raw = text.slice(s, i);
    let value: string;
    if (q === '"') {
      if (!hasEscape) value = raw.slice(1, -1);
      else
        try {
          value = JSON.parse(raw) as string;
        } catch {
          throw FAIL;
        }
    } else value = unescapePython(raw.slice(1, -1));
    return { t: 'str', start: s, end: i, value, quote: q };
  };
  const word = (w: string, t: 'bool' | 'null'): JNode | null => {
    if (text.startsWith(w, i)) {
      const s = i;
      i += w.length;
      return { t, start: s, end: i, raw: w };
    }
    return null;
  };
  const value = (depth: number): JNode => {
    if (depth > MAX_DEPTH) throw FAIL;
    ws();
    const c = text[i];
    if (c === '{') {
      const s = i++;
      const members: JMember[] = [];
      ws();
      if (text[i] === '}') return { t: 'obj', start: s, end: ++i, members };
      for (;;) {
        ws();
        if (text[i] !== '"' && !(loose && text[i] === "'")) throw FAIL;
        const k = str() as { value: string };
        ws();
        if (text[i] !== ':') throw FAIL;
        i++;
        members.push({ key: k.value, value: value(depth + 1) });
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') return { t: 'obj', start: s, end: ++i, members };
        throw FAIL;
      }
    }
    if (c === '[') {
      const s = i++;
      const items: JNode[] = [];
      ws();
      if (text[i] === ']') return { t: 'arr', start: s, end: ++i, items };
      for (;;) {
        items.push(value(depth + 1));
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') return { t: 'arr', start: s, end: ++i, items };
        throw FAIL;
      }
    }
    if (c === '"' || (loose && c === "'")) return str();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      const s = i;
      if (text[i] === '-') i++;
      while (i < text.length && /[0-9.eE+-]/.test(text[i]!)) i++;
      const raw = text.slice(s, i);
      if (!Number.isFinite(Number(raw))) throw FAIL;
      return { t: 'num', start: s, end: i, raw };
    }
    const w =
      word('true', 'bool') ??
      word('false', 'bool') ??
      word('null', 'null') ??
      (loose ? (word('True', 'bool') ?? word('False', 'bool') ?? word('None', 'null')) : null);
    if (w) return w;
    throw FAIL;
  };
  try {
    return value(0);
  } catch (e) {
    if (e === FAIL || e instanceof RangeError) return null;
    throw e;
  }
}

const PY_ESC: Record<string, string> = { n: '\n', r: '\r', t: '\t', '\\': '\\', "'": "'", '"': '"', '0': '\0' };

function unescapePython(s: string): string {
  return s.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|.)/g, (m, e: string) => {
    if (e.length > 1) return String.fromCharCode(parseInt(e.slice(1), 16));
    return PY_ESC[e] ?? m;
  });
}

/** Write a string back in the quoting it came in. */
export function quoteLike(value: string, quote: '"' | "'"): string {
  if (quote === '"') return JSON.stringify(value);
  return "'" + value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r') + "'";
}

/** `<string len=48>`, `<object keys=3>`…: what a business value was, not what it said. */
export function summarise(node: JNode): string {
  switch (node.t) {
    case 'str':
      return `<string len=${node.value.length}>`;
    case 'num':
      return '<number>';
    case 'bool':
      return '<boolean>';
    case 'null':
      return '<null>';
    case 'arr':
      return `<array len=${node.items.length}>`;
    case 'obj':
      return `<object keys=${node.members.length}>`;
  }
}
