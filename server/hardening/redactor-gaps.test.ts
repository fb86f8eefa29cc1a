// Found by server/triage/redact/redact.fuzz.test.ts (fixed by recordParts on @url-userinfo): the
// password of a URL's userinfo is recorded in the secret ledger only as `user:password`, so when
// the bare password reappears on a later line (a driver's "authentication failed" message, a
// retry log) the ledger sweep does not catch it and it is stored raw. Fix in server/triage/redact
// (record the password part on its own too); the other planted kinds are swept already.
import { describe, expect, it } from 'vitest';
import { TEST_KEY } from '../testing/helpers.ts';
import { createLineRedactor, SecretLedger, SessionIdBook } from '../triage/redact/index.ts';

describe('redactor gaps', () => {
  it('a URL password that reappears bare later in the file is swept', () => {
    const r = createLineRedactor({ key: TEST_KEY, ids: new SessionIdBook(), ledger: new SecretLedger() });
    expect(r.line('connecting to postgres://admin:Xk29fLq81ZpQ7mWd@db.internal.example:5432/app').text).not.toContain('Xk29fLq81ZpQ7mWd');
    expect(r.line('FATAL: password authentication failed (tried Xk29fLq81ZpQ7mWd)').text).not.toContain('Xk29fLq81ZpQ7mWd');
  });
});
