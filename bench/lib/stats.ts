/** Small, pure statistics for benchmark samples. */

/** Value at quantile q (0..1) of the samples, nearest-rank on the sorted list. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) throw new Error('quantile of no samples');
  if (q < 0 || q > 1) throw new Error(`quantile ${q} is outside 0..1`);
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[rank - 1];
}

/** Median; the mean of the two middle values for an even count. */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) throw new Error('median of no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function p95(samples: readonly number[]): number {
  return quantile(samples, 0.95);
}

/**
 * Growth exponent k in t ∝ N^k between two sizes: log(t2/t1) / log(N2/N1).
 * ~0: flat; ~1: linear in N; ~2: quadratic.
 */
export function growthExponent(n1: number, t1: number, n2: number, t2: number): number {
  if (n1 <= 0 || n2 <= 0 || n1 === n2) throw new Error(`growth exponent needs two distinct positive sizes, got ${n1} and ${n2}`);
  if (t1 <= 0 || t2 <= 0) throw new Error(`growth exponent needs positive times, got ${t1} and ${t2}`);
  return Math.log(t2 / t1) / Math.log(n2 / n1);
}

/** a ÷ b, or null when b is 0 (a ratio that does not exist is not printed as Infinity). */
export function ratio(a: number, b: number): number | null {
  return b === 0 ? null : a / b;
}
