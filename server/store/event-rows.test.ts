// arrayToEvent must be rowToEvent(jsonRow(row)) exactly: same values, same key order.
import { describe, expect, it } from 'vitest';
import { arrayToEvent, JSON_FIELDS, jsonRow, rowToEvent } from './event-rows.ts';

describe('arrayToEvent', () => {
  it('reads a stored row as rowToEvent reads it through jsonRow', () => {
    const full = [
      'client.log',
      12,
      '14',
      'client',
      'iso-level-logger',
      'line',
      '1795939200020',
      'error',
      'POST … -> 502',
      'raw text',
      'POST',
      '/mcp?x=1',
      502,
      'abc123',
      '"7"',
      'tools/call',
      'get_order',
      'sess_abcdefghij',
      '2025-11-25',
      '15.5',
      '{"bytes":"735","direction":"response"}',
      'http-502 upstream-refused',
    ];
    const rows: unknown[][] = [
      full,
      full.map((v, i) => (i < 10 ? v : null)), // every optional column null
      full.map((v, i) => (i === 14 ? '12' : i === 20 ? { bytes: 1 } : i === 21 ? '' : v)), // numeric rpc id, attrs as an object, no signals
      full.map((v, i) => (i === 8 ? null : v)), // a message that is its text travels as null
      full.slice(0, 15), // a short row: the rest undefined
      JSON_FIELDS.map(() => undefined),
    ];
    for (const a of rows) {
      const want = rowToEvent(jsonRow(a));
      const got = arrayToEvent(a);
      expect(got).toStrictEqual(want);
      expect(Object.keys(got)).toEqual(Object.keys(want));
    }
  });
});
