// Ingest progress on stderr. A terminal gets one line rewritten in place: phase, file, percent of
// the phase's bytes, MiB/s and time left. Anything else (a pipe, CI) gets one line per file parsed
// and one when the analysis starts, so logs stay short and scripts can follow along.
import { formatDuration } from '../contract/progress.ts';
import type { Progress } from '../ingest/pipeline.ts';
import { describeSkip, type SkippedFile } from '../ingest/screen.ts';

const VERB: Record<Progress['phase'], string> = { receive: 'receiving', queued: 'waiting', scan: 'reading', parse: 'parsing', analyze: 'analyzing' };

/** A file name from an archive is untrusted: no control characters (terminal escapes) reach stderr. */
const printable = (name: string) => name.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');

/** The in-place line for a terminal; `rate` in bytes per second (null: not known yet). */
export function progressLine(p: Progress, rate: number | null): string {
  if (p.phase === 'analyze') return 'analyzing…';
  let line = `${VERB[p.phase]} ${p.fileIndex + 1}/${p.files} ${printable(p.file)}`;
  if (p.done !== undefined && p.total) {
    line += `  ${Math.floor((p.done / p.total) * 100)}%`;
    if (rate !== null && rate > 0) {
      line += ` · ${(rate / 1048576).toFixed(1)} MiB/s`;
      if (p.done < p.total) line += ` · ${formatDuration((p.total - p.done) / rate)} left`;
    }
  }
  return line;
}

export function progressPrinter(stderr: NodeJS.WritableStream, now: () => number = () => performance.now()): (p: Progress) => void {
  const tty = (stderr as NodeJS.WriteStream).isTTY === true;
  let phase: Progress['phase'] | null = null;
  let file = -1;
  let t0 = 0;
  let done0 = 0;
  return (p) => {
    const newPhase = p.phase !== phase;
    const newFile = newPhase || p.fileIndex !== file;
    if (newPhase) {
      phase = p.phase;
      t0 = now();
      done0 = p.done ?? 0;
    }
    file = p.fileIndex;
    if (!tty) {
      if (p.phase === 'parse' && newFile) stderr.write(`parsing ${p.fileIndex + 1}/${p.files} ${printable(p.file)}\n`);
      else if (p.phase === 'analyze' && newPhase) stderr.write('analyzing…\n');
      return;
    }
    const secs = (now() - t0) / 1000;
    const rate = secs >= 1 && p.done !== undefined ? (p.done - done0) / secs : null;
    stderr.write(`\r\x1b[2K${progressLine(p, rate)}${p.phase === 'analyze' ? '\n' : ''}`);
  };
}

/** One line per input that was not read because it is not a log (ingest/screen.ts), names made inert. */
export function printSkipped(stderr: NodeJS.WritableStream, skipped: readonly SkippedFile[]): void {
  for (const s of skipped) stderr.write(`skipped ${describeSkip(s)}\n`);
}
