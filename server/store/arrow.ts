// DuckDB result → Arrow columns without reading values one by one. A result chunk's vectors are
// copied out whole: numbers as typed arrays, validity masks as bitmaps (DuckDB's little-endian
// uint64 words have Arrow's bit order). Strings of at most 12 bytes live inside DuckDB's 16-byte
// string_t and are copied from there; longer ones are pointers, and consecutive pointers that
// continue one another (DuckDB's sort and scan write a chunk's strings back to back) are read as
// one run with a single native call instead of one call per value (~1.3 µs each).
import duckdb from '@duckdb/node-bindings';
import { DuckDBTypeId, type DuckDBDataChunk, type DuckDBResult } from '@duckdb/node-api';
import { Float64, Int32, makeData, TimestampMillisecond, Utf8, type Data } from 'apache-arrow';

/** How a result column is read; `skip` columns are not read at all (see readColumns' `override`). */
export type ColumnKind = 'float64' | 'int32' | 'int64' | 'timestampMs' | 'utf8' | 'uint8' | 'skip';

/** The DuckDB type each kind reads (the query must produce exactly it: cast in SQL). */
const DUCK_TYPE: Record<Exclude<ColumnKind, 'skip'>, DuckDBTypeId> = {
  float64: DuckDBTypeId.DOUBLE,
  int32: DuckDBTypeId.INTEGER,
  int64: DuckDBTypeId.BIGINT,
  timestampMs: DuckDBTypeId.BIGINT,
  utf8: DuckDBTypeId.VARCHAR,
  uint8: DuckDBTypeId.UTINYINT,
};

/** Arrow's Utf8 offsets are int32: a column of more bytes than this cannot be one Utf8 vector. */
const MAX_UTF8_BYTES = 0x7fffffff;

/** A growable validity bitmap in Arrow's layout (bit i of byte i >> 3, 1 = valid). */
class Validity {
  bytes: Uint8Array;
  nulls = 0;
  constructor(capacity: number) {
    this.bytes = new Uint8Array((capacity + 7) >> 3);
  }

  private grow(rows: number): void {
    const need = (rows + 7) >> 3;
    if (need <= this.bytes.length) return;
    const next = new Uint8Array(Math.max(need, this.bytes.length * 2));
    next.set(this.bytes);
    this.bytes = next;
  }

  /** Append `rows` bits taken from a DuckDB mask (null: all valid) at row `at`, counting the NULLs. */
  append(mask: Uint8Array | null, at: number, rows: number): void {
    this.grow(at + rows);
    const out = this.bytes;
    if (mask === null) {
      if ((at & 7) === 0) {
        out.fill(0xff, at >> 3, (at + rows) >> 3);
        for (let i = (at + rows) & ~7; i < at + rows; i++) out[i >> 3]! |= 1 << (i & 7);
      } else {
        for (let i = at; i < at + rows; i++) out[i >> 3]! |= 1 << (i & 7);
      }
      return;
    }
    if ((at & 7) === 0) {
      const whole = rows >> 3;
      out.set(mask.subarray(0, whole), at >> 3);
      for (let i = 0; i < whole; i++) this.nulls += 8 - POPCOUNT[mask[i]!]!;
      for (let i = whole << 3; i < rows; i++) {
        if (mask[i >> 3]! & (1 << (i & 7))) out[(at + i) >> 3]! |= 1 << ((at + i) & 7);
        else this.nulls++;
      }
      return;
    }
    for (let i = 0; i < rows; i++) {
      if (mask[i >> 3]! & (1 << (i & 7))) out[(at + i) >> 3]! |= 1 << ((at + i) & 7);
      else this.nulls++;
    }
  }

  bitmap(rows: number): Uint8Array | null {
    return this.nulls ? this.bytes.subarray(0, (rows + 7) >> 3) : null;
  }
}

