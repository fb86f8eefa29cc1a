// Guards against the line redactor becoming quadratic in the number of distinct
// secrets it has seen (server/triage/redact: every line is swept for every literal collected
// so far — the LiteralSweeper/redactString path). A hostile or merely long log where each line
// carries its own token (rotating bearer tokens, per-request signatures) then takes hours:
// 2,000 such lines ≈ 1.4 s, 8,000 ≈ 13 s, 60,000 ≈ hours on the dev box; lines that repeat
// a few tokens run at ~0.15 ms each, so 12,000 should take ~2 s: the 12 s bound is not flaky.
import { describe, expect, it } from 'vitest';
import { TEST_KEY } from '../testing/helpers.ts';
import { createLineRedactor, SecretLedger, SessionIdBook } from '../triage/redact/index.ts';

const N = 12_000;
const BUDGET_MS = 12_000;

describe('redactor scaling (DoS by many distinct secrets)', () => {
  it(`redacts ${N} lines that each carry a distinct bearer token within ${BUDGET_MS / 1000} s, leaking none`, () => {
    const r = createLineRedactor({ key: TEST_KEY, ids: new SessionIdBook(), ledger: new SecretLedger() });
    const t0 = performance.now();
    let done = 0;
    for (; done < N; done++) {
      const token = `sk-test${(done * 7919).toString(36).padStart(24, 'q')}`;
      const out = r.line(`2026-07-28 10:00:00,000 INFO httpx: HTTP Request: POST https://mcp.example/mcp "HTTP/1.1 200 OK" id=${done} Authorization: Bearer ${token}`).text;
      expect(out.includes(token)).toBe(false);
      if (performance.now() - t0 > BUDGET_MS) break; // stop early: the failure is the count below
    }
    expect(done, `lines redacted in ${BUDGET_MS} ms`).toBe(N);
  }, 60_000);
});
