// A small JSON scanner that keeps source offsets, so the redactor can rewrite one value in
// place and leave every other byte (spacing, number spelling, big JSON-RPC ids) untouched.
// `loose` also reads Python reprs ('single quotes', True/False/None) and Node's util.inspect
// (bare identifier keys, `undefined`). Hand-written and linear: no regex backtracking, depth-capped.

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
  const p = new Parser(text, start, loose);
  try {
    return p.value(0);
  } catch (e) {
    if (e === FAIL || e instanceof RangeError) return null;
    throw e;
  }
}

const isIdentStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36;
const isIdentChar = (c: number) => isIdentStart(c) || (c >= 48 && c <= 57);

/** [0-9.eE+-] */
const isNumChar = (c: number) => (c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45;

// Methods, not closures made per call (tsx keeps names, so each closure creation cost a defineProperty).
class Parser {
  i: number;
  constructor(
    readonly text: string,
    start: number,
    readonly loose: boolean,
  ) {
    this.i = start;
  }
  ws(): void {
    const text = this.text;
    while (this.i < text.length) {
      const c = text.charCodeAt(this.i);
      if (c === 32 || c === 9 || c === 10 || c === 13) this.i++;
      else break;
    }
  }
  str(): JNode & { t: 'str' } {
    const text = this.text;
    const q = text[this.i] as '"' | "'";
    const s = this.i;
    this.i++;
    let hasEscape = false;
    const qc = q === '"' ? 34 : 39;
    let i = this.i;
    const n = text.length;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 92) {
        hasEscape = true;
        i += 2;
        continue;
      }
      if (c === qc) break;
      if (qc === 34 && c < 0x20) {
        this.i = i;
        throw FAIL;
      }
      i++;
    }
    this.i = i;
    if (this.i >= text.length) throw FAIL;
    this.i++;
    const raw = text.slice(s, this.i);
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
    return { t: 'str', start: s, end: this.i, value, quote: q };
  }
  word(w: string, t: 'bool' | 'null'): JNode | null {
    if (this.text.startsWith(w, this.i)) {
      const s = this.i;
      this.i += w.length;
      return { t, start: s, end: this.i, raw: w };
    }
    return null;
  }
  value(depth: number): JNode {
    if (depth > MAX_DEPTH) throw FAIL;
    const text = this.text;
    const loose = this.loose;
    this.ws();
    const c = text[this.i];
    if (c === '{') {
      const s = this.i++;
      const members: JMember[] = [];
      this.ws();
      if (text[this.i] === '}') return { t: 'obj', start: s, end: ++this.i, members };
      for (;;) {
        this.ws();
        let k: { value: string };
        if (loose && isIdentStart(text.charCodeAt(this.i))) {
          // util.inspect: `{ customer: 'Bob', qty: 3 }`
          const ks = this.i;
          while (this.i < text.length && isIdentChar(text.charCodeAt(this.i))) this.i++;
          k = { value: text.slice(ks, this.i) };
        } else if (text[this.i] !== '"' && !(loose && text[this.i] === "'")) throw FAIL;
        else k = this.str();
        this.ws();
        if (text[this.i] !== ':') throw FAIL;
        this.i++;
        members.push({ key: k.value, value: this.value(depth + 1) });
        this.ws();
        if (text[this.i] === ',') {
          this.i++;
          continue;
        }
        if (text[this.i] === '}') return { t: 'obj', start: s, end: ++this.i, members };
        throw FAIL;
      }
    }
    if (c === '[') {
      const s = this.i++;
      const items: JNode[] = [];
      this.ws();
      if (text[this.i] === ']') return { t: 'arr', start: s, end: ++this.i, items };
      for (;;) {
        items.push(this.value(depth + 1));
        this.ws();
        if (text[this.i] === ',') {
          this.i++;
          continue;
        }
        if (text[this.i] === ']') return { t: 'arr', start: s, end: ++this.i, items };
        throw FAIL;
      }
    }
    if (c === '"' || (loose && c === "'")) return this.str();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      const s = this.i;
      if (text[this.i] === '-') this.i++;
      while (this.i < text.length && isNumChar(text.charCodeAt(this.i))) this.i++;
      const raw = text.slice(s, this.i);
      if (!Number.isFinite(Number(raw))) throw FAIL;
      return { t: 'num', start: s, end: this.i, raw };
    }
    const w =
      this.word('true', 'bool') ??
      this.word('false', 'bool') ??
      this.word('null', 'null') ??
      (loose ? (this.word('True', 'bool') ?? this.word('False', 'bool') ?? this.word('None', 'null') ?? this.word('undefined', 'null')) : null);
    if (w) return w;
    throw FAIL;
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
