import fc from 'fast-check';
import { epochFromFields, epochFromIso, isoFromEpoch } from '../../../src/core/conversation/time';

// Expected values were produced by the earlier hand-written calendar (days-from-civil arithmetic),
// so these pin the behaviour the chat notes already on disk rely on.
const READ: ReadonlyArray<[string, number | null]> = [
  ['2026-11-22T01:02:03.004Z', 1795309323004],
  ['2026-11-22T01:02:03Z', 1795309323000],
  ['2026-11-22T01:02Z', 1795309320000],
  ['2026-11-22 01:02', 1795309320000],
  ['2026-11-22T01:02:03.0045Z', 1795309323005],
  ['2026-11-22T01:02:03.123456789Z', 1795309323123],
  ['2026-11-22T01:02:03.9999Z', 1795309324000],
  ['2026-11-22T01:02:03+02:00', 1795302123000],
  ['2026-11-22T01:02:03-0530', 1795329123000],
  [' 2026-11-22T01:02:03Z ', 1795309323000],
  ['2024-02-30T00:00:00Z', 1709251200000],
  ['2024-12-31T23:59:60Z', 1735689600000],
  ['0050-01-01T00:00:00Z', -60589296000000],
  ['0000-03-01T00:00:00Z', -62162035200000],
  ['1969-12-31T23:59:59.999Z', -1],
  ['2026-13-01T00:00Z', null],
  ['2026-11-22T24:00Z', null],
  ['2026-11-22', null],
  ['yesterday', null],
  ['', null],
];

const WRITE: ReadonlyArray<[number, string]> = [
  [0, '1970-01-01T00:00:00.000Z'],
  [-1, '1969-12-31T23:59:59.999Z'],
  [1_700_000_000_000, '2023-11-14T22:13:20.000Z'],
  [1795309323004, '2026-11-22T01:02:03.004Z'],
  [253402300799999, '9999-12-31T23:59:59.999Z'],
  [-62167219200000, '0000-01-01T00:00:00.000Z'],
];

const YEAR_0 = -62167219200000;
const YEAR_10000 = 253402300800000;

describe('chat note times', () => {
  test.each(READ)('reads %j', (text, ms) => {
    expect(epochFromIso(text)).toBe(ms);
  });

  test.each(WRITE)('writes %d as %s', (ms, text) => {
    expect(isoFromEpoch(ms)).toBe(text);
  });

  test('zone-less fields are read as UTC, years below 100 included', () => {
    expect(epochFromFields(2024, 1, 2, 3, 4, 5)).toBe(1704164645000);
    expect(epochFromFields(50, 1, 1, 0, 0, 0)).toBe(-60589296000000);
  });

  test('years 0000–9999 are written in the four-digit form and read back to the same millisecond', () => {
    fc.assert(
      fc.property(fc.integer({ min: YEAR_0, max: YEAR_10000 - 1 }), (ms) => {
        const text = isoFromEpoch(ms);
        expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        expect(epochFromIso(text)).toBe(ms);
      }),
      { numRuns: 2000 },
    );
  });

  test('every time a Date can hold reads back, expanded years included; anything else is not a time', () => {
    fc.assert(
      fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => {
        expect(epochFromIso(isoFromEpoch(ms))).toBe(ms);
      }),
      { numRuns: 2000 },
    );
    expect(isoFromEpoch(8.64e15 + 1)).toBe('8640000000000001');
    expect(isoFromEpoch(Number.NaN)).toBe('NaN');
    expect(epochFromIso(isoFromEpoch(Number.NaN))).toBeNull();
    expect(epochFromIso('+275760-09-13T00:00:00.001Z')).toBeNull();
  });
});

describe('the canonical form read without the pattern', () => {
  it('gives what the general reader gives, for the form isoFromEpoch writes and near misses', () => {
    // The general reader, reached through forms the fast path declines (a space for T, no fraction).
    const general = (iso: string) => epochFromIso(` ${iso}`);
    const samples = [0, 1, 999, 86_399_999, Date.UTC(2026, 10, 27, 15, 30, 1, 7), Date.UTC(1000, 0, 1), Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(2024, 1, 29, 12)];
    for (const ms of samples) {
      const iso = isoFromEpoch(ms);
      expect(epochFromIso(iso)).toBe(ms);
      expect(epochFromIso(iso)).toBe(general(iso));
    }
    for (const bad of ['2026-13-01T00:00:00.000Z', '2026-11-27T24:00:00.000Z', '2026-11-27T12:60:00.000Z', '2026-11-27T12:00:00.00xZ', '2026-11-27T12:00:00.000z', '0999-01-01T00:00:00.000Z']) {
      expect(epochFromIso(bad)).toBe(general(bad));
    }
  });
});
