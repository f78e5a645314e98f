/**
 * Epoch milliseconds ↔ ISO 8601 (UTC) for the chat note. Pure: Date is used only to convert given
 * numbers (Date.UTC, toISOString), never to read the clock. Text is matched by a pattern and its
 * fields handed to Date.UTC, not given to Date.parse, which reads a time without a zone (or with a
 * space for `T`) as local time, differently per engine.
 */

/** Largest distance from the epoch a Date can hold (±100,000,000 days). */
const MAX_MS = 8.64e15;
/** A 400-year Gregorian cycle: exactly 146,097 days. */
const CYCLE_MS = 146_097 * 86_400_000;

/** Civil fields read as UTC (day and month overflow carry, as in Date.UTC). */
function utc(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  // Date.UTC reads years 0–99 as 1900–1999: take those a cycle later and step back.
  if (year >= 0 && year <= 99) return Date.UTC(year + 400, month - 1, day, hour, minute, second) - CYCLE_MS;
  return Date.UTC(year, month - 1, day, hour, minute, second);
}

/**
 * 2026-11-22T01:02:03.004Z (years outside 0000–9999 as ±YYYYYY, which epochFromIso reads back).
 * Not a time (NaN, beyond ±8.64e15 ms) has no ISO form and is written as the number.
 */
export function isoFromEpoch(ms: number): string {
  return Number.isFinite(ms) && Math.abs(ms) <= MAX_MS ? new Date(ms).toISOString() : String(ms);
}

/** ISO 8601 date-time (Z or ±hh:mm offset, optional seconds and fraction) → epoch ms; null if it is not one. */
export function epochFromIso(text: string): number | null {
  const m = /^([+-]\d{6}|\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const fields = [Number(mo), Number(d), Number(h), Number(mi), Number(s ?? 0)];
  if (fields[0] < 1 || fields[0] > 12 || fields[1] < 1 || fields[1] > 31 || fields[2] > 23 || fields[3] > 59 || fields[4] > 60) return null;
  let ms = utc(Number(y), fields[0], fields[1], fields[2], fields[3], fields[4]);
  if (frac) ms += Math.round(Number(`0.${frac}`) * 1000);
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  return Math.abs(ms) <= MAX_MS ? ms : null;
}

/** Local wall-clock fields read as if they were UTC (for formats that carry no zone). */
export function epochFromFields(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  return utc(year, month, day, hour, minute, second);
}
