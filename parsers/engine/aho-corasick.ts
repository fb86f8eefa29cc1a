// One Aho-Corasick builder for the keyword gates that read ASCII text a character at a time: the
// signal gate (parsers/engine/signals.ts, upper case folded) and the redaction tiers' credential gate
// (server/triage/redact/tiers.ts, over text already lower-cased).

export interface AsciiAutomaton {
  /** state * 128 + char code → next state (a dense table: one read per character). */
  next: Int32Array;
  /** Per state, the indexes of the words that end there, through the failure links. */
  out: number[][];
}

/**
 * The automaton of `words` (ASCII; a word with another character is the caller's to leave out) over
 * char codes 0–127. `fold` maps a code to the one its transitions follow (upper to lower case for a
 * case-blind gate); words are read through it too.
 */
export function asciiAutomaton(words: readonly string[], fold: (c: number) => number = (c) => c): AsciiAutomaton {
  const goto: Map<number, number>[] = [new Map()];
  const ends: number[][] = [[]];
  words.forEach((w, wi) => {
    let s = 0;
    for (let i = 0; i < w.length; i++) {
      const c = fold(w.charCodeAt(i));
      let t = goto[s]!.get(c);
      if (t === undefined) {
        t = goto.length;
        goto.push(new Map());
        ends.push([]);
        goto[s]!.set(c, t);
      }
      s = t;
    }
    ends[s]!.push(wi);
  });
  const next = new Int32Array(goto.length * 128);
  const fail = new Int32Array(goto.length);
  const out: Set<number>[] = ends.map((e) => new Set(e));
  // breadth first, so a state's failure target is complete before the state
  const queue: number[] = [];
  for (let c = 0; c < 128; c++) {
    const t = goto[0]!.get(fold(c)) ?? 0;
    next[c] = t;
    if (t && fold(c) === c) queue.push(t);
  }
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q]!;
    for (const x of out[fail[s]!]!) out[s]!.add(x);
    for (let c = 0; c < 128; c++) {
      const t = goto[s]!.get(fold(c));
      if (t === undefined) next[s * 128 + c] = next[fail[s]! * 128 + c]!;
      else {
        next[s * 128 + c] = t;
        if (fold(c) === c) {
          fail[t] = next[fail[s]! * 128 + c]!;
          queue.push(t);
        }
      }
    }
  }
  return { next, out: out.map((o) => [...o]) };
}