const POPCOUNT = Uint8Array.from({ length: 256 }, (_, i) => {
  let n = 0;
  for (let b = i; b; b >>= 1) n += b & 1;
  return n;
});

const isValid = (mask: Uint8Array | null, i: number) => mask === null || (mask[i >> 3]! & (1 << (i & 7))) !== 0;

type Fixed = Float64Array | Int32Array | BigInt64Array | Uint8Array;

/** One fixed-width column: values copied chunk by chunk, nulls zeroed (as a row-by-row build leaves them). */
export class FixedColumn {
  values: Fixed;
  readonly validity: Validity;
  constructor(
    readonly kind: Exclude<ColumnKind, 'utf8' | 'skip'>,
    capacity: number,
  ) {
    this.values = FixedColumn.alloc(kind, capacity);
    this.validity = new Validity(capacity);
  }

  private static alloc(kind: ColumnKind, n: number): Fixed {
    return kind === 'float64' ? new Float64Array(n) : kind === 'int32' ? new Int32Array(n) : kind === 'uint8' ? new Uint8Array(n) : new BigInt64Array(n);
  }

  append(vector: duckdb.Vector, at: number, rows: number): void {
    if (at + rows > this.values.length) {
      const next = FixedColumn.alloc(this.kind, Math.max(at + rows, this.values.length * 2));
      (next as Float64Array).set(this.values as Float64Array);
      this.values = next;
    }
    const width = this.values.BYTES_PER_ELEMENT;
    const raw = aligned(duckdb.vector_get_data(vector, rows * width), width);
    const Ctor = this.values.constructor as Float64ArrayConstructor;
    const typed = new Ctor(raw.buffer, raw.byteOffset, rows);
    (this.values as Float64Array).set(typed as unknown as Float64Array, at);
    const mask = readMask(vector, rows);
    this.validity.append(mask, at, rows);
    if (mask !== null) {
      const zero = this.values instanceof BigInt64Array ? 0n : 0;
      for (let i = 0; i < rows; i++) if (!isValid(mask, i)) (this.values as unknown as (number | bigint)[])[at + i] = zero;
    }
  }

  /** Whether row i is not NULL. */
  valid(i: number): boolean {
    return (this.validity.bytes[i >> 3]! & (1 << (i & 7))) !== 0;
  }

  data(rows: number): Data<Float64 | Int32 | TimestampMillisecond> {
    if (this.kind !== 'float64' && this.kind !== 'int32' && this.kind !== 'timestampMs') throw new Error(`no Arrow type for ${this.kind}`);
    const type = this.kind === 'float64' ? new Float64() : this.kind === 'int32' ? new Int32() : new TimestampMillisecond();
    const values = this.values.subarray(0, rows);
    const nullBitmap = this.validity.bitmap(rows);
    return makeData({ type, length: rows, nullCount: this.validity.nulls, nullBitmap, data: values } as never) as unknown as Data<Float64 | Int32 | TimestampMillisecond>;
  }
}

/** The bytes at an offset a typed array of `width`-byte items can view (the binding copies to offset 0; copied again if not). */
function aligned(raw: Uint8Array, width: number): Uint8Array {
  return raw.byteOffset % width === 0 ? raw : raw.slice();
}

function readMask(vector: duckdb.Vector, rows: number): Uint8Array | null {
  const words = Math.ceil(rows / 64);
  const m = duckdb.vector_get_validity(vector, words * 8);
  return m ? new Uint8Array(m.buffer, m.byteOffset, m.byteLength) : null;
}

const STAGE_BYTES = 1 << 20;

/**
 * One Utf8 column. Bytes arrive as pieces, in row order: runs of long strings read from DuckDB
 * memory in one call each, and short (inlined) strings copied into a staging block; the pieces
 * are joined once at the end.
 */
export class Utf8Column {
  offsets: Int32Array;
  readonly validity: Validity;
  private pieces: Uint8Array[] = [];
  private stage = new Uint8Array(STAGE_BYTES);
  private stageStart = 0;
  private stagePos = 0;
  bytes = 0;
  nativeReads = 0;

