/** 12345 → "12,345": counts in plan texts, the same on every machine (no locale). */
export function formatCount(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
