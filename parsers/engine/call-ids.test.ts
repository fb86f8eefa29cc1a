// A call's id on a later line that names it only as a bare `id` (call-ids.ts): the server's end-of-call line joins
// its call; near misses: small integers, ids no call of this file was logged with, ids too far back.
import { describe, expect, it } from 'vitest';
import { emptyEvent } from '../contract/event.ts';
import { CallIds } from './call-ids.ts';

const ev = (line: number, text: string, call?: { method: string; id: string | number }) => {
  const e = emptyEvent({ file: 'srv.log', line, source: 'unknown', format: 'unknown', kind: 'line', text });
  if (call) {
    e.rpcMethod = call.method;
    e.rpcId = call.id;
  }
  return e;
};

describe('a call named later by its id alone', () => {
  it('joins the end line of a call logged with its method and an opaque id', () => {
    const ids = new CallIds();
    ids.link(ev(1, 'request {"method": "tools/call", "id": "ag-91f2c0"}', { method: 'tools/call', id: 'ag-91f2c0' }));
    const done = ev(2, 'done\t{"id": "ag-91f2c0", "ms": 167}');
    const logfmt = ev(3, 'level=info msg=finished id=ag-91f2c0 took=12ms');
    ids.link(done);
    ids.link(logfmt);
    expect([done.rpcId, logfmt.rpcId]).toEqual(['ag-91f2c0', 'ag-91f2c0']);
  });
  it('near miss: a small integer, an id no call had, a key that only ends in id, or a call too far back', () => {
    const ids = new CallIds();
    ids.link(ev(1, 'request', { method: 'tools/call', id: 5 }));
    ids.link(ev(2, 'request', { method: 'tools/call', id: 'ag-1' }));
    const lines = [ev(3, 'done {"id": 5}'), ev(4, 'done {"id": "ag-2"}'), ev(5, 'order {"order_id": "ag-1"}'), ev(20_000, 'done {"id": "ag-1"}')];
    for (const l of lines) ids.link(l);
    expect(lines.map((l) => l.rpcId)).toEqual([null, null, null, null]);
  });
});
