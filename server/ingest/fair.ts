// Taking turns with the rest of the process. An ingest's parse runs on the main thread, and when
// its input is already in memory (the pipeline's read-ahead, the redaction worker's answers) it
// never has to wait for I/O: its awaits resolve at once, as microtasks, and nothing else of the
// process runs — measured in the server, 1.5-3.5 s at a time with no request answered. So the
// readers of an ingest's bytes give the event loop a turn (setImmediate) once they have worked
// FAIR_SLICE_MS without one: other requests and uploads are served between chunks. Short, because
// a small upload beside a large one takes some forty turns (its multipart parts, file reads,
// queries) and waits up to a slice for each.
export const FAIR_SLICE_MS = 10;

export class Fair {
  private since = performance.now();

  /** Resolves at once, or after one turn of the event loop when this slice is used up. */
  turn(): Promise<void> | undefined {
    if (performance.now() - this.since < FAIR_SLICE_MS) return undefined;
    return new Promise<void>((r) =>
      setImmediate(() => {
        this.since = performance.now();
        r();
      }),
    );
  }
}

/** The chunks of `source`, taking turns (Fair) between them. */
export async function* fairly<T>(source: AsyncIterable<T>, fair = new Fair()): AsyncGenerator<T> {
  for await (const chunk of source) {
    const t = fair.turn();
    if (t) await t;
    yield chunk;
  }
}
