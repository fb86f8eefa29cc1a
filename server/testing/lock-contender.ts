// Test-only: one process competing for the workspace lock (server/workspace-lock.test.ts).
// argv: <workspace dir> <start at, epoch ms> <hold ms>. Waits until the start time, so every
// contender tries at the same moment, and once it has judged the lock stale it waits another
// 300 ms before acting, so every contender acts on the same stale lock together (the race a
// naive "delete it and create mine" loses). Prints "won <pid>" or "busy <holder pid>".
import { acquireWorkspaceLock, WorkspaceBusy } from '../workspace-lock.ts';

const [dir, startAt, hold] = process.argv.slice(2);
await new Promise((r) => setTimeout(r, Math.max(0, Number(startAt) - Date.now())));
try {
  const together = Number(startAt) + 300;
  const lock = acquireWorkspaceLock(dir!, {
    command: 'serve',
    busyMessage: (h) => `busy ${h.pid}`,
    beforeTakeover: () => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.max(0, together - Date.now())),
  });
  process.stdout.write(`won ${process.pid}\n`);
  await new Promise((r) => setTimeout(r, Number(hold)));
  lock.release();
} catch (e) {
  process.stdout.write(e instanceof WorkspaceBusy ? `busy ${e.holder.pid}\n` : `error ${(e as Error).message}\n`);
}
