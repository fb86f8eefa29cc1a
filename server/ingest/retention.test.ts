// What an ingest keeps for its whole length (the session-id book, the secret ledger, caches)
// must not keep the read chunks its strings were cut from: V8 keeps a substring's parent alive.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { detach, readLines } from '../../parsers/engine/lines.ts';
import { collectSessionIds, SecretLedger, SessionIdBook } from '../triage/redact/index.ts';
import { classifyKey } from '../triage/redact/rules/keys.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const CHUNKS = 1500;
const PAD = 'x'.repeat(64 * 1024);
const hex = (i: number, w: number) => i.toString(16).padStart(w, '0');

/** CHUNKS read chunks of ~64 KiB, each holding one line with a new session id, a secret and a key name. */
async function* chunks(): AsyncGenerator<Buffer> {
  for (let i = 0; i < CHUNKS; i++) {
    const id = `${hex(i, 8)}-aaaa-4bbb-8ccc-${hex(i, 12)}`;
    yield Buffer.from(`${PAD}\nmcp-session-id: ${id} key_${hex(i, 6)}_name=1\n`);
  }
}

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe('long-lived strings from lines', () => {
  it('detach returns an equal string, lone surrogates included', () => {
    for (const s of ['', 'short', 'a-session-id-of-some-length', 'x\uD800y\uDFFFz-and-more-text', '😀'.repeat(20)]) expect(detach(s)).toBe(s);
  });

  it('the book, the ledger and the key cache do not keep the read chunks alive', async () => {
    const book = new SessionIdBook();
    const ledger = new SecretLedger();
    const before = heapAfterGc();
    for await (const l of readLines(chunks())) {
      if (l.text.length > 1000) continue;
      collectSessionIds(l.text, book);
      const key = /key_\w+_name/.exec(l.text)![0];
      classifyKey(key);
      ledger.record('@test', l.text.slice(16, 52), 'secret', '[REDACTED]');
    }
    const grown = heapAfterGc() - before;
    expect(book.raw.size).toBe(CHUNKS);
    expect(ledger.size).toBe(CHUNKS);
    // Each chunk is ~64 KiB: kept alive, they would be ~100 MB. Detached, the strings are ~1 MB.
    expect(grown).toBeLessThan(20 * 1024 * 1024);
  });
});
