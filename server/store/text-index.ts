// A skip index for the timeline's text search (`q`), like ClickHouse's ngram bloom filters: per
// block of 4096 seqs, a 65 536-bit bloom filter of the ASCII-lowercased trigrams of every event's
// text. A search for `q` reads only the blocks whose filter holds every trigram of lower(q); the
// SQL filter `contains(lower(text), q)` still decides each row, so the index can only skip rows
// that cannot match, never add or drop a match.
//
// Why it is exact (DuckDB's lower() is Unicode simple case mapping, one code point to one):
// an ASCII trigram of lower(q) found in lower(text) comes from three consecutive code points of
// text whose lowercase is ASCII. Those are ASCII letters and symbols, or one of the few non-ASCII
// characters whose lowercase is ASCII (KELVIN SIGN → k, İ → i). A block holding any of the
// latter is stored without a filter (always read); otherwise trigrams are taken over the text's
// runs of ASCII characters, which is then every trigram such a match can use. Trigrams of q that
// touch a non-ASCII character are not looked up (they constrain nothing here).
//
// Coverage: each row covers seq_lo..seq_hi of one ingest inside one aligned block. An incident
// whose rows do not add up to its event count (events ingested before this index existed) is
// searched without the index, and rebuilt in the background (events-query.ts backfillTextIndex).

export const BLOCK_SHIFT = 12;
export const BLOOM_LOG2 = 16;
const BLOOM_BYTES = (1 << BLOOM_LOG2) >> 3;
/** Above this share of blocks to read, the index is not worth its predicate. */
export const MAX_CANDIDATE_SHARE = 0.6;
/** …or when the blocks to read make more than this many separate seq ranges. */
export const MAX_RANGES = 64;

/** The bloom position of a trigram of 7-bit characters. */
export function trigramBit(a: number, b: number, c: number): number {
  return Math.imul((a << 14) | (b << 7) | c, 0x9e3779b1) >>> (32 - BLOOM_LOG2);
}

const asciiLower = (c: number) => (c >= 65 && c <= 90 ? c + 32 : c);

/** Non-ASCII characters whose lowercase holds an ASCII character (memoised per code unit). */
const lowersToAscii = new Map<number, boolean>();
function foldsToAscii(code: number): boolean {
  let v = lowersToAscii.get(code);
  if (v === undefined) {
    v = /[\x00-\x7f]/.test(String.fromCharCode(code).toLowerCase());
    lowersToAscii.set(code, v);
  }
  return v;
}

/**
 * Set the bits of every ASCII trigram of lower(text) in a block's filter. False when the text holds
 * a non-ASCII character whose lowercase is ASCII: the block must then be stored without a filter.
 */
export function addTrigrams(bits: Uint8Array, text: string): boolean {
  let a = -1;
  let b = -1;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 128) {
      if (foldsToAscii(code)) return false;
      a = b = -1;
      continue;
    }
    const c = asciiLower(code);
    if (a >= 0) {
      const p = trigramBit(a, b, c);
      bits[p >> 3]! |= 0x80 >> (p & 7);
    }
    a = b;
    b = c;
  }
  return true;
}

/** Can a block with this filter hold a text containing `lowered`? (null bits: it can hold anything.) */
export function mayHold(bits: Uint8Array | null, query: readonly number[] | null): boolean {
  if (!bits || !query) return true;
  for (const p of query) if ((bits[p >> 3]! & (0x80 >> (p & 7))) === 0) return false;
  return true;
}

export interface TextBlock {
  seqLo: number;
  seqHi: number;
  /** The bloom filter, most significant bit first (DuckDB's BIT order); null: read always. */
  bits: Uint8Array | null;
}

/** Builds blocks from (seq, text) in increasing seq order; `onBlock` gets each finished block. */
export class TextIndexBuilder {
  private block = -1;
  private seqLo = 0;
  private seqHi = 0;
  private bits = new Uint8Array(BLOOM_BYTES);
  private any = false;

  constructor(private readonly onBlock: (b: TextBlock) => void) {}

  add(seq: number, text: string): void {
    const block = Math.floor(seq / 2 ** BLOCK_SHIFT);
    if (block !== this.block) {
      this.finish();
      this.block = block;
      this.seqLo = seq;
    }
    this.seqHi = seq;
    if (this.any) return;
    if (!addTrigrams(this.bits, text)) this.any = true;
  }

  /** Emit the open block (call once after the last add). */
  finish(): void {
    if (this.block < 0) return;
    this.onBlock({ seqLo: this.seqLo, seqHi: this.seqHi, bits: this.any ? null : this.bits });
    this.block = -1;
    this.bits = new Uint8Array(BLOOM_BYTES);
    this.any = false;
  }
}

/** The bloom positions every block that may match `lowered` (already lowercased) must have set; null when q gives none. */
export function queryBits(lowered: string): number[] | null {
  const out = new Set<number>();
  for (let i = 0; i + 2 < lowered.length; i++) {
    const a = lowered.charCodeAt(i);
    const b = lowered.charCodeAt(i + 1);
    const c = lowered.charCodeAt(i + 2);
    if (a < 128 && b < 128 && c < 128) out.add(trigramBit(asciiLower(a), asciiLower(b), asciiLower(c)));
  }
  return out.size ? [...out].sort((x, y) => x - y) : null;
}