  constructor(capacity: number) {
    this.offsets = new Int32Array(capacity + 1);
    this.validity = new Validity(capacity);
  }

  private flushStage(): void {
    if (this.stagePos > this.stageStart) this.pieces.push(this.stage.subarray(this.stageStart, this.stagePos));
    this.stageStart = this.stagePos;
  }

  /** Room for `n` more staged bytes (a full block is handed over as a piece and a new one started). */
  private reserve(n: number): void {
    if (this.stagePos + n <= this.stage.length) return;
    this.flushStage();
    this.stage = new Uint8Array(Math.max(STAGE_BYTES, n));
    this.stageStart = this.stagePos = 0;
  }

  private pushPiece(piece: Uint8Array): void {
    this.flushStage();
    this.pieces.push(piece);
  }

  /**
   * Append a chunk's VARCHAR vector at row `at`. `override(i)`, when given, may return a string
   * (or null) that replaces row i (computed in JS where SQL could not produce the value).
   */
  append(vector: duckdb.Vector, at: number, rows: number, override?: (i: number) => string | null | undefined): void {
    if (at + rows + 1 > this.offsets.length) {
      const next = new Int32Array(Math.max(at + rows + 1, this.offsets.length * 2));
      next.set(this.offsets);
      this.offsets = next;
    }
    const raw = aligned(duckdb.vector_get_data(vector, rows * 16), 4);
    const words = new Uint32Array(raw.buffer, raw.byteOffset, rows * 4);
    let mask = readMask(vector, rows);
    const offsets = this.offsets;
    let bytes = this.bytes;
    // The current run of long strings: first row, pointer (two 32-bit halves), length so far.
    let runRow = -1;
    let runLo = 0;
    let runHi = 0;
    let runLen = 0;
    const endRun = () => {
      if (runRow < 0) return;
      this.pushPiece(duckdb.get_data_from_pointer(raw.buffer as ArrayBuffer, raw.byteOffset + runRow * 16 + 8, runLen));
      this.nativeReads++;
      runRow = -1;
    };
    let overridden: Uint8Array | null = null;
    for (let i = 0; i < rows; i++) {
      if (override) {
        const o = override(i);
        if (o !== undefined) {
          endRun();
          if (o !== null) {
            const enc = Buffer.from(o, 'utf8');
            this.reserve(enc.length);
            this.stage.set(enc, this.stagePos);
            this.stagePos += enc.length;
            bytes += enc.length;
          }
          overridden ??= mask ? Uint8Array.from(mask) : new Uint8Array((rows + 7) >> 3).fill(0xff);
          if (o === null) overridden[i >> 3]! &= ~(1 << (i & 7));
          else overridden[i >> 3]! |= 1 << (i & 7);
          offsets[at + i + 1] = bytes;
          continue;
        }
      }
      if (mask !== null && (mask[i >> 3]! & (1 << (i & 7))) === 0) {
        offsets[at + i + 1] = bytes;
        continue;
      }
      const len = words[i << 2]!;
      if (len <= 12) {
        if (runRow >= 0) endRun();
        if (len) {
          if (this.stagePos + len > this.stage.length) this.reserve(len);
          const stage = this.stage;
          let p = this.stagePos;
          for (let j = (i << 4) + 4, end = j + len; j < end; j++) stage[p++] = raw[j]!;
          this.stagePos = p;
        }
      } else {
        const lo = words[(i << 2) + 2]!;
        const hi = words[(i << 2) + 3]!;
        if (runRow >= 0 && hi === runHi && lo === runLo + runLen && runLen + len <= MAX_UTF8_BYTES) {
          runLen += len;
        } else {
          if (runRow >= 0) endRun();
          this.flushStage();
          runRow = i;
          runLo = lo;
          runHi = hi;
          runLen = len;
        }
      }
      bytes += len;
      offsets[at + i + 1] = bytes;
    }
    if (bytes > MAX_UTF8_BYTES) throw new RangeError(`a text column of this page exceeds ${MAX_UTF8_BYTES} bytes; ask for fewer rows`);
    endRun();
    if (overridden) mask = overridden;
    this.validity.append(mask, at, rows);
    this.bytes = bytes;
  }

