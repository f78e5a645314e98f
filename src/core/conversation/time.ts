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

/** Digits of `text` from `at`, `n` of them, as a number; -1 if one is not a digit. */
function digitsAt(text: string, at: number, n: number): number {
  let value = 0;
  for (let i = at; i < at + n; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

/**
 * The form isoFromEpoch writes for years 1000–9999 (2026-11-22T01:02:03.004Z), read without the
 * pattern: a reopened chat reads thousands of them. null when the text is not exactly that form
 * (then the general reader below decides).
 */
function epochFromCanonical(text: string): number | null {
  if (text.length !== 24 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84) return null;
  if (text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58 || text.charCodeAt(19) !== 46 || text.charCodeAt(23) !== 90) return null;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const second = digitsAt(text, 17, 2);
  const millis = digitsAt(text, 20, 3);
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60 || millis < 0) return null;
  return Date.UTC(year, month - 1, day, hour, minute, second) + millis;
}

/** ISO 8601 date-time (Z or ±hh:mm offset, optional seconds and fraction) → epoch ms; null if it is not one. */
export function epochFromIso(text: string): number | null {
  const canonical = epochFromCanonical(text);
  if (canonical !== null) return canonical;
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
