// Bytes → lines, streaming: BOM sniffing (UTF-8, UTF-16 LE/BE), CRLF and lone CR, and a hard
// cap on line length (the rest of an over-long line is dropped and counted, never kept raw).
import { isAscii } from 'node:buffer';
import type { Readable } from 'node:stream';

export const MAX_LINE_BYTES = 1024 * 1024;

export interface RawLine {
  /** 1-based physical line number. */
  n: number;
  text: string;
  /** Characters dropped because the line was over the limit. */
  cut: number;
}

/** The encoding readLines reads a stream in, from its first chunk. */
export function sniffEncoding(buf: Uint8Array): 'utf-8' | 'utf-16le' | 'utf-16be' {
  if (buf[0] === 0xff && buf[1] === 0xfe) return 'utf-16le';
  if (buf[0] === 0xfe && buf[1] === 0xff) return 'utf-16be';
  if (buf.length >= 4 && buf[0] !== 0 && buf[1] === 0 && buf[2] !== 0 && buf[3] === 0) return 'utf-16le'; // BOM-less UTF-16LE text
  return 'utf-8';
}

/**
 * `continued`: the bytes are a later part of a UTF-8 file that starts at a line (an ingest chunk,
 * server/ingest/chunks.ts): no encoding is sniffed and a leading byte-order mark is text, as it
 * would be in the middle of the whole file, so the lines are exactly the whole file's.
 */
export async function* readLines(stream: AsyncIterable<Buffer | string> | Readable, maxLine = MAX_LINE_BYTES, continued = false): AsyncGenerator<RawLine> {
  for await (const lines of readLineBatches(stream, maxLine, continued)) yield* lines;
}

/**
 * readLines a read chunk at a time: the lines each chunk completes, as one array (the ingest's
 * runners read every line of an ingest twice; an async step per line was a cost of its own).
 */
export async function* readLineBatches(stream: AsyncIterable<Buffer | string> | Readable, maxLine = MAX_LINE_BYTES, continued = false): AsyncGenerator<RawLine[]> {
  let decoder: TextDecoder | null = continued ? new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }) : null;
  // While every piece of a UTF-8 stream is ASCII its text is its bytes: read as Latin-1, the same
  // string at a third of TextDecoder's cost (the runners decode every byte of an ingest twice). The
  // first piece that is not ASCII goes to a decoder, and so does the rest of the stream (a piece may
  // end inside a character the next one completes); a decoder that starts after ASCII pieces keeps
  // a byte-order mark as text, as the decoder that read them would have.
  let ascii = true;
  let asciiRead = false;
  let carry = '';
  let carryCut = 0;
  let n = 0;
  let pendingCR = false;
  let out: RawLine[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer | string>) {
    let text: string;
    if (typeof chunk === 'string') text = chunk;
    else {
      let buf = chunk;
      if (!decoder) {
        const enc = sniffEncoding(buf);
        decoder = new TextDecoder(enc, { fatal: false, ignoreBOM: false });
        if (enc === 'utf-8' && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) buf = buf.subarray(3);
        else if (enc !== 'utf-8') ascii = false;
      }
      if (ascii && isAscii(buf)) {
        text = latin1(buf);
        asciiRead ||= buf.length > 0;
      } else {
        if (ascii && asciiRead) decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
        ascii = false;
        text = decoder.decode(buf, { stream: true });
      }
    }
    let start = 0;
    if (pendingCR && text[0] === '\n') start = 1;
    pendingCR = false;
    // No CR in the piece (the common case): the line ends are found by the native indexOf.
    if (text.indexOf('\r', start) < 0)
      for (let i = text.indexOf('\n', start); i >= 0; i = text.indexOf('\n', start)) {
        out.push(emit(carry + text.slice(start, i), carryCut));
        carry = '';
        carryCut = 0;
        start = i + 1;
      }
    else
      for (let i = start; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 10 || c === 13) {
          const piece = text.slice(start, i);
          out.push(emit(carry + piece, carryCut));
          carry = '';
          carryCut = 0;
          if (c === 13) {
            if (i + 1 < text.length) {
              if (text.charCodeAt(i + 1) === 10) i++;
            } else pendingCR = true;
          }
          start = i + 1;
        }
      }
    const rest = text.slice(start);
    if (carry.length + rest.length > maxLine) {
      const room = Math.max(0, maxLine - carry.length);
      carry += rest.slice(0, room);
      carryCut += rest.length - room;
    } else carry += rest;
    if (out.length) {
      yield out;
      out = [];
    }
  }
  if (decoder) {
    const tail = decoder.decode();
    if (tail) carry += tail;
  }
  if (carry.length || carryCut) yield [emit(carry, carryCut)];

  function emit(t: string, cut: number): RawLine {
    n++;
    if (t.length > maxLine) return { n, text: t.slice(0, maxLine), cut: cut + t.length - maxLine };
    return { n, text: t, cut };
  }
}

/** ASCII bytes as text (a view, not a copy, when they are not a Buffer yet). */
function latin1(bytes: Uint8Array): string {
  return (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).toString('latin1');
}

/**
 * A copy of `s` that shares no memory with the line it came from. Lines are slices of a decoded
 * read chunk (~64 KiB), and V8 keeps a slice's whole parent alive: one 36-character session id
 * kept for the life of an ingest held its chunk, ~52 KB each (232 MB after pass 1 at 2 GiB).
 * Use it for every substring kept longer than its line. UTF-16 round trip: lone surrogates survive.
 */
export function detach(s: string): string {
  return s.length < 13 ? s : Buffer.from(s, 'utf16le').toString('utf16le');
}