  data(rows: number): Data<Utf8> {
    this.flushStage();
    let values: Uint8Array;
    if (this.pieces.length === 1 && this.pieces[0]!.length === this.bytes) values = this.pieces[0]!;
    else {
      values = new Uint8Array(this.bytes);
      let at = 0;
      for (const p of this.pieces) {
        values.set(p, at);
        at += p.length;
      }
    }
    this.pieces = [];
    return makeData({
      type: new Utf8(),
      length: rows,
      nullCount: this.validity.nulls,
      nullBitmap: this.validity.bitmap(rows),
      valueOffsets: this.offsets.subarray(0, rows + 1),
      data: values,
    });
  }
}

export type Column = FixedColumn | Utf8Column | null;

export interface ReadResult {
  rows: number;
  /** One entry per result column, in order (null for `skip`). Call `.data(rows)` for Arrow data. */
  columns: Column[];
  /** Native reads made for strings: a measure of how well the run trick worked. */
  nativeReads: number;
}

/** Rows of a chunk's column that are not NULL (the validity mask read once, no value read). */
export function validRows(chunk: DuckDBDataChunk, column: number): number[] {
  const n = chunk.rowCount;
  const mask = readMask(duckdb.data_chunk_get_vector(chunk.chunk, column), n);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    if (mask === null) out.push(i);
    else if (mask[i >> 3] === 0) i |= 7;
    else if (mask[i >> 3]! & (1 << (i & 7))) out.push(i);
  }
  return out;
}

/**
 * Read a whole result column by column. Each column must have the DuckDB type of its kind
 * (DOUBLE, INTEGER, BIGINT, VARCHAR, UTINYINT); cast in SQL. `override(column, chunk)` may return,
 * for a utf8 column, a function giving replacement values for some rows of that chunk (see
 * Utf8Column.append). `capacity` is a row-count hint.
 */
export async function readColumns(
  result: DuckDBResult,
  kinds: readonly ColumnKind[],
  capacity = 2048,
  override?: (column: number, chunk: DuckDBDataChunk) => ((i: number) => string | null | undefined) | undefined,
): Promise<ReadResult> {
  if (result.columnCount !== kinds.length) throw new Error(`readColumns: ${result.columnCount} columns for ${kinds.length} kinds`);
  kinds.forEach((k, i) => {
    if (k === 'skip') return;
    const t = result.columnTypeId(i);
    if (t !== DUCK_TYPE[k]) throw new Error(`readColumns: column ${result.columnName(i)} is ${DuckDBTypeId[t]}, not ${DuckDBTypeId[DUCK_TYPE[k]]}`);
  });
  const cap = Math.max(1, Math.min(capacity, 1 << 24));
  const cols: Column[] = kinds.map((k) => (k === 'skip' ? null : k === 'utf8' ? new Utf8Column(cap) : new FixedColumn(k, cap)));
  let rows = 0;
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const n = chunk.rowCount;
    for (let c = 0; c < cols.length; c++) {
      const col = cols[c];
      if (!col) continue;
      const vector = duckdb.data_chunk_get_vector(chunk.chunk, c);
      if (col instanceof Utf8Column) col.append(vector, rows, n, override?.(c, chunk));
      else col.append(vector, rows, n);
    }
    rows += n;
  }
  return { rows, columns: cols, nativeReads: cols.reduce((s, c) => s + (c instanceof Utf8Column ? c.nativeReads : 0), 0) };
}
