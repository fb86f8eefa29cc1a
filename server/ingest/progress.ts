// Byte progress of an ingest. Each phase reads every input once (scan = pass 1, parse = pass 2),
// so a phase's progress is the bytes read of all its inputs. A gzip entry yields more bytes than
// its size on disk: a file counts for at most its size, and for exactly its size once read.
import type { IngestProgress } from '../contract/progress.ts';
import type { InputEntry } from './inputs.ts';

export type Progress = IngestProgress;

/** At most this often between two reports within one file. */
export const REPORT_MS = 250;

export class ProgressMeter {
  private readonly total: number;
  private readonly sizes: number[];
  private doneBefore = 0; // bytes of the files finished
  private inFile = 0;
  private current = -1;
  private last = 0;

  constructor(
    private readonly phase: 'scan' | 'parse',
    private readonly entries: readonly InputEntry[],
    private readonly report: ((p: Progress) => void) | undefined,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.sizes = entries.map((e) => Math.max(0, e.size));
    this.total = this.sizes.reduce((a, b) => a + b, 0);
  }

  /** File i starts: always reported (so a phase with only small files still moves). */
  start(i: number): void {
    this.finishFile();
    this.current = i;
    this.inFile = 0;
    this.emit(true);
  }

  /** `n` more bytes of the current file were read. */
  advance(n: number): void {
    if (this.current < 0) return;
    this.inFile = Math.min(this.sizes[this.current]!, this.inFile + n);
    this.emit(false);
  }

  /** The current file is read: it counts for its whole size. */
  finishFile(): void {
    if (this.current < 0) return;
    this.doneBefore += this.sizes[this.current]!;
    this.current = -1;
    this.inFile = 0;
  }

  /** The phase is over: one last report at 100%. */
  finish(): void {
    const lastFile = this.current;
    this.finishFile();
    if (!this.report || !this.entries.length) return;
    const i = lastFile >= 0 ? lastFile : this.entries.length - 1;
    this.report({ phase: this.phase, file: this.entries[i]!.name, fileIndex: i, files: this.entries.length, bytes: this.sizes[i], done: this.total, total: this.total });
  }

  /** The entry with a counting open(): what its reader consumes moves the meter. */
  counted(entry: InputEntry): InputEntry {
    const meter = this;
    return {
      name: entry.name,
      size: entry.size,
      async *open() {
        for await (const chunk of entry.open()) {
          meter.advance(chunk.length);
          yield chunk;
        }
      },
    };
  }

  private emit(force: boolean): void {
    if (!this.report) return;
    const t = this.now();
    if (!force && t - this.last < REPORT_MS) return;
    this.last = t;
    const i = this.current;
    this.report({
      phase: this.phase,
      file: this.entries[i]!.name,
      fileIndex: i,
      files: this.entries.length,
      bytes: this.sizes[i],
      done: this.doneBefore + this.inFile,
      total: this.total,
    });
  }
}
