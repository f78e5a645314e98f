import { BUDGET_COUNT_LIMITS, type BudgetCount } from '../core/settings/settings';

export type Parsed = { readonly ok: true; readonly value: number } | { readonly ok: false; readonly error: string };

const fmt = (n: number) => n.toLocaleString('en-US');

/**
 * A whole-number budget setting as typed: digits, optionally grouped ("100,000", "100 000"),
 * inside the limits data.json is read with. Anything else is refused with a sentence saying what
 * is expected.
 */
export function parseBudgetCount(key: BudgetCount, text: string): Parsed {
  const { min, max } = BUDGET_COUNT_LIMITS[key];
  const range = max === null ? `${fmt(min)} or more` : `from ${fmt(min)} to ${fmt(max)}`;
  const expected = `Enter a whole number, ${range}.`;
  const compact = text.trim().replace(/(\d)[,_ ](?=\d{3}(?!\d))/g, '$1');
  if (/^-\d+$/.test(compact)) return { ok: false, error: `${compact} is out of range. ${expected}` };
  if (!/^\d+$/.test(compact)) return { ok: false, error: compact ? `"${text.trim()}" is not a whole number. ${expected}` : expected };
  const value = Number(compact);
  if (!Number.isSafeInteger(value) || value < min || (max !== null && value > max)) return { ok: false, error: `${fmt(value)} is out of range. ${expected}` };
  return { ok: true, value };
}

/**
 * A model setting as typed (`provider-id/model`, or a model name on the chat's provider): what it
 * will be read as when that may not be what was meant (src/core/settings/settings.ts summaryTarget), else null.
 */
export function modelRefNote(text: string, providerIds: readonly string[]): string | null {
  const value = text.trim();
  const slash = value.indexOf('/');
  if (!value || slash < 0 || providerIds.includes(value.slice(0, slash))) return null;
  return `No provider has the ID "${value.slice(0, slash)}": "${value}" is asked of the chat's provider as a model name.`;
}
